"""index_copy(_), masked_scatter(_) and put(_) called wrongly: minigrad raises torch's
exception type with torch's message (torch runs each call at test time)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad
from tests.torch_compare import assert_same_error


def _x(lib, shape=(3, 4), dtype="float32"):
    n = int(np.prod(shape))
    return lib.tensor(np.linspace(-1, 1, n).reshape(shape).astype(dtype))


def _i(lib, values, dtype="int64"):
    return lib.tensor(np.asarray(values, dtype=dtype))


INDEX_COPY = {
    "2-d index": lambda lib: _x(lib).index_copy(0, _i(lib, [[0]]), _x(lib, (1, 4))),
    "float index": lambda lib: _x(lib).index_copy(0, _i(lib, [0.0], "float32"),
                                                  _x(lib, (1, 4))),
    "int32 index": lambda lib: _x(lib).index_copy(0, _i(lib, [0], "int32"), _x(lib, (1, 4))),
    "dtypes": lambda lib: _x(lib).index_copy(0, _i(lib, [0]), _x(lib, (1, 4), "float64")),
    "slice shapes": lambda lib: _x(lib, (2, 3, 4)).index_copy(1, _i(lib, [0]),
                                                              _x(lib, (1, 1, 5))),
    "0-d source slice": lambda lib: _x(lib).index_copy(0, _i(lib, [0]), _x(lib, ())),
    "count": lambda lib: _x(lib).index_copy(0, _i(lib, [0, 1]), _x(lib, (1, 4))),
    "out of bounds": lambda lib: _x(lib).index_copy(0, _i(lib, [5]), _x(lib, (1, 4))),
    "negative index": lambda lib: _x(lib).index_copy(0, _i(lib, [-1]), _x(lib, (1, 4))),
    "dim": lambda lib: _x(lib).index_copy(2, _i(lib, [0]), _x(lib, (1, 4))),
    "dimensionality": lambda lib: _x(lib).index_copy(1, _i(lib, [0]), _x(lib, (3,))),
    "scalar source": lambda lib: _x(lib, (4,)).index_copy(0, _i(lib, [1, 2]), _x(lib, ())),
    "0-d self": lambda lib: _x(lib, ()).index_copy(0, _i(lib, [1]), _x(lib, ())),
    "0-d self count": lambda lib: _x(lib, ()).index_copy(0, _i(lib, [0]), _x(lib, (2,))),
    "in place": lambda lib: _x(lib).index_copy_(0, _i(lib, [3]), _x(lib, (1, 4))),
    "function": lambda lib: lib.index_copy(_x(lib), 0, _i(lib, [0]), _x(lib, (1, 4), "float64")),
    "extra argument": lambda lib: _x(lib).index_copy(0, _i(lib, [0]), _x(lib, (1, 4)), 5),
}


@pytest.mark.parametrize("name", INDEX_COPY)
def test_index_copy_errors(name):
    assert_same_error(*_pair(INDEX_COPY[name]))


def _pair(fn):
    return (lambda: fn(minigrad)), (lambda: fn(torch))


PUT = {
    "count": lambda lib: _x(lib).put(_i(lib, [0, 1]), _x(lib, (3,))),
    "float index": lambda lib: _x(lib).put(_i(lib, [0, 1], "float32"), _x(lib, (2,))),
    "int32 index": lambda lib: _x(lib).put(_i(lib, [0, 1], "int32"), _x(lib, (2,))),
    "too big": lambda lib: _x(lib).put(_i(lib, [0, 12]), _x(lib, (2,))),
    "too negative": lambda lib: _x(lib).put(_i(lib, [0, -13]), _x(lib, (2,)), True),
    "dtypes": lambda lib: _x(lib).put(_i(lib, [0, 1]), _x(lib, (2,), "float64")),
    "in place dtypes": lambda lib: _x(lib).put_(_i(lib, [0, 1]), _x(lib, (2,), "float64")),
    "empty self": lambda lib: _x(lib, (0,)).put(_i(lib, [0]), _x(lib, (1,))),
    "function": lambda lib: lib.put(_x(lib), _i(lib, [0, 1]), _x(lib, (3,))),
}


@pytest.mark.parametrize("name", PUT)
def test_put_errors(name):
    assert_same_error(*_pair(PUT[name]))


def _m(lib, shape=(4,)):
    return lib.tensor(np.arange(int(np.prod(shape))).reshape(shape) % 2 == 0)


MASKED_SCATTER = {
    "too few": lambda lib: _x(lib).masked_scatter(_m(lib), _x(lib, (5,))),
    "long mask": lambda lib: _x(lib).masked_scatter(_m(lib).long(), _x(lib, (10,))),
    "dtypes first": lambda lib: _x(lib).masked_scatter(_m(lib).long(), _x(lib, (10,), "float64")),
    "no broadcast": lambda lib: _x(lib).masked_scatter(_m(lib, (2,)), _x(lib, (10,))),
    "broadcast first": lambda lib: _x(lib).masked_scatter(_m(lib, (2, 4)).long(),
                                                          _x(lib, (1,), "float64")),
    "in place expand": lambda lib: _x(lib).masked_scatter_(_m(lib, (2, 3, 4)), _x(lib, (24,))),
    "in place expand size": lambda lib: _x(lib).masked_scatter_(_m(lib, (2, 4)),
                                                                _x(lib, (24,))),
    "in place too few": lambda lib: _x(lib).masked_scatter_(_m(lib), _x(lib, (5,))),
    "in place long mask": lambda lib: _x(lib).masked_scatter_(_m(lib).long(), _x(lib, (10,))),
    "in place dtypes": lambda lib: _x(lib).masked_scatter_(_m(lib, (2, 3, 4)).long(),
                                                           _x(lib, (1,), "float64")),
    "function": lambda lib: lib.masked_scatter(_x(lib), _m(lib), _x(lib, (5,))),
    "number source": lambda lib: _x(lib).masked_scatter(_m(lib), 1.0),
}


@pytest.mark.parametrize("name", MASKED_SCATTER)
def test_masked_scatter_errors(name):
    assert_same_error(*_pair(MASKED_SCATTER[name]))
