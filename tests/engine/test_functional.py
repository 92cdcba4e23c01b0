"""autograd.functional.jacobian (both strategies) and hessian against torch's."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from tests.torch_compare import assert_close, assert_same_error

FUNCS = {
    "pointwise": lambda L, x, y: x.sin() * y.exp(),
    "reduce_mix": lambda L, x, y: L.stack([(x * y).sum(), (x.tanh() / (y * y + 1)).mean()]),
    "matrix": lambda L, x, y: x.reshape(2, -1).t().mm(y.reshape(2, -1)) if x.numel() % 2 == 0
    else (x * y).sum(0, keepdim=True),
    "broadcast": lambda L, x, y: x.unsqueeze(1) * y.unsqueeze(0) + x.sigmoid().unsqueeze(1),
    "cat_index": lambda L, x, y: L.cat([x[1:] * 2, y[[0, 0]]]),
}

vectors = st.integers(2, 4).flatmap(
    lambda n: st.tuples(hnp.arrays(np.float64, n, elements=st.floats(-2, 2)),
                        hnp.arrays(np.float64, n, elements=st.floats(-2, 2))))


def _jac(lib, name, x, y, **kw):
    xs = (lib.tensor(x.copy()), lib.tensor(y.copy()))
    return lib.autograd.functional.jacobian(lambda a, b: FUNCS[name](lib, a, b), xs, **kw)


def _assert_nested_close(m, t):
    if isinstance(t, tuple | list):
        assert type(m) is type(t) and len(m) == len(t), f"{m} vs {t}"
        for a, b in zip(m, t):
            _assert_nested_close(a, b)
    else:
        assert_close(m, t)


@pytest.mark.parametrize("name", list(FUNCS))
@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
@settings(deadline=None, max_examples=8)
@given(xy=vectors)
def test_jacobian_matches_torch(name, strategy, xy):
    x, y = xy
    kw = {"strategy": strategy, "vectorize": strategy == "forward-mode"}
    _assert_nested_close(_jac(minigrad, name, x, y, **kw), _jac(torch, name, x, y, **kw))


@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
@pytest.mark.parametrize("out_tuple", [False, True])
@pytest.mark.parametrize("in_tuple", [False, True])
def test_result_structure(out_tuple, in_tuple, strategy):
    data = np.array([0.5, -1.0, 2.0])

    def run(lib):
        def f(*args):
            a = args[0]
            out = (a * a).exp()
            return (out, a.sum()) if out_tuple else out

        x = lib.tensor(data)
        return lib.autograd.functional.jacobian(f, (x,) if in_tuple else x, strategy=strategy,
                                                vectorize=strategy == "forward-mode")

    _assert_nested_close(run(minigrad), run(torch))


def test_unused_input_and_constant_output():
    def run(lib, strict, strategy="reverse-mode"):
        x, y = lib.tensor([1.0, 2.0]), lib.tensor([3.0])
        return lib.autograd.functional.jacobian(
            lambda a, b: (a * 2, lib.ones(3)), (x, y), strict=strict, strategy=strategy,
            vectorize=strategy == "forward-mode")

    _assert_nested_close(run(minigrad, False), run(torch, False))
    _assert_nested_close(run(minigrad, False, "forward-mode"), run(torch, False, "forward-mode"))
    assert_same_error(lambda: run(minigrad, True), lambda: run(torch, True))


def test_strict_unused_input():
    def run(lib):
        x, y = lib.tensor([1.0, 2.0]), lib.tensor([3.0])
        return lib.autograd.functional.jacobian(lambda a, b: a * 2, (x, y), strict=True)

    assert_same_error(lambda: run(minigrad), lambda: run(torch))


@pytest.mark.parametrize("kw", [
    {"strategy": "forward-mode"},
    {"strategy": "forward-mode", "vectorize": True, "strict": True},
    {"strategy": "sideways"},
])
def test_argument_errors(kw):
    def run(lib):
        return lib.autograd.functional.jacobian(lambda a: a * 2, lib.ones(2), **kw)

    assert_same_error(lambda: run(minigrad), lambda: run(torch))


def test_create_graph_makes_the_jacobian_differentiable():
    data = np.array([0.3, -0.8])
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(data, requires_grad=True)
        j = lib.autograd.functional.jacobian(lambda a: a.sin() * a.sum(), x, create_graph=True)
        assert j.requires_grad
        (g,) = lib.autograd.grad(j.pow(2).sum(), x)
        results.append((j.detach(), g))
        j = lib.autograd.functional.jacobian(lambda a: a.sin() * a.sum(), x)
        assert not j.requires_grad
    for m, t in zip(*results):
        assert_close(m, t)


@settings(deadline=None, max_examples=10)
@given(xy=vectors)
def test_hessian_matches_torch(xy):
    x, y = xy

    def run(lib):
        def f(a, b):
            return (a.sin() * b * b).sum() + (a * b).tanh().sum() * a.exp().mean()

        single = lib.autograd.functional.hessian(lambda a: f(a, lib.tensor(y)),
                                                 lib.tensor(x))
        pair = lib.autograd.functional.hessian(f, (lib.tensor(x), lib.tensor(y)))
        return single, pair

    _assert_nested_close(run(minigrad), run(torch))


def test_signature_matches_torch():
    def params(fn):
        return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]

    assert params(minigrad.autograd.functional.jacobian) == \
        params(torch.autograd.functional.jacobian)
    assert params(minigrad.autograd.functional.hessian) == \
        params(torch.autograd.functional.hessian)
