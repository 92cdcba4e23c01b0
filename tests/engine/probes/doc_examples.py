# ruff: noqa: E501 - snippets are kept as torch's docs write them, one per line
"""The ``>>>`` examples of torch's autograd docstrings (torch/autograd, torch.func,
torch.utils.checkpoint, Tensor's autograd methods), run under both engines by a red-team
sweep (issue s39): each snippet here is one that minigrad once got wrong, or a variation
of one that shows the rule behind it."""

PROBES = [
    # Tensor.register_post_accumulate_grad_hook's example: a hook may hand back the tensor it
    # got (add_ returns it); another tensor is checked like a tensor hook's result, then refused
    "v = torch.tensor([0., 0., 0.], requires_grad=True); lr = 0.01\nh = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))\nv.backward(torch.tensor([1., 2., 3.])); print(v); h.remove()",
    "v = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(lambda p: p); v.register_post_accumulate_grad_hook(lambda p: print('second', p.grad)); v.sum().backward()",
    "v = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(lambda p: p * 1); v.register_post_accumulate_grad_hook(lambda p: print('second', p)); v.sum().backward()",
    "v = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(lambda p: 5); v.sum().backward()",
    "def half(p):\n    return p[:2] * 1\nv = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(half); v.sum().backward()",
    "v = torch.zeros(3, requires_grad=True); v.register_post_accumulate_grad_hook(lambda p: p.double()); v.sum().backward()",
    "p = torch.nn.Parameter(torch.zeros(3)); p.register_post_accumulate_grad_hook(lambda p: p * 1); p.sum().backward()",
]

KNOWN = {}
