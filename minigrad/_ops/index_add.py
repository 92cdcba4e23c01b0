"""index_add(_) and index_fill(_): slices of ``source`` added into ``input`` at ``index``
along ``dim`` (repeated indices add up), scaled by ``alpha``; or the slices at ``index``
filled with one value (a number: IndexFillBackward0; a 0-d tensor, which gets a gradient:
IndexFillBackward1, which trace's backward records too).

index_add's node is torch's IndexAddBackward0 (``indexing.py``: index_select's backward records it
too): ``input``'s gradient is ``grad`` itself and ``source``'s the slices of ``grad`` at
``index`` (``index_select``, expanded to ``source``'s shape, times ``alpha`` unless it is 1),
as ``derivatives.yaml`` writes it.
"""

from __future__ import annotations

import numpy as np

from minigrad import _layout
from minigrad._numeric import cast, number, quietly
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._ops.indexing import IndexAddBackward0
from minigrad._ops.inplace import apply_inplace
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


def _check(input, dim, index, source, op="index_add_"):
    """torch's index_add checks, in its order (index_reduce_ shares them: ``op``); the
    wrapped dim."""
    d = _wrap_dim(dim, input.dim())
    if index.dim() > 1:
        raise IndexError(f"{op}(): Index is supposed to be a vector, but got dim: "
                         f"{index.dim()} with type: {index.dtype.scalar_name} and size: "
                         f"{list(index.shape)}")
    if index._data.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index but got: "
                           f"{index.dtype.scalar_name}")
    if input.dtype is not source.dtype:
        raise RuntimeError(f"{op}(): self ({input.dtype.scalar_name}) and source "
                           f"({source.dtype.scalar_name}) must have the same scalar type")
    if not (d == 0 or d < source.dim()):
        raise RuntimeError(f"{op}(): Indexing dim {d} is out of bounds of the source "
                           f"tensor with dim {source.dim()}")
    count = 1 if source.dim() == 0 else source.shape[d]
    if index.numel() != count:
        if source.dim() == 0:  # torch's message reads source.size(dim): a 0-d source has none
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(f"{op}(): Number of indices ({index.numel()}) should be equal "
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
        src = quietly(np.multiply, src, number(alpha, data.dtype)).astype(data.dtype, copy=False)
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
                  dim=d, dim_arg=dim, alpha=alpha, source_dim=source.dim(), index_tensor=index)


@parses('index_add_(Tensor input, int dim, Tensor index, Tensor source, *, Number alpha = 1)')
def index_add_(self, dim, index, source, *, alpha=1):
    d = _check(self, dim, index, source)
    data = _added(self, d, index, source, alpha)
    return apply_inplace(self, data, IndexAddBackward0, (self, source),
                         save=_save(index, source), dim=d, dim_arg=dim, alpha=alpha,
                         source_dim=source.dim(), index_tensor=index)


def _save(index, source):
    wanted = source.requires_grad  # only source's gradient reads them, as torch saves them
    return {"index": index if wanted else None, "source": source if wanted else None}


# --- index_fill, index_fill_ ---------------------------------------------------------------------
def _fill_check(input, dim, index, value):
    d = _wrap_dim(dim, input.dim())
    if index._data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, Tensor) and value.dim():
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.dim()} dimension(s).")
    size = input.shape[d] if input.dim() else 1
    idx = index._data.reshape(-1)
    for i in idx.tolist():
        if not -size <= i < size:
            raise IndexError(f"index {i} is out of bounds for dimension {d} with size {size}")
    return d


def _filled(input, d, index, value):
    data = np.array(input._data, order="C")
    v = value._data if isinstance(value, Tensor) else value
    view = data.reshape(1) if data.ndim == 0 else np.moveaxis(data, d, 0)
    view[index._data.reshape(-1)] = cast(v, data.dtype)
    return data


@parses('index_fill(Tensor input, int dim, Tensor index, Tensor value)',
        'index_fill(Tensor input, int dim, Tensor index, Number value)')
def index_fill(input, dim, index, value):
    """A copy of ``input`` with the slices at ``index`` along ``dim`` set to ``value``."""
    d = _fill_check(input, dim, index, value)
    data = _layout.preserved(_filled(input, d, index, value), input._data)
    if isinstance(value, Tensor):
        return record(data, IndexFillBackward1, (input, value), save={"index": index}, dim=d,
                      dim_arg=dim, index=index)
    return record(data, IndexFillBackward0, (input,), save={"index": index}, dim=d,
                  dim_arg=dim, index=index)


@parses('index_fill_(Tensor input, int dim, Tensor index, Tensor value)',
        'index_fill_(Tensor input, int dim, Tensor index, Number value)')
def index_fill_(self, dim, index, value):
    d = _fill_check(self, dim, index, value)
    data = _filled(self, d, index, value)
    if isinstance(value, Tensor):
        return apply_inplace(self, data, IndexFillBackward1, (self, value),
                             save={"index": index}, dim=d, dim_arg=dim, index=index)
    return apply_inplace(self, data, IndexFillBackward0, (self,), save={"index": index}, dim=d,
                         dim_arg=dim, index=index)


class IndexFillBackward0(Node):
    """out = self with the slices at index set to a number: their gradient is 0."""

    def backward(self, grad):
        return grad.index_fill(self.dim_arg, self.saved("index"), 0)

    def jvp(self, t):
        return t.index_fill(self.dim, self.index, 0)


class IndexFillBackward1(IndexFillBackward0):
    """out = self with the slices at index set to a 0-d tensor ``value``: value's gradient is
    the sum of the filled slices (each index once: torch's ``_unique``)."""

    def backward(self, grad):
        index = self.saved("index")
        g_self = grad.index_fill(self.dim_arg, index, 0) if self.needs_input_grad[0] else None
        g_value = None
        if self.needs_input_grad[1]:
            unique = Tensor._make(np.unique(index._data.reshape(-1)))
            g_value = grad.index_select(self.dim_arg, unique).sum()
        return g_self, g_value

    def jvp(self, t_self, t_value):
        x = self.inputs[0]
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        if t_value is None:
            return t_self.index_fill(self.dim, self.index, 0)
        return index_fill(t_self, self.dim, self.index, t_value)


# --- index_copy, index_copy_ ---------------------------------------------------------------------
def _copy_check(input, dim, index, source):
    """torch's index_copy checks (its meta function, then the kernel's bounds), in its order;
    the wrapped dim. Unlike index_add, only int64 indices and no negative ones."""
    d = _wrap_dim(dim, input.dim())
    if index.dim() > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    n = index.numel()
    if source.dim() == 0 and n != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element "
                         f"(got {n})")
    if source.dim() not in (0, input.dim()) and input.dim() != 0:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.dim()}), "
                         f"destination dimensionality ({input.dim()})")
    if index._data.dtype != np.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{index.dtype.scalar_name}")
    if input.dtype is not source.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but "
                           f"got (self) {input.dtype.scalar_name} and (source) "
                           f"{source.dtype.scalar_name}")
    a, b = list(input.shape), list(source.shape)
    if a:
        del a[d]
    if b:
        del b[d]
    if a != b:  # torch prints the sizes space-separated
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {' '.join(map(str, a))} at "
                           f"dimension {d} and source slice shape: {' '.join(map(str, b))} at "
                           f"dimension 0.")
    if source.dim() and n != source.shape[d]:
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to "
                         f"source.size(dim) ({source.shape[d]})")
    size = input.shape[d] if input.dim() else 1
    for i in index._data.reshape(-1).tolist():
        if not 0 <= i < size:
            raise IndexError(f"index_copy_(): index {i} is out of bounds for dimension {d} "
                             f"with size {size}")
    return d


def _copied(input, d, index, source):
    """The values of ``input.index_copy(d, index, source)``, row-major as torch's result (a
    repeated index keeps the last slice, as torch's serial CPU kernel)."""
    data = np.array(input._data, order="C")
    src = source._data
    view = data.reshape(1) if data.ndim == 0 else np.moveaxis(data, d, 0)
    if src.ndim == 0:
        src = src.reshape(1)
    elif data.ndim:
        src = np.moveaxis(src, d, 0)
    for k, i in enumerate(index._data.reshape(-1).tolist()):  # in order: the last one wins
        view[i] = src[k]
    return data


def _copy_save(index, source):
    """torch keeps the index always (both formulas read it) and source only for source's
    own gradient (``expand_as(source)``)."""
    return {"index": index, "source": source if source.requires_grad else None}


@parses('index_copy(Tensor input, int dim, Tensor index, Tensor source, *, Tensor out = None)')
def index_copy(input, dim, index, source):
    """A copy of ``input`` whose slices ``index[i]`` along ``dim`` are ``source``'s slice i."""
    d = _copy_check(input, dim, index, source)
    return record(_copied(input, d, index, source), IndexCopyBackward0, (input, source),
                  save=_copy_save(index, source), dim=d, dim_arg=dim, source_dim=source.dim(),
                  index_tensor=index)


@parses('index_copy_(Tensor input, int dim, Tensor index, Tensor source)')
def index_copy_(self, dim, index, source):
    d = _copy_check(self, dim, index, source)
    return apply_inplace(self, _copied(self, d, index, source), IndexCopyBackward0,
                         (self, source), save=_copy_save(index, source), dim=d, dim_arg=dim,
                         source_dim=source.dim(), index_tensor=index)


class IndexCopyBackward0(Node):
    """out = self with the slices at index replaced by source's: self's gradient is ``grad``
    with those slices zeroed (index_fill), source's is those slices read back (index_select;
    a 0-d source takes the one slice, ``index.squeeze(0)``), as ``derivatives.yaml``."""

    def backward(self, grad):
        index = self.saved("index")
        g_self = grad.index_fill(self.dim_arg, index, 0) if self.needs_input_grad[0] else None
        g_source = None
        if self.needs_input_grad[1]:
            g_source = grad.index_select(self.dim_arg, index).expand_as(self.saved("source")) \
                if self.source_dim else grad.index_select(self.dim_arg, index.squeeze(0))
        return g_self, g_source

    def jvp(self, t_self, t_source):
        x, source = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_source = source.new_zeros(source.shape) if t_source is None else t_source
        return index_copy(t_self, self.dim, self.index_tensor, t_source)
