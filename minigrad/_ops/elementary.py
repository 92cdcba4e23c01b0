"""More elementary functions: what a learner differentiates after exp, log, sin and tanh.

``log1p``, ``expm1``, ``exp2``, ``square``, ``atan``, ``asin``, ``acos``, ``tan``, the
hyperbolic ``sinh``, ``cosh`` and their inverses ``asinh``, ``acosh``, ``atanh``, ``atan2`` and
``hypot``, each followed by its node, and their in-place forms. The formulas are torch's
(``derivatives.yaml`` and ``FunctionsManual.cpp``), written with the same operations, so
that a gradient taken with ``create_graph=True`` has torch's graph: ``log1p``'s is
``grad / (self + 1)``, ``asin``'s is ``grad * (-self * self + 1).rsqrt()``. float32 values
are computed in float64 and rounded once, as ``pointwise._like_torch`` does for exp and log
(torch's own kernels are within an ulp of that).
"""

from __future__ import annotations

import math

import numpy as np

from minigrad import _dtype
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
from minigrad._ops.inplace import _saved_original, _unary_inplace, apply_inplace
from minigrad._ops.pointwise import LN2, _like_torch, _total, _unary, add_scalar, mul_scalar
from minigrad._tensor import Tensor
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node

np_log1p, np_expm1, np_exp2, np_atan, np_asin, np_acos = map(
    _like_torch, (np.log1p, np.expm1, np.exp2, np.arctan, np.arcsin, np.arccos))
np_tan, np_sinh, np_cosh, np_asinh, np_acosh, np_atanh = map(
    _like_torch, (np.tan, np.sinh, np.cosh, np.arcsinh, np.arccosh, np.arctanh))


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


@parses('tan(Tensor input, *, Tensor out = None)')
def tan(input):
    return _unary(input, np_tan, TanBackward0, save_result=True)


class TanBackward0(Node):
    """``grad * (1 + result.pow(2))``: sec^2 read back from the result."""

    def backward(self, grad):
        return grad * add_scalar(P.pow(self.saved("result"), 2), 1)

    def jvp(self, t):
        return t * add_scalar(P.pow(self.result, 2), 1)


@parses('sinh(Tensor input, *, Tensor out = None)')
def sinh(input):
    return _unary(input, np_sinh, SinhBackward0, save_self=True)


class SinhBackward0(Node):
    """``grad * self.cosh()``."""

    def backward(self, grad):
        return grad * cosh(self.saved("self"))

    def jvp(self, t):
        return t * cosh(self.inputs[0])


@parses('cosh(Tensor input, *, Tensor out = None)')
def cosh(input):
    return _unary(input, np_cosh, CoshBackward0, save_self=True)


class CoshBackward0(Node):
    """``grad * self.sinh()``."""

    def backward(self, grad):
        return grad * sinh(self.saved("self"))

    def jvp(self, t):
        return t * sinh(self.inputs[0])


@parses('asinh(Tensor input, *, Tensor out = None)')
def asinh(input):
    return _unary(input, np_asinh, AsinhBackward0, save_self=True)


class AsinhBackward0(Node):
    """``grad * (self.pow(2) + 1).rsqrt()``."""

    def backward(self, grad):
        return grad * add_scalar(P.pow(self.saved("self"), 2), 1).rsqrt()

    def jvp(self, t):
        return t * add_scalar(P.pow(self.inputs[0], 2), 1).rsqrt()


@parses('acosh(Tensor input, *, Tensor out = None)')
def acosh(input):
    return _unary(input, np_acosh, AcoshBackward0, save_self=True)


class AcoshBackward0(Node):
    """``grad * (self * self - 1).rsqrt()`` (torch's real case: one rsqrt, not two)."""

    def backward(self, grad):
        x = self.saved("self")
        return grad * P.sub_scalar(x * x, 1).rsqrt()

    def jvp(self, t):
        x = self.inputs[0]
        return t * P.sub_scalar(x * x, 1).rsqrt()


@parses('atanh(Tensor input, *, Tensor out = None)')
def atanh(input):
    return _unary(input, np_atanh, AtanhBackward0, save_self=True)


class AtanhBackward0(Node):
    """``grad * 1 / (1 - self.pow(2))``, as C++ reads it: ``(grad * 1) / (1 - self**2)``, where
    ``grad * 1`` is mul.Scalar and ``1 - t`` is ``empty_like(t).fill_(1).sub_(t)``
    (SubBackward0)."""

    def backward(self, grad):
        return mul_scalar(grad, 1) / P.sub(1, P.pow(self.saved("self"), 2))

    def jvp(self, t):
        return mul_scalar(t, 1) / P.sub(1, P.pow(self.inputs[0], 2))


# --- in place ----------------------------------------------------------------------------------
# torch's in-place forms use the same formulas (the original value saved where the formula
# reads ``self``), except asinh_, acosh_ and atanh_, whose entries in derivatives.yaml are
# ``not_implemented``: they record AsinhBackward1... and raise when differentiated.

def _inplace(np_fn, node_cls, name, save_self=False, save_result=False):
    @parses(f'{name}(Tensor input)')
    def op(self):
        return _unary_inplace(self, np_fn, node_cls, save_self=save_self,
                              save_result=save_result, floats=True)

    op.__name__ = op.__qualname__ = name
    return op


class _InplaceNotImplemented:
    """What the nodes of the in-place ops whose derivative torch leaves unimplemented share
    (a mixin, not a node class of its own)."""

    op = ""

    def backward(self, grad):
        raise NotImplementedError(f"the derivative for 'inplace version of {self.op}' is not "
                                  "implemented.")

    def jvp(self, t):
        op = getattr(self, "node_cls", type(self)).op  # (forward mode passes an OpContext)
        raise NotImplementedError(
            f"Trying to use forward AD with {op}_ that does not support it because it has not "
            "been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that "
            "we can prioritize its implementation.")


class AsinhBackward1(_InplaceNotImplemented, Node):
    op = "asinh"


class AcoshBackward1(_InplaceNotImplemented, Node):
    op = "acosh"


class AtanhBackward1(_InplaceNotImplemented, Node):
    op = "atanh"


tan_ = _inplace(np_tan, TanBackward0, "tan_", save_result=True)
sinh_ = _inplace(np_sinh, SinhBackward0, "sinh_", save_self=True)
cosh_ = _inplace(np_cosh, CoshBackward0, "cosh_", save_self=True)
asinh_ = _inplace(np_asinh, AsinhBackward1, "asinh_")
acosh_ = _inplace(np_acosh, AcoshBackward1, "acosh_")
atanh_ = _inplace(np_atanh, AtanhBackward1, "atanh_")
atan_ = _inplace(np_atan, AtanBackward0, "atan_", save_self=True)
asin_ = _inplace(np_asin, AsinBackward0, "asin_", save_self=True)
acos_ = _inplace(np_acos, AcosBackward0, "acos_", save_self=True)
log1p_ = _inplace(np_log1p, Log1PBackward0, "log1p_", save_self=True)
expm1_ = _inplace(np_expm1, Expm1Backward0, "expm1_", save_result=True)
exp2_ = _inplace(np_exp2, Exp2Backward0, "exp2_", save_result=True)


def _float_binary(a, b, np_fn, node_cls, save, output_name=None):
    """A binary op whose result is a float (ints promote to the default dtype), computed in
    float64 for float32 and rounded once; ``save(a, b)`` says what its node keeps."""
    a, b, d = operands(a, b)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
    check_same_shape_broadcast(a._data, b._data)
    wide = np.float64 if d.numpy == np.float32 else d.numpy
    x, y = common_data(a, b, d)
    data = quietly(np_fn, x.astype(wide), y.astype(wide)).astype(d.numpy)
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


# --- the activations group's block: erf, erfc, erfinv -------------------------------------------
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_HALF_SQRT_PI = 0.5 * math.sqrt(math.pi)
_math_erf, _math_erfc = np.frompyfunc(math.erf, 1, 1), np.frompyfunc(math.erfc, 1, 1)


def _f64(ufunc):
    """A float64 ufunc from a Python math function (C's erf and erfc, as torch's kernels)."""
    return lambda x: np.asarray(ufunc(x), dtype=np.float64)


np_erf, np_erfc = _f64(_math_erf), _f64(_math_erfc)
# torch's calc_erfinv (ATen/native/Math.h): Pavlis' rational first guess, two Newton steps
_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


def _np_erfinv64(y):
    a, b, c, d = _ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D
    y_abs = np.abs(y)
    z = y * y
    central = y * ((((a[3] * z + a[2]) * z + a[1]) * z + a[0])
                   / ((((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0))
    z = np.sqrt(-np.log((1.0 - y_abs) / 2.0))
    tail = (np.copysign(((c[3] * z + c[2]) * z + c[1]) * z + c[0], y)
            / ((d[1] * z + d[0]) * z + 1.0))
    x = np.where(y_abs <= 0.7, central, tail)
    for _ in range(2):
        x = x - (np_erf(x) - y) / (_TWO_OVER_SQRT_PI * np.exp(-x * x))
    x = np.where(y_abs == 1, np.copysign(np.inf, y), x)
    return np.where(y_abs > 1, np.nan, x)


def _rounded_once(fn64):
    """``fn64`` of a float64 copy, rounded once to the input's dtype (float32, float16)."""
    def kernel(x):
        out = np.asarray(quietly(fn64, x.astype(np.float64))).astype(x.dtype, copy=False)
        return elementwise_result(out, x)  # laid out as torch's

    return kernel


np_erf_like_torch, np_erfc_like_torch, np_erfinv = map(
    _rounded_once, (np_erf, np_erfc, _np_erfinv64))


@parses('erf(Tensor input, *, Tensor out = None)')
def erf(input):
    """The Gauss error function, ``2/sqrt(pi) * integral of exp(-t**2) from 0 to x``."""
    return _unary(input, np_erf_like_torch, ErfBackward0, save_self=True)


def _gauss(x):
    """``2 / sqrt(pi) * exp(-(x.pow(2)))``: erf's slope, in torch's ops."""
    return mul_scalar(P.neg(P.pow(x, 2)).exp(), _TWO_OVER_SQRT_PI)


class ErfBackward0(Node):
    """``2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad``."""

    def backward(self, grad):
        return _gauss(self.saved("self")) * grad

    def jvp(self, t):
        return _gauss(self.inputs[0]) * t


@parses('erfc(Tensor input, *, Tensor out = None)')
def erfc(input):
    """``1 - erf(x)``, without the cancellation for large x."""
    return _unary(input, np_erfc_like_torch, ErfcBackward0, save_self=True)


class ErfcBackward0(Node):
    """``-2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad``."""

    def backward(self, grad):
        x = self.saved("self")
        return mul_scalar(P.neg(P.pow(x, 2)).exp(), -_TWO_OVER_SQRT_PI) * grad

    def jvp(self, t):
        x = self.inputs[0]
        return mul_scalar(P.neg(P.pow(x, 2)).exp(), -_TWO_OVER_SQRT_PI) * t


@parses('erfinv(Tensor input, *, Tensor out = None)')
def erfinv(input):
    """The inverse of erf on (-1, 1): +-inf at +-1, nan beyond."""
    return _unary(input, np_erfinv, ErfinvBackward0, save_self=True)


class ErfinvBackward0(Node):
    """``0.5 * sqrt(M_PI) * exp(self.erfinv().pow(2)) * grad``: the result is computed again,
    as torch does (it saves only ``self``)."""

    def backward(self, grad):
        return mul_scalar(P.pow(erfinv(self.saved("self")), 2).exp(), _HALF_SQRT_PI) * grad

    def jvp(self, t):
        return mul_scalar(P.pow(erfinv(self.inputs[0]), 2).exp(), _HALF_SQRT_PI) * t


@parses('erf_(Tensor input)')
def erf_(self):
    return _unary_inplace(self, np_erf_like_torch, ErfBackward0, save_self=True, floats=True)


@parses('erfc_(Tensor input)')
def erfc_(self):
    return _unary_inplace(self, np_erfc_like_torch, ErfcBackward0, save_self=True, floats=True)


@parses('erfinv_(Tensor input)')
def erfinv_(self):
    return _unary_inplace(self, np_erfinv, ErfinvBackward0, save_self=True, floats=True)


# --- logaddexp, deg2rad, rad2deg ----------------------------------------------------------------
def _np_logaddexp(a, b):
    """torch's kernel: ``a`` where both are the same infinity, else
    ``max(a, b) + log1p(exp(-|a - b|))``."""
    same_inf = np.isinf(a) & (a == b)
    return np.where(same_inf, a, np.maximum(a, b) + np.log1p(np.exp(-np.abs(a - b))))


@parses('logaddexp(Tensor input, Tensor other, *, Tensor out = None)')
def logaddexp(input, other):
    """``log(exp(input) + exp(other))``, without overflow."""
    d = result_type(input, other)
    if not d.is_floating_point:
        raise NotImplementedError(f"\"logaddexp_cpu\" not implemented for '{d.scalar_name}'")
    return _float_binary(input, other, _np_logaddexp, LogaddexpBackward0,
                         lambda a, b: {"self": a, "other": b})


class LogaddexpBackward0(Node):
    """``grad / (1 + exp(other - self))`` and ``grad / (1 + exp(self - other))``."""

    def backward(self, grad):
        x, y = self.saved("self"), self.saved("other")
        return (grad / add_scalar((y - x).exp(), 1) if self.needs_input_grad[0] else None,
                grad / add_scalar((x - y).exp(), 1) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        x, y = self.inputs
        return _total(None if t_self is None else t_self / add_scalar((y - x).exp(), 1),
                      None if t_other is None else t_other / add_scalar((x - y).exp(), 1))


_PI_180, _180_PI = math.pi / 180, 180 / math.pi


def _scaled_by(factor):
    """``x * factor`` with the factor in the tensor's dtype, as torch's mul by a number."""
    return lambda x: x * x.dtype.type(factor)


@parses('deg2rad(Tensor input, *, Tensor out = None)')
def deg2rad(input):
    """Degrees to radians: ``x * pi / 180``."""
    return _unary(input, _scaled_by(_PI_180), Deg2RadBackward0)


@parses('rad2deg(Tensor input, *, Tensor out = None)')
def rad2deg(input):
    """Radians to degrees: ``x * 180 / pi``."""
    return _unary(input, _scaled_by(_180_PI), Rad2DegBackward0)


@parses('deg2rad_(Tensor input)')
def deg2rad_(self):
    return _unary_inplace(self, _scaled_by(_PI_180), Deg2RadBackward0, floats=True)


@parses('rad2deg_(Tensor input)')
def rad2deg_(self):
    return _unary_inplace(self, _scaled_by(_180_PI), Rad2DegBackward0, floats=True)


class Deg2RadBackward0(Node):
    """torch's deg2rad_backward: ``grad * (pi / 180)``."""

    def backward(self, grad):
        return mul_scalar(grad, _PI_180)

    def jvp(self, t):
        return mul_scalar(t, _PI_180)


class Rad2DegBackward0(Node):
    """torch's rad2deg_backward: ``grad * (180 / pi)``."""

    def backward(self, grad):
        return mul_scalar(grad, _180_PI)

    def jvp(self, t):
        return mul_scalar(t, _180_PI)


# --- logit ------------------------------------------------------------------------------------
def _np_logit(eps):
    """torch's kernel: ``x / (1 - x)`` in the input's dtype, then its log rounded once (a
    float16 ratio's log in float32)."""
    def kernel(x):
        if eps is not None and eps >= 0:  # torch clamps to [eps, 1 - eps] (a negative eps: not)
            lo, hi = x.dtype.type(eps), x.dtype.type(1 - eps)
            x = np.where(x < lo, lo, np.where(x > hi, hi, x))
        one = x.dtype.type(1)
        ratio = np.asarray(x / (one - x))
        if ratio.dtype == np.float16:
            return P.np_log(ratio.astype(np.float32)).astype(np.float16)
        return P.np_log(ratio)

    return kernel


@parses('logit(Tensor input, float? eps = None, *, Tensor out = None)')
def logit(input, eps=None):
    """``log(p / (1 - p))``, the inverse of sigmoid; with ``eps``, p clamped to
    ``[eps, 1 - eps]`` first."""
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    data = quietly(_np_logit(eps), x._data)
    return record(data, LogitBackward0, (x,), save={"self": x}, eps=eps)


@parses('logit_(Tensor input, float? eps = None)')
def logit_(self, eps=None):
    return _unary_inplace_attrs(self, _np_logit(eps), eps)


def _unary_inplace_attrs(self, np_fn, eps):
    if not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")
    data = quietly(np_fn, self._data)
    return apply_inplace(self, data, LogitBackward0, (self,),
                         save={"self": _saved_original(self, True)}, eps=eps)


class LogitBackward0(Node):
    """``grad / (self * (1 - self))`` inside the clamped range, 0 outside it (nan outside
    [0, 1] without eps): torch's logit_backward, composed of ops when grad mode is on
    (infinitely_differentiable_logit_backward)."""

    def backward(self, grad):
        return logit_backward(grad, self.saved("self"), self.eps)

    def jvp(self, t):
        return logit_backward(t, self.inputs[0], self.eps)


def logit_backward(grad, input, eps):
    if grad_mode.is_grad_enabled():
        lo, hi = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
        inside = P.logical_and(input >= lo, input <= hi)
        value = grad / (input * P.sub(1.0, input))  # C++ 1.0 - self: SubBackward0
        outside = input.new_zeros(()) if eps is not None else \
            input.new_empty(()).fill_(float("nan"))
        return P.where(inside, value, outside)

    def kernel(g, x):
        if eps is None or eps < 0:
            edge = (x == 0) | (x == 1)
            inner = np.where(edge, g * np.inf, g / (x * (1 - x)))
            return np.where((x < 0) | (x > 1), np.nan, inner)
        lo, hi = x.dtype.type(eps), x.dtype.type(1 - eps)
        return np.where((x < lo) | (x > hi), 0, g / (x * (1 - x)))

    g = grad._data
    return Tensor._make(np.asarray(quietly(kernel, g, input._data)).astype(g.dtype, copy=False))


# --- sinc -------------------------------------------------------------------------------------
def np_sinc(x):
    """torch's kernel, in the input's dtype: ``pi * x`` with pi of that dtype (so sinc(1.)
    in float32 is sin(float32(pi)) / float32(pi), -2.78e-08, not 0), then its sine; float16
    in float32."""
    if x.dtype == np.float16:
        return np_sinc(x.astype(np.float32)).astype(np.float16)
    product = x * x.dtype.type(np.pi)
    safe = np.where(x == 0, x.dtype.type(1), product)
    return np.where(x == 0, x.dtype.type(1), P.np_sin(product) / safe).astype(x.dtype)


@parses('sinc(Tensor input, *, Tensor out = None)')
def sinc(input):
    """The normalised sinc, ``sin(pi x) / (pi x)``, 1 at 0."""
    return _unary(input, np_sinc, SincBackward0, save_self=True)


@parses('sinc_(Tensor input)')
def sinc_(self):
    return _unary_inplace(self, np_sinc, SincBackward0, save_self=True, floats=True)


def _sinc_backward(grad, x):
    """torch's sinc_backward, op for op: ``grad * ((x pi cos(x pi) - sin(x pi)) / (x x pi))``,
    0 where ``x x pi == 0``."""
    self_pi = mul_scalar(x, math.pi)
    self_squared_pi = mul_scalar(x * x, math.pi)
    out = grad * ((self_pi * self_pi.cos() - self_pi.sin()) / self_squared_pi)
    return P.where(self_squared_pi == 0.0, grad.new_zeros(()), out)


class SincBackward0(Node):
    def backward(self, grad):
        return _sinc_backward(grad, self.saved("self"))

    def jvp(self, t):
        return _sinc_backward(t, self.inputs[0])


# --- xlogy ------------------------------------------------------------------------------------
def _np_xlogy(x, y):
    """torch's kernel: nan where y is nan, 0 where x is 0, else ``x * log(y)``."""
    return np.where(np.isnan(y), np.nan, np.where(x == 0, 0.0, x * np.log(y)))


@parses('xlogy(Tensor input, Tensor other, *, Tensor out = None)',
        'xlogy(Number self, Tensor other, *, Tensor out = None)',
        'xlogy(Tensor input, Number other, *, Tensor out = None)')
def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is nan)."""
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        return _float_binary(input, other, _np_xlogy, XlogyBackward0,
                             lambda a, b: {"self": a, "other": b})
    a, b, d = operands(input, other)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
    wide = np.float64 if d.numpy == np.float32 else d.numpy
    x, y = common_data(a, b, d)
    data = quietly(_np_xlogy, x.astype(wide), y.astype(wide)).astype(d.numpy)
    if not isinstance(input, Tensor):  # xlogy(number, tensor): XlogyBackward1
        return record(data, XlogyBackward1, (b,), save={"other": b}, self=input)
    return record(data, XlogyBackward2, (a,), save={"self": a}, other=other)


def _xlogy_other_grad(grad, x, y):
    return grad * x / y


class XlogyBackward0(Node):
    """``xlogy(grad, other)`` (0 where self == 0 and other <= 0) and ``grad * self / other``."""

    def backward(self, grad):
        x, y = self.saved("self"), self.saved("other")
        g_x = g_y = None
        if self.needs_input_grad[0]:
            g_x = xlogy(grad, y).masked_fill((x == 0.0) & (y <= 0.0), 0.0)
        if self.needs_input_grad[1]:
            g_y = _xlogy_other_grad(grad, x, y)
        return g_x, g_y

    def jvp(self, t_x, t_y):
        x, y = self.inputs
        return _total(
            None if t_x is None else xlogy(t_x, y).masked_fill((x == 0.0) & (y <= 0.0), 0.0),
            None if t_y is None else t_y * x / y)


class XlogyBackward1(Node):
    """xlogy(number, other): ``grad * self / other``."""

    def backward(self, grad):
        return mul_scalar(grad, self.self) / self.saved("other")

    def jvp(self, t):
        return mul_scalar(t, self.self) / self.inputs[0]


class XlogyBackward2(Node):
    """xlogy(self, number): ``xlogy(grad, other)``, 0 where self == 0 unless other > 0."""

    def backward(self, grad):
        g = xlogy(grad, self.other)
        if not self.other > 0:
            g = g.masked_fill(self.saved("self") == 0.0, 0.0)
        return g

    def jvp(self, t_x):
        g = xlogy(t_x, self.other)
        return g if self.other > 0 else g.masked_fill(self.inputs[0] == 0.0, 0.0)


@parses('xlogy_(Tensor input, Tensor other)', 'xlogy_(Tensor input, Number other)')
def xlogy_(self, other):
    """In place: xlogy's values and node, written into ``self``."""
    if not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")
    with grad_mode.no_grad():
        data = xlogy(self.detach(), other.detach() if isinstance(other, Tensor) else other)._data
    old = _saved_original(self, True)
    if isinstance(other, Tensor):
        return apply_inplace(self, data, XlogyBackward0, (self, other),
                             save={"self": old, "other": other})
    return apply_inplace(self, data, XlogyBackward2, (self,), save={"self": old}, other=other)
