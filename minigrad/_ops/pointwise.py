"""Element-wise operations: arithmetic with broadcasting, math functions, rounding, floor
division and remainders, maximum/minimum, fmax/fmin, lerp, comparisons.

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

import numbers

import numpy as np

from minigrad import _dtype
from minigrad._layout import elementwise_result
from minigrad._numeric import (
    cast,
    fma,
    for_dtype,
    half_vector_tail,
    number,
    quietly,
    torch_fuses,
    vectorized_loop,
)
from minigrad._ops import _vmap_hook
from minigrad._ops._args import parses
from minigrad._ops._core import (
    ReducedScalar,
    as_tensor_like,
    check_same_shape_broadcast,
    common_data,
    cross_save,
    fused,
    is_scalar,
    operands,
    record,
    result_type,
    wrapped,
)
from minigrad._tensor import Tensor
from minigrad.autograd.graph import Node


# --- float32 math rounded like torch's CPU kernels --------------------------------------------
# torch computes float32 exp, log, sin, cos, tanh and pow with SLEEF's vectorised functions
# (about 1 ulp), NumPy with its own float32 code: each rounds some results differently, and
# printed float32 numbers would differ in the last digit. Computing in float64 and rounding
# once to float32 gives the correctly rounded result, which SLEEF also gives for almost every
# input. Measured against torch 2.13 (CPU, AVX512), 100k elements per input range, as the
# fraction of float32 results bit-identical to torch (NumPy float32 -> float64 then rounded):
#   exp 61% -> 99%, log 90-98% -> 95-99%, sin 83-88% -> 95%, cos 81-83% -> 95%,
#   tanh 68-87% -> 99.9%, pow with an exponent other than 2, 3, -2, 0.5, -0.5, -1 (and a
#   tensor exponent, and number ** tensor) 79-90% -> 98-99%.
# The rest is better left in float32, measured the same way: sigmoid is torch's
# 1 / (1 + exp(-x)) in float32 around a float64-rounded exp (83% -> 96%; all of it in float64
# is worse, 67%); sqrt, reciprocal, division and multiplication are already bit-identical or
# as close as float64 gets (torch's sqrt is not correctly rounded on this CPU: 82-92% either
# way). float64 tensors keep NumPy's float64 math, unchanged.
# These fractions depend on the CPU (torch's kernels differ between processors), so they are a
# report, not a test: `./course bench --float32` (benchmarks/float32_report.py) measures them
# on this machine. tests/engine/test_float32_bits.py asserts what holds on every CPU: error
# bounds against the exact value (tests/float32_ulps.py).
def _like_torch(np_fn):
    """``np_fn`` for float32 arrays computed in float64 and rounded once (see above)."""
    def kernel(x, *args):
        if x.dtype == np.float32:
            return np_fn(x.astype(np.float64), *args).astype(np.float32)
        return np_fn(x, *args)

    kernel.__name__ = np_fn.__name__
    return kernel


np_exp, np_log, np_sin, np_cos, np_tanh, np_power = map(
    _like_torch, (np.exp, np.log, np.sin, np.cos, np.tanh, np.power))


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


def _binary(a, b, np_fn, node_cls, save=None, reduced=False, **attrs):
    """``save(a, b)`` gives the dict of tensors the backward formula needs; ``reduced``: the
    op has torch's float16 kernel for one number (``ReducedScalar``: mul)."""
    given = b
    a, b, d = operands(a, b)
    x, y = a._data, b._data
    if x.shape != y.shape and x.shape and y.shape:  # a 0-d operand (a number) broadcasts
        check_same_shape_broadcast(x, y)  # against anything
    if x.dtype != y.dtype:
        x, y = common_data(a, b, d)
    if reduced and d is _dtype.float16:
        np_fn = ReducedScalar.wrap(np_fn, d, given)
    data = quietly(np_fn, x, y)
    if data.dtype is not d.numpy:  # NumPy's promotion differs from torch's here
        data = data.astype(d.numpy)
    if not (x.flags.c_contiguous and y.flags.c_contiguous) or 1 in data.shape:
        data = elementwise_result(data, x, y)  # torch's layout for the result
    if fused():  # nothing to record (a backward formula's op, say): skip record's checks
        return Tensor._make(np.asarray(data))
    return record(data, node_cls, (a, b), save=save(a, b) if save else None, **attrs)


def _check_alpha(input, other, alpha) -> None:
    """torch's ``alpha_check`` for an alpha that is not an int: a bool only for bool results,
    a float only for float results."""
    if alpha.__class__ is float and isinstance(input, Tensor) and input._data.dtype.kind == "f":
        return  # the usual case (an optimizer's update): a float result
    d = result_type(input, other)
    if alpha.__class__ is bool:
        if d is not _dtype.bool:
            raise RuntimeError("Boolean alpha only supported for Boolean results.")
    elif not d.is_floating_point and not isinstance(alpha, numbers.Integral):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")


@parses(
    'add(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)',
    'add(Tensor input, Number alpha, Tensor other, *, Tensor out = None)|hidden',
    numbers_as_tensors=True,
)
def add(input, other, *, alpha=1):
    if alpha.__class__ is not int:
        _check_alpha(input, other, alpha)
    fn = np.add if alpha == 1 else Scaled(np.add, alpha)
    return _binary(input, other, fn, AddBackward0, alpha=alpha)


class Scaled:
    """``ufunc(x, alpha * y)`` (add or subtract): ``add`` and ``sub`` with an ``alpha`` other
    than 1, rounded as torch's kernel: ``x + alpha * y`` is one fused multiply-add where the
    build of torch's kernels on this CPU fuses it (AVX2, AVX512: every element, measured),
    the product rounded first otherwise."""

    __slots__ = ("ufunc", "alpha")

    def __init__(self, ufunc, alpha):
        self.ufunc, self.alpha = ufunc, alpha

    def fuses(self, x, y) -> bool:
        if not (x.dtype == y.dtype and x.dtype.kind == "f" and type(self.alpha) in (int, float)
                and torch_fuses()):
            return False
        # float16: the vectorised loop converts to float32 and fuses there; the element by
        # element one (a strided operand) rounds the product to float16 first
        return x.dtype.itemsize >= 4 or vectorized_loop(x, y)

    def __call__(self, x, y):
        if self.fuses(x, y):
            alpha = x.dtype.type(for_dtype(self.alpha, x.dtype))  # (float16: rounded to it)
            factor = alpha if self.ufunc is np.add else -alpha
            if x.dtype == np.float16:
                out = fma(np.float32(factor), y.astype(np.float32), x.astype(np.float32),
                          np.float32).astype(np.float16)
                tail = half_vector_tail(out.shape, x, y)
                if tail is not None:  # the element-by-element code: the product rounded first
                    unfused = self.ufunc(x, alpha * y)
                    out[tail] = np.broadcast_to(unfused, out.shape)[tail]
                return out
            return fma(factor, y, x, x.dtype)
        alpha = number(self.alpha, y.dtype) if y.dtype == np.float16 else self.alpha
        return self.ufunc(x, alpha * y)


class AddBackward0(Node):
    """out = self + alpha * other"""

    def backward(self, grad):
        return grad, (mul_scalar(grad, self.alpha) if self.alpha != 1 else grad)

    def jvp(self, t_self, t_other):
        return _total(t_self, t_other if self.alpha == 1 else _times(t_other, self.alpha))


def _is_bool(x) -> bool:
    """A bool tensor, or a Python bool (which torch wraps as a bool tensor)."""
    if isinstance(x, Tensor):
        return x._data.dtype.kind == "b"  # x.dtype is _dtype.bool, without the property
    return isinstance(x, bool)


def _sub_check(input, other):
    """torch refuses to subtract bools, with one message for two and another for one."""
    if type(other) is float or (isinstance(other, Tensor) and other._data.dtype.kind == "f"):
        if isinstance(input, Tensor) and input._data.dtype.kind == "f":
            return  # the usual case, two floats, settled without the calls below
    input_bool, other_bool = _is_bool(input), _is_bool(other)
    if not (input_bool or other_bool):  # the usual case: one look at each operand
        return
    if input_bool and other_bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if input_bool or other_bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


@parses(
    'sub(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)',
    'sub(Tensor input, Number alpha, Tensor other, *, Tensor out = None)|hidden',
    numbers_as_tensors=True,
)
def sub(input, other, *, alpha=1):
    _sub_check(input, other)
    if alpha.__class__ is not int:
        _check_alpha(input, other, alpha)
    fn = np.subtract if alpha == 1 else Scaled(np.subtract, alpha)
    return _binary(input, other, fn, SubBackward0, alpha=alpha)


class SubBackward0(Node):
    """out = self - alpha * other"""

    def backward(self, grad):
        return grad, mul_scalar(-grad, self.alpha) if self.alpha != 1 else -grad

    def jvp(self, t_self, t_other):
        return _total(t_self, _times(t_other, -self.alpha))


@parses(
    'rsub(Tensor input, Tensor other, *, Number alpha = 1)',
    'rsub(Tensor input, Number other, Number alpha = 1)',
)
def rsub(input, other, alpha=1):
    """``other - alpha * input`` (Python's ``2 - x`` is ``x.__rsub__(2)``)."""
    _sub_check(input, other)
    if not is_scalar(other):
        fn = (lambda x, y: y - x) if alpha == 1 else (lambda x, y: y - alpha * x)
        return _binary(input, other, fn, RsubBackward0, alpha=alpha)
    d = result_type(input, other)
    x = input._data if alpha == 1 else alpha * input._data
    data = (cast(other, d.numpy) - x).astype(d.numpy, copy=False)
    return record(data, RsubBackward1, (input,), alpha=alpha)


class RsubBackward0(Node):
    """out = other - alpha * self"""

    def backward(self, grad):
        return mul_scalar(-grad, self.alpha) if self.alpha != 1 else -grad, grad

    def jvp(self, t_self, t_other):
        return _total(_times(t_self, -self.alpha), t_other)


class RsubBackward1(Node):
    """out = other - alpha * self, with ``other`` a number"""

    def backward(self, grad):
        return mul_scalar(-grad, self.alpha) if self.alpha != 1 else -grad

    def jvp(self, t):
        return -t * self.alpha if self.alpha != 1 else -t


@parses('mul(Tensor input, Tensor other, *, Tensor out = None)', numbers_as_tensors=True)
def mul(input, other):
    if type(other) in (int, float, bool):  # what _saved_other shows: torch's wrapped number
        return _binary(input, other, np.multiply, MulBackward0, save=cross_save,
                       reduced=True, number_other=other)
    return _binary(input, other, np.multiply, MulBackward0, save=cross_save, reduced=True)


class MulBackward0(Node):
    """out = self * other"""

    def backward(self, grad):
        return (grad * self.saved("other") if self.needs_input_grad[0] else None,
                grad * self.saved("self") if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        a, b = self.inputs
        return _total(_times(t_self, b), _times(t_other, a))


# --- tensor-and-number ops as torch's C++ formulas call them -----------------------------------
# Python's ``x * 2`` wraps 2 as a 0-d tensor (MulBackward0, edges to x and to nothing), but
# torch's backward formulas (derivatives.yaml) are C++, where ``grad * 2`` calls the Scalar
# overload: a node with one edge (MulBackward1, DivBackward1, AddBackward1, SubBackward1).
# Gradients made with ``create_graph=True`` use these, so that their graphs are torch's; the
# values are those of the tensor-and-tensor ops.
def mul_scalar(input, other):
    """``input * other`` for a number ``other``, recorded as torch's ``mul.Scalar``."""
    if _vmap_hook.active:  # a batched tensor (vmap; C++ code's scalar op): its rule
        out = _vmap_hook.call("mul_scalar", mul_scalar, (input, other), {})
        if out is not _vmap_hook.PASS:
            return out
    a, b, d = operands(input, other)
    return record(np.multiply(a._data, b._data).astype(d.numpy, copy=False), MulBackward1,
                  (a,), other=other)


class MulBackward1(Node):
    """out = self * other, ``other`` a number"""

    def backward(self, grad):
        return mul_scalar(grad, self.other)

    def jvp(self, t):
        return mul_scalar(t, self.other)


def add_scalar(input, other):
    """``input + other`` for a number ``other``, recorded as torch's ``add.Scalar``."""
    if _vmap_hook.active:  # a batched tensor (vmap; C++ code's scalar op): its rule
        out = _vmap_hook.call("add_scalar", add_scalar, (input, other), {})
        if out is not _vmap_hook.PASS:
            return out
    a, b, d = operands(input, other)
    return record(np.add(a._data, b._data).astype(d.numpy, copy=False), AddBackward1, (a,))


class AddBackward1(Node):
    """out = self + other, ``other`` a number"""

    def backward(self, grad):
        return grad

    def jvp(self, t):
        return t


def sub_scalar(input, other):
    """``input - other`` for a number ``other``, recorded as torch's ``sub.Scalar``."""
    if _vmap_hook.active:  # a batched tensor (vmap; C++ code's scalar op): its rule
        out = _vmap_hook.call("sub_scalar", sub_scalar, (input, other), {})
        if out is not _vmap_hook.PASS:
            return out
    a, b, d = operands(input, other)
    return record(np.subtract(a._data, b._data).astype(d.numpy, copy=False), SubBackward1,
                  (a,))


class SubBackward1(Node):
    """out = self - other, ``other`` a number"""

    def backward(self, grad):
        return grad

    def jvp(self, t):
        return t


def div_scalar(input, other):
    """``input / other`` for a number ``other``, recorded as torch's ``div.Scalar``
    (DivBackward1, where Python's ``x / 2.0`` records DivBackward0): C++ code dividing by a
    size, as ``mean`` and ``cross_entropy`` do, or by a step, as ``gradient``. ``div``'s values
    and dtype: an integer tensor divides as floats, a float16 one in float32."""
    if _vmap_hook.active:  # a batched tensor (vmap; C++ code's scalar op): its rule
        out = _vmap_hook.call("div_scalar", div_scalar, (input, other), {})
        if out is not _vmap_hook.PASS:
            return out
    a, b, d = _true_division_operands(input, other)
    return record(_true_quotient(a, b, d, other), DivBackward1, (a,), other=other)


class DivBackward1(Node):
    """out = self / other, ``other`` a number; the gradient is ``div.Scalar`` again (a
    float16 one computed as torch's kernel computes it, in float32)."""

    def backward(self, grad):
        return div_scalar(grad, self.other)

    def jvp(self, t):
        return div_scalar(t, self.other)


@parses(
    'div(Tensor input, Tensor other, *, Tensor out = None)',
    'div(Tensor input, Tensor other, *, str? rounding_mode, Tensor out = None)',
    'div(Tensor input, Number other, *, str? rounding_mode)',
    numbers_as_tensors=True,
)
def div(input, other, *, rounding_mode=None):
    if rounding_mode is not None:
        if rounding_mode not in ("trunc", "floor"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or "
                               f"'floor' but found '{rounding_mode}'")
        a, b, d = operands(input, other)
        _int_division_check(b, d)
        fn = ReducedScalar.wrap(floor_divide_array if rounding_mode == "floor" else _trunc_div,
                                d, other)
        # saved as torch's formulas name them (other's gradient reads self; both read other),
        # a number as torch wraps it: a 0-d int64, float64 or bool tensor
        save = {"self": wrapped(input) if b.requires_grad else None, "other": wrapped(other)}
        return record(quietly(fn, *common_data(a, b, d)).astype(d.numpy), DivBackward2, (a, b),
                      save=save, rounding_mode=rounding_mode)
    a, b, d = _true_division_operands(input, other)
    if is_scalar(input):  # 2 / x is computed as reciprocal(x) * 2, as in torch
        return mul(reciprocal(b), input)
    check_same_shape_broadcast(a._data, b._data)
    data = _true_quotient(a, b, d, other)
    save = {"self": a if b.requires_grad else None, "other": b}
    if type(other) in (int, float, bool):  # what _saved_other shows: torch's wrapped number
        return record(data, DivBackward0, (a, b), save=save, number_other=other)
    return record(data, DivBackward0, (a, b), save=save)


def _true_division_operands(input, other):
    """True division's operands, in the promoted dtype (integers divide as floats)."""
    a, b, d = operands(input, other)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
        a, b = a.to(d), b.to(d)
    return a, b, d


def _true_quotient(a, b, d, other):
    return quietly(ReducedScalar.wrap(np.true_divide, d, other),
                   *common_data(a, b, d)).astype(d.numpy, copy=False)


class DivBackward0(Node):
    """out = self / other; torch's order of operations (derivatives.yaml), which rounds
    the same: d/dother = -grad * ((self / other) / other), tangent (t_self - t_other * out)
    / other."""

    def backward(self, grad):
        other = self.saved("other")
        return (grad / other if self.needs_input_grad[0] else None,
                -grad * ((self.saved("self") / other) / other) if self.needs_input_grad[1]
                else None)

    def jvp(self, t_self, t_other):
        b = self.inputs[1]
        if t_other is None:
            return t_self / b
        moved = t_other * self.result
        return (-moved if t_self is None else t_self - moved) / b


class DivBackward2(Node):
    """div with a rounding mode: piecewise constant, so a zero gradient (torch's zeros_like)"""

    def backward(self, grad):
        return grad.new_zeros(grad.shape), grad.new_zeros(grad.shape)

    def jvp(self, t_self, t_other):
        return self.result.new_zeros(self.result.shape)


def floor_divide_array(a, b):
    """``a // b`` (Python's rule) on arrays. float16 as torch's kernel computes it: each step
    of ``div_floor_floating`` (fmod, subtract, divide, floor) rounded to float16, where
    NumPy's float16 floor division works in float32 (a quotient near 1000 then differs)."""
    if a.dtype != np.float16 or b.dtype != np.float16:
        return np.floor_divide(a, b)
    one, half = np.float16(1), np.float16(0.5)
    mod = np.fmod(a, b)
    div = (a - mod) / b  # (NumPy's float16 arithmetic rounds each operation, as c10::Half)
    div = np.where((mod != 0) & ((b < 0) != (mod < 0)), div - one, div)
    floor = np.floor(div)
    floor = np.where(div - floor > half, floor + one, floor)
    floor = np.where(div == 0, np.copysign(np.float16(0), a / b), floor)
    return np.where(b == 0, a / b, floor)


def _trunc_div(a, b):
    return np.trunc(np.true_divide(a, b))


@parses('neg(Tensor input, *, Tensor out = None)')
def neg(input):
    if input._data.dtype.kind == "b":  # input.dtype is _dtype.bool, without the property
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    return record(np.negative(input._data), NegBackward0, (input,))


class NegBackward0(Node):
    def backward(self, grad):
        return -grad

    def jvp(self, t):
        return -t


@parses('reciprocal(Tensor input, *, Tensor out = None)')
def reciprocal(input):
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    with np.errstate(divide="ignore"):
        data = np.reciprocal(x._data)
    return record(data, ReciprocalBackward0, (x,), output_name="result")


class ReciprocalBackward0(Node):
    """out = 1 / self; d/dx = -out^2"""

    def backward(self, grad):
        result = self.saved("result")
        return -grad * (result * result)

    def jvp(self, t):
        return -t * (self.result * self.result)


@parses(
    'pow(Tensor input, Tensor exponent, *, Tensor out = None)',
    'pow(Number self, Tensor exponent, *, Tensor out = None)',
    'pow(Tensor input, Number exponent, *, Tensor out = None)',
)
def pow(input, exponent):
    if is_scalar(input):
        return _rpow(exponent, input)
    if is_scalar(exponent):
        if type(exponent) in (int, float) and input._data.dtype.kind == "f":
            d = input.dtype  # the usual x ** 2: a number never changes a float tensor's dtype
        else:
            d = result_type(input, exponent)
        if not d.is_floating_point and d is not _dtype.bool and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        data = quietly(_power, input._data.astype(d.numpy, copy=False), exponent)
        data = data.astype(d.numpy, copy=False)
        if not input._data.flags.c_contiguous or 1 in data.shape:
            data = elementwise_result(data, input._data)  # torch's layout for the result
        return record(data, PowBackward0, (input,),
                      save={"self": input}, exponent=exponent)
    a, b, d = operands(input, exponent)
    _pow_check(d)
    check_same_shape_broadcast(a._data, b._data)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        data = _tensor_power(*common_data(a, b, d)).astype(d.numpy, copy=False)
    return record(data, PowBackward1, (a, b), save={"self": a, "exponent": b},
                  output_name="result")


class PowBackward0(Node):
    """out = self ** exponent, exponent a number"""

    def backward(self, grad):
        e = self.exponent
        if e == 0:
            return grad.new_zeros(grad.shape)  # torch's zeros_like: +0, whatever grad's sign
        # torch's pow_backward takes the exponent as a double (exponent.toDouble()), so under
        # create_graph its nodes save 3.0 and 2.0 for x ** 3, not 3 and 2
        e = float(e)
        x = self.saved("self")
        if fused() and grad._data.dtype == x._data.dtype and x._data.dtype.kind == "f":
            # the same three ops on the arrays: x ** (e - 1), times e, times grad
            power = _power(x._data, e - 1).astype(x._data.dtype, copy=False)
            factor = quietly(np.multiply, np.asarray(e, dtype=x._data.dtype), power)
            return Tensor._make(np.asarray(quietly(np.multiply, grad._data, factor)))
        return grad * mul_scalar(x ** (e - 1), e)

    def jvp(self, t):
        e = self.exponent
        return t.new_zeros(t.shape) if e == 0 else t * (e * self.inputs[0] ** (e - 1))


class PowBackward1(Node):
    """out = self ** exponent, both tensors; torch's pow_backward_self and
    pow_backward_exponent, in their order of operations (which rounds the same)"""

    def backward(self, grad):
        # all three read first, as torch unpacks them: a changed result is an error even when
        # only the base needs a gradient
        base, exponent, result = self.saved("self"), self.saved("exponent"), self.saved("result")
        g_self = g_exp = None
        if self.needs_input_grad[0]:
            g_self = where(exponent == 0, 0.0, grad * (exponent * base ** sub_scalar(exponent, 1)))
        if self.needs_input_grad[1]:
            g_exp = grad * where((base == 0) & (exponent >= 0), 0.0, result * base.log())
        return g_self, g_exp

    def jvp(self, t_self, t_exponent):
        base, exponent = self.inputs
        g_base = g_exp = None
        if t_self is not None:
            g_base = where(exponent == 0, 0.0, t_self * (exponent * base ** (exponent - 1)))
        if t_exponent is not None:
            g_exp = t_exponent * where((base == 0) & (exponent >= 0), 0.0,
                                       self.result * base.log())
        return _total(g_base, g_exp)


_FLOAT_32_64 = (np.dtype(np.float32), np.dtype(np.float64))


def _power(data, exponent):
    """``data ** exponent`` for a number exponent; like torch, ``-0.5`` is computed as
    ``1 / sqrt`` (so ``(-0.0) ** -0.5`` is ``-inf``, as in torch). In float32, torch
    computes ``x ** 3`` as ``x * x * x`` and ``x ** -2`` as ``1 / (x * x)``, in float32 and
    float64 alike (measured: NumPy's pow agrees with those in only 70-75% of results, these
    in 100%, on every kernel), and other float32 exponents with its pow (see ``_like_torch``)."""
    if exponent == 1:  # torch copies (x ** 2's backward needs x ** 1)
        return data.copy()
    if exponent == -0.5:
        return np.reciprocal(np.sqrt(data))
    if data.dtype in _FLOAT_32_64:
        if exponent == 2:  # NumPy's power squares too, only slower (2.4 against 1.1 us)
            return data * data
        if exponent == 3:
            return data * data * data
        if exponent == -2:
            return 1 / (data * data)
        if data.dtype == np.float32 and exponent not in (0.5, -1):
            return np_power(data, exponent)
    return np.power(data, exponent)


def _pow_check(d):
    if d is _dtype.bool:
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")


def _tensor_power(base, exponent):
    """Element-wise power; for integers a negative exponent gives ``1 / base ** -e`` rounded
    toward zero, as torch does (NumPy refuses)."""
    if base.dtype.kind == "f" or not (exponent < 0).any():
        return np_power(base, exponent)
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
    # row-major whatever the exponent's layout, as torch's number ** tensor
    return record(np.asarray(data, order="C"), PowBackward2, (exponent,),
                  save={"exponent": exponent}, output_name="result", base=base)


class PowBackward2(Node):
    """out = base ** exponent, base a number"""

    def backward(self, grad):
        log_base = _log_of_number(self.base)
        if self.base == 0:  # 0 ** e is 0 for e > 0 and 1 for e == 0: flat, so no gradient
            return grad * where(self.saved("exponent") >= 0, 0.0, self.saved("result") * log_base)
        return grad * mul_scalar(self.saved("result"), log_base)

    def jvp(self, t):
        return t * 0 if self.base == 0 else t * self.result * _log_of_number(self.base)


def _log_of_number(x) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.log(np.float64(x)))  # nan for a negative base


def _unary(input, np_fn, node_cls, save_self=False, save_result=False):
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    data = quietly(np_fn, x._data)
    if not x._data.flags.c_contiguous or 1 in data.shape:
        data = elementwise_result(data, x._data)  # torch's layout for the result
    return record(data, node_cls, (x,), save={"self": x} if save_self else None,
                  output_name="result" if save_result else None)


@parses('exp(Tensor input, *, Tensor out = None)')
def exp(input):
    return _unary(input, np_exp, ExpBackward0, save_result=True)


class ExpBackward0(Node):
    def backward(self, grad):
        return grad * self.saved("result")

    def jvp(self, t):
        return t * self.result


@parses('log(Tensor input, *, Tensor out = None)')
def log(input):
    return _unary(input, np_log, LogBackward0, save_self=True)


class LogBackward0(Node):
    def backward(self, grad):
        return grad / self.saved("self")

    def jvp(self, t):
        return t / self.inputs[0]


@parses('log10(Tensor input, *, Tensor out = None)')
def log10(input):
    return _unary(input, np.log10, Log10Backward0, save_self=True)


class Log10Backward0(Node):
    """torch's formula divides by ``self * ln(10)`` (a MulBackward1 under create_graph)."""

    def backward(self, grad):
        return grad / mul_scalar(self.saved("self"), LN10)

    def jvp(self, t):
        return t / mul_scalar(self.inputs[0], LN10)


@parses('log2(Tensor input, *, Tensor out = None)')
def log2(input):
    return _unary(input, np.log2, Log2Backward0, save_self=True)


class Log2Backward0(Node):
    def backward(self, grad):
        return grad / mul_scalar(self.saved("self"), LN2)

    def jvp(self, t):
        return t / mul_scalar(self.inputs[0], LN2)


LN10, LN2 = 2.3025850929940456, 0.6931471805599453  # the constants of torch's formulas


@parses('rsqrt(Tensor input, *, Tensor out = None)')
def rsqrt(input):
    return _unary(input, np_rsqrt, RsqrtBackward0, save_result=True)


def np_rsqrt(x):
    """``1 / sqrt(x)``, two roundings, as torch's CPU kernel computes it."""
    return np.reciprocal(np.sqrt(x))


class RsqrtBackward0(Node):
    """torch's formula: ``-0.5 * grad * result ** 3``."""

    def backward(self, grad):
        return mul_scalar(grad, -0.5) * self.saved("result").pow(3)

    def jvp(self, t):
        return mul_scalar(t, -0.5) * self.result.pow(3)


@parses('sqrt(Tensor input, *, Tensor out = None)')
def sqrt(input):
    return _unary(input, np.sqrt, SqrtBackward0, save_result=True)


class SqrtBackward0(Node):
    def backward(self, grad):
        return grad / mul_scalar(self.saved("result"), 2)

    def jvp(self, t):
        return t / (2 * self.result)


@parses('sin(Tensor input, *, Tensor out = None)')
def sin(input):
    return _unary(input, np_sin, SinBackward0, save_self=True)


class SinBackward0(Node):
    def backward(self, grad):
        return grad * self.saved("self").cos()

    def jvp(self, t):
        return t * self.inputs[0].cos()


@parses('cos(Tensor input, *, Tensor out = None)')
def cos(input):
    return _unary(input, np_cos, CosBackward0, save_self=True)


class CosBackward0(Node):
    def backward(self, grad):
        return grad * -self.saved("self").sin()

    def jvp(self, t):
        return -t * self.inputs[0].sin()


@parses('tanh(Tensor input, *, Tensor out = None)')
def tanh(input):
    return _unary(input, np_tanh, TanhBackward0, save_result=True)


def _one_minus_square(r):
    """``1 - r * r`` as torch's tanh_backward computes it in float32: with a fused
    multiply-add, i.e. rounded once (41-93% of float32 gradients bit-identical to torch with
    two roundings, 100% this way)."""
    if r.dtype == np.float32:
        wide = r.astype(np.float64)
        return (1 - wide * wide).astype(np.float32)
    return 1 - r * r


class TanhBackward0(Node):
    """d tanh(x)/dx = 1 - tanh(x)^2, from the saved output, as torch's ``tanh_backward``:
    one op (one NumPy expression, like torch's fused kernel), which records one
    ``TanhBackwardBackward0`` node when the gradient is differentiated again
    (``create_graph``)."""

    def backward(self, grad):
        return tanh_backward(grad, self.saved("result"))

    def jvp(self, t):
        return tanh_backward(t, self.result)  # torch: auto_element_wise


def tanh_backward(grad_output, output):
    """``grad_output * (1 - output^2)``: tanh's backward as the single op torch uses."""
    if _vmap_hook.active:  # batched gradients or tangents (jacrev, jacfwd): its batching rule
        out = _vmap_hook.call("tanh_backward", tanh_backward, (grad_output, output), {})
        if out is not _vmap_hook.PASS:
            return out
    g, y = grad_output._data, output._data
    if fused():  # tanh's backward without create_graph: nothing to record
        return Tensor._make(np.asarray(g * _one_minus_square(y)))
    return record(g * _one_minus_square(y), TanhBackwardBackward0, (grad_output, output),
                  save={"grad_output": grad_output, "output": output})


class TanhBackwardBackward0(Node):
    """out = g (1 - y^2): d/dg = 1 - y^2 (tanh_backward again), d/dy = -2 y g."""

    def backward(self, grad):
        y = self.saved("output")
        return (tanh_backward(grad, y) if self.needs_input_grad[0] else None,
                grad * (mul_scalar(y, -2) * self.saved("grad_output"))
                if self.needs_input_grad[1]
                else None)

    def jvp(self, t_grad, t_output):
        g, y = self.inputs
        out = tanh_backward(t_grad, y) if t_grad is not None else g.new_zeros(g.shape)
        return out if t_output is None else out + t_output * (-2 * y * g)


def _np_sigmoid(x):
    """torch's kernel: ``1 / (1 + exp(-x))`` in the input's dtype (see ``_like_torch``); a
    float16 input is computed in float32 and rounded once, as torch's kernel does."""
    if x.dtype == np.float16:
        return _np_sigmoid(x.astype(np.float32)).astype(np.float16)
    return (1 / (1 + np_exp(-x))).astype(x.dtype, copy=False)


@parses('sigmoid(Tensor input, *, Tensor out = None)')
def sigmoid(input):
    return _unary(input, _np_sigmoid, SigmoidBackward0, save_result=True)


class SigmoidBackward0(Node):
    """d sigmoid(x)/dx = s (1 - s), from the saved output s: one op, as in TanhBackward0."""

    def backward(self, grad):
        return sigmoid_backward(grad, self.saved("result"))

    def jvp(self, t):
        return sigmoid_backward(t, self.result)  # torch: auto_element_wise


def sigmoid_backward(grad_output, output):
    """``grad_output * (1 - output) * output``: sigmoid's backward as torch's single op."""
    if _vmap_hook.active:  # batched gradients or tangents (jacrev, jacfwd): its batching rule
        out = _vmap_hook.call("sigmoid_backward", sigmoid_backward, (grad_output, output), {})
        if out is not _vmap_hook.PASS:
            return out
    g, y = grad_output._data, output._data
    return record(g * (1 - y) * y, SigmoidBackwardBackward0, (grad_output, output),
                  save={"grad_output": grad_output, "output": output})


class SigmoidBackwardBackward0(Node):
    """out = g (1 - y) y: d/dg = (1 - y) y (sigmoid_backward again), d/dy = g (1 - 2y)."""

    def backward(self, grad):
        y = self.saved("output")
        return (sigmoid_backward(grad, y) if self.needs_input_grad[0] else None,
                grad * self.saved("grad_output") * add_scalar(mul_scalar(y, -2), 1)
                if self.needs_input_grad[1]
                else None)

    def jvp(self, t_grad, t_output):
        g, y = self.inputs
        out = sigmoid_backward(t_grad, y) if t_grad is not None else g.new_zeros(g.shape)
        return out if t_output is None else out + t_output * g * (-2 * y + 1)


def clip(data: np.ndarray, lo, hi) -> np.ndarray:
    """torch's clamp, element by element: min(max(x, lo), hi) that keeps ``x`` itself on a tie
    (so -0. stays -0.; NumPy's maximum/minimum may return the bound) and NaN as NaN. A NaN
    bound gives NaN too, as torch's kernel propagates it (``x < nan`` alone would keep x)."""
    out = data
    for bound, beyond in ((lo, np.less), (hi, np.greater)):
        if bound is not None:
            bound = cast(bound, data.dtype)  # (a Python float as torch converts it)
            out = np.where(beyond(out, bound), bound, out)
            if data.dtype.kind == "f":
                out = np.where(np.isnan(bound), bound, out)
    return elementwise_result(np.asarray(out).astype(data.dtype, copy=False), data)


def torch_max(a, b):
    """torch's maximum kernel, element by element: NaN if either is NaN, else ``std::max``,
    which keeps ``a`` on a tie (maximum(0., -0.) is 0., where NumPy's gives -0.)."""
    out = np.where(a < b, b, a)
    if out.dtype.kind == "f":
        out = np.where(np.isnan(b), b, out)  # a NaN ``a`` is already kept
    return np.asarray(out).astype(np.result_type(a, b), copy=False)


def torch_min(a, b):
    """torch's minimum kernel: NaN if either is NaN, else ``std::min`` (``a`` on a tie)."""
    out = np.where(b < a, b, a)
    if out.dtype.kind == "f":
        out = np.where(np.isnan(b), b, out)
    return np.asarray(out).astype(np.result_type(a, b), copy=False)


@parses('relu(Tensor input)')
def relu(input):
    if input._data.dtype.kind == "b":  # input.dtype is _dtype.bool, without the property
        raise RuntimeError("Boolean inputs not supported for relu")
    # clip(x, 0, None) in one pass: NumPy's maximum keeps its second argument on a tie, so
    # -0. stays -0. as in torch, and a NaN stays NaN. Against an array of zeros it is the
    # same maximum, only quicker than against the number 0 (a contiguous input only: the
    # result keeps the input's layout, as torch's does).
    x = input._data
    if x.flags.c_contiguous:
        data = np.zeros(x.shape, x.dtype)
        np.maximum(data, x, out=data)
    else:
        data = elementwise_result(np.maximum(0, x, dtype=x.dtype), x)
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
    if _vmap_hook.active:  # batched gradients or tangents (jacrev, jacfwd): its batching rule
        out = _vmap_hook.call("threshold_backward", threshold_backward,
                              (grad_output, input, threshold), {})
        if out is not _vmap_hook.PASS:
            return out
    g = grad_output._data
    blocked = np.asarray(input._data <= threshold)  # an array for a 0-d input too (see below)
    if g.dtype.kind == "f" and g.shape == blocked.shape:
        data = _zero_where(blocked, g)
    else:
        data = np.where(blocked, g.dtype.type(0), g)  # a typed zero: no cast
        if data.dtype != g.dtype:
            data = data.astype(g.dtype)
    if fused():  # relu's backward without create_graph: nothing to record
        return Tensor._make(data)
    return record(data, ThresholdBackwardBackward0, (grad_output, input),
                  save={"self": input}, threshold=threshold)


_UNSIGNED = {n: np.dtype(f"u{n}") for n in (2, 4, 8)}  # a float's bits, by its itemsize


def _zero_where(blocked: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``np.where(blocked, +0, g)`` for floats of the same shape, as bit operations on their
    integer view, three quick passes where ``np.where`` makes one slow one: the bits of
    ``g`` AND all ones stay ``g``, AND zeros become +0 (NaN and -0 included)."""
    bits = _UNSIGNED[g.itemsize]
    mask = blocked.view(np.uint8).astype(bits)  # 1 where blocked, 0 elsewhere
    mask -= 1  # all zeros where blocked, all ones elsewhere (an array wraps silently, where
    # NumPy's scalars warn of the overflow: forward mode's relu_ of a 0-d tensor did)
    mask &= g.view(bits)
    return mask.view(g.dtype)


class ThresholdBackwardBackward0(Node):
    """out = grad_output masked by self > threshold: linear in grad_output, flat in self."""

    def backward(self, grad):
        g_self = grad.new_zeros(grad.shape) if self.needs_input_grad[1] else None
        return threshold_backward(grad, self.saved("self"), self.threshold), g_self

    def jvp(self, t_grad, t_self):
        if t_grad is None:
            return self.result.new_zeros(self.result.shape)
        return threshold_backward(t_grad, self.inputs[1], self.threshold)


@parses('abs(Tensor input, *, Tensor out = None)')
def abs(input):
    if input.dtype is _dtype.bool:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return record(np.abs(input._data), AbsBackward0, (input,), save={"self": input})


class AbsBackward0(Node):
    def backward(self, grad):  # torch's formula: grad * self.sgn() (SgnBackward0 under it)
        return grad * self.saved("self").sgn()

    def jvp(self, t):
        return t * self.inputs[0].sgn()


@parses('sign(Tensor input, *, Tensor out = None)')
def sign(input):
    """-1, 0 or 1, computed as torch does, ``(0 < x) - (x < 0)``: so NaN and -0.0 give 0.0."""
    x = input._data
    if x.dtype.kind != "f":  # integers; a bool is its own sign
        return Tensor._make(x.copy() if x.dtype == np.bool_ else np.sign(x))
    return record((x > 0).astype(x.dtype) - (x < 0).astype(x.dtype), SignBackward0, (input,))


@parses('sgn(Tensor input, *, Tensor out = None)')
def sgn(input):
    """``sign`` extended to complex numbers (``x / |x|``); for real tensors the same values.
    torch's ``abs`` backward uses it, so its node appears in a double-backward graph. For
    real floats it is torch's ``(0 < x) - (x < 0)`` (as ``sign``), not NumPy's ``np.sign``:
    a NaN gets 0, so ``abs`` passes a zero gradient to a NaN element, as torch does."""
    x = input._data
    if x.dtype.kind == "f":
        data = (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)
    else:
        data = x if x.dtype == np.bool_ else np.sign(x)
    return record(data, SgnBackward0, (input,), save={"self": input}, output_name="result")


class SgnBackward0(Node):
    """piecewise constant for real inputs: a zero gradient"""

    def backward(self, grad):
        return grad.new_zeros(grad.shape)

    def jvp(self, t):
        return t.new_zeros(t.shape)


class SignBackward0(Node):
    """piecewise constant: a zero gradient (torch's zeros_like)"""

    def backward(self, grad):
        return grad.new_zeros(grad.shape)

    def jvp(self, t):
        return t.new_zeros(t.shape)


@parses(
    'clamp(Tensor input, Tensor? min = None, Tensor? max = None, *, Tensor out = None)',
    'clamp(Tensor input, Number? min = None, Number? max = None, *, Tensor out = None)',
)
def clamp(input, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if min is not None and max is not None and \
                isinstance(min, Tensor) != isinstance(max, Tensor):
            # torch's parser reads a 0-d tensor that needs no gradient as a Number
            t = min if isinstance(min, Tensor) else max
            if t.dim() or t.requires_grad:
                raise TypeError(_mixed_bounds_error(min, max))
            min, max = (b.item() if isinstance(b, Tensor) else b for b in (min, max))
            return clamp(input, min, max)
        return _clamp_tensor(input, min, max)
    # the bounds take part in type promotion: an int tensor clamped to 0.5 is a float one
    d = result_type(input, *(b for b in (min, max) if b is not None))
    if d is _dtype.bool:
        kernel = "clamp" if min is not None and max is not None else \
            "clamp_min" if min is not None else "clamp_max"
        raise NotImplementedError(f'"{kernel}_scalar_cpu" not implemented for \'Bool\'')
    for bound in (min, max):  # each bound must fit the result's dtype (1e39: not float32)
        if bound is not None:
            _dtype.check_number_fits(bound, d)
    d = d.numpy
    data = clip(input._data.astype(d, copy=False), min, max)
    return record(data, ClampBackward1, (input,), save={"self": input}, min=min, max=max)


def _mixed_bounds_error(min, max) -> str:
    """torch has clamp(Tensor, Tensor) and clamp(Number, Number), not a mix (its parser's
    message for the method called with both bounds by position)."""
    got = ", ".join("Tensor" if isinstance(b, Tensor) else type(b).__name__ for b in (min, max))
    bad = ", ".join(f"!{t}!" for t in got.split(", "))
    return (f"clamp() received an invalid combination of arguments - got ({got}), but expected "
            "one of:\n"
            " * (Tensor min = None, Tensor max = None)\n"
            f"      didn't match because some of the arguments have invalid types: ({bad})\n"
            " * (Number min = None, Number max = None)\n"
            f"      didn't match because some of the arguments have invalid types: ({bad})\n")


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



@parses(
    'clip(Tensor input, Tensor? min = None, Tensor? max = None, *, Tensor out = None)',
    'clip(Tensor input, Number? min = None, Number? max = None, *, Tensor out = None)',
)
def clip_op(input, min=None, max=None):
    """``clip``, NumPy's name for ``clamp`` (the same node); torch's messages say ``clip()``."""
    return clamp(input, min, max)


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


_NO_VALUES = object()
WHERE_SIGNATURES = (
    "where() received an invalid combination of arguments - got (Tensor, Tensor), but expected "
    "one of:\n"
    " * (Tensor condition)\n"
    " * (Tensor condition, Tensor input, Tensor other, *, Tensor out = None)\n"
    " * (Tensor condition, Number self, Tensor other)\n"
    " * (Tensor condition, Tensor input, Number other)\n"
    " * (Tensor condition, Number self, Number other)\n")


@parses(
    'where(Tensor condition)',
    'where(Tensor condition, Tensor input, Tensor other, *, Tensor out = None)',
    'where(Tensor condition, Number self, Tensor other)',
    'where(Tensor condition, Tensor input, Number other)',
    'where(Tensor condition, Number self, Number other)',
    method=(),  # the method is where_method's
)
def where(condition, input=_NO_VALUES, other=_NO_VALUES):
    """Pick from ``input`` where ``condition`` holds, else from ``other``. With the condition
    alone, torch's ``nonzero(as_tuple=True)``: one index tensor per dim."""
    if input is _NO_VALUES and other is _NO_VALUES:
        return tuple(Tensor._make(i.astype(np.int64)) for i in np.nonzero(condition._data))
    if input is _NO_VALUES or other is _NO_VALUES:
        raise TypeError(WHERE_SIGNATURES)
    if condition.dtype not in (_dtype.bool, _dtype.uint8):  # uint8: torch's deprecated mask
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {condition.dtype.scalar_name}")
    d = result_type(input, other)
    a, b = as_tensor_like(input, d), as_tensor_like(other, d)
    shape = condition._data  # torch broadcasts condition, self, other in turn: its message
    for operand in (a._data, b._data):
        check_same_shape_broadcast(shape, operand)
        shape = np.broadcast_to(False, np.broadcast_shapes(shape.shape, operand.shape))
    data = np.where(condition._data, a._data, b._data).astype(d.numpy, copy=False)
    data = elementwise_result(data, condition._data, a._data, b._data)  # (torch's layout)
    return record(data, WhereBackward0, (a, b), save={"condition": condition})


@parses('where(Tensor input, Tensor condition, Tensor other)',
        'where(Tensor input, Tensor condition, Number other)')
def where_method(self, condition, other):
    """``x.where(condition, y)``: torch's ``where(condition, x, y)``."""
    return where(condition, self, other)


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
        a, b, d = operands(input, other)
        check_same_shape_broadcast(a._data, b._data)
        return Tensor._make(elementwise_result(np_fn(*common_data(a, b, d)), a._data, b._data))

    compare.__name__ = np_fn.__name__
    return compare


eq, ne, lt, le, gt, ge = (_compare(f) for f in (np.equal, np.not_equal, np.less,
                                                     np.less_equal, np.greater,
                                                     np.greater_equal))
for _name, _op in zip(("eq", "ne", "lt", "le", "gt", "ge"), (eq, ne, lt, le, gt, ge)):
    parses(f"{_name}(Tensor input, Tensor other, *, Tensor out = None)",
           f"{_name}(Tensor input, Number other, *, Tensor out = None)")(_op)


def _logical(np_fn):
    """logical_and/or/xor: two tensors, never a number (torch names the first argument that
    is not a tensor); ``_method`` makes the method."""
    compare = _compare(np_fn)

    def function(input, other):
        _tensors_only(np_fn.__name__, input, other)
        return compare(input, other)

    function.__name__ = np_fn.__name__
    return function


logical_and, logical_or, logical_xor = map(_logical, (np.logical_and, np.logical_or,
                                                      np.logical_xor))
for _name, _op in zip(("logical_and", "logical_or", "logical_xor"),
                     (logical_and, logical_or, logical_xor)):
    parses(f"{_name}(Tensor input, Tensor other, *, Tensor out = None)")(_op)
logical_and = parses('logical_and(Tensor input, Tensor other, *, Tensor out = None)')(logical_and)
logical_or = parses('logical_or(Tensor input, Tensor other, *, Tensor out = None)')(logical_or)
logical_xor = parses('logical_xor(Tensor input, Tensor other, *, Tensor out = None)')(logical_xor)


def _bitwise(np_fn, kernel):
    """``&``, ``|``, ``^``, ``<<``, ``>>``: bit by bit on integers (``~5`` is -6, not False),
    logical on bools; torch's CPU kernels have no float version and name themselves."""
    def op(input, other):
        a, b, d = operands(input, other)
        if d.is_floating_point or (d is _dtype.bool and kernel in ("lshift", "rshift")):
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{d.scalar_name}\'')
        check_same_shape_broadcast(a._data, b._data)
        return Tensor._make(elementwise_result(quietly(np_fn, *common_data(a, b, d)), a._data,
                                               b._data))

    op.__name__ = np_fn.__name__
    return op


bitwise_and, bitwise_or, bitwise_xor = (_bitwise(np.bitwise_and, "bitwise_and"),
                                        _bitwise(np.bitwise_or, "bitwise_or"),
                                        _bitwise(np.bitwise_xor, "bitwise_xor"))
bitwise_left_shift = _bitwise(np.left_shift, "lshift")
bitwise_right_shift = _bitwise(np.right_shift, "rshift")
for _name, _op in zip(("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                      "bitwise_right_shift"), (bitwise_and, bitwise_or, bitwise_xor,
                                               bitwise_left_shift, bitwise_right_shift)):
    parses(f"{_name}(Tensor input, Tensor other, *, Tensor out = None)",
           f"{_name}(Number self, Tensor other)",
           f"{_name}(Tensor input, Number other, *, Tensor out = None)")(_op)


@parses('bitwise_not(Tensor input, *, Tensor out = None)')
def bitwise_not(input):
    if input.dtype.is_floating_point:
        raise NotImplementedError(f'"bitwise_not_cpu" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    return Tensor._make(np.invert(input._data))


def invert(input):
    """``~x``: torch's Python operator refuses floats before reaching the kernel."""
    if input.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return bitwise_not(input)


@parses('logical_not(Tensor input, *, Tensor out = None)')
def logical_not(input):
    if not isinstance(input, Tensor):
        raise TypeError("logical_not(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return Tensor._make(np.logical_not(input._data))


@parses('isnan(Tensor input)')
def isnan(input):
    return Tensor._make(np.isnan(input._data))


@parses('isinf(Tensor input)')
def isinf(input):
    return Tensor._make(np.isinf(input._data))


@parses('isfinite(Tensor input)')
def isfinite(input):
    return Tensor._make(np.isfinite(input._data))


@parses('nan_to_num(Tensor input, float? nan = None, float? posinf = None, '
        'float? neginf = None, *, Tensor out = None)')
def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced by ``nan`` (0), ``posinf`` and ``neginf`` (the dtype's
    largest and lowest finite numbers). A replaced value no longer depends on the input, so the
    gradient is 0 there and passes unchanged elsewhere: ``grad * isfinite(self)``, torch's
    formula. An integer or bool tensor has nothing to replace: a copy."""
    if not input.dtype.is_floating_point:
        return Tensor._make(input._data.copy())
    data = np_nan_to_num(input._data, nan, posinf, neginf)
    return record(data, NanToNumBackward0, (input,), save={"self": input})


def np_nan_to_num(x, nan, posinf, neginf):
    info = np.finfo(x.dtype)
    return np.nan_to_num(x, copy=True, nan=0.0 if nan is None else for_dtype(nan, x.dtype),
                         posinf=info.max if posinf is None else for_dtype(posinf, x.dtype),
                         neginf=info.min if neginf is None else for_dtype(neginf, x.dtype))


class NanToNumBackward0(Node):
    def backward(self, grad):
        return grad * isfinite(self.saved("self"))

    def jvp(self, t):
        return t * isfinite(self.inputs[0])


@parses(
    'allclose(Tensor input, Tensor other, float rtol = 1e-05, float atol = 1e-08, '
    'bool equal_nan = False)',
)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{input.dtype.scalar_name} did not match {other.dtype.scalar_name}")
    return bool(np.allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


@parses('equal(Tensor input, Tensor other)')
def equal(input, other) -> bool:
    return input.shape == other.shape and bool(np.array_equal(input._data, other._data))


# --- rounding: piecewise constant, so a zero gradient (frac's is the identity) -----------------
def _rounding(input, np_fn, node_cls, name, **attrs):
    """floor, ceil, trunc: an integer tensor is returned as a copy (torch does no rounding);
    ``name`` is torch's kernel, named in its error for a bool tensor."""
    if input.dtype is _dtype.bool:
        raise NotImplementedError(f"\"{name}_vml_cpu\" not implemented for 'Bool'")
    if not input.dtype.is_floating_point:
        return Tensor._make(input._data.copy())
    return record(np_fn(input._data), node_cls, (input,), **attrs)


class _ZeroGradient(Node):
    """The gradient of a step function: zeros shaped like the input (torch's zeros_like)."""

    def backward(self, grad):
        return grad.new_zeros(grad.shape)

    def jvp(self, t):
        return t.new_zeros(t.shape)


@parses('floor(Tensor input, *, Tensor out = None)')
def floor(input):
    return _rounding(input, np.floor, FloorBackward0, "floor")


class FloorBackward0(_ZeroGradient):
    """out = floor(self)"""


@parses('ceil(Tensor input, *, Tensor out = None)')
def ceil(input):
    return _rounding(input, np.ceil, CeilBackward0, "ceil")


class CeilBackward0(_ZeroGradient):
    """out = ceil(self)"""


@parses('trunc(Tensor input, *, Tensor out = None)')
def trunc(input):
    return _rounding(input, np.trunc, TruncBackward0, "trunc")


class TruncBackward0(_ZeroGradient):
    """out = trunc(self)"""


@parses(
    'round(Tensor input, *, Tensor out = None)',
    'round(Tensor input, *, int decimals, Tensor out = None)',
)
def round(input, *, decimals=None):
    """Round half to even (NumPy's rint, C's nearbyint). With ``decimals``, torch computes
    ``nearbyint(x * 10**d) / 10**d`` in the input's dtype (``x / 10**-d`` first for d < 0)."""
    if input.dtype is _dtype.bool and not decimals:
        raise NotImplementedError("\"round_vml_cpu\" not implemented for 'Bool'")
    if not input.dtype.is_floating_point:
        if decimals is not None:  # decimals=0 takes the plain kernel's name
            kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"
            raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                      f"'{input.dtype.scalar_name}'")
        return Tensor._make(input._data.copy())
    if decimals is None:  # round(x); round(x, decimals=0) is torch's other overload
        return record(np.rint(input._data), RoundBackward0, (input,))
    x = input._data
    scale = x.dtype.type(10.0 ** (decimals if decimals > 0 else -decimals))
    with np.errstate(over="ignore", invalid="ignore"):
        data = np.rint(x * scale) / scale if decimals > 0 else np.rint(x / scale) * scale
    return record(data.astype(x.dtype, copy=False), RoundBackward1, (input,), decimals=decimals)


class RoundBackward0(_ZeroGradient):
    """out = round(self)"""


class RoundBackward1(_ZeroGradient):
    """out = round(self, decimals)"""


@parses('frac(Tensor input, *, Tensor out = None)')
def frac(input):
    """``self - trunc(self)``: keeps the sign (``frac(-1.5)`` is ``-0.5``)."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"frac_cpu\" not implemented for '{input.dtype.scalar_name}'")
    x = input._data
    with np.errstate(invalid="ignore"):
        data = x - np.trunc(x)
    return record(data, FracBackward0, (input,))


class FracBackward0(Node):
    """out = self - trunc(self): the gradient passes unchanged"""

    def backward(self, grad):
        return grad

    def jvp(self, t):
        return t


# --- maximum, minimum, clamp_min, clamp_max, lerp ---------------------------------------------
def _tensor_only(name, other):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")


@parses('maximum(Tensor input, Tensor other, *, Tensor out = None)')
def maximum(input, other):
    """Element-wise max; a NaN in either input wins. Ties split the gradient in halves."""
    _tensors_only("maximum", input, other)
    return _binary(input, other, torch_max, MaximumBackward0, save=_save_both)


@parses('minimum(Tensor input, Tensor other, *, Tensor out = None)')
def minimum(input, other):
    _tensors_only("minimum", input, other)
    return _binary(input, other, torch_min, MinimumBackward0, save=_save_both)


def _save_both(a, b):
    return {"self": a, "other": b}


class MaximumBackward0(Node):
    """out = maximum(self, other): the larger input gets the gradient, a tie half each."""

    sign = 1

    def backward(self, grad):
        a, b = self.saved("self"), self.saved("other")
        a_loses, b_loses = (a < b, a > b) if self.sign > 0 else (a > b, a < b)
        # torch's where(self == other, grad / 2, grad).masked_fill_(loses, 0)
        half = where(a == b, div_scalar(grad, 2), grad)
        return (half.masked_fill(a_loses, 0) if self.needs_input_grad[0] else None,
                where(a == b, div_scalar(grad, 2), grad).masked_fill(b_loses, 0)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        a, b = self.inputs
        t_a = a.new_zeros(a.shape) if t_self is None else t_self
        t_b = b.new_zeros(b.shape) if t_other is None else t_other
        picks_a = a > b if self.node_cls.sign > 0 else a < b  # self: the op's OpContext
        weight = where(a == b, 0.5, picks_a.to(self.result.dtype))
        return t_b + weight * (t_a - t_b)


class MinimumBackward0(MaximumBackward0):
    """out = minimum(self, other)"""

    sign = -1


def _tensors_only(name, input, other):
    """fmax/fmin take two tensors; torch names the first argument that is not one."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    _tensor_only(name, other)


@parses('fmax(Tensor input, Tensor other, *, Tensor out = None)')
def fmax(input, other):
    """Element-wise max that ignores NaN (NumPy's fmax): a NaN loses to a number, two NaN
    give NaN. On a tie the first input is kept (fmax(-0., 0.) is -0.), as torch's kernel."""
    _tensors_only("fmax", input, other)
    return _binary(input, other, torch_fmax, FmaxBackward0, save=_save_both)


@parses('fmin(Tensor input, Tensor other, *, Tensor out = None)')
def fmin(input, other):
    """Element-wise min that ignores NaN (NumPy's fmin); a tie keeps the first input."""
    _tensors_only("fmin", input, other)
    return _binary(input, other, torch_fmin, FminBackward0, save=_save_both)


def torch_fmax(a, b):
    """torch's fmax kernel: the larger, ``a`` on a tie; a NaN ``a`` gives ``b`` (NaN or not),
    a NaN ``b`` gives ``a``."""
    out = np.where(a < b, b, a)
    if out.dtype.kind == "f":
        out = np.where(np.isnan(a), b, out)
    return np.asarray(out).astype(np.result_type(a, b), copy=False)


def torch_fmin(a, b):
    """torch's fmin kernel: the smaller, ``a`` on a tie; a NaN input gives the other one."""
    out = np.where(b < a, b, a)
    if out.dtype.kind == "f":
        out = np.where(np.isnan(a), b, out)
    return np.asarray(out).astype(np.result_type(a, b), copy=False)


def _zeros_if_none(t, like):
    return like.new_zeros(like.shape) if t is None else t


class FmaxBackward0(Node):
    """out = fmax(self, other): self gets the gradient where self >= other or other is NaN
    (a tie goes all to self), other gets it elsewhere."""

    def backward(self, grad):
        a, b = self.saved("self"), self.saved("other")
        keeps_self = (a >= b).logical_or(b.isnan())
        return (grad.masked_fill(keeps_self.logical_not(), 0) if self.needs_input_grad[0]
                else None,
                grad.masked_fill(keeps_self, 0) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        a, b = self.inputs  # torch's formula: a strict > here (a tie takes other's tangent)
        t_a, t_b = _zeros_if_none(t_self, a), _zeros_if_none(t_other, b)
        return t_b + (a > b).logical_or(b.isnan()) * (t_a - t_b)


class FminBackward0(Node):
    """out = fmin(self, other): self gets the gradient where self <= other or other is NaN."""

    def backward(self, grad):
        a, b = self.saved("self"), self.saved("other")
        keeps_self = (a <= b).logical_or(b.isnan())
        return (grad.masked_fill(keeps_self.logical_not(), 0) if self.needs_input_grad[0]
                else None,
                grad.masked_fill(keeps_self, 0) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        a, b = self.inputs
        t_a, t_b = _zeros_if_none(t_self, a), _zeros_if_none(t_other, b)
        return t_b + (a <= b).logical_or(b.isnan()) * (t_a - t_b)


@parses(
    'clamp_min(Tensor input, Tensor min, *, Tensor out = None)',
    'clamp_min(Tensor input, Number min, *, Tensor out = None)',
)
def clamp_min(input, min):
    if isinstance(min, Tensor):
        return _binary(input, min, torch_max, ClampMinBackward1, save=_save_bound("min"))
    d = result_type(input, min)
    data = torch_max(input._data.astype(d.numpy, copy=False), number(min, d.numpy))
    return record(data, ClampMinBackward0, (input,), save={"self": input}, min=min)


@parses(
    'clamp_max(Tensor input, Tensor max, *, Tensor out = None)',
    'clamp_max(Tensor input, Number max, *, Tensor out = None)',
)
def clamp_max(input, max):
    if isinstance(max, Tensor):
        return _binary(input, max, torch_min, ClampMaxBackward1, save=_save_bound("max"))
    d = result_type(input, max)
    data = torch_min(input._data.astype(d.numpy, copy=False), number(max, d.numpy))
    return record(data, ClampMaxBackward0, (input,), save={"self": input}, max=max)


def _save_bound(key):
    return lambda a, b: {"self": a, key: b}


class ClampMinBackward0(Node):
    """out = max(self, min), min a number: the gradient passes where self >= min"""

    def backward(self, grad):
        return where(self.saved("self") >= self.min, grad, 0.0)

    def jvp(self, t):
        return where(self.inputs[0] >= self.min, t, 0.0)


class ClampMaxBackward0(Node):
    """out = min(self, max), max a number: the gradient passes where self <= max"""

    def backward(self, grad):
        return where(self.saved("self") <= self.max, grad, 0.0)

    def jvp(self, t):
        return where(self.inputs[0] <= self.max, t, 0.0)


class ClampMinBackward1(Node):
    """out = max(self, min), min a tensor: self gets the gradient where self >= min, min
    elsewhere"""

    def backward(self, grad):
        x, lo = self.saved("self"), self.saved("min")
        return (where(x >= lo, grad, 0.0) if self.needs_input_grad[0] else None,
                where(x < lo, grad, 0.0) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_min):
        x, lo = self.inputs
        return where(x >= lo, x.new_zeros(()) if t_self is None else t_self,
                     lo.new_zeros(()) if t_min is None else t_min)


class ClampMaxBackward1(Node):
    """out = min(self, max), max a tensor"""

    def backward(self, grad):
        x, hi = self.saved("self"), self.saved("max")
        return (where(x <= hi, grad, 0.0) if self.needs_input_grad[0] else None,
                where(x > hi, grad, 0.0) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_max):
        x, hi = self.inputs
        return where(x <= hi, x.new_zeros(()) if t_self is None else t_self,
                     hi.new_zeros(()) if t_max is None else t_max)


@parses(
    'lerp(Tensor input, Tensor end, Tensor weight, *, Tensor out = None)',
    'lerp(Tensor input, Tensor end, Number weight, *, Tensor out = None)',
)
def lerp(input, end, weight):
    """``input + weight * (end - input)``, computed as torch does so that both ends are exact:
    from ``input`` when ``|weight| < 0.5``, from ``end`` otherwise."""
    data = lerp_data(input, end, weight)
    data = elementwise_result(data, input._data, end._data,  # (torch's layout)
                              *((weight._data,) if isinstance(weight, Tensor) else ()))
    if isinstance(weight, Tensor):
        ends = weight.requires_grad  # only weight's gradient reads the ends, as torch saves
        return record(data, LerpBackward1, (input, end, weight),
                      save={"self": input if ends else None, "end": end if ends else None,
                            "weight": weight})
    return record(data, LerpBackward0, (input, end), weight=weight)


def lerp_data(input, end, weight):
    """lerp's checks (torch's errors) and value; ``lerp_`` writes the same value in place."""
    if not isinstance(end, Tensor):
        raise TypeError(f"lerp(): argument 'end' (position 2) must be Tensor, not "
                        f"{type(end).__name__}")
    for name, t in (("end", end), ("weight", weight)):  # a 0-d weight of any dtype will do
        if isinstance(t, Tensor) and t.dtype is not input.dtype and (t is end or t.dim()):
            raise RuntimeError(f"expected dtype {_type_word(input.dtype)} for `{name}` but got "
                               f"dtype {_type_word(t.dtype)}")
    if not input.dtype.is_floating_point:
        kernel = "lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{input.dtype.scalar_name}'")
    a, b = input._data, end._data
    check_same_shape_broadcast(a, b)
    out_dtype = a.dtype
    if a.dtype == np.float16:  # torch computes float16 in float32 and rounds once
        a, b = a.astype(np.float32), b.astype(np.float32)
    w = weight._data.astype(a.dtype) if isinstance(weight, Tensor) else number(weight, a.dtype)
    with np.errstate(all="ignore"):  # torch's lerp_vec: one fused multiply-add
        diff = b - a
        small = np.abs(w) < 0.5
        out = fma(np.where(small, w, w - 1), diff, np.where(small, a, b), a.dtype)
    return np.asarray(out).astype(out_dtype, copy=False)


def _type_word(d) -> str:
    return str(d).removeprefix("minigrad.").replace("float32", "float").replace(
        "float64", "double")


class LerpBackward0(Node):
    """out = self + weight * (end - self), weight a number"""

    def backward(self, grad):
        w = self.weight
        return (mul_scalar(grad, 1 - w) if self.needs_input_grad[0] else None,
                mul_scalar(grad, w) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_end):
        return _total(_times(t_self, 1 - self.weight), _times(t_end, self.weight))


class LerpBackward1(Node):
    """out = self + weight * (end - self), weight a tensor"""

    def backward(self, grad):
        w = self.saved("weight")
        g_w = None
        if self.needs_input_grad[2]:
            g_w = grad * (self.saved("end") - self.saved("self"))
        one = as_tensor_like(1, w.dtype)  # C++'s 1 - weight: a wrapped number minus a tensor
        return (grad * sub(one, w) if self.needs_input_grad[0] else None,
                grad * w if self.needs_input_grad[1] else None, g_w)

    def jvp(self, t_self, t_end, t_weight):
        a, b, w = self.inputs
        return _total(_times(t_self, 1 - w), _times(t_end, w),
                      None if t_weight is None else t_weight * (b - a))


# --- floor division and remainders --------------------------------------------------------------
def _int_division_check(b, d):
    """Integer division by zero: torch raises (a float one gives inf or nan)."""
    if not d.is_floating_point and (b._data == 0).any():
        raise RuntimeError("ZeroDivisionError")


def _division_operands(input, other, kernel):
    a, b, d = operands(input, other)
    if d is _dtype.bool:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    check_same_shape_broadcast(a._data, b._data)
    _int_division_check(b, d)
    return a, b, d


@parses(
    'floor_divide(Tensor input, Tensor other, *, Tensor out = None)',
    'floor_divide(Tensor input, Number other)',
    numbers_as_tensors=True,
)
def floor_divide(input, other):
    """``input // other`` rounded toward minus infinity (Python's rule). torch has no
    derivative for it: the result's node raises when reached by backward."""
    a, b, d = _division_operands(input, other, "div_floor_cpu")
    fn = ReducedScalar.wrap(floor_divide_array, d, other)  # torch's div(rounding_mode='floor')
    data = quietly(fn, *common_data(a, b, d)).astype(d.numpy, copy=False)
    return _not_differentiable(data, tuple(t for t, given in ((a, input), (b, other))
                                           if isinstance(given, Tensor)), "floor_divide")


def rfloordiv(input, other):
    """``number // tensor``"""
    return floor_divide(other, input)


def _torch_remainder(a, b):
    """torch's remainder: ``fmod``, then moved into the divisor's sign (a zero keeps fmod's
    sign, unlike NumPy's remainder)."""
    mod = np.fmod(a, b)
    if mod.dtype.kind != "f":
        return np.remainder(a, b)
    return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


@parses(
    'remainder(Tensor input, Tensor other, *, Tensor out = None)',
    'remainder(Number self, Tensor other)',
    'remainder(Tensor input, Number other, *, Tensor out = None)',
)
def remainder(input, other):
    """``input % other`` with the divisor's sign (Python's rule)."""
    a, b, d = _division_operands(input, other, "remainder_cpu")
    data = quietly(_torch_remainder, *common_data(a, b, d)).astype(d.numpy, copy=False)
    if is_scalar(input):  # number % tensor: torch has no derivative for it
        return _not_differentiable(data, (b,), "remainder")
    if is_scalar(other):
        return record(data, RemainderBackward0, (a,))
    return record(data, RemainderBackward1, (a, b), save=_save_for_other(a, b))


def _save_for_other(a, b):
    """Only other's gradient reads the operands: saved only if it is wanted, as torch does."""
    return _save_both(a, b) if b.requires_grad else None


def rmod(input, other):
    """``number % tensor``"""
    return remainder(other, input)


class RemainderBackward0(Node):
    """out = self - other * floor(self / other), other a number"""

    def backward(self, grad):
        return grad

    def jvp(self, t):
        return t


class RemainderBackward1(Node):
    """out = self - other * floor(self / other), both tensors"""

    def backward(self, grad):
        g_other = None
        if self.needs_input_grad[1]:
            g_other = -grad * div(self.saved("self"), self.saved("other"), rounding_mode="floor")
        return grad if self.needs_input_grad[0] else None, g_other

    def jvp(self, t_self, t_other):
        a, b = self.inputs
        return _total(t_self, None if t_other is None
                      else -t_other * div(a, b, rounding_mode="floor"))


@parses(
    'fmod(Tensor input, Tensor other, *, Tensor out = None)',
    'fmod(Tensor input, Number other, *, Tensor out = None)',
)
def fmod(input, other):
    """The remainder with the dividend's sign (C's fmod)."""
    a, b, d = _division_operands(input, other, "fmod_cpu")
    data = quietly(np.fmod, *common_data(a, b, d)).astype(d.numpy, copy=False)
    if is_scalar(other):
        return record(data, FmodBackward0, (a,))
    return record(data, FmodBackward1, (a, b), save=_save_for_other(a, b))


class FmodBackward0(RemainderBackward0):
    """out = self - other * trunc(self / other), other a number"""


class FmodBackward1(Node):
    """out = self - other * trunc(self / other), both tensors"""

    def backward(self, grad):
        g_other = None
        if self.needs_input_grad[1]:
            g_other = -grad * div(self.saved("self"), self.saved("other"), rounding_mode="trunc")
        return grad if self.needs_input_grad[0] else None, g_other

    def jvp(self, t_self, t_other):
        a, b = self.inputs
        return _total(t_self, None if t_other is None
                      else -t_other * div(a, b, rounding_mode="trunc"))


def _not_differentiable(data, inputs, op):
    return record(data, NotImplemented_, inputs, op=op)


class NotImplemented_(Node):  # noqa: N801 - torch's class is called NotImplemented
    """What torch records for an op without a derivative formula (``floor_divide``,
    ``number % tensor``): the graph goes on, but backward through it raises."""

    def name(self) -> str:
        return "minigrad::autograd::NotImplemented"

    def backward(self, grad):
        raise RuntimeError(f"derivative for aten::{self.op} is not implemented")

    def jvp(self, *tangents):
        raise NotImplementedError(f"Trying to use forward AD with aten::{self.op} that does not "
                                  "support it.")


NotImplemented_.__name__ = NotImplemented_.__qualname__ = "NotImplemented"
