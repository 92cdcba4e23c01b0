"""Float arithmetic as torch's compiled CPU kernels do it, where NumPy's differs.

The compiler fuses ``a + b * c`` into one fused multiply-add (FMA), rounded once, where
NumPy rounds the product and then the sum. ``arange`` and ``lerp`` need torch's exact digits.
"""

from __future__ import annotations

import numpy as np


def fma(a, b, c, dtype):
    """``a * b + c`` rounded once to ``dtype`` (float32 or float64), as the FMA instruction.

    float32: the product of two float32 is exact in float64, the sum's error is kept to
    round to float32 once. float64: Dekker's error-free
    product and Knuth's two-sum give the exact remainders, added back before the last
    rounding; a tie in that last rounding is broken by what is left."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    with np.errstate(all="ignore"):
        if np.dtype(dtype) == np.float32:  # exact: the product, then sum and its error
            s, s_err = _two_sum(a * b, c)
            out = s.astype(np.float32)
            diff = s - out.astype(np.float64)  # s sits exactly between two float32: a tie
            neighbour = np.nextafter(out, (out.astype(np.float64) + 2 * diff).astype(np.float32))
            beyond = _is_tie(diff, neighbour.astype(np.float64) - out) & (
                np.sign(s_err) == np.sign(diff))
            return np.where(beyond, neighbour, out)
        p = a * b
        split = 134217729.0  # 2**27 + 1: cuts a double into two 26-bit halves
        ah = split * a - (split * a - a)
        bh = split * b - (split * b - b)
        al, bl = a - ah, b - bh
        product_error = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s, s_err = _two_sum(p, c)
        lo, lo_err = _two_sum(s_err, product_error)
        out, out_err = _two_sum(s, lo)
        # The exact value is out + out_err + lo_err. If out_err is exactly half an ulp, the
        # last addition was a tie, which lo_err (if it points the same way) breaks.
        neighbour = np.nextafter(out, out + 2 * out_err)
        beyond = _is_tie(out_err, neighbour - out) & (np.sign(lo_err) == np.sign(out_err))
        out = np.where(beyond, neighbour, out)
        out = np.where(lo == 0, s, out)  # nothing to add back: keep s, and its signed zero
        return np.where(np.isfinite(out), out, p + c)  # infinities: no remainders to add


def _is_tie(error, gap):
    """Was a rounding that left ``error`` behind a tie: exactly halfway to the neighbour on
    that side (``gap`` away; below a power of two the gap is half the ulp above)?"""
    return (error != 0) & (2 * np.abs(error) == np.abs(gap))


def _two_sum(a, b):
    """``a + b`` rounded, and the exact error of that rounding (Knuth)."""
    s = a + b
    back = s - a
    return s, (a - (s - back)) + (b - back)
