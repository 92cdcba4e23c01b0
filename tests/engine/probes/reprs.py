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
]

KNOWN = {}
