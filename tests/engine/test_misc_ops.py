"""The composites of ``minigrad/_ops/assorted.py`` and addr called wrongly, real/imag of a
real tensor, and ``isin``: minigrad raises torch's exception type with torch's message, or gives
torch's result (torch runs each call at test time)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

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
    "isin: bool tensors": lambda lib: lib.isin(lib.tensor([True]), lib.tensor([True])),
    "isin: two numbers": lambda lib: lib.isin(2, 3),
    "isin: no method": lambda lib: lib.tensor([1, 2]).isin(lib.tensor([1])),
    "isin: a list": lambda lib: lib.isin(lib.tensor([1, 2]), [1]),
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


# Values drawn from a small pool, so that elements and test elements often meet; NaN, -0.0 and
# numbers one dtype can hold exactly and another cannot (0.1; 2**24 + 1, which float32 rounds
# to 2**24: equal to it once promoted as torch promotes, not in float64) among them.
_POOL = [0.0, -0.0, 1.0, 2.0, 2.5, 0.1, -3.0, float("nan"), float("inf"), 7.0,
         2.0 ** 24, 2.0 ** 24 + 1]
_DTYPES = ["int64", "int32", "uint8", "float16", "float32", "float64"]


def _values(dtype, values):
    if dtype.startswith(("int", "uint")):
        values = [0 if not np.isfinite(v) else abs(int(v)) % (256 if dtype == "uint8" else 2**31)
                  for v in values]
    with np.errstate(over="ignore"):
        return np.array(values).astype(dtype)


def test_isin_reads_a_number_as_the_tensor_dtype_does():
    """uint8 wraps: 300 is 44 and -212 is 44, as ``t == 300`` reads it."""
    for number in (300, -212, 44.0, 44.5):
        got = [lib.isin(lib.tensor([44, 1], dtype=lib.uint8), number).tolist()
               for lib in (torch, minigrad)]
        assert got[0] == got[1], (number, got)


@given(elements=st.lists(st.sampled_from(_POOL), max_size=6),
       tests=st.lists(st.sampled_from(_POOL), max_size=4),
       shape=st.sampled_from(["flat", "matrix", "scalar_element", "scalar_test"]),
       dtypes=st.tuples(st.sampled_from(_DTYPES), st.sampled_from(_DTYPES)),
       invert=st.booleans(), assume_unique=st.booleans(), out=st.booleans())
def test_isin_matches_torch(elements, tests, shape, dtypes, invert, assume_unique, out):
    """``isin`` against torch: dtype promotion (0.1 in float16 is not 0.1 in float32), NaN in
    nothing, -0.0 equal to 0.0, a number on either side, any shape, ``invert`` and ``out=``."""
    a, b = _values(dtypes[0], elements), _values(dtypes[1], tests)
    if shape == "matrix" and a.size % 2 == 0:
        a = a.reshape(2, -1)
    results = []
    for lib in (torch, minigrad):
        x, y = lib.tensor(a.copy()), lib.tensor(b.copy())
        if shape == "scalar_element":
            x = a[0].item() if a.size else 1.0
        elif shape == "scalar_test":
            y = b[0].item() if b.size else 1.0
        kwargs = {"invert": invert, "assume_unique": assume_unique}
        if out:
            kwargs["out"] = lib.empty(0, dtype=lib.bool)
        try:
            got = lib.isin(x, y, **kwargs)
        except (RuntimeError, TypeError) as error:
            results.append((type(error).__name__, str(error)))
            continue
        assert got.dtype == lib.bool
        assert not out or got is kwargs["out"]
        results.append((tuple(got.shape), got.numpy().tolist()))
    assert results[0] == results[1], results


# --- histogram: torch's histogramdd kernel for one dimension -----------------------------------
def _histogram(lib, data, bins, dtype, range_, weighted, density):
    """``lib.histogram``'s two outputs as bytes (and dtype), or its error."""
    x = lib.tensor(np.asarray(data, dtype=dtype))
    if isinstance(bins, list):
        bins = lib.tensor(np.asarray(bins, dtype=dtype))
    kw = {} if range_ is None else {"range": range_}
    if weighted:
        kw["weight"] = lib.tensor(np.linspace(0.1, 2.0, len(data)).astype(dtype))
    try:
        hist, edges = lib.histogram(x, bins, density=density, **kw)
    except Exception as e:  # noqa: BLE001 - the error itself is compared
        return type(e).__name__, str(e).replace("minigrad", "torch")
    return (str(hist.dtype).split(".")[-1], hist.numpy().tobytes(), edges.numpy().tobytes())


_VALUES = st.one_of(st.floats(-5, 5, width=32), st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0]))


@given(data=st.lists(_VALUES, max_size=40),
       bins=st.one_of(st.integers(1, 12), st.lists(st.floats(-4, 4, width=32), min_size=1,
                                                   max_size=6).map(sorted)),
       dtype=st.sampled_from(["float16", "float32", "float64"]),
       range_=st.one_of(st.none(), st.tuples(st.floats(-3, 0), st.floats(0, 3))),
       weighted=st.booleans(), density=st.booleans())
def test_histogram_matches_torch_bit_for_bit(data, bins, dtype, range_, weighted, density):
    if isinstance(bins, list):
        range_ = None  # (no range= with a tensor of edges)
    args = (data, bins, dtype, range_, weighted, density)
    assert _histogram(minigrad, *args) == _histogram(torch, *args)


HISTOGRAM_BAD = {
    "integer input": lambda lib: lib.histogram(lib.tensor([1, 2]), 2),
    "half input": lambda lib: lib.histogram(lib.ones(2).half(), 2),
    "half input, weight of another dtype": lambda lib: lib.histogram(lib.ones(2).half(), 2,
                                                                     weight=lib.ones(3)),
    "integer input with a range": lambda lib: lib.histogram(lib.tensor([1, 2]), 2,
                                                            range=(0.0, 1.0)),
    "integer input and edges": lambda lib: lib.histogram(lib.tensor([1, 2]), lib.tensor([0, 3])),
    "integer input, edges of another dtype": lambda lib: lib.histogram(
        lib.tensor([1, 2], dtype=lib.int32), lib.tensor([0, 3])),
    "no bins": lambda lib: lib.histogram(lib.ones(2), 0),
    "min over max": lambda lib: lib.histogram(lib.ones(2), 2, range=(3.0, 1.0)),
    "infinite range": lambda lib: lib.histogram(lib.ones(2), 2, range=(0.0, float("inf"))),
    "NaN data": lambda lib: lib.histogram(lib.tensor([1.0, float("nan")]), 2),
    "range of 1": lambda lib: lib.histogram(lib.ones(2), 2, range=[1.0]),
    "float bins": lambda lib: lib.histogram(lib.ones(2), 2.5),
    "bins of another dtype": lambda lib: lib.histogram(lib.ones(2), lib.ones(2).double()),
    "2-d bins": lambda lib: lib.histogram(lib.ones(2), lib.ones(1, 2)),
    "one edge": lambda lib: lib.histogram(lib.ones(2), lib.ones(1)),
    "no edges": lambda lib: lib.histogram(lib.ones(2), lib.ones(0)),
    "weight of another size": lambda lib: lib.histogram(lib.ones(2), 2, weight=lib.ones(3)),
    "weight of another dtype": lambda lib: lib.histogram(lib.ones(2), 2,
                                                         weight=lib.ones(2).double()),
    "backward": lambda lib: lib.histogram(lib.ones(2, requires_grad=True), 2).hist.sum()
    .backward(),
}


@pytest.mark.parametrize("name", HISTOGRAM_BAD)
def test_histogram_errors(name):
    assert_same_error(lambda: HISTOGRAM_BAD[name](minigrad), lambda: HISTOGRAM_BAD[name](torch))


def test_histogram_records_torchs_not_implemented_node():
    for lib in (torch, minigrad):
        x, w = lib.ones(3, requires_grad=True), lib.ones(3, requires_grad=True)
        out = lib.histogram(x.detach(), lib.tensor([0.0, 1.0, 2.0]), weight=w)
        assert type(out).__name__ == "histogram"
        assert type(out.hist.grad_fn).__name__ == "NotImplemented"
        assert out.bin_edges.grad_fn is out.hist.grad_fn
        assert [f.variable is w for f, _ in out.hist.grad_fn.next_functions] == [True]
        assert lib.histogram(x, 2).hist.grad_fn.next_functions[0][0].variable is x
