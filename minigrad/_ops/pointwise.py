"""Element-wise operations: arithmetic with broadcasting, math functions, comparisons.

Each function computes its value with NumPy and records the matching node from
``derivatives.py``. Python numbers are wrapped as constant 0-d tensors, so ``x * 2`` has two
``next_functions`` in minigrad as in torch, the second being ``(None, 0)``.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._ops._core import (
    as_tensor_like,
    check_same_shape_broadcast,
    cross_save,
    is_scalar,
    operands,
    quietly,
    record,
    result_type,
)
from minigrad._tensor import Tensor
from minigrad.autograd import derivatives as D


def _binary(a, b, np_fn, node_cls, save=None, **attrs):
    """``save(a, b)`` gives the dict of tensors the backward formula needs."""
    a, b, d = operands(a, b)
    if a._data.shape != b._data.shape:
        check_same_shape_broadcast(a._data, b._data)
    data = quietly(np_fn, a._data, b._data).astype(d.numpy, copy=False)
    return record(data, node_cls, (a, b), save=save(a, b) if save else None, **attrs)


def add(input, other, *, alpha=1):
    fn = np.add if alpha == 1 else (lambda x, y: x + alpha * y)
    return _binary(input, other, fn, D.AddBackward0, alpha=alpha)


def _is_bool(x) -> bool:
    """A bool tensor, or a Python bool (which torch wraps as a bool tensor)."""
    return x.dtype is _dtype.bool if isinstance(x, Tensor) else isinstance(x, bool | np.bool_)


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
    return _binary(input, other, fn, D.SubBackward0, alpha=alpha)


def rsub(input, other):
    """``other - input`` where ``other`` is a number (Python's ``2 - x``)."""
    if not is_scalar(other):
        return sub(other, input)
    _sub_check(input, other)
    d = result_type(input, other)
    data = (np.asarray(other, dtype=d.numpy) - input._data).astype(d.numpy, copy=False)
    return record(data, D.RsubBackward1, (input,))


def mul(input, other):
    return _binary(input, other, np.multiply, D.MulBackward0, save=cross_save)


def div(input, other, *, rounding_mode=None):
    if rounding_mode is not None:
        a, b, d = operands(input, other)
        fn = np.floor_divide if rounding_mode == "floor" else _trunc_div
        return Tensor._make(fn(a._data, b._data).astype(d.numpy))
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
    return record(data, D.DivBackward0, (a, b), save=save)


def _trunc_div(a, b):
    return np.trunc(np.true_divide(a, b))


def neg(input):
    if input.dtype is _dtype.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    return record(np.negative(input._data), D.NegBackward0, (input,))


def reciprocal(input):
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    with np.errstate(divide="ignore"):
        data = np.reciprocal(x._data)
    return record(data, D.ReciprocalBackward0, (x,), output_name="result")


def pow(input, exponent):
    if is_scalar(input):
        return _rpow(exponent, input)
    if is_scalar(exponent):
        d = result_type(input, exponent)
        if not d.is_floating_point and d is not _dtype.bool and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            data = _power(input._data.astype(d.numpy, copy=False), exponent)
        return record(data.astype(d.numpy, copy=False), D.PowBackward0, (input,),
                      save={"self": input}, exponent=exponent)
    a, b, d = operands(input, exponent)
    _pow_check(d)
    check_same_shape_broadcast(a._data, b._data)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        data = _tensor_power(a._data, b._data).astype(d.numpy, copy=False)
    return record(data, D.PowBackward1, (a, b), save={"self": a, "exponent": b},
                  output_name="result")


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
    return record(data, D.PowBackward2, (exponent,), save={"exponent": exponent},
                  output_name="result", base=base)


def _unary(input, np_fn, node_cls, save_self=False, save_result=False):
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    data = quietly(np_fn, x._data)
    return record(data, node_cls, (x,), save={"self": x} if save_self else None,
                  output_name="result" if save_result else None)


def exp(input):
    return _unary(input, np.exp, D.ExpBackward0, save_result=True)


def log(input):
    return _unary(input, np.log, D.LogBackward0, save_self=True)


def sqrt(input):
    return _unary(input, np.sqrt, D.SqrtBackward0, save_result=True)


def sin(input):
    return _unary(input, np.sin, D.SinBackward0, save_self=True)


def cos(input):
    return _unary(input, np.cos, D.CosBackward0, save_self=True)


def tanh(input):
    return _unary(input, np.tanh, D.TanhBackward0, save_result=True)


def _np_sigmoid(x):
    return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)


def sigmoid(input):
    return _unary(input, _np_sigmoid, D.SigmoidBackward0, save_result=True)


def relu(input):
    if input.dtype is _dtype.bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    data = np.maximum(input._data, 0).astype(input._data.dtype, copy=False)
    return record(data, D.ReluBackward0, (input,), output_name="result")


def abs(input):
    if input.dtype is _dtype.bool:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return record(np.abs(input._data), D.AbsBackward0, (input,), save={"self": input})


def sign(input):
    return Tensor._make(np.sign(input._data))


def clamp(input, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    data = np.clip(input._data, min, max).astype(input._data.dtype, copy=False)
    return record(data, D.ClampBackward1, (input,), save={"self": input}, min=min, max=max)


def where(condition, input, other):
    """Pick from ``input`` where ``condition`` holds, else from ``other``."""
    d = result_type(input, other)
    a, b = as_tensor_like(input, d), as_tensor_like(other, d)
    data = np.where(condition._data, a._data, b._data).astype(d.numpy, copy=False)
    return record(data, D.WhereBackward0, (a, b), save={"condition": condition})


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
