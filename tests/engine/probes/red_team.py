# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""What three red-team helpers found in one round (issue 22): a learner's experiments off the
lessons' path, each once wrong in minigrad (a silent difference, an error torch does not give,
or torch's error worded otherwise)."""

PROBES = [
    # numbers beyond a dtype: inf silently where torch gives inf, torch's error where it refuses
    "print(torch.tensor([1e39]), torch.tensor([7e4], dtype=torch.float16), torch.tensor(1e39), torch.as_tensor([1e39]))",
    "print(torch.tensor([1e300], dtype=torch.float64).float(), torch.tensor([7e4]).half(), torch.zeros(2) * 1e39, torch.zeros(2, dtype=torch.float16) + 7e4)",
    "print(torch.zeros(2).new_tensor([1e39]), torch.full((2,), float('inf')), torch.full((2,), 1e300, dtype=torch.float64))",
    "torch.full((2,), 1e39)",
    "torch.full((2,), 7e4, dtype=torch.float16)",
    "torch.full((2,), 3.5e38)",
    "torch.zeros(2).fill_(1e39)",
    "torch.zeros(2, dtype=torch.float16).fill_(65519.0)",
    "torch.zeros(2).fill_(-1e39)",
    "x = torch.zeros(3); x[0] = 1e39",
    "torch.zeros(2).clamp(max=1e39)",
    "torch.zeros(2).masked_fill(torch.tensor([True, False]), 1e39)",
    "torch.full_like(torch.zeros(2), 1e39)",
    "print(torch.zeros(2).fill_(float('nan')), torch.full((1,), -float('inf')), torch.zeros(2).clamp(min=-3e38))",
    "print(torch.zeros(2, dtype=torch.float16).fill_(torch.tensor(1e10)), torch.zeros(2).fill_(torch.tensor(1e300, dtype=torch.float64)), torch.zeros(2, dtype=torch.int32).fill_(torch.tensor(1e10)))",
    # backward() and grad() with nothing to differentiate against
    "x = torch.ones(2, requires_grad=True); (x * 2).sum().backward(inputs=[])",
    "x = torch.ones(2, requires_grad=True); torch.autograd.backward((x * 2).sum(), inputs=())",
    "x = torch.ones(2, requires_grad=True); torch.autograd.grad((x * 2).sum(), [])",
    # Size takes ints (or what has __index__)
    "torch.Size([2.5])",
    "torch.Size([2, 'a'])",
    "print(torch.Size([torch.tensor(3), True, 4]), torch.Size(), torch.Size((1, 2)) + (3,))",
    # Python scalars from tensors
    "float(torch.ones(2))",
    "int(torch.ones(2))",
    "float(torch.ones(0))",
    "bool(torch.tensor([]))",
    "bool(torch.ones(0, 3))",
    "bool(torch.tensor([1.0, 2.0]))",
    "torch.nn.Parameter(torch.tensor([1, 2]))",
    # empty reductions
    "torch.tensor([]).argmax()",
    "torch.tensor([]).argmin()",
    "torch.ones(0, 3).argmax(0)",
    "torch.ones(0, 3).max(0)",
    "torch.ones(0, 3).min(dim=0)",
    "print(torch.ones(0, 3).argmax(1), torch.ones(2, 3).argmax(keepdim=True), torch.ones(2, 3).argmin(keepdim=True).shape)",
    # Python ints beyond int64
    "torch.tensor(2**63)",
    "torch.tensor([1, 2**64])",
    "torch.tensor(-2**63 - 1)",
    "print(torch.tensor(2**63 - 1), torch.tensor(2**63, dtype=torch.float32), torch.tensor([2**64], dtype=torch.float64))",
    # reshape of nothing with an inferred dim
    "torch.ones(0, 3).reshape(-1, 0)",
    "torch.ones(0, 3).view(0, -1)",
    "print(torch.ones(0, 3).reshape(-1, 3).shape, torch.ones(0, 3).reshape(0, 3, -1).shape)",
    # an index out of range names its place in the index
    "torch.ones(3, 2)[1, 2]",
    "torch.ones(3, 2, 4)[1, 1, 9]",
    "torch.ones(3, 2, 4)[..., 9]",
    "torch.ones(5, 3, 2, 4)[..., 1, 9]",
    "torch.ones(3, 2, 4)[None, 1, 7]",
    "torch.ones(5, 3, 2, 4)[:, None, 1, 9]",
    "x = torch.ones(5, 3, 2); x[0, 0, 5] = 1",
    # add and sub with alpha round once where torch's kernels fuse (SGD's update is one)
    "torch.manual_seed(0); a, b = torch.randn(1000), torch.randn(1000); print(a.add(b, alpha=-0.1).sum().item(), a.sub(b, alpha=0.3)[:8].tolist(), torch.add(a, 2.5, alpha=0.7)[:3].tolist())",
    "torch.manual_seed(0); a, b = torch.randn(100, dtype=torch.float64), torch.randn(100, dtype=torch.float64); c = a.clone(); c.add_(b, alpha=0.123); d = a.clone(); d.sub_(b, alpha=0.123); print(c.sum().item(), d.sum().item(), c[:3].tolist())",
    "p = torch.tensor([0.11984150856733322], requires_grad=True); p.grad = torch.tensor([1.5336730480194092]); torch.optim.SGD([p], lr=0.1).step(); print(p.item())",
    "torch.manual_seed(0); p = torch.nn.Parameter(torch.randn(1000)); p.grad = torch.randn(1000); opt = torch.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)\nfor _ in range(5): opt.step()\nprint(p[-5:].tolist(), (p * 1000).sum().item())",
]

KNOWN = {}

# add/sub with alpha: torch's AVX2 and AVX512 kernels fuse the multiply-add, its plain one does not
KERNEL_DEPENDENT = {code for code in PROBES if "alpha" in code or "SGD" in code}
