# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Version counters: saved tensors changed in place before backward, and index tensors."""

PROBES = [
    """x = torch.ones(3)
print(x._version)
x.add_(1)
x[0] = 3
print(x._version)""",
    """x = torch.ones(3)
v = x[:2]
v.mul_(2)
print(x._version, v._version)""",
    """x = torch.ones(3)
d = x.detach()
d.add_(1)
print(x._version, d._version)""",
    """x = torch.ones(3)
y = x.data
y.add_(1)
print(x._version, y._version)""",
    """x = torch.ones(3, requires_grad=True)
y = x.exp()
y.add_(1)
y.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x * 2
z = y * y
y.add_(1)
z.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x * 2
z = y.sin()
y[0] = 0
z.sum().backward()""",
    """x = torch.ones(2, 2, requires_grad=True)
w = torch.ones(2, 2)
y = x @ w
w.add_(1)
y.sum().backward()""",
    """x = torch.ones(2, 2, requires_grad=True)
w = torch.ones(2, 2)
y = x @ w
w.add_(1)
print(y.grad_fn)
print(x.grad)""",
    # index tensors changed after indexing
    """x = torch.arange(4.0, requires_grad=True)
idx = torch.tensor([0, 1, 1])
y = x[idx]
idx[0] = 2
y.sum().backward()""",
    """x = torch.arange(4.0, requires_grad=True)
idx = torch.tensor([0, 1, 1])
y = x[idx]
idx.add_(1)
y.sum().backward()""",
    """x = torch.arange(4.0, requires_grad=True)
idx = torch.tensor([0, 1, 1])
y = x[idx] * 2
y.sum().backward()
idx[0] = 2
print(x.grad)""",
    """x = torch.arange(6.0, requires_grad=True).view(2, 3)
idx = torch.tensor([0, 2])
y = x[:, idx]
idx[1] = 1
y.sum().backward()""",
    """x = torch.arange(4.0, requires_grad=True)
mask = torch.tensor([True, False, True, False])
y = x[mask]
mask[1] = True
y.sum().backward()""",
    """x = torch.arange(4.0, requires_grad=True)
idx = torch.tensor([0, 1, 1])
y = x[idx]
idx[0] = 2
print(x.grad, y)""",
    """x = torch.zeros(4, requires_grad=True).clone()
idx = torch.tensor([0, 2])
v = torch.ones(2, requires_grad=True)
x.index_put_((idx,), v)
idx[0] = 1
x.sum().backward()""",
    """x = torch.zeros(4, requires_grad=True).clone()
idx = torch.tensor([0, 2])
v = torch.ones(2, requires_grad=True)
x[idx] = v
idx[0] = 1
x.sum().backward()""",
    """x = torch.zeros(2, 3, requires_grad=True)
idx = torch.tensor([[0, 1, 0]])
y = x.scatter(0, idx, 1.0)
idx[0, 0] = 1
y.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x.sigmoid()
y.mul_(2)
y.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x.tanh()
z = y.clone()
y.mul_(2)
z.sum().backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
y = x * 3
y.relu_()
y.sum().backward()
print(x.grad, y._version)""",
    """x = torch.arange(4.0, requires_grad=True)
idx = torch.tensor([0, 1])
y = x[idx]
y.sum().backward()
y.sum().backward()""",
    """x = torch.arange(4.0, requires_grad=True)
idx = torch.tensor([0, 1])
y = x[idx]
y.sum().backward(retain_graph=True)
idx[0] = 3
y.sum().backward()""",
    """x = torch.arange(4.0, requires_grad=True)
idx = torch.tensor([0, 1])
y = x[idx]
print(idx._version)
idx[0] = 3
print(idx._version, y)""",
    """x = torch.arange(6.0, requires_grad=True).view(2, 3)
rows = torch.tensor([0, 1])
cols = torch.tensor([2, 0])
y = x[rows, cols]
cols.zero_()
y.sum().backward()""",
    """x = torch.zeros(3, requires_grad=True)
i = torch.tensor([1])
y = x.clone()
y[i] = 5.0
i.fill_(0)
y.sum().backward()""",
    """x = torch.ones(2, requires_grad=True)
y = x * 2
with torch.no_grad():
    y.add_(1)
print(y._version, y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """a = torch.ones(2, requires_grad=True)
b = a * 3
c = b ** 2
b.zero_()
c.sum().backward()""",
    """x = torch.ones(3)
print(x._version)
x.data.add_(1)
print(x._version)
x.detach().add_(1)
print(x._version)""",
    """x = torch.ones(3, requires_grad=True)
y = x.exp()
z = y[:2]
z.add_(1)
y.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x * 1
m = y.max()
y.add_(1)
m.backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x * 1
v, i = y.max(0)
i.add_(1)
v.backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x.prod()
with torch.no_grad():
    x.mul_(2)
y.backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x.relu()
y.add_(1)
y.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x.clamp(0, 2)
y.add_(1)
y.sum().backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
w = torch.ones(3)
y = (x * w).sum()
w[0] = 2
y.backward()""",
    """x = torch.ones(3, requires_grad=True)
w = torch.ones(3)
y = (x + w).sum()
w[0] = 2
y.backward()
print(x.grad)""",
    """w = torch.ones(2, requires_grad=True)
y = (w * w).sum()
with torch.no_grad():
    w -= 1
y.backward()""",
    """w = torch.ones(2, requires_grad=True)
y = (w * 3).sum()
with torch.no_grad():
    w -= 1
y.backward()
print(w.grad)""",
    """w = torch.ones(2, requires_grad=True)
y = (w * w).sum()
w.data -= 1
y.backward()
print(w.grad)""",
    """w = torch.ones(2, requires_grad=True)
y = (w * w).sum()
w.detach().sub_(1)
y.backward()""",
    """x = torch.ones(2, requires_grad=True)
y = x.exp()
z = y.exp()
y.data.add_(1)
z.sum().backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
y = x.sqrt()
out = y.sum()
y[0] = 5
out.backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x ** 2
s = y.sum()
x2 = y.view(3)
x2.mul_(2)
s.backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
h = x.tanh()
g = h.clone()
h.add_(1)
g.sum().backward()
print(x.grad)""",
    """a = torch.ones(2, 2, requires_grad=True)
b = torch.ones(2, 2)
c = a @ b
b.add_(0)
c.sum().backward()""",
    """x = torch.ones(2, requires_grad=True)
y = x * 2
z = y.unsqueeze(0)
w = z * z
y.add_(1)
w.sum().backward()""",
    # held-out style probes (issue 13 audit)
    """x = torch.ones(3, requires_grad=True)
d = x.detach()
d.add_(1)
print(x, x._version, d._version)""",
    """x = torch.ones(3, requires_grad=True)
y = x * 2
z = y.detach().unsqueeze(0)
z.add_(1)
print(y, y._version)""",
    """x = torch.ones(3, requires_grad=True)
i = torch.tensor([0, 2])
y = x[i] ** 2
i.add_(0)
y.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
i = torch.tensor([0, 2])
y = x.index_select(0, i)
i[0] = 1
y.sum().backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
i = torch.tensor([0, 2])
y = x.gather(0, i)
i[0] = 1
y.sum().backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
m = torch.tensor([True, False, True])
y = x[m]
m[1] = True
y.sum().backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
y = x.exp()
print(y._version)
y.add_(1)
print(y._version)
y.sum().backward()""",
    """x = torch.ones(3)
print(x._version); x += 1; print(x._version); x[0] = 3; print(x._version); x.data.add_(1); print(x._version)""",
    """x = torch.ones(3)
v = x[1:]
v.add_(1)
print(x._version, v._version)
x.add_(1)
print(x._version, v._version)""",
    """x = torch.ones(3)
y = x.detach()
y.add_(1)
print(x._version, y._version)""",
    """x = torch.ones(2, 3, requires_grad=True).clone()
v = x[0:1]
v.t_()
print(v.shape, v.grad_fn, x._version)""",
    """x = torch.arange(6.).view(2, 3).requires_grad_()
y = x.clone()
y.t_()
y.unsqueeze_(0)
(y * torch.arange(6.).view(1, 3, 2)).sum().backward()
print(x.grad, y._version)""",
    # held-out style probes (issue 13 audit)
    """x = torch.ones(3, requires_grad=True)
y = x * 1
z = y.pow(2)
y.add_(1)
z.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x * 1
z = y * 2
y.add_(1)
z.sum().backward(); print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
y = x * 1
z = y.sin()
y[0] = 5
z.sum().backward()""",
    """x = torch.ones(3, requires_grad=True)
y = x * 1
z = y[1:].exp()
y[0] = 5
z.sum().backward(); print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
y = x * 1
v = y[1:]
z = v * v
y.mul_(2)
z.sum().backward()""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x * 1
z = y @ y
y.t_()
z.sum().backward()""",
    """x = torch.ones(2, requires_grad=True)
y = x * 1
z = y.relu()
z.add_(1)
z.sum().backward(); print(x.grad)""",
    """x = torch.ones(2, requires_grad=True)
y = x.sqrt()
y.mul_(2)
y.sum().backward()""",
    """x = torch.ones(2, requires_grad=True)
y = x * 1
z = y.clone()
y.add_(1)
(y * z).sum().backward(); print(x.grad, y._version, z._version)""",
    """x = torch.ones(2, requires_grad=True)
y = x * 1
print(y._version); y += 1; print(y._version); y.data += 1; print(y._version); y.detach().add_(1); print(y._version); torch.no_grad().__enter__(); y.add_(1); torch.set_grad_enabled(True); print(y._version)""",
    """x = torch.ones(2)
v1 = x.view(2); v2 = x[0:1]; v3 = v2.view(1)
v3.add_(1)
print(x._version, v1._version, v2._version, v3._version, x)""",
    """x = torch.ones(4, requires_grad=True)
y = x * 1
a, b = y.split(2)
z = a * 2
b.mul_(3)
(z.sum() + b.sum()).backward()""",
    """x = torch.ones(4, requires_grad=True)
y = x * 1
a, b = y.chunk(2)
b.add_(1)""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x * 1
r0, r1 = y.unbind(0)
r0.add_(1)""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x * 1
r0 = y.select(0, 0)
r0.add_(1)
y.sum().backward(); print(x.grad, y.grad_fn)""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x.exp()
i = torch.tensor([0])
z = y.index_select(0, i)
y.mul_(2)
z.sum().backward()""",
    """x = torch.ones(2, requires_grad=True)
y = x ** torch.tensor([2., 3.]); y.add_(1)
y.sum().backward()""",
    """x = torch.ones(2, requires_grad=True)
y = torch.tensor([2., 3.]) ** x; y.mul_(2)
y.sum().backward()""",
    """x = torch.ones(2, requires_grad=True); c = torch.tensor([2., 3.])
y = x / c; c.add_(1); y.sum().backward()""",
    """x = torch.ones(2, requires_grad=True); c = torch.tensor([2., 3.])
y = c / x; c.add_(1); y.sum().backward(); print(x.grad)""",
    """x = torch.ones(2, requires_grad=True); c = torch.tensor([2., 3.])
y = x * c; c.add_(1); y.sum().backward()""",
    """x = torch.ones(2, requires_grad=True); c = torch.tensor([2., 3.])
y = c * x; x2 = x * 1; z = x2 * c; x2.add_(1); z.sum().backward(); print(x.grad)""",
    """x = torch.ones(2, requires_grad=True); e = torch.tensor([2., 3.])
y = torch.pow(x * 1, e); e.add_(1); y.sum().backward()""",
    """x = torch.ones(2, requires_grad=True); b = torch.tensor([2., 3.])
y = b ** x; b.add_(1); y.sum().backward(); print(x.grad)""",
    """x = torch.ones(2, requires_grad=True); w = torch.ones(2, 2)
y = x @ w; w.add_(1); y.sum().backward()""",
    """x = torch.ones(2, 2, requires_grad=True); w = torch.ones(2, 2)
y = torch.mm(x, w); w.add_(1); y.sum().backward()""",
    """x = torch.ones(2, requires_grad=True); w = torch.ones(2)
y = x.dot(w); w.add_(1); y.backward()""",
    """x = torch.tensor([1., 5.], requires_grad=True); y = x * 1
z = y.clamp(2, 4); y.add_(1); z.sum().backward()""",
    """x = torch.tensor([1., 5.], requires_grad=True); y = x * 1
z = torch.maximum(y, torch.tensor(3.)); y.add_(1); z.sum().backward()""",
    """x = torch.tensor([1., 5.], requires_grad=True); lo = torch.tensor([2., 2.])
z = x.clamp(min=lo); lo.add_(1); z.sum().backward()""",
    """x = torch.tensor([[1., 5.]], requires_grad=True); i = torch.tensor([[1]])
z = x.gather(1, i); i.zero_(); z.sum().backward()""",
    """x = torch.tensor([1., 5.], requires_grad=True); y = x * 1
z = y.norm(); y.add_(1); z.backward()""",
    """x = torch.tensor([1., 5.], requires_grad=True); y = x * 1
z = y.std(); y.add_(1); z.backward()""",
    """x = torch.tensor([1., 5.], requires_grad=True); y = x * 1
z = y.prod(); y.add_(1); z.backward()""",
    """x = torch.tensor([1., 5.], requires_grad=True); y = x * 1
z = y.softmax(0); z.add_(1); z.sum().backward()""",
    """x = torch.tensor([1., 5.], requires_grad=True); y = x * 1
z = y.lerp(torch.ones(2), 0.5); y.add_(1); z.sum().backward(); print(x.grad)""",
    """x = torch.tensor([1., 5.], requires_grad=True); y = x * 1; w = torch.tensor([0.2, 0.3])
z = y.lerp(torch.ones(2), w); w.add_(1); z.sum().backward()""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x * 1
m = y > 0
z = y.masked_fill(m, 0.)
m[0, 0] = False
z.sum().backward(); print(x.grad)""",
    """x = torch.ones(2, 2, requires_grad=True)
m = torch.tensor([True, False])
z = x.masked_select(m)
m[0] = False
z.sum().backward(); print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
m = torch.tensor([True, False, True])
z = torch.where(m, x, 0.)
m[0] = False
z.sum().backward(); print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
i = torch.tensor([0, 2])
z = torch.zeros(3).scatter(0, i, x[:2])
i[0] = 1
z.sum().backward(); print(x.grad)""",
]

KNOWN = {}
