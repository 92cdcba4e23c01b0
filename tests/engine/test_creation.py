"""Creating tensors, compared with torch: values, dtype inference, shapes, autograd flags.

For random factories the checks here are shape, dtype, range, and that ``manual_seed`` makes
runs repeat; test_random.py compares their numbers with torch's bit for bit.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from torch_compare import (
    M_DTYPES,
    T_DTYPES,
    assert_close,
    assert_same_autograd_facts,
    assert_same_dtype_shape,
    normalize_text,
    same_error,
    same_outcome,
)

import minigrad

SETTINGS = settings(deadline=None, max_examples=30)


def _both(fn):
    """Call ``fn(lib, dtypes)`` for minigrad and torch, then compare the two results."""
    return same_outcome(fn, (minigrad, M_DTYPES), (torch, T_DTYPES), compare=_same_tensor)


def _same_tensor(m, t):
    assert_close(m, t)
    assert_same_autograd_facts(m, t)


# --- torch.tensor: dtype inference from Python data -------------------------------------------
DATA = [
    1, 2.5, True, -3, [1, 2, 3], [1.0, 2], [True, False], [True, 2], [True, 2.0],
    [[1, 2], [3, 4]], [[1.5], [2.5]], [], [[]], [[], []], 0.0, [1, 2.0, True],
    np.float64(1.5), np.int32(3), [np.float32(1.0), 2], (1, 2), ((1.0,), (2.0,)),
    [[1, 2], [3]],  # ragged: an error in both
    "abc",
]


@pytest.mark.parametrize("data", DATA, ids=repr)
def test_tensor_infers_dtype(data):
    _both(lambda lib, d: lib.tensor(data))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bool", "uint8"])
@pytest.mark.parametrize("data", [[1, 0, 2], [1.5, -0.5], [True, False], 3], ids=repr)
def test_tensor_with_dtype(data, dtype):
    _both(lambda lib, d: lib.tensor(data, dtype=d[dtype]))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint8", "int16",
                                   "int32", "int64", "bool"])
def test_tensor_from_numpy_array_keeps_dtype(dtype):
    a = np.array([[1, 0], [3, 1]]).astype(dtype)
    _both(lambda lib, d: lib.tensor(a))


def test_tensor_from_tensors_and_zero_dim():
    _both(lambda lib, d: lib.tensor([lib.tensor(1.5), lib.tensor(2.0)]))
    messages = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            source = lib.tensor([1.0, 2.0], requires_grad=True)
            copy = lib.tensor(source)
        messages.append([normalize_text(str(w.message)) for w in caught])
        assert copy.is_leaf and not copy.requires_grad
    assert messages[0] == messages[1] and messages[1]


def test_tensor_requires_grad():
    _both(lambda lib, d: lib.tensor([1.0, 2.0], requires_grad=True))
    _both(lambda lib, d: lib.tensor(2.0, requires_grad=True))
    _both(lambda lib, d: lib.tensor([1, 2], dtype=d["float64"], requires_grad=True))
    for data in ([1, 2], [True], 3):
        same_error(lambda lib, x: lib.tensor(x, requires_grad=True), (minigrad, data),
                   (torch, data))


def test_default_dtype_follows_set_default_dtype():
    try:
        for lib in (minigrad, torch):
            lib.set_default_dtype(lib.float64)
        _both(lambda lib, d: lib.tensor([1.5, 2]))
        _both(lambda lib, d: lib.zeros(2))
        _both(lambda lib, d: lib.arange(0.0, 1.0, 0.25))
        _both(lambda lib, d: lib.tensor([1, 2]) * 1.5)
        _both(lambda lib, d: lib.full((2,), 1.5))
    finally:
        for lib in (minigrad, torch):
            lib.set_default_dtype(lib.float32)
    same_error(lambda lib: lib.set_default_dtype(lib.int64), (minigrad,), (torch,))


# --- filled factories -------------------------------------------------------------------------
def _args(shape):
    """``shape`` as separate arguments (``f(2, 3)``), or as one tuple when it is ``()``:
    torch wants a size, and ``f()`` is a TypeError there (minigrad returns a 0-d tensor)."""
    return tuple(shape) if shape else ((),)


FACTORIES = {
    "zeros": lambda lib, d, s: lib.zeros(*_args(s)),
    "zeros_tuple": lambda lib, d, s: lib.zeros(s),
    "ones": lambda lib, d, s: lib.ones(s),
    "ones_int": lambda lib, d, s: lib.ones(*_args(s), dtype=d["int64"]),
    "zeros_bool": lambda lib, d, s: lib.zeros(s, dtype=d["bool"]),
    "full_float": lambda lib, d, s: lib.full(s, 1.5),
    "full_int": lambda lib, d, s: lib.full(s, 7),
    "full_bool": lambda lib, d, s: lib.full(s, True),
    "full_dtype": lambda lib, d, s: lib.full(s, 2, dtype=d["float64"]),
    "ones_grad": lambda lib, d, s: lib.ones(s, requires_grad=True),
    "zeros_grad": lambda lib, d, s: lib.zeros(*_args(s), dtype=d["float64"],
                                              requires_grad=True),
    "full_grad": lambda lib, d, s: lib.full(s, 2.0, requires_grad=True),
}


@pytest.mark.parametrize("name", FACTORIES)
@SETTINGS
@given(shape=array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
def test_filled_factories(name, shape):
    _both(lambda lib, d: FACTORIES[name](lib, d, shape))


@SETTINGS
@given(shape=array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3),
       dtype=st.sampled_from(["float32", "float64", "int64", "bool"]))
def test_empty_shape_and_dtype(shape, dtype):
    m, t = minigrad.empty(shape, dtype=M_DTYPES[dtype]), torch.empty(shape, dtype=T_DTYPES[dtype])
    assert_same_dtype_shape(m, t)
    assert_same_autograd_facts(m, t)
    m = minigrad.empty(*_args(shape), requires_grad=True)
    t = torch.empty(*_args(shape), requires_grad=True)
    assert_same_dtype_shape(m, t)
    assert_same_autograd_facts(m, t)


def test_integer_factories_cannot_require_grad():
    for fn in (lambda lib: lib.zeros(2, dtype=lib.int64, requires_grad=True),
               lambda lib: lib.full((2,), 3, requires_grad=True),
               lambda lib: lib.arange(3, requires_grad=True),
               lambda lib: lib.ones(2, dtype=lib.bool, requires_grad=True),
               lambda lib: lib.empty(2, dtype=lib.int64, requires_grad=True)):
        same_error(fn, (minigrad,), (torch,))


# --- arange -----------------------------------------------------------------------------------
ARANGE = [(5,), (0,), (2, 7), (7, 2, -1), (0, 1, 0.1), (0.5, 3), (1, 2.5, 0.5), (-3, 3, 2),
          (0, 10, 3), (5, 1), (1, 1), (0, 1, 0.3), (10, 0, -2.5), (0, 5, 0)]


@pytest.mark.parametrize("args", ARANGE, ids=repr)
def test_arange(args):
    _both(lambda lib, d: lib.arange(*args))
    _both(lambda lib, d: lib.arange(*args, dtype=d["float64"]))


def test_arange_dtypes_and_grad():
    _both(lambda lib, d: lib.arange(4, dtype=d["int32"]))
    _both(lambda lib, d: lib.arange(0.0, 2.0, 0.5, requires_grad=True))



# --- range (deprecated: end included, its own kernel) -------------------------------------------
def _range_outcome(lib, args, dtype):
    """``lib.range(*args)``'s exact values, dtype and warnings, or its error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            t = lib.range(*args, dtype=None if dtype is None else getattr(lib, dtype))
            got = (str(t.dtype).split(".")[-1], t.detach().numpy().tobytes())
        except Exception as e:  # noqa: BLE001 - the error itself is compared
            got = (type(e).__name__, normalize_text(str(e)))
    return got, [(w.category, normalize_text(str(w.message))) for w in caught]


_BOUND = st.one_of(st.integers(-20, 20), st.floats(-20, 20, allow_nan=False).map(
    lambda v: round(v, 3)))


@SETTINGS
@given(start=_BOUND, end=_BOUND, step=st.one_of(st.sampled_from([1, -1, 2, 0.1, -0.3, 0.25, 0]),
                                                 st.floats(-3, 3).map(lambda v: round(v, 2))),
       dtype=st.sampled_from([None, "float64", "float16", "int64", "int32"]))
def test_range_matches_torch_bit_for_bit(start, end, step, dtype):
    # an integer dtype with a step that truncates to 0: torch divides by zero and crashes
    assume(not (dtype in ("int64", "int32") and 0 < abs(step) < 1))
    assert _range_outcome(minigrad, (start, end, step), dtype) == \
        _range_outcome(torch, (start, end, step), dtype)


@pytest.mark.parametrize("args", [(0, 10), (3,), (0, float("inf")), (float("nan"), 1),
                                  ("a", 2), (1, 2, 3, 4), (torch.tensor(1), 3)], ids=repr)
def test_range_errors_and_forms(args):
    m_args = [minigrad.tensor(a.item()) if isinstance(a, torch.Tensor) else a for a in args]
    assert _range_outcome(minigrad, m_args, None) == _range_outcome(torch, args, None)


# --- *_like -----------------------------------------------------------------------------------
LIKE = {
    "zeros_like": lambda lib, d, x: lib.zeros_like(x),
    "ones_like": lambda lib, d, x: lib.ones_like(x),
    "ones_like_dtype": lambda lib, d, x: lib.ones_like(x, dtype=d["float64"]),
    "full_like": lambda lib, d, x: lib.full_like(x, 3),
    "full_like_float": lambda lib, d, x: lib.full_like(x, 2.5),
    "zeros_like_grad": lambda lib, d, x: lib.zeros_like(x, dtype=d["float32"],
                                                        requires_grad=True),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("name", LIKE)
def test_like_factories(name, dtype):
    a = np.array([[1, 0, 2], [0, 1, 1]]).astype(dtype)
    _both(lambda lib, d: LIKE[name](lib, d, lib.tensor(a)))


def test_like_of_tensor_that_requires_grad_is_a_fresh_leaf():
    _both(lambda lib, d: lib.zeros_like(lib.ones(2, requires_grad=True) * 2))
    _both(lambda lib, d: lib.ones_like(lib.ones(2, requires_grad=True)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_empty_rand_like_shape_and_dtype(dtype):
    a = np.ones((2, 3)).astype(dtype)
    for name in ("empty_like",) + (("rand_like", "randn_like") if dtype.startswith("float")
                                   else ()):
        m = getattr(minigrad, name)(minigrad.tensor(a))
        t = getattr(torch, name)(torch.tensor(a))
        assert_same_dtype_shape(m, t, name + ": ")


# --- from_numpy -------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint8", "int16",
                                   "int32", "int64", "bool"])
def test_from_numpy_shares_memory(dtype):
    a = np.array([[1, 0], [1, 1]]).astype(dtype)
    b = a.copy()
    m, t = minigrad.from_numpy(a), torch.from_numpy(b)
    assert_close(m, t)
    assert_same_autograd_facts(m, t)
    a[0, 0], b[0, 0] = 0, 0  # writes through the array show in the tensor...
    assert_close(m, t)
    m[1, 1], t[1, 1] = 0, 0  # ...and writes through the tensor show in the array
    np.testing.assert_array_equal(a, b)
    assert m.data_ptr() == a.__array_interface__["data"][0]


def test_from_numpy_errors():
    # (complex arrays are left out: torch supports them, minigrad has no complex dtype)
    for a in (np.array(["a"]), np.array([object()])):
        same_error(lambda lib, x: lib.from_numpy(x), (minigrad, a), (torch, a))
    same_error(lambda lib, x: lib.from_numpy(x), (minigrad, [1, 2]), (torch, [1, 2]))


def test_from_numpy_noncontiguous_view():
    a = np.arange(12.0).reshape(3, 4)[:, ::2]
    m, t = minigrad.from_numpy(a), torch.from_numpy(a)
    assert_close(m, t)
    assert m.stride() == t.stride()


# --- random numbers ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["rand", "randn"])
@SETTINGS
@given(shape=array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
       dtype=st.sampled_from(["float32", "float64"]), grad=st.booleans())
def test_random_shape_dtype_flags(name, shape, dtype, grad):
    m = getattr(minigrad, name)(*_args(shape), dtype=M_DTYPES[dtype], requires_grad=grad)
    t = getattr(torch, name)(*_args(shape), dtype=T_DTYPES[dtype], requires_grad=grad)
    assert_same_dtype_shape(m, t)
    assert_same_autograd_facts(m, t)
    m2, t2 = getattr(minigrad, name)(shape), getattr(torch, name)(shape)
    assert_same_dtype_shape(m2, t2)


def test_rand_range_and_randn_moments():
    minigrad.manual_seed(0)
    u, n = minigrad.rand(20000)._data, minigrad.randn(20000)._data
    assert u.min() >= 0.0 and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01 and abs(n.mean()) < 0.03 and abs(n.std() - 1) < 0.03


@pytest.mark.parametrize("name", ["rand", "randn"])
def test_manual_seed_repeats_and_differs(name):
    fn = getattr(minigrad, name)
    minigrad.manual_seed(123)
    first = fn(3, 4)._data.copy()
    minigrad.manual_seed(123)
    again = fn(3, 4)._data.copy()
    minigrad.manual_seed(124)
    other = fn(3, 4)._data.copy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)
    gen = minigrad.Generator().manual_seed(7)
    a = fn(5, generator=gen)._data.copy()
    b = fn(5, generator=minigrad.Generator().manual_seed(7))._data.copy()
    np.testing.assert_array_equal(a, b)
    assert type(minigrad.manual_seed(1)).__name__ == type(torch.manual_seed(1)).__name__


# --- bad input --------------------------------------------------------------------------------
def test_creation_errors():
    for fn in (lambda lib: lib.zeros(-1), lambda lib: lib.ones(2, -3),
               lambda lib: lib.full((-1,), 2.0), lambda lib: lib.tensor([[1, 2], [3]]),
               lambda lib: lib.arange(0, 5, 0), lambda lib: lib.arange(5, 0, 1),
               lambda lib: lib.zeros(2, -1), lambda lib: lib.empty(-2), lambda lib: lib.rand(-1),
               lambda lib: lib.randn(2, -1), lambda lib: lib.arange(-1.0),
               lambda lib: lib.arange(0, 5, 0.0), lambda lib: lib.tensor([[1], [2, 3]]),
               lambda lib: lib.tensor([[1, 2], 3]), lambda lib: lib.tensor([1, "a"]),
               lambda lib: lib.tensor(None), lambda lib: lib.tensor([300], dtype=lib.int8),
               lambda lib: lib.tensor([-1], dtype=lib.uint8),
               lambda lib: lib.tensor([-1.5], dtype=lib.uint8),
               lambda lib: lib.tensor(-1.5, dtype=lib.int64),
               lambda lib: lib.full((2,), 300, dtype=lib.uint8),
               lambda lib: lib.full((2,), 1.5, dtype=lib.int64),
               lambda lib: lib.tensor([[], []]), lambda lib: lib.tensor([])):
        same_outcome(fn, (minigrad,), (torch,))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "float16"])
@pytest.mark.parametrize("grad", [False, True])
def test_as_tensor_of_a_tensor_is_it_or_its_conversion(dtype, grad):
    """A tensor in another dtype is converted with ``to`` (kept in the graph), never copied
    as ``tensor()`` copies (which warns)."""
    def make(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = lib.tensor([1.5, -2.0], requires_grad=grad)
            y = lib.as_tensor(x * 1 if grad else x, dtype=getattr(lib, dtype))
        grad_fn = None if y.grad_fn is None else type(y.grad_fn).__name__
        return (y.tolist(), str(y.dtype).split(".")[-1], grad_fn, y.requires_grad,
                (y is x), [str(w.message) for w in caught])
    assert make(minigrad) == make(torch)


@pytest.mark.parametrize("np_dtype", [object, "U1", "S1", "datetime64[s]", np.longdouble],
                         ids=str)
@pytest.mark.parametrize("factory", ["tensor", "from_numpy", "as_tensor"])
def test_an_array_torch_cannot_read_gets_its_error(np_dtype, factory):
    """Its NumPy type named as torch names it (numpy.object_, numpy.str_, numpy.longdouble),
    whichever factory reads it (tensor() named numpy.object and listed fewer types)."""
    a = np.array([1], dtype=np_dtype) if np_dtype not in ("U1", "S1") else np.array(["a"],
                                                                                   np_dtype)
    same_error(lambda lib: getattr(lib, factory)(a), (minigrad,), (torch,))
