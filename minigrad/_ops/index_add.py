"""index_add and index_add_: slices of ``source`` added into ``input`` at ``index`` along
``dim`` (repeated indices add up), scaled by ``alpha``.

The node is torch's IndexAddBackward0 (``indexing.py``: index_select's backward records it
too): ``input``'s gradient is ``grad`` itself and ``source``'s the slices of ``grad`` at
``index`` (``index_select``, expanded to ``source``'s shape, times ``alpha`` unless it is 1),
as ``derivatives.yaml`` writes it.
"""

from __future__ import annotations

import numpy as np

from minigrad._numeric import quietly
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._ops.indexing import IndexAddBackward0
from minigrad._ops.inplace import apply_inplace
from minigrad._tensor import _wrap_dim


def _check(input, dim, index, source):
    """torch's index_add checks, in its order; the wrapped dim."""
    d = _wrap_dim(dim, input.dim())
    if index.dim() > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: "
                         f"{index.dim()} with type: {index.dtype.scalar_name} and size: "
                         f"{list(index.shape)}")
    if index._data.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{index.dtype.scalar_name}")
    if input.dtype is not source.dtype:
        raise RuntimeError(f"index_add_(): self ({input.dtype.scalar_name}) and source "
                           f"({source.dtype.scalar_name}) must have the same scalar type")
    if not (d == 0 or d < source.dim()):
        raise RuntimeError(f"index_add_(): Indexing dim {d} is out of bounds of the source "
                           f"tensor with dim {source.dim()}")
    count = 1 if source.dim() == 0 else source.shape[d]
    if index.numel() != count:
        raise RuntimeError(f"index_add_(): Number of indices ({index.numel()}) should be equal "
                           f"to source.size(dim): ({count}), for dim: {d}")
    a, b = list(input.shape), list(source.shape)
    if a and b:
        del a[d], b[d]
    if a != b:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(input.shape)} "
                           f"source.shape = {list(source.shape)}")
    size = input.shape[d] if input.dim() else 1
    for i in index._data.reshape(-1).tolist():
        if not 0 <= i < size:
            if not input.dim():
                raise IndexError("index out of range in self")
            raise RuntimeError(f"index {i} is out of bounds for dimension {d} with size {size}")
    return d


def _added(input, d, index, source, alpha):
    """The values of ``input.index_add(d, index, source, alpha=alpha)`` (a new array)."""
    data = np.array(input._data, order="C")
    src = source._data
    if alpha != 1:  # alpha in the tensor's dtype first, as torch's kernel
        src = quietly(np.multiply, src, data.dtype.type(alpha)).astype(data.dtype, copy=False)
    idx = index._data.reshape(-1).astype(np.int64)
    if data.ndim == 0:
        np.add.at(data.reshape(1), idx, src.reshape(1))
        return data
    if src.ndim == 0:
        src = src.reshape(1)
    moved = np.moveaxis(data, d, 0)  # a view: adds along dim 0, in the order of the indices
    with np.errstate(all="ignore"):
        np.add.at(moved, idx, np.moveaxis(src, d, 0))
    return data


@parses('index_add(Tensor input, int dim, Tensor index, Tensor source, *, Number alpha = 1, '
        'Tensor out = None)')
def index_add(input, dim, index, source, *, alpha=1):
    """A copy of ``input`` with ``alpha * source[i]`` added to slice ``index[i]`` along
    ``dim``."""
    d = _check(input, dim, index, source)
    data = _added(input, d, index, source, alpha)
    return record(data, IndexAddBackward0, (input, source), save=_save(index, source),
                  dim=d, dim_arg=dim, alpha=alpha, source_dim=source.dim(), index=index)


@parses('index_add_(Tensor input, int dim, Tensor index, Tensor source, *, Number alpha = 1)')
def index_add_(self, dim, index, source, *, alpha=1):
    d = _check(self, dim, index, source)
    data = _added(self, d, index, source, alpha)
    return apply_inplace(self, data, IndexAddBackward0, (self, source),
                         save=_save(index, source), dim=d, dim_arg=dim, alpha=alpha,
                         source_dim=source.dim(), index=index)


def _save(index, source):
    return {"index": index, "source": source if source.requires_grad else None}
