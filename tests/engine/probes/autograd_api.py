# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""The autograd API around the lessons: torch.autograd.functional, hooks of every kind,
saved_tensors_hooks, anomaly switches, inference_mode, grad-mode decorators (also on
generators), autograd.grad and autograd.backward's options."""

PROBES = [
    # a non-leaf's .grad warns only while it is undefined (an assigned one is returned quietly)
    """x = torch.ones(2, requires_grad=True); y = x * 2
print(y.grad)
y.grad = torch.ones(2); print(y.grad)
y.grad = None; print(y.grad)""",
    # forward AD has one level at a time, in both
    """import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    with fwAD.dual_level():
        pass""",
    # the named tuples of max/min/sort/topk
    """r = torch.tensor([[1., 5.], [3., 2.]]).max(0)
print(type(r), type(r).__name__, isinstance(r, torch.return_types.max), r.values, r[1])""",
    """r = torch.tensor([3., 1., 2.]).topk(2)
print(r, isinstance(r, tuple), len(r), isinstance(r, torch.return_types.sort))""",
    # held-out style probes (issue 13 audit)
    """from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
f = lambda x: (x ** 2).sum()
x = torch.tensor([1., 2.])
print(jacobian(f, x), hessian(f, x), vjp(f, x), jvp(f, x, torch.ones(2)), hvp(f, x, torch.ones(2)), vhp(f, x, torch.ones(2)))""",
    """from torch.autograd.functional import jacobian
print(jacobian(lambda a, b: a * b, (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))""",
    """from torch.autograd.functional import jacobian
print(jacobian(lambda x: x.exp(), torch.tensor([[1., 2.]]), create_graph=True))""",
    """from torch.autograd.functional import jacobian
print(jacobian(lambda x: torch.ones(2), torch.tensor([1., 2.])))""",
    """from torch.autograd.functional import jacobian
jacobian(lambda x: torch.ones(2), torch.tensor([1., 2.]), strict=True)""",
    """from torch.autograd.functional import jacobian
print(jacobian(lambda x: x.sum(), torch.tensor([1., 2.]), vectorize=True))""",
    """from torch.autograd.functional import jacobian
print(jacobian(lambda x: (x, x * 2), torch.tensor([1., 2.])))""",
    """from torch.autograd.functional import vjp
vjp(lambda x: x * 2, torch.tensor([1., 2.]))""",
    """from torch.autograd.functional import vjp
print(vjp(lambda x: x * 2, torch.tensor([1., 2.]), torch.tensor([1., 0.])))""",
    """from torch.autograd.functional import hessian
hessian(lambda x: x * 2, torch.tensor([1., 2.]))""",
    """from torch.autograd.functional import hessian
print(hessian(lambda x, y: (x * y).sum(), (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))""",
    """from torch.autograd.functional import jvp
print(jvp(lambda x: x.sin(), torch.tensor([0., 1.]), torch.tensor([1., 1.])))""",
    """from torch.autograd.functional import jvp
jvp(lambda x: x.sin(), torch.tensor([0., 1.]))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
def pack(t):
    print("pack", t)
    return t * 10
def unpack(t):
    print("unpack", t)
    return t / 10
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x.exp()
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: None, lambda t: t):
    y = x.exp()
y.sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.save_on_cpu():
    y = (x * x).sum()
y.backward(); print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t * 0)
y.sum().backward(); print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.register_post_accumulate_grad_hook(lambda p: print("post", p.grad))
(x * 2).sum().backward()
(x * 3).sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_post_accumulate_grad_hook(lambda p: None)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
acc.register_hook(lambda gi, go: print("acc hook", gi, go))
acc.register_prehook(lambda go: print("acc prehook", go))
(x * 2).sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad_fn.register_hook(lambda gi, go: print("node", gi, go))
y.grad_fn.register_prehook(lambda go: (go[0] * 10,))
y.sum().backward(); print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
h = x.register_hook(lambda g: g * 2)
(x * 1).sum().backward(); h.remove(); (x * 1).sum().backward(); print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: print("hook", g))
x.register_hook(lambda g: g + 1)
x.register_hook(lambda g: print("hook2", g))
x.sum().backward(); print(x.grad)""",
    """x = torch.tensor([1., 2.])
x.register_hook(lambda g: g)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: torch.ones(3))
x.sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: g.double())
x.sum().backward(); print(x.grad)""",
    """torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())""",
    """x = torch.tensor([-1., 1.], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=False):
    y = x.sqrt().sum()
    y.backward()
print(x.grad)""",
    """with torch.inference_mode():
    x = torch.ones(2)
print(x.is_inference(), x.requires_grad)
y = torch.ones(2, requires_grad=True)
(x * y).sum().backward()
print(y.grad)""",
    """with torch.inference_mode():
    x = torch.ones(2)
x.requires_grad_()""",
    """with torch.inference_mode():
    x = torch.ones(2)
x.add_(1)""",
    """with torch.inference_mode():
    x = torch.ones(2)
w = torch.ones(2, requires_grad=True)
y = (w * x).exp()
y.sum().backward(); print(w.grad)""",
    """with torch.inference_mode():
    x = torch.ones(2)
w = torch.ones(2, requires_grad=True)
y = w.exp() * 1
z = w.exp()
z.mul_(x)
print(z)""",
    """@torch.no_grad()
def gen(x):
    for i in range(2):
        yield x * i
x = torch.ones(2, requires_grad=True)
for v in gen(x):
    print(v.requires_grad, torch.is_grad_enabled())
print(torch.is_grad_enabled())""",
    """@torch.inference_mode()
def f(x):
    return x * 2
y = f(torch.ones(2, requires_grad=True)); print(y.requires_grad, y.is_inference())""",
    """@torch.enable_grad()
def f(x):
    return x * 2
with torch.no_grad():
    y = f(torch.ones(2, requires_grad=True))
print(y.requires_grad, torch.is_grad_enabled())""",
    """with torch.set_grad_enabled(False):
    y = torch.ones(2, requires_grad=True) * 2
print(y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False); print(torch.is_grad_enabled()); torch.set_grad_enabled(True)""",
    """x = torch.tensor(2., requires_grad=True)
y = x.relu()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn, g.requires_grad)""",
    """x = torch.tensor([-2., 3.], requires_grad=True)
(x.abs() ** 2).sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
g = x.grad.sum(); x.grad = None; g.backward(); print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
h, = torch.autograd.grad(g.sum(), x)
print(g, h)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
torch.autograd.grad((x * 2).sum(), x, retain_graph=True, allow_unused=True, materialize_grads=True)""",
    """x = torch.tensor([1., 2.], requires_grad=True); z = torch.tensor([1.], requires_grad=True)
print(torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True))""",
    """x = torch.tensor([1., 2.], requires_grad=True); z = torch.tensor([1.], requires_grad=True)
print(torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True, materialize_grads=True))""",
    """x = torch.tensor([1., 2.], requires_grad=True); z = torch.tensor([1.], requires_grad=True)
torch.autograd.grad((x * 2).sum(), [x, z])""",
    """x = torch.tensor([1., 2.], requires_grad=True)
torch.autograd.backward([(x * 2).sum(), (x * 3).sum()]); print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
torch.autograd.backward(y, grad_tensors=torch.tensor([1., 1.]), inputs=[x]); print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.backward(torch.ones(3))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.backward(torch.ones(2, dtype=torch.float64)); print(x.grad, x.grad.dtype)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.backward(torch.ones(2, dtype=torch.int64))""",
    # held-out style probes (issue 13 audit)
    "print(torch.nn.functional.mse_loss(torch.ones(2, 1), torch.zeros(2)))",
    "x = torch.ones(2, requires_grad=True); y = x * 2; y.retain_grad(); z = y[0]; z.retain_grad(); (z * 3).backward(); print(y.grad, z.grad, x.grad)",
    "x = torch.ones(2, requires_grad=True); y = (x * 2).sum(); y.backward(retain_graph=True); y.backward(); print(x.grad)",
    "x = torch.ones(2, requires_grad=True); g, = torch.autograd.grad((x * x).sum(), x, grad_outputs=torch.tensor(2.)); print(g)",
    "x = torch.ones(2, requires_grad=True); torch.autograd.grad(x * x, x)",
    "x = torch.ones(2, requires_grad=True); print(torch.autograd.grad(x * x, x, torch.ones(2)), torch.autograd.grad([x.sum(), (x * 2).sum()], x))",
    "x = torch.ones(2, requires_grad=True); y = x * 2; torch.autograd.grad(y.sum(), y.detach())",
    "x = torch.ones(2, requires_grad=True); print(torch.autograd.grad(x.sum(), x, create_graph=True)[0].requires_grad)",
    "x = torch.ones(2); x.requires_grad = True; y = x ** 2; y.backward(gradient=torch.tensor([1., 0.5])); print(x.grad)",
    "x = torch.ones(2, requires_grad=True); x.grad = torch.ones(3)",
    "x = torch.ones(2, requires_grad=True); x.grad = torch.ones(2, dtype=torch.float64)",
    "x = torch.ones(2, requires_grad=True); x.grad = torch.ones(2) * 5; (x * 2).sum().backward(); print(x.grad); x.grad.zero_(); print(x.grad)",
    "x = torch.ones(2, requires_grad=True); y = x.sum(); y.backward(); g = x.grad; y2 = (x * 3).sum(); y2.backward(); print(g is x.grad, g)",
    "x = torch.ones(2, requires_grad=True); (x * 2).sum().backward(create_graph=True); g = x.grad; (x * 3).sum().backward(); print(g is x.grad, x.grad, x.grad.grad_fn)",
    "x = torch.ones(2, 2, requires_grad=True); x.T.sum().backward(); print(x.grad, x.grad.stride(), x.grad.is_contiguous())",
    "x = torch.ones(3, 2, requires_grad=True); x.t().contiguous().sum().backward(); print(x.grad.stride())",
    "x = torch.ones(2, 3, requires_grad=True); (x.t() * torch.ones(3, 2)).sum().backward(); print(x.grad.stride())",
    "x = torch.ones(2, 3, requires_grad=True); x.expand(4, 2, 3).sum().backward(); print(x.grad)",
    "w = torch.ones(3, 2, requires_grad=True); (torch.ones(4, 3) @ w).sum().backward(); print(w.grad, w.grad.stride())",
    "w = torch.ones(2, 3, requires_grad=True); (torch.ones(4, 3) @ w.t()).sum().backward(); print(w.grad.stride(), w.grad.is_contiguous())",
    "x = torch.tensor(2., requires_grad=True); y = x ** 2; y.backward(); y2 = x ** 3; print(x.grad); x.grad = None; y2.backward(); print(x.grad)",
    "x = torch.ones(2, requires_grad=True); y = x.exp(); y.backward(torch.ones(2)); y.backward(torch.ones(2))",
    "x = torch.ones(2, requires_grad=True); y = x.exp(); del x; y.sum().backward(); print(y.grad_fn.next_functions[0][0].variable)",
    # next_functions is read-only and built anew on each access
    "x = torch.ones(2, requires_grad=True); y = x * 2; y.grad_fn.next_functions = ()",
    "x = torch.ones(2, requires_grad=True); y = x * 2; del y.grad_fn.next_functions",
    "x = torch.ones(2, requires_grad=True); f = (x * 2).grad_fn; print(f.next_functions is f.next_functions, f.next_functions == f.next_functions)",
    "x = torch.ones(2, requires_grad=True); f = (x * x + x).grad_fn; print([type(n).__name__ for n, _ in f.next_functions], [i for _, i in f.next_functions])",
    "a, b = torch.ones(2, requires_grad=True).split(1); y = b * a; print([(type(n).__name__, i) for n, i in y.grad_fn.next_functions])",
    "x = torch.ones(3); v = x[1:]; x.add_(1); print(x._version, v._version, type(x._version))",
    "x = torch.ones(2, requires_grad=True); y = x.exp(); z = y * 1; y.mul_(2); z.backward(torch.ones(2)); print(x.grad)",
    "x = torch.ones(2, requires_grad=True); y = x.exp(); y.mul_(2); y.sum().backward()",
    # grad_dtype (torch 2.13): a leaf's allowed gradient dtype, the engine casting to it
    """x = torch.ones(2, requires_grad=True)
z = torch.ones(2); print(z.grad_dtype)
i = torch.ones(2, dtype=torch.long); print(i.grad_dtype)
x.grad_dtype = torch.float64
print(x.grad_dtype)
(x*2).sum().backward(); print(x.grad, x.grad.dtype)
(x*3).sum().backward(); print(x.grad, x.grad.dtype)
y = x*2
for f in (lambda: y.grad_dtype, lambda: setattr(y, 'grad_dtype', torch.float64)):
    try:
        f()
    except Exception as e: print(type(e).__name__, e)
x.grad = None
x.grad_dtype = None; print(x.grad_dtype)
(x*2).sum().backward(); print(x.grad.dtype)
x.grad = torch.ones(2, dtype=torch.float64)
print(x.grad.dtype)
(x*2).sum().backward(); print(x.grad, x.grad.dtype)
w = torch.ones(2, requires_grad=True)
for v in (torch.ones(2, dtype=torch.float64), 'a'):
    try:
        w.grad = v
    except Exception as e: print(type(e).__name__, e)
try:
    w.grad_dtype = 'a'
except Exception as e: print(type(e).__name__, e)
w2 = torch.ones(2, requires_grad=True); w2.grad = torch.ones(2)
try:
    w2.grad_dtype = torch.float64
except Exception as e: print(type(e).__name__, e)
w2.grad_dtype = torch.float32; print(w2.grad_dtype)
h = torch.tensor([1.0, 2.0], requires_grad=True)
h.grad_dtype = torch.float16
(h * 0.1).sum().backward(); print(h.grad, h.grad.dtype)
g = torch.tensor([1.0, 2.0], requires_grad=True)
g.grad_dtype = torch.float64
(g * 3).sum().backward(create_graph=True); print(g.grad, g.grad.dtype, g.grad.grad_fn)""",
    "print(torch.autograd.graph.Node, isinstance(torch.ones(1, requires_grad=True).exp().grad_fn, torch.autograd.graph.Node))",
    # a sample compared with None inside vmap: False and True, as outside
    "print(torch.func.vmap(lambda x: (print(x == None, x != None), x.sin())[1])(torch.ones(2, 3)))",
    """import warnings
with warnings.catch_warnings():  # torch's first dual tensor: jit warnings of its own
    warnings.simplefilter('ignore')
    torch.func.jacfwd(torch.sin)(torch.ones(1))
print(torch.func.jacfwd(lambda x: x.sin() * (x != None))(torch.ones(2)))""",
]

KNOWN = {}
