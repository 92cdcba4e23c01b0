"""Where the nonzeros are, and reading at flat or per-dim indices: nonzero, argwhere,
count_nonzero, take, take_along_dim.

``nonzero``, ``argwhere`` and ``count_nonzero`` give integers (no gradient). ``take`` reads
the flattened tensor at ``index`` (TakeBackward0; its gradient is put back with torch's
``put_(index, grad, accumulate=True)``, PutBackward0, so a create_graph graph is torch's).
``take_along_dim`` is torch's composite: both tensors broadcast (``broadcast_to``) and a
``gather`` (GatherBackward0), or ``view(-1)`` and ``gather`` without a dim.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype, _layout
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._ops.rearrange import broadcast_shape
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


# --- nonzero, argwhere, count_nonzero ----------------------------------------------------------
@parses('nonzero(Tensor input, *, bool as_tuple = False, Tensor out = None)',
        method=('nonzero()', 'nonzero(*, bool as_tuple)'))
def nonzero(input, *, as_tuple=False):
    """The indices of the nonzero elements (nan counts), one row each; ``as_tuple``: one
    vector per dim (NumPy's form, ``x[x.nonzero(as_tuple=True)]``)."""
    data = input._data
    if as_tuple:
        if data.ndim == 0:
            return (Tensor._make(np.flatnonzero(data.reshape(1)).astype(np.int64)),)
        return tuple(Tensor._make(np.ascontiguousarray(i, dtype=np.int64))
                     for i in np.nonzero(data))
    rows = np.argwhere(data).astype(np.int64)
    # torch writes the indices column by column: its result is a transposed (n, dims) view,
    # strides (1, n) (an empty one's too: (1, 0))
    if not rows.size:
        return Tensor._make(np.lib.stride_tricks.as_strided(rows, rows.shape,
                                                            (8, 8 * rows.shape[0])))
    return Tensor._make(_layout.laid_out(rows, (1, rows.shape[0])))


@parses('argwhere(Tensor input)')
def argwhere(input):
    """``nonzero()``: one row of indices per nonzero element."""
    return nonzero(input)


@parses('count_nonzero(Tensor input, int? dim = None)',
        'count_nonzero(Tensor input, tuple of ints dim)')
def count_nonzero(input, dim=None):
    """How many elements are not 0 (over ``dim``, or all of them), as int64."""
    dims = None
    if dim is not None:
        dims = tuple(dim) if isinstance(dim, tuple | list) else (dim,)
        dims = tuple(_wrap_dim(d, input.dim()) for d in dims)
        for i, d in enumerate(dims):
            if d in dims[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        if not dims:
            dims = None
    data = input._data != 0
    if data.ndim == 0:
        return Tensor._make(np.asarray(data, np.int64))
    return Tensor._make(np.asarray(np.count_nonzero(data, axis=dims), np.int64))


# --- take, take_along_dim ------------------------------------------------------------------------
@parses('take(Tensor input, Tensor index, *, Tensor out = None)')
def take(input, index):
    """``input.flatten()[index]``, shaped as ``index`` (negative indices count from the end)."""
    if index.dtype is not _dtype.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{index.dtype.scalar_name}")
    flat = input._data.reshape(-1)
    n = flat.size
    idx = index._data
    if n == 0 and idx.size:
        raise IndexError("take(): tried to take from an empty tensor")
    for i in idx.reshape(-1).tolist():
        if not -n <= i < n:
            raise IndexError(f"out of range: tried to access index {i} on a tensor of {n} "
                             "elements.")
    data = flat[idx]
    return record(np.array(data, order="C"), TakeBackward0, (input,),
                  save={"self": input, "index": index}, index=index)


class TakeBackward0(Node):
    """out = self.flatten()[index]: the gradient is added back at ``index`` into zeros
    (torch's ``zeros_like(self).put_(index, grad, accumulate=True)``)."""

    def backward(self, grad):
        self_ = self.saved("self")
        return put_accumulate(Tensor._make(np.zeros(self_.shape, grad._data.dtype)),
                              self.saved("index"), grad)

    def jvp(self, t):
        return take(t, self.index)


def put_accumulate(zeros, index, source):
    """torch's ``zeros.put_(index, source, accumulate=True)``, as take's backward calls it
    (PutBackward0)."""
    data = zeros._data.copy()
    np.add.at(data.reshape(-1), index._data.reshape(-1), source._data.reshape(-1))
    return record(data, PutBackward0, (zeros, source), save={"index": index, "source": source},
                  accumulate=True, index=index)


class PutBackward0(Node):
    """out = self with source added at the flat ``index``: self's gradient passes through,
    source's is read back (``grad.take(index).reshape_as(source)``)."""

    def backward(self, grad):
        source = self.saved("source")
        g_source = take(grad, self.saved("index")).reshape_as(source) \
            if self.needs_input_grad[1] else None
        return grad if self.needs_input_grad[0] else None, g_source

    def jvp(self, t_self, t_source):
        zeros, source = self.inputs
        t_self = Tensor._make(np.zeros(zeros.shape, zeros._data.dtype)) if t_self is None \
            else t_self
        if t_source is None:
            return t_self
        return put_accumulate(t_self, self.index, t_source)


@parses('take_along_dim(Tensor input, Tensor indices, int? dim = None, *, Tensor out = None)')
def take_along_dim(input, indices, dim=None):
    """``gather`` with NumPy's broadcasting: ``input`` and ``indices`` broadcast to each other
    in every dim but ``dim``; without ``dim``, the flattened tensor at ``indices``."""
    if dim is None:
        if indices.dtype is not _dtype.int64:
            raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but "
                               f"got {indices.dtype.scalar_name}")
        return input.view(-1).gather(0, indices.view(-1))
    if input.dim() != indices.dim():
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {input.dim()} dimensions for input, "
                           f"and {indices.dim()} dimensions for indices")
    if indices.dtype is not _dtype.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{indices.dtype.scalar_name}")
    d = _wrap_dim(dim, input.dim())
    sizes = list(input.shape)
    sizes[d] = indices.shape[d]
    indices = indices.broadcast_to(_broadcast(sizes, list(indices.shape)))
    sizes = list(indices.shape)
    sizes[d] = input.shape[d]
    input = input.broadcast_to(_broadcast(sizes, list(input.shape)))
    return input.gather(d, indices)


def _broadcast(a, b):
    """torch's infer_size: the broadcast of two shapes, with its message."""
    return broadcast_shape((Tensor._make(np.empty(a, np.bool_)),
                            Tensor._make(np.empty(b, np.bool_))))
