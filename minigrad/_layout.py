"""Layouts and memory formats: how a tensor's numbers lie in memory, torch's ``torch.strided``
and ``torch.contiguous_format`` / ``preserve_format`` / ``channels_last``.

A copy made "like" a tensor (``clone``, ``empty_like``, ``zeros_like``, ``randn_like``...) keeps
its layout by default (``preserve_format``): a transposed tensor's clone is transposed too, so
``x.t().clone().stride()`` is ``(1, rows)``, as in torch. This module computes the strides
torch gives such a copy and makes NumPy arrays with them.
"""

from __future__ import annotations

import functools

import numpy as np


class _Named:
    """One of torch's named constants: printed as ``minigrad.<name>``, pickled by name."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    def __reduce__(self):
        return self.name


class layout(_Named):  # noqa: N801 - torch's spelling
    """torch's ``torch.layout``: minigrad tensors are all ``strided`` (dense, with strides)."""

    __slots__ = ()


class memory_format(_Named):  # noqa: N801 - torch's spelling
    """torch's ``torch.memory_format``: the order a new tensor's numbers are laid out in."""

    __slots__ = ()


layout.__module__ = memory_format.__module__ = "minigrad"
strided = layout("strided")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")  # NHWC: a 4-d tensor's channels innermost
channels_last_3d = memory_format("channels_last_3d")  # NDHWC, for 5-d tensors

_CHANNELS_LAST_RANK = {channels_last: 4, channels_last_3d: 5}


def non_overlapping_and_dense(shape: tuple, strides: tuple) -> bool:
    """Do the elements fill one block of memory, each once (c10's
    ``is_non_overlapping_and_dense``)? ``strides`` in elements."""
    expected = 1
    for stride, size in sorted((st, s) for s, st in zip(shape, strides) if s != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def is_dense(data: np.ndarray) -> bool:
    """``non_overlapping_and_dense`` for an array: its elements fill one block of memory, in
    some order of the dims (row- and column-major settled without the walk)."""
    if data.flags.c_contiguous or data.flags.f_contiguous:
        return True
    return non_overlapping_and_dense(data.shape,
                                     tuple(s // data.itemsize for s in data.strides))


def infer_dense_strides(shape: tuple, strides: tuple) -> tuple:
    """ATen's ``infer_dense_strides``: dense strides in the order of ``strides`` (the order
    TensorIterator would give them, see ``_dense_in_order``)."""
    return _dense_in_order(shape, [strides])


def _dense_in_order(shape: tuple, operands: list) -> tuple:
    """Dense strides for ``shape``, its dims ordered as TensorIterator's
    ``reorder_dimensions`` orders them: a stable insertion sort, innermost first, where the
    first operand whose strides tell two dims apart decides (a stride of 0, a broadcast dim,
    tells nothing; equal strides put the smaller size first)."""
    ndim = len(shape)

    def should_swap(d0, d1) -> int:
        for strides in operands:
            s0, s1 = strides[d0], strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(ndim - 1, -1, -1))
    for i in range(1, ndim):
        d1 = i
        for j in range(1, i + 1):
            d0 = i - j
            comparison = should_swap(perm[d0], perm[d1])
            if comparison > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif comparison < 0:
                break
    out, step = [0] * ndim, 1
    for idx in perm:
        out[idx] = step
        step *= max(shape[idx], 1)
    return tuple(out)


def channels_last_strides(shape: tuple) -> tuple:
    """NHWC (or NDHWC) strides for an NCHW (NCDHW) shape."""
    n, c, *spatial = shape
    strides, step = [0] * len(shape), 1
    for axis in [1, *range(len(shape) - 1, 1, -1), 0]:
        strides[axis] = step
        step *= max(shape[axis], 1)
    return tuple(strides)


def check_memory_format(fmt, ndim: int) -> None:
    """torch's rank check for the channels-last formats."""
    rank = _CHANNELS_LAST_RANK.get(fmt)
    if rank is not None and ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt.name} format")


def strides_for(data: np.ndarray, fmt) -> tuple | None:
    """The strides (in elements) torch gives a new tensor made like ``data`` in memory format
    ``fmt`` (None: ``preserve_format``); None where that is row-major."""
    check_memory_format(fmt, data.ndim)
    if fmt is contiguous_format:
        return None
    fmt = None if fmt is preserve_format else fmt
    if fmt in _CHANNELS_LAST_RANK:
        return channels_last_strides(data.shape)
    if data.flags.c_contiguous and data.size and 1 not in data.shape:
        return None  # (the common case: nothing to work out)
    shape = data.shape
    strides = tuple(s // data.itemsize for s in data.strides)
    if non_overlapping_and_dense(shape, strides):
        return strides
    return infer_dense_strides(shape, strides)


@functools.lru_cache(maxsize=256)
def _row_major(shape: tuple) -> tuple:
    """NumPy's strides (in elements) for a new row-major array of ``shape``."""
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def empty_like_array(data: np.ndarray, dtype=None, fmt=None) -> np.ndarray:
    """A new (uninitialised) array shaped like ``data``, laid out as torch's ``empty_like``
    lays it out (``fmt``: a memory format, None for ``preserve_format``)."""
    dtype = np.dtype(dtype or data.dtype)
    strides = strides_for(data, fmt)
    if strides is None or data.size == 0:
        return np.empty(data.shape, dtype)
    if strides == _row_major(data.shape):
        return np.empty(data.shape, dtype)
    buffer = np.empty(data.size, dtype)
    return np.lib.stride_tricks.as_strided(
        buffer, data.shape, tuple(s * dtype.itemsize for s in strides), writeable=True)


def copy_like(data: np.ndarray, fmt=None) -> np.ndarray:
    """A copy of ``data`` laid out as torch's ``clone(memory_format=fmt)`` lays it out."""
    out = empty_like_array(data, None, fmt)
    np.copyto(out, data)
    return out


def is_contiguous_as(data: np.ndarray, fmt) -> bool:
    """``Tensor.is_contiguous(memory_format=fmt)``."""
    if fmt is None or fmt is contiguous_format or fmt is preserve_format:
        return bool(data.flags.c_contiguous)
    if fmt.name != ("channels_last" if data.ndim == 4 else "channels_last_3d" if data.ndim == 5
                    else None):
        return False
    expected = channels_last_strides(data.shape)
    actual = tuple(s // data.itemsize for s in data.strides)
    return all(e == a for e, a, n in zip(expected, actual, data.shape) if n != 1)


def iterator_strides(shape: tuple, arrays) -> tuple | None:
    """The strides (in elements) of the output TensorIterator allocates for an element-wise
    op on ``arrays`` (broadcast to ``shape``) when it takes no fast setup, or None when that
    is row-major: its dims ordered by the operands' strides (``_dense_in_order``)."""
    if len(shape) < 2:
        return None
    out = _dense_in_order(shape, [_broadcast_strides(a, shape) for a in arrays])
    return None if out == _row_major(shape) else out


def _broadcast_strides(a: np.ndarray, shape: tuple) -> tuple:
    """``a``'s strides (in elements) seen broadcast to ``shape``: 0 along a dim it is
    broadcast in (its own size 1, or missing), its own stride elsewhere, a dim of size 1
    included (NumPy's broadcast_to would zero those too)."""
    lead = len(shape) - a.ndim
    return (0,) * lead + tuple(0 if n == 1 and shape[lead + i] != 1 else st // a.itemsize
                               for i, (n, st) in enumerate(zip(a.shape, a.strides)))


def laid_out(data: np.ndarray, strides: tuple | None) -> np.ndarray:
    """``data`` (a new array) with these strides (in elements; None: row-major), copied only
    when its own differ."""
    if strides is None and data.flags.c_contiguous and 1 not in data.shape:
        return data  # (the usual case)
    want = _row_major(data.shape) if strides is None else strides
    if tuple(s // data.itemsize for s in data.strides) == want or data.size == 0:
        return data
    buffer = np.empty(data.size, data.dtype)
    out = np.lib.stride_tricks.as_strided(buffer, data.shape,
                                          tuple(s * data.itemsize for s in want), writeable=True)
    np.copyto(out, data)
    return out


def elementwise_result(data: np.ndarray, *inputs: np.ndarray) -> np.ndarray:
    """``data``, the result of an element-wise op on ``inputs`` (NumPy arrays), laid out as
    torch's TensorIterator lays out its output. Inputs of the output's shape take its fast
    setup: all row-major (a dim of size 1 not counted): a row-major result; all channels-last
    or all alike and dense: laid out as they are. Otherwise its dims are ordered as the
    inputs' strides say (``iterator_strides``). NumPy's own choice agrees for row-major
    inputs with row-major strides (the usual case, settled first)."""
    shape = data.shape
    if data.ndim < 2:
        return data
    if all(a.shape == shape for a in inputs):
        if all(a.flags.c_contiguous for a in inputs):
            want = None
        elif data.ndim == 4 and all(is_contiguous_as(a, channels_last) for a in inputs):
            want = channels_last_strides(shape)
        elif len({a.strides for a in inputs}) == 1 and non_overlapping_and_dense(
                shape, strides := tuple(st // inputs[0].itemsize for st in inputs[0].strides)):
            want = strides
        else:
            want = iterator_strides(shape, inputs)
        return laid_out(data, want)
    for a in inputs:
        if a.ndim > 1 and not (a.flags.c_contiguous and (
                1 not in a.shape or a.strides == _row_major_bytes(a))):
            break
    else:  # row-major inputs: a row-major result
        if 1 not in shape or data.strides == _row_major_bytes(data):
            return data
        return laid_out(data, None)
    return laid_out(data, iterator_strides(shape, inputs))


def _row_major_bytes(a: np.ndarray) -> tuple:
    return _row_major_in_bytes(a.shape, a.itemsize)


@functools.lru_cache(maxsize=256)
def _row_major_in_bytes(shape: tuple, itemsize: int) -> tuple:
    return tuple(s * itemsize for s in _row_major(shape))


def preserved(data: np.ndarray, like: np.ndarray) -> np.ndarray:
    """``data`` (a new array shaped like ``like``) laid out as ``like`` is, as torch lays out
    an op's result made from ``empty_like(input)`` or ``input.clone()`` (sort, flip,
    index_put, index_fill...)."""
    return laid_out(data, strides_for(like, None))


def row_major(data: np.ndarray) -> np.ndarray:
    """``data`` row-major with torch's strides, a dim of size 1 included, as torch lays out
    the result of a reduction, a softmax, a padding or a distance."""
    if data.ndim < 2:
        return np.asarray(data, order="C")  # (ascontiguousarray would make a 0-d array 1-d)
    if data.flags.c_contiguous and (1 not in data.shape
                                    or data.strides == _row_major_bytes(data)):
        return data
    return laid_out(data, None)

