"""The in-place tensor arithmetic of torch's single-tensor optimizers, rounded as its kernels.

torch's optimizers (``foreach=False``, the default for CPU tensors) update each parameter with
a few in-place ops: ``add_(other, alpha=a)``, ``addcmul_(t1, t2, value=v)``,
``addcdiv_(t1, t2, value=v)``. Their vectorised CPU kernels round in a particular way: ``add_``
with ``alpha`` and ``addcmul_`` end in one fused multiply-add (``fma(a, other, self)``,
``fma(v * t1, t2, self)``), ``addcdiv_`` does not (``self + v * t1 / t2``). The number is
first rounded to the tensor's dtype, and the fused steps are fused only where torch's build
for this CPU fuses them (``torch_fuses``). Doing the same steps in the same order makes SGD's
parameters equal to torch's bit for bit after any number of steps, in float64 and float32.
Adam, AdamW, RMSprop and Adagrad also take a square root, and torch 2.13's is not always
correctly rounded on x86 (measured: 1 float32 result in 6 and 1 float64 result in 80 one unit
off NumPy's exact one), so theirs can differ in the last bit.

Each function writes into the tensor's own array and bumps its version, as an in-place op
does (optimizers run under ``no_grad``, so nothing is recorded).
"""

from __future__ import annotations

import numpy as np

from minigrad._numeric import fma, quietly, torch_fuses


def write(t, data) -> None:
    """``t``'s values become ``data`` (in its own memory, so views see it); a new version."""
    np.copyto(t._data, data, casting="unsafe")
    t._bump_version()


def scalar(x, like: np.ndarray):
    """A Python number as the kernel sees it: rounded to the tensor's dtype."""
    return like.dtype.type(x)


def add_alpha(self: np.ndarray, other: np.ndarray, alpha) -> np.ndarray:
    """``self + alpha * other`` (torch's ``add(other, alpha=alpha)``): one fused multiply-add
    (where torch's kernels fuse: ``torch_fuses``)."""
    if not torch_fuses():
        return quietly(lambda: self + scalar(alpha, self) * other)
    return fma(scalar(alpha, self), other, self, self.dtype)


def addcmul(self: np.ndarray, t1: np.ndarray, t2: np.ndarray, value=1) -> np.ndarray:
    """``self + value * t1 * t2``: ``value * t1`` rounded, then one fused multiply-add (where
    torch's kernels fuse)."""
    scaled = quietly(np.multiply, scalar(value, self), t1)
    if not torch_fuses():
        return quietly(lambda: self + scaled * t2)
    return fma(scaled, t2, self, self.dtype)


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


def add(self: np.ndarray, value) -> np.ndarray:
    """``self + value`` (a number: ``add(eps)``, ``add_(eps)``)."""
    return quietly(np.add, self, scalar(value, self))


def div(self: np.ndarray, value) -> np.ndarray:
    """``self / value`` (a number, rounded to the dtype first: torch's kernel divides, it does
    not multiply by the reciprocal)."""
    return quietly(np.divide, self, scalar(value, self))


def rdiv(value, x: np.ndarray) -> np.ndarray:
    """``value / x`` for a Python number: torch's ``Tensor.__rtruediv__`` is
    ``x.reciprocal() * value``, two roundings."""
    return quietly(lambda: (x.dtype.type(1) / x) * scalar(value, x))


def sqrt(x: np.ndarray) -> np.ndarray:
    """The IEEE square root (torch's vectorised one is not always correctly rounded: module
    docstring)."""
    return quietly(np.sqrt, x)


def sign(x: np.ndarray) -> np.ndarray:
    """torch's ``sign`` of floats, ``(0 < x) - (x < 0)``: NaN and -0.0 give 0.0 (not
    NumPy's NaN)."""
    return (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)
