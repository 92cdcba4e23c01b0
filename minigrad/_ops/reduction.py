"""Reductions: sum, mean, max and min over everything or over some dims."""

from __future__ import annotations

import numpy as np

from minigrad._ops._core import record
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd import derivatives as D


def _dims(dim, ndim):
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    wrapped = [_wrap_dim(d, ndim) for d in dims]
    for i, d in enumerate(wrapped):
        if d in wrapped[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(wrapped))


def sum(input, dim=None, keepdim=False, *, dtype=None):
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is nan, silently as in torch
        return _sum(input, dim, keepdim, dtype)


def _sum(input, dim, keepdim, dtype):
    x = input if dtype is None else input.to(dtype)
    data = x._data
    if data.dtype == np.bool_ or (data.dtype.kind in "iu" and data.dtype != np.int64):
        data = data.astype(np.int64)
    if dim is None:
        return record(np.asarray(data.sum(), dtype=data.dtype), D.SumBackward0, (x,),
                      self_shape=x._data.shape)
    dims = _dims(dim, data.ndim)
    out = data.sum(axis=dims, keepdims=keepdim).astype(data.dtype, copy=False)
    return record(out, D.SumBackward1, (x,), self_shape=x._data.shape, dim=dims,
                  keepdim=keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    with np.errstate(invalid="ignore", over="ignore"):
        return _mean(input, dim, keepdim, dtype)


def _mean(input, dim, keepdim, dtype):
    x = input if dtype is None else input.to(dtype)
    if not x.dtype.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {x.dtype.legacy_name.removesuffix('Tensor')}")
    data = x._data
    if dim is None:
        return record(np.asarray(data.mean(), dtype=data.dtype), D.MeanBackward0, (x,),
                      self_shape=data.shape, numel=data.size)
    dims = _dims(dim, data.ndim)
    out = data.mean(axis=dims, keepdims=keepdim).astype(data.dtype, copy=False)
    count = int(np.prod([data.shape[d] for d in dims]))
    return record(out, D.MeanBackward1, (x,), self_shape=data.shape, dim=dims,
                  keepdim=keepdim, count=count)


class MaxResult(tuple):
    """``values, indices`` as torch's named tuple ``torch.return_types.max``."""

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self) -> str:
        return (f"minigrad.return_types.{self._name}(\nvalues={self[0]!r},\n"
                f"indices={self[1]!r})")


def _extreme(input, dim, keepdim, np_reduce, np_arg, all_node, dim_node, name):
    data = input._data
    if dim is None:
        if data.size == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        return record(np.asarray(np_reduce(data)), all_node, (input,), save={"self": input},
                      output_name="result")
    d = _wrap_dim(dim, data.ndim)
    idx = np.expand_dims(np_arg(data, axis=d), d) if data.ndim else np.asarray(0)
    values = np.take_along_axis(data, idx, axis=d) if data.ndim else data.copy()
    if not keepdim and data.ndim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    indices = Tensor._make(idx.astype(np.int64))
    out = record(values, dim_node, (input,), save={"indices": indices}, dim=d,
                 keepdim=keepdim, self_shape=data.shape)
    result = MaxResult((out, indices))
    result._name = name
    return result


def max(input, dim=None, keepdim=False):
    return _extreme(input, dim, keepdim, np.max, np.argmax, D.MaxBackward1, D.MaxBackward0,
                    "max")


def min(input, dim=None, keepdim=False):
    return _extreme(input, dim, keepdim, np.min, np.argmin, D.MinBackward1, D.MinBackward0,
                    "min")


def argmax(input, dim=None, keepdim=False):
    if dim is None:
        return Tensor._make(np.asarray(np.argmax(input._data), dtype=np.int64))
    return max(input, dim, keepdim)[1]


def prod(input):
    return Tensor._make(np.asarray(np.prod(input._data)))


def count_nonzero(input):
    return Tensor._make(np.asarray(np.count_nonzero(input._data), dtype=np.int64))

