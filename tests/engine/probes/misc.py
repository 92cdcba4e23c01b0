# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Small things a learner tries: Size, comparisons with None, float indices, custom Functions,
warnings."""

# Custom Functions that several snippets below start from (each snippet still runs alone).
IDENTITY_VIEW = """class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g
"""
DIRTY_DOUBLE = """class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return 2 * g
"""
DIRTY_PLUS_ONE = """class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
"""

PROBES = [
    "s = torch.ones(2, 3, 4).shape; print(s[1:], type(s[1:]).__name__)",
    "s = torch.ones(2, 3, 4).shape; print(s[0], type(s[0]).__name__)",
    "s = torch.ones(2, 3).shape; print(s + (4,), type(s + (4,)).__name__)",
    "s = torch.ones(2, 3).shape; print((4,) + s, type((4,) + s).__name__)",
    "s = torch.ones(2, 3).shape; print(s == (2, 3), s.numel(), len(s))",
    "s = torch.ones(2, 3).shape; print(s * 2, type(s * 2).__name__)",
    "print(torch.Size([2, 3]), torch.Size(), torch.Size((1,)))",
    "x = torch.ones(2); print(x == None, x != None)",
    "x = torch.ones(2); print(x is None, None == x)",
    "x = torch.ones(3); x[1.0]",
    "x = torch.ones(3); x[torch.tensor(1.0)]",
    "x = torch.ones(3); print(x[torch.tensor(1)])",
    "x = torch.ones(3); x[3]",
    "x = torch.ones(3); print(x[None].shape, x[..., None].shape)",
    "x = torch.ones(2, 3); print(x[True].shape)",
    "x = torch.ones(3, requires_grad=True); y = x * 2; print(y.grad)",
    "x = torch.ones(3, requires_grad=True); y = x * 2; y.retain_grad(); print(y.grad)",
    "x = torch.ones(2, 3); print(x.T.shape, x.mT.shape)",  # x.T's warn-once: test_warn_once.py
    "x = torch.tensor([1., 2.]); y = torch.tensor(x); print(y)",
    "x = torch.tensor([1., 2.], requires_grad=True); y = torch.tensor(x); print(y)",
    IDENTITY_VIEW + """x = torch.ones(3, requires_grad=True).clone()
y = Id.apply(x)
print(y.grad_fn)
y.mul_(2)""",
    """class Head(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2]
    @staticmethod
    def backward(ctx, g):
        return torch.cat([g, torch.zeros(1)])
x = torch.ones(3, requires_grad=True).clone()
y = Head.apply(x)
y.add_(1)""",
    """class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(3, requires_grad=True).clone()
y = Same.apply(x)
y.mul_(2)
print(y.grad_fn)""",
    DIRTY_DOUBLE + """x = torch.ones(3, requires_grad=True).clone()
y = Dirty.apply(x)
print(y.grad_fn, y is x)
y.sum().backward()""",
    DIRTY_DOUBLE + """x = torch.ones(3, requires_grad=True)
Dirty.apply(x)""",
    DIRTY_DOUBLE + """x = torch.ones(3, requires_grad=True).clone()
Dirty.apply(x[:2])""",
    """class Forgot(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        return x
    @staticmethod
    def backward(ctx, g):
        return 2 * g
x = torch.ones(3, requires_grad=True).clone()
y = Forgot.apply(x)
print(y.grad_fn, x.grad_fn)""",
    "x = torch.ones(3); print(x.requires_grad, x.is_leaf, x.grad_fn, x.grad)",
    "x = torch.ones(3, requires_grad=True); (x * 2).backward()",
    "x = torch.ones(3, requires_grad=True); y = (x * 2).sum(); y.backward(); y.backward()",
    "x = torch.ones(3); x.sum().backward()",
    "x = torch.ones(1, requires_grad=True); x.backward(); print(x.grad)",
    "x = torch.ones(3, requires_grad=True); print(x.sum().item(), len(x), bool(x[0]))",
    "print(torch.is_tensor(torch.ones(1)), torch.is_tensor([1]))",
    "x = torch.ones(2, 2); bool(x)",
    "x = torch.ones(2); x.view(3)",
    "x = torch.ones(2, 3); x.t().view(6)",
    "x = torch.ones(2, 3); print(x.t().reshape(6).shape, x.t().is_contiguous())",
    "x = torch.ones(2); x + torch.ones(3)",
    "x = torch.ones(2); x + 'a'",
    "x = torch.ones(2); x @ torch.ones(3)",
    "x = torch.ones(2, 2); x.sum(dim=2)",
    "x = torch.ones(()); print(x.shape, x.dim(), x.item())",
    "print(torch.zeros(0), torch.zeros(2, 0).shape)",
    "s = torch.Size([2, 3]); s + [1]",
    "s = torch.Size([2, 3]); print(2 * s, s[::2], s[-1:], s[1])",
    "x = torch.ones(3); x[1.5] = 0",
    "x = torch.ones(3); x[torch.tensor([0.0])] = 2",
    "x = torch.ones(3); print(x[[1.0]] if False else x[[1]])",
    "x = torch.ones(2); print(x == 1, (x == None) is False, x.eq(1))",
    "x = torch.ones(2); print(x.eq(torch.ones(2)), x in [None])",
    DIRTY_PLUS_ONE + """x = torch.ones(3, requires_grad=True).clone()
v = x[:2]
y = Dirty.apply(v)
print(y.grad_fn, x.grad_fn, y is v)""",
    DIRTY_PLUS_ONE + """x = torch.ones(3, requires_grad=True)
y = Dirty.apply(x[:2])""",
    DIRTY_PLUS_ONE + """x = torch.ones(3, requires_grad=True).clone()
y = Dirty.apply(x)
y.mul_(2)
y.sum().backward()
print(y.grad_fn)""",
    IDENTITY_VIEW + """x = torch.ones(3)
y = Id.apply(x)
y.mul_(2)
print(y, y.grad_fn)""",
    IDENTITY_VIEW + """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    y = Id.apply(x)
y.mul_(2)
print(y.grad_fn)""",
    IDENTITY_VIEW + """x = torch.ones(3, requires_grad=True).clone()
y = Id.apply(x)
z = y[:1]
print(z.grad_fn)
z.mul_(2)""",
    IDENTITY_VIEW + """x = torch.ones(3, requires_grad=True).clone()
y = Id.apply(x)
x.mul_(2)
print(y.grad_fn)""",
    'x = torch.ones(3, requires_grad=True); print(x.grad, x.is_leaf); x.sum().backward(); print(x.grad)',
    'x = torch.tensor([1., 2.]); print(x[0], x[-1], x[1:], x[::2])',
    'x = torch.arange(6).view(2, 3); print(x[:, 1], x[1, :2], x[..., -1])',
    'x = torch.ones(3); x[[0, 2]] = 5; print(x)',
    'x = torch.ones(2, 3); print(x[[0, 1], [1, 2]], x[torch.tensor([True, False])])',
    'x = torch.ones(3); x[5] = 1',
    'x = torch.ones(3); print(x[np.int64(1)], x[np.array([0, 1])])',
    'x = torch.ones(3, requires_grad=True); x.grad = torch.ones(2)',
    'x = torch.ones(3, requires_grad=True); x.grad = torch.ones(3, dtype=torch.float64)',
    'x = torch.ones(3, requires_grad=True); y = x * 2; y.requires_grad = False',
    'x = torch.ones(3, requires_grad=True); y = x.detach(); print(y.requires_grad, y.is_leaf, y._version)',
    'x = torch.ones(2, requires_grad=True); y = (x * x).sum(); g, = torch.autograd.grad(y, x); print(g)',
    'x = torch.ones(2, requires_grad=True); y = (x * 2).sum(); torch.autograd.grad(y, x); torch.autograd.grad(y, x)',
    'x = torch.ones(2, requires_grad=True); torch.autograd.grad(x.sum(), [x, torch.ones(2)])',
    'print(torch.ones(2, 3).size(1), torch.ones(2, 3).size(-1), torch.ones(2, 3).size(2))',
    'print(len(torch.ones(4, 2)), torch.ones(4, 2).numel(), torch.ones(0).numel())',
    'print(torch.ones(2, 3).view(-1).shape, torch.ones(2, 3).view(3, -1).shape)',
    'torch.ones(2, 3).view(-1, -1)',
    'x = torch.ones(2, 3); print(x.sum(0), x.sum(-1, keepdim=True), x.mean((0, 1)))',
    "x = torch.ones(2); print(x.item() if x.numel() == 1 else 'many'); x.item()",
    'x = torch.tensor([1., 2.], requires_grad=True); print(x.tolist(), x.sum().item())',
    'x = torch.tensor([1.]); print(int(x), float(x), bool(x), x.item())',
    'print(torch.tensor([[1, 2], [3]]))',
    'print(torch.tensor([]), torch.tensor([[]]).shape)',
    "torch.tensor([1, 'a'])",
    'x = torch.ones(2, requires_grad=True); (x * 2).sum().backward(); (x * 3).sum().backward(); print(x.grad)',
    'x = torch.ones(2, requires_grad=True); (x * 2).sum().backward(); x.grad.zero_(); print(x.grad)',
    'x = torch.ones(2, requires_grad=True); (x * 2).sum().backward(); x.grad = None; print(x.grad)',
    """w = torch.ones(2, requires_grad=True); (w * 2).sum().backward()
with torch.no_grad():
    w -= 0.1 * w.grad
print(w, w.is_leaf, w.requires_grad)""",
    'w = torch.ones(2, requires_grad=True); (w * 2).sum().backward(); w -= 0.1 * w.grad',
    'w = torch.ones(2, requires_grad=True); w.data -= 0.5; print(w)',
    """x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn, y.is_leaf)""",
    """x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
y.sum().backward()""",
    'x = torch.ones(2, requires_grad=True); y = x.detach() * 2; print(y.requires_grad)',
    'x = torch.ones(2, requires_grad=True); h = x.register_hook(lambda g: g * 10); (x * 1).sum().backward(); print(x.grad); h.remove()',
    'x = torch.ones(2); x.register_hook(lambda g: g)',
    'x = torch.ones(2, requires_grad=True); y = x * 2; y.retain_grad(); y.sum().backward(); print(y.grad, y.retains_grad)',
    'x = torch.ones(2); x.retain_grad()',
    'x = torch.tensor(2., requires_grad=True); y = x ** 3; g, = torch.autograd.grad(y, x, create_graph=True); g.backward(); print(g, x.grad)',
    # backward(create_graph=True) warns once per process (test_warn_once.py): silenced here
    """import warnings
x = torch.tensor(2., requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    (x ** 3).backward(create_graph=True)
    print(x.grad, x.grad.grad_fn.next_functions)
    (x ** 2).backward(create_graph=True)
print(x.grad, x.grad.grad_fn.next_functions)""",
    'x = torch.ones(2, requires_grad=True); y = x * 2; y.backward(torch.ones(2)); print(x.grad)',
    'x = torch.ones(2, requires_grad=True); y = x * 2; y.backward(torch.ones(3))',
    'x = torch.ones(2, requires_grad=True); y = x.sum(); y.backward(torch.tensor(2.)); print(x.grad)',
    """print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        print(torch.is_grad_enabled())""",
    """@torch.no_grad()
def f(x):
    return x * 2
print(f(torch.ones(2, requires_grad=True)).requires_grad)""",
    """with torch.set_grad_enabled(False):
    y = torch.ones(2, requires_grad=True) * 2
print(y.requires_grad)""",
    """with torch.inference_mode():
    y = torch.ones(2) * 2
print(y.requires_grad, y.is_inference())
y.add_(1)""",
    'x = torch.ones(2, requires_grad=True); y = x * 2; z = y.detach_(); print(z is y, y.requires_grad)',
    'a = torch.ones(2, requires_grad=True); b = torch.ones(2, requires_grad=True); (a * b).sum().backward(inputs=[a]); print(a.grad, b.grad)',
    'x = torch.ones(2, 2, requires_grad=True); y = x @ x; y.sum().backward(); print(x.grad)',
    'x = torch.ones(3, requires_grad=True); y = torch.cat([x, x]); y.sum().backward(); print(x.grad, y.grad_fn)',
    'x = torch.ones(3, requires_grad=True); y = torch.stack([x, x * 2]); print(y.grad_fn, y.shape)',
    'x = torch.ones(3, requires_grad=True); print(x.sum().grad_fn.next_functions[0][0].variable is x)',
    'x = torch.ones(3); print(torch.where(x > 0, x, torch.zeros(3)), torch.where(x > 5, 1.0, 0.0))',
    'x = torch.ones(2, 3); print(x.view(3, 2).is_contiguous(), x.t().is_contiguous(), x.t().contiguous().is_contiguous())',
    'x = torch.ones(2, 3); print(x.permute(1, 0).shape, x.transpose(0, 1).stride())',
    'x = torch.ones(2, 3); x.permute(0)',
    'x = torch.ones(2, 3); x.transpose(0, 2)',
    'x = torch.ones(2, 3); x.reshape(4, 2)',
    'x = torch.ones(2, 3); print(x.expand(2, 2, 3).shape, x.unsqueeze(0).expand(4, -1, -1).shape)',
    'x = torch.ones(2, 3); x.expand(3, 3)',
    'x = torch.ones(2, 1); print(x.squeeze(), x.squeeze(0).shape, x.squeeze(1).shape)',
    'x = torch.ones(3); print(x.unsqueeze(-1).shape, x.unsqueeze(1).shape); x.unsqueeze(2)',
    'x = torch.ones(2, 3); print(x.flatten(), x.flatten(0, 1).shape, x.numel())',
    'x = torch.ones(2, 3); print(torch.cat([x, x], dim=1).shape, torch.stack([x, x], 2).shape)',
    'torch.cat([torch.ones(2), torch.ones(2, 2)])',
    'torch.stack([torch.ones(2), torch.ones(3)])',
    'torch.cat([])',
    'x = torch.ones(3, requires_grad=True); y = x.narrow(0, 1, 2); print(y, y.grad_fn)',
    'x = torch.arange(6.).view(2, 3); print(x.unbind(1), x.select(1, 0))',
    'x = torch.ones(2, 3); print(x @ torch.ones(3), (x @ torch.ones(3, 2)).shape)',
    'torch.ones(2, 3) @ torch.ones(2, 3)',
    'torch.ones(2, 3).mm(torch.ones(3))',
    'torch.dot(torch.ones(2), torch.ones(3))',
    'print(torch.dot(torch.ones(2), torch.ones(2)), torch.mv(torch.ones(2, 2), torch.ones(2)))',
    'torch.ones(2).dot(torch.ones(2, dtype=torch.float64))',
    'print(torch.allclose(torch.ones(2), torch.ones(2) + 1e-9), torch.equal(torch.ones(2), torch.ones(2)))',
    'print(torch.ones(2).sum().backward if False else torch.ones(2).requires_grad)',
    'x = torch.ones(3, requires_grad=True); y = x * 2; del x; y.sum().backward(); print(y.grad_fn.next_functions[0][0].variable.grad)',
    "x = torch.ones(2); x < 'a'",
    "x = torch.ones(2); x += 'a'",
    "x = torch.ones(2); print(x == 'a')",
    "x = torch.ones(2); x *= [1, 2]",
    'x = torch.ones(3, requires_grad=True); y = x.unbind(); print(len(y), y[0].grad_fn)',
    'x = torch.ones(3, requires_grad=True).clone(); a, b, c = x.unbind(); b.mul_(2)',
    'x = torch.ones(3, requires_grad=True).clone(); a, b, c = x.unbind(); x.mul_(2); print(a.grad_fn)',
    'x = torch.ones(3, requires_grad=True).clone(); a, b, c = x.unbind(); x.mul_(2); a.sum()',
    'x = torch.ones(2, requires_grad=True); y = x * 2; print(y.is_leaf, y.requires_grad, x.is_leaf)',
    'x = torch.ones(2, requires_grad=True); print(torch.no_grad()(lambda: x * 2)().requires_grad)',
    'x = torch.ones(2); x.requires_grad = True; y = x ** 2; y.sum().backward(); print(x.grad)',
    'x = torch.ones(2, requires_grad=True); y = x.sum(); print(y.grad_fn(torch.tensor(1.)))',
    'x = torch.tensor([1., 2., 3.], requires_grad=True); m = x > 1; print(x[m], x[m].grad_fn)',
    'x = torch.tensor([1., 2., 3.], requires_grad=True); x[x > 1].sum().backward(); print(x.grad)',
    "x = torch.ones(2, requires_grad=True); w = torch.ones(2, requires_grad=True); print((x * w).grad_fn(torch.ones(2)), (x * 2).grad_fn(torch.ones(2)))",
    "x = torch.ones(2, requires_grad=True); a, b = x.unbind(); print(a.grad_fn(torch.tensor(1.), torch.tensor(2.)), x.exp().grad_fn(torch.ones(2)))",
    # in-place random fills: torch's generator, torch's numbers, torch's nodes and errors
    "torch.manual_seed(0); print(torch.empty(5).uniform_(-1, 2))",
    "torch.manual_seed(3); print(torch.empty(20, dtype=torch.float64).normal_(1, 2))",
    "g = torch.Generator().manual_seed(5); print(torch.zeros(3).normal_(generator=g))",
    "torch.manual_seed(1); x = torch.zeros(2, 3); x[0].uniform_(); print(x)",
    """x = torch.ones(3, requires_grad=True)
y = x * 2
y.uniform_()
print(type(y.grad_fn).__name__, y._version)
y.normal_()
print(type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)""",
    "x = torch.ones(3, requires_grad=True); x.uniform_()",
    "torch.ones(3, dtype=torch.long).normal_()",
    "torch.ones(3, dtype=torch.bool).uniform_()",
    # held-out style probes (issue 13 audit)
    """x = torch.tensor([3., 3., 1.], requires_grad=True)
x.topk(1).values.sum().backward(); print(x.grad)""",
    """x = torch.tensor([3., 3., 1.], requires_grad=True)
x.sort().values[2].backward(); print(x.grad)""",
    "print(torch.tensor([3., 1., 3., 1., 2.]).sort(), torch.tensor([3., 1., 3., 1.]).sort(stable=True, descending=True))",
    "print(torch.tensor([3., 1., 3., 1., 2.]).topk(2), torch.tensor([1, 1, 1]).topk(2, largest=False))",
    "print(torch.tensor([2., 5., 5., 1.]).argmax(), torch.tensor([2., 1., 1.]).argmin(), torch.tensor([[1, 3, 3]]).max(dim=1))",
    "print(torch.tensor([float('nan'), 1.]).max(), torch.tensor([1., float('nan')]).argmax(), torch.tensor([float('nan'), 1.]).sort())",
    # held-out style probes (issue 13 audit)
    "x = torch.ones(2, requires_grad=True); y = x * 2; print(y.grad)",
    "x = torch.ones(2, requires_grad=True); y = x * 2; y.sum().backward(); print(y.grad, y.is_leaf, y.retains_grad)",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        ctx.k = 3
        return x * y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        print(ctx.needs_input_grad, ctx.k)
        return g * y, g * x
a = torch.tensor([1., 2.], requires_grad=True); b = torch.tensor([3., 4.])
out = F.apply(a, b); print(out, out.grad_fn)
out.sum().backward(); print(a.grad, b.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, g
a = torch.tensor([1., 2.], requires_grad=True)
F.apply(a).sum().backward()""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g[:1]
a = torch.tensor([1., 2.], requires_grad=True)
F.apply(a).sum().backward()""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        i = x.argmax()
        ctx.mark_non_differentiable(i)
        return x * 2, i
    @staticmethod
    def backward(ctx, g, gi):
        print(gi)
        return g * 2
a = torch.tensor([1., 3.], requires_grad=True)
y, i = F.apply(a); print(i.requires_grad, y.requires_grad)
y.sum().backward(); print(a.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return g1 * 2
a = torch.tensor([1., 3.], requires_grad=True)
y, z = F.apply(a)
y.sum().backward(); print(a.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return g1 * 2 + g2 * 3
a = torch.tensor([1., 3.], requires_grad=True)
y, z = F.apply(a)
y.sum().backward(); print(a.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
a = torch.tensor([1., 3.], requires_grad=True).clone()
y = F.apply(a)
a.mul_(2)
y.sum().backward()""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
a = torch.tensor([1., 3.])
y = F.apply(a); print(y.requires_grad, y.grad_fn)
with torch.no_grad():
    z = F.apply(torch.ones(1, requires_grad=True)); print(z.requires_grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
a = torch.tensor([1., 3.], requires_grad=True)
F.apply(a).sum().backward(); print(a.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
F.apply(torch.ones(1, requires_grad=True)).sum().backward()""",
    """x = torch.arange(6.).view(2, 3).requires_grad_()
y = x.clone()
d = y.diagonal()
d.mul_(10)
y.sum().backward(); print(y, x.grad, y.grad_fn)""",
    """x = torch.zeros(3, requires_grad=True)
y = x.clone()
e = y.expand(2, 3)
e.add_(1)""",
    """x = torch.ones(3, requires_grad=True).clone()
v = x[1:]
w = v[:1]
w.mul_(5)
print(x, v, x.grad_fn, v.grad_fn, w.grad_fn, x._version, v._version, w._version)
x.sum().backward()""",
    """x = torch.ones(4, requires_grad=True)
y = x.clone().view(2, 2)
r = y[0]
y[1] = r
print(y, y.grad_fn)
y.sum().backward(); print(x.grad)""",
    """x = torch.ones(4, requires_grad=True)
y = x.clone()
y[1:3] = torch.tensor([5., 6.], requires_grad=True)
y.sum().backward(); print(x.grad, y.grad_fn)""",
    """x = torch.ones(4, requires_grad=True)
y = x.clone()
y[y > 0] = 0
print(y.grad_fn, y._version)""",
    """x = torch.ones(2, 3)
x[:, 1] += 5
x[0] *= 2
print(x, x._version)""",
    """x = torch.ones(3, requires_grad=True)
y = x.clone()
y += 1
y *= y
y.sum().backward(); print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
y = x.sigmoid()
y.data = torch.zeros(3)
y.sum().backward(); print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
x.data.add_(1); print(x, x._version)
x.data = torch.zeros(2); print(x, x.requires_grad)""",
    """x = torch.ones(3, requires_grad=True)
x.requires_grad = False; print(x.requires_grad)
y = x * 2; y.requires_grad = True""",
    """x = torch.ones(3)
y = x * 2
y.requires_grad_(); print(y.is_leaf, y.grad_fn)""",
    """x = torch.ones(3, requires_grad=True)
y = x * 2
y.requires_grad_(False)""",
    """x = torch.ones(3, dtype=torch.long)
x.requires_grad_()""",
    """x = torch.ones(2, 2, requires_grad=True)
print(x.grad_fn, x[0].grad_fn, x.T.grad_fn, x.detach().requires_grad, x.detach().is_leaf, x.clone().is_leaf)""",
    # held-out style probes (issue 13 audit)
    "x = torch.arange(6.).view(2, 3); r = x.max(1); print(r, r[0], r.values, type(r).__name__, len(r), list(r)[1])",
    "x = torch.arange(6.).view(2, 3); v, i = x.sort(1, descending=True); print(v, i); print(x.topk(1, 1)._fields if hasattr(x.topk(1, 1), '_fields') else '')",
    "x = torch.arange(6.).view(2, 3); print(2 in x, 7 in x, torch.tensor(2.) in x, [t.tolist() for t in x], x.shape == (2, 3), x.shape == [2, 3], tuple(x.shape), list(x.size()))",
    "x = torch.arange(4.); print(x[-1], x[-2:], x[::2], x[1::2], x[torch.tensor([True, False, True, False])], x[[0, 0, 1]], x[torch.tensor(1)])",
    "x = torch.arange(4.); x[::-1]",
    "x = torch.arange(4.); x[4]",
    "x = torch.arange(6.).view(2, 3); print(x[:, None].shape, x[..., 1], x[1, ...], x[None, :, None].shape, x[[0, 1], [1, 2]], x[[[0], [1]], [1, 2]])",
    "x = torch.arange(6.).view(2, 3); x[0, 0, 0]",
    "x = torch.arange(6.).view(2, 3); x[[0, 1, 2]]",
    "x = torch.arange(6.).view(2, 3); x[:, [True, False]]",
    "print(torch.linspace(0, 1, 5, dtype=torch.float64).dtype, torch.arange(0, 1, 0.25, dtype=torch.float64), torch.arange(3, dtype=torch.float32), torch.arange(1., 4.).dtype, torch.arange(True, 3) if False else '')",
    "torch.arange(0, 1, -0.1)",
    "torch.arange(0, float('inf'))",
    "print(torch.arange(-3, 3).abs(), torch.arange(10)[torch.arange(10) % 3 == 0], torch.arange(2, 8, 2) * 0.5)",
    "x = torch.ones(2, 3); x.split(0)",
    "x = torch.ones(2, 3); print(x.split(5), x.chunk(5), x.split([1, 2], dim=1)[1].shape, torch.chunk(x, 2, 1)[1].shape)",
    "x = torch.ones(2, 3); x.chunk(0)",
    "print(torch.einsum('ij,kj->ik', torch.ones(2, 3), torch.ones(4, 3)).shape, torch.einsum('i,i', torch.ones(3), torch.ones(3)), torch.einsum('bi,bi->b', torch.ones(2, 3), torch.ones(2, 3)))",
    "torch.einsum('ij,jk', torch.ones(2, 3))",
    "torch.einsum('i->i', torch.ones(2), torch.ones(2))",
    "torch.einsum('iJ->i', torch.ones(2, 2))",
    "print(torch.einsum('ii->', torch.ones(3, 3)), torch.einsum('...,...->...', torch.ones(2), torch.tensor(3.)), torch.einsum('i,j,k->ijk', torch.ones(2), torch.ones(3), torch.ones(1)).shape)",
    "x = torch.arange(6.).view(2, 3); x[:, torch.tensor([True, False, True, True])]",
    "x = torch.arange(6.).view(2, 3); x[torch.tensor([True, False, True])]",
    "x = torch.arange(6.).view(2, 3); x[:, [0, -4]]",
    "x = torch.arange(6.).view(2, 3); x[torch.tensor([[True, False, True]])]",
    "[1] in torch.ones(2)",
    "print(torch.ones(2) in torch.ones(2, 2), 1 in torch.tensor([[1, 2]]), True in torch.tensor([False]), 0.5 in torch.tensor([0.5]))",
    "r = torch.ones(2, 2).min(0); s = torch.ones(3).sort(); t = torch.ones(3).topk(1); print(type(r).__name__, type(s).__name__, type(t).__name__, type(r), type(r) is type(torch.ones(2, 2).min(1)), isinstance(r, tuple))",
    "x = torch.arange(6.).view(2, 3); x[0, [5]]",
    "x = torch.arange(6.).view(2, 3); x[[0, 1], [0, 5]]",
    "x = torch.arange(24.).view(2, 3, 4); x[:, [0, 1], 7]",
    # strides of empty tensors: contiguous, a size of 0 counted as 1
    "print(torch.empty(0).stride(), torch.zeros(0, 3).stride(), torch.zeros(3, 0).stride(), torch.zeros(2, 0, 3).stride())",
    "x = torch.ones(3, 4); print(x[:, :0].stride(), x[:0].stride(), (torch.zeros(0, 3) * 2).stride(), torch.zeros(0, 3).reshape(3, 0).stride())",
    "print(torch.zeros(0, 3).is_contiguous(), torch.zeros(2, 0).stride(0), torch.zeros(2, 0).stride(-1))",
    # maximum/minimum refuse numbers, naming the argument as torch counts it
    "x = torch.ones(2); x.maximum(2)",
    "x = torch.ones(2); torch.maximum(x, 2)",
    "x = torch.ones(2); torch.minimum(2, x)",
    "x = torch.ones(2); x.minimum(1.5)",
    # storages indexed as makemore-style experiments do: a slice of a typed storage, odd indices
    """import warnings
warnings.simplefilter('ignore')
a = torch.arange(6.)
s = a.storage()
for idx in [slice(0,3), 1.5, 'a', None, (1,), torch.tensor(1), True, -7, 6, 2, -1]:
    try: print(repr(idx), s[idx])
    except Exception as e: print(repr(idx), type(e).__name__, e)
u = a.untyped_storage()
for idx in [slice(0,8), slice(None,None,2), slice(-4,None), slice(0, 100), 1, 1.5]:
    try:
        r = u[idx]
        print(repr(idx), type(r).__name__, len(r) if hasattr(r, '__len__') else r, list(r)[:8] if hasattr(r, '__len__') else '', r.data_ptr() - u.data_ptr() if hasattr(r, 'data_ptr') else '')
    except Exception as e: print(repr(idx), type(e).__name__, e)
print(u[0:4])""",
    """a = torch.arange(6.)
print(a.storage()[:3])""",
    # micrograd-style comparisons: a torch.Tensor() with no data is empty (size [0]), not 0-d
    "print(torch.Tensor().shape, torch.FloatTensor().shape, torch.LongTensor(), torch.DoubleTensor().dtype, torch.Tensor(), torch.Tensor([]).shape, torch.Tensor(0).shape)",
    "print(torch.Tensor(()).shape, torch.BoolTensor(), torch.Tensor(torch.ones(2)), torch.tensor([]).shape)",
    # in-place ops on a 0-d bool result (isnan, ==, logical_not...: NumPy gave a scalar, not an array)
    """t = torch.tensor(1.0)
for f in [torch.isnan, torch.isinf, torch.isfinite, torch.logical_not, lambda x: x == 1, lambda x: x & True if x.dtype == torch.bool else (x > 0) & (x < 2), lambda x: ~(x > 0), lambda x: x.isnan().logical_or_(torch.tensor(True))]:
    r = f(t)
    print(r, r.dtype, r.shape)
    r.logical_or_(torch.tensor(False))
    r |= torch.tensor(True)
    print(r)""",
    """t = torch.tensor(2.0)
m = torch.isnan(t)
m.fill_(True)
m.copy_(torch.tensor(False))
print(m, m.data_ptr() == m.data_ptr(), m.numpy(), type(m.numpy()))
v = t.isfinite(); v.zero_(); print(v)
w = (t > 1).logical_and(torch.tensor(True)); w.logical_xor_(torch.tensor(True)); print(w)""",
]

KNOWN = {
    "x = torch.ones(3); x['a']":
        "torch reads a str index as a sequence (a deprecation warning about pytorch 2.9, then new(): invalid data type 'str'); minigrad does not mimic that accident",
}
