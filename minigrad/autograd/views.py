"""Views and their bookkeeping: what lets an in-place change through a view reach its base.

A view shares memory (and the version counter) with its *base*. Besides its ``grad_fn``, it
remembers its root base (``_base``) and how to look at the base again (``_view_fn``, composed
from the root). Three things use that:

* an in-place op on a view rewrites the base's history as ``CopySlices`` (``rebase_history``,
  in ``special_nodes.py`` next to the node);
* a view whose base changed in place after the view was made gets a fresh
  ``AsStridedBackward0`` node pointing at the base (``refresh_grad_fn``), as in torch;
* forward-mode AD gives a view changed in place a tangent that is a view of its base's.
"""

from __future__ import annotations

import re

import numpy as np

from minigrad.autograd import forward_grad, grad_mode
from minigrad.autograd.graph import Node, record
from minigrad.storage import _flat, root_array

# How a view was made, when that forbids changing it in place with autograd on (torch's
# CreationMeta; ``None`` is its DEFAULT: an ordinary view, which CopySlices handles).
NO_GRAD_MODE = "no_grad"  # made under no_grad: was the change meant to be tracked?
MULTI_OUTPUT_NODE = "multi_output"  # one of several views from one node (unbind)
IN_CUSTOM_FUNCTION = "custom_function"  # returned by a custom Function, whose backward it is
INFERENCE_MODE = "inference"  # made in inference mode (of a normal tensor)

_WHY = {
    MULTI_OUTPUT_NODE: " This view is the output of a function that returns multiple views. "
    "Such functions do not allow the output views to be modified inplace. You should replace "
    "the inplace operation by an out-of-place one.",
    NO_GRAD_MODE: " Given that this use case is ambiguous and error-prone, it is forbidden. You "
    "can clarify your code by moving both the view and the inplace either both inside the "
    "no_grad block (if you don't want the inplace to be tracked) or both outside (if you want "
    "the inplace to be tracked).",
    INFERENCE_MODE: " Given that this use case is ambiguous and error-prone, it is forbidden. You "
    "can clarify your code by moving both the view and the inplace either both inside the "
    "inference_mode block (if you don't want the inplace to be tracked) or both outside (if you "
    "want the inplace to be tracked).",
    IN_CUSTOM_FUNCTION: " This view was created inside a custom Function (or because an input "
    "was returned as-is) and the autograd logic to handle view+inplace would override the "
    "custom backward associated with the custom Function, leading to incorrect gradients. This "
    "behavior is forbidden. You can fix this by cloning the output of the custom Function.",
}


def make_view(base, out, view_fn, creation_meta=None) -> None:
    """Make ``out`` a view of ``base``: ``view_fn`` takes the same view of any tensor shaped
    like ``base``. A view made under no_grad remembers it, and so does any view of a view
    that remembers something (torch's ``propagate_creation_meta``)."""
    parent_fn = base._view_fn
    root = base._base
    out._base = root if root is not None else base
    out._view_fn = view_fn if parent_fn is None else _compose(parent_fn, view_fn)
    counter = base._counter  # base._version_counter, the property written out (every view)
    if counter is None:
        counter = base._version_counter  # made on first use
    out._counter = counter
    out._view_version = counter[0]
    out._is_inference = base._is_inference  # a view of a normal tensor is a normal tensor
    state = grad_mode._state  # grad_mode's two questions, read without the calls
    if state.inference:
        creation_meta = INFERENCE_MODE
    elif not state.enabled:
        creation_meta = NO_GRAD_MODE
    base_meta = base._creation_meta
    if creation_meta is None or base_meta == INFERENCE_MODE:
        creation_meta = base_meta or creation_meta
    out._creation_meta = creation_meta


def check_view_rebase(view, indirect: bool = False) -> None:
    """torch's ``handle_view_on_rebase``: a view that CopySlices cannot rewrite correctly
    (made under no_grad, one of several outputs, or a custom Function's output) may not
    change in place, directly or through its base (``indirect``), while autograd records."""
    meta = view._creation_meta
    if meta is None:
        return
    fn = view._grad_fn
    modified = "its base or another view of its base has been" if indirect else "is being"
    name = None if fn is None else re.sub(r"Backward\d*$", "", fn.name())
    if meta in (NO_GRAD_MODE, INFERENCE_MODE) or fn is None:
        prefix = ("A view was created in" if fn is None else
                  f"Output {view._output_nr} of {name} is a view of a view which was created in")
        if meta == INFERENCE_MODE:
            msg = f"{prefix} inference mode and {modified} modified inplace in normal mode."
        else:
            msg = f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        msg = f"Output {view._output_nr} of {name} is a view and {modified} modified inplace."
    raise RuntimeError(msg + _WHY[meta])


def _compose(first, second):
    return lambda t: second(first(t))


def alias_of(t):
    """``t`` returned as a new tensor viewing the same memory (a custom Function that returns
    one of its inputs), as in torch."""
    out = type(t)._make(t._data)
    make_view(t, out, lambda x: x, NO_GRAD_MODE)  # torch makes it under no_grad
    return out


def refresh_grad_fn(view) -> None:
    """A view whose base changed in place since the view was made (its version is behind):
    the view's old ``grad_fn`` describes old values, so, like torch, give it a new
    ``AsStridedBackward0`` node that reads the base as it is now."""
    base = view._base
    if view._grad_fn is None and not base.requires_grad:
        view._view_version = view._version_counter[0]
        return
    check_view_rebase(view, indirect=True)
    view._view_version = view._version_counter[0]
    if base.requires_grad:
        # where the view sits in the base's memory is found only if asked (``geometry``)
        record(AsStridedBackward0, (base,), (view,), view_fn=view._view_fn,
               base_layout=(base._data.strides, base._make))


_OWN = object()  # as_strided's offset_arg: the storage_offset it computes with


def as_strided(input, size, stride, storage_offset, offset_arg=_OWN):
    """torch's ``as_strided``: the memory of ``input`` seen with ``size`` and ``stride``
    (counted in elements), from ``storage_offset`` elements into that memory. Unchecked:
    ``torch.as_strided`` (``_ops/shape.py``) checks its arguments first; minigrad also uses it
    where torch's own backward steps do (``CopySlices`` and ``AsStridedBackward0`` under
    ``create_graph``). ``offset_arg``: the offset as torch.as_strided was given it (None for
    the input's own), which the node shows as ``_saved_storage_offset``."""
    memory = _flat(root_array(input._data), input._data.dtype)
    size, stride = tuple(size), tuple(stride)
    data = np.lib.stride_tricks.as_strided(memory[storage_offset:], size,
                                           tuple(s * memory.itemsize for s in stride))
    out = input._make(data)
    fn = lambda t: as_strided(t, size, stride, storage_offset)  # noqa: E731
    attrs = dict(view_fn=fn, offset_arg=storage_offset if offset_arg is _OWN else offset_arg,
                 _geometry=((size, stride, storage_offset),
                            (tuple(input.shape), input.stride(), input.storage_offset())))
    if grad_mode.is_grad_enabled() and input.requires_grad:
        record(AsStridedBackward0, (input,), (out,), **attrs)
    if forward_grad._state.level is not None:
        forward_grad.propagate((out,), AsStridedBackward0, (input,), None, attrs)
    make_view(input, out, fn)
    return out


def locate(view_fn, make, shape, byte_strides, dtype):
    """The sizes, strides and storage offset (in elements) of the view ``view_fn`` takes of a
    tensor laid out as given, and that tensor's: the view of an empty one, so nothing is read
    or copied."""
    itemsize = np.dtype(dtype).itemsize
    stride = tuple(s // itemsize for s in byte_strides)
    memory = np.empty(_storage_size(shape, stride, 0), dtype)
    view = view_fn(make(np.lib.stride_tricks.as_strided(memory, shape, byte_strides)))
    return (tuple(view.shape), view.stride(), view.storage_offset()), (tuple(shape), stride, 0)


class AsStridedBackward0(Node):
    """out = as_strided(self, size, stride, storage_offset); also the grad_fn torch gives a
    view whose base changed in place after the view was made.

    Its backward is torch's ``as_strided_backward``: put the gradient in a zeroed copy of the
    memory, the way the view sees it, then read that memory the way ``self`` does. A view
    that repeats elements (an ``expand``, overlapping windows) adds their gradients up."""

    @property
    def geometry(self):
        """``((size, stride, storage_offset), (self's sizes, strides, storage offset))``. For
        a stale view, found when first asked (the in-place op on the base does not pay)."""
        if "_geometry" not in self.__dict__:
            byte_strides, make = self.base_layout
            shape, dtype = self._input_meta[0]
            self._geometry = locate(self.view_fn, make, shape, byte_strides, dtype)
        return self._geometry

    def backward(self, grad):
        (size, stride, offset), (in_size, in_stride, in_offset) = self.geometry
        if 0 in size or 0 in in_size:
            return grad.new_zeros(in_size)
        seen = [(n, s) for n, s in zip(in_size, in_stride) if n != 1]  # what self reaches
        out_size, out_stride = [], []
        for i in reversed(range(len(size))):  # size-1 dims go, stride-0 dims add up
            n, s = size[i], stride[i]
            if n == 1:
                grad = grad.squeeze(i)
            elif s == 0:
                grad = grad.sum(i)
            else:
                out_size.insert(0, n)
                out_stride.insert(0, s)
        shared = min(in_offset, offset)
        in_offset, out_offset = in_offset - shared, offset - shared
        storage = grad.new_zeros(max(_storage_size(in_size, in_stride, in_offset),
                                     _storage_size(out_size, out_stride, out_offset)))
        positions = grad._make(np.arange(storage.shape[0]))
        if _may_overlap(out_size, out_stride):  # repeated elements: their gradients add up
            where = as_strided(positions, out_size, out_stride, out_offset).reshape(-1)
            storage.index_add_(0, where, grad.reshape(-1))
        else:
            as_strided(storage, out_size, out_stride, out_offset).copy_(grad)
        if seen and _may_overlap(*zip(*seen)):  # self repeats memory: each share divided
            where = as_strided(positions, in_size, in_stride, in_offset).reshape(-1)
            count = storage.new_zeros(storage.shape)
            count.index_add_(0, where, grad.new_ones(1).expand(where.shape[0]))
            storage.div_(count)  # (nan where self does not reach, as in torch)
        return as_strided(storage, in_size, in_stride, in_offset)

    def jvp(self, t):
        """The same view of the tangent, read from memory laid out as ``self``'s (torch gives
        a tangent its primal's layout; minigrad's may be contiguous where the primal is not),
        zero where ``self`` does not reach. (Under forward AD alone, ``self`` is the op's
        context, which carries the geometry as recorded.)"""
        geometry = getattr(self, "_geometry", None) or self.geometry
        (size, stride, offset), (in_size, in_stride, in_offset) = geometry
        if t.stride() != in_stride or t.storage_offset() != in_offset:
            memory = t.new_zeros(max(_storage_size(in_size, in_stride, in_offset),
                                     _storage_size(size, stride, offset)))
            placed = as_strided(memory, in_size, in_stride, in_offset)
            placed.copy_(t)
            t = placed
        return self.view_fn(t)


def _storage_size(size, stride, offset) -> int:
    """How many elements of memory a tensor of this geometry reaches (torch's
    ``_min_storage_size``)."""
    if 0 in size:
        return offset
    return offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))


def _may_overlap(size, stride) -> bool:
    """Whether two elements of this geometry may share memory (torch's
    ``_maybe_overlapping_memory``: dims by stride, each stride past all the smaller dims)."""
    reach = 0
    for s, n in sorted(zip(stride, size)):
        if s <= reach:
            return True
        reach += s * (n - 1)
    return False
