"""Differential tests: minigrad's tensor printing against torch's ``repr``.

Every property builds one NumPy array, asks torch to print it (via
``torch.from_numpy``) and asks ``minigrad._tensor_str`` to print the same
data.  The texts must be identical once torch's ``torch.`` dtype prefix is
replaced by ``minigrad.``.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minigrad import _tensor_str as ts

SETTINGS = settings(
    max_examples=800,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

FLOAT_DTYPES = ["float32", "float64", "float16"]
INT_DTYPES = ["int64", "int32"]
ALL_DTYPES = FLOAT_DTYPES + INT_DTYPES + ["bool"]


@pytest.fixture(autouse=True)
def _restore_print_options():
    """Every test starts and ends with torch's and minigrad's defaults."""
    torch.set_printoptions(profile="default")
    ts.set_printoptions(profile="default")
    yield
    torch.set_printoptions(profile="default")
    ts.set_printoptions(profile="default")


# ---------------------------------------------------------------- helpers ----


def torch_text(t: torch.Tensor) -> str:
    return repr(t).replace("torch.", "minigrad.")


def mini_text(arr: np.ndarray, *, default_dtype: str = "float32", **kwargs) -> str:
    name = arr.dtype.name
    kwargs.setdefault("requires_grad", False)
    kwargs.setdefault("grad_fn_name", None)
    return ts.tensor_str(arr, dtype_name=name, is_default_dtype=name == default_dtype, **kwargs)


def assert_same(arr: np.ndarray) -> None:
    expected = torch_text(torch.from_numpy(arr.copy()))
    assert mini_text(arr) == expected


# ------------------------------------------------------------- strategies ----


@st.composite
def shapes(draw) -> tuple[int, ...]:
    """Small shapes (often with zeros), plus shapes big enough to summarize."""
    ndim = draw(st.integers(0, 4))
    kind = draw(st.sampled_from(["small", "small", "big"]))
    if kind == "small" or ndim == 0:
        return tuple(draw(st.lists(st.integers(0, 5), min_size=ndim, max_size=ndim)))
    if ndim == 1:
        return (draw(st.integers(900, 1500)),)
    # Several dimensions whose product is above the default threshold of 1000.
    dims = draw(st.lists(st.integers(1, 12), min_size=ndim - 1, max_size=ndim - 1))
    last = max(1, math.ceil(1001 / math.prod(dims))) + draw(st.integers(0, 20))
    return (*dims, min(last, 1500))


ORDINARY_KINDS = ["unit", "integers", "small", "huge", "wide", "boundary"]
FLOAT_KINDS = [*ORDINARY_KINDS, "special", "zeros", "rounded"]
# Magnitudes right at the edges of torch's scientific-notation rule.
BOUNDARY_VALUES = np.array([1e-4, 1.0001e-4, 0.1, 1.0, 100.0, 1000.0, 1001.0, 99999999.0, 1e8])


def float_values(kind: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """Float64 samples chosen to exercise each branch of torch's formatter."""
    normal = rng.standard_normal(size)
    if kind == "unit":
        return normal
    if kind == "integers":
        return rng.integers(-2000, 2000, size).astype(np.float64)
    if kind == "small":
        return normal * 10.0 ** rng.uniform(-12, -3)
    if kind == "huge":
        return normal * 10.0 ** rng.uniform(5, 40)
    if kind == "wide":
        signs = rng.choice([-1.0, 1.0], size)
        return signs * 10.0 ** rng.uniform(-30, 30, size)
    if kind == "boundary":
        return rng.choice(BOUNDARY_VALUES, size) * rng.choice([-1.0, 1.0], size)
    if kind == "zeros":
        return rng.choice([0.0, -0.0], size)
    if kind == "rounded":
        return np.round(normal * 100, int(rng.integers(0, 3)))
    # "special": a mix of ordinary values, zeros and non-finite values.
    base = float_values(str(rng.choice(ORDINARY_KINDS)), size, rng)
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0])
    mask = rng.random(size) < rng.uniform(0.1, 1.0)
    base[mask] = rng.choice(specials, int(mask.sum()))
    return base


def make_array(shape: tuple[int, ...], dtype: str, kind: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    size = math.prod(shape)
    if dtype == "bool":
        flat = rng.random(size) < 0.5
    elif dtype in INT_DTYPES:
        info = np.iinfo(dtype)
        span = {"unit": 10, "integers": 1000}.get(kind)
        low, high = (-span, span) if span else (info.min, info.max)
        flat = rng.integers(low, high, size, dtype=dtype, endpoint=True)
    else:
        with np.errstate(over="ignore"):
            flat = float_values(kind, size, rng).astype(dtype)
    return flat.reshape(shape)


@st.composite
def arrays(draw, dtypes=ALL_DTYPES) -> np.ndarray:
    """Either a seeded random array (any size) or a small hypothesis array."""
    dtype = draw(st.sampled_from(dtypes))
    if draw(st.booleans()):
        shape = draw(shapes())
        kind = draw(st.sampled_from(FLOAT_KINDS))
        return make_array(shape, dtype, kind, draw(st.integers(0, 2**32 - 1)))
    small_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
    return draw(hnp.arrays(np.dtype(dtype), small_shapes))


@st.composite
def print_options(draw) -> dict:
    """Keyword arguments for ``set_printoptions`` (both libraries)."""
    options = {}
    if draw(st.booleans()):
        options["profile"] = draw(st.sampled_from(["default", "short", "full"]))
    if draw(st.booleans()):
        options["precision"] = draw(st.integers(0, 10))
    if draw(st.booleans()):
        options["threshold"] = draw(st.sampled_from([0, 1, 5, 20, 100, math.inf]))
    if draw(st.booleans()):
        options["edgeitems"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        options["linewidth"] = draw(st.integers(5, 200))
    options["sci_mode"] = draw(st.sampled_from([None, True, False]))
    return options


# ------------------------------------------------------------ properties ----


@SETTINGS
@given(arrays())
def test_repr_matches_torch(arr):
    assert_same(arr)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arrays(), print_options())
def test_print_options_match_torch(arr, options):
    torch.set_printoptions(**options)
    ts.set_printoptions(**options)
    assert ts.get_printoptions() == torch._tensor_str.get_printoptions()
    assert_same(arr)


@settings(max_examples=120, deadline=None)
@given(arrays(FLOAT_DTYPES))
def test_requires_grad_suffix(arr):
    t = torch.from_numpy(arr.copy()).requires_grad_(True)
    assert mini_text(arr, requires_grad=True) == torch_text(t)


NON_LEAF_OPS = [lambda t: t * 2, lambda t: t.sum(), lambda t: -t, lambda t: t.exp()]


@settings(max_examples=120, deadline=None)
@given(arrays(FLOAT_DTYPES), st.sampled_from(NON_LEAF_OPS))
def test_grad_fn_suffix(arr, op):
    out = op(torch.from_numpy(arr.copy()).requires_grad_(True))
    values = out.detach().numpy()
    name = type(out.grad_fn).__name__
    assert mini_text(values, requires_grad=True, grad_fn_name=name) == torch_text(out)


@settings(max_examples=80, deadline=None)
@given(arrays(), st.booleans())
def test_parameter_repr(arr, requires_grad):
    if arr.dtype.kind != "f":
        requires_grad = False  # torch only lets floating tensors require grad
    param = torch.nn.Parameter(torch.from_numpy(arr.copy()), requires_grad=requires_grad)
    expected = torch_text(param)
    name = arr.dtype.name
    got = ts.parameter_str(
        arr, dtype_name=name, is_default_dtype=name == "float32", requires_grad=requires_grad
    )
    assert got == expected


class Sub(torch.Tensor):
    """A tensor subclass: torch prints it with the prefix ``Sub(``."""


@settings(max_examples=80, deadline=None)
@given(arrays())
def test_custom_prefix(arr):
    expected = torch_text(torch.from_numpy(arr.copy()).as_subclass(Sub))
    assert mini_text(arr, prefix="Sub(") == expected


@settings(max_examples=80, deadline=None)
@given(arrays())
def test_float64_as_default_dtype(arr):
    """``is_default_dtype`` means "is the default *floating* dtype"."""
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        expected = torch_text(torch.from_numpy(arr.copy()))
    finally:
        torch.set_default_dtype(previous)
    assert mini_text(arr, default_dtype="float64") == expected


# --------------------------------------------------- hand-written examples ----


@pytest.mark.parametrize(
    ("arr", "expected"),
    [
        (np.array([1.0, 2.0], np.float32), "tensor([1., 2.])"),
        (np.array(3.5, np.float32), "tensor(3.5000)"),
        (np.array([1, 2, 300]), "tensor([  1,   2, 300])"),
        (np.array([True, False]), "tensor([ True, False])"),
        (np.array([0.0, np.nan, np.inf], np.float32), "tensor([0., nan, inf])"),
        (np.array([-0.0], np.float32), "tensor([-0.])"),
        (np.array([1e-5, 1.0], np.float32), "tensor([1.0000e-05, 1.0000e+00])"),
        (np.array([1e8, 1e6], np.float32), "tensor([100000000.,   1000000.])"),
        (np.array([1.5, 2.0]), "tensor([1.5000, 2.0000], dtype=minigrad.float64)"),
        (np.zeros((0, 3), np.int64), "tensor([], size=(0, 3), dtype=minigrad.int64)"),
        (np.zeros(0, np.float32), "tensor([])"),
        (np.arange(1001), "tensor([   0,    1,    2,  ...,  998,  999, 1000])"),
    ],
)
def test_known_outputs(arr, expected):
    assert mini_text(arr) == expected
    assert torch_text(torch.from_numpy(arr.copy())) == expected


def test_long_row_wraps_and_suffix_moves_to_new_line():
    arr = np.linspace(-1, 1, 40).reshape(2, 20)
    text = mini_text(arr, requires_grad=True)
    assert text == torch_text(torch.from_numpy(arr.copy()).requires_grad_(True))
    assert text.count("\n") > 2


def test_printoptions_context_manager_restores():
    before = ts.get_printoptions()
    with ts.printoptions(precision=1, sci_mode=True):
        assert ts.get_printoptions()["precision"] == 1
        assert mini_text(np.array([1.25], np.float32)) == "tensor([1.2e+00])"
    assert ts.get_printoptions() == before


def test_defaults_match_torch():
    assert ts.get_printoptions() == torch._tensor_str.get_printoptions()


def test_module_does_not_import_torch():
    source = Path(ts.__file__).read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            assert all(alias.name.split(".")[0] != "torch" for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert (node.module or "").split(".")[0] != "torch"


@pytest.mark.parametrize("linewidth", range(10, 90))
def test_suffix_line_breaks_at_every_linewidth(linewidth):
    """Sweeps the exact column where a suffix stops fitting on the line."""
    torch.set_printoptions(linewidth=linewidth)
    ts.set_printoptions(linewidth=linewidth)
    for arr in (np.array([1.5, -2.25]), np.arange(12.0).reshape(3, 4), np.zeros((2, 0))):
        out = torch.from_numpy(arr.copy()).requires_grad_(True) * 2
        got = mini_text(out.detach().numpy(), grad_fn_name="MulBackward0")
        assert got == torch_text(out)
