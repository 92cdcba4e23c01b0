"""Float arithmetic as torch's compiled CPU kernels do it, where NumPy's differs.

* inf and nan are values, not warnings: ``quietly`` runs a NumPy call without its
  floating-point warnings, and ``quiet`` a whole block (the engine's backward pass).
* The compiler fuses ``a + b * c`` into one fused multiply-add (FMA), rounded once, where
  NumPy rounds the product and then the sum. ``arange`` and ``lerp`` need torch's exact digits.
"""

from __future__ import annotations

import contextlib

import numpy as np

# NumPy's error state lives in a context variable; ``np.errstate`` rebuilds its value on every
# entry, which costs more than a small op itself. ``quietly`` and ``quiet`` set a value made
# once instead, and ``quietly`` inside ``quiet`` (every op of a backward pass) sets nothing.
# NumPy keeps this variable private (the course pins NumPy 2.4); with a NumPy that lacks it,
# both fall back to ``np.errstate``: the same result, only slower.
_ufunc_config = getattr(getattr(np, "_core", None), "_ufunc_config", None)
_ERRSTATE = getattr(_ufunc_config, "_extobj_contextvar", None)
_IGNORE_ALL = _ufunc_config._make_extobj(all="ignore") if _ERRSTATE is not None else None


def quietly(fn, *args):
    """``fn(*args)`` without NumPy's floating-point warnings: inf and nan are values here, as
    in torch (what ``with np.errstate(all="ignore")`` does, at a third of its cost)."""
    if _ERRSTATE is None:
        with np.errstate(all="ignore"):
            return fn(*args)
    if _ERRSTATE.get() is _IGNORE_ALL:  # inside ``quiet`` already
        return fn(*args)
    token = _ERRSTATE.set(_IGNORE_ALL)
    try:
        return fn(*args)
    finally:
        _ERRSTATE.reset(token)


@contextlib.contextmanager
def quiet():
    """A block without NumPy's floating-point warnings (``np.errstate(all="ignore")``)."""
    if _ERRSTATE is None:
        with np.errstate(all="ignore"):
            yield
        return
    token = _ERRSTATE.set(_IGNORE_ALL)
    try:
        yield
    finally:
        _ERRSTATE.reset(token)


def fma(a, b, c, dtype):
    """``a * b + c`` rounded once to ``dtype`` (float32 or float64), as the FMA instruction."""
    return fma32(a, b, c) if np.dtype(dtype) == np.float32 else fma64(a, b, c)


def fma32(a, b, c):
    """float32 ``a * b + c`` rounded once. The product of two float32 is exact in float64 and
    the sum rounds there first; rounding twice only goes wrong when that float64 sum falls
    exactly halfway between two float32s (its 29 extra bits 1000...0), or in float32's
    subnormal range, where fewer bits are kept: only those elements get the sum's exact error
    computed to settle the result (the rest stays one fast NumPy expression)."""
    with np.errstate(all="ignore"):
        p = np.asarray(a, np.float64) * np.asarray(b, np.float64)
        c = np.asarray(c, np.float64)
        total = p + c
        rounded = np.asarray(total.astype(np.float32))
        bits = np.asarray(total).view(np.uint64)
        unsure = (((bits & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000))
                  | (np.abs(total) < 2.0 ** -126)) & (total != 0)
        if unsure.any():
            p, c = (np.broadcast_to(v, total.shape)[unsure] for v in (p, c))
            exact, error = _two_sum(p, c)
            near = rounded[unsure]
            rounded[unsure] = _settle_tie(near, exact - near.astype(np.float64), error)
        return rounded


def fma64(a, b, c):
    """float64 ``a * b + c`` rounded once: the product split exactly (Dekker), the sums with
    their errors (Knuth), and the last error settling a result that falls halfway between two
    float64s."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    with np.errstate(all="ignore"):
        p = a * b
        a_hi, b_hi = _split(a), _split(b)
        a_lo, b_lo = a - a_hi, b - b_hi
        p_error = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo  # a*b = p + it
        s, s_error = _two_sum(p, c)
        u, u_error = _two_sum(s_error, p_error)  # a*b + c = s + u + u_error, exactly
        rounded, rest = _two_sum(s, u)  # = rounded + rest + u_error
        out = _settle_tie(rounded, rest, u_error)
        out = np.where(u == 0, s, out)  # nothing to add back: keep s, and its signed zero
        return np.where(np.isfinite(out), out, p + c)  # infinities: no remainders to add


def _settle_tie(rounded, rest, error):
    """``rounded + rest + error`` (exactly) rounded once, given ``rounded``, the nearest
    value to ``rounded + rest``: only a tie (``rest`` half a unit) can be decided wrongly,
    and ``error`` decides it."""
    other = np.nextafter(rounded, np.where(rest > 0, np.inf, -np.inf).astype(rounded.dtype))
    tie = (rest != 0) & (2 * rest == other.astype(np.float64) - rounded.astype(np.float64))
    beyond = tie & (error != 0) & (np.sign(error) == np.sign(rest))
    return np.where(beyond, other, rounded)


def _two_sum(a, b):
    """``a + b`` rounded, and the exact error of that rounding (Knuth)."""
    s = a + b
    back = s - a
    return s, (a - (s - back)) + (b - back)


def _split(x):
    """The high half of a double (26 bits), so that ``x * y`` splits into exact products."""
    t = x * 134217729.0  # 2**27 + 1
    return t - (t - x)
