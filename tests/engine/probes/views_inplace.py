# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Views changed in place: the errors torch raises and the graphs it rewrites."""

PROBES = [
    # a view made under no_grad, changed with grad on
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x[:2]
v.mul_(2)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
v.add_(1)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x.view(3)
v.zero_()""",
    """x = torch.ones(2, 2, requires_grad=True) * 1
with torch.no_grad():
    v = x.t()
v += 1""",
    """x = torch.ones(3, requires_grad=True) * 2
with torch.no_grad():
    v = x[1]
print(v.requires_grad, v.grad_fn)
with torch.no_grad():
    v.mul_(3)
print(x)""",
    """x = torch.ones(3) * 2
with torch.no_grad():
    v = x[:2]
v.mul_(3)
print(x, v)""",
    """x = torch.ones(3) * 2
with torch.no_grad():
    v = x[:2]
w = torch.ones(2, requires_grad=True)
v.mul_(w)""",
    # a view of a detached tensor, changed with grad on
    """x = torch.ones(3, requires_grad=True).clone()
v = x.detach()[:2]
v.mul_(2)
print(x)""",
    """x = torch.ones(3, requires_grad=True).clone()
d = x.detach()
v = d[:2]
w = torch.ones(2, requires_grad=True)
v.mul_(w)""",
    """x = torch.ones(3, requires_grad=True).clone()
d = x.detach()
w = torch.ones(3, requires_grad=True)
d.mul_(w)
print(d.grad_fn, x.grad_fn)""",
    """x = torch.ones(3, requires_grad=True)
v = x.detach()
v.add_(1)
print(x)""",
    # views of leaves
    """x = torch.ones(3, requires_grad=True)
x[0] = 2""",
    """x = torch.ones(3, requires_grad=True)
x[:2].mul_(2)""",
    """x = torch.ones(3, requires_grad=True)
x.view(3).add_(1)""",
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    x[0] = 5
print(x, x.is_leaf)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x * 1
y[0] = 7
print(y)
y.sum().backward()
print(x.grad)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x * 1
y[:, 1].mul_(3)
print(y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.clone()
v = y[1:]
v.exp_()
print(v.grad_fn, y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.clone()
v = y[1:]
y.mul_(2)
print(v.grad_fn)
v.sum().backward()
print(x.grad)""",
    """a, b = torch.ones(2, requires_grad=True).clone().unbind()
a.mul_(2)""",
    """x = torch.ones(3, requires_grad=True).clone()
e = x.expand(2, 3)
e.add_(1)""",
    """x = torch.zeros(4)
x[1:3] = torch.tensor([5., 6.])
print(x, x._version)""",
    """x = torch.arange(6.).view(2, 3)
x.t()[0].fill_(9)
print(x)""",
    """x = torch.arange(4.)
x[1:] += x[:-1]""",
    """x = torch.ones(3, requires_grad=True)
y = x.clone()
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)""",
    """x = torch.ones(3, requires_grad=True)
y = x.clone()[:2]
y.detach_()""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
print(v.requires_grad, v.is_leaf, v.grad_fn)
y = v * 2
print(y.grad_fn, y.requires_grad)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
x.mul_(2)
print(v.requires_grad)
v.grad_fn""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
w = v[:1]
print(w.requires_grad, w.grad_fn)
w.mul_(2)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
    v.mul_(2)
print(x)
print(v.grad_fn)""",
    """x = torch.ones(3)
with torch.no_grad():
    v = x[:2]
v.mul_(2)
print(v.requires_grad, x)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
print(v)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    a, b, c = x.unbind()
a.mul_(2)""",
    """x = torch.ones(3, requires_grad=True).clone()
a, b, c = x.unbind()
with torch.no_grad():
    a.mul_(2)
print(x)""",
    """x = torch.ones(2, 2, requires_grad=True).clone()
r0, r1 = x.unbind(1)
r0.add_(1)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x.view(3)
y = v.exp()
print(y.requires_grad, y.grad_fn)
y.sum().backward()
print(x.grad_fn)""",
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x[:2]
with torch.enable_grad():
    w = v[:1]
print(w.grad_fn, w.requires_grad)""",
    """x = torch.ones(4, requires_grad=True).clone()
v = x.view(2, 2)
v[0].mul_(3)
print(v.grad_fn, x.grad_fn)""",
    'x = torch.zeros(3, requires_grad=True); y = x + 0; y[1] = torch.tensor(5.); y.sum().backward(); print(x.grad, y)',
    'x = torch.ones(3, requires_grad=True); y = x.clone(); y[0] += 1; print(y.grad_fn, y._version)',
    'x = torch.ones(4, requires_grad=True); y = x * 1; z = y.view(2, 2); z[0, 0] = 7; print(y, z.grad_fn)',
    'x = torch.ones(3, requires_grad=True); y = x * 1; v = y[:2]; y.add_(1); print(v, v._version)',
    'x = torch.ones(3, requires_grad=True); y = x * 1; v = y[1:]; v.zero_(); y.sum().backward(); print(x.grad)',
    'x = torch.ones(2, 3); x[0].add_(torch.ones(3)); print(x, x._version)',
    'x = torch.ones(2, 3); x[:, 0] = torch.tensor([7., 8.]); print(x)',
    'x = torch.ones(2, 3); x[0] = torch.ones(2)',
    'x = torch.ones(3); y = x.view(3); print(y._base is x, x._base, y.data_ptr() == x.data_ptr())',
    """x = torch.ones(3, requires_grad=True).clone()
with torch.inference_mode():
    v = x[:2]
print(v.requires_grad, v.is_inference())""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.inference_mode():
    v = x[:2]
v.mul_(2)""",
    """x = torch.ones(3)
with torch.inference_mode():
    v = x[:2]
    v.mul_(2)
print(x)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[1:]
print(v.requires_grad)
v.requires_grad_(False)
print(v.requires_grad)""",
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x.view(3)
print(v.is_leaf, v.requires_grad, v._base is x)""",
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x.view(3)
(v * 2).sum().backward()
print(x.grad, v.grad)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x.view(3)
with torch.no_grad():
    v.zero_()
print(x)""",
    """x = torch.ones(2, 2, requires_grad=True).clone()
with torch.no_grad():
    a, b = x.unbind()
print(a.requires_grad, a.grad_fn)
a.add_(1)""",
    """x = torch.ones(2, 2, requires_grad=True).clone()
with torch.no_grad():
    v = x.transpose(0, 1)
v[0, 0] = 5""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
v.detach().mul_(2)
print(x)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
v.data.mul_(2)
print(x)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x[:2]
v.sum().backward()""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x.view(3)
print((v + 1).grad_fn.next_functions)""",
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x[:2]
v.retain_grad()""",
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x[:2]
v.register_hook(lambda g: g)
print('ok')""",
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x[:2]
print(v.grad)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x.detach()[:2]
v.mul_(torch.ones(2, requires_grad=True))
print(v.grad_fn, x.grad_fn)""",
    "x = torch.ones(2, 2, requires_grad=True); y = x.clone(); y.t_(); print(y.shape, y.grad_fn)",
    # held-out style probes (issue 13 audit)
    """x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x[:2]
v.add_(1)""",
    """x = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = x.view(3)
v.mul_(2)""",
    """x = torch.ones(3, requires_grad=True)
d = x.detach()
v = d[1:]
v.zero_()
print(x, d)""",
    """x = torch.ones(2, 3, requires_grad=True).clone()
with torch.no_grad():
    v = x.t()
v.add_(1)
print(v.requires_grad, v.grad_fn)""",
    """x = torch.ones(4, requires_grad=True).clone()
with torch.no_grad():
    v = x.unbind(0)
v[0].add_(1)""",
    """x = torch.ones(4, requires_grad=True).clone()
a, b = x.split(2)
a.mul_(2)""",
    """x = torch.ones(4, requires_grad=True).clone()
a, b = x.chunk(2)
a.mul_(2)""",
    """x = torch.ones(4, requires_grad=True).clone()
v = x.unbind(0)
v[0].add_(1)""",
    """x = torch.ones(3, requires_grad=True)
y = x.sigmoid()
y[0] = 0
y.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x.tanh()
z = y * 1
y.mul_(2)
z.sum().backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
y = x.pow(2)
x.data.mul_(3)
y.sum().backward()
print(x.grad)""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x.clone()
y.t_()
print(y.shape, y.grad_fn)""",
    """x = torch.arange(6.).view(2, 3).requires_grad_()
y = x.clone()
y.t_()
print(y, y.is_contiguous(), y.stride())
(y * torch.arange(6.).view(3, 2)).sum().backward()
print(x.grad)""",
    """x = torch.arange(3.)
x.t_()
print(x)""",
    """x = torch.ones(2, 3, 4)
x.t_()""",
    """x = torch.ones(2, 3, requires_grad=True)
x.t_()""",
    """x = torch.ones(2, 3)
x.transpose_(0, 1)
print(x.shape, x.stride())""",
    """x = torch.ones(2, 3, 4)
x.swapdims_(0, 2)
print(x.shape)""",
    """x = torch.ones(2, 3)
x.unsqueeze_(0); print(x.shape); x.squeeze_(); print(x.shape)""",
    """c=torch.ones(2,1,3,requires_grad=True).clone()
c.squeeze_(-2); print(c.grad_fn, c.grad_fn._saved_dim, c.grad_fn._saved_self_sym_sizes, c.shape)""",
    """c=torch.ones(2,1,3,requires_grad=True).clone()
c.squeeze_((1,-1)); print(c.grad_fn, c.grad_fn._saved_dim, c.shape)
c.transpose_(-1,0); print(c.grad_fn, c.grad_fn._saved_dim0,c.grad_fn._saved_dim1, c.shape)
c.unsqueeze_(-1); print(c.grad_fn, c.grad_fn._saved_dim, c.shape)
c.squeeze_(); print(c.grad_fn, c.grad_fn._saved_self_sym_sizes, c.shape)
(c * torch.arange(2.)).sum().backward()""",
    """x = torch.arange(6.).view(2, 3).requires_grad_()
b = x.clone()
v = b[:, 1:]
v.t_()
v.mul_(10)
print(v.grad_fn, b.grad_fn, b)
b.sum().backward()
print(x.grad)""",
    """x = torch.arange(6.).view(2, 3).requires_grad_()
b = x.clone()
v = b[0]
v.unsqueeze_(1)
v[1] = 7
print(b, v)
(b * b).sum().backward()
print(x.grad)""",
    """x = torch.arange(6.).view(2, 3)
with torch.no_grad():
    pass
y = x.t_()
print(y is x, x, x.is_contiguous())""",
    """x = torch.ones(2, 3, requires_grad=True).clone()
with torch.no_grad():
    v = x[0]
v.unsqueeze_(0)""",
    """x = torch.ones(2, 3)
print(x.swapdims(0, 1).shape, x.swapaxes(1, 0).shape, torch.ones(2,3,requires_grad=True).swapdims(0,1).grad_fn)""",
    """x = torch.ones(2, 3, requires_grad=True).clone()
y = x * 2
z = x.t()
x.t_()
print(z.grad_fn, x.shape)
y.sum().backward()""",
    """x = torch.ones(3, requires_grad=True).clone()
x.squeeze_(0)
x.unsqueeze_(5)""",
    # held-out style probes (issue 13 audit)
    """x = torch.ones(4, requires_grad=True)
y = x.clone()
with torch.no_grad():
    v = y.view(2, 2)
w = v[0]
w.add_(1)""",
    """x = torch.ones(4, requires_grad=True)
y = x.clone()
with torch.no_grad():
    v = y[:2]
y.add_(1)
print(v, v.requires_grad)
v.sum()""",
    """x = torch.ones(4, requires_grad=True)
y = x.clone()
with torch.no_grad():
    v = y[:2]
y.add_(1)
print(v.grad_fn)""",
    """x = torch.ones(4, requires_grad=True)
y = x.clone()
with torch.inference_mode():
    v = y[:2]
v.add_(1)""",
    """x = torch.ones(4)
with torch.no_grad():
    v = x[:2]
v.mul_(torch.ones(2, requires_grad=True))""",
    """x = torch.ones(4, requires_grad=True)
d = x.detach()
v = d[:2]
v.mul_(torch.ones(2, requires_grad=True))
print(v.grad_fn, d.grad_fn, x.grad_fn, x)""",
    """x = torch.ones(4, requires_grad=True)
y = x.clone()
v = y.detach()[:2]
y.mul_(2)
print(v)""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x.clone()
a = y[0]
b = y[:, 0]
a.mul_(3)
print(b.grad_fn, b)
b.sum().backward(); print(x.grad)""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x.clone()
a = y.diagonal()
a.zero_()
y.sum().backward(); print(x.grad, y)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.clone()
y.t()[0].fill_(5)
y.sum().backward(); print(x.grad, y)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.clone()
y.view(-1)[::2] = 0
print(y, y.grad_fn)
y.sum().backward(); print(x.grad)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.clone()
y.reshape(3, 2)[0] = 7
print(y)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.clone()
y.t().reshape(6)[0] = 7
print(y)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.clone()
z = y.flatten()
z[0] = 9
print(y, z._base is y, z.grad_fn)""",
    # unfold is a view: writes through it, a non-contiguous base changed in place
    """x = torch.arange(6.)
w = x.unfold(0, 2, 2)
w[1, 0] = 100.; w.mul_(2); print(x, w._base is x, w.is_contiguous(), x._version, w._version)""",
    """b = torch.arange(12.).view(3, 4).t()
w = b.unfold(1, 2, 1); print(w.shape, w.stride(), w.is_contiguous())
b.add_(100); print(w, w._version)""",
    """x = torch.arange(12., requires_grad=True)
y = x * 1
w = y.view(3, 4).t().unfold(1, 2, 2)
w.mul_(10); print(y, y.grad_fn, w.grad_fn)
y.sum().backward(); print(x.grad)""",
    """x = torch.arange(12., requires_grad=True)
y = x * 1
w = y.view(3, 4).t()[::2].unfold(0, 1, 1)
y.add_(1); print(w.grad_fn, w)
w.sum().backward(); print(x.grad)""",
    """x = torch.arange(6., requires_grad=True)
x.unfold(0, 2, 2).mul_(2)""",
    """x = torch.arange(6., requires_grad=True)
y = x.exp()
w = y.unfold(0, 3, 1); y.mul_(2)
w.sum().backward()""",
    # what a stale view's AsStridedBackward0 keeps, and gradients made with create_graph
    """x = torch.arange(12., requires_grad=True).reshape(3, 4)
b = x * 1
v = b[1:, 2]
b.mul_(2)
print(v.grad_fn, v.grad_fn._saved_size, v.grad_fn._saved_stride, v.grad_fn._saved_storage_offset)""",
    """x = torch.ones(4, 3, requires_grad=True)
b = x.clone()
b[1:3] = x[0] * 2
g, = torch.autograd.grad((b * b).sum(), x, create_graph=True)
print(g.grad_fn, g.grad_fn.next_functions)
print(g.grad_fn.next_functions[1][0].next_functions)""",
    """x = torch.ones(3, 4, requires_grad=True)
b = x * 1
v = b.t()
b.add_(1)
g, = torch.autograd.grad((v * v).sum(), x, create_graph=True)
print(g, g.grad_fn.next_functions[0][0]._saved_size)""",
    # comparisons, logical ops, hypot and atan2 in place
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
o = torch.tensor([2., 0., 6.], requires_grad=True)
print(y.lt_(o), y.grad_fn, y.grad_fn.next_functions, y._version)
y.sum().backward()
print(x.grad, o.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
print(y.eq_(4.), y.grad_fn.next_functions, y.ne_(torch.tensor(0.)).grad_fn)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x.logical_and_(torch.tensor([1., 0., 1.])), x._version, x.grad_fn)
y = x * 2
y.logical_xor_(torch.tensor([1., 0., 0.]))
print(y, y.grad_fn, y._version)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
x.eq_(2.)""",
    """x = torch.tensor([1., 2., 3.]) * 1
x.eq_(torch.ones(2, 3))""",
    """b = torch.tensor([True, False])
print(b.lt_(0.5), b.logical_not_(), b.logical_or_(torch.tensor([0, 1])))
i = torch.tensor([1, 2, 3])
print(i.ge_(2.5), i.dtype, i.greater_equal_(1), i.less_(torch.tensor([1, 1, 1])))""",
    """i = torch.tensor([1, 2, 3])
i.hypot_(torch.tensor([1, 2, 3]))""",
    """i = torch.tensor([1, 2, 3])
i.atan2_(torch.tensor([1., 2, 3]))""",
    """x = torch.tensor([1., 2.]) * 1
x.logical_and_(1)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
a = x * 1
print(a.atan2_(torch.tensor([4., 5., 6.])), a.grad_fn._saved_self, a.grad_fn._saved_other)
a.sum().backward()
h = torch.tensor([3., 4.], requires_grad=True) * 1
print(h.hypot_(torch.tensor([4., 3.])), h.grad_fn._saved_result)
h.sum().backward()
print(x.grad)""",
    """import warnings
fwAD = torch.autograd.forward_ad
with warnings.catch_warnings(), fwAD.dual_level():  # torch's first dual tensor: jit warnings of its own
    warnings.simplefilter('ignore')
    fwAD.make_dual(torch.ones(1), torch.ones(1))
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.])) * 1
    d.eq_(1.)
    print(fwAD.unpack_dual(d).tangent)
    d2 = fwAD.make_dual(torch.tensor([3., 4.]), torch.tensor([1., 1.])) * 1
    d2.hypot_(torch.tensor([4., 3.]))
    print(fwAD.unpack_dual(d2).tangent)
    d3 = fwAD.make_dual(torch.tensor([3., 4.]), torch.tensor([1., 1.])) * 1
    d3.logical_and_(torch.tensor([4., 0.]))
    print(fwAD.unpack_dual(d3))""",
]

KNOWN = {
    """x = torch.arange(6.)
x.unfold(0, 3, 1).add_(1); print(x)""":
        "an in-place op through overlapping unfold windows: torch's kernel reads and writes the "
        "shared elements in its own order (its docs call the result undefined), NumPy's ufunc "
        "buffers the overlap, so each element is changed once",
}
