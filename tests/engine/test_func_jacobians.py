"""jacrev, jacfwd and hessian run batched, as torch.func's: the function is called once, the
vector-Jacobian products of all the basis rows go through one backward pass per chunk
(``vmap(vjp_fn)``), and jacfwd's basis goes through the forward rules as batched tangents.
Compared with torch at test time: values, shapes, nesting, chunk_size, has_aux, randomness,
errors, how often the function runs, how many backward passes run, and the graph of a
Jacobian computed from an input that requires grad."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.func
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
import minigrad.func
from minigrad.autograd import engine
from tests.engine.test_func import assert_tree_close
from tests.torch_compare import assert_same_error, graph_signature

SETTINGS = settings(deadline=None, max_examples=8)

# One-argument functions of a vector, each with some op whose backward or forward rule has no
# batching rule (prod, sort, cumprod, norm...), so that the per-sample fallbacks are exercised
# next to the batched rules.
OPS = {
    "sin_sum": lambda L, x: x.sin() * x.sum(),
    "tanh_matmul": lambda L, x: L.matmul(L.ones(3, x.shape[0], dtype=x.dtype) * 0.5, x).tanh(),
    "sigmoid_relu": lambda L, x: x.sigmoid() + (x * 2).relu(),
    "exp_cumsum": lambda L, x: (x * 0.3).exp().cumsum(0),
    "prod": lambda L, x: x.prod().reshape(1) * x,
    "cumprod": lambda L, x: x.cumprod(0),
    "sort": lambda L, x: x.sort().values * x,
    "norm": lambda L, x: x / x.norm(),
    "softmax": lambda L, x: L.softmax(x, 0) * x,
    "logsumexp": lambda L, x: L.logsumexp(x, 0) * x.cos(),
    "max": lambda L, x: x.max() * x,
    "slice_cat": lambda L, x: L.cat([x[1:], x[:1] * 3]) * x,
    "pow_atan2": lambda L, x: L.atan2(x.pow(3), x.exp()),
    "where": lambda L, x: L.where(x > 0, x * x, x.sin()),
}


def vectors(n):
    return hnp.arrays(np.float64, (n,), elements=st.floats(-1.5, 1.5).filter(
        lambda v: abs(v) > 1e-3))


@st.composite
def op_cases(draw):
    n = draw(st.integers(1, 5))
    return draw(st.sampled_from(sorted(OPS))), draw(vectors(n))


def both(make, x):
    """``make(L, F, x)`` on both engines (F is L.func), x as a float64 tensor of each."""
    return {L: make(L, L.func, L.tensor(x.copy())) for L in (minigrad, torch)}


def compare(make, x):
    out = both(make, x)
    assert_tree_close(out[minigrad], out[torch])


# --- values, shapes, nesting ------------------------------------------------------------------

@SETTINGS
@given(case=op_cases())
def test_jacobians_and_hessians_of_ops(case):
    """jacrev, jacfwd, hessian and their compositions, over ops with and without rules."""
    name, x = case
    op = OPS[name]

    def make(L, F, x):
        f = lambda x: op(L, x)  # noqa: E731
        scalar = lambda x: op(L, x).sum()  # noqa: E731
        return (F.jacrev(f)(x), F.jacfwd(f)(x), F.hessian(scalar)(x),
                F.jacrev(F.jacrev(scalar))(x), F.jacfwd(F.jacfwd(scalar))(x))
    compare(make, x)


@pytest.mark.parametrize("chunk_size", [None, 1, 2, 3, 7, 100])
@SETTINGS
@given(case=op_cases())
def test_jacrev_chunk_size(chunk_size, case):
    """Chunks of the basis give the Jacobian torch's chunks give (1: a plain loop)."""
    name, x = case
    op = OPS[name]

    def make(L, F, x):
        def f(x, y):
            return {"a": op(L, x) * y.sum(), "b": (op(L, y).sum(), x * y)}
        return F.jacrev(f, argnums=(0, 1), chunk_size=chunk_size)(x, x.flip(0) + 1)
    compare(make, x)


@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1, 0), -1])
def test_argnums_and_pytree_inputs(argnums):
    x = np.array([0.3, -1.2, 0.7])

    def make(L, F, x):
        def f(x, y):
            return (x * y[0]).sin() + y[1].exp().sum(), (x * x).sum()
        y = (x.cos(), x[:2] * 2)
        # (torch's jacfwd does not wrap a negative argnums when it passes the duals in: its
        # function sees no tangent, a Jacobian of zeros; minigrad differentiates)
        if argnums == -1:
            return F.jacrev(f, argnums=argnums)(x, y)
        return (F.jacrev(f, argnums=argnums)(x, y), F.jacfwd(f, argnums=argnums)(x, y))
    compare(make, x)


def test_has_aux():
    x = np.array([0.3, -1.2, 0.7])

    def make(L, F, x):
        def f(x):
            return x.sin() * x, {"sum": x.sum(), "pair": (x * 2, x.exp())}
        return (F.jacrev(f, has_aux=True)(x), F.jacrev(f, has_aux=True, chunk_size=1)(x),
                F.jacfwd(f, has_aux=True)(x))
    compare(make, x)


def test_scalar_and_empty():
    x = np.array([0.3, -1.2, 0.7])

    def make(L, F, x):
        s = x[0]
        return (F.jacrev(lambda s: s * s.sin())(s), F.jacfwd(lambda s: s.exp() * 2)(s),
                F.hessian(lambda s: s.sin() * s)(s), F.jacrev(lambda x: x[:0])(x),
                F.jacfwd(lambda x: x[:0] * 2)(x), F.jacrev(lambda x: x.sum(), chunk_size=1)(x))
    compare(make, x)


def test_float32_predict_as_the_tutorial():
    """The tutorial's ``F.linear(x, w, b).tanh()``, float32: torch's values within
    assert_close's defaults."""
    rng = np.random.default_rng(0)
    w, b, x = (rng.standard_normal(s).astype(np.float32) for s in ((8, 40), (8,), (40,)))
    out = {}
    for L in (minigrad, torch):
        F = L.func
        def predict(w, b, x, L=L):
            return L.nn.functional.linear(x, w, b).tanh()
        args = (L.tensor(w), L.tensor(b), L.tensor(x))
        out[L] = (F.jacrev(predict, argnums=2)(*args), F.jacfwd(predict, argnums=2)(*args),
                  F.hessian(predict, argnums=2)(*args),
                  F.jacrev(predict, argnums=(0, 1))(*args))
    assert_tree_close(out[minigrad], out[torch])


# --- graphs -------------------------------------------------------------------------------

# How many nodes from the top agree: the Jacobian's assembly (view, split, the vmap's permute)
# and the products' nodes. Below them the graphs part: minigrad reaches an input that requires
# grad through a ``view_as`` of it (Level.wrap), jacfwd's duals through views where torch has
# AliasBackward0 nodes.
TOP = {"jacrev": 8, "jacrev_chunks": 8, "jacfwd": 4}
JACOBIANS = {"jacrev": lambda F, f, x: F.jacrev(f)(x), "jacfwd": lambda F, f, x: F.jacfwd(f)(x),
             "jacrev_chunks": lambda F, f, x: F.jacrev(f, chunk_size=2)(x)}


@pytest.mark.parametrize("transform", sorted(TOP))
def test_graph_of_a_jacobian_of_an_input_that_requires_grad(transform):
    """The Jacobian keeps a graph back to an input that requires grad: torch's nodes at the
    top (a stacked loop of vjps had StackBackward0 there), and torch's values."""
    signatures = {}
    for L in (minigrad, torch):
        x = L.tensor([0.3, -1.2, 0.7], dtype=L.float64, requires_grad=True)
        jac = JACOBIANS[transform](L.func, lambda x: x.sin() * x.sum(), x)
        names = [name for name, _ in graph_signature(jac.grad_fn)]
        signatures[L] = (names[:TOP[transform]], jac.detach().numpy().tolist())
    assert signatures[minigrad] == signatures[torch]


def test_results_have_no_graph_at_the_top_level():
    """vmap(vjp_fn) over the basis (the tutorial's second cell): no grad_fn, as torch's."""
    results = {}
    for L in (minigrad, torch):
        F = L.func
        x = L.tensor([0.3, -1.2, 0.7])
        _, vjp_fn = F.vjp(lambda x: x.tanh() * 2, x)
        (rows,) = F.vmap(vjp_fn)(L.eye(3))
        results[L] = (rows, F.jacrev(lambda x: x.tanh())(x), F.hessian(lambda x: x.tanh().sum())(x))
    assert_tree_close(results[minigrad], results[torch])
    assert all(r.grad_fn is None for r in results[minigrad])


# --- how often the function and the backward run ----------------------------------------------

def count_calls(L, transform):
    calls = []

    def f(x):
        calls.append(1)
        return x.tanh() * x.sum()
    x = L.tensor([0.3, -1.2, 0.7, 2.0])
    F = L.func
    {"jacrev": lambda: F.jacrev(f)(x), "jacrev_chunks": lambda: F.jacrev(f, chunk_size=3)(x),
     "jacrev_loop": lambda: F.jacrev(f, chunk_size=1)(x), "jacfwd": lambda: F.jacfwd(f)(x),
     "hessian": lambda: F.hessian(lambda x: f(x).sum())(x),
     "jacrev_jacrev": lambda: F.jacrev(F.jacrev(lambda x: f(x).sum()))(x)}[transform]()
    return len(calls)


@pytest.mark.parametrize("transform", ["jacrev", "jacrev_chunks", "jacrev_loop", "jacfwd",
                                       "hessian", "jacrev_jacrev"])
def test_the_function_runs_as_often_as_in_torch(transform):
    assert count_calls(minigrad, transform) == count_calls(torch, transform) == 1


@pytest.mark.parametrize("chunk_size", [None, 1, 3, 4, 10])
def test_one_backward_pass_per_chunk(chunk_size, monkeypatch):
    """The vjps of a chunk of basis rows run as one backward pass (batched gradients), as
    torch's vmap of the engine does; chunk_size=1 runs one pass per row."""
    passes = []
    execute = engine.execute

    def counted(task):
        passes.append(task)
        return execute(task)
    monkeypatch.setattr(engine, "execute", counted)
    x = minigrad.tensor([0.3, -1.2, 0.7, 2.0, 0.1, -0.4, 1.1])
    w = minigrad.ones(10, 7) * 0.1
    jac = minigrad.func.jacrev(lambda x: minigrad.nn.functional.linear(x, w).tanh(),
                               chunk_size=chunk_size)(x)
    assert jac.shape == (10, 7)
    assert len(passes) == math.ceil(10 / (chunk_size or 10))


# --- randomness and errors ----------------------------------------------------------------------

def test_jacfwd_randomness():
    """'error' refuses a random draw (torch's message); 'same' gives every basis direction the
    same numbers, so the Jacobian of ``x * noise`` is diag(noise), as torch's."""
    assert_same_error(lambda: minigrad.func.jacfwd(lambda x: x * minigrad.rand(3))(
                          minigrad.ones(3)),
                      lambda: torch.func.jacfwd(lambda x: x * torch.rand(3))(torch.ones(3)))
    out = {}
    for L in (minigrad, torch):
        L.manual_seed(0)
        jac = L.func.jacfwd(lambda x, L=L: x * L.rand(3), randomness="same")(L.ones(3))
        L.manual_seed(0)
        out[L] = (jac, L.diag(L.rand(3)))
    assert_tree_close(out[minigrad], out[torch])
    assert (out[minigrad][0] == out[minigrad][1]).all()


ERRORS = {
    "chunk_size_zero": lambda L: L.func.jacrev(lambda x: x, chunk_size=0),
    "non_tensor_output": lambda L: L.func.jacrev(lambda x: 3.0)(L.ones(2)),
    "aux_not_a_pair": lambda L: L.func.jacrev(lambda x: x, has_aux=True)(L.ones(2)),
    "jacfwd_aux_not_a_pair": lambda L: L.func.jacfwd(lambda x: x, has_aux=True)(L.ones(2)),
    "integer_output": lambda L: L.func.jacrev(lambda x: (x > 0).long())(L.ones(2)),
    "argnums_out_of_range": lambda L: L.func.jacrev(lambda x: x, argnums=3)(L.ones(2)),
    "jacfwd_argnums_repeated": lambda L: L.func.jacfwd(lambda x, y: x, argnums=(0, 0))(
        L.ones(2), L.ones(2)),
    "non_tensor_input": lambda L: L.func.jacrev(lambda x: x)(3.0),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    assert_same_error(lambda: ERRORS[name](minigrad), lambda: ERRORS[name](torch))
