"""Result dtypes against torch: every dtype pair through every binary operator, tensors with
Python and NumPy scalars, 0-d tensors, reductions and clamp bounds.

A table test: each case runs on both engines and compares the result's dtype, or the error
(type and message, minigrad's spelling normalised) when torch refuses.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np
import pytest
import torch

import minigrad
from tests.torch_compare import normalize_text

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
          "truediv": operator.truediv, "pow": operator.pow, "lt": operator.lt,
          "eq": operator.eq, "ge": operator.ge}
SCALARS = [True, 2, 2.5]


def outcome(fn, lib):
    try:
        out = fn(lib)
    except Exception as exc:  # noqa: BLE001 - the error is the result to compare
        return type(exc).__name__, normalize_text(str(exc)).split("\n")[0]
    if isinstance(out, tuple):  # a Size
        return tuple(out)
    return str(out.dtype).removeprefix("torch.").removeprefix("minigrad.")


def same(fn):
    expected, got = outcome(fn, torch), outcome(fn, minigrad)
    assert got == expected, f"minigrad {got} vs torch {expected}"


def ones(lib, name, shape=(2,)):
    return lib.ones(shape, dtype=getattr(lib, name))


@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, DTYPES)))
def test_tensor_pairs(op, a, b):
    same(lambda lib: BINARY[op](ones(lib, a), ones(lib, b)))


@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, ["bool", "int64", "float64"])))
def test_tensor_with_zero_dim_tensor(op, a, b):
    same(lambda lib: BINARY[op](ones(lib, a), ones(lib, b, ())))


@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("a,s", list(itertools.product(DTYPES, SCALARS)))
def test_tensor_with_python_scalar(op, a, s):
    same(lambda lib: BINARY[op](ones(lib, a), s))
    same(lambda lib: BINARY[op](s, ones(lib, a)))


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("reduction", ["sum", "prod", "mean", "max"])
def test_reductions(a, reduction):
    same(lambda lib: getattr(ones(lib, a), reduction)())


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("bounds", [(0, 1), (0.5, 1.5), (None, 1.5), (0.5, None), (True, None)])
def test_clamp_bounds(a, bounds):
    same(lambda lib: ones(lib, a).clamp(*bounds))


@pytest.mark.parametrize("name", ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor",
                                  "IntTensor", "ShortTensor", "CharTensor", "ByteTensor",
                                  "BoolTensor"])
@pytest.mark.parametrize("args", [([1, 0],), ([[1.7, 2.2]],), (2, 3), (0,)])
def test_legacy_constructors(name, args):
    def make(lib):
        t = getattr(lib, name)(*args)
        assert isinstance(t, getattr(lib, name)) and type(t) is lib.Tensor
        return t
    same(make)
    same(lambda lib: make(lib).shape)  # shapes print alike once normalised


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("scalar", [np.float32(2), np.float64(2), np.int64(2), np.int32(2),
                                    np.bool_(True)])
def test_numpy_scalars(a, scalar):
    same(lambda lib: ones(lib, a) * scalar)
    same(lambda lib: scalar * ones(lib, a))
    same(lambda lib: ones(lib, a) + scalar)
