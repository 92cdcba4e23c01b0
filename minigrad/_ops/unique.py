"""``unique`` and ``unique_consecutive``: the distinct values (or slices along ``dim``), sorted,
with where each element went (``return_inverse``) and how often each occurs
(``return_counts``). NaN is never equal to itself, so each NaN stays.

torch has no derivative for them, but records a node for a float input that requires grad
(``Unique2Backward0``, ``UniqueDimBackward0``, ``UniqueConsecutiveBackward0``); backward
through it raises, and forward mode refuses it.
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._core import record
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


class _NoDerivative:
    """What the three nodes share (a mixin, not a node class of its own)."""

    op = ""

    def backward(self, grad):
        raise NotImplementedError(f"the derivative for '{self.op}' is not implemented.")

    def jvp(self, t):
        op = getattr(self, "node_cls", type(self)).op  # (forward mode passes an OpContext)
        raise NotImplementedError(
            f"Trying to use forward AD with {op} that does not support it because it has "
            "not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that "
            "we can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")


class Unique2Backward0(_NoDerivative, Node):
    op = "_unique2"


class UniqueDimBackward0(_NoDerivative, Node):
    op = "unique_dim"


class UniqueConsecutiveBackward0(_NoDerivative, Node):
    op = "unique_consecutive"


def _result(input, values, inverse, counts, node_cls, return_inverse, return_counts):
    out = record(np.asarray(values), node_cls, (input,))
    extra = []
    if return_inverse:
        extra.append(Tensor._make(np.asarray(inverse, dtype=np.int64)))
    if return_counts:
        extra.append(Tensor._make(np.asarray(counts, dtype=np.int64)))
    return (out, *extra) if extra else out


def _check_dim(data, dim):
    d = _wrap_dim(dim, data.ndim)
    if any(s == 0 for i, s in enumerate(data.shape) if i != d):
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")
    return d


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct elements (slices along ``dim``), sorted (torch's CPU kernel sorts even
    with ``sorted=False``)."""
    data = input._data
    if dim is None:
        flat = data.reshape(-1)
        kwargs = {"equal_nan": False} if flat.dtype.kind == "f" else {}
        values, inverse, counts = np.unique(flat, return_inverse=True, return_counts=True,
                                            **kwargs)
        return _result(input, values.astype(data.dtype), inverse.reshape(data.shape), counts,
                       Unique2Backward0, return_inverse, return_counts)
    d = _check_dim(data, dim)
    if data.shape[d] == 0:
        return _result(input, data.copy(), np.zeros(0), np.zeros(0), UniqueDimBackward0,
                       return_inverse, return_counts)
    values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True, axis=d)
    return _result(input, values.astype(data.dtype), inverse.reshape(-1), counts,
                   UniqueDimBackward0, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Each run of equal consecutive elements (slices along ``dim``) kept once."""
    data = input._data
    if dim is None:
        flat = data.reshape(-1)
        starts = np.ones(flat.size, dtype=bool)
        starts[1:] = flat[1:] != flat[:-1]
        values = flat[starts]
        inverse = (np.cumsum(starts) - 1).reshape(data.shape)
        counts = np.diff(np.append(np.flatnonzero(starts), flat.size))
        return _result(input, values, inverse, counts, UniqueConsecutiveBackward0,
                       return_inverse, return_counts)
    d = _check_dim(data, dim)
    moved = np.moveaxis(data, d, 0).reshape(data.shape[d], -1)
    starts = np.ones(moved.shape[0], dtype=bool)
    starts[1:] = (moved[1:] != moved[:-1]).any(axis=1)
    values = np.compress(starts, data, axis=d)
    inverse = np.cumsum(starts) - 1
    counts = np.diff(np.append(np.flatnonzero(starts), moved.shape[0]))
    return _result(input, values, inverse, counts, UniqueConsecutiveBackward0,
                   return_inverse, return_counts)
