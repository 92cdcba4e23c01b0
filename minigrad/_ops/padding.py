"""``constant_pad_nd`` (``F.pad``'s constant mode): the input inside a border of ``value``,
one node (``ConstantPadNdBackward0``). A negative pad crops. Its gradient is the same op with
the pads negated (the border cropped off again), so a gradient taken with ``create_graph``
records ``ConstantPadNdBackward0`` once more, as torch's does.
"""

from __future__ import annotations

import numpy as np

from minigrad import _layout
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad.autograd.graph import Node


def _fill(value, dtype: np.dtype):
    """``value`` as the tensor's dtype holds it (C++'s conversion: 2.5 becomes 2)."""
    if dtype == np.bool_:
        return bool(value)
    if dtype.kind in "iu":
        return int(value)
    return value


@parses('constant_pad_nd(Tensor input, tuple of ints pad, Number value = 0)')
def constant_pad_nd(input, pad, value=0):
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    data = input._data
    ndim, n_pad = data.ndim, len(pad) // 2
    if ndim < n_pad:
        raise RuntimeError("Length of pad should be no more than twice the number of dimensions "
                           f"of the input. Pad length is {len(pad)}while the input has {ndim}"
                           "dimensions.")
    crop = [slice(None)] * ndim
    widths = [(0, 0)] * ndim
    for i in range(ndim - n_pad, ndim):
        left, right = pad[2 * (ndim - i - 1)], pad[2 * (ndim - i - 1) + 1]
        size = data.shape[i]
        start, stop = 0, size
        if left < 0:
            if size + left < 0:
                raise RuntimeError("narrow(): length must be non-negative.")
            start, size = -left, size + left
        if right < 0:
            if size + right < 0:
                raise RuntimeError("narrow(): length must be non-negative.")
            size = size + right
        stop = start + size
        crop[i] = slice(start, stop)
        widths[i] = (max(left, 0), max(right, 0))
    kept = data[tuple(crop)]
    out = np.pad(kept, widths, constant_values=_fill(value, data.dtype)) if widths else \
        kept.copy()
    out = np.asarray(out, dtype=data.dtype)
    # a padded result is row-major; a cut-only one is torch's clone of the narrowed input
    out = _layout.preserved(out, kept) if all(p <= 0 for p in pad) else _layout.row_major(out)
    return record(out, ConstantPadNdBackward0, (input,), pad=tuple(pad))


class ConstantPadNdBackward0(Node):
    """out = self inside a border: the gradient is the border cropped off (the pads negated)"""

    def backward(self, grad):
        return constant_pad_nd(grad, [-p for p in self.pad])

    def jvp(self, t):
        return constant_pad_nd(t, list(self.pad))
