"""Higher-order gradients: with ``create_graph=True`` a gradient is a graph, so it can be
differentiated again. Second (and third) derivatives and Hessian-vector products must equal
torch's on random inputs."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from tests.torch_compare import assert_close, pair

# Unary steps, each defined on all reals, composed at random into a function.
UNARY = {
    "sin": lambda x: x.sin(),
    "cos": lambda x: x.cos(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "exp_small": lambda x: (x * 0.5).exp(),
    "square": lambda x: x * x,
    "cube": lambda x: x ** 3,
    "log1p_sq": lambda x: (x * x + 1).log(),
    "sqrt1p_sq": lambda x: (x * x + 1).sqrt(),
    "recip": lambda x: (x * x + 1).reciprocal(),
    "div": lambda x: x / (x * x + 2),
    "softplusish": lambda x: (x.exp() + 1).log(),
    "neg_sub": lambda x: 1 - x * 2,
    "rpow": lambda x: 1.5 ** x,
}
# Binary steps mixing the two inputs (x of shape (3,), w of shape (3,) or (3, 3)).
BINARY = {
    "mul": lambda a, b: a * b,
    "add_alpha": lambda a, b: a.add(b, alpha=-0.5),
    "pow_tensor": lambda a, b: (a * a + 1) ** (b.tanh()),
    "where": None,  # needs the library: lib.where(a > b, a, b * b), see _compose
}

vec = hnp.arrays(np.float64, 3, elements=st.floats(-1.5, 1.5))
steps = st.lists(st.sampled_from(sorted(UNARY)), min_size=1, max_size=4)


def _inner(names, binary, lib, x, w):
    h = x
    for name in names:
        h = UNARY[name](h)
    return BINARY[binary](h, w) if binary != "where" else lib.where(h > w, h, w * w)


def _compose(names, binary):
    def f(lib, x, w):
        h = _inner(names, binary, lib, x, w)
        return (h * h.sin()).sum()

    return f


def _well_conditioned(names, binary, x, w) -> bool:
    """Is sin's argument moderate? Stacked cubes reach 1e9 and more, where sin turns a last-bit
    difference allowed in float64 (torch's sqrt and pow are MKL's and SLEEF's) into a 1e-5
    relative one (x = [-0.625, 0, 0], neg_sub then three cubes: 3.2e9): a test of the formulas
    keeps to arguments where 1e-9 relative can hold."""
    h = _inner(names, binary, torch, torch.tensor(x), torch.tensor(w))
    return bool(torch.isfinite(h).all()) and float(h.abs().max()) < 1e4


@settings(deadline=None, max_examples=30)
@given(x=vec, w=vec, v=vec, names=steps, binary=st.sampled_from(sorted(BINARY)))
def test_second_derivative_and_hvp(x, w, v, names, binary):
    assume(_well_conditioned(names, binary, x, w))
    f = _compose(names, binary)
    results = []
    for lib in (minigrad, torch):
        xt = lib.tensor(x, requires_grad=True)
        wt = lib.tensor(w, requires_grad=True)
        gx, gw = lib.autograd.grad(f(lib, xt, wt), (xt, wt), create_graph=True)
        vt = lib.tensor(v)
        hvp = lib.autograd.grad((gx * vt).sum() + (gw * vt).sum(), (xt, wt),
                                allow_unused=True)
        results.append((gx, gw, hvp))
    (mgx, mgw, mh), (tgx, tgw, th) = results
    assert_close(mgx, tgx, rtol=1e-9, atol=1e-11)
    assert_close(mgw, tgw, rtol=1e-9, atol=1e-11)
    for m, t in zip(mh, th):
        assert (m is None) == (t is None)
        if t is not None:
            assert_close(m, t, "hvp ", rtol=1e-9, atol=1e-11)


@settings(deadline=None, max_examples=15)
@given(x=hnp.arrays(np.float64, (2, 3), elements=st.floats(-1, 1)),
       w=hnp.arrays(np.float64, (3, 2), elements=st.floats(-1, 1)))
def test_double_backward_through_matrix_products_and_reductions(x, w):
    def f(lib, a, b):
        h = (a.mm(b)).tanh()
        return (h.sum(0) * h.mean(1, keepdim=True).t().expand(1, 2).sum(0)).sum() \
            + (a.t() @ a[:, 0]).pow(2).sum() + a.max() * b.min()

    hs = []
    for lib in (minigrad, torch):
        a = lib.tensor(x, requires_grad=True)
        b = lib.tensor(w, requires_grad=True)
        ga, gb = lib.autograd.grad(f(lib, a, b), (a, b), create_graph=True)
        hs.append(lib.autograd.grad(ga.pow(2).sum() + gb.sin().sum(), (a, b)))
    for m, t in zip(*hs):
        assert_close(m, t, rtol=1e-9, atol=1e-11)


def test_third_derivative_of_a_polynomial():
    m, t = pair([0.5, -1.0, 2.0], requires_grad=True)
    gm, gt = m, t
    for _ in range(3):
        (gm,) = minigrad.autograd.grad((gm ** 4 if gm is m else gm).sum(), m,
                                       create_graph=True)
        (gt,) = torch.autograd.grad((gt ** 4 if gt is t else gt).sum(), t, create_graph=True)
        assert_close(gm, gt)
        assert gm.requires_grad == gt.requires_grad


@pytest.mark.parametrize("use_inputs", [False, True])
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_backward_with_create_graph_makes_grad_differentiable(use_inputs):
    m, t = pair([0.3, -0.4], requires_grad=True)
    kw = {"inputs": [m]} if use_inputs else {}
    (m.sin() * m).sum().backward(create_graph=True, **kw)
    kw = {"inputs": [t]} if use_inputs else {}
    (t.sin() * t).sum().backward(create_graph=True, **kw)
    assert m.grad.requires_grad == t.grad.requires_grad is True
    (gm,) = minigrad.autograd.grad(m.grad.sum(), m)
    (gt,) = torch.autograd.grad(t.grad.sum(), t)
    assert_close(gm, gt)


def test_gradient_of_gradient_without_create_graph_is_a_constant():
    m, t = pair([0.3, -0.4], requires_grad=True)
    (gm,) = minigrad.autograd.grad((m ** 3).sum(), m)
    (gt,) = torch.autograd.grad((t ** 3).sum(), t)
    assert gm.requires_grad == gt.requires_grad is False


def test_hessian_vector_product_by_double_backward_equals_explicit_hessian():
    """The lesson's identity H v = d/dx (g . v), with torch as the oracle for H."""
    rng = np.random.default_rng(7)
    x, v = rng.normal(size=4), rng.normal(size=4)

    def loss(lib, a):
        return (a * a.exp()).sum() * a.tanh().sum()

    m = minigrad.tensor(x, requires_grad=True)
    (g,) = minigrad.autograd.grad(loss(minigrad, m), m, create_graph=True)
    (hv,) = minigrad.autograd.grad(g, m, minigrad.tensor(v))
    t = torch.tensor(x, requires_grad=True)
    h = torch.autograd.functional.hessian(lambda a: loss(torch, a), t)
    assert_close(hv, h @ torch.tensor(v))
