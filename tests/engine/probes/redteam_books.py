# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""What a learner types after the autograd chapters of the usual books, courses and forum
answers (written afresh for a red team): printing, backward with and without
gradient=, retain_graph, in-place and leaf errors, grad modes, tensor and module hooks, higher
derivatives, Jacobians, training loops, custom Functions. Module backward hooks, global module hooks and pre-0.4 names and arguments were missing."""

PROBES = [
    # module backward hooks: register_full_backward_hook / _pre_hook, the deprecated register_backward_hook (once missing: AttributeError)
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
def bwd(m, gin, gout):
    print('gin', gin)
    print('gout', gout)
lin.register_full_backward_hook(bwd)
x = torch.randn(2, 3, requires_grad=True)
y = lin(x)
print(y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
lin.register_full_backward_hook(lambda m, gin, gout: (gin[0] * 0,))
x = torch.randn(2, 3, requires_grad=True)
lin(x).sum().backward()
print(x.grad, lin.weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
lin.register_full_backward_pre_hook(lambda m, gout: (gout[0] * 2,))
x = torch.randn(2, 3, requires_grad=True)
lin(x).sum().backward()
print(x.grad, lin.weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
lin.register_full_backward_hook(lambda m, gin, gout: (gin[0], gin[0]))
x = torch.randn(2, 3, requires_grad=True)
lin(x).sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
lin.register_full_backward_pre_hook(lambda m, gout: (gout[0], 1))
lin(torch.randn(2, 3)).sum().backward()""",
    """import torch.nn as nn
lin = nn.Linear(3, 2)
lin.register_backward_hook(lambda m, gi, go: None)
lin.register_full_backward_hook(lambda m, gi, go: None)""",
    """import torch.nn as nn
lin = nn.Linear(3, 2)
lin.register_full_backward_hook(lambda m, gi, go: None)
lin.register_backward_hook(lambda m, gi, go: None)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
for name, m in model.named_modules():
    if name:
        m.register_full_backward_hook(lambda mod, gi, go, name=name: print(name, [g if g is None else g.shape for g in gi], [g.shape for g in go]))
model(torch.randn(4, 2)).mean().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(inplace=True), nn.Linear(3, 1))
model[1].register_full_backward_hook(lambda m, gi, go: print(go))
model(torch.randn(4, 2)).mean().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
h = lin.register_full_backward_hook(lambda m, gi, go: print('hook'))
x = torch.ones(1, 2, requires_grad=True)
lin(x).sum().backward()
h.remove()
lin(x).sum().backward()
print('after remove')""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: print('hook'))
x = torch.ones(1, 2, requires_grad=True)
with torch.no_grad():
    y = lin(x)
print(y.grad_fn, y.requires_grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: print('hook'))
x = torch.ones(1, 2, requires_grad=True)
y = lin(x)
y += 1""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_backward_hook(lambda m, gi, go: print([g if g is None else g.shape for g in gi], [g.shape for g in go]))
x = torch.ones(3, 2, requires_grad=True)
lin(x).sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.Sigmoid())
model.register_backward_hook(lambda m, gi, go: print(gi, go))
model(torch.ones(1, 2, requires_grad=True)).sum().backward()""",
    """import torch.nn as nn
class Two(nn.Module):
    def forward(self, a, b):
        return a * b, a + b
m = Two()
m.register_full_backward_hook(lambda mod, gi, go: print(gi, go))
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
p, s = m(a, b)
(p.sum() + 2 * s.sum()).backward()
print(a.grad)""",
    """import torch.nn as nn
class Two(nn.Module):
    def forward(self, a, k):
        return a * k
m = Two()
m.register_full_backward_hook(lambda mod, gi, go: print(gi, go))
a = torch.tensor([1., 2.], requires_grad=True)
m(a, 3).sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: None)
x = torch.ones(1, 2, requires_grad=True)
y = lin(x)
print(y)
print(y._version, y.is_leaf)""",
    # module backward hooks, more: keyword arguments, dict outputs, double backward, prepend, deepcopy, views of the hooked output
    """import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook
torch.manual_seed(0)
h = register_module_forward_hook(lambda m, i, o: print('global', type(m).__name__))
nn.Sequential(nn.Linear(2, 2), nn.ReLU())(torch.ones(1, 2))
h.remove()""",
    """import torch.nn as nn
h = nn.modules.module.register_module_full_backward_hook(lambda m, gi, go: print('global bw', type(m).__name__))
torch.manual_seed(0)
nn.Sequential(nn.Linear(2, 2), nn.ReLU())(torch.ones(1, 2, requires_grad=True)).sum().backward()
h.remove()""",
    """import torch.nn as nn
class D(nn.Module):
    def forward(self, x):
        return {'out': x * 2}
m = D()
m.register_full_backward_hook(lambda mod, gi, go: print(gi, go))
x = torch.ones(2, requires_grad=True)
y = m(x)
y['out'].sum().backward()
print(x.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 1)
lin.register_full_backward_hook(lambda m, gi, go: print('bw', gi[0].shape))
x = torch.ones(3, 2, requires_grad=True)
y = lin(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
g.sum().backward()
print(lin.weight.grad)""",
    """import torch.nn as nn
class Add(nn.Module):
    def forward(self, x, y=None):
        return x + (0 if y is None else y)
m = Add()
m.register_full_backward_hook(lambda mod, gi, go: print(len(gi), gi, go))
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
m(a, y=b).sum().backward()
print(a.grad, b.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: print('first'))
lin.register_full_backward_hook(lambda m, gi, go: print('prepended'), prepend=True)
lin.register_full_backward_pre_hook(lambda m, go: print('pre'))
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_full_backward_pre_hook(lambda m, go: print('pre only', go))
x = torch.ones(1, 2)
y = lin(x)
print(y.grad_fn)
y.sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
relu = nn.ReLU()
relu.register_full_backward_hook(lambda m, gi, go: print(gi, go))
x = torch.tensor([-1., 2.], requires_grad=True)
y = relu(x)
print(y, y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
relu = nn.ReLU()
relu.register_full_backward_hook(lambda m, gi, go: None)
x = torch.tensor([-1., 2.], requires_grad=True)
y = relu(x)
print(x._version, y._base is None, y.is_leaf)
z = y.view(2)
print(z._base is y)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_backward_hook(lambda m, gi, go: print('old', [None if g is None else g.shape for g in gi]))
lin(torch.ones(2, requires_grad=True)).sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
grads = []
model[0].register_full_backward_hook(lambda m, gi, go: grads.append(go[0].clone()))
for _ in range(2):
    model(torch.ones(1, 2)).sum().backward()
print(grads)""",
    """import torch.nn as nn
import copy
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: print('hook'))
lin2 = copy.deepcopy(lin)
lin2(torch.ones(1, 2, requires_grad=True)).sum().backward()""",
    # hooks on every module (torch.nn.modules.module.register_module_*_hook; once missing)
    """import torch.nn as nn
from torch.nn.modules.module import register_module_forward_pre_hook, register_module_forward_hook
torch.manual_seed(0)
shapes = []
h1 = register_module_forward_pre_hook(lambda m, args: shapes.append((type(m).__name__, tuple(args[0].shape))))
h2 = register_module_forward_hook(lambda m, args, out: print(type(m).__name__, out.shape))
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
model(torch.ones(2, 3))
h1.remove(); h2.remove()
model(torch.ones(2, 3))
print(shapes)""",
    """import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_forward_hook(lambda m, a, o: print('own'))
h = register_module_forward_hook(lambda m, a, o: print('global'))
lin(torch.ones(1, 2))
h.remove()""",
    """import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook
torch.manual_seed(0)
h = register_module_forward_hook(lambda m, a, kw, o: print(kw), with_kwargs=True)
nn.Linear(2, 2)(input=torch.ones(1, 2))
h.remove()""",
    """import torch.nn as nn
from torch.nn.modules.module import register_module_full_backward_pre_hook
torch.manual_seed(0)
h = register_module_full_backward_pre_hook(lambda m, go: print('pre', type(m).__name__, go[0].shape))
model = nn.Sequential(nn.Linear(2, 3), nn.Tanh())
out = model(torch.ones(1, 2))
print(out.grad_fn)
out.sum().backward()
h.remove()
model(torch.ones(1, 2)).sum().backward()""",
    """import torch.nn as nn
h = nn.modules.module.register_module_full_backward_hook(lambda m, gi, go: print(type(m).__name__, [None if g is None else g.shape for g in gi]))
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
m(torch.ones(1, 2)).sum().backward()
h.remove()""",
    # pre-0.4 names old books still use: Variable(volatile=), autograd.grad(only_inputs=), autograd.backward(grad_variables=), in torch's argument order (once TypeErrors or silent)
    """from torch.autograd import Variable
x = Variable(torch.tensor([1., 2.]))
print(x.requires_grad, Variable(torch.ones(1), volatile=True))""",
    """from torch.autograd import Variable
Variable(torch.ones(1), requires_grad=True, volatile=True)""",
    """from torch.autograd import Variable
v = Variable(torch.ones(1), False, True)
print(v, Variable(torch.ones(1), volatile=False))""",
    """x = torch.tensor(1.0, requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, only_inputs=True))""",
    """x = torch.tensor(1.0, requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, None, False, False, False))""",
    """x = torch.tensor(1.0, requires_grad=True)
z = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad(x * 2, [x, z], None, None, False, True, True))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
torch.autograd.backward(x.sum(), grad_variables=torch.tensor(1.))
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
torch.autograd.backward(x.sum(), torch.tensor(1.), grad_variables=torch.tensor(1.))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
torch.autograd.backward([x * 2], None, None, False, [torch.ones(2)])
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([1., 2.], requires_grad=True)
torch.autograd.backward([(x * y).sum()], None, None, False, None, [y])
print(x.grad, y.grad)""",
    # more pre-0.4 code: loss.data[0], F.sigmoid, size_average, nn.init.xavier_uniform and clip_grad_norm without the underscore (were left-out errors), x.data = ... (a list was an AttributeError, an int tensor under requires_grad was taken)
    """x = torch.tensor([1., 2.], requires_grad=True)
loss = (x ** 2).sum()
print(loss.data[0])""",
    """x = torch.tensor([1., 2.], requires_grad=True)
loss = (x ** 2).sum()
print(loss[0])""",
    """import torch.nn.functional as F
x = torch.tensor([0.5])
print(F.sigmoid(x), F.tanh(x))""",
    """import torch.nn as nn
print(nn.MSELoss(size_average=False)(torch.ones(2), torch.zeros(2)))
print(nn.MSELoss(reduce=False)(torch.ones(2), torch.zeros(2)))""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
nn.init.xavier_uniform(m.weight)
print(m.weight)""",
    """import torch.nn as nn
p = nn.Parameter(torch.tensor([3., 4.]))
p.grad = torch.tensor([3., 4.])
print(nn.utils.clip_grad_norm(p, 1.0), p.grad)""",
    """x = torch.tensor([1.5, 2.5])
print(x.type(torch.LongTensor), x.type(torch.DoubleTensor).dtype, x.type('torch.IntTensor'))""",
    """torch.set_default_dtype(torch.float64)
x = torch.tensor([1.], requires_grad=True)
print(x, (x * 2).dtype, torch.ones(1).dtype)
torch.set_default_dtype(torch.float32)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(x.data.numpy(), x.grad_fn is None, x.data.requires_grad)
x.grad = None
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.data = torch.tensor([5., 6., 7.])
print(x, x.shape)""",
    """x = torch.tensor([[1., 2.]], requires_grad=True)
print(x.size(), x.size()[1], x.nelement(), x.type(), x.is_floating_point())""",
    """import torch.nn.functional as F
print(F.softmax(torch.tensor([1., 2.]), 0), F.log_softmax(torch.tensor([[1., 2.]])))""",
    """import torch.nn as nn
print(nn.Softmax()(torch.tensor([[1., 2.]])))""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
print(torch.sum(x, 1, keepdim=True), x.sum(axis=0), torch.mean(x, dim=[0, 1]))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.grad(x.sum(), x)[0].data, torch.autograd.grad((x * x).sum(), x)[0].tolist())""",
    # x.data = ...: what torch accepts
    """x = torch.tensor([1., 2.], requires_grad=True)
x.data = [1, 2]""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.data = 3.0""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.data = torch.tensor([1, 2])
print(x, x.dtype, x.requires_grad)""",
    """x = torch.tensor([1., 2.])
x.data = torch.tensor([1., 2.], dtype=torch.float64)
print(x, x.dtype)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.data = None""",
    # Tensor.volatile (pre-0.4; was a left-out error, and setting it was silent), legacy helpers, .grad itself
    """x = torch.ones(2, requires_grad=True)
print(x.volatile)""",
    """x = torch.ones(2)
x.volatile = True
print(x.requires_grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(x.type_as(torch.tensor([1], dtype=torch.int32)), x.new_tensor([3.]), x.new_zeros(2), x.new_ones(1).requires_grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
loss = (x * x).sum()
print(loss.data.item(), loss.detach().item(), loss.cpu().item(), float(loss.data))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(x.grad_fn is None, x.output_nr, x._version, (x * 2).output_nr)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
print(m.weight.requires_grad, m.weight.grad, m.weight.is_leaf, m.weight.data.is_leaf, m.weight.shape)
print(m.training, m.in_features, m.out_features)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(x.grad.shape)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
(x * 2).sum().backward()
print(x.grad.requires_grad, x.grad.is_leaf, x.grad._version)
x.grad += 1
print(x.grad)""",
    # printing, backward on non-scalars (gradient=), accumulation and zero_(), retain_graph, in-place and version errors, leaf and .grad rules, detach
    """x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x)
print(x.grad)""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x ** 3 + 2 * x
print(y)
y.backward()
print(x.grad, x.grad.item())""",
    """x = torch.linspace(-2, 2, 5, requires_grad=True)
y = (x ** 2).sum()
y.backward()
print(x.grad)
print(x.grad == 2 * x)""",
    """x = torch.tensor([1.5, 2.5, 3.5], requires_grad=True)
print(x.data, x.detach(), x.tolist())""",
    """x = torch.ones(2, 2, requires_grad=True)
x.numpy()""",
    """x = torch.ones(2, 2, requires_grad=True)
print(x.detach().numpy())""",
    """x = torch.tensor([1e-8, 1.0, 1e8], requires_grad=True)
y = x * 3
print(y)""",
    """x = torch.tensor([123456.789, 0.001])
print(x, x * 1000)""",
    """x = torch.arange(10)
print(x, x.dtype)
x.requires_grad_()""",
    """torch.tensor([1, 2, 3], requires_grad=True)""",
    """torch.arange(5, requires_grad=True)""",
    """x = torch.randn(3, requires_grad=True)
print(x.is_leaf, (x * 2).is_leaf, x.grad_fn, (x * 2).grad_fn)""",
    """torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
print(x)
y = x.mean()
print(y)
y.backward()
print(x.grad)""",
    """x = torch.tensor(3.0, requires_grad=True)
print(x.item(), float(x), int(x), x.tolist())""",
    """torch.set_printoptions(precision=2)
x = torch.tensor([1.23456, 2.34567], requires_grad=True)
print(x, x * 2)
torch.set_printoptions(profile='default')""",
    """x = torch.zeros(3, requires_grad=True)
print(repr(x.sum()), str(x.mean()))""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x @ x
print(y)
print(y.grad_fn, y.grad_fn.next_functions)""",
    """x = torch.ones(3, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
print(x.grad)""",
    """a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x.grad_fn, x.is_leaf, x.requires_grad, x.dtype, x.device, x.shape, x.size(), x.dim())""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.backward()""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.backward(torch.ones_like(y))
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(gradient=v)
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
y.backward(torch.ones(2))""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
y.backward(torch.ones(3, dtype=torch.float64))
print(x.grad, x.grad.dtype)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.sum()
y.backward(torch.tensor(2.0))
print(x.grad)""",
    """x = torch.randn(3, requires_grad=True)
y = x * 2
torch.autograd.backward(y, grad_tensors=torch.ones(3))
print(x.grad)""",
    """x = torch.randn(3)
y = x * 2
y.sum().backward()""",
    """x = torch.tensor(1.0, requires_grad=True)
with torch.no_grad():
    y = x * 2
y.backward()""",
    """x = torch.tensor(2.0, requires_grad=True)
for i in range(3):
    y = x ** 2
    y.backward()
    print(x.grad)""",
    """x = torch.tensor(2.0, requires_grad=True)
for i in range(3):
    y = x ** 2
    y.backward()
    print(x.grad)
    x.grad.zero_()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
(x * 3).sum().backward()
print(x.grad)
x.grad = None
(x * 5).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.grad.zero_()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.grad.data.zero_()""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
y.backward()
y.backward()""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x * x
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x.exp()
z = y * 2
z.backward()
y.backward()""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x + 1
y.backward()
y.backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.sigmoid().sum()
y.backward()
y.backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2).sum()
y.backward()
print(y.grad_fn.next_functions[0][0]._saved_self)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x += 1""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.add_(1)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x[0] = 5""",
    """x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    x += 1
print(x)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.add_(1)
y.sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.sigmoid()
y.mul_(2)
y.sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y ** 2
y += 1
z.sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y * 3
y += 1
z.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.clone()
y[0] = 10
y.sum().backward()
print(x.grad, y)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.tanh()
y[1] = 0
y.sum().backward()""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 1
print(y._version)
y.add_(1)
print(y._version)
y[0] = 3
print(y._version, y)""",
    """w = torch.ones(3, requires_grad=True)
loss = (w * 2).sum()
loss.backward()
w -= 0.1 * w.grad""",
    """w = torch.ones(3, requires_grad=True)
loss = (w * 2).sum()
loss.backward()
w = w - 0.1 * w.grad
print(w, w.is_leaf)
loss = (w * 2).sum()
loss.backward()
print(w.grad)""",
    """w = torch.ones(3, requires_grad=True)
loss = (w * 2).sum()
loss.backward()
w.data -= 0.1 * w.grad
print(w)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.relu_()""",
    """x = torch.tensor([1., -2.], requires_grad=True)
y = torch.relu(x * 1)
y.relu_()
print(y)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(y.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
z = y.sum()
z.backward()
print(y.grad, y.is_leaf, y.retains_grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.retain_grad()
print(x.retains_grad)""",
    """x = torch.tensor([1., 2.])
x.retain_grad()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).detach()
print(y.requires_grad, y.is_leaf, y.grad_fn)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.detach_()
print(y, y.requires_grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
v = x.view(2)
v.detach_()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.requires_grad_(False)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.requires_grad = False""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.requires_grad = False
print(x)""",
    """x = torch.tensor([1., 2.])
x.grad = torch.ones(3)""",
    """x = torch.tensor([1., 2.])
x.grad = torch.ones(2, dtype=torch.float64)""",
    """x = torch.tensor([1., 2.])
x.grad = [1.0, 2.0]""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.detach()
y[0] = 100
print(x)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.detach()
y.zero_()
print(x)
(x * x).sum().backward()
print(x.grad)""",
    # grad modes, tensor and module hooks, autograd.grad to higher orders, autograd.functional and torch.func
    """x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y)
with torch.enable_grad():
    z = x * 2
print(z.requires_grad)""",
    """x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad, torch.is_grad_enabled())""",
    """x = torch.ones(2, requires_grad=True)
torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
print((x * 2).requires_grad)""",
    """x = torch.ones(2, requires_grad=True)
with torch.set_grad_enabled(False):
    y = x ** 2
print(y.requires_grad)""",
    """@torch.no_grad()
def f(x):
    return x * 2
x = torch.ones(2, requires_grad=True)
print(f(x).requires_grad)""",
    """@torch.no_grad
def f(x):
    return x * 2
x = torch.ones(2, requires_grad=True)
print(f(x).requires_grad)""",
    """x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y.requires_grad, y.is_inference(), x.is_inference())
print(y)""",
    """x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
z = y * x
z.sum().backward()""",
    """with torch.inference_mode():
    t = torch.ones(2)
t.add_(1)""",
    """with torch.inference_mode():
    t = torch.ones(2)
t.requires_grad_()""",
    """print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.inference_mode():
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled())""",
    """x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
y.requires_grad_()
(y * 3).sum().backward()
print(y.grad, x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
h = x.register_hook(lambda g: print('grad', g))
(x * 2).sum().backward()
h.remove()
(x * 2).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
x.register_hook(lambda g: g * 10)
(x ** 2).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print('y grad', g))
y.register_hook(lambda g: g.clamp(max=0.5))
(y * y).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: torch.ones(3))
(x * 2).sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: 'hi')
(x * 2).sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
def fwd(m, inp, out):
    print(type(m).__name__, [i.shape for i in inp], out.shape)
h = lin.register_forward_hook(fwd)
lin(torch.randn(4, 3))
h.remove()
lin(torch.randn(4, 3))
print('done')""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
def bwd(m, gin, gout):
    print(type(m).__name__, [None if g is None else g.shape for g in gin], [g.shape for g in gout])
lin.register_full_backward_hook(bwd)
lin(torch.randn(4, 3, requires_grad=True)).sum().backward()
lin(torch.randn(4, 3)).sum().backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 0,))
print(lin(torch.ones(1, 3)))
print(lin.bias)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
acts = {}
for name, m in model.named_children():
    m.register_forward_hook(lambda mod, i, o, name=name: acts.__setitem__(name, o.detach()))
model(torch.ones(1, 2))
print(acts)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.weight.register_hook(lambda g: print('w grad', g))
lin(torch.tensor([[1., 2.]])).sum().backward()""",
    """import torch.nn as nn
lin = nn.Linear(2, 2)
lin.register_backward_hook(lambda m, gi, go: None)
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy, = torch.autograd.grad(y, x, create_graph=True)
d2y, = torch.autograd.grad(dy, x, create_graph=True)
d3y, = torch.autograd.grad(d2y, x)
print(dy, d2y, d3y)""",
    """x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy, = torch.autograd.grad(y, x)
print(dy, dy.requires_grad)
torch.autograd.grad(dy, x)""",
    """x = torch.tensor(1.0, requires_grad=True)
y = torch.sin(x)
g = torch.autograd.grad(y, x, create_graph=True)[0]
g.backward()
print(g, x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
torch.autograd.grad(y, x)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
z = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
torch.autograd.grad(y, [x, z])""",
    """x = torch.tensor([1., 2.], requires_grad=True)
z = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
print(torch.autograd.grad(y, [x, z], allow_unused=True))
print(torch.autograd.grad((x*2).sum(), [x, z], allow_unused=True, materialize_grads=True))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
g, = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))
print(g)""",
    """x = torch.tensor(3.0, requires_grad=True)
y = x ** 2
g = torch.autograd.grad(y, x, retain_graph=True)
print(g)
g = torch.autograd.grad(y, x)
print(g)
torch.autograd.grad(y, x)""",
    """x = torch.tensor([0.5, 1.0], requires_grad=True)
y = torch.tanh(x)
for i in range(4):
    y = torch.autograd.grad(y.sum(), x, create_graph=True)[0]
    print(i + 1, y)""",
    """x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
f = x ** 2 * y + y ** 3
gx, gy = torch.autograd.grad(f, (x, y), create_graph=True)
gxy, = torch.autograd.grad(gx, y)
print(gx, gy, gxy)""",
    """from torch.autograd.functional import jacobian, hessian
def f(x):
    return x ** 2 + x.sin()
x = torch.tensor([1., 2., 3.])
print(jacobian(f, x))
print(hessian(lambda x: (x ** 3).sum(), x))""",
    """from torch.autograd.functional import jacobian
def f(x, y):
    return x * y, x + y
print(jacobian(f, (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))""",
    """from torch.autograd.functional import jvp, vjp
f = lambda x: x ** 2
x = torch.tensor([1., 2.])
v = torch.tensor([1., 0.5])
print(jvp(f, x, v))
print(vjp(f, x, v))""",
    """from torch.autograd.functional import hvp, vhp
f = lambda x: (x ** 3).sum()
x = torch.tensor([1., 2.])
print(hvp(f, x, torch.ones(2)), vhp(f, x, torch.ones(2)))""",
    """import torch.autograd.functional as AF
print(AF.jacobian(lambda x: x.exp(), torch.tensor([0., 1.]), create_graph=True))
print(AF.jacobian(lambda x: x.exp(), torch.tensor([0., 1.]), vectorize=True))""",
    """from torch.autograd.functional import jacobian
jacobian(lambda x: x.sum().item(), torch.tensor([1., 2.]))""",
    """from torch.autograd.functional import jacobian
print(jacobian(lambda x: torch.ones(2), torch.tensor([1., 2.])))
print(jacobian(lambda x: torch.ones(2), torch.tensor([1., 2.]), strict=True))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
jac = torch.stack([torch.autograd.grad(y[i], x, retain_graph=True)[0] for i in range(2)])
print(jac)""",
    # training loops, models and their printing, optimizers, gradient clipping, custom Functions
    """import torch.nn as nn
torch.manual_seed(42)
X = torch.linspace(0, 1, 20).unsqueeze(1)
y = 3 * X + 2 + 0.1 * torch.randn(20, 1)
model = nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.MSELoss()
for epoch in range(5):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    print(f'epoch {epoch}: loss {loss.item():.4f}')
print(model.weight, model.bias)""",
    """import torch.nn as nn
torch.manual_seed(1)
X = torch.randn(50, 2)
y = (X[:, 0] + X[:, 1] > 0).float().unsqueeze(1)
model = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
opt = torch.optim.Adam(model.parameters(), lr=0.1)
for epoch in range(10):
    p = model(X)
    loss = nn.functional.binary_cross_entropy(p, y)
    opt.zero_grad(); loss.backward(); opt.step()
    if epoch % 3 == 0:
        acc = ((p > 0.5).float() == y).float().mean()
        print(epoch, round(loss.item(), 4), acc.item())""",
    """torch.manual_seed(0)
w = torch.randn(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
x = torch.tensor([1., 2., 3., 4.])
y = 2 * x - 1
lr = 0.01
for epoch in range(3):
    y_hat = w * x + b
    loss = ((y_hat - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    print(epoch, loss, w, b)""",
    """torch.manual_seed(0)
w = torch.randn(1, requires_grad=True)
x = torch.tensor([1., 2.])
loss = ((w * x - x) ** 2).mean()
loss.backward()
w = w - 0.1 * w.grad
w.grad.zero_()""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
print(model)
print(sum(p.numel() for p in model.parameters()))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
for name, p in model.named_parameters():
    print(name, p.shape, p.requires_grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
print(model.state_dict())
print(list(model.state_dict().keys()))
print(model[0].weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 1)
print(lin.weight, lin.bias)
print(lin)
print(lin.weight.shape, lin.weight.is_leaf, lin.weight.grad_fn)""",
    """import torch.nn as nn
from collections import OrderedDict
torch.manual_seed(0)
model = nn.Sequential(OrderedDict([('fc1', nn.Linear(2, 4)), ('act', nn.ReLU()), ('fc2', nn.Linear(4, 1))]))
print(model)
print(model.fc1)""",
    """import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.out = nn.Linear(2, 1)
    def forward(self, x):
        return self.out(torch.relu(self.fc(x)))
torch.manual_seed(0)
net = Net()
print(net)
y = net(torch.ones(2, 3))
print(y)
y.sum().backward()
print(net.fc.weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
for p in model.parameters():
    p.requires_grad = False
out = model(torch.ones(1, 2))
print(out, out.requires_grad)
out.backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
model.weight.requires_grad_(False)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
model(torch.ones(1, 2)).sum().backward()
print(model.weight.grad, model.bias.grad)
opt.step()
print(model.bias)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print(opt)
for _ in range(2):
    opt.zero_grad()
    model(torch.ones(1, 3)).pow(2).sum().backward()
    opt.step()
print(opt.state_dict()['param_groups'])
print(model.weight.grad)
opt.zero_grad()
print(model.weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.Adam(model.parameters())
print(opt)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 2)
model(torch.ones(1, 2)).sum().backward()
model.zero_grad()
print(model.weight.grad)
model(torch.ones(1, 2)).sum().backward()
model.zero_grad(set_to_none=False)
print(model.weight.grad)""",
    """torch.optim.SGD([torch.ones(2)], lr=0.1)""",
    """torch.optim.SGD([torch.ones(2, requires_grad=True)])""",
    """x = torch.ones(2) * 2
torch.optim.SGD([x], lr=0.1)""",
    """x = torch.ones(2, requires_grad=True) * 2
torch.optim.SGD([x], lr=0.1)""",
    """import torch.nn as nn
p = nn.Parameter(torch.tensor([3., 4.]))
p.grad = torch.tensor([3., 4.])
print(nn.utils.clip_grad_norm_([p], 1.0, norm_type='inf'), p.grad)
print(nn.utils.clip_grad_norm_(p, 0.5, norm_type=1), p.grad)""",
    """import torch.nn as nn
p = nn.Parameter(torch.tensor([3., 4.]))
print(nn.utils.clip_grad_norm_([p], 1.0))""",
    """import torch.nn as nn
print(nn.Parameter(torch.ones(2)))
print(nn.Parameter(torch.ones(2), requires_grad=False))
print(nn.Parameter(torch.ones(2)) * 2)""",
    """class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * (x > 0).float()
x = torch.tensor([-1., 0., 2.], requires_grad=True)
y = MyReLU.apply(x)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r
x = torch.tensor([0., 1.], requires_grad=True)
y = Exp.apply(x)
y.sum().backward()
print(x.grad)
print(torch.autograd.gradcheck(Exp.apply, (torch.tensor([0.5, 1.], dtype=torch.double, requires_grad=True),)))""",
    """class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        ctx.save_for_backward(a, b)
        ctx.k = k
        return a * b * k
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print(ctx.needs_input_grad)
        return g * b * ctx.k, g * a * ctx.k if ctx.needs_input_grad[1] else None, None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
Mul.apply(a, b, 2.0).sum().backward()
print(a.grad)""",
    """class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
x = torch.tensor([1.], requires_grad=True)
Bad.apply(x).sum().backward()""",
    """class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
x = torch.tensor([1.], requires_grad=True)
Bad.apply(x).sum().backward()""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
x = torch.tensor([1.], requires_grad=True)
F.apply(x).sum().backward()""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return 2 * g
F()(torch.ones(1))""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return 2 * g
x = torch.tensor([1.], requires_grad=True)
y = F.apply(x)
print(y.grad_fn, type(y.grad_fn).__name__, y.grad_fn.next_functions)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g
x = torch.tensor([1.], requires_grad=True)
y = F.apply(x)
y.sum().backward()
y.sum().backward()""",
    """class Round(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.round()
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([0.4, 1.6], requires_grad=True)
y = Round.apply(x) * x
y.sum().backward()
print(y, x.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1.], requires_grad=True)
y = F.apply(x)
print(y.requires_grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x * 2)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
F.apply(torch.tensor([1.], requires_grad=True))""",
    # gradients at edge points, broadcasting, indexing/gather/scatter, softmax and cross-entropy
    """x = torch.tensor([-1., 0., 1.], requires_grad=True)
x.abs().sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 1.], requires_grad=True)
torch.relu(x).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 1., 2.], requires_grad=True)
x.clamp(min=0).sum().backward()
print(x.grad)
x.grad = None
torch.clamp(x, max=1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([-1., 0., 1.], requires_grad=True)
y = torch.where(x > 0, x ** 2, -x)
y.sum().backward()
print(y, x.grad)""",
    """x = torch.tensor([0., 1., 4.], requires_grad=True)
y = torch.where(x > 0, x.sqrt(), torch.zeros_like(x))
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 1.], requires_grad=True)
y = torch.where(x > 0, torch.log(x), x)
y.sum().backward()
print(y, x.grad)""",
    """x = torch.tensor([0.], requires_grad=True)
x.sqrt().backward()
print(x.grad)""",
    """x = torch.tensor([0., 2.], requires_grad=True)
(x ** 0.5).sum().backward()
print(x.grad)
x.grad = None
(x ** 0).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 1., 3.], requires_grad=True)
x.max().backward()
print(x.grad)
x.grad = None
torch.max(torch.tensor([3., 3., 1.], requires_grad=True) * 1)""",
    """x = torch.tensor([3., 3., 1.], requires_grad=True)
x.max().backward()
print(x.grad)
x.grad = None
x.amax().backward()
print(x.grad)
x.grad = None
v, i = x.max(dim=0)
v.backward()
print(x.grad, i)""",
    """x = torch.tensor([[1., 5.], [7., 2.]], requires_grad=True)
m = x.max(dim=1)
print(m)
m.values.sum().backward()
print(x.grad)""",
    """x = torch.tensor([0., 3.], requires_grad=True)
y = x.norm()
y.backward()
print(y, x.grad)
z = torch.zeros(2, requires_grad=True)
z.norm().backward()
print(z.grad)""",
    """x = torch.tensor([1., -1., 0.], requires_grad=True)
torch.sign(x).sum().backward()
print(x.grad)
x.grad = None
x.round().sum().backward()
print(x.grad)""",
    """a = torch.ones(3, 1, requires_grad=True)
b = torch.ones(1, 4, requires_grad=True)
(a * b).sum().backward()
print(a.grad, b.grad)""",
    """w = torch.ones(3, requires_grad=True)
x = torch.arange(6.).reshape(2, 3)
(x * w).sum().backward()
print(w.grad)""",
    """b = torch.tensor(1.0, requires_grad=True)
x = torch.arange(4.)
(x + b).sum().backward()
print(b.grad, b.grad.shape)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.sum(dim=0, keepdim=True)
print(y, y.shape)
(y * torch.tensor([[1., 2., 3.]])).sum().backward()
print(x.grad)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.mean(dim=1)
y.backward(torch.tensor([1., 10.]))
print(x.grad)""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.expand(3, 2, 2)
y.sum().backward()
print(x.grad)""",
    """x = torch.arange(6., requires_grad=True)
x[2:5].sum().backward()
print(x.grad)""",
    """x = torch.arange(6., requires_grad=True)
y = x[[0, 0, 3]]
y.sum().backward()
print(y, y.grad_fn, x.grad)""",
    """x = torch.arange(6.).reshape(2, 3).requires_grad_()
y = x[:, 1]
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """x = torch.arange(6.).reshape(2, 3).requires_grad_()
y = x[x > 2]
print(y, y.grad_fn)
(y ** 2).sum().backward()
print(x.grad)""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
idx = torch.tensor([[0, 0], [1, 0]])
y = torch.gather(x, 1, idx)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """src = torch.tensor([1., 2., 3., 4.], requires_grad=True)
idx = torch.tensor([0, 1, 0, 1])
out = torch.zeros(2).scatter_add(0, idx, src)
print(out, out.grad_fn)
(out * torch.tensor([1., 10.])).sum().backward()
print(src.grad)""",
    """src = torch.tensor([1., 2., 3.], requires_grad=True)
out = torch.zeros(5).scatter(0, torch.tensor([4, 0, 2]), src)
out.sum().backward()
print(out, src.grad)""",
    """x = torch.arange(4., requires_grad=True)
torch.index_select(x, 0, torch.tensor([3, 3, 1])).sum().backward()
print(x.grad)""",
    """x = torch.arange(4., requires_grad=True)
x[torch.tensor([1.0])]""",
    """x = torch.zeros(3, requires_grad=True)
y = x.clone()
y[torch.tensor([0, 2])] = torch.tensor([5., 6.])
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x[0], x[0].item(), x[-1:], x[None].shape)""",
    """import torch.nn.functional as F
x = torch.tensor([1., 2., 3.], requires_grad=True)
s = F.softmax(x, dim=0)
print(s, s.grad_fn)
s[0].backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
torch.softmax(x, 0).sum().backward()
print(x.grad)""",
    """import torch.nn.functional as F
x = torch.tensor([[1., 2., 3.]], requires_grad=True)
F.softmax(x)""",
    """import torch.nn.functional as F
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], requires_grad=True)
target = torch.tensor([0, 1])
loss = F.cross_entropy(logits, target)
print(loss)
loss.backward()
print(logits.grad)
print(F.softmax(logits, 1) - F.one_hot(target, 3))""",
    """import torch.nn.functional as F
logits = torch.tensor([[2.0, 1.0, 0.1]], requires_grad=True)
lp = F.log_softmax(logits, dim=1)
loss = F.nll_loss(lp, torch.tensor([2]))
loss.backward()
print(lp, loss, logits.grad)""",
    """import torch.nn as nn
loss_fn = nn.CrossEntropyLoss()
print(loss_fn)
loss_fn(torch.tensor([[1., 2.]]), torch.tensor([1.]))""",
    """import torch.nn as nn
nn.CrossEntropyLoss()(torch.tensor([[1., 2.]]), torch.tensor([2]))""",
    """import torch.nn as nn
nn.CrossEntropyLoss()(torch.tensor([[1., 2.]]), torch.tensor([[0.3, 0.7]]))""",
    """import torch.nn as nn
print(nn.CrossEntropyLoss(label_smoothing=0.1)(torch.tensor([[1., 2., 0.5]]), torch.tensor([1])))
print(nn.CrossEntropyLoss(reduction='none')(torch.tensor([[1., 2.], [0., 0.]]), torch.tensor([1, 0])))""",
    """import torch.nn as nn
nn.CrossEntropyLoss()(torch.tensor([[1., 2.]]), torch.tensor([1], dtype=torch.int32))""",
    """import torch.nn as nn
nn.MSELoss()(torch.ones(2, 1), torch.ones(2))""",
    """import torch.nn as nn
nn.BCELoss()(torch.tensor([0.5, 1.5]), torch.tensor([0., 1.]))""",
    """import torch.nn as nn
print(nn.BCEWithLogitsLoss()(torch.tensor([0.5, -1.5]), torch.tensor([0., 1.])))
nn.BCEWithLogitsLoss()(torch.tensor([0.5, -1.5]), torch.tensor([0, 1]))""",
    """x = torch.tensor([1000., 0.], requires_grad=True)
y = torch.exp(x) / torch.exp(x).sum()
print(y)
y[1].backward()
print(x.grad)
print(torch.logsumexp(x, 0))""",
    # dtypes, devices, views, graphs by hand (micrograd-style), numbers out of tensors, NumPy, random draws
    """torch.tensor([1, 2], dtype=torch.int64, requires_grad=True)""",
    """torch.ones(2, dtype=torch.long).requires_grad_()""",
    """x = torch.tensor([1, 2, 3])
x.requires_grad = True""",
    """torch.tensor([True, False], requires_grad=True)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.long()
print(y, y.requires_grad, y.grad_fn)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.double()
print(y, y.grad_fn)
y.sum().backward()
print(x.grad, x.grad.dtype)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x + torch.tensor([1, 2])
print(y, y.dtype)
w = x * torch.tensor([1., 2.], dtype=torch.float64)
print(w.dtype)""",
    """x = torch.tensor([1, 2]) / 2
print(x, x.dtype, torch.tensor([1, 2]) // 2, torch.tensor([3]) * 1.5)""",
    """x = torch.tensor([1, 2], dtype=torch.int32)
x.float().requires_grad_()
print(x.float().requires_grad_())""",
    """x = torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True)
(x * x).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.to(torch.float64)
z = x.to('cpu')
print(y, z is x, x.cpu() is x, x.to(device='cpu', dtype=torch.float32) is x)""",
    """x = torch.ones(2, device='cpu', requires_grad=True)
print(x.device, x.is_cuda, x)""",
    """device = 'cuda' if torch.cuda.is_available() else 'cpu'
print(device)
x = torch.randn(2, device=device)
print(x.device)""",
    """x = torch.ones(2)
x.cuda()""",
    """x = torch.ones(2, device='cuda')""",
    """x = torch.ones(2)
x.to('cuda')""",
    """print(torch.device('cpu'), torch.device('cuda:0'), repr(torch.device('cpu')))""",
    """x = torch.ones(2, 2, requires_grad=True)
print(x.T, x.t().grad_fn, x.view(-1).grad_fn, x.reshape(4).grad_fn, x.flatten().grad_fn)""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x.t()
y.view(4)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.transpose(0, 1).contiguous().view(6)
print(y.grad_fn, y.grad_fn.next_functions)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.unsqueeze(0).squeeze()
print(y.grad_fn, y.shape)""",
    """a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = torch.cat([a, b])
d = torch.stack([a, b])
print(c, d, c.grad_fn, d.grad_fn)
(c.sum() + d[1].sum() * 2).backward()
print(a.grad, b.grad)""",
    """x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0)
z = x * y
print(z.requires_grad, y.requires_grad)
z.backward()
print(x.grad, y.grad)""",
    """a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-3.0, requires_grad=True)
c = torch.tensor(10.0, requires_grad=True)
e = a * b
d = e + c
f = torch.tensor(-2.0, requires_grad=True)
L = d * f
L.backward()
print(a.grad, b.grad, c.grad, f.grad, L.data.item())""",
    """x1 = torch.tensor([2.0]).double().requires_grad_()
x2 = torch.tensor([0.0]).double().requires_grad_()
w1 = torch.tensor([-3.0]).double().requires_grad_()
w2 = torch.tensor([1.0]).double().requires_grad_()
b = torch.tensor([6.8813735870195432]).double().requires_grad_()
n = x1*w1 + x2*w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())""",
    """a = torch.tensor(-4.0, requires_grad=True, dtype=torch.double)
b = torch.tensor(2.0, requires_grad=True, dtype=torch.double)
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
print(f'{g.data.item():.4f}')
g.backward()
print(f'{a.grad.item():.4f}', f'{b.grad.item():.4f}')""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
print(f'{x.sum():.3f}', f'{x[0]}', '{:.2f}'.format(x.mean()))""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
print(f'{x:.2f}')""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
print(round(x.sum().item(), 2), x.sum().item().__class__, x.tolist().__class__)""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
if x.sum() > 2:
    print('big')
if x > 1:
    print('no')""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
np.array(x)""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
print(np.exp(x.detach()), x.detach().numpy().dtype)
import math
print(math.exp(x[0]))""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.from_numpy(np.array([1., 2.]))
print(y, y.dtype, y.requires_grad)
print(x * y)""",
    """x = torch.randn(3, 3, requires_grad=True)
print(x.grad is None, x.requires_grad, x.is_leaf)
y = x.sum()
print(type(y.grad_fn).__name__, y.grad_fn.name())""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(y.grad_fn.next_functions[0][0], y.grad_fn.next_functions[0][0].variable is x)""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 2).sum()
g = y.grad_fn
while g is not None:
    print(g.name())
    g = g.next_functions[0][0] if g.next_functions else None""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.pow(2).sum()
print(y.grad_fn.next_functions[0][0]._saved_exponent, y.grad_fn._saved_self_sym_sizes)""",
    """x = torch.tensor([0.5], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.log() * 0
    z = (x - 0.5).log()
    z.backward()""",
    """x = torch.tensor([-1.0], requires_grad=True)
y = torch.sqrt(x)
y.backward()
print(y, x.grad)""",
    """torch.manual_seed(0)
x = torch.rand(3)
print(x, torch.randn(2), torch.randint(0, 10, (3,)), torch.randperm(4))""",
    """torch.manual_seed(123)
w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
print(w, b)""",
    """torch.manual_seed(0)
X = torch.normal(0, 1, (5, 2))
true_w = torch.tensor([2, -3.4])
y = torch.matmul(X, true_w) + 4.2
y += torch.normal(0, 0.01, y.shape)
print(X, y.reshape((-1, 1)))""",
    """x = torch.arange(4.0)
x.requires_grad_(True)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad, x.grad == 4 * x)
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)""",
    """x = torch.arange(4.0, requires_grad=True)
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)""",
    """def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c
torch.manual_seed(0)
a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)""",
    # create_graph, Jacobians by hand, module handling, state dicts, init, schedulers, DataLoader, Functions and gradcheck
    """x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
y.backward(create_graph=True)
print(x.grad)
g = x.grad.sum()
x.grad = None
g.backward()
print(x.grad)""",
    """x = torch.tensor(3., requires_grad=True)
y = x ** 2
torch.autograd.grad(y, x, create_graph=True)[0].backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = torch.ones(2) * 3
torch.autograd.grad(y.sum(), x)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
torch.autograd.grad(y, x.detach())""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
print(torch.autograd.grad(y, x, torch.tensor(3.)))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
v = torch.tensor([1., 1.])
g, = torch.autograd.grad(y, x, v, create_graph=True)
print(g)
h, = torch.autograd.grad(g, x, v)
print(h)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.stack([x[0] * x[1], x[1] ** 2, x.sum()])
J = torch.zeros(3, 3)
for i in range(3):
    e = torch.zeros(3); e[i] = 1
    J[i] = torch.autograd.grad(y, x, e, retain_graph=True)[0]
print(J)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
y.backward(torch.tensor([1., 1.]), retain_graph=True)
print(x.grad)
y.backward(torch.tensor([0., 1.]))
print(x.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
model.eval()
print(model.training)
with torch.no_grad():
    out = model(torch.ones(3, 2))
print(out, out.requires_grad)
model.train()
print(model.training)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
print(model.eval())
print(model(torch.ones(1, 2)))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
model[0].requires_grad_(False)
print([p.requires_grad for p in model.parameters()])
model(torch.ones(1, 2)).sum().backward()
print(model[0].weight.grad, model[1].weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(1, 2)).sum().backward()
opt.zero_grad()
print(model.weight.grad)
opt.zero_grad(set_to_none=False)
print(model.weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.step()
print(model.weight)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
print(list(model.parameters()))
print(next(model.parameters()).grad)
print(dict(model.named_parameters()).keys())""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
x = torch.ones(1, 3)
model(x)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
model(torch.ones(1, 2, dtype=torch.float64))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
model(torch.tensor([[1, 2]]))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1).double()
print(model(torch.ones(1, 2, dtype=torch.float64)))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
model(torch.ones(2))
print(model(torch.ones(2)).shape)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2, bias=False)
print(m, m.bias, m.weight)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
with torch.no_grad():
    m.weight.fill_(1.0)
    m.bias.zero_()
print(m.weight, m.bias)
m.weight.fill_(2.0)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
nn.init.zeros_(m.weight)
nn.init.constant_(m.bias, 0.5)
print(m.weight, m.bias)
torch.manual_seed(0)
nn.init.xavier_uniform_(m.weight)
print(m.weight)
nn.init.kaiming_normal_(m.weight)
print(m.weight)
nn.init.normal_(m.weight, std=0.01)
print(m.weight)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
m.weight = torch.ones(2, 2)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
m.weight.data = torch.ones(2, 2)
print(m.weight)
m.weight = nn.Parameter(torch.zeros(2, 2))
print(m.weight)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
sd = m.state_dict()
sd['weight'][0, 0] = 100
print(m.weight)
m.load_state_dict({'weight': torch.ones(2, 2), 'bias': torch.zeros(2)})
print(m.weight)
m.load_state_dict({'weight': torch.ones(2, 3), 'bias': torch.zeros(2)})""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
print(m.load_state_dict({'weight': torch.ones(2, 2)}, strict=False))
m.load_state_dict({'weight': torch.ones(2, 2)})""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(m.state_dict().keys(), len(m), m[-1], m[0:1])""",
    """import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)
M()""",
    """import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(2, 2), nn.Linear(2, 2)]
print(len(list(M().parameters())))
class N(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2)])
print(len(list(N().parameters())))
print(N())""",
    """import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(2))
        self.register_buffer('running', torch.zeros(2))
torch.manual_seed(0)
m = M()
print(m, m.state_dict(), list(m.buffers()), list(m.named_parameters()))""",
    """import torch.nn as nn
nn.Module()(torch.ones(1))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
X = torch.randn(16, 2); y = (X ** 2).sum(1, keepdim=True)
for epoch in range(3):
    loss = nn.functional.mse_loss(model(X), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f'{epoch=} loss={loss.item():.6f}')
print(opt.state_dict()['state'][0]['step'], opt.state[model[0].weight]['exp_avg'].shape)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(4):
    opt.zero_grad()
    model(torch.ones(1, 1)).sum().backward()
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]['lr'])""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2)
sched.step()""",
    """from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
X = torch.arange(10.).reshape(5, 2)
y = torch.arange(5.)
dl = DataLoader(TensorDataset(X, y), batch_size=2, shuffle=True)
for xb, yb in dl:
    print(xb, yb)
print(len(dl), len(dl.dataset))""",
    """class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([3.], requires_grad=True)
y = Sq.apply(x)
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn)
g.backward()
print(x.grad)""",
    """from torch.autograd.function import once_differentiable
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([3.], requires_grad=True)
g, = torch.autograd.grad(Sq.apply(x), x, create_graph=True)
print(g, g.requires_grad)
g.backward()""",
    """class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
torch.autograd.gradcheck(Wrong.apply, (x,))""",
    """x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(torch.sin, (x,)), torch.autograd.gradgradcheck(torch.sin, (x,)))""",
    """class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        mask = (x >= ctx.lo) & (x <= ctx.hi)
        return g * mask, None, None
x = torch.linspace(-2, 2, 5, requires_grad=True)
Clamp.apply(x, -1, 1).sum().backward()
print(x.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * 2
x = torch.tensor([1.], requires_grad=True)
y = F.apply(x)
y.add_(1)
y.sum().backward()""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1.], requires_grad=True)
y = F.apply(x)
print(y._base is x, y.grad_fn)
y.mul_(2)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1.], requires_grad=True)
F.apply(x.clone())
F.apply(x)""",
    # forum errors: a hidden state carried across steps, a GAN step between forward and backward, non-leaf .grad after .to()/*2, views of leaves, shapes and dtypes in matmul
    """h = torch.zeros(2)
w = torch.tensor([0.5, 0.5], requires_grad=True)
for step in range(3):
    h = torch.tanh(h * w + 1)
    loss = h.sum()
    loss.backward()
    print(step, w.grad)""",
    """h = torch.zeros(2)
w = torch.tensor([0.5, 0.5], requires_grad=True)
for step in range(3):
    h = torch.tanh(h.detach() * w + 1)
    h.sum().backward()
print(w.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
G = nn.Linear(2, 2); D = nn.Linear(2, 1)
optG = torch.optim.SGD(G.parameters(), lr=0.1)
optD = torch.optim.SGD(D.parameters(), lr=0.1)
fake = G(torch.randn(4, 2))
d_loss = D(fake).mean()
g_loss = -D(fake).mean()
d_loss.backward(retain_graph=True)
optD.step()
g_loss.backward()""",
    """x = torch.randn(2, requires_grad=True).to('cpu')
print(x.is_leaf)
y = torch.randn(2, requires_grad=True).double()
print(y.is_leaf)
y.sum().backward()
print(y.grad)""",
    """x = torch.ones(2, requires_grad=True) * 2
(x ** 2).sum().backward()
print(x.grad)""",
    """x = torch.ones(2, requires_grad=True)
x = x.view(2, 1)
x.sum().backward()
print(x.grad)""",
    """x = torch.ones(3, requires_grad=True)
v = x[:2]
v.mul_(2)""",
    """x = torch.ones(3, requires_grad=True)
v = x.view(3)
v += 1""",
    """a = torch.ones(2, 3)
b = torch.ones(2, 3)
a @ b""",
    """a = torch.ones(2, 3)
b = torch.ones(3, 2, dtype=torch.float64)
a @ b""",
    """a = torch.ones(2, 3)
torch.mm(a, torch.ones(3))""",
    """a = torch.ones(2, 3)
print(torch.matmul(a, torch.ones(3)), (a @ torch.ones(3, 1)).shape)""",
    """x = torch.tensor([1., 2.])
if x:
    print('yes')""",
    """with torch.no_grad:
    pass""",
    """x = torch.ones(2, requires_grad=True)
y = x * 2
z = y.sum()
print(z.grad_fn)
z.grad_fn(torch.tensor(1.))""",
    """x = torch.ones(2, requires_grad=True)
y = x.sum()
del x
y.backward()
print('ok')""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.register_post_accumulate_grad_hook(lambda p: print('accumulated', p.grad))
(x * 3).sum().backward()
(x * 3).sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.grad_fn.register_hook(lambda gi, go: print('node', gi, go))
y.grad_fn.register_prehook(lambda go: print('pre', go))
y.sum().backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
h = y.register_hook(lambda g: print('y', g))
print(type(h).__name__)
h.remove(); h.remove()
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor(1.0, requires_grad=True)
y = 2 * x
y.retain_grad()
z = y ** 2
z.backward()
print(y.grad, x.grad)
print(z.grad)""",
    """x = torch.tensor(1.0, requires_grad=True)
print(x.grad_fn, (x + 0).grad_fn, x.clone().grad_fn, x.detach().clone().grad_fn)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.data
y.mul_(10)
print(x, x._version, y._version)
(x * x).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
x.data.mul_(0)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
x.detach().mul_(0)
y.sum().backward()""",
    """x = torch.randn(3, requires_grad=True)
print(x.requires_grad, x.detach().requires_grad, x.clone().requires_grad, x.data.requires_grad, torch.tensor(x.tolist()).requires_grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor(x)
print(y, y.requires_grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = torch.as_tensor(x)
print(y is x)
z = x.clone().detach()
print(z)""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
out = x.pow(2).sum(dim=1)
out.backward(torch.ones_like(out))
print(x.grad)
out2 = x.pow(2).sum(dim=1)
out2.backward(torch.ones(2, 1))""",
    """w = torch.randn(2, 2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
loss = (w ** 2).sum()
opt.zero_grad()
loss.backward()
print(w.grad.shape)
opt.step()
loss.backward()""",
    """x = torch.tensor([2.], requires_grad=True)
y = x ** 2
z = y ** 2
dz_dx, = torch.autograd.grad(z, x, create_graph=True)
d2z, = torch.autograd.grad(dz_dx, x, create_graph=True)
d3z, = torch.autograd.grad(d2z, x, create_graph=True)
d4z, = torch.autograd.grad(d3z, x, create_graph=True)
print(dz_dx, d2z, d3z, d4z)
torch.autograd.grad(d4z, x)""",
    """x = torch.tensor([2.], requires_grad=True)
y = x.exp()
g1, = torch.autograd.grad(y, x, create_graph=True)
g1.backward(retain_graph=True)
print(x.grad)
g1.backward()
print(x.grad)""",
    """x = torch.linspace(-3, 3, 7, requires_grad=True)
y = torch.sigmoid(x)
y.sum().backward()
print(x.grad)
print(y * (1 - y))""",
    """x = torch.linspace(-3, 3, 7, requires_grad=True)
y = torch.tanh(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
gg, = torch.autograd.grad(g.sum(), x)
print(g, gg)""",
    """import torch.nn.functional as F
x = torch.linspace(-2, 2, 5, requires_grad=True)
for f in (F.relu, F.leaky_relu, F.gelu, F.silu, F.softplus, F.elu, torch.sigmoid):
    g, = torch.autograd.grad(f(x).sum(), x)
    print(f.__name__, g)""",
    """import torch.nn as nn
torch.manual_seed(0)
for act in (nn.ReLU(), nn.LeakyReLU(0.1), nn.GELU(), nn.Tanh(), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1)):
    print(act)""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.linalg.norm(x)
print(y)
y.backward()
print(x.grad)
print(torch.det(x.detach()), torch.inverse(x.detach()), torch.trace(x))""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.cumsum(x, 0)
y.backward(torch.tensor([1., 0., 0.]))
print(y, x.grad)
print(torch.prod(x), torch.cumprod(x, 0))""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
p = x.prod()
p.backward()
print(x.grad)
z = torch.tensor([0., 2., 3.], requires_grad=True)
z.prod().backward()
print(z.grad)""",
    """x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
print(x.var(), x.std(), x.var(unbiased=False), x.std(correction=0))
x.std().backward()
print(x.grad)""",
    """x = torch.tensor([1.], requires_grad=True)
x.std().backward()
print(x.grad)""",
    """x = torch.ones(2, 2, requires_grad=True)
y = x.mean()
y.backward()
print(x.grad)
print(x.grad.data, x.grad.requires_grad, x.grad.grad_fn)""",
    """torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(3, 1, requires_grad=True)
b = torch.randn(1, requires_grad=True)
y = torch.sigmoid(x @ w + b)
t = torch.tensor([[0.], [1.], [1.], [0.]])
loss = -(t * torch.log(y) + (1 - t) * torch.log(1 - y)).mean()
loss.backward()
print(loss, w.grad, b.grad)
print(torch.nn.functional.binary_cross_entropy(y, t))""",
    """torch.manual_seed(0)
X = torch.randn(6, 4)
y = torch.tensor([0, 1, 2, 0, 1, 2])
W = torch.zeros(4, 3, requires_grad=True)
for epoch in range(3):
    logits = X @ W
    loss = torch.nn.functional.cross_entropy(logits, y)
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        W.grad.zero_()
    print(epoch, loss.item())""",
    """x = torch.tensor(2., requires_grad=True)
y = torch.tensor(3., requires_grad=True)
z = x * y
z.backward()
print(x.grad, y.grad)
z = x * y
z.backward(inputs=[x])
print(x.grad, y.grad)""",
    """x = torch.tensor(2., requires_grad=True)
print(x, x.grad, x.data, x.shape, x.ndim, x.numel(), x.element_size(), x.stride(), x.is_contiguous())""",
    """x = torch.ones(2, 3, requires_grad=True)
print(x.size(0), x.size(-1), x.shape[1], len(x), x.T.shape, x.mT.shape)""",
    """print(torch.zeros(2, 3), torch.ones(2), torch.eye(2), torch.full((2,), 7.), torch.empty(0), torch.zeros_like(torch.ones(2, dtype=torch.int64)))""",
    """print(torch.tensor([[1e-10, 1.0], [1e10, -3.5]]))
print(torch.tensor([0.1, 0.25, 100.0]))
print(torch.tensor([1e-5, 1e5]))
print(torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True))""",
    """print(torch.arange(0, 2, 0.5), torch.arange(5, dtype=torch.float32), torch.linspace(0, 1, steps=3), torch.arange(12).reshape(3, 4))""",
    """x = torch.arange(1000.)
print(x)
print(torch.arange(10000).reshape(100, 100))""",
    """torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-8, 1.]))
torch.set_printoptions(sci_mode=None)
print(torch.tensor([1e-8, 1.]))""",
    """x = torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5], requires_grad=True)
print(x, x * 0)
(x * 2).sum().backward()
print(x.grad)""",
    """x = torch.tensor([3.], requires_grad=True)
torch.nn.utils.clip_grad_norm_([x], 1.0)
print(x.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
p = nn.Parameter(torch.randn(3))
p.grad = torch.tensor([float('nan'), 1., 1.])
nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)""",
    # forward AD and torch.func, batched grads, saved-tensor hooks, checkpoint, module utilities, several roots
    """from torch.func import jvp, jacfwd, jacrev
f = lambda x: x.exp() * x
x = torch.tensor([0.5, 1.])
print(jvp(f, (x,), (torch.ones(2),)))
print(jacfwd(f)(x), jacrev(f)(x))""",
    """from torch.autograd.functional import jacobian
print(jacobian(lambda x: x ** 3, torch.tensor([1., 2.]), strategy='forward-mode', vectorize=True))
jacobian(lambda x: x ** 3, torch.tensor([1., 2.]), strategy='forward-mode')""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
I = torch.eye(3)
J, = torch.autograd.grad(y, x, I, is_grads_batched=True)
print(J)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 3
v = torch.ones(2, requires_grad=True)
g, = torch.autograd.grad(y, x, v, create_graph=True)
jvp_, = torch.autograd.grad(g, v, torch.tensor([1., 0.]))
print(jvp_)""",
    """import torch.nn as nn
from torch.func import functional_call
torch.manual_seed(0)
m = nn.Linear(2, 1)
params = {k: torch.zeros_like(v) for k, v in m.named_parameters()}
print(functional_call(m, params, (torch.ones(1, 2),)))""",
    """def pack(t):
    print('pack', t.shape)
    return t
def unpack(t):
    print('unpack', t.shape)
    return t
x = torch.ones(2, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x * x).sum()
y.backward()
print(x.grad)""",
    """from torch.utils.checkpoint import checkpoint
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
x = torch.ones(1, 2, requires_grad=True)
y = checkpoint(m, x, use_reentrant=False)
y.sum().backward()
print(x.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
m.register_forward_hook(lambda mod, args, kwargs, out: print(kwargs), with_kwargs=True)
m(torch.ones(1, 2))""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.ones_(m.weight)
        nn.init.zeros_(m.bias)
print(model.apply(init))
print(model(torch.ones(1, 2)))
print(len(list(model.modules())), [type(m).__name__ for m in model.modules()])""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(4, 2))
print(model(torch.ones(3, 2, 2)).shape)
v = nn.utils.parameters_to_vector(model.parameters())
print(v.shape, v.grad_fn)
nn.utils.vector_to_parameters(torch.zeros(10), model.parameters())
print(model[1].weight)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
print(model.weight.grad_fn, model.weight.is_leaf, type(model.weight).__name__, isinstance(model.weight, torch.Tensor))
print(repr(model.weight.data))""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
print(m.weight.dtype, m.weight.device, m.weight.requires_grad)
print(m.weight.T, m.weight.detach().numpy().shape)""",
    """import torch.nn as nn
torch.manual_seed(0)
emb = nn.Embedding(5, 2)
print(emb)
out = emb(torch.tensor([1, 1, 3]))
out.sum().backward()
print(emb.weight.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
ln = nn.LayerNorm(3)
print(ln, ln.weight, ln.bias)
x = torch.tensor([[1., 2., 4.]], requires_grad=True)
ln(x).pow(2).sum().backward()
print(x.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
d = nn.Dropout(0.5)
x = torch.ones(8, requires_grad=True)
y = d(x)
print(y)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
print(y.grad_fn._saved_result, y.grad_fn._saved_result is y)
z = x.sin()
print(z.grad_fn._saved_self is x)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
y.sum().backward()
y.grad_fn._saved_result""",
    """x = torch.tensor(1., requires_grad=True)
a = x * 2
b = a * 3
c = a * 4
(b + c).backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
torch.autograd.backward([(x * y).sum(), (x + y).sum()])
print(x.grad, y.grad)""",
    """x = torch.tensor(1., requires_grad=True)
y = x * 2
y.backward(torch.tensor([1.]))""",
    """x = torch.tensor(1., requires_grad=True)
y = x * 2
y.backward(torch.tensor(1., dtype=torch.int64))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(x.sum().backward())
print(x.grad.sum().item() == 2)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
total = 0
for name, p in model.named_parameters():
    print(f'{name:10s} {str(tuple(p.shape)):8s} {p.numel():4d}')
    total += p.numel()
print('total', total)""",
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
x = torch.randn(5, 3)
out = model(x)
print(out.shape, out.grad_fn, out.grad_fn.next_functions)
out.softmax(-1).argmax(-1)""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x.argmax(), x.argmax().requires_grad, (x > 1).requires_grad, x.floor().requires_grad, x.sign().grad_fn)""",
    """x = torch.tensor([1.5, 2.5], requires_grad=True)
y = x.int()
print(y, y.requires_grad)
y.float().sum().backward()""",
    # optimizer groups and state, extra_repr, parameter hooks as masks, Function features (mark_dirty, set_materialize_grads, non-tensor outputs), more ops
    """import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = torch.optim.SGD([{'params': model[0].parameters()}, {'params': model[1].parameters(), 'lr': 0.01}], lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
print(opt)
opt.add_param_group({'params': [nn.Parameter(torch.ones(1))]})
print(len(opt.param_groups), opt.param_groups[2]['lr'])""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.Adam(m.parameters(), lr=1e-3, betas=(0.9, 0.99), weight_decay=0.01)
m(torch.ones(1, 2)).sum().backward()
opt.step()
print(opt.state_dict())""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.AdamW(m.parameters())
print(opt)
opt2 = torch.optim.RMSprop(m.parameters(), lr=0.01)
print(opt2)""",
    """import torch.nn as nn
class Scale(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
    def forward(self, x):
        return x * self.k
    def extra_repr(self):
        return f'k={self.k}'
model = nn.Sequential(nn.Sequential(Scale(2), nn.ReLU()), Scale(3))
print(model)
print(model(torch.tensor([-1., 1.])))""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(3, 3)
mask = torch.tensor([[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]])
m.weight.register_hook(lambda g: g * mask)
m(torch.ones(1, 3)).sum().backward()
print(m.weight.grad)""",
    """class Inplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = x.clone()
z = Inplace.apply(y)
print(z is y, z.grad_fn)
z.sum().backward()
print(x.grad)""",
    """class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return (g1 * 2 if g1 is not None else 0) + (g2 * 3 if g2 is not None else 0)
x = torch.tensor([1.], requires_grad=True)
a, b = Two.apply(x)
a.sum().backward()
print(x.grad)""",
    """class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return g1 * 2 + g2 * 3
x = torch.tensor([1.], requires_grad=True)
a, b = Two.apply(x)
b.sum().backward()
print(x.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.n = n
        return x * n, n
    @staticmethod
    def backward(ctx, g, _):
        return g * ctx.n, None
x = torch.tensor([1.], requires_grad=True)
y, n = F.apply(x, 3)
print(y, n)
y.backward()
print(x.grad)""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1.], requires_grad=True)
y = F.apply(x)
print(y.grad_fn.saved_tensors, y.grad_fn.needs_input_grad)""",
    """class F(torch.autograd.Function):
    def forward(self, x):
        return x
F.apply(torch.ones(1))""",
    """class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
print(F.apply(torch.ones(1)).requires_grad, F.apply(torch.ones(1, requires_grad=True)).requires_grad)
with torch.no_grad():
    print(F.apply(torch.ones(1, requires_grad=True)).requires_grad)""",
    """from torch.func import vmap, grad
f = lambda x: x.sin().sum()
print(vmap(grad(f))(torch.tensor([[0., 1.], [2., 3.]])))
vmap(lambda x: x.item())(torch.ones(2))""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.unsqueeze(1) * x.unsqueeze(0)
print(y)
y.sum().backward()
print(x.grad)""",
    """a = torch.tensor([[1., 2.]], requires_grad=True)
b = torch.tensor([[3.], [4.]], requires_grad=True)
c = a @ b
print(c, c.grad_fn)
c.backward()
print(a.grad, b.grad)
d = torch.mm(a, b); e = torch.matmul(a.squeeze(), b.squeeze()); f = a.squeeze().dot(b.squeeze())
print(d.grad_fn, e.grad_fn, f.grad_fn)""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.einsum('ij,jk->ik', x, x)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
a, b = x.chunk(2)
(a * b).sum().backward()
print(x.grad, a.grad_fn)
c, d = torch.split(x, [1, 3])
print(c, d)""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.flip(0).roll(1, 1).repeat(1, 2)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)""",
    """x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = x.sort()
v[0].backward()
print(v, i, x.grad)
print(x.topk(2))""",
    """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.nn.functional.normalize(x, dim=0)
print(y)
y[0].backward()
print(x.grad)""",
    """a = torch.tensor([1., 0.], requires_grad=True)
b = torch.tensor([1., 1.], requires_grad=True)
c = torch.cosine_similarity(a, b, dim=0)
c.backward()
print(c, a.grad, b.grad)""",
    """x = torch.tensor([0.5, 2.0], requires_grad=True)
y = torch.lerp(x, torch.zeros(2), 0.25) + torch.atan2(x, torch.ones(2)) + torch.hypot(x, x)
y.sum().backward()
print(y, x.grad)""",
    """x = torch.tensor(1., requires_grad=True)
y = x.clone()
for _ in range(3):
    y = y * 2
    y.retain_grad()
y.backward()
print(y.grad, x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.expand(2, 2)
y.add_(1)""",
    """x = torch.zeros(2, requires_grad=True)
with torch.no_grad():
    x.copy_(torch.tensor([1., 2.]))
print(x, x.grad_fn)
x.copy_(torch.tensor([1., 2.]))""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
y.copy_(torch.tensor([5., 6.], requires_grad=True))
print(y, y.grad_fn)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
print(m.weight.grad)
x = torch.tensor([[1., 2.]])
loss = m(x).sum()
loss.backward()
loss.backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
out = m(torch.ones(1, 2))
m.weight.data.fill_(0)
out.sum().backward()
print(m.weight.grad, m.bias.grad)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
out = m(torch.ones(1, 2, requires_grad=True))
with torch.no_grad():
    m.weight.fill_(0)
out.sum().backward()""",
    # whole lessons in the styles of popular courses: a regression module trained with inference_mode checks, fitting a curve by hand with .data, minibatch SGD from scratch, a logistic unit by hand, a classifier
    """import torch.nn as nn
class LinearRegressionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(1, requires_grad=True, dtype=torch.float))
        self.bias = nn.Parameter(torch.randn(1, requires_grad=True, dtype=torch.float))
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.weights * x + self.bias
torch.manual_seed(42)
model_0 = LinearRegressionModel()
print(list(model_0.parameters()))
print(model_0.state_dict())
X = torch.arange(0, 1, 0.02).unsqueeze(dim=1)
y = 0.7 * X + 0.3
with torch.inference_mode():
    y_preds = model_0(X[:5])
print(y_preds)
loss_fn = nn.L1Loss()
optimizer = torch.optim.SGD(params=model_0.parameters(), lr=0.01)
for epoch in range(30):
    model_0.train()
    y_pred = model_0(X)
    loss = loss_fn(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_0.eval()
    with torch.inference_mode():
        test_loss = loss_fn(model_0(X), y)
    if epoch % 10 == 0:
        print(f"Epoch: {epoch} | Loss: {loss} | Test loss: {test_loss}")
print(model_0.state_dict())""",
    """torch.manual_seed(42)
y_true = torch.tensor([1., 0., 1., 1.])
logits = torch.randn(4)
y_pred = torch.round(torch.sigmoid(logits))
print(logits, y_pred)
correct = torch.eq(y_true, y_pred).sum().item()
print(correct, correct / len(y_pred) * 100)""",
    """def f(x): return x ** 2
xt = torch.tensor(3.).requires_grad_()
yt = f(xt)
print(yt)
yt.backward()
print(xt.grad)
xt = torch.tensor([3., 4., 10.]).requires_grad_()
def f(x): return (x ** 2).sum()
yt = f(xt)
yt.backward()
print(yt, xt.grad)""",
    """torch.manual_seed(0)
time = torch.arange(0, 20).float()
speed = torch.randn(20) * 3 + 0.75 * (time - 9.5) ** 2 + 1
params = torch.randn(3).requires_grad_()
orig_params = params.clone()
def f(t, params):
    a, b, c = params
    return a * (t ** 2) + (b * t) + c
def mse(preds, targets): return ((preds - targets) ** 2).mean()
lr = 1e-5
for i in range(5):
    preds = f(time, params)
    loss = mse(preds, speed)
    loss.backward()
    params.data -= lr * params.grad.data
    params.grad = None
    print(loss.item())
print(params, orig_params)""",
    """torch.manual_seed(0)
def linreg(X, w, b):
    return torch.matmul(X, w) + b
def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
true_w = torch.tensor([2, -3.4]); true_b = 4.2
X = torch.normal(0, 1, (100, 2))
y = torch.matmul(X, true_w) + true_b
y += torch.normal(0, 0.01, y.shape)
y = y.reshape((-1, 1))
w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(3):
    idx = torch.randperm(100)
    for i in range(0, 100, 10):
        j = idx[i:i + 10]
        l = squared_loss(linreg(X[j], w, b), y[j])
        l.sum().backward()
        sgd([w, b], 0.03, 10)
    with torch.no_grad():
        train_l = squared_loss(linreg(X, w, b), y)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
print(f'error in estimating w: {true_w - w.reshape(true_w.shape)}')
print(f'error in estimating b: {true_b - b}')""",
    """import torch.nn.functional as F
torch.manual_seed(1)
y = torch.tensor([1.0])
x1 = torch.tensor([1.1])
w1 = torch.tensor([2.2], requires_grad=True)
b = torch.tensor([0.0], requires_grad=True)
z = x1 * w1 + b
a = torch.sigmoid(z)
loss = F.binary_cross_entropy(a, y)
print(loss)
grad_L_w1 = torch.autograd.grad(loss, w1, retain_graph=True)
grad_L_b = torch.autograd.grad(loss, b, retain_graph=True)
print(grad_L_w1, grad_L_b)
loss.backward()
print(w1.grad, b.grad)""",
    """import torch.nn as nn
class NeuralNetwork(nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(num_inputs, 30), nn.ReLU(),
            nn.Linear(30, 20), nn.ReLU(),
            nn.Linear(20, num_outputs),
        )
    def forward(self, x):
        return self.layers(x)
torch.manual_seed(123)
model = NeuralNetwork(50, 3)
print(model)
num_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("Total number of trainable model parameters:", num_params)
print(model.layers[0].weight.shape, model.layers[0].bias)
X = torch.rand((1, 50))
out = model(X)
print(out)
with torch.no_grad():
    print(torch.softmax(model(X), dim=1))""",
    """import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(123)
X_train = torch.tensor([[-1.2, 3.1], [-0.9, 2.9], [-0.5, 2.6], [2.3, -1.1], [2.7, -1.5]])
y_train = torch.tensor([0, 0, 0, 1, 1])
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(3):
    model.train()
    logits = model(X_train)
    loss = F.cross_entropy(logits, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"Epoch: {epoch+1:03d}/{3:03d} | Train Loss: {loss:.2f}")
model.eval()
with torch.no_grad():
    outputs = model(X_train)
print(outputs)
torch.set_printoptions(sci_mode=False)
probas = torch.softmax(outputs, dim=1)
print(probas)
print(torch.argmax(probas, dim=1), torch.argmax(outputs, dim=1) == y_train)
torch.set_printoptions(sci_mode=None)""",
    """x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(x.shape, x.dtype, x.T, x.matmul(x.T), x @ x.T, x.view(3, 2), x.reshape(3, 2))
floatvec = x.to(torch.float32)
print(floatvec.dtype)""",
    """t = torch.tensor([1., 2., 3.])
print(t.requires_grad)
t.requires_grad = True
print(t)
u = t.detach()
u.requires_grad = True
print(u, t)""",
    # printing: summarised tensors with grad_fn, extremes, empty, float64 and float16, print options, grad_fn names of everyday ops
    """x = torch.arange(2000., requires_grad=True)
print(x * 2)
print(x.reshape(40, 50)[:, :3] + 1)""",
    """x = torch.tensor([1e-12, 3e20], requires_grad=True)
print(x * 1, (x * 1).sum(), torch.tensor(1e20), torch.tensor([123456789.]), torch.tensor([2**40]))""",
    """x = torch.tensor([], requires_grad=True)
print(x, x.sum(), x.mean())
x.sum().backward()
print(x.grad)""",
    """x = torch.tensor([[0.1234567, -12.5], [1000.25, 3.]], dtype=torch.float64, requires_grad=True)
print(x, x.sum(), x.exp())""",
    """x = torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True)
y = (x * 1000).sum()
y.backward()
print(y, x.grad, x.grad.dtype)""",
    """print(torch.tensor(True), torch.tensor([True, False]), torch.tensor(3), torch.tensor([-1, 10000000000]))""",
    """x = torch.randn(3, 4, 5)
torch.manual_seed(0)
x = torch.randn(2, 2, 3, requires_grad=True)
print(x, x.sum(dim=(0, 2)))""",
    """torch.manual_seed(0)
x = torch.randn(100, requires_grad=True)
print(x.mean(), x.std(), x.max(), x.argmin(), x.median())""",
    """x = torch.tensor([0.1, 0.2, 0.3])
print(x.sum(), x.sum().item(), x.tolist(), 0.1 + 0.2 == x[:2].sum().item())""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
print(str(x), x.__repr__(), format(x.sum(), '.3e'), '%s' % x)""",
    """x = torch.tensor(2.5, requires_grad=True)
print(f'{x}', f'{x:.1f}', f'{x.item():.3f}', f'{x!r}', round(x.item()))
print('{:>10}'.format(x.item()))""",
    """torch.set_printoptions(precision=8)
print(torch.tensor([1/3, 2/3], requires_grad=True))
torch.set_printoptions(linewidth=40)
print(torch.arange(20.))
torch.set_printoptions(profile='default')
print(torch.tensor([1/3]))""",
    """torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10.))
torch.set_printoptions(profile='default')""",
    """x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
print(x.grad_fn, x[0].grad_fn, x[0, 0].grad_fn, x[:, None].grad_fn, x[..., 1].grad_fn, x[[0, 1]].grad_fn, x[x > 1].grad_fn)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print((x + 1).grad_fn, (x - 1).grad_fn, (1 - x).grad_fn, (x / 2).grad_fn, (2 / x).grad_fn, (x ** 2).grad_fn, (2 ** x).grad_fn, (-x).grad_fn, abs(x).grad_fn)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(x.sum().grad_fn, x.mean().grad_fn, x.max().grad_fn, x.norm().grad_fn, x.exp().grad_fn, x.log().grad_fn, x.sigmoid().grad_fn, x.relu().grad_fn, x.tanh().grad_fn)""",
    # legacy constructors and Variable, tensor hooks and retain_grad order, mistakes (backward on a float, numpy on a tensor needing grad, deepcopy of a non-leaf)
    """from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x, type(x).__name__)
y = x + 2
print(y.grad_fn, y.data)
out = (y * y * 3).mean()
out.backward()
print(x.grad)""",
    """x = torch.FloatTensor([1, 2])
y = torch.LongTensor([1, 2])
print(x, y, x.type(), y.type(), torch.Tensor([1, 2]).requires_grad_())""",
    """x = torch.Tensor([[1, 2], [3, 4]])
print(x.dtype, x)
print(torch.DoubleTensor([1]).dtype)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
def hook(g):
    g.mul_(2)
x.register_hook(hook)
(x * 3).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 100)
y.retain_grad()
(y * 3).sum().backward()
print(y.grad, x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 100)
(y * 3).sum().backward()
print(y.grad, x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
calls = []
x.register_hook(lambda g: calls.append('a'))
x.register_hook(lambda g: calls.append('b'))
(x * 3).sum().backward()
print(calls)""",
    """loss = 3.0
loss.backward()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
loss = (x ** 2).sum().item()
loss.backward()""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
m.to('cuda')""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1).to('cpu')
print(m, next(m.parameters()).device, m.to(torch.float64).weight.dtype)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.numpy()""",
    """x = torch.tensor([1., 2.], requires_grad=True)
print(x.detach().cpu().numpy(), x.cpu().detach().numpy().tolist())
x.numpy(force=True)""",
    """x = torch.tensor([[1., 2.]], requires_grad=True)
import copy
y = copy.deepcopy(x)
print(y, y.requires_grad, y.is_leaf)
z = (x * 2)
copy.deepcopy(z)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
x.grad = torch.tensor([5., 5.])
(x * 1).sum().backward()
print(x.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad = torch.ones(2)
print(y.grad)""",
    """x = torch.tensor([1., 2.], requires_grad=True)
y = x.sum()
y.backward(retain_graph=False, create_graph=False)
print(x.grad)
torch.autograd.backward(x.sum(), grad_variables=torch.tensor(1.))""",
    # t.resize(...) / resize_as(...) without the underscore (deprecated, torch warns): a
    # custom Function (ResizeBackward) keeping the number of elements, sharing memory
    """import warnings
warnings.simplefilter("always")
x = torch.arange(6., requires_grad=True)
y = x.resize(2, 3)
print(y, y.grad_fn, y.is_leaf, y._base is None, y.requires_grad)
(y * torch.arange(6.).view(2, 3)).sum().backward()
print(x.grad)""",
    """import warnings
warnings.simplefilter("always")
x = torch.arange(6.)
y = x.resize(3, 2)
y[0, 0] = 100.
print(x, y.data_ptr() == x.data_ptr(), y.grad_fn)""",
    """x = torch.arange(6.)
try:
    x.resize(4)
except RuntimeError as e:
    print(e)""",
    """x = torch.arange(6.).view(2, 3).t()
y = x.resize(6)
print(y, y.data_ptr() == x.data_ptr())
z = torch.zeros(3, 2).resize_as(torch.ones(6))
print(z.shape)""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.resize_as(torch.zeros(3, 2))
print(y.grad_fn, y.shape)
y.sum().backward(); print(x.grad)""",
    """x = torch.arange(6., requires_grad=True)
y = x.resize(2, 3)
try:
    y.add_(1)
    print("ok", y.grad_fn, y._version)
    y.sum().backward(); print(x.grad)
except RuntimeError as e:
    print(e)""",
    """x = torch.arange(6., requires_grad=True) * 1
y = x.resize(2, 3)
x.mul_(2)
print(y)
y.sum().backward(); print("ok")""",
    """x = torch.arange(6.)
y = x.resize((2, 3))
print(y.shape)""",
    # t.resize_ / resize_as_ (once missing): a buffer reused with a new shape; grown elements
    # are uninitialised, so only the kept prefix is printed
    """x = torch.arange(6.).reshape(2, 3)
r = x.resize_(3, 2)
print(r is x, x, x.stride(), x._version, x.is_contiguous())
x.resize_(3, 2)
print(x._version)
x.resize_((2, 4))
print(x.shape, x.stride(), x.dtype, x._version, x.flatten()[:6])
x.resize_(torch.Size([2, 2]))
print(x, x._version)
x.resize_(0)
print(x, x.shape, x.stride())
x.resize_([5])
print(x[:4], x._version)
x.resize_(())
print(x, x.shape)""",
    """x = torch.arange(6.).reshape(2, 3).t()
x.resize_(3, 2)
print(x.stride(), x._version, x.is_contiguous())
x.resize_(6)
print(x, x.stride(), x._version)
y = torch.arange(4, dtype=torch.int64)
y.resize_(2, 3)
print(y.dtype, y.shape, y.stride(), y.flatten()[:4])""",
    """b = torch.arange(10.)
v = b[2:5]
v.resize_(5)
print(v.shape, v.stride(), v.storage_offset(), v._is_view(), v._version, b._version)
v[4] = 100
print(b)
w = b[::2]
w.resize_(2, 2)
print(w, w.stride())
b2 = torch.arange(6.)
u = b2[1:3]
b2.resize_(3)
u[0] = 50
print(b2, u, b2._version, u._version)""",
    """x = torch.ones(3, requires_grad=True)
for f in [lambda: x.resize_(2), lambda: x.resize_(3), lambda: x[1:].resize_(1), lambda: (x * 2).resize_(2)]:
    try:
        f()
    except RuntimeError as e:
        print(e)
with torch.no_grad():
    x.resize_(1)""",
    """x = torch.ones(3, requires_grad=True)
d = (x * 2).detach()
d.resize_(2)
print(d, d._version, x)
t = torch.arange(6.)
r = t.resize_as_(torch.zeros(3, 2, dtype=torch.int64))
print(r is t, t, t.dtype)
print(torch.resize_as_(torch.arange(4.), torch.zeros(2, 2)))
t.resize_as_(torch.zeros(2, 3).t())
print(t.stride())""",
    """x = torch.arange(6.)
for f in [lambda: x.resize_(-1), lambda: x.resize_(2, -3), lambda: x.resize_(2.0), lambda: x.resize_(),
          lambda: x.resize_([2], [3]), lambda: x.resize_as_(3), lambda: x.resize_(2, 3, memory_format=torch.preserve_format),
          lambda: x.resize_(2, 3, memory_format=torch.channels_last), lambda: torch.resize_(x, 2)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
x.resize_(1, 2, 1, 3, memory_format=torch.channels_last)
print(x.stride(), x.flatten())""",
    """out = torch.ones(3)
torch.add(torch.ones(2), 1, out=out)
print(out)
out.resize_(0)
torch.mul(torch.ones(4), 3, out=out)
print(out, out._version)""",
    """x = torch.arange(6.).reshape(2, 3).t()
x.resize_(3, 2, memory_format=torch.contiguous_format)
print(x.stride(), x._version, x)
c = torch.zeros(1, 2, 1, 3).to(memory_format=torch.channels_last)
y = torch.arange(6.)
y.resize_as_(c)
print(y.stride(), y._version)
y.resize_as_(c, memory_format=torch.preserve_format)
print(y.stride(), y._version)
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(3), torch.ones(3))
    try:
        d.resize_(2)
    except RuntimeError as e:
        print(e, d.shape)""",
    # torch.set_default_tensor_type (deprecated since torch 2.1, once missing); its warning comes
    # once per process, so it is silenced here and compared in test_warn_once.py
    """import warnings
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    torch.set_default_tensor_type(torch.DoubleTensor)
    print(torch.get_default_dtype(), torch.tensor([1.5]).dtype, torch.Tensor([1]).type(), torch.zeros(2).dtype, torch.arange(2).dtype)
    torch.set_default_tensor_type('torch.FloatTensor')
    print(torch.get_default_dtype(), torch.tensor([1.5]).dtype)
    torch.set_default_tensor_type('torch.DoubleTensor')
    print(torch.get_default_dtype(), torch.ones(1).type())
    torch.set_default_tensor_type(torch.HalfTensor)
    print(torch.get_default_dtype())
    for t in [torch.LongTensor, torch.float64, 'torch.cuda.FloatTensor', torch.cuda.DoubleTensor, 'float', 'torch.Foo', 3]:
        try:
            torch.set_default_tensor_type(t)
        except Exception as e:
            print(type(e).__name__, e)
    print(torch.get_default_dtype())
    torch.set_default_tensor_type(torch.FloatTensor)
print(torch.get_default_dtype(), torch.cuda.FloatTensor, torch.cuda.FloatTensor.is_cuda, torch.FloatTensor.is_cuda, isinstance(torch.ones(1), torch.cuda.FloatTensor))
torch.cuda.FloatTensor([1.])""",
    # a module's hook dicts under torch's names (once only made by the first registration)
    """import torch.nn as nn
m = nn.Linear(2, 2)
print(m._forward_hooks, m._forward_pre_hooks, m._backward_hooks, m._backward_pre_hooks, m._is_full_backward_hook)
calls = []
h1 = m.register_forward_hook(lambda mod, args, out: calls.append('forward'))
h2 = m.register_forward_pre_hook(lambda mod, args, kwargs: calls.append('pre'), with_kwargs=True, prepend=True)
h3 = m.register_full_backward_hook(lambda mod, gi, go: calls.append('backward'))
h4 = m.register_full_backward_pre_hook(lambda mod, go: calls.append('backward pre'))
print(type(m._forward_hooks).__name__, len(m._forward_hooks), len(m._forward_pre_hooks), len(m._backward_hooks), len(m._backward_pre_hooks))
print(list(m._forward_hooks) == [h1.id], list(m._forward_pre_hooks_with_kwargs.items()) == [(h2.id, True)], m._is_full_backward_hook)
print(m._backward_hooks[h3.id] is not None, list(m._forward_hooks_with_kwargs))
x = torch.ones(1, 2, requires_grad=True)
m(x).sum().backward()
print(calls)
m._backward_hooks.clear()
m._forward_hooks.clear()
calls.clear()
m(x).sum().backward()
print(calls, m._is_full_backward_hook)
h2.remove()
print(len(m._forward_pre_hooks), len(m._forward_pre_hooks_with_kwargs))""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
order = []
m.register_forward_hook(lambda mod, a, o: order.append('first'))
m.register_forward_hook(lambda mod, a, kw, o: order.append('kwargs'), with_kwargs=True)
m.register_forward_hook(lambda mod, a, o: order.append('prepended'), prepend=True)
h = torch.nn.modules.module.register_module_forward_hook(lambda mod, a, kw, o: order.append('global'), with_kwargs=True)
try:
    m(torch.ones(1, 2))
    print(order, len(m._forward_hooks), len(m._forward_hooks_with_kwargs))
finally:
    h.remove()
m._forward_hooks_with_kwargs.clear()
m(torch.ones(1, 2))""",
    """import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
for mod in model.modules():
    mod.register_forward_hook(lambda m, i, o: print(type(m).__name__))
print([len(mod._forward_hooks) for mod in model.modules()])
model(torch.ones(1, 2))
for mod in model.modules():
    mod._forward_hooks.clear()
model(torch.ones(1, 2))
lin = nn.Linear(2, 1)
lin.register_backward_hook(lambda m, gi, go: print('old kind'))
print(len(lin._backward_hooks), lin._is_full_backward_hook)
lin._backward_hooks.clear()
lin(torch.ones(1, 2)).sum().backward()
print('no hook ran')""",
]

KNOWN: dict[str, str] = {
    """b = torch.arange(10.)
v = b[2:5]
v.resize_(9)
v[0] = -1
print(v.shape, v.storage_offset(), b)""":
        "a view grown beyond its storage: torch enlarges the one storage its base shares, NumPy "
        "cannot enlarge memory other arrays hold, so minigrad refuses with a clear error",
}

# training loops: float32 sums and matrix products whose last bit depends on the CPU's kernels
KERNEL_DEPENDENT = {code for code in PROBES if ("optim." in code and "for epoch" in code)
                    or "linspace(0, 1, 20)" in code}
