"""More elementary functions: what a learner differentiates after exp, log, sin and tanh.

``log1p``, ``expm1``, ``exp2``, ``square``, ``atan``, ``asin``, ``acos``, ``atan2`` and
``hypot``, each followed by its node. The formulas are torch's (``derivatives.yaml`` and
``FunctionsManual.cpp``), written with the same operations, so that a gradient taken with
``create_graph=True`` has torch's graph: ``log1p``'s is ``grad / (self + 1)``, ``asin``'s is
``grad * (-self * self + 1).rsqrt()``. float32 values are computed in float64 and rounded
once, as ``pointwise._like_torch`` does for exp and log (torch's own kernels are within an ulp
of that).
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._numeric import quietly
from minigrad._ops import pointwise as P
from minigrad._ops._args import parses
from minigrad._ops._core import check_same_shape_broadcast, operands, record
from minigrad._ops.pointwise import LN2, _like_torch, _total, _unary, add_scalar, mul_scalar
from minigrad.autograd.graph import Node

np_log1p, np_expm1, np_exp2, np_atan, np_asin, np_acos = map(
    _like_torch, (np.log1p, np.expm1, np.exp2, np.arctan, np.arcsin, np.arccos))


@parses('square(Tensor input, *, Tensor out = None)')
def square(input):
    """``input ** 2``: torch's square is pow (so its node is PowBackward0)."""
    return P.pow(input, 2)


@parses('log1p(Tensor input, *, Tensor out = None)')
def log1p(input):
    return _unary(input, np_log1p, Log1PBackward0, save_self=True)


class Log1PBackward0(Node):
    """torch's log1p_backward: ``grad / (self + 1)``."""

    def backward(self, grad):
        return grad / add_scalar(self.saved("self"), 1)

    def jvp(self, t):
        return t / add_scalar(self.inputs[0], 1)


@parses('expm1(Tensor input, *, Tensor out = None)')
def expm1(input):
    return _unary(input, np_expm1, Expm1Backward0, save_result=True)


class Expm1Backward0(Node):
    """``grad * (result + 1)``: exp(x) - 1 read back from the result."""

    def backward(self, grad):
        return grad * add_scalar(self.saved("result"), 1)

    def jvp(self, t):
        return t * add_scalar(self.result, 1)


@parses('exp2(Tensor input, *, Tensor out = None)')
def exp2(input):
    return _unary(input, np_exp2, Exp2Backward0, save_result=True)


class Exp2Backward0(Node):
    """``grad * result * ln(2)``."""

    def backward(self, grad):
        return mul_scalar(grad * self.saved("result"), LN2)

    def jvp(self, t):
        return mul_scalar(t * self.result, LN2)


@parses('atan(Tensor input, *, Tensor out = None)')
def atan(input):
    return _unary(input, np_atan, AtanBackward0, save_self=True)


class AtanBackward0(Node):
    """``grad / (self * self + 1)``."""

    def backward(self, grad):
        x = self.saved("self")
        return grad / add_scalar(x * x, 1)

    def jvp(self, t):
        x = self.inputs[0]
        return t / add_scalar(x * x, 1)


@parses('asin(Tensor input, *, Tensor out = None)')
def asin(input):
    return _unary(input, np_asin, AsinBackward0, save_self=True)


class AsinBackward0(Node):
    """``grad * (-self * self + 1).rsqrt()``."""

    def backward(self, grad):
        x = self.saved("self")
        return grad * add_scalar(-x * x, 1).rsqrt()

    def jvp(self, t):
        x = self.inputs[0]
        return t * add_scalar(-x * x, 1).rsqrt()


@parses('acos(Tensor input, *, Tensor out = None)')
def acos(input):
    return _unary(input, np_acos, AcosBackward0, save_self=True)


class AcosBackward0(Node):
    """``grad * -(-self * self + 1).rsqrt()``."""

    def backward(self, grad):
        x = self.saved("self")
        return grad * -add_scalar(-x * x, 1).rsqrt()

    def jvp(self, t):
        x = self.inputs[0]
        return t * -add_scalar(-x * x, 1).rsqrt()


def _float_binary(a, b, np_fn, node_cls, save, output_name=None):
    """A binary op whose result is a float (ints promote to the default dtype), computed in
    float64 for float32 and rounded once; ``save(a, b)`` says what its node keeps."""
    a, b, d = operands(a, b)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
    check_same_shape_broadcast(a._data, b._data)
    wide = np.float64 if d.numpy == np.float32 else d.numpy
    data = quietly(np_fn, a._data.astype(wide), b._data.astype(wide)).astype(d.numpy)
    return record(data, node_cls, (a, b), save=save(a, b), output_name=output_name)


@parses('atan2(Tensor input, Tensor other, *, Tensor out = None)')
def atan2(input, other):
    """The angle of the point (other, input): ``atan(input / other)`` in the right quadrant."""
    return _float_binary(input, other, np.arctan2, Atan2Backward0,
                         lambda a, b: {"self": a, "other": b})  # each gradient reads both


def _atan2_recip(y, x):
    """``1 / (y**2 + x**2)``, 0 where that sum is 0 (at the origin atan2's gradient is 0 in
    torch, not nan; measured: a sum that is tiny but not 0 is left alone)."""
    denom = y * y + x * x
    return denom.reciprocal().masked_fill(denom == 0, 0)


class Atan2Backward0(Node):
    """torch's atan2_backward: with ``recip = 1 / (self**2 + other**2)``, ``grad * other *
    recip`` and ``grad * -self * recip``."""

    def backward(self, grad):
        y, x = self.saved("self"), self.saved("other")
        recip = _atan2_recip(y, x)
        return (grad * x * recip if self.needs_input_grad[0] else None,
                grad * -y * recip if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        y, x = self.inputs
        recip = _atan2_recip(y, x)
        return _total(None if t_self is None else t_self * x * recip,
                      None if t_other is None else t_other * -y * recip)


@parses('hypot(Tensor input, Tensor other, *, Tensor out = None)')
def hypot(input, other):
    """``sqrt(input**2 + other**2)``, without overflow on the way."""
    return _float_binary(input, other, np.hypot, HypotBackward0,
                         lambda a, b: {"self": a if a.requires_grad else None,
                                       "other": b if b.requires_grad else None},
                         output_name="result")


class HypotBackward0(Node):
    """``grad * self / result`` and ``grad * other / result``."""

    def backward(self, grad):
        result = self.saved("result")
        return (grad * self.saved("self") / result if self.needs_input_grad[0] else None,
                grad * self.saved("other") / result if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        y, x = self.inputs
        return _total(None if t_self is None else t_self * y / self.result,
                      None if t_other is None else t_other * x / self.result)
