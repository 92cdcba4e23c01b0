# ruff: noqa: E501 - snippets are kept as torch's docs write them, one per line
"""The ``>>>`` examples of torch's autograd docstrings (torch/autograd, torch.func,
torch.utils.checkpoint, Tensor's autograd methods), run under both engines by a red-team
sweep (issue s39): each snippet here is one that minigrad once got wrong, or a variation
of one that shows the rule behind it."""

PROBES = [
    # a Function with its own vmap rule around NumPy code (extending.func.rst's NumpySort)
    'class NpSin(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return torch.tensor(np.sin(x.detach().numpy()))\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.save_for_backward(inputs[0])\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return g * x.cos()\n    @staticmethod\n    def vmap(info, in_dims, x):\n        return NpSin.apply(x), in_dims[0]\nx = torch.arange(6.).view(2, 3)\nprint(torch.vmap(NpSin.apply)(x), torch.vmap(lambda r: NpSin.apply(r).sum())(x))',
    # reading a sample's values inside vmap: torch's errors (a batched tensor has no storage)
    "torch.vmap(lambda r: torch.tensor(r.tolist()))(torch.ones(2, 3))",
    "torch.vmap(lambda r: torch.from_numpy(r.numpy()))(torch.ones(2, 3))",
    "torch.vmap(lambda r: r * float(r.sum()))(torch.ones(2, 3))",
    "torch.vmap(lambda r: r * int(r.sum()))(torch.ones(2, 3))",
    "torch.vmap(lambda r: r.data_ptr() and r)(torch.ones(2, 3))",
    "torch.vmap(lambda r: r.untyped_storage() and r)(torch.ones(2, 3))",
    "torch.vmap(lambda r: len(r.storage()) and r)(torch.ones(2, 3))",
    "torch.vmap(lambda r: r.sum().__index__() and r)(torch.ones(2, 3))",
    "torch.vmap(lambda r: torch.tensor(np.asarray(r)))(torch.ones(2, 3))",
    "# a custom Function under torch.func's transforms: torch's rules (extending.func.rst)\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * 2\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\ntorch.vmap(F.apply)(torch.ones(3, 2))",
    'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * 2\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nprint(torch.vmap(lambda r: F.apply(torch.ones(2)) + r)(torch.ones(3, 2)))',
    'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * 2\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nF.generate_vmap_rule = True\nprint(torch.vmap(F.apply)(torch.ones(3, 2)), torch.func.grad(lambda x: F.apply(x).sum())(torch.ones(3)))',
    'class G(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\ntorch.vmap(G.apply)(torch.ones(3, 2))',
    'class G(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\ntorch.func.grad(lambda x: G.apply(x).sum())(torch.ones(3))',
    'class G(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\ntorch.func.vjp(G.apply, torch.ones(3))',
    'class G(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\ntorch.func.jacrev(G.apply)(torch.ones(3))',
    'class G(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nprint(G.apply(torch.ones(2)), torch.vmap(lambda r: r * 2)(torch.ones(2)))',
    'print(torch.autograd.Function.generate_vmap_rule)\ntorch.autograd.Function.vmap(None, None)',
    # torch.autograd.grad inside vmap with batched grad_outputs: one batched pass (the rows of
    # a Jacobian), then the graph is freed as after any grad()
    """x = torch.randn(5, requires_grad=True, generator=torch.Generator().manual_seed(0))
y = x ** 2
print(torch.vmap(lambda v: torch.autograd.grad(y, x, v))(torch.eye(5)))
torch.vmap(lambda v: torch.autograd.grad(y, x, v))(torch.eye(5))""",
    """x = torch.randn(3, requires_grad=True, generator=torch.Generator().manual_seed(1))
y, z = x.sin(), x.exp()
print(torch.vmap(lambda v: torch.autograd.grad([y, z], [x], [v, torch.ones(3)], retain_graph=True))(torch.eye(3)))
print(torch.vmap(lambda v: torch.autograd.grad(y, {'x': x}, v, retain_graph=True))(torch.eye(3)) if False else '')
print(torch.vmap(lambda v: torch.autograd.grad(y, x, v, retain_graph=True)[0] * 2, in_dims=1)(torch.eye(3) * 3))""",
    # Tensor.register_post_accumulate_grad_hook's example: a hook may hand back the tensor it
    # got (add_ returns it); another tensor is checked like a tensor hook's result, then refused
    "v = torch.tensor([0., 0., 0.], requires_grad=True); lr = 0.01\nh = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))\nv.backward(torch.tensor([1., 2., 3.])); print(v); h.remove()",
    "v = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(lambda p: p); v.register_post_accumulate_grad_hook(lambda p: print('second', p.grad)); v.sum().backward()",
    "v = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(lambda p: p * 1); v.register_post_accumulate_grad_hook(lambda p: print('second', p)); v.sum().backward()",
    "v = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(lambda p: 5); v.sum().backward()",
    "def half(p):\n    return p[:2] * 1\nv = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(half); v.sum().backward()",
    "v = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(lambda p: p.double()); v.sum().backward()",
    "p = torch.nn.Parameter(torch.zeros(3)); p.register_post_accumulate_grad_hook(lambda p: p * 1); p.sum().backward()",
    # torch.asarray's examples: aliasing a tensor or an array, copying, its requires_grad
    "a = torch.tensor([1, 2, 3]); b = torch.asarray(a); c = torch.asarray(a, copy=True); print(a.data_ptr() == b.data_ptr(), a.data_ptr() == c.data_ptr(), b is a)",
    "a = torch.tensor([1., 2., 3.], requires_grad=True); b = a + 2; c = torch.asarray(b, requires_grad=False); d = torch.asarray(b, requires_grad=True); e = torch.asarray(b); print(b, c, d, e, c._base is b, d is b)",
    "array = np.array([1, 2, 3]); t1 = torch.asarray(array); t2 = torch.asarray(array, dtype=torch.float32); print(array.__array_interface__['data'][0] == t1.data_ptr(), array.__array_interface__['data'][0] == t2.data_ptr()); array[0] = 7; print(t1, t2)",
    "print(torch.asarray(np.float64(0.5)), torch.asarray(np.float16(1)), torch.asarray(3), torch.asarray([1, 2], dtype=torch.float64), torch.asarray((1, True)), torch.asarray([1., 2.], requires_grad=True))",
    "a = torch.tensor([1., 2.], requires_grad=True); b = a * 2\nfor kw in [dict(copy=True), dict(dtype=torch.float64), dict(dtype=torch.float64, requires_grad=False), dict(requires_grad=True), dict(requires_grad=False)]:\n    for t in (b, a):\n        r = torch.asarray(t, **kw); print(kw, r, r.is_leaf, r is t, r.data_ptr() == t.data_ptr())\nprint(a.requires_grad)",
    "torch.asarray(np.float64(1), copy=False)",
    "torch.asarray([1, 2], copy=False)",
    "torch.asarray(torch.tensor([1]), dtype=torch.float32, copy=False)",
    "torch.asarray(np.array([1, 2]), dtype=torch.float64, copy=False)",
    "torch.asarray(torch.tensor([1]), requires_grad=True)",
    "torch.asarray([1, 2], requires_grad=True)",
    # torch.autograd.enforce_grad_layout_policy's example, and what it changes: a permuted
    # gradient nobody else holds becomes .grad as it is (each probe leaves the policy on)
    "p = torch.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()\nwith torch.autograd.enforce_grad_layout_policy(False):\n    (p * 2).sum().backward()\nprint(p.grad.stride(), p.grad.sum())",
    "q = torch.zeros(4, 2, 3, requires_grad=True); (q.permute(1, 2, 0) * 2).sum().backward(); print(q.grad.stride()); q.grad = None\nwith torch.autograd.enforce_grad_layout_policy(False):\n    (q.permute(1, 2, 0) * 2).sum().backward(); print(q.grad.stride())\n    (q.permute(1, 2, 0) * 2).sum().backward(); print(q.grad.stride(), q.grad.sum())\nq.grad = None; (q.permute(1, 2, 0) * 2).sum().backward(); print(q.grad.stride())",
    "q = torch.zeros(4, 2, 3, requires_grad=True); g = torch.ones(2, 3, 4).permute(2, 0, 1)\nwith torch.autograd.enforce_grad_layout_policy(False):\n    q.backward(g)\nprint(q.grad.stride())",
    "q = torch.zeros(4, 2, 3, requires_grad=True)\ndef run():\n    q.grad = None; (q.permute(1, 2, 0) * 2).sum().backward(); return q.grad.stride()\ne = torch.autograd.enforce_grad_layout_policy(False); print(run())\nf = torch.autograd.enforce_grad_layout_policy(True)(run); print(f(), run())\ntorch.autograd.enforce_grad_layout_policy(True); print(run())",
    # Function.save_for_forward's example defines vjp, torch's other name for backward (both: an error)
    'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x): return x * 2\n    @staticmethod\n    def vjp(ctx, g): return g * 3\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward(); print(x.grad, y.grad_fn)',
    'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x): return x * 2\n    @staticmethod\n    def backward(ctx, g): return g * 2\n    @staticmethod\n    def vjp(ctx, g): return g * 3\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(y); y.sum().backward()',
    'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x): return x * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward()',
    # torch.autograd.grad(..., is_grads_batched=True): vmap's docstring computes a Jacobian this way
    'x = torch.ones(2, requires_grad=True); print(torch.autograd.grad(x * 2, x, grad_outputs=torch.eye(2), is_grads_batched=True))',
    'x = torch.ones(2, requires_grad=True); torch.autograd.grad(x * 2, x, grad_outputs=torch.eye(2)[:, :1], is_grads_batched=True)',
    'x = torch.ones(2, requires_grad=True); torch.autograd.grad((x * 2).sum(), x, is_grads_batched=True)',
    'x = torch.ones(2, requires_grad=True); torch.autograd.grad((x * 2).sum(), x, grad_outputs=torch.tensor(1.), is_grads_batched=True)',
    'x = torch.ones(2, requires_grad=True); torch.autograd.grad(x * 2, x, is_grads_batched=True)',
    'x = torch.ones(2, requires_grad=True); y = x * 2; torch.autograd.grad((y, y.sum()), x, grad_outputs=(torch.ones(3, 2), torch.ones(2)), is_grads_batched=True)',
    'x = torch.ones(2, requires_grad=True); z = torch.ones(2, requires_grad=True); y = x * 2\nprint(torch.autograd.grad(y, (x, z), grad_outputs=torch.ones(3, 2), is_grads_batched=True, allow_unused=True, retain_graph=True))\nprint(torch.autograd.grad(y, (x, z), grad_outputs=torch.ones(3, 2), is_grads_batched=True, materialize_grads=True, retain_graph=True))\nprint(torch.autograd.grad(y, (x, z), grad_outputs=torch.ones(3, 2), is_grads_batched=True))',
    'x = torch.tensor([1., 2.], requires_grad=True); y = x.exp(); g = torch.autograd.grad(y, x, grad_outputs=torch.ones(3, 2), is_grads_batched=True); print(g); y.sum().backward()',
    'x = torch.tensor([1., 2.], requires_grad=True); y = x.exp(); g = torch.autograd.grad(y, x, grad_outputs=torch.ones(3, 2), is_grads_batched=True, retain_graph=True); y.sum().backward(); print(g, x.grad)',
    'x = torch.tensor([1., 2.], requires_grad=True); y = x ** 3; (g,) = torch.autograd.grad(y, x, grad_outputs=torch.eye(2), is_grads_batched=True, create_graph=True); print(g.requires_grad, g.shape); print(torch.autograd.grad(g.sum(), x))',
    'N = 5; f = lambda x: x ** 2; x = torch.arange(1., 6., requires_grad=True); y = f(x); I_N = torch.eye(N); print(torch.autograd.grad(y, x, I_N, is_grads_batched=True))',
    'x = torch.ones(2, requires_grad=True); w = torch.ones(2); torch.autograd.grad(w * 2, x, grad_outputs=torch.ones(3, 2), is_grads_batched=True)',
    'x = torch.ones(2, 3, requires_grad=True); a, b = x.unbind(); print(torch.autograd.grad((a * 2, b * 3), x, grad_outputs=(torch.ones(4, 3), torch.ones(4, 3)), is_grads_batched=True))',
    # jacobian(strategy='forward-mode') / hessian(outer_jacobian_strategy='forward-mode'): every
    # input dual in each pass, the tangents' batch moved last as torch's vmap leaves it
    "import warnings; warnings.simplefilter('ignore', DeprecationWarning)  # torch's first forward AD: its torch.jit.script\ndef f(t): return (t ** 3).sum()\nx = torch.tensor([1., 2.])\nfor kw in [dict(vectorize=True, outer_jacobian_strategy='forward-mode'), dict(vectorize=True), dict()]:\n    h = torch.autograd.functional.hessian(f, x, **kw); print(h, h.grad_fn, h.stride())",
    "import warnings; warnings.simplefilter('ignore', DeprecationWarning)  # torch's first forward AD: its torch.jit.script\ndef f(a, b): return (a ** 2 * b.sum()).sum()\nh = torch.autograd.functional.hessian(f, (torch.tensor([1., 2.]), torch.ones(2, 3)), vectorize=True, outer_jacobian_strategy='forward-mode'); print([[(t.shape, t.stride(), type(t.grad_fn).__name__) for t in row] for row in h])",
    "import warnings; warnings.simplefilter('ignore', DeprecationWarning)  # torch's first forward AD: its torch.jit.script\nj = torch.autograd.functional.jacobian(lambda t: t.exp().reshape(3, 2), torch.ones(2, 3), vectorize=True, strategy='forward-mode'); print(j.shape, j.stride(), j.is_contiguous())",
    "import warnings; warnings.simplefilter('ignore', DeprecationWarning)  # torch's first forward AD: its torch.jit.script\nj = torch.autograd.functional.jacobian(lambda t: t.exp().sum(), torch.ones(2, 3), vectorize=True, strategy='forward-mode'); print(j, j.stride())",
    "import warnings; warnings.simplefilter('ignore', DeprecationWarning)  # torch's first forward AD: its torch.jit.script\nj = torch.autograd.functional.jacobian(lambda a, b: (a * b, a.sum()), (torch.ones(2), torch.ones(2)), vectorize=True, strategy='forward-mode'); print(j, [[t.stride() for t in r] for r in j])",
    "import warnings; warnings.simplefilter('ignore', DeprecationWarning)  # torch's first forward AD: its torch.jit.script\nx = torch.ones(2, requires_grad=True); j = torch.autograd.functional.jacobian(lambda t: t * x, torch.ones(2), vectorize=True, strategy='forward-mode'); print(j, j.stride())",
    # jacobian(vectorize=True) as torch's: one batched grad of all the outputs (a Jacobian block
    # is then a view of history, an unused input's block expanded zeros, a sum's expanded rows)
    'from torch.autograd.functional import jacobian\nfor kw in [dict(), dict(vectorize=True), dict(create_graph=True), dict(vectorize=True, create_graph=True)]:\n    j = jacobian(lambda a, b: (a * b.sum(), (a ** 2).sum()), (torch.tensor([1., 2.]), torch.ones(2, 3)), **kw)\n    print([[(t.shape, t.stride(), type(t.grad_fn).__name__, t.requires_grad) for t in r] for r in j])',
    'from torch.autograd.functional import hessian\nfor kw in [dict(), dict(vectorize=True), dict(create_graph=True), dict(vectorize=True, create_graph=True)]:\n    h = hessian(lambda a, b: (a ** 2 * b.sum()).sum(), (torch.tensor([1., 2.]), torch.ones(2, 3)), **kw)\n    print([[(t.shape, t.stride(), type(t.grad_fn).__name__, t.requires_grad) for t in r] for r in h])',
    'from torch.autograd.functional import jacobian\nprint(jacobian(lambda t: t.sum(), torch.ones(2, 2), vectorize=True).stride(), jacobian(lambda t: t * 2, torch.ones(2, 2)).stride(), jacobian(lambda t: t * 2, torch.ones(2, 2), vectorize=True).stride())',
    'x = torch.ones(2, 3, requires_grad=True); (g,) = torch.autograd.grad(x.sum(), x, grad_outputs=torch.ones(4), is_grads_batched=True); print(g.shape, g.stride())',
    'x = torch.ones(2, 3, requires_grad=True); (g,) = torch.autograd.grad((x * 2).sum(), x, grad_outputs=torch.ones(4), is_grads_batched=True); print(g.shape, g.stride())',
]

KNOWN = {}
