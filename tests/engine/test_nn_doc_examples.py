"""What running the ``>>>`` examples of torch's nn and optim docstrings on minigrad turned up
(a red-team sweep, issue s40): each snippet runs on both engines through the probe runner
(``tests/engine/test_probes.run``), and what it prints, raises and warns must be torch's.

* ``copy.deepcopy`` of a Parameter is a new Parameter around a copy of the data and nothing
  else: ``AveragedModel(model)`` (torch.optim.swa_utils' example), which deep-copies a trained
  model, starts with no gradients (a plain tensor's deepcopy keeps its gradient).
"""

from __future__ import annotations

import pytest

from tests.engine.test_probes import run

SNIPPETS = [
    # deepcopy: the gradient and attributes stay with the original Parameter
    "import copy\np = torch.nn.Parameter(torch.ones(2))\n(p * 3).sum().backward()\np.tag = 1\n"
    "q = copy.deepcopy(p)\nprint(q, q.grad, hasattr(q, 'tag'), q._version, q.is_leaf, q is p)",
    "import copy\nm = torch.nn.Linear(2, 2)\nm(torch.ones(1, 2)).sum().backward()\n"
    "m2 = copy.deepcopy(m)\nprint(m2.weight.grad, m2.bias.grad, m.bias.grad)\n"
    "print(m2.weight.data_ptr() != m.weight.data_ptr(), torch.equal(m2.weight, m.weight))",
    "import copy\np = torch.nn.Parameter(torch.ones(2, dtype=torch.float64), requires_grad=False)\n"
    "c = copy.deepcopy([p, p])\nprint(c[0], c[0] is c[1], type(c[0]).__name__)",
    # swa_utils' AveragedModel example, after training (the model's copy has no gradients)
    "torch.manual_seed(0)\n"
    "model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Linear(3, 1))\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "swa = torch.optim.swa_utils.AveragedModel(model)\n"
    "for i in range(3):\n    opt.zero_grad()\n"
    "    model(torch.randn(5, 4)).pow(2).mean().backward()\n"
    "    opt.step()\n    swa.update_parameters(model)\n"
    "ema = torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=torch.optim.swa_utils."
    "get_ema_multi_avg_fn(0.9), use_buffers=True)\n"
    "print([p.grad for p in swa.parameters()], [p.grad for p in ema.parameters()])\n"
    "print(swa.n_averaged, list(swa.parameters())[0])",
]


@pytest.mark.parametrize("code", SNIPPETS, ids=range(len(SNIPPETS)))
def test_as_torch(code):
    assert run(code, "minigrad") == run(code, "torch")
