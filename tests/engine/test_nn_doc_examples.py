"""What running the ``>>>`` examples of torch's nn and optim docstrings on minigrad turned up
(a red-team sweep, issue s40): each snippet runs on both engines through the probe runner
(``tests/engine/test_probes.run``), and what it prints, raises and warns must be torch's.

* ``copy.deepcopy`` of a Parameter is a new Parameter around a copy of the data and nothing
  else: ``AveragedModel(model)`` (torch.optim.swa_utils' example), which deep-copies a trained
  model, starts with no gradients (a plain tensor's deepcopy keeps its gradient);
* the dropout variants torch's dropout docstrings use (``Dropout1d/2d/3d``, ``AlphaDropout``,
  ``FeatureAlphaDropout``, their functions) and ``Softmax2d``: torch's numbers after the same
  seed, its graphs, warnings and errors;
* ``RMSNorm`` and ``F.rms_norm`` (normalization.py's example): torch's composite graph (the
  mean over the dims in torch's reversed order, ``AddBackward1``), float16 computed in
  float32, a weight of another dtype, eps's default, the once-per-process warning, errors.
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
    # the dropout variants: modules, their reprs, numbers, graphs and eval mode
    """torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5, requires_grad=True)
for m in [torch.nn.Dropout1d(0.3), torch.nn.Dropout2d(0.5), torch.nn.Dropout3d(0.2),
          torch.nn.AlphaDropout(0.2), torch.nn.FeatureAlphaDropout(0.4), torch.nn.Softmax2d()]:
    inp = x[0] if isinstance(m, torch.nn.Dropout1d) else x
    y = m(inp)
    y.sum().backward()
    print(m, y, type(y.grad_fn).__name__, x.grad.sum())
    x.grad = None
    m.eval()
    print(m(inp) is inp)""",
    # functions: training's default (False for the alpha ones), unbatched inputs, in place
    """torch.manual_seed(1)
F = torch.nn.functional
x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
print(F.alpha_dropout(x, 0.5) is x, F.feature_alpha_dropout(x, 0.5) is x)
print(F.alpha_dropout(x, 0.5, True), F.feature_alpha_dropout(x, 0.3, True))
print(F.dropout1d(torch.randn(3, 4), 0.5), F.dropout3d(torch.randn(2, 3, 2, 2), 0.5))
print(F.feature_alpha_dropout(x, 1.0, True), F.dropout2d(x, 0.0) is x)
z = torch.randn(3, 4)
print(F.dropout1d(z, 0.5, inplace=True) is z, z)
z = torch.randn(2, 3, 4, 5)
print(F.dropout2d(z, 0.5, inplace=True) is z, z)
z = torch.randn(3, 4)
print(F.alpha_dropout(z, 0.5, True, inplace=True) is z, z)
y = F.feature_alpha_dropout(x.clone(), 0.3, True, inplace=True)
print(y.grad_fn, y.grad_fn.next_functions)""",
    # torch's warnings: dropout2d/3d on inputs of other ranks
    "print(torch.nn.functional.dropout2d(torch.ones(3, 4, 2), 0.5).shape)",
    "print(torch.nn.functional.dropout2d(torch.ones(3, 4), 0.5).shape)",
    "print(torch.nn.functional.dropout3d(torch.ones(3, 4, 2), 0.5).shape)",
    # and errors
    "torch.nn.functional.dropout1d(torch.randn(3), 0.5)",
    "torch.nn.functional.dropout1d(torch.randn(2, 3, 4, 5), 0.5)",
    "torch.nn.Softmax2d()(torch.randn(2, 3))",
    "torch.nn.functional.feature_alpha_dropout(torch.randn(3), 0.5, True)",
    "torch.nn.functional.dropout2d(torch.randn(3), 0.5)",
    "print(torch.nn.functional.feature_alpha_dropout(torch.randn(3), 0.0, True))",
    "torch.nn.functional.alpha_dropout(torch.randn(3), 1.5, True)",
    "torch.nn.Dropout2d(-1)",
    "torch.nn.functional.alpha_dropout(torch.randn(3), 'a', True)",
    "torch.nn.functional.alpha_dropout(torch.randn(3), 0.5, 'yes')",
    # RMSNorm: module, graph, gradients, values
    """def walk(f, d=0):
    if f is not None:
        print(' ' * d + type(f).__name__, getattr(f, '_saved_dim', ''))
        for g, _ in f.next_functions:
            walk(g, d + 1)
torch.manual_seed(0)
x = torch.randn(2, 3, 4, requires_grad=True)
m = torch.nn.RMSNorm([3, 4])
y = m(x)
print(m, y)
walk(y.grad_fn)
y.sum().backward()
print(x.grad, m.weight.grad)
m2 = torch.nn.RMSNorm(4, eps=1e-3, elementwise_affine=False)
print(m2, m2(x), list(m2.parameters()), m2.state_dict())
print(torch.nn.functional.rms_norm(torch.randn(5, 7, dtype=torch.float64), (7,), eps=0.1))
with torch.no_grad():
    big = torch.randn(4, 300) * 10
    print(torch.nn.functional.rms_norm(big, (300,), torch.randn(300)).sum(),
          torch.nn.RMSNorm(300)(big)[:, :5])
print(torch.nn.functional.rms_norm(torch.randn(3, 300).requires_grad_(), [300],
                                   torch.randn(300)).abs().sum())
print(torch.nn.RMSNorm(4)(x.half()), torch.nn.RMSNorm(4, dtype=torch.float64)(x))
print(torch.nn.functional.rms_norm(x, [4], torch.ones(4, dtype=torch.float64)).dtype)
print(torch.nn.functional.rms_norm(x.double(), [4], torch.ones(4)).dtype)
print(torch.nn.functional.rms_norm(torch.zeros(2, 3), (3,)),
      torch.nn.functional.rms_norm(torch.zeros(2, 3), (3,), eps=0.0))""",
    # a strided input: torch makes the result contiguous (CloneBackward0) before the cast
    "torch.manual_seed(0)\nx = torch.randn(3, 4).half().t().requires_grad_()\n"
    "for w in (None, torch.ones(3, dtype=torch.float64)):\n"
    "    y = torch.nn.functional.rms_norm(x if w is None else x.float(), [3], w)\n"
    "    print(y, y.stride(), y.grad_fn, y.grad_fn.next_functions)",
    "torch.nn.functional.rms_norm(torch.randn(2, 3, 4), (3,))",
    "torch.nn.functional.rms_norm(torch.randn(2, 3, 4), (4,), torch.ones(3))",
    "torch.nn.functional.rms_norm(torch.ones(2, 4).long(), (4,))",
    "torch.nn.functional.rms_norm(torch.randn(2, 3, 4), ())",
    "torch.nn.functional.rms_norm(torch.randn(2, 3, 4), 4)",
    "torch.nn.functional.rms_norm(torch.randn(2, 3, 4), (4,), eps='a')",
]


@pytest.mark.parametrize("code", SNIPPETS, ids=range(len(SNIPPETS)))
def test_as_torch(code):
    assert run(code, "minigrad") == run(code, "torch")
