"""Element-wise operations: arithmetic with broadcasting, math functions, comparisons.

Each function computes its value with NumPy and records its node, written right under it:
the node's ``backward`` multiplies the output's gradient by the op's local derivative
(reverse mode) and its ``jvp`` multiplies the inputs' tangents by it (forward mode). Node
names are torch's. Formulas are written with minigrad operations, so with
``create_graph=True`` a gradient is itself a graph that can be differentiated again; the
engine sums each gradient back to its input's shape (undoing broadcasting).

Python numbers are wrapped as constant 0-d tensors, so ``x * 2`` has two ``next_functions``
in minigrad as in torch, the second being ``(None, 0)``.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._ops._core import (
    as_tensor_like,
    check_same_shape_broadcast,
    cross_save,
    fused,
    is_scalar,
    operands,
    quietly,
    record,
    result_type,
)
from minigrad._tensor import Tensor
from minigrad.autograd.graph import Node


def _total(*terms):
    """The sum of the tangent terms that exist: an input without tangent adds nothing."""
    present = [t for t in terms if t is not None]
    if not present:
        return None
    out = present[0]
    for t in present[1:]:
        out = out + t
    return out


def _times(t, factor):
    return None if t is None else t * factor


def _binary(a, b, np_fn, node_cls, save=None, **attrs):
    """``save(a, b)`` gives the dict of tensors the backward formula needs."""
    a, b, d = operands(a, b)
    if a._data.shape != b._data.shape:
        check_same_shape_broadcast(a._data, b._data)
    data = quietly(np_fn, a._data, b._data).astype(d.numpy, copy=False)
    return record(data, node_cls, (a, b), save=save(a, b) if save else None, **attrs)


def add(input, other, *, alpha=1):
    fn = np.add if alpha == 1 else (lambda x, y: x + alpha * y)
    return _binary(input, other, fn, AddBackward0, alpha=alpha)


class AddBackward0(Node):
    """out = self + alpha * other"""

    def backward(self, grad):
        return grad, (grad * self.alpha if self.alpha != 1 else grad)

    def jvp(self, t_self, t_other):
        return _total(t_self, t_other if self.alpha == 1 else _times(t_other, self.alpha))


def _is_bool(x) -> bool:
    """A bool tensor, or a Python bool (which torch wraps as a bool tensor)."""
    return x.dtype is _dtype.bool if isinstance(x, Tensor) else isinstance(x, bool)


def _sub_check(input, other):
    """torch refuses to subtract bools, with one message for two and another for one."""
    if _is_bool(input) and _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(input) or _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


def sub(input, other, *, alpha=1):
    _sub_check(input, other)
    fn = np.subtract if alpha == 1 else (lambda x, y: x - alpha * y)
    return _binary(input, other, fn, SubBackward0, alpha=alpha)


class SubBackward0(Node):
    """out = self - alpha * other"""

    def backward(self, grad):
        return grad, -grad * self.alpha if self.alpha != 1 else -grad

    def jvp(self, t_self, t_other):
        return _total(t_self, _times(t_other, -self.alpha))


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (Python's ``2 - x`` is ``x.__rsub__(2)``)."""
    _sub_check(input, other)
    if not is_scalar(other):
        fn = (lambda x, y: y - x) if alpha == 1 else (lambda x, y: y - alpha * x)
        return _binary(input, other, fn, RsubBackward0, alpha=alpha)
    d = result_type(input, other)
    x = input._data if alpha == 1 else alpha * input._data
    data = (np.asarray(other, dtype=d.numpy) - x).astype(d.numpy, copy=False)
    return record(data, RsubBackward1, (input,), alpha=alpha)


class RsubBackward0(Node):
    """out = other - alpha * self"""

    def backward(self, grad):
        return -grad * self.alpha if self.alpha != 1 else -grad, grad

    def jvp(self, t_self, t_other):
        return _total(_times(t_self, -self.alpha), t_other)


class RsubBackward1(Node):
    """out = other - alpha * self, with ``other`` a number"""

    def backward(self, grad):
        return -grad * self.alpha if self.alpha != 1 else -grad

    def jvp(self, t):
        return -t * self.alpha if self.alpha != 1 else -t


def mul(input, other):
    return _binary(input, other, np.multiply, MulBackward0, save=cross_save)


class MulBackward0(Node):
    """out = self * other"""

    def backward(self, grad):
        return (grad * self.saved("other") if self.needs_input_grad[0] else None,
                grad * self.saved("self") if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        a, b = self.inputs
        return _total(_times(t_self, b), _times(t_other, a))


def div(input, other, *, rounding_mode=None):
    if rounding_mode is not None:
        a, b, d = operands(input, other)
        fn = np.floor_divide if rounding_mode == "floor" else _trunc_div
        return record(fn(a._data, b._data).astype(d.numpy), DivBackward2, (a, b))
    a, b, d = operands(input, other)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
        a, b = a.to(d), b.to(d)
    if is_scalar(input):  # 2 / x is computed as reciprocal(x) * 2, as in torch
        return mul(reciprocal(b), input)
    check_same_shape_broadcast(a._data, b._data)
    with np.errstate(divide="ignore", invalid="ignore"):
        data = np.true_divide(a._data, b._data).astype(d.numpy, copy=False)
    save = {"self": a if b.requires_grad else None, "other": b}
    return record(data, DivBackward0, (a, b), save=save)


class DivBackward0(Node):
    """out = self / other"""

    def backward(self, grad):
        other = self.saved("other")
        return (grad / other if self.needs_input_grad[0] else None,
                -grad * self.saved("self") / (other * other) if self.needs_input_grad[1]
                else None)

    def jvp(self, t_self, t_other):
        a, b = self.inputs
        return _total(None if t_self is None else t_self / b,
                      None if t_other is None else -t_other * a / (b * b))


class DivBackward2(Node):
    """div with a rounding mode: piecewise constant, so a zero gradient (torch's zeros_like)"""

    def backward(self, grad):
        return grad.new_zeros(grad.shape), grad.new_zeros(grad.shape)

    def jvp(self, t_self, t_other):
        return self.result.new_zeros(self.result.shape)


def _trunc_div(a, b):
    return np.trunc(np.true_divide(a, b))


def neg(input):
    if input.dtype is _dtype.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    return record(np.negative(input._data), NegBackward0, (input,))


class NegBackward0(Node):
    def backward(self, grad):
        return -grad

    def jvp(self, t):
        return -t


def reciprocal(input):
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    with np.errstate(divide="ignore"):
        data = np.reciprocal(x._data)
    return record(data, ReciprocalBackward0, (x,), output_name="result")


class ReciprocalBackward0(Node):
    """out = 1 / self; d/dx = -out^2"""

    def backward(self, grad):
        result = self.saved("result")
        return -grad * result * result

    def jvp(self, t):
        return -t * self.result * self.result


def pow(input, exponent):
    if is_scalar(input):
        return _rpow(exponent, input)
    if is_scalar(exponent):
        d = result_type(input, exponent)
        if not d.is_floating_point and d is not _dtype.bool and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            data = _power(input._data.astype(d.numpy, copy=False), exponent)
        return record(data.astype(d.numpy, copy=False), PowBackward0, (input,),
                      save={"self": input}, exponent=exponent)
    a, b, d = operands(input, exponent)
    _pow_check(d)
    check_same_shape_broadcast(a._data, b._data)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        data = _tensor_power(a._data, b._data).astype(d.numpy, copy=False)
    return record(data, PowBackward1, (a, b), save={"self": a, "exponent": b},
                  output_name="result")


class PowBackward0(Node):
    """out = self ** exponent, exponent a number"""

    def backward(self, grad):
        e = self.exponent
        if e == 0:
            return grad.new_zeros(grad.shape)  # torch's zeros_like: +0, whatever grad's sign
        return grad * e * self.saved("self") ** (e - 1)

    def jvp(self, t):
        e = self.exponent
        return t.new_zeros(t.shape) if e == 0 else t * e * self.inputs[0] ** (e - 1)


class PowBackward1(Node):
    """out = self ** exponent, both tensors"""

    def backward(self, grad):
        base, exponent = self.saved("self"), self.saved("exponent")
        g_self = g_exp = None
        if self.needs_input_grad[0]:
            g_self = where(exponent == 0, 0.0, grad * exponent * base ** (exponent - 1))
        if self.needs_input_grad[1]:
            result = self.saved("result")
            g_exp = where((base == 0) & (exponent >= 0), 0.0, grad * result * base.log())
        return g_self, g_exp

    def jvp(self, t_self, t_exponent):
        base, exponent = self.inputs
        g_base = g_exp = None
        if t_self is not None:
            g_base = where(exponent == 0, 0.0, t_self * exponent * base ** (exponent - 1))
        if t_exponent is not None:
            g_exp = where((base == 0) & (exponent >= 0), 0.0,
                          t_exponent * self.result * base.log())
        return _total(g_base, g_exp)


def _power(data, exponent):
    """``data ** exponent`` for a number exponent; like torch, ``-0.5`` is computed as
    ``1 / sqrt`` (so ``(-0.0) ** -0.5`` is ``-inf``, as in torch)."""
    if exponent == -0.5:
        return np.reciprocal(np.sqrt(data))
    return np.power(data, exponent)


def _pow_check(d):
    if d is _dtype.bool:
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")


def _tensor_power(base, exponent):
    """Element-wise power; for integers a negative exponent gives ``1 / base ** -e`` rounded
    toward zero, as torch does (NumPy refuses)."""
    if base.dtype.kind == "f" or not (exponent < 0).any():
        return np.power(base, exponent)
    base, exponent = np.broadcast_arrays(base, exponent)
    positive = np.power(base, np.abs(exponent))
    inverse = np.where(np.abs(base) == 1, positive, 0)  # only 1 and -1 survive 1 / base ** e
    return np.where(exponent < 0, inverse, positive)


def _rpow(exponent, base):
    """``base ** exponent`` where ``base`` is a number."""
    d = result_type(exponent, base)
    _pow_check(d)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        data = _tensor_power(np.asarray(base, dtype=d.numpy), exponent._data.astype(d.numpy))
    return record(data, PowBackward2, (exponent,), save={"exponent": exponent},
                  output_name="result", base=base)


class PowBackward2(Node):
    """out = base ** exponent, base a number"""

    def backward(self, grad):
        log_base = _log_of_number(self.base)
        if self.base == 0:  # 0 ** e is 0 for e > 0 and 1 for e == 0: flat, so no gradient
            return grad * where(self.saved("exponent") >= 0, 0.0, self.saved("result") * log_base)
        return grad * (self.saved("result") * log_base)

    def jvp(self, t):
        return t * 0 if self.base == 0 else t * self.result * _log_of_number(self.base)


def _log_of_number(x) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.log(np.float64(x)))  # nan for a negative base


def _unary(input, np_fn, node_cls, save_self=False, save_result=False):
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    data = quietly(np_fn, x._data)
    return record(data, node_cls, (x,), save={"self": x} if save_self else None,
                  output_name="result" if save_result else None)


def exp(input):
    return _unary(input, np.exp, ExpBackward0, save_result=True)


class ExpBackward0(Node):
    def backward(self, grad):
        return grad * self.saved("result")

    def jvp(self, t):
        return t * self.result


def log(input):
    return _unary(input, np.log, LogBackward0, save_self=True)


class LogBackward0(Node):
    def backward(self, grad):
        return grad / self.saved("self")

    def jvp(self, t):
        return t / self.inputs[0]


def sqrt(input):
    return _unary(input, np.sqrt, SqrtBackward0, save_result=True)


class SqrtBackward0(Node):
    def backward(self, grad):
        return grad / (2 * self.saved("result"))

    def jvp(self, t):
        return t / (2 * self.result)


def sin(input):
    return _unary(input, np.sin, SinBackward0, save_self=True)


class SinBackward0(Node):
    def backward(self, grad):
        return grad * self.saved("self").cos()

    def jvp(self, t):
        return t * self.inputs[0].cos()


def cos(input):
    return _unary(input, np.cos, CosBackward0, save_self=True)


class CosBackward0(Node):
    def backward(self, grad):
        return grad * -self.saved("self").sin()

    def jvp(self, t):
        return -t * self.inputs[0].sin()


def tanh(input):
    return _unary(input, np.tanh, TanhBackward0, save_result=True)


class TanhBackward0(Node):
    """d tanh(x)/dx = 1 - tanh(x)^2, from the saved output.

    Without ``create_graph`` nobody differentiates this gradient again, so it is computed as
    one NumPy expression, like torch's fused ``tanh_backward`` kernel: three minigrad ops
    would cost three times the bookkeeping for the same numbers. With ``create_graph`` it is
    written in minigrad ops, so the result is a graph that can be differentiated again.
    """

    def backward(self, grad):
        result = self.saved("result")
        if fused():
            r = result._data
            return Tensor._make(grad._data * (1 - r * r))
        return grad * (1 - result * result)

    def jvp(self, t):
        return t * (1 - self.result * self.result)


def _np_sigmoid(x):
    return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)


def sigmoid(input):
    return _unary(input, _np_sigmoid, SigmoidBackward0, save_result=True)


class SigmoidBackward0(Node):
    """d sigmoid(x)/dx = s (1 - s), from the saved output s; fused as in TanhBackward0."""

    def backward(self, grad):
        result = self.saved("result")
        if fused():
            r = result._data
            return Tensor._make(grad._data * r * (1 - r))
        return grad * result * (1 - result)

    def jvp(self, t):
        return t * self.result * (1 - self.result)


def clip(data: np.ndarray, lo, hi) -> np.ndarray:
    """torch's clamp, element by element: min(max(x, lo), hi) that keeps ``x`` itself on a tie
    (so -0. stays -0.; NumPy's maximum/minimum may return the bound) and NaN as NaN."""
    out = data
    if lo is not None:
        out = np.where(out < lo, lo, out)
    if hi is not None:
        out = np.where(out > hi, hi, out)
    return np.asarray(out).astype(data.dtype, copy=False)


def relu(input):
    if input.dtype is _dtype.bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    data = clip(input._data, 0, None)
    return record(data, ReluBackward0, (input,), output_name="result")


class ReluBackward0(Node):
    """torch's threshold_backward(grad, result, 0): a blocked gradient is +0 (a product with
    a mask would give -0 for a negative gradient)."""

    def backward(self, grad):
        return threshold_backward(grad, self.saved("result"), 0)

    def jvp(self, t):
        return threshold_backward(t, self.result, 0)


def threshold_backward(grad_output, input, threshold):
    """``grad_output`` where ``input > threshold``, else +0: relu's backward, an op of its own
    in torch, so under create_graph the gradient has a ThresholdBackwardBackward0 node."""
    data = np.where(input._data <= threshold, 0, grad_output._data)
    return record(data.astype(grad_output._data.dtype, copy=False), ThresholdBackwardBackward0,
                  (grad_output, input), save={"self": input}, threshold=threshold)


class ThresholdBackwardBackward0(Node):
    """out = grad_output masked by self > threshold: linear in grad_output, flat in self."""

    def backward(self, grad):
        g_self = grad.new_zeros(grad.shape) if self.needs_input_grad[1] else None
        return threshold_backward(grad, self.saved("self"), self.threshold), g_self

    def jvp(self, t_grad, t_self):
        if t_grad is None:
            return self.result.new_zeros(self.result.shape)
        return threshold_backward(t_grad, self.inputs[1], self.threshold)


def abs(input):
    if input.dtype is _dtype.bool:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return record(np.abs(input._data), AbsBackward0, (input,), save={"self": input})


class AbsBackward0(Node):
    def backward(self, grad):
        return grad * self.saved("self").sign()

    def jvp(self, t):
        return t * self.inputs[0].sign()


def sign(input):
    return record(np.sign(input._data), SignBackward0, (input,))


class SignBackward0(Node):
    """piecewise constant: a zero gradient (torch's zeros_like)"""

    def backward(self, grad):
        return grad.new_zeros(grad.shape)

    def jvp(self, t):
        return t.new_zeros(t.shape)


def clamp(input, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensor(input, min, max)
    # the bounds take part in type promotion: an int tensor clamped to 0.5 is a float one
    d = result_type(input, *(b for b in (min, max) if b is not None))
    if d is _dtype.bool:
        kernel = "clamp" if min is not None and max is not None else \
            "clamp_min" if min is not None else "clamp_max"
        raise NotImplementedError(f'"{kernel}_scalar_cpu" not implemented for \'Bool\'')
    d = d.numpy
    data = clip(input._data.astype(d, copy=False), min, max)
    return record(data, ClampBackward1, (input,), save={"self": input}, min=min, max=max)


class ClampBackward1(Node):
    """Gradient passes where min <= self <= max."""

    def backward(self, grad):
        """torch's clamp_backward: where(mask, grad, 0), +0 outside the bounds."""
        return where(_clamp_mask(self.saved("self"), self.min, self.max), grad, 0.0)

    def jvp(self, t):
        return where(_clamp_mask(self.inputs[0], self.min, self.max), t, 0.0)


def _clamp_mask(x, lo, hi):
    mask = x == x
    if lo is not None:
        mask = mask & (x >= lo)
    if hi is not None:
        mask = mask & (x <= hi)
    return mask


def _clamp_tensor(input, min, max):
    """clamp with tensor bounds: they are inputs too (a missing one is a constant input)."""
    d = result_type(*(t for t in (input, min, max) if t is not None)).numpy
    # a number beside a tensor bound is a constant bound of the result's dtype
    min, max = (t if t is None or isinstance(t, Tensor) else Tensor._make(np.asarray(t, d))
                for t in (min, max))
    lo, hi = (None if t is None else t._data.astype(d, copy=False) for t in (min, max))
    data = clip(input._data.astype(d, copy=False), lo, hi)
    absent = Tensor._make(np.zeros((), d))
    return record(data, ClampBackward0, (input, absent if min is None else min,
                                         absent if max is None else max),
                  save={"self": input, "min": min, "max": max}, has_min=min is not None,
                  has_max=max is not None)


class ClampBackward0(Node):
    """out = clamp(self, min, max), tensor bounds (one may be None). Where min > max, the
    result is max: torch's clamp_backward, clamp_backward_min_max and clamp_jvp."""

    def backward(self, grad):
        x = self.saved("self")
        lo = self.saved("min") if self.has_min else None
        hi = self.saved("max") if self.has_max else None
        g_lo = g_hi = None
        if lo is not None and hi is not None:
            g_lo = where((x < lo) & (lo < hi), grad, 0.0)
            g_hi = where((x > hi) | (hi < lo), grad, 0.0)
        elif lo is not None:
            g_lo = where(x < lo, grad, 0.0)
        else:
            g_hi = where(x > hi, grad, 0.0)
        return where(_clamp_mask(x, lo, hi), grad, 0.0), g_lo, g_hi

    def jvp(self, t_self, t_min, t_max):
        x, lo, hi = self.inputs[0], self.min, self.max
        zero = x.new_zeros(())
        t, t_lo, t_hi = (zero if t is None else t for t in (t_self, t_min, t_max))
        if lo is not None and hi is not None:
            return where(lo > hi, t_hi, where(x < lo, t_lo, where(x > hi, t_hi, t)))
        if lo is not None:
            return where(x > lo, t, t_lo)
        return where(x < hi, t, t_hi)


def where(condition, input, other):
    """Pick from ``input`` where ``condition`` holds, else from ``other``."""
    d = result_type(input, other)
    a, b = as_tensor_like(input, d), as_tensor_like(other, d)
    data = np.where(condition._data, a._data, b._data).astype(d.numpy, copy=False)
    return record(data, WhereBackward0, (a, b), save={"condition": condition})


class WhereBackward0(Node):
    """out = where(condition, self, other)"""

    def backward(self, grad):
        cond = self.saved("condition")
        return (where(cond, grad, 0.0) if self.needs_input_grad[0] else None,
                where(cond, 0.0, grad) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        a, b = self.inputs
        return where(self.condition, a.new_zeros(a.shape) if t_self is None else t_self,
                     b.new_zeros(b.shape) if t_other is None else t_other)


# --- comparisons and logic: no gradient, bool results ----------------------------------------
def _compare(np_fn):
    def compare(input, other):
        a, b, _ = operands(input, other)
        check_same_shape_broadcast(a._data, b._data)
        return Tensor._make(np_fn(a._data, b._data))

    compare.__name__ = np_fn.__name__
    return compare


eq, ne, lt, le, gt, ge = (_compare(f) for f in (np.equal, np.not_equal, np.less,
                                                     np.less_equal, np.greater,
                                                     np.greater_equal))
logical_and, logical_or, logical_xor = (_compare(f) for f in (np.logical_and, np.logical_or,
                                                               np.logical_xor))


def bitwise_and(input, other):
    return _compare(np.bitwise_and)(input, other) if input.dtype is not _dtype.bool \
        else logical_and(input, other)


def bitwise_or(input, other):
    return _compare(np.bitwise_or)(input, other) if input.dtype is not _dtype.bool \
        else logical_or(input, other)


def logical_not(input):
    return Tensor._make(np.logical_not(input._data))


def isnan(input):
    return Tensor._make(np.isnan(input._data))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def equal(input, other) -> bool:
    return input.shape == other.shape and bool(np.array_equal(input._data, other._data))
