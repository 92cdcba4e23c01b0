"""Reading and writing with ``x[...]``.

Basic indices (ints, slices, ``None``, ``...``) give views, applied left to right as torch
does: an int is a ``select`` (SelectBackward0), a slice a ``slice`` (SliceBackward0), ``None``
an ``unsqueeze``. Tensor, list or bool-mask indices copy (IndexBackward0).
Writing ``x[idx] = v`` is ``x[idx].copy_(v)``: an in-place op on a view, so the base records
``CopySlices``.

Backward of a read puts the gradient back into a zero tensor shaped like the input, at the
place that was read; forward mode reads the tangent at the same place.
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._core import record, record_view
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


def select(input, dim, index, *, _from_getitem=False):
    if input.dim() == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input.dim())
    size = input._data.shape[d]
    if not -size <= index < size:
        if _from_getitem:
            raise IndexError(f"index {index} is out of bounds for dimension {d} with size {size}")
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input._data.shape)} at dimension {d}")
    i = index % size
    data = input._data[(slice(None),) * d + (i, Ellipsis)]  # the Ellipsis keeps a 0-d view
    return record_view(input, data, SelectBackward0, lambda t: t.select(d, i),
                       self_shape=input._data.shape)


class SelectBackward0(Node):
    """out = self[..., index, ...]: the gradient goes back into a zero tensor at ``index``."""

    def backward(self, grad):
        out = grad.new_zeros(self.self_shape)
        self.view_fn(out).copy_(grad)
        return out

    def jvp(self, t):
        return self.view_fn(t)


def slice_dim(input, dim, start, stop, step):
    if step is not None and step <= 0:
        raise ValueError("step must be greater than zero")
    s = slice(start, stop, step)
    index = (slice(None),) * dim + (s,)
    return record_view(input, input._data[index], SliceBackward0,
                       lambda t: t._slice(dim, start, stop, step),
                       self_shape=input._data.shape)


class SliceBackward0(SelectBackward0):
    """out = self[..., start:end:step, ...]"""


def alias(input):
    return record_view(input, input._data.view(), AliasBackward0, lambda t: t)


class AliasBackward0(Node):
    def backward(self, grad):
        return grad

    def jvp(self, t):
        return t


def _is_advanced(i) -> bool:
    return isinstance(i, Tensor | list | np.ndarray) or isinstance(i, bool)


def check_index(items) -> None:
    """torch's errors for an index of the wrong type: a float, or a float tensor."""
    for i in items:
        if isinstance(i, float):
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                             "byte Variables are valid indices (got float)")
        if isinstance(i, Tensor) and i.dtype.is_floating_point:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def to_numpy_index(index):
    if not isinstance(index, tuple):
        index = (index,)
    return tuple(i._data if isinstance(i, Tensor) else i for i in index)


def getitem(input, index):
    if input.dim() == 0 and index not in (None, Ellipsis) and not isinstance(index, tuple):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    items = index if isinstance(index, tuple) else (index,)
    check_index(items)
    if any(_is_advanced(i) for i in items):
        data = input._data[to_numpy_index(index)]
        return record(np.array(data), IndexBackward0, (input,), save=save_indices(index),
                      index=index, self_shape=input._data.shape)
    if isinstance(index, slice):  # a lone slice is always recorded, even x[:]
        return slice_dim(input, 0, index.start, index.stop, index.step)
    out = _basic(input, items)
    return alias(input) if out is input else out


def save_indices(index) -> dict:
    """The index tensors, saved like any input a formula reads: changing one in place
    before backward is caught by its version counter, as in torch."""
    items = index if isinstance(index, tuple) else (index,)
    return {f"indices{i}": t for i, t in enumerate(items) if isinstance(t, Tensor)}


def check_indices(node) -> None:
    """Unpack the saved index tensors: raises if one changed in place since the forward."""
    for key in list(node._saved):
        if key.startswith("indices"):
            node.saved(key)


class IndexBackward0(Node):
    """Advanced indexing copies; the gradient is scattered back, adding at repeated indices."""

    def backward(self, grad):
        check_indices(self)
        return grad.new_zeros(self.self_shape).index_put(self.index, grad, accumulate=True)

    def jvp(self, t):
        return t[self.index]


def _basic(input, items):
    """Apply ints, slices, ``None`` and ``...`` left to right; slices that keep everything
    are skipped, so the result is ``input`` itself when nothing narrows it."""
    used = sum(1 for i in items if i is not None and i is not Ellipsis)
    if used > input.dim():
        raise IndexError(f"too many indices for tensor of dimension {input.dim()}")
    out, dim = input, 0
    for i in items:
        if i is Ellipsis:
            dim += input.dim() - used
        elif i is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(i, slice):
            if not _is_full(i, out._data.shape[dim]):
                out = slice_dim(out, dim, i.start, i.stop, i.step)
            dim += 1
        else:
            out = select(out, dim, int(i), _from_getitem=True)
    return out


def _is_full(s: slice, size: int) -> bool:
    """torch skips a slice inside a tuple index when it keeps everything: start 0 (as
    written), step 1, and a stop at or past the end."""
    start = 0 if s.start is None else s.start
    stop = size if s.stop is None else s.stop
    return start == 0 and (s.step is None or s.step == 1) and stop >= size


def setitem(input, index, value):
    """``x[index] = value``, as torch's ``set_item``: narrow ``x`` (a full index such as
    ``x[...]`` or ``x[:]`` leaves ``x`` itself); then a value of the same shape is copied, a
    0-d one (a number is wrapped as one) fills, and any other is viewed without its leading
    dims of size 1, expanded to the target's shape and copied."""
    items = index if isinstance(index, tuple) else (index,)
    check_index(items)
    if any(_is_advanced(i) for i in items):
        input.index_put_(index, value)
        return
    target = _basic(input, items)
    if not isinstance(value, Tensor):
        value = Tensor._make(np.asarray(value, dtype=input._data.dtype))
    if value.shape == target.shape:
        target.copy_(value)
    elif value.dim() == 0:
        target.fill_(value)
    else:
        sizes = list(value.shape)
        while sizes and sizes[0] == 1:
            sizes.pop(0)
        value = value.view(*sizes)
        if value.shape != target.shape:
            value = value.expand(*target.shape)
        target.copy_(value)


def scatter(input, dim, index, src):
    """Out of place: a copy of ``input`` with ``src[i][j]`` put at ``[index[i][j]][j]`` (for
    ``dim=0``; the index replaces the coordinate along ``dim``), recorded as one
    ScatterBackward0, as in torch. Used by max/min backward."""
    d = _wrap_dim(dim, input.dim())
    src_t = src if isinstance(src, Tensor) else \
        Tensor._make(np.asarray(src, dtype=input._data.dtype))
    values = src_t._data[_leading(index)] if src_t.dim() else src_t._data
    data = input._data.copy()
    data[_grids(index, d)] = values
    return record(data, ScatterBackward0, (input, src_t), save=save_indices(index),
                  index=index, dim=d)


class ScatterBackward0(Node):
    """out = self with src put at index: self's gradient is zero where src landed, src's
    gradient is the output's gradient read back from there (torch's ``gather``)."""

    def backward(self, grad):
        check_indices(self)
        g_self = g_src = None
        if self.needs_input_grad[0]:
            g_self = grad.scatter(self.dim, self.index, grad.new_zeros(self.index.shape))
        if self.needs_input_grad[1]:
            g_src = grad[tuple(Tensor._make(g) for g in _grids(self.index, self.dim))]
        return g_self, g_src

    def jvp(self, t_self, t_src):
        x, src = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_src = src.new_zeros(src.shape) if t_src is None else t_src
        return t_self.scatter(self.dim, self.index, t_src)


def _grids(index, dim):
    """The NumPy index that ``index`` stands for along ``dim``: its own coordinates elsewhere."""
    grids = list(np.indices(index._data.shape))
    grids[dim] = index._data
    return tuple(grids)


def _leading(index):
    """The part of ``src`` that scatter reads: a block of ``index``'s shape at the start."""
    return tuple(slice(0, n) for n in index._data.shape)
