# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""A learner's subclass of Tensor (``class MyTensor(torch.Tensor)``, as torch's extending notes show):
its instances print under its name, and every method, operator and function given one returns
one, as torch's default ``__torch_function__`` does (``minigrad/_ops/subclass.py``); each snippet
once gave plain tensors, or an error, in minigrad."""

PROBES = [
    """class S(torch.Tensor):
    pass
a = S([1., 2.])
print([type(e).__name__ for e in a], type(a.new_ones(2)).__name__, type(torch.zeros_like(a)).__name__)
print(a == a, type(a.max(0)).__name__, a.max(0))
print(type(torch.nn.functional.mse_loss(a, torch.ones(2))).__name__)""",
    """class S(torch.Tensor):
    pass
class O(torch.Tensor):
    pass
a = S([1., 2.])
a.add(O([1.]))""",
    """class S(torch.Tensor):
    pass
class O(torch.Tensor):
    pass
S([1., 2.]) + O([1.])""",
    """class S(torch.Tensor):
    pass
class O(torch.Tensor):
    pass
torch.stack([S([1., 2.]), O([1., 2.])])""",
    'torch.ones(1).as_subclass(int)',
    """class S(torch.Tensor):
    pass
torch.manual_seed(0)
m = torch.nn.Linear(2, 1)
a = S([1., 2.])
print(type(m(a)).__name__, m(a))
print(str(a), a.__format__(''), f"{S([3.5]).sum()}")""",
    'class S(torch.Tensor):\n    pass\nf"{S([3.5]).sum():.2f}"',
    """class S(torch.Tensor):
    pass
b = S([1., 2.]).requires_grad_()
l = (b * b).sum(); l.backward(); print(b.grad, type(b.grad).__name__, l)
print(S([1,2]).tolist(), S([[1,2]]).numpy())
a = S([1., 2.])
print(type(a.to(torch.float64)).__name__, type(a.float()).__name__, type(a.double()).__name__)
print(type(a.data).__name__, type(torch.ones(2,2).as_subclass(S).mT).__name__)
x = torch.ones(2).as_subclass(S); print(x._base, type(x._base))
print(isinstance(a, torch.Tensor), torch.is_tensor(a))
print(repr(S([1.,2.]).requires_grad_()))
print(S(torch.ones(2)))""",
    """class S(torch.Tensor):
    pass
a = S([[1., 2.]])
print(type(a.T).__name__, a.T)""",
    """import copy
class S(torch.Tensor):
    pass
copy.deepcopy(S([1., 2.]))""",
    """class S(torch.Tensor):
    def double_it(self):
        return self * 2
    @property
    def first(self):
        return self[0]
a = S([1., 2., 3.])
print(a.double_it(), a.first, type(a.first).__name__)
print(a.sum(), a.mean(), a.exp().log(), torch.sin(a), a @ a, a[1:], a.view(3, 1), a.reshape(1, 3), a.unsqueeze(0))
print(a.detach(), a.clone(), a.abs(), -a, a ** 2, 2 ** a, a / 2, 2 / a, a // 2, a % 2, a > 1, ~(a > 1))""",
    """class S(torch.Tensor):
    pass
x = torch.ones(2, requires_grad=True)
b = x * 2
y = b.as_subclass(S)
print(y._is_view(), y._base is b, y.grad_fn, y.grad_fn.next_functions, y.is_leaf, y.requires_grad)
y.sum().backward()
print(x.grad, type(x.grad).__name__)
z = torch.ones(2).as_subclass(S)
print(z._is_view(), z._base, z.grad_fn, z.is_leaf, z.requires_grad)""",
    """class S(torch.Tensor):
    pass
a = S([1., 2.])
c = a * 2
print(c._is_view(), type(c._base).__name__, c.is_leaf, c._version)
a.requires_grad_()
d = a * 2
print(d._is_view(), type(d._base).__name__, d.grad_fn, d.is_leaf)
print(type(d.grad_fn.next_functions[0][0]).__name__, d.grad_fn.next_functions[0][0].next_functions)
e = a.detach()
print(type(e).__name__, e._is_view(), e.requires_grad)""",
    """class S(torch.Tensor):
    pass
print(type(torch.mul(torch.ones(2), S([1., 2.]))).__name__, type(torch.ones(2) * S([1., 2.])).__name__, type(torch.ones(2).mul(S([1., 2.]))).__name__)
print(type(torch.cat([torch.ones(2), S([1., 2.])])).__name__)
print(type(S([1., 2.]).sum().item()).__name__, S([1., 2.]).shape, S([1., 2.]).size(), S([1., 2.]).dim(), len(S([1., 2.])))
x = S([1., 2.]); x.add_(1); print(type(x).__name__, x)
print(type(x[0:1]).__name__, type(x.view(2, 1)).__name__)
f = x.float(); print(type(f).__name__, f is x)""",
    """class P(torch.nn.Parameter):
    pass
p = P(torch.ones(2))
print(type(p * 2).__name__, type(p).__name__, p.requires_grad)""",
    """class S(torch.Tensor):
    pass
class S2(S):
    pass
print(type(torch.add(S2([0]), S([1]))).__name__, type(S([1]) + S2([0])).__name__, type(torch.add(S2([0]), torch.tensor([1]))).__name__)
print(S2([1.]), S2([1.]).sum())""",
    """class S(torch.Tensor):
    pass
x = S([1., 2.]).requires_grad_()
h = x.register_hook(lambda g: print('hook', type(g).__name__, g))
y = (x * 3).sum()
y.backward()
print(x.grad)
print(torch.autograd.grad((x * x).sum(), x))""",
    """class MyTensor(torch.Tensor):
    def __repr__(self):
        return 'Mine:' + super().__repr__()
t = MyTensor([1., 2.])
print(t, t + 1, [t])""",
    """class S(torch.Tensor):
    pass
w = torch.nn.Parameter(torch.ones(2, 2))
x = S([[1., 2.]])
out = torch.nn.functional.linear(x, w)
print(type(out).__name__, out, out.grad_fn)
print(type(torch.relu(x)).__name__, type(torch.nn.functional.softmax(x, dim=1)).__name__, type(x.softmax(1)).__name__)
print(type(torch.where(x > 1, x, torch.zeros(1, 2))).__name__, type(torch.matmul(x, w)).__name__)""",
    """class SubTensor(torch.Tensor):
    pass
print(type(torch.add(SubTensor([0]), SubTensor([1]))).__name__, type(torch.add(SubTensor([0]), torch.tensor([1]))).__name__)
class SubTensor2(SubTensor):
    pass
print(type(torch.add(SubTensor2([0]), SubTensor([1]))).__name__, type(torch.add(SubTensor2([0]), torch.tensor([1]))).__name__)
class OtherSubTensor(torch.Tensor):
    pass
torch.add(SubTensor([0]), OtherSubTensor([1]))""",
    """class SubTensor(torch.Tensor):
    pass
a = SubTensor([1., 2.])
print(repr(a), type(a).__name__, a.requires_grad)
b = a * 2
print(type(b).__name__, repr(b))
a.requires_grad_()
c = (a * a).sum()
print(type(c).__name__, c, c.grad_fn, c.grad_fn.next_functions)
c.backward()
print(type(a.grad).__name__, a.grad)
print(type(a.detach()).__name__, type(a.data).__name__, type(a[0]).__name__, type(a.shape).__name__, type(torch.stack([a, a])).__name__)
print(type(torch.tensor([1.]) + a).__name__, type(a.clone()).__name__, type(a.tolist()))
print(type(torch.ones(2).as_subclass(SubTensor)).__name__)
x = torch.ones(2, requires_grad=True)
y = x.as_subclass(SubTensor)
print(y.grad_fn, y.requires_grad, y.is_leaf, type(y.sum()).__name__)
p = torch.nn.Parameter(torch.ones(2))
print(type(p * 2).__name__)
class SubTensor2(SubTensor): pass
print(type(torch.add(SubTensor2([0]), SubTensor([1]))).__name__)
print(type(torch.nn.functional.relu(a)).__name__, type(a.max(0)).__name__, type(a.max(0).values).__name__)
print(type(torch.nn.Linear(2,1)(a)).__name__)
print(SubTensor([[1,2]]).dtype, SubTensor(2, 3).shape)
class Other(torch.Tensor): pass
torch.add(SubTensor([0]), Other([1]))""",
]

KNOWN: dict[str, str] = {}
