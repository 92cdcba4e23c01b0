"""Order statistics: ``median``, ``nanmedian``, ``kthvalue`` and ``mode``, with the index torch
picks where values tie.

Their gradients are max's and min's (``reduction.py``): over every element the gradient is
shared evenly between the elements equal to the result (``MedianBackward0``,
``NanmedianBackward0``); along a dim it goes to the index that was picked
(``MedianBackward1``, ``NanmedianBackward1``, ``KthvalueBackward0``, ``ModeBackward0``). So the
index matters, and it is torch's CPU kernels':

* median: of an even count the lower of the two middles; ``std::nth_element`` with ties
  broken by index, so the middle of a stable sort (NaN last); a row with NaN gives its first
  NaN, and nanmedian leaves the NaNs out (an all-NaN row: where nth_element leaves index 0);
* kthvalue: torch's own quickselect (``quick_select_template``: median-of-three pivot, NaN
  largest), step for step;
* mode: the most frequent value (the smallest of equally frequent ones), at the last index of
  its run after ``std::sort`` by value (``stl_sort.sort``, GCC's algorithm, step for step).
"""

from __future__ import annotations

import numpy as np

from minigrad import return_types
from minigrad._ops import stl_sort
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._ops.linalg import _short
from minigrad._ops.reduction import MaxBackward0, MaxBackward1
from minigrad._tensor import Tensor, _wrap_dim


def _check_dtype(input, name):
    if input.dtype.name == "bool":
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{_short(input.dtype).capitalize()}'")


def _rows(data, d):
    """``data`` with dim ``d`` last, as rows (and the shape to put them back)."""
    moved = np.moveaxis(data, d, -1)
    return moved.reshape(-1, moved.shape[-1]), moved.shape[:-1]


def _along(input, dim, keepdim, name, pick, node_cls, **attrs):
    """A value-selecting reduction along ``dim``: ``pick(row)`` gives each row's index."""
    data = input._data
    d = _wrap_dim(dim, data.ndim)
    if data.ndim and data.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    if data.ndim == 0:
        idx = np.asarray(0)
        values = data.copy()
    else:
        rows, lead = _rows(data, d)
        flat = np.array([pick(row) for row in rows], dtype=np.int64)
        idx = np.expand_dims(flat.reshape(lead), d)
        values = np.take_along_axis(data, idx, axis=d)
        if not keepdim:
            values, idx = values.squeeze(d), idx.squeeze(d)
    indices = Tensor._make(np.asarray(idx, dtype=np.int64))
    out = record(np.asarray(values), node_cls, (input,), save={"indices": indices}, dim=d,
                 dim_arg=dim, keepdim=keepdim, self_shape=data.shape, **attrs)
    return getattr(return_types, name)((out, indices))


def _median_index(row, ignore_nan):
    nans = np.isnan(row) if row.dtype.kind == "f" else np.zeros(row.shape, dtype=bool)
    if not ignore_nan and nans.any():
        return int(np.flatnonzero(nans)[0])
    valid = row.size - int(nans.sum())
    if valid == 0:  # all NaN: no order at all, so wherever std::nth_element leaves them
        idx = list(range(row.size))
        stl_sort.nth_element(idx, 0, lambda i, j: False)
        return idx[0]
    order = np.argsort(row, kind="stable")  # NaN last, ties by index
    return int(order[(valid - 1) // 2])


def _median_all(input, ignore_nan, node_cls, name):
    _check_dtype(input, name)
    flat = input._data.reshape(-1)
    if flat.size == 0:
        value = np.asarray(np.nan, dtype=flat.dtype)
    else:
        value = np.asarray(flat[_median_index(flat, ignore_nan)])
    return record(value, node_cls, (input,), save={"self": input}, output_name="result")


@parses('median(Tensor input)',
        'median(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)')
def median(input, dim=None, keepdim=False):
    """The middle value (of an even count, the lower middle); NaN if there is one."""
    if dim is None:
        return _median_all(input, False, MedianBackward0, "median")
    _check_dtype(input, "median")
    return _along(input, dim, keepdim, "median", lambda r: _median_index(r, False),
                  MedianBackward1)


@parses('nanmedian(Tensor input)',
        'nanmedian(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)')
def nanmedian(input, dim=None, keepdim=False):
    """median leaving the NaNs out."""
    if dim is None:
        return _median_all(input, True, NanmedianBackward0, "nanmedian")
    _check_dtype(input, "nanmedian")
    return _along(input, dim, keepdim, "nanmedian", lambda r: _median_index(r, True),
                  NanmedianBackward1)


class MedianBackward0(MaxBackward1):
    """median of all elements: shared evenly between the elements equal to it"""


class NanmedianBackward0(MaxBackward1):
    """nanmedian of all elements"""


class MedianBackward1(MaxBackward0):
    """median along a dim: to the index picked"""


class NanmedianBackward1(MaxBackward0):
    """nanmedian along a dim"""


# --- kthvalue --------------------------------------------------------------------------------
def _gt_or_nan(x, y):
    return (x != x and y == y) or x > y


def _quick_select(values, k):
    """torch's quick_select_template on (value, index) pairs, in place."""
    lo, hi = 0, len(values) - 1

    def swap(i, j):
        values[i], values[j] = values[j], values[i]

    while True:
        if hi <= lo:
            return
        if hi == lo + 1:
            if _gt_or_nan(values[lo][0], values[hi][0]):
                swap(lo, hi)
            return
        mid = lo + (hi - lo) // 2
        swap(mid, lo + 1)
        if _gt_or_nan(values[lo + 1][0], values[hi][0]):
            swap(lo + 1, hi)
        if _gt_or_nan(values[lo][0], values[hi][0]):
            swap(lo, hi)
        if _gt_or_nan(values[lo + 1][0], values[lo][0]):
            swap(lo + 1, lo)
        i, j = lo + 1, hi
        piv = values[lo][0]
        while True:
            i += 1
            while _gt_or_nan(piv, values[i][0]):
                i += 1
            j -= 1
            while _gt_or_nan(values[j][0], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def _kth_index(row, k):
    pairs = [(v, i) for i, v in enumerate(row.tolist())]
    _quick_select(pairs, k - 1)
    return pairs[k - 1][1]


@parses('kthvalue(Tensor input, int k, int dim = -1, bool keepdim = False, *, '
        'tuple of Tensors out = None)')
def kthvalue(input, k, dim=-1, keepdim=False):
    """The k-th smallest value along ``dim`` (NaN counts as the largest)."""
    _check_dtype(input, "kthvalue")
    data = input._data
    d = _wrap_dim(dim, data.ndim)
    size = data.shape[d] if data.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    return _along(input, dim, keepdim, "kthvalue", lambda r: _kth_index(r, k),
                  KthvalueBackward0)


class KthvalueBackward0(MaxBackward0):
    """kthvalue along a dim: to the index picked"""


# --- mode ------------------------------------------------------------------------------------
def _mode_index(row):
    pairs = [(v, i) for i, v in enumerate(row.tolist())]
    stl_sort.sort(pairs, 0, len(pairs), lambda x, y: x[0] < y[0])
    best, best_freq, freq = 0, 0, 0
    for i, (v, idx) in enumerate(pairs):
        freq += 1
        if i == len(pairs) - 1 or v != pairs[i + 1][0]:
            if freq > best_freq:
                best, best_freq = idx, freq
            freq = 0
    return best


@parses('mode(Tensor input, int dim = -1, bool keepdim = False, *, tuple of Tensors out = None)')
def mode(input, dim=-1, keepdim=False):
    """The most frequent value along ``dim`` (the smallest of equally frequent ones)."""
    _check_dtype(input, "mode")
    return _along(input, dim, keepdim, "mode", _mode_index, ModeBackward0)


class ModeBackward0(MaxBackward0):
    """mode along a dim: to the index picked"""
