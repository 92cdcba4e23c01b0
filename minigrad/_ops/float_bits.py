"""Ops on the parts of a floating-point number: its sign (copysign, signbit), its neighbours
(nextafter), its binary exponent (ldexp, frexp) and base-2 log-sum (logaddexp2).

The values are IEEE's, as C's copysign, signbit, nextafter, ldexp and frexp give them (NumPy
has each). The gradients are ``derivatives.yaml``'s: copysign's is ``grad * result / self``
(0 at self == 0), nextafter's passes ``grad`` where self != other, ldexp's is
``grad * 2**other``, frexp's ``grad / 2**exponent``.
"""

from __future__ import annotations

import math

import numpy as np

from minigrad import _dtype, return_types
from minigrad._layout import elementwise_result
from minigrad._numeric import quietly
from minigrad._ops import pointwise as P
from minigrad._ops._args import parses
from minigrad._ops._core import (
    check_same_shape_broadcast,
    common_data,
    operands,
    record,
    result_type,
)
from minigrad._ops.inplace import _saved_original, apply_inplace
from minigrad._ops.pointwise import _total, add_scalar, mul_scalar
from minigrad._tensor import Tensor
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node

LN2 = math.log(2.0)


def _float_operands(input, other):
    """Both operands in their common dtype, an integer one promoted to the default float."""
    a, b, d = operands(input, other)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
    check_same_shape_broadcast(a._data, b._data)
    x, y = common_data(a, b, d)
    return a, b, x, y


def _zeros_for(node, i, grad):
    """derivatives.yaml's ``zeros_like(other)``: a gradient of zeros (not none) for input i."""
    if not node.needs_input_grad[i]:
        return None
    return Tensor._make(np.zeros(node._input_meta[i][0], dtype=grad._data.dtype))


def _not_in_place_float(self):
    if not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")


# --- copysign, signbit ------------------------------------------------------------------------
@parses('copysign(Tensor input, Tensor other, *, Tensor out = None)',
        'copysign(Tensor input, Number other, *, Tensor out = None)')
def copysign(input, other):
    """``|input|`` with the sign of ``other`` (its sign bit: -0.0 and -nan count as negative)."""
    a, b, x, y = _float_operands(input, other)
    data = elementwise_result(np.copysign(x, y), a._data, b._data)
    if isinstance(other, Tensor):
        return record(data, CopysignBackward0, (a, b), save={"self": a}, output_name="result")
    return record(data, CopysignBackward1, (a,), save={"self": a}, output_name="result")


@parses('copysign_(Tensor input, Tensor other)', 'copysign_(Tensor input, Number other)')
def copysign_(self, other):
    _not_in_place_float(self)
    with grad_mode.no_grad():
        data = copysign(self.detach(), other.detach() if isinstance(other, Tensor) else other)
    old = _saved_original(self, True)
    if isinstance(other, Tensor):
        return apply_inplace(self, data._data, CopysignBackward0, (self, other),
                             save={"self": old}, output_name="result")
    return apply_inplace(self, data._data, CopysignBackward1, (self,), save={"self": old},
                         output_name="result")


def _copysign_self_backward(grad, x, result):
    """torch's copysign_tensor_self_backward: ``ratio = result / self``, 0 where self == 0."""
    return grad * (result / x).masked_fill(x == 0, 0)


class CopysignBackward0(Node):
    """self: ``grad * (result / self)`` (0 at self == 0); other: zeros."""

    def backward(self, grad):
        g_x = _copysign_self_backward(grad, self.saved("self"), self.saved("result")) \
            if self.needs_input_grad[0] else None
        return g_x, _zeros_for(self, 1, grad)

    def jvp(self, t_self, t_other):
        if t_self is None:
            return None
        return _copysign_self_backward(t_self, self.inputs[0], self.result)


class CopysignBackward1(Node):
    """copysign(self, number): ``grad * (result / self)``, 0 at self == 0."""

    def backward(self, grad):
        return _copysign_self_backward(grad, self.saved("self"), self.saved("result"))

    def jvp(self, t):
        return _copysign_self_backward(t, self.inputs[0], self.result)


@parses('signbit(Tensor input, *, Tensor out = None)')
def signbit(input):
    """Whether the sign bit is set: True for -0.0 and -nan too; never for bool or unsigned."""
    x = input._data
    if x.dtype.kind == "f":
        data = np.signbit(x)
    elif x.dtype.kind == "i":
        data = x < 0
    else:
        data = np.zeros(x.shape, dtype=bool)
    return Tensor._make(np.asarray(data))


# --- nextafter ---------------------------------------------------------------------------------
def _np_nextafter(x, y):
    """C's nextafter: a nan operand comes back as ``x + y`` (the nan's sign kept, as torch's
    element-by-element loop keeps it; its vectorised loop gives +nan)."""
    return np.where(np.isnan(x) | np.isnan(y), x + y, np.nextafter(x, y))


@parses('nextafter(Tensor input, Tensor other, *, Tensor out = None)')
def nextafter(input, other):
    """The next float after ``input`` in the direction of ``other``."""
    d = result_type(input, other)
    if not d.is_floating_point:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{d.scalar_name}'")
    a, b, d = operands(input, other)
    check_same_shape_broadcast(a._data, b._data)
    x, y = common_data(a, b, d)
    out = np.asarray(quietly(_np_nextafter, x, y))
    both = np.isnan(x) & np.isnan(y)
    if both.any():  # torch's element loop (C's x + y, as compiled) gives other's nan
        out = np.where(both, np.broadcast_to(y, out.shape), out).astype(out.dtype)
    data = elementwise_result(out, a._data, b._data)
    return record(data, NextafterBackward0, (a, b), save={"self": a, "other": b})


@parses('nextafter_(Tensor input, Tensor other)')
def nextafter_(self, other):
    with grad_mode.no_grad():  # computed in the common dtype, written in self's (torch's cast)
        data = nextafter(self.detach(), other.detach())._data.astype(self._data.dtype)
    return apply_inplace(self, data, NextafterBackward0, (self, other),
                         save={"self": _saved_original(self, True), "other": other})


def _nextafter_grad(grad, x, y):
    """``where(self != other, grad, 0)``: a step of one float is the identity's slope."""
    return P.where(x != y, grad, 0)


class NextafterBackward0(Node):
    """self: ``where(self != other, grad, 0)``; other: zeros."""

    def backward(self, grad):
        x, y = self.saved("self"), self.saved("other")
        g_x = _nextafter_grad(grad, x, y) if self.needs_input_grad[0] else None
        return g_x, _zeros_for(self, 1, grad)

    def jvp(self, t_self, t_other):
        x, y = self.inputs
        return None if t_self is None else _nextafter_grad(t_self, x, y)


# --- ldexp, frexp ------------------------------------------------------------------------------
@parses('ldexp(Tensor input, Tensor other, *, Tensor out = None)')
def ldexp(input, other):
    """``input * 2 ** other``: exact for an integer ``other`` (the exponent moves)."""
    a, b, x, y = _float_operands(input, other)
    scale = np.exp2(y.astype(np.float64)).astype(x.dtype)
    data = elementwise_result(quietly(np.multiply, x, scale), a._data, b._data)
    return record(data, LdexpBackward0, (a, other), save={"other": other},
                  output_name="result")


@parses('ldexp_(Tensor input, Tensor other)')
def ldexp_(self, other):
    _not_in_place_float(self)
    with grad_mode.no_grad():
        data = ldexp(self.detach(), other.detach())
    return apply_inplace(self, data._data, LdexpBackward0, (self, other), save={"other": other},
                         output_name="result")


class LdexpBackward0(Node):
    """self: ``grad * pow(2, other)``; other: ``grad * result * ln 2``."""

    def backward(self, grad):
        y = self.saved("other")
        return (grad * P.pow(2, y) if self.needs_input_grad[0] else None,
                mul_scalar(grad * self.saved("result"), LN2)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        y = self.inputs[1]
        return _total(None if t_self is None else t_self * P.pow(2, y),
                      None if t_other is None else mul_scalar(t_other * self.result, LN2))


@parses('frexp(Tensor input, *, tuple of Tensors out = None)')
def frexp(input):
    """``input = mantissa * 2 ** exponent`` with ``0.5 <= |mantissa| < 1`` (0, inf and nan
    keep themselves, exponent 0); the exponent is int32."""
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = np.frexp(input._data)
    exponent = Tensor._make(np.asarray(exponent, dtype=np.int32))
    out = record(elementwise_result(np.asarray(mantissa), input._data), FrexpBackward0,
                 (input,), save={"exponent": exponent})
    return return_types.frexp((out, exponent))


class FrexpBackward0(Node):
    """``grad / exponent.exp2()``."""

    def backward(self, grad):
        return grad / self.saved("exponent").exp2()

    def jvp(self, t):
        return t / self.exponent.exp2()


# --- logaddexp2 --------------------------------------------------------------------------------
def _np_logaddexp2(a, b):
    """torch's kernel: ``a`` where both are the same infinity, else
    ``max(a, b) + log1p(exp2(-|a - b|)) / ln 2``."""
    same_inf = np.isinf(a) & (a == b)
    return np.where(same_inf, a,
                    np.maximum(a, b) + np.log1p(np.exp2(-np.abs(a - b))) * (1 / LN2))


@parses('logaddexp2(Tensor input, Tensor other, *, Tensor out = None)')
def logaddexp2(input, other):
    """``log2(2**input + 2**other)``, without overflow."""
    d = result_type(input, other)
    if not d.is_floating_point:
        raise NotImplementedError(f"\"logaddexp2_cpu\" not implemented for '{d.scalar_name}'")
    a, b, x, y = _float_operands(input, other)
    wide = np.float64 if x.dtype == np.float32 else x.dtype
    data = quietly(_np_logaddexp2, x.astype(wide), y.astype(wide)).astype(x.dtype)
    data = elementwise_result(np.asarray(data), a._data, b._data)
    return record(data, Logaddexp2Backward0, (a, b), save={"self": a, "other": b})


def _logaddexp2_part(t, x, y):
    """``t / (1 + pow(2, y - x))``."""
    return t / add_scalar(P.pow(2, y - x), 1)


class Logaddexp2Backward0(Node):
    """``grad / (1 + pow(2, other - self))`` and ``grad / (1 + pow(2, self - other))``."""

    def backward(self, grad):
        x, y = self.saved("self"), self.saved("other")
        return (_logaddexp2_part(grad, x, y) if self.needs_input_grad[0] else None,
                _logaddexp2_part(grad, y, x) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        x, y = self.inputs
        return _total(None if t_self is None else _logaddexp2_part(t_self, x, y),
                      None if t_other is None else _logaddexp2_part(t_other, y, x))
