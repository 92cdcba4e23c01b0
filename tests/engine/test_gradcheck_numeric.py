"""Every backward formula against a float64 central difference, like ``torch.autograd.gradcheck``.

For an op ``f`` and a random upstream gradient ``v``, the analytic gradient of
``L(x) = sum(f(x) * v)`` from minigrad's backward must match ``(L(x + h e) - L(x - h e)) / 2h``
for every input element ``e``. Inputs are drawn away from kinks (``abs`` and ``relu`` at 0,
``max`` ties, ``log`` and ``sqrt`` near 0). The same is then done one level up: the gradient
built with ``create_graph=True`` is differentiated again and checked the same way.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, mutually_broadcastable_shapes

import minigrad

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

EPS = 1e-6
ATOL, RTOL = 1e-6, 1e-5  # torch.autograd.gradcheck uses atol=1e-5, rtol=1e-3
SETTINGS = settings(deadline=None, max_examples=10)
seeds = st.integers(0, 2**32 - 1)


def _values(rng, shape, kind):
    x = rng.standard_normal(shape)
    if kind == "positive":
        x = np.abs(x) + 0.5
    elif kind == "nonzero":
        x = np.sign(x) * (np.abs(x) + 0.3) + (x == 0)
    return np.array(x, dtype=np.float64)  # an array even for shape ()


def _scalar_fn(fn, v):
    """``L(*arrays) = sum(fn(*tensors) * v)``, evaluated on plain arrays without autograd."""
    def L(*arrays):
        with minigrad.no_grad():
            out = fn(*(minigrad.tensor(a) for a in arrays))
        return float((out._data * v).sum())

    return L


def numeric_grads(L, arrays):
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[k][idx] += EPS
            minus[k][idx] -= EPS
            g[idx] = (L(*plus) - L(*minus)) / (2 * EPS)
        grads.append(g)
    return grads


def check_gradient(fn, arrays, rng):
    """minigrad's backward for ``fn`` at ``arrays`` equals the central difference."""
    leaves = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    out = fn(*leaves)
    v = rng.standard_normal(out.shape)
    (out * minigrad.tensor(v)).sum().backward()
    expected = numeric_grads(_scalar_fn(fn, v), arrays)
    for i, (leaf, num) in enumerate(zip(leaves, expected)):
        assert leaf.grad is not None, f"input {i} got no gradient"
        np.testing.assert_allclose(leaf.grad._data, num, atol=ATOL, rtol=RTOL,
                                   err_msg=f"gradient of input {i}")


def check_second_order(fn, arrays, rng):
    """The gradient made with ``create_graph=True`` is itself differentiated correctly: the
    analytic ``d/dx <grad_x L, w>`` matches the central difference of ``<grad_x L, w>``."""
    v = rng.standard_normal(fn(*(minigrad.tensor(a) for a in arrays)).shape)
    ws = [rng.standard_normal(a.shape) for a in arrays]

    def first_order(*tensors):
        out = fn(*tensors)
        grads = minigrad.autograd.grad((out * minigrad.tensor(v)).sum(), tensors,
                                       create_graph=True, allow_unused=True)
        total = None
        for g, w in zip(grads, ws):
            if g is not None:
                term = (g * minigrad.tensor(w)).sum()
                total = term if total is None else total + term
        return total

    def G(*arrays_):
        tensors = [minigrad.tensor(a, requires_grad=True) for a in arrays_]
        total = first_order(*tensors)
        return 0.0 if total is None else float(total._data)

    leaves = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    total = first_order(*leaves)
    if total is None or not total.requires_grad:
        analytic = [np.zeros_like(a) for a in arrays]  # the gradient is constant in x
    else:
        grads = minigrad.autograd.grad(total, leaves, allow_unused=True)
        analytic = [np.zeros_like(a) if g is None else g._data for g, a in zip(grads, arrays)]
    expected = numeric_grads(G, arrays)
    for i, (a, num) in enumerate(zip(analytic, expected)):
        np.testing.assert_allclose(a, num, atol=1e-5, rtol=1e-4,
                                   err_msg=f"second derivative, input {i}")


# name -> (function of minigrad tensors, input kinds), shapes drawn per test
UNARY = {
    "neg": (lambda x: -x, "any"),
    "abs": (lambda x: x.abs(), "nonzero"),
    "exp": (lambda x: x.exp(), "any"),
    "log": (lambda x: x.log(), "positive"),
    "sqrt": (lambda x: x.sqrt(), "positive"),
    "sin": (lambda x: x.sin(), "any"),
    "cos": (lambda x: x.cos(), "any"),
    "tanh": (lambda x: x.tanh(), "any"),
    "sigmoid": (lambda x: x.sigmoid(), "any"),
    "relu": (lambda x: x.relu(), "nonzero"),
    "reciprocal": (lambda x: x.reciprocal(), "nonzero"),
    "pow_3": (lambda x: x ** 3, "any"),
    "pow_-1.5": (lambda x: x ** -1.5, "positive"),
    "pow_0.5": (lambda x: minigrad.pow(x, 0.5), "positive"),
    "pow_0": (lambda x: x ** 0, "any"),
    "rpow": (lambda x: 1.7 ** x, "any"),
    "rpow_neg_base": (lambda x: 0.5 ** x, "any"),
    "add_number": (lambda x: 2 + x, "any"),
    "rsub": (lambda x: 2 - x, "any"),
    "sub_number": (lambda x: x - 2.5, "any"),
    "mul_number": (lambda x: x * -3, "any"),
    "rdiv": (lambda x: 2 / x, "nonzero"),
    "div_number": (lambda x: x / 4, "any"),
    "clamp": (lambda x: x.clamp(-0.5, 0.5), "any"),
    "sum": (lambda x: x.sum(), "any"),
    "mean": (lambda x: x.mean(), "any"),
    "max": (lambda x: x.max(), "any"),
    "min": (lambda x: minigrad.min(x), "any"),
}
# ops whose gradient is piecewise constant or that have kinks: first order only, and clamp
# inputs near its bounds are moved away below
FIRST_ORDER_ONLY = {"clamp", "max", "min", "abs", "relu"}


@pytest.mark.parametrize("name", UNARY)
@SETTINGS
@given(shape=array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3), seed=seeds)
def test_unary_gradients(name, shape, seed):
    fn, kind = UNARY[name]
    rng = np.random.default_rng(seed)
    x = _values(rng, shape, kind)
    if name == "clamp":
        x = np.where(np.abs(np.abs(x) - 0.5) < 0.05, x + 0.2, x)
    check_gradient(fn, [x], rng)
    if name not in FIRST_ORDER_ONLY:
        check_second_order(fn, [x], rng)


BINARY = {
    "add": (lambda a, b: a + b, "any", "any"),
    "add_alpha": (lambda a, b: minigrad.add(a, b, alpha=-2), "any", "any"),
    "sub": (lambda a, b: a - b, "any", "any"),
    "sub_alpha": (lambda a, b: a.sub(b, alpha=0.5), "any", "any"),
    "mul": (lambda a, b: a * b, "any", "any"),
    "div": (lambda a, b: a / b, "any", "nonzero"),
    "pow": (lambda a, b: a ** b, "positive", "any"),
}


@pytest.mark.parametrize("name", BINARY)
@SETTINGS
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3), seed=seeds)
def test_binary_gradients_with_broadcasting(name, shapes, seed):
    fn, ka, kb = BINARY[name]
    rng = np.random.default_rng(seed)
    a, b = (_values(rng, s, k) for s, k in zip(shapes.input_shapes, (ka, kb)))
    check_gradient(fn, [a, b], rng)
    check_second_order(fn, [a, b], rng)


@st.composite
def shape_and_dim(draw):
    shape = draw(array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3))
    return shape, draw(st.integers(-len(shape), len(shape) - 1))


@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
@SETTINGS
@given(sd=shape_and_dim(), keepdim=st.booleans(), seed=seeds)
def test_reduction_dim_gradients(op, sd, keepdim, seed):
    shape, dim = sd
    rng = np.random.default_rng(seed)
    if op in ("sum", "mean"):
        def fn(x):
            return getattr(x, op)(dim, keepdim=keepdim)
    else:
        def fn(x):
            return getattr(x, op)(dim, keepdim=keepdim).values
    x = rng.permutation(np.arange(np.prod(shape), dtype=float)).reshape(shape) * 0.1  # no ties
    check_gradient(fn, [x + 0.01 * rng.standard_normal(shape)], rng)
    if op in ("sum", "mean"):
        check_second_order(fn, [x], rng)


def test_reduction_multiple_dims_gradients():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 2))
    for fn in (lambda t: t.sum((0, 2)), lambda t: t.mean((-1, 0), keepdim=True),
               lambda t: t.sum((1,), keepdim=True)):
        check_gradient(fn, [x], rng)
        check_second_order(fn, [x], rng)


LINALG = {
    "dot": (lambda a, b: a.dot(b), lambda n, k, m, b: ((k,), (k,))),
    "mm": (lambda a, b: a.mm(b), lambda n, k, m, b: ((n, k), (k, m))),
    "mv": (lambda a, b: a.mv(b), lambda n, k, m, b: ((n, k), (k,))),
    "matmul_vec_mat": (lambda a, b: a @ b, lambda n, k, m, b: ((k,), (k, m))),
    "matmul_batch_mat": (lambda a, b: a @ b, lambda n, k, m, b: ((b, n, k), (k, m))),
    "matmul_batch_vec": (lambda a, b: a @ b, lambda n, k, m, b: ((b, n, k), (k,))),
    "matmul_batch_batch": (lambda a, b: a @ b, lambda n, k, m, b: ((b, 1, n, k), (2, k, m))),
    "bmm": (lambda a, b: a.bmm(b), lambda n, k, m, b: ((b, n, k), (b, k, m))),
}


@pytest.mark.parametrize("name", LINALG)
@SETTINGS
@given(sizes=st.tuples(*[st.integers(1, 3)] * 4), seed=seeds)
def test_linalg_gradients(name, sizes, seed):
    fn, shapes = LINALG[name]
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(s) for s in shapes(*sizes)]
    check_gradient(fn, arrays, rng)
    check_second_order(fn, arrays, rng)


@SETTINGS
@given(shape=array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3),
       count=st.integers(1, 3), dim_seed=st.integers(0, 50), seed=seeds)
def test_cat_stack_gradients(shape, count, dim_seed, seed):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(shape) for _ in range(count)]
    cat_dim = dim_seed % len(shape)
    stack_dim = dim_seed % (len(shape) + 1)
    for fn in (lambda *ts: minigrad.cat(ts, cat_dim), lambda *ts: minigrad.stack(ts, stack_dim)):
        check_gradient(fn, arrays, rng)
        check_second_order(fn, arrays, rng)


def test_where_gradients():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3,))
    cond = minigrad.tensor(rng.random((2, 3)) > 0.5)
    check_gradient(lambda x, y: minigrad.where(cond, x, y), [a, b], rng)


def test_composite_graph_gradients():
    """A diamond with reuse: the chain rule through shared nodes, checked numerically."""
    rng = np.random.default_rng(2)

    def fn(x, w):
        h = (x @ w).tanh()
        return (h * h.sigmoid() + h.exp() / (1 + h * h)).sum(0) ** 2

    arrays = [rng.standard_normal((3, 2)), rng.standard_normal((2, 4))]
    check_gradient(fn, arrays, rng)
    check_second_order(fn, arrays, rng)
