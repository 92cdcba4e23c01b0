# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""What tensors, nodes and types print as."""

PROBES = [
    "x = torch.ones(2); print(type(x))",
    "x = torch.ones(2); print(type(x).__name__, type(x).__module__)",
    "x = torch.ones(2); print(x.type(), x.long().type(), x.double().type(), x.bool().type())",
    "x = torch.ones(2); print(x.int().type(), x.half().type())",
    "x = torch.ones(2, requires_grad=True); y = x.exp(); print(type(y.grad_fn).__name__)",
    "x = torch.ones(2, requires_grad=True); y = x * 2; print(y.grad_fn.name())",
    "x = torch.ones(2, requires_grad=True); y = x.sum(); print(y.grad_fn.next_functions)",
    "x = torch.ones(2, requires_grad=True); print(x.exp().grad_fn)",
    "x = torch.ones(2, requires_grad=True); print(repr(x.exp().grad_fn).split(' object')[0])",
    "print(torch.float32, torch.int64, torch.bool, torch.float64)",
    "print(torch.ones(2).dtype, torch.ones(2).dtype == torch.float32)",
    "print(torch.tensor([1.5, 2.25], dtype=torch.float64))",
    "print(torch.tensor([1, 2], dtype=torch.int32))",
    "print(torch.tensor([True, False]))",
    "print(torch.tensor(3.))",
    "print(torch.tensor([1e-5, 1e5]))",
    "print(torch.tensor([1., 2.], requires_grad=True))",
    "print(torch.tensor([1., 2.], requires_grad=True) * 2)",
    "print(torch.tensor([1., 2.], requires_grad=True).sum())",
    "print(torch.tensor([[1., 2.], [3., 4.]]))",
    "print(torch.tensor([float('nan'), float('inf'), -float('inf')]))",
    "print(torch.tensor([], dtype=torch.int64))",
    "x = torch.ones(3, requires_grad=True); print(x[0])",
    "x = torch.ones(3, requires_grad=True); print(x.unbind())",
    "x = torch.ones(2, 3); print(x.shape, x.size(), x.stride())",
    "print(repr(torch.ones(2).shape))",
    "x = torch.ones(2); print(f'{x.sum():.3f}', str(torch.tensor(1.5)))",
    "print(torch.tensor([0.1, 0.2]) + torch.tensor([0.2, 0.1]))",
    "print(torch.tensor([1, 2]).dtype.is_floating_point, torch.float32.is_floating_point)",
    "x = torch.ones(2, requires_grad=True); y = x * 2; print(y.grad_fn.next_functions[0][0])",
    "print(torch.arange(5), torch.arange(0, 1, 0.25))",
    "print(torch.linspace(0, 1, 3), torch.eye(2))",
    "x = torch.ones(2, requires_grad=True); print(type(x.exp().grad_fn))",
    "x = torch.ones(2, requires_grad=True); f = type((x * 2).grad_fn); print(f.__name__, f.__qualname__)",
    "x = torch.ones(2, requires_grad=True); print(type(x.sum().grad_fn.next_functions[0][0]))",
    "print(torch.ones(2).type(torch.float64), torch.ones(2).type('torch.LongTensor'))",
    "print(torch.ones(2).type(torch.IntTensor))",
    "print(torch.Tensor, torch.FloatTensor, torch.LongTensor)",
    "print(isinstance(torch.ones(2), torch.FloatTensor), isinstance(torch.ones(2), torch.LongTensor))",
    "print(type(torch.LongTensor([1])), torch.tensor([1]).type())",
    "print(torch.ones(2, dtype=torch.float16).type(), torch.ones(2, dtype=torch.uint8).type())",
    "print(type(torch.ones(2).shape), type(torch.float32), type(torch.device('cpu')))",
    'x = torch.ones(2, requires_grad=True); y = x.view(2, 1); print(y.grad_fn, y.grad_fn.name())',
    'x = torch.ones(2, 2, requires_grad=True); print(x.t().grad_fn.name(), x[0].grad_fn.name(), x[:, 1].grad_fn.name())',
    'x = torch.ones(2, requires_grad=True); print((x + 1).grad_fn.name(), (1 - x).grad_fn.name(), (x / 2).grad_fn.name())',
    'x = torch.ones(2, requires_grad=True); print(x.pow(2).grad_fn.name(), (2 ** x).grad_fn.name(), (x ** x).grad_fn.name())',
    'x = torch.ones(2, requires_grad=True); print(x.clamp(0, 1).grad_fn.name(), x.clamp(min=torch.zeros(2)).grad_fn.name())',
    'x = torch.ones(2, requires_grad=True); print(x.max().grad_fn.name(), x.max(0)[0].grad_fn.name(), x.prod().grad_fn.name())',
    'x = torch.ones(2, requires_grad=True); print(x.double().grad_fn.name(), x.clone().grad_fn.name())',
    'x = torch.ones(2, requires_grad=True); y = x.clone(); y[0] = 3; print(y.grad_fn.name())',
    'x = torch.ones(2, requires_grad=True); print(x.unsqueeze(0).grad_fn.name(), x.expand(3, 2).grad_fn.name())',
    'print(torch.tensor([1e10, 1.]), torch.tensor([1e-10, 1.]))',
    'print(torch.tensor([[1, 2], [3, 4]], dtype=torch.int16))',
    'print(torch.zeros(2, 0), torch.ones(1, 1, 1))',
    'print(torch.tensor(True), torch.tensor(-3), torch.tensor(2.5, dtype=torch.float64))',
    'x = torch.ones(2, requires_grad=True); y = x.mean(); print(y, y.grad_fn.name())',
    'x = torch.ones(2, 2, requires_grad=True); print(x.sum(0), x.mean(1, keepdim=True))',
    """x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    print(x * 2, x)""",
    'x = torch.tensor([0.1, 0.25, 1/3]); print(x, x.double())',
    'torch.set_printoptions(precision=2); print(torch.tensor([1/3, 2/3])); torch.set_printoptions(precision=4)',
    'print(torch.tensor([123456789.0, 1.0]), torch.tensor([1e-8, 1e8]))',
    'print(torch.arange(12).view(3, 4))',
    'print(torch.tensor([[0.5, -1.25], [3.0, 100.0]], requires_grad=True))',
    'x = torch.ones(2, requires_grad=True); print(x.detach(), x.data)',
    'x = torch.ones(2, 2, requires_grad=True); print(x.T.grad_fn, x.mT.grad_fn)',
    'x = torch.ones(3, requires_grad=True); print(x[[0, 1]].grad_fn, x[x > 0].grad_fn)',
    'x = torch.ones(3, requires_grad=True); print(x.reshape(3, 1).grad_fn, x.flatten().grad_fn)',
    'x = torch.ones(3, requires_grad=True); print(x.squeeze().grad_fn, x.unsqueeze(1).squeeze(1).grad_fn)',
    'x = torch.ones(3, requires_grad=True); print(torch.cat([x, x]).grad_fn.next_functions)',
    'x = torch.ones(3, requires_grad=True); y = x * 2; print(y.grad_fn.next_functions, y.grad_fn.next_functions[0][0].variable)',
    'x = torch.ones(3, requires_grad=True); y = 2 * x; print(y.grad_fn.next_functions)',
    'print(torch.float64, torch.double, torch.long, torch.half == torch.float16)',
    'print(torch.get_default_dtype()); torch.set_default_dtype(torch.float64); print(torch.tensor([1.5]), torch.get_default_dtype())',
    'x = torch.ones(2, requires_grad=True); print(str(type(x.grad_fn)) if x.grad_fn else type(x.sum().grad_fn).__name__)',
    'print(type(torch.ones(2).sum().item()).__name__, type(torch.ones(2, dtype=torch.int64).sum().item()).__name__)',
    'print(repr(torch.Size([2, 3])), str(torch.Size([])), torch.Size([2]) == (2,))',
    'print(torch.ones(2).shape[0], type(torch.ones(2).shape[0]).__name__)',
    'print(torch.tensor([1.0, 2.0]).dtype, repr(torch.tensor([1.0]).dtype), str(torch.int32))',
    'print(torch.bool.is_floating_point, torch.int8.is_signed, torch.uint8.is_signed)',
    'print(torch.float32.itemsize, torch.float64.itemsize, torch.ones(2).element_size())',
    # held-out style probes (issue 13 audit)
    "print(repr(torch.float32), str(torch.int64), torch.bool, torch.float16, torch.uint8, torch.float64.is_floating_point, torch.int32.is_signed)",
    "print(torch.float, torch.double, torch.long, torch.int, torch.half, torch.float32 == torch.float, torch.get_default_dtype())",
    "print(torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1.], dtype=torch.float16), torch.tensor(True))",
    "print(torch.tensor([1e-8, 1.]), torch.tensor([1e10, 1.]), torch.tensor([123456.789]), torch.tensor([0.1, 0.25]), torch.tensor([float('nan'), float('inf'), -float('inf')]))",
    "print(torch.tensor([[1e-5, 2.]], requires_grad=True), torch.tensor(3.5, requires_grad=True) * 2)",
    "print(torch.arange(2000.), torch.zeros(3, 0, 2), torch.ones(1, 1, 1))",
    "print(torch.tensor([1.123456789], dtype=torch.float64), torch.tensor([1, -100000]), torch.tensor([[True, False]]))",
    "x = torch.ones(2, requires_grad=True); y = (x * 2).sum(); print(repr(y), str(y.grad_fn)[:22], y.grad_fn.name(), type(y.grad_fn).__name__)",
    "x = torch.ones(2, requires_grad=True); print(x.mean().grad_fn, x.pow(2).grad_fn, (x / 2).grad_fn, (2 / x).grad_fn, (x - 1).grad_fn, (1 - x).grad_fn, (-x).grad_fn)",
    "x = torch.ones(2, 2, requires_grad=True); print(x[0].grad_fn, x[:, 0].grad_fn, x[[0]].grad_fn, x.view(4).grad_fn, x.reshape(4).grad_fn, x.t().reshape(4).grad_fn, x.flatten().grad_fn)",
    "x = torch.ones(2, 2, requires_grad=True); print(x.sum(0).grad_fn, x.max().grad_fn, x.max(0)[0].grad_fn, x.amax(0).grad_fn, x.norm().grad_fn, x.std().grad_fn, x.exp().sum().grad_fn.next_functions)",
    "x = torch.ones(2, requires_grad=True); print(x.grad_fn, (x*1).grad_fn.next_functions[0][0], type((x*1).grad_fn.next_functions[0][0]).__name__, (x*1).grad_fn.next_functions[0][0].variable is x)",
    "print(type(torch.ones(2)).__name__, type(torch.ones(2)), torch.Tensor, isinstance(torch.ones(2), torch.Tensor), torch.ones(2).type(), torch.ones(2).long().type())",
    "print(torch.Size([2, 3]), repr(torch.Size([])), torch.ones(2, 3).size(), torch.ones(2, 3).size(1), torch.ones(2, 3).size(-1), torch.ones(2, 3).shape[-2:])",
    "print(torch.tensor([1., 2.]).tolist(), torch.tensor(2.5).item(), type(torch.tensor(2).item()).__name__, type(torch.tensor(True).item()).__name__, torch.tensor([[1, 2]]).tolist())",
    """print(f"{torch.tensor(2.5):.2f}", float(torch.tensor([2.5])), int(torch.tensor(3.9)), bool(torch.tensor([0.])))""",
    'f"{torch.tensor([2.5, 1.]):.2f}"',
    """print(torch.tensor(2.5).__format__(".3f"), "%.1f" % torch.tensor(2.5), round(torch.tensor(2.567).item(), 2))""",
    "torch.set_printoptions(precision=2); print(torch.tensor([1.23456, 2.])); torch.set_printoptions(precision=4)",
    "torch.set_printoptions(sci_mode=False); print(torch.tensor([1e-8, 1.])); torch.set_printoptions(sci_mode=None)",
    """x = torch.ones(2, requires_grad=True)
y = x.exp()
print(y.grad_fn._saved_result, y.grad_fn._saved_result is y, y.grad_fn._raw_saved_result)""",
    """x = torch.ones(2, requires_grad=True)
y = x * 3
print(y.grad_fn._saved_other, y.grad_fn._saved_self)""",
    """x = torch.ones(2, requires_grad=True)
y = (x * x.detach()).sum()
print(y.grad_fn.next_functions[0][0]._saved_self, y.grad_fn.next_functions[0][0]._saved_other)""",
    """x = torch.ones(2, requires_grad=True)
y = x.pow(3)
print(y.grad_fn._saved_exponent, y.grad_fn._saved_self)
y.sum().backward()
y.grad_fn._saved_self""",
    """x = torch.ones(2, 3, requires_grad=True)
y = x.sum(dim=1, keepdim=True)
print(y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, y.grad_fn._saved_self_sym_sizes)""",
    """x = torch.ones(2, requires_grad=True)
y = x.exp()
y.grad_fn._saved_foo""",
    """x = torch.ones(2, 3, requires_grad=True)
print(x.view(3, 2).grad_fn._saved_self_sym_sizes, x.transpose(0, 1).grad_fn._saved_dim0, x[:, 1:].grad_fn._saved_start, x[:, 1:].grad_fn._saved_end, x.unsqueeze(-1).grad_fn._saved_dim)""",
    """x = torch.ones(2, 3, requires_grad=True)
print(x.mean(1).grad_fn._saved_self_sym_numel, x.softmax(0).grad_fn._saved_dim, x.clamp(0, 1).grad_fn._saved_min, x.clamp(min=0).grad_fn._saved_min)""",
    """x = torch.ones(2, requires_grad=True)
for y in [x*3, x*3.5, 3*x, x*True, x/2, x/2.5, 2/x, x.mul(3), x+3, x-2, x**2, 2**x, torch.mul(x, 3), x.div(2.), x.double()*3, x * torch.tensor(3)]:
    f = y.grad_fn
    print(f.name(), [(n, getattr(f, n)) for n in dir(f) if n.startswith('_saved_')])""",
    """x = torch.ones(2, requires_grad=True)
y = x * 0.1
y.sum().backward()
print(x.grad, y.grad_fn._raw_saved_other)""",
    """x = torch.ones(2, requires_grad=True)
y = x / 3
y.sum().backward()
y.grad_fn._saved_other""",
    # held-out style probes (issue 13 audit)
    "print(torch.tensor([1e-4, 1e4]), torch.tensor([1e-5, 1e5]), torch.tensor([1.5e16]), torch.tensor([-0.]), torch.tensor([0.1, -0.]))",
    "print(torch.tensor([[1.123456, 22.5], [333.25, -4.]]), torch.tensor([1, 2**40]), torch.tensor([[[1.]]]).shape)",
    "print(torch.arange(12.).view(2, 2, 3), torch.tensor([]).view(0, 2), torch.tensor(-0.), torch.tensor(float('nan')))",
    "print(torch.randn(0), torch.full((2,), float('inf')), torch.tensor([1e-30]), torch.tensor([3.0e-45]), torch.tensor([65504.], dtype=torch.float16))",
    "torch.set_printoptions(linewidth=30); print(torch.arange(20.)); torch.set_printoptions(linewidth=80)",
    "torch.set_printoptions(threshold=5); print(torch.arange(10.), torch.arange(100).view(10, 10)); torch.set_printoptions(threshold=1000)",
    "torch.set_printoptions(edgeitems=1, threshold=3); print(torch.arange(10.)); torch.set_printoptions(edgeitems=3, threshold=1000)",
    """with torch.printoptions(precision=1):
    print(torch.tensor([1.25, 2.75]))
print(torch.tensor([1.25, 2.75]))""",
    """torch.set_printoptions(profile="short"); print(torch.tensor([1.23456789])); torch.set_printoptions(profile="default"); print(torch.tensor([1.23456789]))""",
    "print(torch.tensor([1.5]).__repr__(), str(torch.tensor(2)), repr(torch.tensor([True, False], requires_grad=False)))",
    "x = torch.tensor([1., 2.], requires_grad=True); print(x * 1, x.sum(), x[0], x.mean(), x.view(1, 2))",
    "print(torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True) * 2)",
    "print(torch.zeros(2, dtype=torch.int8), torch.zeros(2, dtype=torch.uint8), torch.zeros(2, dtype=torch.int16), torch.ones(1, dtype=torch.float16) / 3)",
    "print(torch.tensor([0.1 + 0.2]), torch.tensor([0.1 + 0.2], dtype=torch.float64), torch.tensor([1/3], dtype=torch.float64))",
    "print(torch.float32, type(torch.float32).__name__, torch.float32.itemsize if hasattr(torch.float32, 'itemsize') else '', torch.finfo(torch.float32).eps if hasattr(torch, 'finfo') else '')",
    "print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).max, torch.iinfo(torch.int32).max, torch.finfo(torch.float16).tiny)",
    "print(torch.ones(2, 3).element_size(), torch.ones(2, 3).nbytes if hasattr(torch.ones(1), 'nbytes') else '', torch.ones(2, 3, dtype=torch.float64).itemsize if hasattr(torch.ones(1), 'itemsize') else '')",
    "x = torch.ones(2, 3); print(x.ndim, x.dim(), x.numel(), x.nelement(), len(x), x.size(), x.stride(), x.storage_offset(), x[1].storage_offset(), x.data_ptr() == x.view(6).data_ptr())",
    "x = torch.arange(6.).view(2, 3); print(x.t().contiguous().stride(), x.t().is_contiguous(), x[:, 1].stride(), x.expand(4, 2, 3).stride())",
    "x = torch.arange(6.); x.view(-1, -1)",
    "x = torch.arange(6.); x.view(4, -1)",
    "x = torch.arange(6.); x.reshape(2, 4)",
    "print(torch.cat([torch.ones(2), torch.zeros(0)]), torch.cat([torch.ones(1, 2), torch.zeros(1, 2)], 0), torch.stack([torch.ones(2), torch.zeros(2)], 1))",
    "torch.cat([torch.ones(2, 2), torch.ones(3)])",
    "print(torch.cat([torch.ones(2), torch.ones(2, dtype=torch.int64)]).dtype, torch.cat([torch.ones(2, dtype=torch.int32), torch.ones(1, dtype=torch.bool)]).dtype, torch.stack([torch.ones(1), torch.ones(1, dtype=torch.float64)]).dtype)",
    "print(torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]), torch.tensor([3., 4.])), torch.where(torch.tensor([1., -1.]) > 0, 1., 0.), torch.where(torch.tensor([True, False])))",
    "x = torch.tensor([1., -2.], requires_grad=True); y = torch.where(x > 0, x, x * 0.1); y.sum().backward(); print(y, x.grad, y.grad_fn)",
    "print(torch.eye(3), torch.eye(2, 3), torch.full((2, 2), 7), torch.full((2,), 1.5).dtype, torch.full((2,), True).dtype, torch.zeros_like(torch.ones(2, dtype=torch.int32)).dtype)",
    "print(torch.ones(2, 3).new_ones(2) if hasattr(torch.ones(1), 'new_ones') else '', torch.ones(2, 3).new_zeros((1, 2)), torch.ones(2).new_tensor([1, 2]) if hasattr(torch.ones(1), 'new_tensor') else '', torch.ones(2).new_full((2,), 3.) if hasattr(torch.ones(1), 'new_full') else '')",
    "x = torch.ones(2, 3); print(x.new_empty(2).shape if hasattr(x, 'new_empty') else '', x.type(torch.int64) if False else '', x.to(dtype=torch.int32).dtype)",
    "print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).max, torch.iinfo(torch.int32).max, torch.finfo(torch.float16).tiny, torch.finfo(), torch.iinfo(torch.int64), torch.finfo(torch.float16).bits, torch.iinfo(torch.uint8).min, torch.finfo(torch.float32).dtype)",
    "torch.finfo(torch.int32)",
    "torch.iinfo(torch.float32)",
    "torch.iinfo(torch.bool)",
    "print(torch.ones(2, 3).element_size(), torch.ones(2, 3).nbytes, torch.ones(2, 3, dtype=torch.float64).itemsize, torch.ones(3)[1:].nbytes)",
    "x = torch.ones(2, 3); print(x.ndim, x.dim(), x.numel(), x.nelement(), len(x), x.size(), x.stride(), x.storage_offset(), x[1].storage_offset(), x[:, 2].storage_offset(), x.t()[2].storage_offset(), x.data_ptr() == x.view(6).data_ptr())",
    "print(torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]), torch.tensor([3., 4.])), torch.where(torch.tensor([1., -1.]) > 0, 1., 0.), torch.where(torch.tensor([True, False])), torch.where(torch.tensor([[0, 1], [1, 1]]) > 0))",
    "torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]))",
    "x = torch.ones(2, 3); print(x.new_ones(2), x.new_ones((1, 2), dtype=torch.int64), x.new_full((2,), 3), x.new_tensor([1, 2]), x.new_empty(2).shape, x.long().new_full((1,), 2.7), x.new_ones(2, requires_grad=True))",
    "x = torch.ones(2, 3); print(x.new_tensor(torch.tensor([1, 2])), x.new_tensor(x, requires_grad=True).requires_grad)",
    'x = torch.ones(2, requires_grad=True); print(dir((x * 2).grad_fn))',
    # what dir() shows of a node, and the gradient shapes it takes in (_input_metadata)
    """x = torch.ones(2, 3, requires_grad=True); y = x.exp() * torch.ones(4, 1, 3)
for t in (y, y.sum(), x[0], x.t(), y.max(0)[0], x.split(2, 1)[1], x.half()):
    fn = t.grad_fn
    print(fn.name(), fn.requires_grad, [a for a in dir(fn) if not a.startswith('__')],
          [(m.shape, m.dtype, m.device, m.is_nested_tensor, m.is_cpp_nested_tensor) for m in fn._input_metadata])
acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
print(acc.name(), [a for a in dir(acc) if not a.startswith('__')], acc._input_metadata[0].shape, acc.requires_grad)
z = x.clone(); z.mul_(2); print(z.grad_fn._input_metadata[0].shape)
v = x.clone()[0]; v.add_(1); print(v.grad_fn.name(), v.grad_fn._input_metadata[0].shape)""",
    """x = torch.ones(2, requires_grad=True); fn = (x * 2).grad_fn
n = fn._sequence_nr(); fn._set_sequence_nr(n + 5); print(fn._sequence_nr() - n)
print((x * 2).grad_fn.next_functions[0][0]._sequence_nr())
try:
    fn._set_sequence_nr(1.5)
except TypeError as e:
    print(type(e).__name__)
try:
    fn.requires_grad = False
except AttributeError as e:
    print(e)""",
]

KNOWN = {
    'x = torch.ones(2, requires_grad=True); print(type(x.exp().grad_fn).__module__)':
        "node classes keep their Python module (inspect.getsource prints them in lessons); torch's are C++ classes, so their __module__ is builtins",
}
