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
            tie = (diff != 0) & (np.abs(diff) == np.abs(np.spacing(out).astype(np.float64)) / 2)
            beyond = tie & (np.sign(s_err) == np.sign(diff))
            return np.where(beyond, np.nextafter(out, (out + 2 * diff).astype(np.float32)), out)
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
        tie = (out_err != 0) & (np.abs(out_err) == np.abs(np.spacing(out)) / 2)
        beyond = tie & (np.sign(lo_err) == np.sign(out_err))
        out = np.where(beyond, np.nextafter(out, out + 2 * out_err), out)
        out = np.where(lo == 0, s, out)  # nothing to add back: keep s, and its signed zero
        return np.where(np.isfinite(out), out, p + c)  # infinities: no remainders to add


def _two_sum(a, b):
    """``a + b`` rounded, and the exact error of that rounding (Knuth)."""
    s = a + b
    back = s - a
    return s, (a - (s - back)) + (b - back)
