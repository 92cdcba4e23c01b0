"""The in-place tensor arithmetic of torch's single-tensor optimizers, rounded as its kernels.

torch's optimizers (``foreach=False``, the default for CPU tensors) update each parameter with
a few in-place ops: ``add_(other, alpha=a)``, ``addcmul_(t1, t2, value=v)``,
``addcdiv_(t1, t2, value=v)``. Their vectorised CPU kernels round in a particular way: ``add_``
with ``alpha`` and ``addcmul_`` end in one fused multiply-add (``fma(a, other, self)``,
``fma(v * t1, t2, self)``), ``addcdiv_`` does not (``self + v * t1 / t2``). The number is
first rounded to the tensor's dtype. Doing the same steps in the same order makes minigrad's
float64 parameters equal to torch's bit for bit after any number of steps (float32 too, on the
CPUs whose kernels minigrad reproduces; see ``minigrad/_numeric.py``).

Each function writes into the tensor's own array and bumps its version, as an in-place op
does (optimizers run under ``no_grad``, so nothing is recorded).
"""

from __future__ import annotations

import numpy as np

from minigrad._numeric import fma, quietly


def write(t, data) -> None:
    """``t``'s values become ``data`` (in its own memory, so views see it); a new version."""
    np.copyto(t._data, data, casting="unsafe")
    t._bump_version()


def scalar(x, like: np.ndarray):
    """A Python number as the kernel sees it: rounded to the tensor's dtype."""
    return like.dtype.type(x)


def add_alpha(self: np.ndarray, other: np.ndarray, alpha) -> np.ndarray:
    """``self + alpha * other`` (torch's ``add(other, alpha=alpha)``): one fused multiply-add."""
    return fma(scalar(alpha, self), other, self, self.dtype)


def addcmul(self: np.ndarray, t1: np.ndarray, t2: np.ndarray, value=1) -> np.ndarray:
    """``self + value * t1 * t2``: ``value * t1`` rounded, then one fused multiply-add."""
    return fma(quietly(np.multiply, scalar(value, self), t1), t2, self, self.dtype)


def addcdiv(self: np.ndarray, t1: np.ndarray, t2: np.ndarray, value=1) -> np.ndarray:
    """``self + value * t1 / t2``, each step rounded (no fused step in torch's kernel)."""
    return quietly(lambda: self + scalar(value, self) * t1 / t2)


def mul(self: np.ndarray, value) -> np.ndarray:
    return quietly(np.multiply, self, scalar(value, self))


def sqrt_plus(x: np.ndarray, eps) -> np.ndarray:
    """``x.sqrt().add_(eps)``: the denominator of RMSprop and Adagrad."""
    return quietly(lambda: np.sqrt(x) + scalar(eps, x))


def sqrt_div_add(x: np.ndarray, divisor, eps) -> np.ndarray:
    """``(x.sqrt() / divisor).add_(eps)``: Adam's denominator."""
    return quietly(lambda: np.sqrt(x) / scalar(divisor, x) + scalar(eps, x))


def lerp(self: np.ndarray, end: np.ndarray, weight) -> np.ndarray:
    """``self + weight * (end - self)`` as torch's lerp: one fused multiply-add, from
    ``end`` backwards when ``weight`` is 0.5 or more."""
    w = scalar(weight, self)
    diff = quietly(np.subtract, end, self)
    if abs(w) < 0.5:
        return fma(w, diff, self, self.dtype)
    return fma(w - 1, diff, end, self.dtype)


def maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """torch.maximum: NaN wins."""
    return np.maximum(a, b)
