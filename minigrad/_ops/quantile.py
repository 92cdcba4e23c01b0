"""``quantile`` and ``nanquantile``, composed as torch composes them (``Sorting.cpp``): sort,
view the sorted values with the quantiles' dim, read the ranks below and above with
``gather``, ``lerp_`` between them, then squeeze (or move the quantiles' dim first) in place.
So the graph is torch's: ``SqueezeBackward4``, ``LerpBackward1``, ``GatherBackward0``,
``ViewBackward0``, ``SortBackward0``. The ranks come from ``q`` alone (no gradient).
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._args import parses
from minigrad._ops._core import as_tensor_like
from minigrad._tensor import Tensor, _wrap_dim

_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    name = "nanquantile()" if ignore_nan else "quantile()"
    if input.numel() == 0:
        raise RuntimeError(f"{name} input tensor must be non-empty")
    if isinstance(q, Tensor):
        if q.dim() > 1:
            raise RuntimeError(f"{name} q must be a scalar or 1D tensor")
        if input.dtype.name not in ("float32", "float64"):
            raise RuntimeError(f"{name} input tensor must be either float or double dtype")
        if q.dtype is not input.dtype:
            raise RuntimeError(f"{name} q tensor must be same dtype as the input tensor")
        qs = q._data.reshape(-1)
        bad = qs[(qs < 0) | (qs > 1)]
        if bad.size:
            raise RuntimeError(f"{name} q values must be in the range [0, 1]")
    else:
        if input.dtype.name not in ("float32", "float64"):
            raise RuntimeError(f"{name} input tensor must be either float or double dtype")
        if not 0 <= q <= 1:
            raise RuntimeError(f"{name} q must be in the range [0, 1] but got {q}")
        q = as_tensor_like(float(q), input.dtype)
    if interpolation not in _MODES:
        raise RuntimeError(f"{name} interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    ndim = input.dim()
    d = None if dim is None else _wrap_dim(dim, ndim)
    # the output shape: the quantiles' dim first, then the reduced shape
    if d is not None and ndim > 0:
        out_shape = list(input.shape)
        if keepdim:
            out_shape[d] = 1
        else:
            del out_shape[d]
    elif keepdim:
        out_shape = [1] * ndim
    else:
        out_shape = []
    out_shape.insert(0, q.numel())
    if d is None:
        sorted_ = input.flatten().sort()[0]
    elif d == ndim - 1 or ndim == 0:
        sorted_ = input.sort()[0]
    else:
        sorted_ = input.unsqueeze(-1).transpose(d, -1).sort()[0]
    in_shape = out_shape[1:] + [0]
    in_shape[-1] = sorted_.shape[-1]
    sorted_ = sorted_.view(*in_shape)
    data = sorted_._data
    nans = np.isnan(data)
    qd = q._data.reshape(-1) if q.dim() else q._data
    if ignore_nan:
        count = (~nans).sum(axis=-1, keepdims=True).astype(data.dtype)
        ranks = qd * (count - data.dtype.type(1))
        ranks = np.where(ranks < 0, data.dtype.type(0), ranks)
    else:
        last = data.shape[-1] - 1
        ranks = qd * data.dtype.type(last)
        ranks, any_nan = np.broadcast_arrays(ranks, nans.any(axis=-1, keepdims=True))
        ranks = np.where(any_nan, data.dtype.type(last), ranks)
    ranks = np.asarray(ranks, dtype=data.dtype)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    below = ranks.astype(np.int64)
    values = sorted_.gather(-1, Tensor._make(below))
    if interpolation in ("linear", "midpoint"):
        weights = np.full(ranks.shape, 0.5, dtype=data.dtype) if interpolation == "midpoint" \
            else (ranks - below).astype(data.dtype)
        above = np.ceil(ranks).astype(np.int64)
        values.lerp_(sorted_.gather(-1, Tensor._make(above)), Tensor._make(weights))
    if q.dim() == 0:
        values.squeeze_(-1)
    else:
        values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)
    return values


_SIGNATURE = ('{}(Tensor input, Tensor q, int? dim = None, bool keepdim = False, *, '
              'str interpolation = "linear", Tensor out = None)',
              '{}(Tensor input, float q, int? dim = None, bool keepdim = False, *, '
              'str interpolation = "linear", Tensor out = None)')


@parses(*(s.format("quantile") for s in _SIGNATURE))
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """The ``q``-th quantiles over ``dim`` (every element by default), between the sorted
    values' ranks as ``interpolation`` says; NaN if there is a NaN."""
    return _quantile(input, q, dim, keepdim, interpolation, False)


@parses(*(s.format("nanquantile") for s in _SIGNATURE))
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """quantile leaving the NaNs out (NaN where everything is NaN)."""
    return _quantile(input, q, dim, keepdim, interpolation, True)

