"""Comparing and binning values, without a gradient: ``isclose``, ``isin``, ``heaviside``,
``searchsorted``, ``bucketize``, ``histc``, ``histogram`` and ``bincount``.

Their results are booleans, indices or counts; torch has no derivative for ``heaviside`` and
for ``bincount``'s weights, so those record its ``NotImplemented`` node (backward through them
raises). ``searchsorted`` is torch's binary search, comparison for comparison (``!(mid >=
value)`` moves right: NaN counts as the largest); ``histc`` is its linear binning in the
input's dtype (the last edge counts in the last bin); ``histogram`` is histc with its edges
returned, weights and densities (torch records ``NotImplemented`` for it too).
"""

from __future__ import annotations

import numpy as np

from minigrad import _creation, _dtype, return_types
from minigrad._ops._args import parses
from minigrad._ops._core import check_same_shape_broadcast, common_data, needs_grad, operands
from minigrad._ops.linalg import _short
from minigrad._ops.pointwise import NotImplemented_, _not_differentiable
from minigrad._tensor import _CPP_TYPE_NAMES, Tensor
from minigrad.autograd import forward_grad, graph


def _c_double(x: float) -> str:
    """A double as C++'s ``operator<<`` writes it (``%g``)."""
    if np.isnan(x):
        return "-nan" if np.signbit(x) else "nan"
    return f"{x:g}"


# --- isclose ---------------------------------------------------------------------------------
@parses('isclose(Tensor input, Tensor other, float rtol = 1e-05, float atol = 1e-08, '
        'bool equal_nan = False)')
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|input - other| <= atol + rtol * |other|`` (or equal), element by element, computed
    as torch does: in the inputs' dtype (integers in the default dtype)."""
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{input.dtype.scalar_name} did not match {other.dtype.scalar_name}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got "
                           f"{_c_double(rtol)}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got "
                           f"{_c_double(atol)}")
    a, b = input._data, other._data
    check_same_shape_broadcast(a, b)
    close = a == b
    floating = a.dtype.kind == "f"
    if equal_nan and floating:
        close = close | (np.isnan(a) & np.isnan(b))
    if rtol == 0 and atol == 0:
        return Tensor._make(np.asarray(close))
    if not floating:
        wide = _dtype.get_default_dtype().numpy
        a, b = a.astype(wide), b.astype(wide)
    t = a.dtype.type
    with np.errstate(all="ignore"):
        allowed = t(atol) + np.abs(t(rtol) * b)
        actual = np.abs(a - b)
        close = close | (np.isfinite(actual) & (actual <= allowed))
    return Tensor._make(np.asarray(close))


# --- isin ------------------------------------------------------------------------------------
@parses('isin(Tensor elements, Tensor test_elements, *, bool assume_unique = False, '
        'bool invert = False, Tensor out = None)',
        'isin(Number element, Tensor test_elements, *, bool assume_unique = False, '
        'bool invert = False, Tensor out = None)',
        'isin(Tensor elements, Number test_element, *, bool assume_unique = False, '
        'bool invert = False, Tensor out = None)')
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Whether each of ``elements`` equals one of ``test_elements`` (a bool tensor shaped like
    ``elements``), both compared in their promoted dtype, as ``==`` compares (NaN is in
    nothing, -0.0 is 0.0). ``assume_unique`` only lets torch pick a faster algorithm."""
    x, y, common = operands(elements, test_elements)  # a number as ``t == number`` reads it
    if any(v.dtype is _dtype.bool if isinstance(v, Tensor) else isinstance(v, bool)
           for v in (elements, test_elements)):
        raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    with np.errstate(over="ignore"):  # a value too big for float16 is inf there, silently
        a, b = common_data(x, y, common)
    found = np.isin(a, b.reshape(-1), invert=invert)
    return Tensor._make(np.asarray(found))


# --- heaviside -------------------------------------------------------------------------------
@parses('heaviside(Tensor input, Tensor values, *, Tensor out = None)')
def heaviside(input, values):
    """0 below zero, 1 above, ``values`` at zero (NaN counts as below). torch has no
    derivative for it."""
    if input.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    a, v = input._data, values._data
    check_same_shape_broadcast(a, v)
    data = np.where(a == 0, v, (a > 0).astype(a.dtype)).astype(a.dtype, copy=False)
    return _not_differentiable(np.asarray(data), (input, values), "heaviside")


# --- searchsorted, bucketize -----------------------------------------------------------------
def _search(boundaries: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    """torch's binary search along the last dim of ``boundaries`` (rows matched with the
    rows of ``values``), one comparison per step as its kernel."""
    n = boundaries.shape[-1]
    if n == 0 or values.size == 0:
        return np.zeros(values.shape, dtype=np.int64)
    rows = boundaries.reshape(-1, n)
    vals = values.reshape(rows.shape[0], -1) if boundaries.ndim > 1 else values.reshape(1, -1)
    start = np.zeros(vals.shape, dtype=np.int64)
    end = np.full(vals.shape, n, dtype=np.int64)
    row_idx = np.arange(rows.shape[0])[:, None]
    with np.errstate(invalid="ignore"):
        while True:
            active = start < end
            if not active.any():
                break
            mid = start + ((end - start) >> 1)
            mid_val = rows[row_idx, np.minimum(mid, n - 1)]
            go_right = ~(mid_val > vals) if right else ~(mid_val >= vals)
            start = np.where(active & go_right, mid + 1, start)
            end = np.where(active & ~go_right, mid, end)
    return start.reshape(values.shape)


def _searchsorted(sorted_sequence, values, out_int32, right, side, sorter):
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to "
                               "opposites, got side of left while right was True")
        right = side == "right"
    b = sorted_sequence._data
    v = values._data if isinstance(values, Tensor) else np.asarray(values)
    if b.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if b.ndim > 1 and (v.ndim != b.ndim or v.shape[:-1] != b.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           "the first N-1 dimensions of boundaries tensor and input value tensor "
                           f"must match, but we got boundaries tensor {list(b.shape)} and input "
                           f"value tensor {list(v.shape)}")
    if sorter is not None:
        if sorter.shape != sorted_sequence.shape:
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same "
                               f"size, but got boundary tensor {list(b.shape)}and got sorter "
                               f"tensor {list(sorter.shape)}")
        b = np.take_along_axis(b, sorter._data.astype(np.int64), axis=-1)
    out = _search(b, v, right)
    return Tensor._make(np.asarray(out, dtype=np.int32 if out_int32 else np.int64))


@parses('searchsorted(Tensor sorted_sequence, Tensor input, *, bool out_int32 = False, '
        'bool right = False, str? side = None, Tensor? sorter = None, Tensor out = None)',
        'searchsorted(Tensor sorted_sequence, Number self, *, bool out_int32 = False, '
        'bool right = False, str? side = None, Tensor? sorter = None, Tensor out = None)')
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """Where each value would go in the sorted rows to keep them sorted (before equal values,
    or after them with ``right``)."""
    return _searchsorted(sorted_sequence, input, out_int32, right, side, sorter)


@parses('bucketize(Tensor input, Tensor boundaries, *, bool out_int32 = False, '
        'bool right = False, Tensor out = None)',
        'bucketize(Number self, Tensor boundaries, *, bool out_int32 = False, '
        'bool right = False)')
def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each value between 1-D ``boundaries`` (searchsorted, the other way)."""
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim"
                           f"({boundaries.dim()})")
    return _searchsorted(boundaries, input, out_int32, right, None, None)


# --- histc, bincount -------------------------------------------------------------------------
@parses('histc(Tensor input, int bins = 100, Number min = 0, Number max = 0, *, '
        'Tensor out = None)')
def histc(input, bins=100, min=0, max=0):  # noqa: A002 - torch's names
    """Counts in ``bins`` equal bins between ``min`` and ``max`` (the data's own range when both
    are 0); values outside are left out."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for "
                                  f"'{_short(input.dtype).capitalize()}'")
    data = input._data.reshape(-1)
    t = data.dtype.type
    lo, hi = t(min), t(max)
    if lo == hi and data.size:
        lo, hi = data.min(), data.max()
    if lo == hi:
        lo, hi = lo - t(1), hi + t(1)
    if not (np.isfinite(lo) and np.isfinite(hi)):  # (torch's aminmax gives a NaN with its
        lo, hi = (-abs(v) if np.isnan(v) else v for v in (lo, hi))  # sign bit set)
        raise RuntimeError(f"torch.histc: range of [{_c_double(lo)}, {_c_double(hi)}] is not "
                           "finite")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           "dimension 0")
    keep = (data >= lo) & (data <= hi)
    x = data[keep]
    with np.errstate(all="ignore"):  # the kernel's linear binning, in the input's dtype
        pos = ((x - lo) * t(bins) / (hi - lo)).astype(np.int64)
    pos = np.minimum(pos, bins - 1)
    counts = np.bincount(pos, minlength=bins).astype(data.dtype)
    return Tensor._make(counts)



# --- histogram --------------------------------------------------------------------------------
@parses('histogram(Tensor input, Tensor bins, *, Tensor weight = None, bool density = False, '
        'tuple of Tensors out = None)',
        'histogram(Tensor input, int bins = 100, *, tuple of floats range = None, '
        'Tensor weight = None, bool density = False, tuple of Tensors out = None)')
def histogram(input, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
    """``(hist, bin_edges)``: counts (or summed ``weight``) in bins, as torch's histogramdd
    kernel for one dimension. With a number of bins the edges are ``linspace`` from ``range``
    (else the data's min and max, widened by 0.5 each way when equal) in the input's dtype,
    and a value's bin is found by linear interpolation, then checked against the edges next
    to it (so a value on an edge lands where the edges say); with a tensor of edges, by
    binary search. Values outside the edges (and NaN) are left out, the last edge counts in
    the last bin; the counts are summed in the input's dtype, in order. ``density`` divides by
    the total, then by each bin's width."""
    data = input._data.reshape(-1)
    w = None if weight is None else weight._data.reshape(-1)
    if isinstance(bins, Tensor):
        _check_histogram_inputs(input, bins, weight)
        _check_bin_count(bins._data.size - 1)
        edges = bins._data.copy()
    else:
        _check_bin_count(bins)
        if range is None and data.size and input.dtype not in (_dtype.float32, _dtype.float64):
            # torch finds the data's range with a histogramdd kernel of its own, which has
            # neither a float16 nor an integer version (given range= or no data, float16 works)
            raise NotImplementedError(f"\"histogramdd\" not implemented for "
                                      f"'{_short(input.dtype).capitalize()}'")
        lo, hi = _outer_edges(data, range)
        edges = _creation.linspace(lo, hi, bins + 1, dtype=input.dtype)._data
        _check_histogram_inputs(input, None, weight)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for "
                                  f"'{_short(input.dtype).capitalize()}'")
    t = data.dtype.type
    left, right = edges[0], edges[-1]
    keep = (data >= left) & (data <= right)  # not NaN either
    x = data[keep]
    if isinstance(bins, Tensor):  # std::upper_bound over all the edges
        pos = _search(edges, x, True) - 1
    else:
        with np.errstate(all="ignore"):  # the linear guess, in the input's dtype
            pos = ((x - left) * t(edges.size - 1) / (right - left)).astype(np.int64)
        pos = np.clip(pos, 0, edges.size - 1)  # (edges that collapsed to one value: 0 / 0)
        low, high = np.maximum(pos - 1, 0), np.minimum(pos + 2, edges.size)
        upper = low  # then std::upper_bound over the edges low..high (sorted)
        for k in np.arange(3):
            i = low + k
            edge = edges[np.minimum(i, edges.size - 1)]
            upper = upper + ((i < high) & (upper == i) & (edge <= x))
        pos = upper - 1
    pos = np.where(pos == edges.size - 1, pos - 1, pos)  # the last bin takes its right edge
    hist = np.zeros(edges.size - 1, dtype=data.dtype)
    np.add.at(hist, pos, t(1) if w is None else w[keep])
    if density:
        with np.errstate(all="ignore"):
            hist = hist / t(Tensor._make(hist).sum().item())
            hist = hist / np.diff(edges)
    outs = (Tensor._make(np.asarray(hist, dtype=data.dtype)), Tensor._make(edges))
    # no derivative: torch's NotImplemented node for both outputs, its edges only to the
    # tensors that require grad
    inputs = tuple(v for v in (input, bins, weight) if isinstance(v, Tensor) and v.requires_grad)
    if needs_grad(inputs):
        graph.record(_HistogramNotImplemented, inputs, outs, op="histogram")
    if forward_grad._state.level is not None:  # a tangent in: torch's forward-AD error
        forward_grad.propagate(outs, _HistogramNotImplemented,
                               tuple(v for v in (input, bins, weight) if isinstance(v, Tensor)),
                               None, {"op": "histogram"})
    return return_types.histogram(outs)



class _HistogramNotImplemented(NotImplemented_):
    """torch's NotImplemented node with histogram's two outputs (so two gradients)."""

    def backward(self, *grads):
        return super().backward(grads[0])


_HistogramNotImplemented.__name__ = _HistogramNotImplemented.__qualname__ = "NotImplemented"

def _check_bin_count(count):
    if count <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {count} for "
                           "dimension 0")


def _outer_edges(data, range):  # noqa: A002 - torch's name
    """The first and last edges: ``range``, else the data's min and max (0 and 1 for no
    data), as doubles; equal ones widened by 0.5 each way."""
    if range is not None:
        if len(range) != 2:
            raise RuntimeError("torch.histogramdd: for a 1-dimensional histogram range should "
                               f"have 2 elements, but got {len(range)}")
        lo, hi = (float(v) for v in range)
    elif data.size:  # torch's aminmax along the flattened input: the first of equal values
        lo, hi = float(data[np.argmin(data)]), float(data[np.argmax(data)])  # (0.0 or -0.0)
    else:
        lo, hi = 0.0, 1.0
    if not (np.isfinite(lo) and np.isfinite(hi)):
        lo, hi = (abs(v) if np.isnan(v) else v for v in (lo, hi))
        raise RuntimeError(f"torch.histogramdd: dimension 0's range [{_c_double(lo)}, "
                           f"{_c_double(hi)}] is not finite")
    if lo > hi:
        raise RuntimeError("torch.histogramdd: min should not exceed max, but got min "
                           f"{_c_double(lo)} max {_c_double(hi)} for dimension 0")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _check_histogram_inputs(input, bins, weight):
    """torch's histogramdd_check_inputs, for the one dimension of a flattened input."""
    def cpp(t):
        return _CPP_TYPE_NAMES[t.dtype.name]
    if bins is not None:
        if bins.dtype is not input.dtype:
            raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have "
                               f"the same dtype, but got input with dtype {cpp(input)} and "
                               f"bins for dimension 0 with dtype {cpp(bins)}")
        if bins.dim() != 1:
            raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but "
                               f"got {bins.dim()} dimensions in the bins tensor for dimension 0")
        if bins.numel() == 0:
            raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, "
                               "but got 0 elements in the bins tensor for dimension 0")
    if weight is not None:
        if weight.dtype is not input.dtype:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor "
                               "and weight tensor should have the same dtype, but got "
                               f"input({cpp(input)}), and weight({cpp(weight)})")
        if weight.numel() != input.numel():
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have "
                               "the same shape as the input tensor excluding its innermost "
                               f"dimension, but got input with shape [{input.numel()}, 1] and "
                               f"weight with shape [{weight.numel()}]")


@parses('bincount(Tensor input, Tensor? weights = None, int minlength = 0)')
def bincount(input, weights=None, minlength=0):
    """How often each value 0, 1, 2... occurs (or the sum of its ``weights``)."""
    data = input._data
    if data.dtype.kind not in "iu" or data.dtype == np.bool_:
        if data.dtype.kind != "b":
            raise NotImplementedError(f"\"bincount_cpu\" not implemented for "
                                      f"'{_short(input.dtype).capitalize()}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if data.ndim != 1 or (data.size and data.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights.shape[0] != data.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    idx = data.astype(np.int64)
    if weights is None:
        return Tensor._make(np.bincount(idx, minlength=minlength).astype(np.int64))
    w = weights._data
    out_dtype = w.dtype if w.dtype == np.float32 else np.float64
    counts = np.bincount(idx, weights=w.astype(np.float64), minlength=minlength)
    data_out = np.asarray(counts).astype(out_dtype)
    return _not_differentiable(data_out, (weights,), "bincount")
