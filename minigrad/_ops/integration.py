"""``trapezoid`` (``trapz``) and ``cumulative_trapezoid``: integrals of samples ``y`` by the
trapezoid rule, along ``dim``.

No node of their own: torch composes them of other ops (its ``Integration.cpp``), so their
graphs are those ops' nodes, and so are minigrad's, op for op. With a constant spacing ``dx`` the
sum simplifies to ``(y.sum(dim) - (y[first] + y[last]) * 0.5) * dx``; with sample points ``x``,
each interval's width ``dx`` (x's differences) multiplies the sum of its two ends:
``((left + right) * dx).sum(dim) / 2``. The running version keeps every partial sum (cumsum).
"""

from __future__ import annotations

from minigrad import _dtype
from minigrad._creation import zeros
from minigrad._ops._args import parses
from minigrad._ops.indexing import slice_dim
from minigrad._ops.pointwise import div_scalar, mul_scalar
from minigrad._ops.shape import _wrap_dim


@parses('trapezoid(Tensor y, Tensor x, *, int dim = -1)',
        'trapezoid(Tensor y, *, Number dx = 1, int dim = -1)')
def trapezoid(y, x=None, *, dx=1, dim=-1):
    """The integral of ``y`` along ``dim``: samples ``dx`` apart, or at points ``x``."""
    return _integral("trapezoid", y, x, dx, dim)


@parses('trapz(Tensor y, Tensor x, *, int dim = -1)',
        'trapz(Tensor y, *, float dx = 1, int dim = -1)')
def trapz(y, x=None, *, dx=1, dim=-1):
    """NumPy's older name for ``trapezoid``."""
    return _integral("trapezoid", y, x, dx, dim)


@parses('cumulative_trapezoid(Tensor y, Tensor x, *, int dim = -1)',
        'cumulative_trapezoid(Tensor y, *, Number dx = 1, int dim = -1)')
def cumulative_trapezoid(y, x=None, *, dx=1, dim=-1):
    """Every partial integral of ``y`` along ``dim`` (one fewer than the samples)."""
    return _integral("cumulative_trapezoid", y, x, dx, dim)


def _integral(name, y, x, dx, dim):
    cumulative = name == "cumulative_trapezoid"
    if x is None:
        if not cumulative and y.size(dim) == 0:  # no samples: 0, as NumPy says
            return _zeros_except(y, dim)
        if y.dtype is _dtype.bool:
            raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not "
                               "supported")
        if isinstance(dx, bool | complex):
            raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")
        dx = float(dx)
        if cumulative:
            return mul_scalar(_ends_added(y, dim), dx / 2.0).cumsum(dim)
        # made in the order torch's compiled code makes them (an operator's right operand
        # first): the last sample, the first, their half sum, then the total
        last = y.select(dim, -1)
        ends = mul_scalar(y.select(dim, 0) + last, 0.5)
        return mul_scalar(y.sum(dim) - ends, dx)
    d = _wrap_dim(dim, y.dim())
    if not cumulative and y.size(d) == 0:
        return _zeros_except(y, d)
    if y.dtype is _dtype.bool or x.dtype is _dtype.bool:
        raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not "
                           "supported")
    if x.dim() == 1:  # x laid along dim, to broadcast against y's differences
        if x.size(0) != y.size(d):
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        sizes = [1] * y.dim()
        sizes[d] = x.size(0)
        x = x.view(sizes)
    elif x.dim() < y.dim():  # leading dims of size 1
        x = x.view([1] * (y.dim() - x.dim()) + list(x.shape))
    x_left = slice_dim(x, d, 0, -1, None)  # made first, as torch makes it
    widths = slice_dim(x, d, 1, None, None) - x_left
    weighted = _ends_added(y, d) * widths
    return div_scalar(weighted.cumsum(d) if cumulative else weighted.sum(d), 2.0)


def _ends_added(y, dim):
    """Each interval's two ends added: ``y[..., :-1] + y[..., 1:]`` along ``dim``."""
    return slice_dim(y, dim, 0, -1, None) + slice_dim(y, dim, 1, None, None)


def _zeros_except(y, dim):
    sizes = list(y.shape)
    del sizes[_wrap_dim(dim, y.dim())]
    return zeros(sizes, dtype=y.dtype)
