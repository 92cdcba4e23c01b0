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
from minigrad._ops.inplace import apply_inplace
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
    return _record_put(_put_data(zeros, index, source, True), zeros, index, source, True)


def _check_put(self, index, source):
    """torch's put_ checks, in its order (the bounds last, as its kernel)."""
    if index.dtype is not _dtype.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got "
                           f"{index.dtype.scalar_name}")
    if self.dtype is not source.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {self.dtype.scalar_name} and source.dtype = "
                           f"{source.dtype.scalar_name}")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, index.numel() "
                         f"= {index.numel()}")
    n = self.numel()
    if n == 0 and index.numel():
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    for i in index._data.reshape(-1).tolist():
        if not -n <= i < n:
            raise IndexError(f"out of range: tried to access index {i} on a tensor of {n} "
                             "elements.")


def _put_data(self, index, source, accumulate):
    """A copy of ``self`` with ``source`` written (or added) at the flat ``index``, laid out
    as ``self`` (torch clones it, preserving the layout); a repeated index without
    ``accumulate`` keeps the last value, as torch's serial CPU kernel."""
    data = self._data.copy(order="K")
    flat = data.reshape(-1) if data.flags.c_contiguous else None
    values = np.array(data, order="C").reshape(-1) if flat is None else flat
    idx, src = index._data.reshape(-1), source._data.reshape(-1)
    if accumulate:
        np.add.at(values, idx, src)
    else:
        for k, i in enumerate(idx.tolist()):
            values[i] = src[k]
    if flat is None:
        data[...] = values.reshape(data.shape)
    return data


def _record_put(data, self, index, source, accumulate, inplace=False):
    """PutBackward0 keeps the index always and source only for source's own gradient."""
    save = {"index": index, "source": source if source.requires_grad else None}
    fields = {"accumulate": accumulate, "index_tensor": index, "source_shape": source.shape}
    if inplace:
        return apply_inplace(self, data, PutBackward0, (self, source), save=save, **fields)
    return record(data, PutBackward0, (self, source), save=save, **fields)


@parses('put(Tensor input, Tensor index, Tensor source, bool accumulate = False)')
def put(input, index, source, accumulate=False):
    """A copy of ``input`` with ``source``'s elements written (``accumulate``: added) at the
    flat positions ``index`` (negative ones count from the end)."""
    _check_put(input, index, source)
    return _record_put(_put_data(input, index, source, accumulate), input, index, source,
                       accumulate)


@parses('put_(Tensor input, Tensor index, Tensor source, bool accumulate = False)')
def put_(self, index, source, accumulate=False):
    _check_put(self, index, source)
    return _record_put(_put_data(self, index, source, accumulate), self, index, source,
                       accumulate, inplace=True)


class PutBackward0(Node):
    """out = self with source written (or added) at the flat ``index``: self's gradient is
    ``grad`` (accumulate) or ``grad`` with those places zeroed (``put`` of zeros); source's is
    read back, ``grad.take(index).reshape_as(source)``, as ``derivatives.yaml``."""

    def backward(self, grad):
        index = self.saved("index")
        g_self = g_source = None
        if self.needs_input_grad[0]:
            g_self = grad if self.accumulate else put(
                grad, index, Tensor._make(np.zeros(self.source_shape, grad._data.dtype)))
        if self.needs_input_grad[1]:
            g_source = take(grad, index).reshape_as(self.saved("source"))
        return g_self, g_source

    def jvp(self, t_self, t_source):
        x, source = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_source = source.new_zeros(source.shape) if t_source is None else t_source
        return put(t_self, self.index_tensor, t_source, self.accumulate)


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
