# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Gradients at the non-differentiable points, sign of zero included (print shows ``-0.``)."""

PROBES = [
    """x = torch.tensor([-1., 0., -0., 2.], requires_grad=True)
x.relu().sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., -0., 2.], requires_grad=True)
(-x.relu()).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 1., 2.], requires_grad=True)
x.clamp(0, 1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 1., 2.], requires_grad=True)
(x.clamp(0, 1) * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 1., 2.], requires_grad=True)
(x.clamp(min=0) * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 1., 2.], requires_grad=True)
(x.clamp(max=1) * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., -0., 2.], requires_grad=True)
x.abs().sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., -0., 2.], requires_grad=True)
(x.abs() * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 3., 3.], requires_grad=True)
x.max().backward()
print(x.grad)""",
    """x = torch.tensor([1., 3., 3.], requires_grad=True)
(-x.max()).backward()
print(x.grad)""",
    """x = torch.tensor([1., 1., 3.], requires_grad=True)
(-x.min()).backward()
print(x.grad)""",
    """x = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)
v, i = x.max(dim=1)
(-v).sum().backward()
print(x.grad, i)""",
    """x = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)
v, i = x.min(dim=1)
(-v).sum().backward()
print(x.grad, i)""",
    """x = torch.tensor([0., 4.], requires_grad=True)
x.sqrt().sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 4.], requires_grad=True)
(-x.sqrt()).sum().backward()
print(x.grad)""",
    """x = torch.tensor([2., 0., 3.], requires_grad=True)
x.prod().backward()
print(x.grad)""",
    """x = torch.tensor([2., 0., 3.], requires_grad=True)
(-x.prod()).backward()
print(x.grad)""",
    """x = torch.tensor([0., 0., 3.], requires_grad=True)
x.prod().backward()
print(x.grad)""",
    """x = torch.tensor([0., 0., 3.], requires_grad=True)
(-x.prod()).backward()
print(x.grad)""",
    """x = torch.tensor([[2., 0.], [0., 0.]], requires_grad=True)
(-x.prod(dim=1)).sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 0., 2.], requires_grad=True)
(x ** 2).sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., -0., 2.], requires_grad=True)
(-(x ** 2)).sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 1., 2.], requires_grad=True)
(x ** 0.5).sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 1., 2.], requires_grad=True)
(x ** 0).sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 1., 2.], requires_grad=True)
(-(x ** 0)).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 2.], requires_grad=True)
x.sign().sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 2.], requires_grad=True)
(-x.sign()).sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 2.], requires_grad=True)
e = torch.tensor([0., 0.], requires_grad=True)
(x ** e).sum().backward()
print(x.grad, e.grad)""",
    """x = torch.tensor([-0., 0.], requires_grad=True)
y = x * 0
print(y)
(x * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-2., 0., 2.], requires_grad=True)
(torch.where(x > 0, x, -x) * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-2., 0., 2.], requires_grad=True)
(x.relu() * 0).sum().backward()
print(x.grad)""",
    """print(torch.tensor([-0., 0.]), torch.tensor(-0.), torch.tensor([-0., 1.5]))""",
    """x = torch.tensor(0., requires_grad=True)
(-x.abs()).backward()
print(x.grad)""",
    """x = torch.tensor([0., -0.], requires_grad=True)
(x.sqrt() * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-3., 0., 3.], requires_grad=True)
x.clamp(-1, 1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-3., 0., 3.], requires_grad=True)
(x.clamp(-1, 1) * -2).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 1., 1.], requires_grad=True)
(x.max() * -3).backward()
print(x.grad)""",
    """x = torch.tensor([2., 2.], requires_grad=True)
(x.min() * -1).backward()
print(x.grad)""",
    """x = torch.tensor([[0., 0.], [1., 2.]], requires_grad=True)
(x.prod() * -1).backward()
print(x.grad)""",
    """x = torch.tensor([0., 2.], requires_grad=True)
(x ** 3 * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 2.], requires_grad=True)
(x ** 1.5 * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 1.], requires_grad=True)
y = torch.tensor([0., 1.], requires_grad=True)
(-(x * y)).sum().backward()
print(x.grad, y.grad)""",
    """x = torch.tensor([0., 1.], requires_grad=True)
(-(x.sigmoid() * 0)).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 1.], requires_grad=True)
(x.abs().sum() * 0).backward()
print(x.grad)""",
    """x = torch.tensor([-2., -1.], requires_grad=True)
(x.relu() * -1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-0.0], requires_grad=True)
y = x.relu()
print(y)
(y * -1).sum().backward()
print(x.grad)""",
    "x = torch.tensor([-0., 0., float('nan')]); print(x.clamp(0, 1), x.clamp(min=0), x.clamp(max=0), x.relu())",
    "x = torch.tensor([-0., 0.]); print(x.clamp(max=torch.tensor(0.)), x.clamp(min=torch.tensor(0.)))",
    "x = torch.tensor([-0., 0.]); x.clamp_(0, 1); y = torch.tensor([-0., 2.]); y.relu_(); print(x, y)",
    """x = torch.tensor([-1., 0., 1.], requires_grad=True)
y = x.relu()
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([1., 0.], requires_grad=True)
(-torch.max(x, y)).sum().backward()
print(x.grad, y.grad)""",
    # held-out style probes (issue 13 audit)
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
x.clamp(min=0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
x.clamp(max=0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
x.clamp(-0., 0.).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 3.], requires_grad=True)
(-x).relu().sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0.], requires_grad=True)
x.sign().sum().backward(); print(x.grad, x.sign())""",
    """x = torch.tensor([0., -0.], requires_grad=True)
x.abs().mul(-1).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0.], requires_grad=True)
x.sqrt().sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., 0.], requires_grad=True)
x.norm().backward(); print(x.grad)""",
    """x = torch.tensor([0., 0.], requires_grad=True)
x.norm(p=1).backward(); print(x.grad)""",
    """x = torch.tensor([[0., 0.], [3., 4.]], requires_grad=True)
x.norm(dim=1).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., 0.], requires_grad=True)
x.norm(p=float('inf')).backward(); print(x.grad)""",
    """x = torch.tensor([2., 2., 1.], requires_grad=True)
x.max().backward(); print(x.grad)""",
    """x = torch.tensor([2., 2., 1.], requires_grad=True)
x.min().backward(); print(x.grad)""",
    """x = torch.tensor([[2., 2., 1.]], requires_grad=True)
x.max(dim=1).values.sum().backward(); print(x.grad)""",
    """x = torch.tensor([2., 2., 1.], requires_grad=True)
x.amax().backward(); print(x.grad)""",
    """a = torch.tensor([1., 2., -0.], requires_grad=True); b = torch.tensor([1., 1., 0.], requires_grad=True)
torch.max(a, b).sum().backward(); print(a.grad, b.grad)""",
    """a = torch.tensor([1., 2., -0.], requires_grad=True); b = torch.tensor([1., 1., 0.], requires_grad=True)
torch.minimum(a, b).sum().backward(); print(a.grad, b.grad)""",
    """x = torch.tensor([0., 2., 3.], requires_grad=True)
x.prod().backward(); print(x.grad)""",
    """x = torch.tensor([0., 2., 0.], requires_grad=True)
x.prod().backward(); print(x.grad)""",
    """x = torch.tensor([[0., 2.], [0., 0.]], requires_grad=True)
x.prod(dim=1).sum().backward(); print(x.grad)""",
    """x = torch.tensor([-0., 2.], requires_grad=True)
(x * -1).prod().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
(x ** 2).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
(x ** 0.5).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
(x ** 0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
(x ** 1.5).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0.], requires_grad=True)
(2 ** x).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0.], requires_grad=True)
(x * 0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([-0.5, 0.5, -1.5, 2.5], requires_grad=True)
print(x.round(), x.floor(), x.ceil(), x.trunc())""",
    """x = torch.tensor([-0.4, 0.4, -0.], requires_grad=True)
x.round().sum().backward(); print(x.grad, x.round())""",
    """x = torch.tensor([-0., 0.], requires_grad=True)
print(x * -0.)""",
    "print(torch.tensor([-0.]) + 0, torch.tensor([-0.]) - 0, torch.tensor([0.]) * -1, -torch.tensor([0.]))",
    """x = torch.tensor([0., -0.], requires_grad=True)
x.abs().sum().backward(create_graph=True); print(x.grad, x.grad.grad_fn)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
y = x.relu()
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)""",
    """x = torch.tensor([1., 1., 1.], requires_grad=True)
x.std().backward(); print(x.grad)""",
    """x = torch.tensor([1., 1., 1.], requires_grad=True)
x.var().backward(); print(x.grad)""",
    """x = torch.tensor([1.], requires_grad=True)
x.std().backward(); print(x.grad)""",
    """x = torch.tensor([0., 0.], requires_grad=True)
x.logsumexp(0).backward(); print(x.grad)""",
    """x = torch.tensor([-0., 0.], requires_grad=True)
x.cumprod(0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., 1., 0.], requires_grad=True)
x.cumprod(0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([[1., 0.], [0., 1.]], requires_grad=True)
x.norm(dim=0, p=2).sum().backward(); print(x.grad)""",
    """x = torch.tensor([[2., 0., 3., -0., 5.], [1., 2., 3., 4., 5.], [0., 2., -1., 3., 0.]], requires_grad=True)
x.cumprod(1).backward(torch.tensor([[1., 2., 3., 4., 5.]]*3)); print(x.grad)""",
    """x = torch.tensor([[2., 0.], [0., -0.], [float('inf'), 1.]], requires_grad=True)
x.cumprod(0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([1.1, 0., 2.3, float('inf'), 0.7], requires_grad=True)
x.cumprod(0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([[1.1, 0.], [2.3, 0.7]], dtype=torch.float64, requires_grad=True)
x.cumprod(-2).sum().backward(); print(x.grad)""",
    """torch.manual_seed(0)
x = (torch.rand(3, 4, 2) > 0.6) * torch.randn(3, 4, 2)
x.requires_grad_()
x.cumprod(0).sum().backward(); print(x.grad)""",
    """torch.manual_seed(1)
x = ((torch.rand(3, 4, 2) > 0.5) * torch.randn(3, 4, 2)).requires_grad_()
x.cumprod(1).backward(torch.randn(3, 4, 2)); print(x.grad)""",
    # held-out style probes (issue 13 audit)
    """x = torch.tensor([[1., 3., 3.], [2., 2., 2.]], requires_grad=True)
x.amax(1).sum().backward(); print(x.grad)""",
    """x = torch.tensor([[1., 3., 3.], [2., 2., 2.]], requires_grad=True)
x.amin(0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([[1., 3., 3.], [2., 2., 2.]], requires_grad=True)
x.max(1, keepdim=True).values.sum().backward(); print(x.grad)""",
    """x = torch.tensor([3., 3., -0., 0.], requires_grad=True)
x.norm(p=float('inf')).backward(); print(x.grad)""",
    """x = torch.tensor([-3., 3., 0.], requires_grad=True)
x.norm(p=float('inf')).backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 2.], requires_grad=True)
x.norm(p=1).backward(); print(x.grad)""",
    """x = torch.tensor([0., 0.], requires_grad=True)
x.norm(p=3).backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
x.norm(p=0.5).backward(); print(x.grad)""",
    """x = torch.tensor([0., 2.], requires_grad=True)
(x ** 0.).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 2.], requires_grad=True)
(x ** -1.).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0.], requires_grad=True)
y = torch.tensor([0., 2.], requires_grad=True)
(x ** y).sum().backward(); print(x.grad, y.grad)""",
    """x = torch.tensor([0., -0., 1.], requires_grad=True)
x.log().sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., -0.], requires_grad=True)
(1 / x).sum().backward(); print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
(x / torch.tensor([0., -0.])).sum().backward(); print(x.grad)""",
    """x = torch.tensor([-100., 100., 0.], requires_grad=True)
x.sigmoid().sum().backward(); print(x.grad); y = torch.tensor([-100., 100., -0.], requires_grad=True); y.tanh().sum().backward(); print(y.grad)""",
    """x = torch.tensor([-float('inf'), 0., 1.], requires_grad=True)
x.softmax(0).sum().backward(); print(x.softmax(0), x.grad)""",
    """x = torch.tensor([-float('inf'), -float('inf')], requires_grad=True)
y = x.logsumexp(0); y.backward(); print(y, x.grad)""",
    """x = torch.tensor([-float('inf'), 0.], requires_grad=True)
x.log_softmax(0)[1].backward(); print(x.grad)""",
    """x = torch.tensor([0., -0., 1.5], requires_grad=True)
x.floor().sum().backward(); print(x.grad, x.floor(), (-x).ceil(), x.trunc(), x.frac())""",
    """x = torch.tensor([-0., 0.], requires_grad=True)
y = x.abs(); g, = torch.autograd.grad(y.sum(), x, create_graph=True); g.sum().backward(); print(g, x.grad)""",
    """x = torch.tensor([0., 4.], requires_grad=True)
y = x.sqrt(); g, = torch.autograd.grad(y.sum(), x, create_graph=True); print(g)
g.sum().backward(); print(x.grad)""",
    """x = torch.tensor([1., 1.], requires_grad=True); lo = torch.tensor([1., 0.], requires_grad=True); hi = torch.tensor([2., 1.], requires_grad=True)
x.clamp(lo, hi).sum().backward(); print(x.grad, lo.grad, hi.grad)""",
    """x = torch.tensor([1., 1.], requires_grad=True)
x.clamp(min=torch.tensor([1., 2.]), max=torch.tensor([0., 3.])).sum().backward(); print(x.grad)""",
    """x = torch.tensor([-1., 0., -0., 2.], requires_grad=True)
x.clamp(-1, 0).sum().backward(); print(x.grad); x.grad = None; x.clamp_min(0).sum().backward(); print(x.grad); x.grad = None; x.clamp_max(-0.).sum().backward(); print(x.grad)""",
    """a = torch.tensor([2., 2., 0., -0.], requires_grad=True); b = torch.tensor([2., 1., -0., 0.], requires_grad=True)
torch.maximum(a, b).sum().backward(); print(a.grad, b.grad, torch.maximum(a, b), torch.minimum(a, b))""",
    """x = torch.tensor([2., -2., 0., -0.], requires_grad=True)
x.sgn().sum().backward(); print(x.grad, x.sgn(), x.sign(), torch.sign(torch.tensor([float('nan')])))""",
    """x = torch.tensor([0., -0., 3.], requires_grad=True)
(x * x.abs()).sum().backward(); print(x.grad)""",
    """x = torch.tensor([-0., 0.], requires_grad=True)
x.relu().sum().backward(); print(x.grad, x.relu(), torch.relu(-x))""",
    """x = torch.tensor([[0., 1.], [0., 0.]], requires_grad=True)
x.prod(0).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., 0., 0.], requires_grad=True)
x.prod().backward(); print(x.grad)""",
    """x = torch.tensor([-0., 2., 3.], requires_grad=True)
x.prod().backward(); print(x.grad)""",
    """x = torch.tensor([0., 2.], requires_grad=True)
y = x.prod(); g, = torch.autograd.grad(y, x, create_graph=True); print(g, g.grad_fn); g.sum().backward(); print(x.grad)""",
    """x = torch.tensor([1., 1., 1.], requires_grad=True)
x.std(correction=0).backward(); print(x.grad); x.grad = None; x.var(correction=0).backward(); print(x.grad)""",
    """x = torch.tensor([[0., 0.], [1., 1.]], requires_grad=True)
x.std(1).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0., 0.], requires_grad=True)
x.norm(dim=0, keepdim=True).sum().backward(); print(x.grad)""",
    """x = torch.tensor([0.5, -0.5, 1.5, 2.5], requires_grad=True)
x.round().sum().backward(); print(x.grad, x.round(), (-x).round())""",
    """x = torch.tensor([3., -3.], requires_grad=True)
(x % 3).sum().backward(); print(x.grad, x % 3, x.fmod(3), x.remainder(-3))""",
    """x = torch.tensor([0., -0., 0., -0.])
print(x.clamp_min(torch.tensor([-0., 0., 0., -0.])), x.clamp_max(torch.tensor([-0., 0., 0., -0.])), x.clamp_min(-0.), x.clamp_min(0.), x.clamp_max(-0.), x.clamp_max(0.))""",
    """x = torch.tensor([0., -0., 0., -0.])
print(x.clamp(-0., 0.), x.clamp(0., -0.), x.clamp(torch.tensor(-0.), torch.tensor(0.)), torch.clamp(x, min=torch.tensor([-0., 0., 0., -0.])))""",
    """a = torch.tensor([0., -0., float('nan'), 1.]); b = torch.tensor([-0., 0., 1., float('nan')])
print(torch.maximum(a, b), torch.minimum(a, b), torch.max(a, b), torch.min(b, a))""",
    "x = torch.tensor([0., -0.]); x.clamp_min_(-0.); print(x); y = torch.tensor([0., -0.]); y.clamp_max_(torch.tensor([-0., 0.])); print(y); z = torch.tensor([0., -0.]); z.clamp_(0., 0.); print(z)",
    "print(torch.tensor([0., -0.]).relu(), torch.tensor([-0.]).clamp(min=0), torch.tensor([0.]).clamp(max=-0.))",
    "print(torch.tensor([1, 5]).clamp(torch.tensor([2, 2]), torch.tensor([3, 3])), torch.tensor([1., 5.]).clamp(torch.tensor([2]), 4))",
    # held-out style probes (issue 13 audit)
    "print(torch.tensor([1, 2]).clamp(min=0, max=torch.tensor(1)), torch.tensor([1., 5.]).clamp(torch.tensor(2.), 4), torch.tensor([1., 5.]).clamp(2, torch.tensor(4.5)).dtype, torch.tensor([1, 5]).clamp(torch.tensor(2.5), 4))",
    """x = torch.tensor([1., 5.], requires_grad=True); lo = torch.tensor(2., requires_grad=True)
y = x.clamp(lo, 4); y.sum().backward(); print(y, x.grad, lo.grad, y.grad_fn)""",
    # fmax/fmin on signed zeros: a tie keeps the first input, and its gradient
    """a = torch.tensor([0., -0., 0., -0.]); b = torch.tensor([-0., 0., 0., -0.])
print(torch.fmax(a, b), torch.fmin(a, b), torch.fmax(b, a), torch.fmin(b, a))""",
    """a = torch.tensor([0., -0.], requires_grad=True); b = torch.tensor([-0., 0.], requires_grad=True)
torch.fmax(a, b).sum().backward(); print(a.grad, b.grad)
a.grad = None; b.grad = None; torch.fmin(b, a).sum().backward(); print(a.grad, b.grad)""",
    """a = torch.tensor([1., float('nan')], requires_grad=True); b = torch.tensor([1., -0.], requires_grad=True)
torch.fmax(a, b).backward(torch.tensor([-1., -2.])); print(a.grad, b.grad, torch.fmax(a, b))""",
]

KNOWN = {}
