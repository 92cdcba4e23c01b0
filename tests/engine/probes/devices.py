# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Devices: a CPU-only torch has no CUDA; minigrad says so the same way."""

PROBES = [
    "print(torch.cuda.is_available())",
    "print(torch.cuda.device_count())",
    "torch.ones(2).cuda()",
    "torch.ones(2).to('cuda')",
    "torch.ones(2).to('cuda:0')",
    "torch.ones(2, device='cuda')",
    "d = torch.device('cuda'); print(d, repr(d), d.type)",
    "d = torch.device('cuda:1'); print(d, repr(d), d.type, d.index)",
    "d = torch.device('cpu'); print(d, repr(d), d.type, d.index)",
    "torch.ones(2).to(torch.device('cuda'))",
    "x = torch.ones(2); print(x.to('cpu') is x, x.cpu() is x, x.device)",
    "x = torch.ones(2); print(x.device == torch.device('cpu'), x.is_cuda)",
    "x = torch.ones(2); print(x.to('cpu', torch.float64))",
    "print(torch.device('cpu') == torch.device('cpu'), torch.device('cpu') == torch.device('cuda'))",
    "print(torch.ones(2, device='cpu'))",
    "torch.device('gpu')",
    "x = torch.ones(2, requires_grad=True); print(x.to(torch.float64))",
    "x = torch.ones(2, requires_grad=True); print(x.to('cpu') is x)",
    "print(torch.zeros(2, device=torch.device('cpu')).device)",
    "torch.tensor([1.], device='cuda')",
    'print(torch.cuda.is_available(), torch.ones(2).is_cuda)',
    "x = torch.ones(2); print(x.to(device='cpu').device)",
    "torch.ones(2).to(device='cuda')",
    "torch.zeros(2, device='cud')",
    "torch.device('cuda:x')",
    "print(torch.device('cuda', 0), repr(torch.device('cuda', 0)))",
    "print(torch.device('cpu') == 'cpu', str(torch.device('cpu')) == 'cpu')",
    "torch.ones(2).to('cuda', non_blocking=True)",
    "device = 'cuda' if torch.cuda.is_available() else 'cpu'; x = torch.ones(2, device=device); print(x.device)",
    "print(torch.arange(3, device='cpu'), torch.full((2,), 1.5, device='cpu'))",
    "x = torch.ones(2); x.new_zeros(3, device='cuda')",
]

KNOWN = {}
