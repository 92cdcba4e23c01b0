# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""The activations group: erf, erfc, erfinv; hardtanh and relu6 (F, in place, modules): values
at the edges, dtypes, errors, saved fields and module reprs."""

PROBES = [
    # erf and friends
    """x = torch.tensor([-2., -0.5, 0., 0.5, 3., float('inf'), float('-inf'), float('nan')])
print(torch.erf(x), torch.erfc(x), x.erf(), x.erfc())""",
    """print(torch.erfinv(torch.tensor([-1., -0.5, 0., 0.5, 1., 1.5, float('nan'), -0.])))""",
    """print(torch.erf(torch.tensor([1, 2])), torch.erfinv(torch.tensor([0, 1])), torch.erfc(torch.tensor(True)))""",
    """torch.tensor([1, 2]).erf_()""",
    """torch.erf(1.0)""",
    """torch.erfinv([0.5])""",
    """x = torch.tensor([0.3, -1.2], requires_grad=True)
y = torch.erf(x)
print(y, y.grad_fn, y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([0.3, -0.9], requires_grad=True)
y = torch.erfinv(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)""",
    """x = torch.tensor([0.3, -0.9], requires_grad=True)
y = x.clone().erfc_()
print(y, y.grad_fn, y.grad_fn._saved_self)""",
    """x = torch.tensor([0.3, -0.9], dtype=torch.float64)
print(torch.erf_(x), x, torch.erfc_(torch.zeros(0, 2)), torch.erf(torch.tensor(0.25)))""",
    # hardtanh, relu6
    """import torch.nn.functional as F
x = torch.tensor([-3., -1., -0.5, 0., 1., 2., float('nan'), -0.])
print(F.hardtanh(x), F.hardtanh(x, -2, 0.5), F.relu6(x * 4), F.hardtanh(x, max_val=0.))""",
    """import torch.nn.functional as F
print(F.hardtanh(torch.tensor([-3, 0, 2])), F.relu6(torch.tensor([-3, 0, 7])), F.hardtanh(torch.tensor([-3, 0, 2]), -1.5, 1.5))""",
    """import torch.nn.functional as F
F.hardtanh(torch.tensor([True]))""",
    """import torch.nn.functional as F
F.relu6(torch.tensor([True]))""",
    """import torch.nn.functional as F
F.hardtanh(torch.tensor([1., 2.]), 2, 1)""",
    """import torch.nn.functional as F
F.hardtanh(torch.tensor([1., 2.]), None, 1)""",
    """import torch.nn.functional as F
F.hardtanh(1.0)""",
    """import torch.nn.functional as F
F.relu6([1.0])""",
    """import torch.nn.functional as F
F.hardtanh_(torch.tensor([1.]), min_val=None)""",
    """import torch.nn.functional as F
x = torch.tensor([-3., 0.5, 2.], requires_grad=True)
for y in (F.hardtanh(x), F.relu6(x), F.hardtanh(x, -2, 2.5), F.hardtanh(x.clone(), inplace=True), F.relu6(x.clone(), inplace=True), torch.nn.ReLU6()(x), torch.nn.Hardtanh(-2, 3)(x)):
    f = y.grad_fn
    print(y, f.name(), f._saved_min_val, f._saved_max_val, f._saved_self)""",
    """import torch.nn.functional as F
x = torch.tensor([-1., 1., 0.5, -2., 6., 0.], requires_grad=True)
F.hardtanh(x).sum().backward()
print(x.grad)
x.grad = None
F.relu6(x).sum().backward()
print(x.grad)""",
    """import torch.nn.functional as F
x = torch.tensor([-1.5, 0.5], requires_grad=True)
g, = torch.autograd.grad(F.hardtanh(x).sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn._saved_min_val, g.grad_fn._saved_max_val)""",
    """import torch.nn.functional as F
x = torch.tensor([-3., 0.5, 2.])
y = F.hardtanh_(x)
print(y is x, x, F.relu6(x, inplace=True) is x, F.hardtanh(torch.tensor(5.)), F.hardtanh(torch.zeros(0, 3)))""",
    """x = torch.tensor([-3., 0.5, 2.], requires_grad=True)
torch.nn.functional.hardtanh(x, inplace=True)""",
    # module reprs
    """print(torch.nn.Hardtanh(), torch.nn.Hardtanh(-2, 3, inplace=True), torch.nn.Hardtanh(-2, 3.5), torch.nn.ReLU6(), torch.nn.ReLU6(True))
print(torch.nn.ReLU6().min_val, torch.nn.ReLU6().max_val, torch.nn.Hardtanh().inplace)""",
    """torch.nn.Hardtanh(2, 1)""",
    """m = torch.nn.Hardtanh(min_value=-2.)
print(m)""",
    """print(torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU6(), torch.nn.Hardtanh(-0.5, 0.5)))""",
    # logsigmoid
    """import torch.nn.functional as F
x = torch.tensor([-1000., -20., -1., 0., 0.5, 20., 1000., float('nan'), float('inf'), float('-inf')], requires_grad=True)
y = F.logsigmoid(x)
print(y, y.grad_fn, y.grad_fn._saved_buffer, y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)""",
    """import torch.nn.functional as F
F.logsigmoid(torch.tensor([1, 2]))""",
    """import torch.nn.functional as F
F.logsigmoid(1.0)""",
    """import torch.nn.functional as F
x = torch.tensor([-1.5, 0.5], requires_grad=True)
g, = torch.autograd.grad(F.logsigmoid(x).sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn._saved_buffer)
g.sum().backward()
print(x.grad)""",
    """print(torch.nn.LogSigmoid(), torch.nn.LogSigmoid()(torch.tensor([[0.5, -2.]], dtype=torch.float64)), torch.nn.functional.logsigmoid(torch.zeros(0)))""",
    # selu, celu
    """import torch.nn.functional as F
x = torch.tensor([-3., -0.5, 0., 0.5, 2., float('nan'), float('-inf')], requires_grad=True)
for y in (F.selu(x), torch.selu(x), F.celu(x), F.celu(x, 0.5), torch.celu(x, alpha=2), F.selu(x.clone(), inplace=True), F.celu(x.clone(), 1.5, inplace=True)):
    f = y.grad_fn
    print(y, f.name(), f._saved_alpha, [k for k in dir(f) if k.startswith('_saved')])""",
    """import torch.nn.functional as F
x = torch.tensor([-1., 2.], requires_grad=True)
print(F.selu(x).grad_fn._saved_scale, F.selu(x).grad_fn._saved_input_scale)
g, = torch.autograd.grad(F.celu(x, 1.1).sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn._saved_input_scale, g.grad_fn._saved_alpha)""",
    """import torch.nn.functional as F
F.celu(torch.tensor([-1., 2.]), 0.)""",
    """import torch.nn.functional as F
F.celu(torch.tensor([1, 2]))""",
    """import torch.nn.functional as F
F.selu(torch.tensor([1, 2]))""",
    """torch.celu(torch.tensor([1.]), None)""",
    """import torch.nn.functional as F
F.selu(1.)""",
    """import torch.nn.functional as F
x = torch.tensor([-1., 2.], requires_grad=True)
y = F.celu(x.clone(), -1., inplace=True)
print(y)
y.sum().backward()""",
    """import torch.nn.functional as F
x = torch.tensor([-1., 2.])
print(F.selu_(x) is x, x, torch.celu_(x, 2.) is x, x, F.celu_(x), torch.selu_(x))""",
    """print(torch.nn.SELU(), torch.nn.SELU(True), torch.nn.CELU(), torch.nn.CELU(0.5, True), torch.nn.CELU(2))""",
    # mish, hardsigmoid, hardswish
    """import torch.nn.functional as F
x = torch.tensor([-100., -4., -3., -1., 0., 1., 3., 4., 100., float('nan'), float('inf'), float('-inf')], requires_grad=True)
for f in (F.mish, F.hardsigmoid, F.hardswish):
    y = f(x)
    print(y, y.grad_fn, y.grad_fn._saved_self is not None)
    x.grad = None
    y.sum().backward()
    print(x.grad)""",
    """import torch.nn.functional as F
x = torch.tensor([-1.5, 0.5, 4.], requires_grad=True)
for f in (F.mish, F.hardswish, F.hardsigmoid):
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    print(g, g.grad_fn.name(), g.grad_fn.next_functions)""",
    """import torch.nn.functional as F
x = torch.tensor([-1.5, 0.5], requires_grad=True)
g, = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
g.sum().backward()""",
    """import torch.nn.functional as F
F.mish(torch.tensor([1, 2]))""",
    """import torch.nn.functional as F
F.hardsigmoid(torch.tensor([1, 2]))""",
    """import torch.nn.functional as F
F.hardswish(torch.tensor([True]))""",
    """import torch.nn.functional as F
F.hardswish(1.)""",
    """import torch.nn.functional as F
x = torch.tensor([-1.5, 0.5], requires_grad=True)
for f in (F.mish, F.hardswish, F.hardsigmoid):
    y = f(x.clone(), inplace=True)
    print(y, y.grad_fn.name(), y.grad_fn._saved_self)""",
    """print(torch.nn.Mish(), torch.nn.Mish(True), torch.nn.Hardswish(), torch.nn.Hardswish(True), torch.nn.Hardsigmoid(), torch.nn.Hardsigmoid(inplace=True))""",
    """x = torch.tensor([-4., 1.])
print(torch.nn.Hardsigmoid(True)(x), x, torch.nn.functional.hardswish(torch.zeros(0)), torch.nn.functional.mish(torch.tensor(2., dtype=torch.float64)))""",
    # softsign, tanhshrink, softmin: composites, as in torch
    """import torch.nn.functional as F
x = torch.tensor([-3., -0.5, 0., 2., float('inf'), float('nan')], requires_grad=True)
for y in (F.softsign(x), F.tanhshrink(x), F.softmin(x[:4], 0)):
    print(y, y.grad_fn, y.grad_fn.next_functions)
    x.grad = None
    y.sum().backward()
    print(x.grad)""",
    """import torch.nn.functional as F
y = F.softmin(torch.tensor([[1., 2.], [3., 5.]]))
print(y)""",
    """import torch.nn.functional as F
y = F.softmin(torch.tensor([1., 2., 4.]), dim=0, dtype=torch.float64)
print(y)""",
    """import torch.nn.functional as F
F.softmin(torch.tensor([1., 2.]), 2)""",
    """import torch.nn.functional as F
F.softsign(torch.tensor([-2, 0, 3])), F.tanhshrink(torch.tensor([1, 2]))
print(F.softsign(torch.tensor([-2, 0, 3])), F.tanhshrink(torch.tensor([1, 2])), F.softmin(torch.tensor([[1., 2.]]), -1))""",
    """import torch.nn.functional as F
F.softmin(torch.tensor([1, 2]), 0)""",
    """print(torch.nn.Softmin(), torch.nn.Softmin(1), torch.nn.Softsign(), torch.nn.Tanhshrink())
print(torch.nn.Softmin()(torch.tensor([[1., 2.], [0., 0.]])))""",
    # threshold, softshrink, hardshrink
    """import torch.nn.functional as F
x = torch.tensor([-1., 0.1, 0.5, 2., -0.5, float('nan'), float('inf')], requires_grad=True)
for y in (F.threshold(x, 0.1, 20.), torch.threshold(x, 0.1, 20), F.softshrink(x), F.hardshrink(x, 0.5), x.hardshrink(1), torch.hardshrink(x, -1.), F.softshrink(x, 0)):
    f = y.grad_fn
    print(y, f.name(), [(k, getattr(f, k)) for k in dir(f) if k.startswith('_saved') and 'self' not in k])
    x.grad = None
    y.sum().backward()
    print(x.grad)""",
    """import torch.nn.functional as F
F.softshrink(torch.tensor([1., 2.]), -1.)""",
    """import torch.nn.functional as F
F.softshrink(torch.tensor([1., 2.], dtype=torch.float64), -0.25)""",
    """import torch.nn.functional as F
F.softshrink(torch.tensor([1, 2]))""",
    """import torch.nn.functional as F
F.hardshrink(torch.tensor([1, 2]))""",
    """import torch.nn.functional as F
print(F.threshold(torch.tensor([1, 2, 3]), 2, 0), F.threshold(torch.tensor([1, 2, 3]), 1.5, 0.5))""",
    """import torch.nn.functional as F
F.threshold(torch.tensor([True]), 0, 1)""",
    """import torch.nn.functional as F
F.threshold(torch.tensor([1.]), None, 1)""",
    """import torch.nn.functional as F
F.threshold(1., 1, 1)""",
    """import torch.nn.functional as F
x = torch.tensor([-1., 0.1, 0.5, 2.], requires_grad=True)
for y in (F.threshold(x.clone(), 0.1, 2., inplace=True), F.threshold_(x.clone(), 0.1, 2.), torch.threshold_(x.clone(), 0.1, 2.)):
    print(y, y.grad_fn.name(), y.grad_fn._saved_threshold, y.grad_fn._saved_self)""",
    """import torch.nn.functional as F
x = torch.tensor([-1., 0.2, 2.], requires_grad=True)
for f in (lambda t: F.threshold(t, 0.1, 2.), F.softshrink, F.hardshrink):
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    print(g, g.grad_fn.name(), [(k, getattr(g.grad_fn, k)) for k in dir(g.grad_fn) if k.startswith('_saved') and 'self' not in k])""",
    """print(torch.nn.Threshold(0.1, 20.), torch.nn.Threshold(1, 2, True), torch.nn.Softshrink(), torch.nn.Hardshrink(1), torch.nn.Softshrink(-1))""",
    """torch.nn.Softshrink(-1)(torch.tensor([1.]))""",
    # glu
    """import torch.nn.functional as F
x = torch.tensor([[1., -2., 0.5, 3.], [0., 1., -1., 2.]], requires_grad=True)
y = F.glu(x)
print(y, y.grad_fn, y.grad_fn._saved_dim, F.glu(x, 0).grad_fn._saved_dim)
y.sum().backward()
print(x.grad)""",
    """import torch.nn.functional as F
F.glu(torch.ones(3))""",
    """import torch.nn.functional as F
F.glu(torch.ones(2, 3), 1)""",
    """import torch.nn.functional as F
F.glu(torch.ones(2, 4), 2)""",
    """import torch.nn.functional as F
F.glu(torch.tensor(1.))""",
    """import torch.nn.functional as F
F.glu(torch.ones(2, 4, dtype=torch.long))""",
    """import torch.nn.functional as F
print(F.glu(torch.ones(0, 4)), F.glu(torch.ones(2, 3), 0), torch.nn.GLU(), torch.nn.GLU(0))""",
    """import torch.nn.functional as F
x = torch.tensor([[1., -2., 0.5, 3.]], requires_grad=True)
g, = torch.autograd.grad(F.glu(x, 1).sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn._saved_dim)
g.sum().backward()
print(x.grad)""",
    # prelu
    """import torch.nn.functional as F
x = torch.tensor([[[-1., 2.], [3., -4.], [0., -0.5]]], requires_grad=True)
w = torch.tensor([0.25, 0.1, -0.2], requires_grad=True)
y = F.prelu(x, w)
print(y, y.grad_fn, y.grad_fn.next_functions[1][0], y.grad_fn._saved_weight)
y.sum().backward()
print(x.grad, w.grad)""",
    """import torch.nn.functional as F
x = torch.ones(2, 3, 4)
F.prelu(x, torch.ones(2))""",
    """import torch.nn.functional as F
F.prelu(torch.ones(2, 3), torch.ones(1, 1))""",
    """import torch.nn.functional as F
F.prelu(torch.ones(2, dtype=torch.long), torch.ones(1, dtype=torch.long))""",
    """import torch.nn.functional as F
F.prelu(torch.ones(2), 0.25)""",
    """import torch.nn.functional as F
F.prelu(torch.ones(2, dtype=torch.float64), torch.ones(1))""",
    """m = torch.nn.PReLU()
print(m, torch.nn.PReLU(3, 0.1), m.weight, list(m.parameters()), m.init, m.num_parameters)
x = torch.tensor([[-2., 3.]])
y = m(x)
print(y, y.grad_fn.next_functions)
y.sum().backward()
print(m.weight.grad)""",
    """m = torch.nn.PReLU(2)
print(m(torch.tensor([[-1., -2.], [3., -4.]])), m.weight, m.state_dict())""",
    """x = torch.tensor([[-1., 2.]], requires_grad=True)
w = torch.tensor([0.3], requires_grad=True)
gx, gw = torch.autograd.grad(torch.prelu(x, w).sum(), (x, w), create_graph=True)
print(gx, gw, gx.grad_fn, gw.grad_fn, gw.grad_fn.next_functions)
(gx.sum() + gw.sum()).backward()
print(x.grad, w.grad)""",
    """print(torch.prelu(torch.tensor(-2.), torch.tensor([0.5])), torch.tensor([-2., 1.]).prelu(torch.tensor(0.5)))""",
    # logaddexp, deg2rad, rad2deg
    """x = torch.tensor([float('inf'), float('-inf'), 1e30, 0., -2., float('nan'), float('inf')], requires_grad=True)
y = torch.tensor([float('inf'), float('-inf'), -1e30, 0., 3., 1., float('-inf')], requires_grad=True)
z = torch.logaddexp(x, y)
print(z, z.grad_fn, x.logaddexp(y))
z[2:6].sum().backward()
print(x.grad, y.grad)""",
    """torch.logaddexp(torch.tensor([1, 2]), torch.tensor([1, 2]))""",
    """print(torch.logaddexp(torch.tensor([1., 2.]), torch.tensor([1, 2])))""",
    """print(torch.logaddexp(torch.tensor([1], dtype=torch.float64), torch.tensor([1.5])))""",
    """torch.logaddexp(torch.tensor([1.]), 2.)""",
    """torch.logaddexp(torch.ones(2), torch.ones(3))""",
    """x = torch.tensor([180., -90., 0.5], requires_grad=True)
y = torch.deg2rad(x)
z = y.rad2deg()
print(y, z, y.grad_fn, z.grad_fn)
z.sum().backward()
print(x.grad)
print(torch.deg2rad(torch.tensor([180])), torch.rad2deg(torch.tensor([1])), torch.deg2rad(torch.tensor([True])))""",
    """torch.tensor([1]).deg2rad_()""",
    """x = torch.tensor([180., 1.])
print(torch.deg2rad_(x), x, x.rad2deg_(), torch.rad2deg_(torch.zeros(0)))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
g, = torch.autograd.grad(torch.logaddexp(x, x * 2).sum(), x, create_graph=True)
print(g, g.grad_fn)""",
    # logit
    """x = torch.tensor([0., 0.05, 0.5, 1., 1.2, -0.1, float('nan')], requires_grad=True)
for e in [None, 0.1, -0.5, 0.6]:
    y = torch.logit(x, e)
    print(e, y, y.grad_fn, y.grad_fn._saved_eps)
    x.grad = None
    y.sum().backward()
    print(x.grad)
    g, = torch.autograd.grad(torch.logit(x, e).sum(), x, create_graph=True)
    print(g, g.grad_fn)""",
    """print(torch.logit(torch.tensor([0, 1])), torch.logit(torch.tensor([0.25], dtype=torch.float64), eps=0.3), torch.tensor([0.3]).logit(0.1))""",
    """torch.tensor([1]).logit_()""",
    """torch.logit(torch.tensor([0.5]), "a")""",
    """x = torch.tensor([0.3, 0.9])
print(x.logit_(0.2), x, torch.logit_(torch.tensor([0.5])), torch.logit(torch.tensor([1.]), 1))""",
    """x = torch.tensor([0.3, 0.9], requires_grad=True)
y = x.clone().logit_(0.2)
print(y.grad_fn, y.grad_fn._saved_eps, y.grad_fn._saved_self)""",
    # sinc
    """x = torch.tensor([0., 0.5, 1., -2., 1e-20, float('inf'), float('nan')], requires_grad=True)
y = torch.sinc(x)
print(y, y.grad_fn, x.sinc())
y.sum().backward()
print(x.grad)
g, = torch.autograd.grad(torch.sinc(x[:4]).sum(), x, create_graph=True)
print(g, g.grad_fn)""",
    """print(torch.sinc(torch.tensor([0, 1, 2])), torch.sinc(torch.tensor([True])))""",
    """torch.tensor([1]).sinc_()""",
    """x = torch.tensor([0.25, 0.])
print(torch.sinc_(x), x, x.sinc_())""",
    # xlogy
    """x = torch.tensor([0., 1., 2., 0., float('nan'), 0., 3.], requires_grad=True)
y = torch.tensor([0., 2., -1., float('nan'), 1., -2., float('inf')], requires_grad=True)
z = torch.xlogy(x, y)
print(z, z.grad_fn, x.xlogy(y))
z.sum().backward()
print(x.grad, y.grad)""",
    """x = torch.tensor([0., 1., 2.], requires_grad=True)
for z in (torch.xlogy(x, 2.), torch.xlogy(x, -1), torch.xlogy(2., x), torch.xlogy(2, x)):
    print(z, z.grad_fn, [(k, getattr(z.grad_fn, k)) for k in dir(z.grad_fn) if k.startswith('_saved')], z.grad_fn.next_functions)""",
    """x = torch.tensor([0., 1., 2.], requires_grad=True)
torch.xlogy(x, -1.).sum().backward()
print(x.grad)""",
    """torch.xlogy(2., 3.)""",
    """print(torch.xlogy(torch.tensor([1, 2]), torch.tensor([3, 4])), torch.xlogy(torch.tensor([True]), torch.tensor([True])), torch.xlogy(torch.tensor([1, 0]), 2))""",
    """torch.tensor([1]).xlogy_(torch.tensor([2.]))""",
    """x = torch.tensor([0., 1., 2.])
print(x.xlogy_(torch.tensor([2., 3., 4.])), x, torch.xlogy_(x, 2.), x.xlogy_(3))""",
    """torch.xlogy(torch.ones(2), torch.ones(3))""",
]

KNOWN = {}
