"""The graph of a gradient made with ``create_graph=True`` has torch's nodes, node for node.

torch's C++ backward formulas multiply by a number (``exponent * self.pow(exponent - 1)``,
``2 * result``, ``-2 * output``), which records ``MulBackward1`` (``mul.Scalar``), ``mean``'s
backward divides by the count (``DivBackward1``), and
``mv``'s backward builds ``grad.ger(vec)`` as ``grad.reshape(-1, 1) * vec``. Lesson 12 draws
and compares these graphs, so minigrad must record the same nodes, with the same saved values.
"""

from __future__ import annotations

import pytest
import torch

import minigrad
from tests.torch_compare import assert_close, graph_signature, saved_numbers, walk_graph

GRADIENTS = {
    "pow": lambda L, x: x ** 3,
    "pow_half": lambda L, x: (x * x + 1) ** 0.5,
    "sqrt": lambda L, x: (x * x + 1).sqrt(),
    "rpow": lambda L, x: 1.5 ** x,
    "tanh_twice": lambda L, x: x.tanh(),  # second order: TanhBackwardBackward0's backward
    "mv_matrix": lambda L, x: (x.reshape(2, 2) @ L.tensor([1.0, -2.0], dtype=L.float64)).tanh(),
    "mv_vector": lambda L, x: (L.tensor([[1.0, 2.0, 0.5, -1.0]], dtype=L.float64) @ x).tanh(),
    "mean": lambda L, x: x.mean() * x,
    "mean_dim": lambda L, x: x.reshape(2, 2).mean(1, keepdim=True).tanh(),
    "penalty": lambda L, x: ((x.reshape(2, 2) @ L.tensor([0.5, 1.5], dtype=L.float64)) + 0.5)
    .tanh() ** 2,
}


def _gradients(L, name):
    x = L.tensor([0.7, -1.3, 0.2, 2.1], dtype=L.float64, requires_grad=True)
    w = L.tensor([1.0, 2.0, -0.5, 3.0], dtype=L.float64)
    out = GRADIENTS[name](L, x)
    (g1,) = L.autograd.grad(out.sum(), x, create_graph=True)
    (g2,) = L.autograd.grad((g1 * w).sum(), x, create_graph=True)
    return g1, g2


@pytest.mark.parametrize("name", list(GRADIENTS))
def test_gradient_graph_has_torchs_nodes(name):
    """First and second derivatives: the same graph (node names and edges), the same values,
    and the same numbers saved by each MulBackward1 and DivBackward1."""
    m1, m2 = _gradients(minigrad, name)
    t1, t2 = _gradients(torch, name)
    for m, t in ((m1, t1), (m2, t2)):
        msig = [(n.replace("minigrad", "torch"), e) for n, e in graph_signature(m.grad_fn)]
        assert msig == graph_signature(t.grad_fn)
        assert_close(m, t)
        for mnode, tnode in zip(walk_graph(m.grad_fn), walk_graph(t.grad_fn), strict=True):
            assert saved_numbers(mnode) == saved_numbers(tnode), tnode.name()


def test_mul_backward1_is_differentiable_again():
    """Third order through pow: MulBackward1's own backward records MulBackward1."""
    res = {}
    for L in (torch, minigrad):
        x = L.tensor([0.5, -1.5], dtype=L.float64, requires_grad=True)
        (g1,) = L.autograd.grad((x ** 4).sum(), x, create_graph=True)
        (g2,) = L.autograd.grad(g1.sum(), x, create_graph=True)
        (g3,) = L.autograd.grad(g2.sum(), x, create_graph=True)
        res[L] = [n.replace("minigrad", "torch") for n, _ in graph_signature(g3.grad_fn)], g3
    assert res[minigrad][0] == res[torch][0]
    assert_close(res[minigrad][1], res[torch][1])
