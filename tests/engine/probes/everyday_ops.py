# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""The everyday ops of issue 13's section 3 off the lessons' path: einsum patterns, softmax,
norm, var/std, rounding, scans, masks, gather/scatter, split/chunk, repeat/flip, extremes,
// and %, float steps in arange/linspace, sort and topk with ties."""

PROBES = [
    # held-out style probes (issue 13 audit)
    """a = torch.arange(6.).view(2, 3); b = torch.arange(12.).view(3, 4)
print(torch.einsum('ij,jk->ik', a, b), torch.einsum('ij->ji', a), torch.einsum('ii->i', torch.eye(3) * 2), torch.einsum('ij->', a), torch.einsum('i,i->', a[0], a[1]), torch.einsum('i,j->ij', a[0], a[1]))""",
    """a = torch.arange(24.).view(2, 3, 4); b = torch.arange(40.).view(2, 4, 5)
print(torch.einsum('bij,bjk->bik', a, b).shape, torch.einsum('...ij->...ji', a).shape, torch.einsum('bij,bjk', a, b).shape, torch.einsum('b i j, b j k -> b i k', a, b).shape)""",
    """a = torch.arange(6., requires_grad=True)
y = torch.einsum('i,i->', a, a); y.backward(); print(y, a.grad, y.grad_fn)""",
    "torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(4, 5))",
    "torch.einsum('ij->k', torch.ones(2, 3))",
    "print(torch.einsum('ii', torch.arange(9.).view(3, 3)), torch.einsum('ij,ij->i', torch.ones(2, 3), torch.ones(2, 3)), torch.einsum(torch.ones(2), [0], torch.ones(2), [0], []))",
    """x = torch.tensor([[1., 5., 2.], [3., 3., 0.]])
print(x.softmax(1), x.log_softmax(0), torch.softmax(x, -1, dtype=torch.float64), x.softmax(dim=1).sum(1))""",
    """x = torch.tensor([[1., 5., 2.], [3., 3., 0.]])
print(torch.nn.functional.softmax(x), torch.nn.functional.log_softmax(x))""",
    """x = torch.tensor([[1., -5., 2.], [3., 3., 0.]])
print(x.norm(), x.norm(1), x.norm(float('inf')), x.norm(p=2, dim=1), x.norm(dim=0, keepdim=True), x.norm(p=0), x.norm(p=-1), x.norm(p=3.5), x.norm(p='fro'))""",
    """x = torch.tensor([[1., -5., 2.], [3., 3., 0.]])
print(x.var(), x.var(0), x.var(1, unbiased=False), x.std(correction=0), x.std(dim=1, correction=2), x.var(dim=(0, 1)), x.std(1, keepdim=True))""",
    "print(torch.tensor([1.]).var(), torch.tensor([]).mean(), torch.tensor([]).sum(), torch.tensor([]).prod(), torch.tensor([[]]).max(dim=1) if False else '')",
    "torch.tensor([]).max()",
    """x = torch.tensor([1.5, -1.5, 2.5, -2.5, 0.5, -0.5, 3.7])
print(x.round(), x.floor(), x.ceil(), x.trunc(), x.frac(), x.round(decimals=1), torch.round(torch.tensor([1.2345]), decimals=2))""",
    """x = torch.tensor([[1., 2.], [3., 4.]])
print(x.cumsum(0), x.cumsum(-1), x.cumprod(1), torch.cumsum(x, dim=0), x.cumsum(0).dtype, torch.tensor([1, 2]).cumsum(0).dtype)""",
    """x = torch.arange(6.).view(2, 3)
print(x.masked_fill(x > 2, -1.), x.masked_fill(torch.tensor([True, False, True]), 0), x.masked_select(x > 1), x[x > 1])""",
    """x = torch.arange(6.).view(2, 3)
x.masked_fill(x, 0.)""",
    """x = torch.arange(6.).view(2, 3)
print(x.gather(1, torch.tensor([[0, 0], [2, 1]])), x.index_select(1, torch.tensor([2, 0])), torch.zeros(3).scatter(0, torch.tensor([0, 2]), torch.tensor([5., 6.])), torch.zeros(3).scatter_add(0, torch.tensor([0, 0, 2]), torch.tensor([1., 2., 3.])))""",
    """x = torch.arange(6.).view(2, 3)
x.gather(1, torch.tensor([[3]]))""",
    """x = torch.arange(6.).view(2, 3)
x.index_select(1, torch.tensor([0.]))""",
    """x = torch.arange(10.)
print(x.split(3), x.split([2, 8]), x.chunk(3), x.chunk(4), torch.split(x, 5), x.view(2, 5).chunk(2, dim=1))""",
    """x = torch.arange(10.)
x.split([2, 3])""",
    """x = torch.arange(6.).view(2, 3)
print(x.repeat(2, 1), x.repeat(1, 2, 1).shape, x.flip(0), x.flip([0, 1]), x.roll(1), x.roll(1, 1), x.tril(), x.triu(1), x.tril(-1))""",
    """x = torch.arange(6.).view(2, 3)
x.repeat(2)""",
    """x = torch.tensor([[1., 5., 2.], [3., 3., 0.]])
print(x.argmin(), x.argmin(1), x.argmax(0, keepdim=True), x.amax(1), x.amin((0, 1)), x.max(), x.min(1), torch.max(x, 1, keepdim=True), x.max(dim=0).indices)""",
    """x = torch.tensor([[1., 5., 2.], [3., 3., 0.]])
print(x.logsumexp(1), x.logsumexp((0, 1)), torch.logsumexp(torch.tensor([-float('inf'), -float('inf')]), 0), torch.logsumexp(torch.tensor([float('inf'), 1.]), 0))""",
    """x = torch.tensor([[1., 5., 2.], [3., 3., 0.]])
print(x.all(), x.any(), (x > 0).all(1), x.bool().any(0), torch.tensor([]).all(), torch.tensor([]).any(), x.all(dim=1).dtype, torch.tensor([1, 0]).all().dtype)""",
    """x = torch.tensor([1., 5., 2.])
print(x.clamp_min(2), x.clamp_max(2), x.clamp(min=torch.tensor([2., 2., 3.])), x.clamp(3, 1), torch.clamp(x, max=0))""",
    """x = torch.tensor([1., 5., 2.])
x.clamp()""",
    "print(torch.lerp(torch.zeros(3), torch.ones(3), 0.25), torch.lerp(torch.zeros(3), torch.ones(3), torch.tensor([0., 0.5, 1.])), torch.addmm(torch.ones(2, 2), torch.ones(2, 3), torch.ones(3, 2), beta=0.5, alpha=2), torch.outer(torch.arange(3.), torch.arange(2.)))",
    "print(torch.diag(torch.arange(3.)), torch.diag(torch.arange(9.).view(3, 3)), torch.diag(torch.arange(3.), 1), torch.diag(torch.arange(9.).view(3, 3), -1))",
    "print(torch.max(torch.tensor([1., 5.]), torch.tensor([3., 2.])), torch.min(torch.tensor([1., 5.]), torch.tensor(3.)), torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2])))",
    "print(torch.tensor([1., float('nan')]).max(), torch.maximum(torch.tensor([1., float('nan')]), torch.tensor([2., 0.])), torch.tensor([1., float('nan')]).amax(), torch.tensor([float('nan'), 1.]).argmin())",
    """x = torch.tensor([5., -5., 7.5, -7.5, 0., -0.])
print(x // 2, x % 2, x // -2, x % -2, torch.fmod(x, 2), torch.remainder(x, -2), x.floor_divide(3), -x % 3)""",
    "print(torch.tensor([5, -5, 7, -7]) // torch.tensor([2, 2, -2, -2]), torch.tensor([5, -5, 7, -7]) % torch.tensor([2, 2, -2, -2]), torch.fmod(torch.tensor([5, -5]), 3))",
    """x = torch.tensor([5., -5.], requires_grad=True)
y = (x % 3).sum(); y.backward(); print(x.grad, (x % 3).grad_fn, (x // 3).grad_fn, (x.fmod(3)).grad_fn)""",
    """x = torch.tensor([5., -5.], requires_grad=True)
(x // 3).sum().backward()""",
    """x = torch.tensor([2., 0., 3.], requires_grad=True)
x.prod().backward(); print(x.grad); y = torch.tensor([-1., 0., 2.], requires_grad=True); y.sign().sum().backward(); print(y.grad)""",
    "print(torch.arange(0, 1, 0.1).tolist(), torch.arange(1, 4, 0.5), torch.arange(-1, 1, 0.25).tolist(), torch.arange(0.5, 2.0, 0.3).tolist(), torch.linspace(0, 1, 7).tolist(), torch.linspace(-2.5, 3.3, 9).tolist())",
    "print(torch.arange(0, 0.9, 0.1).shape, torch.arange(0, 1.0000001, 0.1).shape, torch.arange(10, 0, -3), torch.arange(0, 5, 2, dtype=torch.float64))",
    "print(torch.arange(5).view(5, 1).sort(0), torch.tensor([2, 1, 2, 1, 0]).sort(descending=True), torch.tensor([[3., 1.], [0., 5.]]).sort(dim=0), torch.sort(torch.tensor([0., -0., 0.])))",
    "print(torch.tensor([1, 3, 3, 2, 3]).topk(2), torch.tensor([1., 3., 3., 2., 3.]).topk(3, largest=False), torch.tensor([[1., 3.], [3., 2.]]).topk(1, dim=0), torch.tensor([5., 1.]).topk(2, sorted=False))",
    "torch.tensor([1., 2.]).topk(3)",
    """x = torch.tensor([3., 1., 3.], requires_grad=True)
v, i = x.topk(2); v.sum().backward(); print(v, i, x.grad, v.grad_fn)""",
    "print(torch.zeros(0, 3).mean(0), torch.zeros(2, 0).mean(1), torch.zeros(2, 0).mean(), torch.zeros(0, 3).mean(0, keepdim=True).shape)",
    "x = torch.zeros(2, 0, requires_grad=True); y = x.mean(1); y.sum().backward(); print(y, x.grad)",
    "x = torch.tensor([2., 0., 1.] * 8); print(x.sort().indices, x.sort(descending=True).indices, x.sort(stable=True).indices)",
    "x = torch.tensor([2, 0, 1, 1] * 9); print(x.topk(5).indices, x.topk(5, largest=False, sorted=False).indices, x.argsort() if hasattr(x, 'argsort') else '')",
    "torch.manual_seed(0); x = torch.randint(0, 3, (3, 70)).float(); print(x.topk(1, dim=1), x.topk(2, dim=1).indices)",
    # fmax/fmin (NaN ignored) and unfold's sliding windows
    """a = torch.tensor([1., float('nan'), 3., float('nan')]); b = torch.tensor([float('nan'), 2., 1., float('nan')])
print(torch.fmax(a, b), torch.fmin(a, b), a.fmax(b), b.fmin(a), torch.maximum(a, b))""",
    """x = torch.tensor([[1., 5.], [float('nan'), -2.]])
print(torch.fmax(x, torch.tensor([0., 3.])), torch.fmin(x, torch.tensor(0.)), torch.fmax(torch.tensor(2.), torch.tensor(float('nan'))))""",
    "torch.fmax(torch.tensor([1., 2.]), 0.)",
    "torch.tensor([1., 2.]).fmin(0)",
    "torch.fmin(3, torch.tensor([1., 2.]))",
    "torch.fmax(torch.ones(2), torch.ones(3))",
    """a = torch.tensor([1., float('nan'), 2., 0.], requires_grad=True); b = torch.tensor([float('nan'), 3., 2., 1.], requires_grad=True)
y = torch.fmax(a, b); y.backward(torch.tensor([10., 20., 30., 40.])); print(y, y.grad_fn, a.grad, b.grad)""",
    """a = torch.tensor([1., float('nan'), 2., 0.], requires_grad=True); b = torch.tensor([float('nan'), 3., 2., float('nan')], requires_grad=True)
y = a.fmin(b); y.sum().backward(); print(y, y.grad_fn, a.grad, b.grad)""",
    """x = torch.arange(10.)
print(x.unfold(0, 3, 2), x.unfold(0, 4, 4), x.unfold(0, 2, 1).shape, x.unfold(0, 3, 2).stride(), x.view(2, 5).unfold(1, 2, 2))""",
    "torch.arange(5.).unfold(0, 6, 1)",
    "torch.arange(5.).unfold(0, 2, 0)",
    "torch.arange(5.).unfold(0, -1, 1)",
    "torch.arange(5.).unfold(1, 2, 1)",
    "torch.arange(5.).unfold(0, 2.5, 1)",
    "print(torch.tensor(7.).unfold(0, 1, 1), torch.tensor(7.).unfold(-1, 0, 3).shape); torch.tensor(7.).unfold(0, 2, 1)",
    """x = torch.arange(6., requires_grad=True)
w = x.unfold(0, 3, 1); print(w, w.grad_fn)
w.backward(torch.ones(4, 3)); print(x.grad)""",
    """x = torch.arange(8., requires_grad=True)
w = x.view(2, 4).unfold(-1, 2, 1)
print(w.grad_fn._saved_dimension, w.grad_fn._saved_size, w.grad_fn._saved_step, w.grad_fn._saved_self_sym_sizes, w.grad_fn.next_functions)""",
    """x = torch.arange(7., requires_grad=True)
g = torch.ones(3, 3, requires_grad=True)
gx, = torch.autograd.grad(x.unfold(0, 3, 2), x, g, create_graph=True)
print(gx, gx.grad_fn, gx.grad_fn._saved_dim, gx.grad_fn._saved_size, gx.grad_fn._saved_step)
(gx * torch.arange(7.)).sum().backward(); print(g.grad)""",
    """x = torch.tensor([1., 2., 4., 8., 16.], requires_grad=True)
m = x.unfold(0, 3, 1).mean(-1); m.sum().backward(); print(m, x.grad)
y = x.unfold(0, 2, 2) @ torch.tensor([1., -1.]); print(y, y.grad_fn.next_functions)""",
    """x = torch.arange(12.).view(3, 4)
print(x.unfold(0, 2, 1).unfold(1, 2, 2).shape, x.t().unfold(0, 2, 2), x.unfold(-1, 4, 1).squeeze(1).equal(x))""",
    # argument checks where minigrad computed and torch refuses (a sequence, a bool mask, tensors)
    "t = torch.tensor([1.5, -2., .5]); print(torch.where(t, t, t))",
    "i = torch.tensor([1, 0, 2]); t = torch.ones(3); print(torch.where(i, t, t))",
    "t = torch.tensor([1.5, -2., .5]); print(t.where(t > 0, 0.))",
    "t = torch.tensor([1.5, -2., .5]); print(torch.where(t))",
    "t = torch.ones(3); torch.stack(t)",
    "t = torch.ones(3); torch.cat(t, 0)",
    "t = torch.ones(2, 2); print(torch.stack([t, t]).shape, torch.cat((t, t)).shape, torch.stack(tuple(t)).shape)",
    "t = torch.ones(3); t.logical_and(2)",
    "t = torch.ones(3); torch.logical_or(t, 2.5)",
    "t = torch.ones(3); torch.logical_xor(2, t)",
    "t = torch.ones(3); print(t.logical_and(t > 0), torch.logical_xor(t, t < 0))",
    "torch.logical_not(2)",
    "b = torch.tensor([True, False]); b.dot(b)",
    "b = torch.tensor([True, False]); b @ b",
    "b = torch.tensor([[True, False]]); b.mm(b.t())",
    "b = torch.tensor([[True, False]]); b.mv(torch.tensor([True, True]))",
    "b = torch.tensor([[[True]]]); b.bmm(b)",
    "b = torch.tensor([True, False]); b << b",
    "b = torch.tensor([True, False]); print(b << 1, b >> 1, b & b, b | b, b ^ b)",
    "i = torch.tensor([1, 2]); print(i.dot(i), i @ i)",
    # tan, the hyperbolic functions and their inverses; in-place forms as methods and functions
    """x = torch.tensor([0.5, -0.25, 1.25], requires_grad=True)
for f in (torch.tan, torch.sinh, torch.cosh, torch.asinh, torch.atanh, torch.arcsinh, torch.arctanh):
    y = f(x * 0.5); g, = torch.autograd.grad(y.sum(), x, create_graph=True); g2, = torch.autograd.grad(g.sum(), x)
    print(y, y.grad_fn, g, g.grad_fn, g2)
print(torch.acosh(x + 1), x.arccosh(), torch.tan(torch.tensor([1, 2])), torch.sinh(torch.tensor(True)))""",
    """x = torch.tensor([0.5, 0.25], requires_grad=True)
for name in ('tan_', 'sinh_', 'cosh_', 'asin_', 'arccos_', 'atan_', 'log1p_', 'expm1_', 'exp2_'):
    y = getattr(x * 1, name)(); print(name, y, y.grad_fn, torch.autograd.grad(y.sum(), x)[0])
print(torch.tan_(torch.ones(2)), torch.sinh_(torch.zeros(1)), torch.sin_(torch.zeros(1)), torch.relu_(torch.tensor([-1., 2.])), torch.exp_(torch.zeros(2)), torch.negative_(torch.ones(1)))""",
    """x = torch.tensor([0.5, 0.25], requires_grad=True)
for name in ('asinh_', 'arccosh_', 'atanh_'):
    y = getattr(x * (4 if 'cosh' in name else 1), name)(); print(name, y.grad_fn, y.grad_fn.next_functions)
    try:
        y.sum().backward()
    except NotImplementedError as e:
        print(e)""",
    """import warnings
from torch.autograd.forward_ad import dual_level, make_dual, unpack_dual
with warnings.catch_warnings(), dual_level():  # torch's first dual tensor: jit warnings of its own
    warnings.simplefilter('ignore')
    make_dual(torch.ones(1), torch.ones(1))
with dual_level():
    d = make_dual(torch.tensor([0.5, 0.25]), torch.ones(2))
    print(unpack_dual(torch.tan(d)).tangent, unpack_dual(d.clone().sinh_()).tangent, unpack_dual(torch.atanh(d)).tangent)
    d.clone().atanh_()""",
    "torch.ones(3, dtype=torch.long).tan_()",
    "torch.tan('x')",
    # torch's other names and what a real tensor answers at once
    """x = torch.arange(6.).view(2, 3).requires_grad_()
print(x.mT, x.mT.grad_fn, x.mT.grad_fn._saved_dim0, x.H.grad_fn._saved_dim1, x.mH._base is x, torch.ones(2, 3, 4).mT.shape, torch.ones(2, 3, 4).mH.stride())
print(x.ravel(), x.ravel().grad_fn, x.t().ravel().grad_fn.next_functions, torch.ravel(x).shape, x.ndimension())
print(torch.greater(x, 2), x.greater_equal(2), torch.less(x, 2), x.less_equal(2), torch.not_equal(x, 2), x.absolute().grad_fn, torch.absolute(-x))
print(torch.positive(x) is x, x.conj() is x, torch.conj(x) is x, x.resolve_conj() is x, torch.resolve_neg(x) is x, x.is_conj(), torch.is_neg(x))
print(x.is_signed(), torch.ones(1, dtype=torch.uint8).is_signed(), torch.is_signed(torch.tensor([True])), x.is_same_size(x.t()), x.is_same_size(x * 2))""",
    "torch.ones(2, 2, 2).H",
    "torch.ones(3).H",
    """import warnings
warnings.simplefilter('always')
a = torch.tensor(2.)
print(a.mT is a, a.mT, a.H is a, a.mH)""",
    "torch.positive(torch.tensor([True]))",
    """x = torch.tensor([[0.5, -2.0], [3.0, 0.25]], requires_grad=True)
for name, args in [("reciprocal_", ()), ("sign_", ()), ("square_", ()), ("clip_", (0, 1)), ("fix_", ()), ("divide_", (2.,)), ("multiply_", (2.,)), ("subtract_", (1.,))]:
    z = getattr(x * 1, name)(*args)
    print(name, z.grad_fn.name(), z, torch.autograd.grad(z.sum(), x)[0])
print(x.output_nr, (x * 1).unbind()[1].output_nr, x.is_shared(), x.share_memory_() is x, x.is_meta, x.is_sparse, x.is_quantized, x.is_nested, x.is_mkldnn, x.name)""",
    """x = torch.tensor([[0.5, -2.0], [3.0, 0.25]], requires_grad=True)
print(torch.isposinf(torch.tensor([1., float('inf'), -float('inf')])), torch.tensor([-float('inf'), 2.]).isneginf(), torch.isreal(torch.tensor([1., 2.])), torch.isposinf(torch.tensor([1, 2])))
print(torch.pi, torch.e, torch.inf, torch.nan, torch.newaxis, torch.ones(2)[torch.newaxis].shape, torch.sin(torch.tensor(torch.pi / 2)))
print(torch.detach(x).requires_grad, torch.is_inference(x), torch.reciprocal_(torch.tensor([4.])), torch.square_(torch.tensor([3.])), torch.clip_(torch.tensor([3.]), 0, 1), torch.fix_(torch.tensor([-2.5])))
y = x * 2; torch.detach_(y); print(y.requires_grad, y.grad_fn)""",
    "torch.detach(3)",
    "torch.ones(3).tril_()",
    "m = torch.ones(3, 3); m.triu_(1); print(m, torch.ones(2, 2, dtype=torch.long).tril_(-1))",
    """import torch.nn.functional as F
x = torch.tensor([-1., 2.], requires_grad=True)
for f, args in ((F.relu_, ()), (F.leaky_relu_, (0.2,)), (F.elu_, ()), (F.elu_, (0.5,))):
    y = f(x * 1, *args); print(y, y.grad_fn, torch.autograd.grad(y.sum(), x)[0])
F.relu_(3)""",
    "torch.ones(2, dtype=torch.long).reciprocal_()",
    "print(torch.tensor([1, -2]).sign_(), torch.tensor([True]).square_())",
    "torch.ones(2).is_same_size(3)",
]

KNOWN = {
    "x = torch.full((16,), 5.0); print(torch.fmod(x, 1.1754943508222875e-38), x.remainder(1.1754943508222875e-38))":
        "torch's vectorised float32 fmod (SLEEF, 16 lanes with AVX512) gives nan where the float32 quotient overflows, and the exact remainder for the elements past the last full vector; minigrad gives the exact remainder everywhere (NumPy's fmod)",
}

# Snippets whose torch output depends on the CPU's kernels (tests/cpu_kernels.py): arange and
# linspace as in dtypes.KERNEL_DEPENDENT; fmod's nan comes from torch's vectorised kernel only
# (its scalar one, without AVX2, gives the exact remainder, as minigrad does).
KERNEL_DEPENDENT = {
    "print(torch.arange(0, 1, 0.1).tolist(), torch.arange(1, 4, 0.5), torch.arange(-1, 1, 0.25).tolist(), torch.arange(0.5, 2.0, 0.3).tolist(), torch.linspace(0, 1, 7).tolist(), torch.linspace(-2.5, 3.3, 9).tolist())",
    "x = torch.full((16,), 5.0); print(torch.fmod(x, 1.1754943508222875e-38), x.remainder(1.1754943508222875e-38))",
}
