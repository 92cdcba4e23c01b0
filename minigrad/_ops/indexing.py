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

import re

import numpy as np

from minigrad import _dtype, _layout
from minigrad._numeric import cast
from minigrad._ops._args import parses
from minigrad._ops._core import check_same_shape_broadcast, record, record_view, warn_at_caller
from minigrad._ops.pointwise import mul_scalar
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


@parses('select(Tensor input, int dim, int index)')
def select(input, dim, index, *, _from_getitem=None):
    if input.dim() == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input.dim())
    size = input._data.shape[d]
    if not -size <= index < size:
        if _from_getitem is not None:  # x[...]: torch names the index's place in the tuple
            raise IndexError(f"index {index} is out of bounds for dimension {_from_getitem} "
                             f"with size {size}")
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input._data.shape)} at dimension {d}")
    i = index % size
    data = input._data[(slice(None),) * d + (i, Ellipsis)]  # the Ellipsis keeps a 0-d view
    return record_view(input, data, SelectBackward0, lambda t: t.select(d, i),
                       self_shape=input._data.shape, dim=d, dim_arg=dim, index=index)


class SelectBackward0(Node):
    """out = self[..., index, ...]: the gradient goes back into a zero tensor at ``index``."""

    def backward(self, grad):
        return view_backward(grad, self, self.view_fn, SelectBackwardBackward0)

    def jvp(self, t):
        return self.view_fn(t)


def view_backward(grad, node, read, node_cls):
    """torch's select_backward and slice_backward: ``grad`` put into a zero tensor shaped
    like the view's input, at the place ``read`` reads. An op of its own
    (SelectBackwardBackward0, SliceBackwardBackward0), so that under ``create_graph`` the
    gradient's graph is torch's; its own gradient reads that place again."""
    data = np.zeros(node.self_shape, dtype=grad._data.dtype)
    read(Tensor._make(data))._data[...] = grad._data  # a NumPy view of ``data``
    return record(data, node_cls, (grad,), read=read, self_shape=node.self_shape,
                  **{f: getattr(node, f) for f in node_cls.fields})


class SelectBackwardBackward0(Node):
    """out = select_backward(grad): ``grad`` in a zero tensor at the selected index"""

    fields = ("dim_arg", "index")

    def backward(self, grad):
        return self.read(grad)

    def jvp(self, t):
        return view_backward(t, self, self.read, self.node_cls)


class SliceBackwardBackward0(SelectBackwardBackward0):
    """out = slice_backward(grad): ``grad`` in a zero tensor at the slice"""

    fields = ("dim_arg", "start", "end", "step")


def _stop(index: slice):
    """A Python slice's end as torch's indexing passes it to ``slice``: an omitted end is
    INT64_MAX there (``x[1:]``), while torch's own formulas pass none (``_saved_end`` None)."""
    return 2**63 - 1 if index.stop is None else index.stop


def slice_dim(input, dim, start, stop, step):
    """torch's ``slice`` op: ``dim`` as given (narrow passes -1 through), ``stop`` None for
    a formula's open end."""
    if step is not None and step <= 0:
        raise ValueError("step must be greater than zero")
    d = _wrap_dim(dim, input.dim())
    s = slice(start, stop, step)
    index = (slice(None),) * d + (s,)
    return record_view(input, input._data[index], SliceBackward0,
                       lambda t: t._slice(d, start, stop, step),
                       self_shape=input._data.shape, dim=d, dim_arg=dim,
                       start=0 if start is None else start, end=stop,
                       step=1 if step is None else step)


class SliceBackward0(SelectBackward0):
    """out = self[..., start:end:step, ...]"""

    def backward(self, grad):
        return view_backward(grad, self, self.view_fn, SliceBackwardBackward0)


def alias(input):
    return record_view(input, input._data.view(), AliasBackward0, lambda t: t)


class AliasBackward0(Node):
    def backward(self, grad):
        return grad

    def jvp(self, t):
        return t


_SEQUENCES = (Tensor, list, tuple, range, np.ndarray)  # index tensors, or read as one


def _is_advanced(i) -> bool:
    return isinstance(i, _SEQUENCES) or isinstance(i, bool)


def check_index(items) -> None:
    """torch's errors for an index of the wrong type: a float, or a float tensor."""
    for i in items:
        if isinstance(i, float):
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                             "byte Variables are valid indices (got float)")
        if isinstance(i, Tensor) and i.dtype.is_floating_point:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def to_numpy_index(indices):
    """aten::index's list of index tensors as a NumPy index: None takes a whole dim; a uint8
    tensor is a mask (deprecated: torch's warning)."""
    if not isinstance(indices, tuple | list):
        indices = (indices,)
    out = []
    for i in indices:
        if i is None:
            out.append(slice(None))
        elif isinstance(i, Tensor):
            if i.dtype is _dtype.uint8:
                warn_at_caller("indexing with dtype torch.uint8 is now deprecated, please use "
                               "a dtype torch.bool instead.")
                out.append(i._data.astype(bool))
            else:
                out.append(i._data)
        else:
            out.append(i)
    return tuple(out)


def getitem(input, index):
    """``x[index]`` as torch's ``THPVariable_getitem``: ints, slices, None and ... first, as
    views (``apply_slicing``); then, if tensors or lists remain, one ``index`` op on that
    view. (NumPy would take an int beside a list as part of the advanced index, and move the
    result's dims elsewhere: ``x[0, :, [1, 2]]``.)"""
    if input.dim() == 0 and index not in (None, Ellipsis) and not isinstance(index, tuple):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    index = sequence_as_tuple(index)
    items = index if isinstance(index, tuple) else (index,)
    check_index(items)
    if any(_is_advanced(i) for i in items):
        view, indices = apply_slicing(input, items)
        if indices:
            return index_op(view, indices)
        return alias(input) if view is input else view
    if isinstance(index, slice):  # a lone slice is always recorded, even x[:]
        return slice_dim(input, 0, index.start, _stop(index), index.step)
    out = _basic(input, items)
    return alias(input) if out is input else out


def sequence_as_tuple(index):
    """torch's ``treatSequenceAsTuple`` (NumPy's old rule): a list holding a tensor, a
    sequence, a slice, ``...`` or None is read as a tuple of indices, with torch's
    deprecation warning (``x[[[0, 1], [1, 0]]]`` is ``x[[0, 1], [1, 0]]``)."""
    if type(index) is not list or len(index) >= 32:
        return index
    for obj in index:
        if isinstance(obj, (*_SEQUENCES, slice)) or obj is Ellipsis or obj is None:
            warn_at_caller(
                "Using a non-tuple sequence for multidimensional indexing is deprecated and "
                "will be changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In "
                "pytorch 2.9 this will be interpreted as tensor index, x[torch.tensor(seq)], "
                "which will result either in an error or a different result")
            return tuple(index)
    return index


def apply_slicing(input, items):
    """torch's ``applySlicing``: the ints, slices, None and ... of ``items`` applied to
    ``input`` left to right as views, and the tensor indices kept, each for the dim it
    reaches, for one ``index`` (or ``index_put_``) afterwards: ``(view, indices)``, indices
    with None for a dim no tensor indexes. A bool (or a 0-d bool tensor) adds a dim of size
    1 and indexes it with ``[0]`` (True) or ``[]`` (False); a 0-d integer tensor is an int; a
    k-dim mask reaches k dims."""
    specified = sum(_dims_taken(i) for i in items)
    if specified > input.dim():
        raise IndexError(f"too many indices for tensor of dimension {input.dim()}")
    out, dim, indices, extra = input, 0, [], 0  # extra: dims reached by masks beyond one
    for place, i in enumerate(items):
        if isinstance(i, Tensor) and i.dim() == 0 and i.dtype is not _dtype.bool \
                and i.dtype is not _dtype.uint8 and not i.dtype.is_floating_point:
            i = int(i.item())  # a 0-d integer tensor indexes as an int
        if i is Ellipsis:
            dim += input.dim() - specified
        elif i is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(i, bool) or (isinstance(i, Tensor) and i.dim() == 0):
            out = out.unsqueeze(dim)  # True keeps the new dim whole, False empties it
            kept = [0] if bool(i.item() if isinstance(i, Tensor) else i) else []
            indices += [None] * (dim - extra - len(indices))
            indices.append(Tensor._make(np.array(kept, dtype=np.int64)))
            dim += 1
        elif isinstance(i, slice):
            if not _is_full(i, out._data.shape[dim]):
                out = slice_dim(out, dim, i.start, _stop(i), i.step)
            dim += 1
        elif isinstance(i, _SEQUENCES):  # a list, a range, a tuple inside the tuple...
            t = _index_tensor(i)
            indices += [None] * (dim - extra - len(indices))
            indices.append(t)
            taken = t.dim() if t.dtype in (_dtype.bool, _dtype.uint8) else 1
            dim += taken
            extra += taken - 1
        else:
            out = select(out, dim, int(i), _from_getitem=place)
    return out, indices


def _dims_taken(i) -> int:
    """How many of the input's dims an index item uses (torch's count_specified_dimensions)."""
    if i is None or i is Ellipsis or isinstance(i, bool):
        return 0
    if isinstance(i, Tensor) and i.dtype in (_dtype.bool, _dtype.uint8):
        return i.dim()
    return 1


def _index_tensor(i) -> Tensor:
    """An index given as a list, an array or a tensor, as the tensor torch indexes with."""
    if isinstance(i, Tensor):
        return i
    return Tensor._make(np.asarray(i) if isinstance(i, np.ndarray) else _list_index(list(i)))


def _list_index(values: list) -> np.ndarray:
    """A list index as torch reads it (``indexing_tensor_from_data``): all bools make a mask,
    anything else int64 (a float truncated: ``x[[1.7]]`` is ``x[[1]]``)."""
    data = np.asarray(values)
    return data if data.dtype == bool and data.size else data.astype(np.int64)


def index_op(input, indices):
    """aten::index: ``input`` at the index tensors ``indices`` (None takes a whole dim),
    copied (IndexBackward0)."""
    try:
        data = input._data[to_numpy_index(indices)]
    except IndexError as e:
        items = tuple(slice(None) if i is None else i for i in indices)
        raise IndexError(_torch_index_message(str(e), input, items)) from None
    return record(_layout.row_major(data), IndexBackward0, (input,), save=save_indices(indices),
                  index=tuple(indices), self_shape=input._data.shape)


_OUT_OF_BOUNDS = re.compile(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)")
_BROADCAST = re.compile(r"indexing arrays could not be broadcast together with shapes (.*)")
_MASK = re.compile(r"along axis (\d+); size of axis is (\d+) but size of corresponding "
                   r"boolean axis is (\d+)")


def _torch_index_message(message: str, input, items) -> str:
    """NumPy's advanced-indexing errors in torch's words (an index out of range, a mask of
    the wrong shape); anything else as NumPy says it."""
    m = _OUT_OF_BOUNDS.search(message)
    if m:  # torch moves the indexed dims to the front first: it counts among those
        dims, d = [], 0
        for i in items:
            if i is Ellipsis:
                dims = None
                break
            if isinstance(i, Tensor | list):
                dims.append(d)
            d += 0 if i is None else 1
        axis = int(m[2])
        dim = dims.index(axis) if dims and axis in dims else axis
        return f"index {m[1]} is out of bounds for dimension {dim} with size {m[3]}"
    m = _BROADCAST.search(message)
    if m:
        shapes = ", ".join(str([int(n) for n in re.findall(r"\d+", shape)])
                           for shape in re.findall(r"\([^)]*\)", m[1]))
        return ("shape mismatch: indexing tensors could not be broadcast together with "
                f"shapes {shapes}")
    m = _MASK.search(message)
    masks = [i for i in items if (isinstance(i, Tensor) and i.dtype is _dtype.bool)
             or (isinstance(i, list) and i and all(isinstance(b, bool) for b in i))]
    if m and len(masks) == 1 and Ellipsis not in items:
        offset = 0  # the input dim the mask starts at
        for i in items:
            if i is masks[0]:
                break
            offset += 0 if i is None else 1
        axis = int(m[1])
        shape = list(masks[0].shape) if isinstance(masks[0], Tensor) else [len(masks[0])]
        return (f"The shape of the mask {shape} at index {axis - offset} does "
                f"not match the shape of the indexed tensor {list(input.shape)} at index "
                f"{axis}")
    return message


def save_indices(index) -> dict:
    """The index tensors, saved like any input a formula reads: changing one in place
    before backward is caught by its version counter, as in torch."""
    items = index if isinstance(index, tuple | list) else (index,)
    return {f"indices{i}": t for i, t in enumerate(items) if isinstance(t, Tensor)}


def check_indices(node) -> None:
    """Unpack the saved index tensors: raises if one changed in place since the forward."""
    for key in list(node._saved):
        if key.startswith("indices"):
            node.saved(key)


def put(data, indices, values, accumulate):
    """A copy of ``data`` with ``values`` put (or added, with ``accumulate``) at ``indices``
    (None takes a whole dim), with torch's errors."""
    index = to_numpy_index(indices)
    out = data.copy()
    try:
        if accumulate:
            np.add.at(out, index, values)
        else:
            out[index] = values
    except IndexError as e:
        items = tuple(slice(None) if i is None else i for i in (
            indices if isinstance(indices, tuple | list) else (indices,)))
        message = str(e)
        if "arrays used as indices must be" in message:
            message = "tensors used as indices must be long, int, byte or bool tensors"
        raise IndexError(_torch_index_message(message, Tensor._make(data), items)) from None
    except ValueError:  # values that do not broadcast to what the index picks
        picked = list(data[index].shape)
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(np.shape(values))} "
                           f"cannot be broadcast to indexing result of shape {picked}") from None
    return out


# --- the ops that backward formulas call: torch's writes into a fresh zero tensor -------------
# Advanced indexing, index_select and masked_select put their gradient back into zeros with an
# in-place op of torch's (_index_put_impl_, index_add_, masked_scatter_): recorded here as the
# same nodes, so that a gradient made with create_graph has torch's graph.
def index_put_impl(zeros, indices, values):
    """torch's ``zeros._index_put_impl_(indices, values, accumulate=True)``: advanced
    indexing's backward (IndexPutImplBackward0)."""
    return record(put(zeros._data, indices, values._data, True), IndexPutImplBackward0,
                  (zeros, values), save=save_indices(indices), index=indices, accumulate=True)


class IndexPutImplBackward0(Node):
    """out = self with ``values`` added at ``index``: self's gradient passes through, values'
    is read back at ``index``."""

    def backward(self, grad):
        check_indices(self)
        return grad, index_op(grad, self.index) if self.needs_input_grad[1] else None

    def jvp(self, t_self, t_values):
        x, values = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_values = values.new_zeros(values.shape) if t_values is None else t_values
        return index_put_impl(t_self, self.index, t_values)


def index_add_into_zeros(zeros, dim, index, source, dim_arg):
    """torch's ``zeros.index_add_(dim, index, source)``, as index_select's backward calls it:
    ``source``'s slices added at ``index`` along ``dim`` (IndexAddBackward0)."""
    key = (slice(None),) * dim + (index.reshape(-1),)
    target = zeros._data.reshape(1) if zeros.dim() == 0 else zeros._data  # a 0-d input
    data = put(target, key, source._data, True).reshape(zeros._data.shape)
    return record(data, IndexAddBackward0,
                  (zeros, source), save={"index": index, "source": source}, dim=dim,
                  dim_arg=dim_arg, alpha=1, source_dim=source.dim(), index=index)


class IndexAddBackward0(Node):
    """out = self with ``alpha`` times source's slices added at index along dim: self's
    gradient passes through, source's is read back at index (index_select), times ``alpha``
    unless it is 1 (torch's maybe_multiply). Also ``torch.index_add`` (``_ops/index_add.py``)."""

    def backward(self, grad):
        g_source = None
        if self.needs_input_grad[1]:
            index = self.saved("index")
            g_source = grad.index_select(self.dim_arg, index).expand_as(self.saved("source")) \
                if self.source_dim else grad.index_select(self.dim_arg, index.squeeze(0))
            if self.alpha != 1:
                g_source = mul_scalar(g_source, self.alpha)
        return grad, g_source

    def jvp(self, t_self, t_source):
        x, source = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        if t_source is None:
            t_source = source.new_zeros(source.shape)
        elif self.alpha != 1:
            t_source = mul_scalar(t_source, self.alpha)
        # the index as an attribute: torch saves it only for source's gradient, and forward
        # mode needs it either way
        return index_add_into_zeros(t_self, self.dim, self.index_tensor, t_source, self.dim_arg)


def masked_scatter_into_zeros(zeros, mask, source):
    """torch's ``zeros.masked_scatter_(mask, source)``, as masked_select's backward calls it:
    ``source``'s elements, in order, where ``mask`` is True (MaskedScatterBackward0)."""
    data = scattered(zeros._data, mask, source)
    return record(data, MaskedScatterBackward0, (zeros, source), save={"mask": mask},
                  source_shape=source._data.shape, mask=mask)


def check_masked_scatter(input, mask, source):
    """torch's masked_scatter checks after the broadcast: dtypes, a bool mask."""
    if input.dtype is not source.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{input.dtype.scalar_name} and {source.dtype.scalar_name}")
    if mask.dtype is not _dtype.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {mask.dtype.scalar_name}")


def scattered(data, mask, source):
    """A row-major copy of ``data`` (broadcast with ``mask``) with ``source``'s first elements,
    in order, where ``mask`` is True."""
    shape = np.broadcast_shapes(data.shape, mask._data.shape)
    out = np.array(np.broadcast_to(data, shape), order="C")
    where = np.broadcast_to(mask._data, shape)
    count = int(np.count_nonzero(where))
    if source.numel() < count:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    out[where] = source._data.reshape(-1)[:count]
    return out


@parses('masked_scatter(Tensor input, Tensor mask, Tensor source)')
def masked_scatter(input, mask, source):
    """A copy of ``input`` (broadcast with ``mask``) with ``source``'s elements, in order,
    where ``mask`` is True. The masked_scatter_ in place is in ``inplace.py``."""
    check_same_shape_broadcast(mask._data, input._data)
    check_masked_scatter(input, mask, source)
    return record(scattered(input._data, mask, source), MaskedScatterBackward0,
                  (input, source), save={"mask": mask}, source_shape=source._data.shape,
                  mask=mask)


class MaskedScatterBackward0(Node):
    """out = self with source's elements where mask: self's gradient is zero there (the
    engine sums a broadcast self back), source's is the gradient read back from there,
    zero-padded to source's size (torch's masked_scatter_backward)."""

    def backward(self, grad):
        mask = self.saved("mask")
        return (grad.masked_fill(mask, 0) if self.needs_input_grad[0] else None,
                masked_scatter_backward(grad, mask, self.source_shape)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_source):
        x, source = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_source = source.new_zeros(source.shape) if t_source is None else t_source
        return masked_scatter(t_self, self.mask, t_source)


def masked_scatter_backward(grad, mask, sizes):
    """torch's ``masked_scatter_backward``: ``grad`` where ``mask`` is True, zero-padded to
    ``sizes``' element count and shaped so (its own node, MaskedScatterBackwardBackward0)."""
    shape = np.broadcast_shapes(grad._data.shape, mask._data.shape)
    picked = np.broadcast_to(grad._data, shape)[np.broadcast_to(mask._data, shape)]
    n = int(np.prod(sizes, dtype=np.int64))
    data = np.zeros(n, grad._data.dtype)
    data[:picked.size] = picked
    return record(data.reshape(sizes), MaskedScatterBackwardBackward0, (grad,),
                  save={"mask": mask}, mask=mask, grad_shape=grad._data.shape)


class MaskedScatterBackwardBackward0(Node):
    """out = grad_output's elements where mask, padded: the gradient goes back where mask is
    True (``zeros_like(grad_output).masked_scatter(mask, grad)``)."""

    def backward(self, grad):
        zeros = Tensor._make(np.zeros(self.grad_shape, grad._data.dtype))
        return masked_scatter(zeros, self.saved("mask"), grad)

    def jvp(self, t):
        return masked_scatter_backward(t, self.mask, t.shape)  # torch's formula: t's sizes


class IndexBackward0(Node):
    """Advanced indexing copies; the gradient is scattered back, adding at repeated indices."""

    def backward(self, grad):
        check_indices(self)
        return index_put_impl(grad.new_zeros(self.self_shape), self.index, grad)

    def jvp(self, t):
        return index_op(t, self.index)


def _basic(input, items):
    """Ints, slices, ``None`` and ``...`` applied left to right; slices that keep everything
    are skipped, so the result is ``input`` itself when nothing narrows it."""
    return apply_slicing(input, items)[0]


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
    index = sequence_as_tuple(index)
    items = index if isinstance(index, tuple) else (index,)
    check_index(items)
    if any(_is_advanced(i) for i in items):
        target, indices = apply_slicing(input, items)
        if indices:  # torch's dispatch_index_put_ on the narrowed view
            if isinstance(value, Tensor):
                if len(indices) == 1 and indices[0].dtype is _dtype.bool and value.dim() == 0:
                    value = value.to(input.dtype)  # a mask is filled with a 0-d of any dtype
                sizes = _without_leading_ones(value.shape)
                if len(sizes) != value.dim():
                    value = value.view(*sizes)
            target._index_put_padded(tuple(indices), value)  # None: a whole dim
            return
    else:
        target = _basic(input, items)
    if not isinstance(value, Tensor):
        _dtype.check_number_fits(value, input.dtype)
        value = Tensor._make(cast(value, input._data.dtype))
    if value.shape == target.shape:
        target.copy_(value)
    elif value.dim() == 0:
        target.fill_(value)
    else:
        value = value.view(*_without_leading_ones(value.shape))
        if value.shape != target.shape:
            value = value.expand(*target.shape)
        target.copy_(value)


def _without_leading_ones(shape) -> list:
    """torch's ``slicePrefix1sSize``: a value's sizes without its leading 1s (setitem views
    the value so before it broadcasts it)."""
    sizes = list(shape)
    while sizes and sizes[0] == 1:
        sizes.pop(0)
    return sizes


@parses(
    'scatter(Tensor input, int dim, Tensor index, Tensor src, *, Tensor out = None)',
    'scatter(Tensor input, int dim, Tensor index, Tensor src, *, str reduce, '
    'Tensor out = None)',
    'scatter(Tensor input, int dim, Tensor index, Number value, *, Tensor out = None)',
    'scatter(Tensor input, int dim, Tensor index, Number value, *, str reduce, '
    'Tensor out = None)',
)
def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """Out of place: a copy of ``input`` with ``src[i][j]`` put at ``[index[i][j]][j]`` (for
    ``dim=0``; the index replaces the coordinate along ``dim``), recorded as one
    ScatterBackward0, as in torch. Used by max/min backward. A number (``value``) records
    ScatterBackward1."""
    check_no_reduce(reduce)
    src = value if src is None else src
    if not isinstance(src, Tensor):
        return scatter_value(input, dim, index, src)
    d = _wrap_dim(dim, input.dim())
    src_t = src
    _check_index("scatter", input, d, index, src_t)
    values = _at_least_1d(src_t._data)[_leading(index, 1)]
    data = _at_least_1d(input._data).copy()
    data[_grids(index, d, 1)] = values
    return record(data.reshape(input._data.shape), ScatterBackward0, (input, src_t),
                  save={"index": index}, dim=d, dim_arg=dim)


class ScatterBackward0(Node):
    """out = self with src put at index: self's gradient is zero where src landed, src's
    gradient is the output's gradient read back from there (torch's ``gather``)."""

    def backward(self, grad):
        g_self = g_src = None
        index = self.saved("index")
        if self.needs_input_grad[0]:
            # a number: ScatterBackward1, as torch; the dim as given, as torch passes it
            g_self = grad.scatter(self.dim_arg, index, 0)
        if self.needs_input_grad[1]:
            g_src = grad.gather(self.dim_arg, index)
        return g_self, g_src

    def jvp(self, t_self, t_src):
        x, src = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_src = src.new_zeros(src.shape) if t_src is None else t_src
        return t_self.scatter(self.dim, self.index, t_src)


def _grids(index, dim, min_ndim=0):
    """The NumPy index that ``index`` stands for along ``dim``: its own coordinates elsewhere.
    (``min_ndim=1`` sees a 0-d index as one element, for an input seen as 1-D.)"""
    data = index._data.reshape(1) if index._data.ndim < min_ndim else index._data
    grids = list(np.indices(data.shape))
    grids[dim] = data
    return tuple(grids)


def _leading(index, min_ndim=0):
    """The part of ``src`` that scatter reads: a block of ``index``'s shape at the start."""
    shape = index._data.shape or (1,) * min_ndim
    return tuple(slice(0, n) for n in shape)


# --- reading and writing along one dim with an index tensor ---------------------------------
# An index tensor (or a mask) is saved for backward like any saved tensor, through
# ``SavedTensor``: changing it in place after the op makes backward raise the version error.

# The C++ element type names torch prints in masked_fill's dtype message.
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
              "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


_INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


def _check_index(op, input, dim, index, src=None):
    """torch's checks for gather/scatter: an integer index with as many dims as ``input``, no
    larger than it (and than ``src``) except along ``dim``, and every value in range."""
    if index._data.dtype not in _INDEX_DTYPES:
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")
    if src is not None and src._data.dtype != input._data.dtype:
        raise RuntimeError(f"{op}(): Expected self.dtype to be equal to src.dtype")
    n = max(input.dim(), 1)
    if max(index.dim(), 1) != n:
        what = "input" if op == "gather" else "self"
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {what} "
                           "tensor")
    if src is not None and max(src.dim(), 1) != n:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    shape, ishape = input._data.shape or (1,), index._data.shape or (1,)
    sshape = None if src is None else (src._data.shape or (1,))
    if index._data.size:
        for k in range(n):
            too_big = k != dim and ishape[k] > shape[k]
            if src is None and too_big:
                raise RuntimeError(
                    f"Size does not match at dimension {k} expected index {list(index.shape)} "
                    f"to be no larger than self {list(input.shape)} apart from dimension {dim}")
            if src is not None and (too_big or ishape[k] > sshape[k]):
                raise RuntimeError(
                    f"Expected index {list(index.shape)} to be no larger than self "
                    f"{list(input.shape)} apart from dimension {dim} and to be no larger size "
                    f"than src {list(src.shape)}")
    size = shape[dim]
    bad = (index._data < 0) | (index._data >= size)
    if bad.any():
        value = index._data[bad].flat[0]
        raise RuntimeError(f"index {value} is out of bounds for dimension {dim} with size {size}")


def _at_least_1d(data):
    return data.reshape(1) if data.ndim == 0 else data


@parses(
    'gather(Tensor input, int dim, Tensor index, *, bool sparse_grad = False, Tensor out = None)',
)
def gather(input, dim, index, *, sparse_grad=False):
    """``out[i][j] = input[index[i][j]][j]`` (for ``dim=0``): read along ``dim`` at ``index``."""
    if sparse_grad:
        raise NotImplementedError("minigrad has no sparse tensors: gather(sparse_grad=True) is "
                                  "not supported")
    d = _wrap_dim(dim, input.dim())
    _check_index("gather", input, d, index)
    data = _at_least_1d(input._data)[_grids(index, d, 1)].reshape(index._data.shape)
    return record(data, GatherBackward0, (input,), save={"self": input, "index": index}, dim=d,
                  dim_arg=dim, self_shape=input._data.shape)


class GatherBackward0(Node):
    """out = self read at index along dim: the gradient is added back where it was read
    (``scatter_add``: an index read twice gets both gradients)."""

    def backward(self, grad):
        self.saved("self")  # unused, but read as torch reads it: changed in place, it refuses
        index = self.saved("index")
        return grad.new_zeros(self.self_shape).scatter_add(self.dim_arg, index, grad)

    def jvp(self, t):
        return t.gather(self.dim, self.index)


@parses('scatter_add(Tensor input, int dim, Tensor index, Tensor src, *, Tensor out = None)')
def scatter_add(input, dim, index, src):
    """A copy of ``input`` with ``src[i][j]`` added at ``[index[i][j]][j]`` (``dim=0``);
    repeated indices add up."""
    d = _wrap_dim(dim, input.dim())
    _check_index("scatter", input, d, index, src)
    data = _at_least_1d(input._data).copy()
    np.add.at(data, _grids(index, d, 1), _at_least_1d(src._data)[_leading(index, 1)])
    return record(data.reshape(input._data.shape), ScatterAddBackward0, (input, src),
                  save={"index": index if src.requires_grad else None}, dim=d, dim_arg=dim,
                  index_tensor=index)


class ScatterAddBackward0(Node):
    """out = self + src added at index: self gets the gradient, src reads it back (gather)."""

    def backward(self, grad):
        g_src = grad.gather(self.dim_arg, self.saved("index")) if self.needs_input_grad[1] \
            else None
        return grad if self.needs_input_grad[0] else None, g_src

    def jvp(self, t_self, t_src):
        x, src = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_src = src.new_zeros(src.shape) if t_src is None else t_src
        return t_self.scatter_add(self.dim, self.index_tensor, t_src)  # (see IndexAddBackward0)


def check_no_reduce(reduce):
    if reduce is not None:
        raise NotImplementedError(
            "minigrad's scatter has no reduce argument (deprecated in torch, whose "
            "scatter_reduce replaces it); use scatter_add for reduce='add'")


def scatter_value(input, dim, index, value):
    """``scatter`` with a number: ``value`` put at ``index``; one ScatterBackward1 node."""
    d = _wrap_dim(dim, input.dim())
    _check_index("scatter", input, d, index)
    data = _at_least_1d(input._data).copy()
    data[_grids(index, d, 1)] = cast(value, data.dtype)
    return record(data.reshape(input._data.shape), ScatterBackward1, (input,),
                  save={"index": index}, dim=d, dim_arg=dim, value=value)


class ScatterBackward1(Node):
    """out = self with a number put at index: no gradient flows where it landed."""

    def backward(self, grad):
        return grad.scatter(self.dim_arg, self.saved("index"), 0)

    def jvp(self, t):
        return t.scatter(self.dim, self.index, 0)


@parses('index_select(Tensor input, int dim, Tensor index, *, Tensor out = None)')
def index_select(input, dim, index):
    """The slices of ``input`` at ``index`` (a vector, or one number) along ``dim``, copied."""
    d = _wrap_dim(dim, input.dim())
    if index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index._data.dtype not in _INDEX_DTYPES:
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    idx = _at_least_1d(index._data)
    if input.dim() == 0 and idx.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{idx.size} value(s)")
    size = input._data.shape[d] if input.dim() else 1
    if ((idx < 0) | (idx >= size)).any():
        raise IndexError("index out of range in self")
    data = np.take(_at_least_1d(input._data), idx, axis=d).reshape(
        input._data.shape[:d] + idx.shape + input._data.shape[d + 1:] if input.dim() else ())
    return record(data, IndexSelectBackward0, (input,), save={"index": index}, dim=d,
                  dim_arg=dim, self_shape=input._data.shape)


class IndexSelectBackward0(Node):
    """out = slices of self at index: each slice's gradient is added back where it was read
    (torch's ``index_add``: a repeated index gets the sum)."""

    def backward(self, grad):
        index = self.saved("index")
        return index_add_into_zeros(grad.new_zeros(self.self_shape), self.dim, index, grad,
                                    self.dim_arg)

    def jvp(self, t):
        return t.index_select(self.dim, self.index)


def _check_bool_mask(mask, message):
    if mask._data.dtype != np.bool_:
        raise RuntimeError(message.format(_CPP_NAMES.get(mask._data.dtype.name,
                                                         mask._data.dtype.name)))


@parses('masked_select(Tensor input, Tensor mask, *, Tensor out = None)')
def masked_select(input, mask):
    """The elements of ``input`` where ``mask`` is True, as a 1-D copy (both broadcast)."""
    _check_bool_mask(mask, "masked_select: expected BoolTensor for mask")
    check_same_shape_broadcast(mask._data, input._data)
    shape = np.broadcast_shapes(input._data.shape, mask._data.shape)
    data = np.broadcast_to(input._data, shape)[np.broadcast_to(mask._data, shape)]
    return record(data, MaskedSelectBackward0, (input,), save={"mask": mask, "self": input},
                  shape=shape)  # torch keeps self (its formula reads self's sizes)


class MaskedSelectBackward0(Node):
    """out = self[mask]: the gradient goes back where the mask is True (zeros elsewhere), in
    the broadcast shape; the engine sums it back to self's shape."""

    def backward(self, grad):
        return masked_scatter_into_zeros(grad.new_zeros(self.shape), self.saved("mask"), grad)

    def jvp(self, t):
        return t.masked_select(self.mask)


@parses(
    'masked_fill(Tensor input, Tensor mask, Tensor value)',
    'masked_fill(Tensor input, Tensor mask, Number value)',
)
def masked_fill(input, mask, value):
    """A copy of ``input`` with ``value`` where ``mask`` is True (both broadcast). A number
    records MaskedFillBackward0; a 0-d tensor MaskedFillBackward1, which also gives the value
    its gradient."""
    check_masked_fill(mask, value)
    check_same_shape_broadcast(mask._data, input._data)
    shape = np.broadcast_shapes(input._data.shape, mask._data.shape)
    if not isinstance(value, Tensor):
        _dtype.check_number_fits(value, input.dtype)
    fill = value._data if isinstance(value, Tensor) else value
    data = _layout.row_major(np.where(mask._data, cast(fill, input._data.dtype),
                                      np.broadcast_to(input._data, shape)))  # (as torch's)
    if isinstance(value, Tensor):
        return record(data, MaskedFillBackward1, (input, value), save={"mask": mask})
    return record(data, MaskedFillBackward0, (input,), save={"mask": mask})


def check_masked_fill(mask, value):
    _check_bool_mask(mask, "masked_fill_ only supports boolean masks, but got mask with dtype {}")
    if isinstance(value, Tensor) and value.dim() != 0:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.dim()} dimension(s).")


class MaskedFillBackward0(Node):
    """out = self with a number where mask: no gradient flows there."""

    def backward(self, grad):
        return grad.masked_fill(self.saved("mask"), 0)

    def jvp(self, t):
        return t.masked_fill(self.mask, 0)


class MaskedFillBackward1(Node):
    """out = self with a 0-d tensor ``value`` where mask: value gets the gradient's sum there."""

    def backward(self, grad):
        mask = self.saved("mask")
        g_self = grad.masked_fill(mask, 0) if self.needs_input_grad[0] else None
        g_value = grad.masked_select(mask).sum() if self.needs_input_grad[1] else None
        return g_self, g_value

    def jvp(self, t_self, t_value):
        x, value = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_value = value.new_zeros(()) if t_value is None else t_value
        return t_self.masked_fill(self.mask, t_value)
