"""``t.resize_(*sizes)`` and ``t.resize_as_(other)``: a new shape over the same memory.

Old books use them to reuse a buffer (``out.resize_(0)`` before an ``out=`` call, as torch's
resize warning suggests). torch's rules, on a CPU tensor:

* the same shape changes nothing (not even the strides or the version), unless a
  ``memory_format`` asks for new strides;
* any other shape gets contiguous strides (or the ``memory_format``'s) from the same storage
  offset: the values kept are the ones in memory order from there (a transposed tensor's
  memory order is its base's), and the version goes up by one (shared with views);
* a shape needing more memory than the storage has grows the storage: the old bytes are kept
  as the prefix, the new elements are uninitialised;
* a tensor that requires grad cannot be resized at all, not even under ``no_grad``.

torch grows a storage in place, so every tensor sharing it (a view, its base, a ``detach()``)
sees the larger memory. NumPy cannot enlarge memory in place for other arrays, so minigrad
grows only memory that no one else can see: held by the tensor alone, or by a view and a base
that only the view holds (``torch.arange(6.).reshape(2, 3)``), both moved onto the new memory.
Reference counts tell (NumPy's own test before ``ndarray.resize``); anything else holding the
memory gets a clear error instead of silently un-sharing it. Shrinking, or a shape that fits,
is always a view of the same memory, as in torch.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from minigrad import _layout, storage
from minigrad._ops._args import parses
from minigrad._ops.inplace import INFERENCE_INPLACE_ERROR
from minigrad._tensor import Tensor
from minigrad.autograd import grad_mode
from minigrad.autograd.forward_grad import tangent_of

_INT64_MAX = 2**63 - 1
_SHARED_GROWTH = (
    "minigrad cannot resize_ this tensor beyond its memory: other tensors or NumPy arrays share "
    "that memory (a view, its base, a detach() or a .numpy() array), and NumPy cannot grow "
    "memory in place for all of them as torch grows a storage. Resize a clone() instead.")


@parses("resize_(Tensor input, tuple of ints size, *, torch.memory_format? memory_format = None)",
        method=("resize_(tuple of ints size, *, torch.memory_format? memory_format = None)",))
def resize_(input, *sizes, memory_format=None):
    shape = _sizes(sizes)
    if input.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if input._is_inference and not grad_mode._state.inference:
        raise RuntimeError(INFERENCE_INPLACE_ERROR)
    same = shape == input._data.shape
    if same and memory_format is None:
        return input
    if memory_format is _layout.preserve_format:
        raise RuntimeError("Unsupported memory formatPreserve")
    _layout.check_memory_format(memory_format, len(shape))
    input._data = _resized(input, shape, memory_format)
    if not same:  # torch counts a change of sizes; a restride alone keeps the version
        input._bump_version()
    if tangent_of(input) is not None:  # (torch checks after resizing, as here)
        raise RuntimeError("cannot resize variables that has a forward grad")
    return input


@parses("resize_as_(Tensor input, Tensor the_template, *, "
        "torch.memory_format? memory_format = None)")
def resize_as_(input, the_template, memory_format=None):
    """The template's shape, contiguous; ``preserve_format`` gives a channels-last template's
    layout (torch's suggest_memory_format)."""
    if memory_format is _layout.preserve_format:
        memory_format = None
        for fmt in (_layout.channels_last, _layout.channels_last_3d):
            data = the_template._data
            if _layout.is_contiguous_as(data, fmt) and not data.flags.c_contiguous:
                memory_format = fmt
    return resize_(input, *the_template._data.shape, memory_format=memory_format)


def _sizes(sizes) -> tuple:
    """The shape, with torch's numel check: sizes multiplied as unsigned 64-bit integers, so
    a negative size overflows, unless a zero came first (``resize_(0, -1)`` passes in torch,
    but NumPy has no negative sizes)."""
    shape = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], tuple | list) else sizes
    product, overflow = 1, False
    for s in shape:
        product *= s % 2**64
        overflow |= product >= 2**64
        product %= 2**64
    if overflow or product > _INT64_MAX:
        raise RuntimeError("numel: integer multiplication overflow")
    if any(s < 0 for s in shape):
        raise RuntimeError(f"minigrad cannot make a tensor of negative size {list(shape)} "
                           "(torch accepts it here since a size is 0)")
    return tuple(int(s) for s in shape)


def _resized(t: Tensor, shape: tuple, memory_format) -> np.ndarray:
    """``shape`` over ``t``'s memory from its storage offset, that memory grown if it must be
    (and the base of a view moved onto the grown memory with it, as torch's shared storage)."""
    sharers = _sharers(t)  # first: this function's own names would hold the memory too
    root = storage.root_array(t._data)
    if not root.flags.c_contiguous:  # (an owner that is not one block: never made by minigrad)
        raise RuntimeError(_SHARED_GROWTH)
    itemsize = t._data.itemsize
    if memory_format in (_layout.channels_last, _layout.channels_last_3d):
        strides = _layout.channels_last_strides(shape)
    else:
        strides = _layout._row_major(shape)
    offset = _byte_offset(t._data, root)
    memory = root
    if offset + math.prod(shape) * itemsize > root.nbytes:
        if not storage.resizable(root):  # a NumPy array's memory (from_numpy), as torch
            raise RuntimeError("Trying to resize storage that is not resizable")
        if sharers is None:
            raise RuntimeError(_SHARED_GROWTH)
        memory = np.empty(offset + math.prod(shape) * itemsize, np.uint8)  # uninitialised
        memory[:root.nbytes] = root.reshape(-1).view(np.uint8)
        for other in sharers[1:]:
            other._data = _over(memory, other._data, _byte_offset(other._data, root))
    return np.ndarray(shape, t._data.dtype, buffer=memory, offset=offset,
                      strides=tuple(s * itemsize for s in strides))


def _byte_offset(data: np.ndarray, root: np.ndarray) -> int:
    return data.__array_interface__["data"][0] - root.__array_interface__["data"][0]


def _over(memory: np.ndarray, data: np.ndarray, offset: int) -> np.ndarray:
    """``data``'s shape and strides, ``offset`` bytes into ``memory``."""
    return np.ndarray(data.shape, data.dtype, buffer=memory, offset=offset, strides=data.strides)


def _sharers(t: Tensor) -> list | None:
    """The tensors over ``t``'s memory: ``t``, and the base of a view when only that view
    holds it; None when anything else holds the memory too (another view, a ``detach()``, a
    NumPy array). NumPy's own test before ``ndarray.resize``: reference counts. Each array on
    the way from a tensor's data to the owner must be held by that tensor or by the array
    before it, and nothing else (besides ``objects`` and ``getrefcount``'s argument)."""
    tensors = [t]
    if t._base is not None:
        tensors.append(t._base)
        if sys.getrefcount(tensors[1]) != 3:  # t's ``_base``, ``tensors``, the argument
            return None
    objects, expected, seen = [], [], {}
    for tensor in tensors:
        link = tensor._data
        while link is not None:
            if id(link) in seen:
                expected[seen[id(link)]] += 1
                break
            seen[id(link)] = len(objects)
            objects.append(link)
            expected.append(1)
            link = getattr(link, "base", None)
    del link, tensor
    if not all(sys.getrefcount(objects[i]) == expected[i] + 2 for i in range(len(objects))):
        return None
    return tensors
