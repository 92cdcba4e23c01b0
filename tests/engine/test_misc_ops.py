"""The composites of ``minigrad/_ops/assorted.py`` and addr called wrongly, and real/imag of a
real tensor: minigrad raises torch's exception type with torch's message, or gives torch's
result (torch runs each call at test time)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad
from tests.torch_compare import assert_same_error


def _m(lib, rows=2, cols=3, dtype="float32"):
    return lib.tensor(np.linspace(-1, 1, rows * cols).reshape(rows, cols).astype(dtype))


BAD = {
    "imag of a real tensor": lambda lib: _m(lib).imag,
    "torch.imag of a real tensor": lambda lib: lib.imag(_m(lib)),
    "addr: a 2-d vec1": lambda lib: lib.addr(_m(lib), _m(lib), lib.ones(3)),
    "addr: bias does not broadcast": lambda lib: lib.addr(_m(lib, 3, 3), lib.ones(2),
                                                          lib.ones(3)),
    "addr_: a 1-d bias": lambda lib: lib.ones(3).addr_(lib.ones(3), lib.ones(3)),
    "cov: 3-d input": lambda lib: lib.cov(lib.ones(2, 2, 2)),
    "cov: float fweights": lambda lib: lib.cov(_m(lib), fweights=lib.ones(3)),
    "cov: int aweights": lambda lib: lib.cov(_m(lib), aweights=lib.ones(3, dtype=lib.int64)),
    "cov: negative fweights": lambda lib: lib.cov(
        _m(lib), fweights=lib.tensor([1, -1, 1])),
    "cov: wrong numel": lambda lib: lib.cov(_m(lib), aweights=lib.ones(2)),
    "renorm: p <= 0": lambda lib: _m(lib).renorm(0, 0, 1.0),
    "renorm: maxnorm < 0": lambda lib: _m(lib).renorm(2, 0, -1.0),
    "renorm: 1-d": lambda lib: lib.ones(3).renorm(2, 0, 1.0),
    "combinations: 2-d": lambda lib: lib.combinations(_m(lib)),
    "combinations: r < 0": lambda lib: lib.combinations(lib.ones(3), r=-1),
    "chain_matmul: a 1-d matrix": lambda lib: lib.chain_matmul(_m(lib), lib.ones(3)),
    "diagflat: a string offset": lambda lib: lib.diagflat(_m(lib), "1"),
}


@pytest.mark.parametrize("name", BAD)
def test_bad_calls_raise_torchs_error(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(lambda: BAD[name](minigrad), lambda: BAD[name](torch))


def test_real_of_a_real_tensor_is_the_tensor_itself():
    for lib in (torch, minigrad):
        x = _m(lib).requires_grad_()
        assert x.real is x and lib.real(x) is x


def test_scatter_reduce_prod_with_two_zeros_is_differentiable_once():
    """Two zeros of src at one place: the gradient comes out of torch's DelayedError node
    (printed <Error>), and differentiating it again raises torch's message."""
    def grads(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        src = lib.tensor([0.0, 0.0, 2.0], requires_grad=True)
        y = x.scatter_reduce(0, lib.tensor([0, 0, 1]), src, "prod")
        (g,) = lib.autograd.grad(y.sum(), src, create_graph=True)
        return g
    m, t = grads(minigrad), grads(torch)
    assert m.grad_fn.name().split("::")[-1] == t.grad_fn.name().split("::")[-1] == "Error"
    assert [type(n).__name__ for n, _ in m.grad_fn.next_functions] == \
        [type(n).__name__ for n, _ in t.grad_fn.next_functions]
    np.testing.assert_array_equal(m.detach().numpy(), t.detach().numpy())
    assert_same_error(lambda: m.sum().backward(), lambda: t.sum().backward())
