"""minigrad's operations, and the table that makes them Tensor methods and operators.

Each op is a plain function whose first argument is the tensor (``exp(x)``); ``METHODS``
binds it as ``x.exp()`` too. Operators (``x + y``, ``x[i] = v``...) are bound the same way.
"""

from __future__ import annotations

from minigrad import _creation, _dtype
from minigrad._ops import indexing, inplace, join, linalg, pointwise, reduction, shape
from minigrad._ops._core import NUMBER
from minigrad._tensor import Tensor
from minigrad.autograd import api

P, R, L, S, I, X = pointwise, reduction, linalg, shape, indexing, inplace  # noqa: E741

METHODS = {
    # arithmetic and math
    "add": P.add, "sub": P.sub, "mul": P.mul, "div": P.div, "pow": P.pow, "neg": P.neg,
    "reciprocal": P.reciprocal, "abs": P.abs, "exp": P.exp, "log": P.log, "sqrt": P.sqrt,
    "sin": P.sin, "cos": P.cos, "tanh": P.tanh, "sigmoid": P.sigmoid, "relu": P.relu,
    "sign": P.sign, "clamp": P.clamp, "clip": P.clamp, "eq": P.eq, "ne": P.ne, "lt": P.lt,
    "le": P.le, "gt": P.gt, "ge": P.ge, "logical_not": P.logical_not,
    "logical_and": P.logical_and, "logical_or": P.logical_or, "logical_xor": P.logical_xor,
    "isnan": P.isnan,
    "allclose": P.allclose, "equal": P.equal, "multiply": P.mul, "subtract": P.sub,
    "divide": P.div, "negative": P.neg,
    # reductions
    "sum": R.sum, "mean": R.mean, "max": R.max, "min": R.min, "argmax": R.argmax,
    "prod": R.prod,
    # linear algebra
    "dot": L.dot, "mm": L.mm, "mv": L.mv, "matmul": L.matmul, "bmm": L.bmm,
    # shapes and views
    "view": S.view, "reshape": S.reshape, "_unsafe_view": S._unsafe_view, "flatten": S.flatten,
    "contiguous": S.contiguous, "clone": S.clone, "to": S.to, "t": S.t,
    "transpose": S.transpose, "permute": S.permute, "unsqueeze": S.unsqueeze,
    "squeeze": S.squeeze, "_squeeze_dims": S._squeeze_dims, "expand": S.expand,
    "expand_as": S.expand_as, "sum_to_size": S.sum_to_size, "narrow": S.narrow,
    "unbind": S.unbind, "select": I.select, "_slice": I.slice_dim, "view_as":
        lambda self, other: S.view(self, *other.shape),
    "reshape_as": lambda self, other: S.reshape(self, *other.shape),
    # in place
    "add_": X.add_, "sub_": X.sub_, "mul_": X.mul_, "div_": X.div_, "log_": X.log_,
    "exp_": X.exp_, "neg_": X.neg_, "sigmoid_": X.sigmoid_, "tanh_": X.tanh_, "relu_": X.relu_,
    "clamp_": X.clamp_, "zero_": X.zero_, "fill_": X.fill_, "copy_": X.copy_,
    "index_put_": X.index_put_, "index_put": X.index_put, "scatter": I.scatter,
    # autograd
    "backward": api.tensor_backward,
    # new tensors like this one
    "new_zeros": _creation.new_zeros,
    # dtype conversions
    "float": lambda self: S.to(self, _dtype.float32),
    "double": lambda self: S.to(self, _dtype.float64),
    "half": lambda self: S.to(self, _dtype.float16),
    "long": lambda self: S.to(self, _dtype.int64),
    "int": lambda self: S.to(self, _dtype.int32),
    "bool": lambda self: S.to(self, _dtype.bool),
    # operators
    "__add__": P.add, "__radd__": P.add, "__sub__": P.sub, "__rsub__": P.rsub,
    "__mul__": P.mul, "__rmul__": P.mul, "__truediv__": P.div,
    "__rtruediv__": lambda self, other: P.div(other, self), "__pow__": P.pow,
    "__rpow__": lambda self, other: P.pow(other, self), "__neg__": P.neg, "__abs__": P.abs,
    "__matmul__": L.matmul, "__rmatmul__": lambda self, other: L.matmul(other, self),
    "__eq__": P.eq, "__ne__": P.ne, "__lt__": P.lt, "__le__": P.le, "__gt__": P.gt,
    "__ge__": P.ge, "__and__": P.bitwise_and, "__or__": P.bitwise_or,
    "__invert__": P.logical_not, "__xor__": P.logical_xor,
    "__iadd__": X.add_, "__isub__": X.sub_, "__imul__": X.mul_, "__itruediv__": X.div_,
    "__getitem__": I.getitem, "__setitem__": I.setitem,
}
_ARITHMETIC_OPERATORS = {"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                         "__truediv__", "__rtruediv__", "__pow__", "__rpow__", "__matmul__",
                         "__rmatmul__", "__iadd__", "__isub__", "__imul__", "__itruediv__",
                         "__lt__", "__le__", "__gt__", "__ge__"}

_PLAIN = (Tensor, float, int)  # checked first: isinstance against numbers.Number is slow


def _operator(fn):
    """``x + "a"``: return NotImplemented so Python raises its own TypeError, as torch does."""
    def method(self, other):
        if type(other) not in _PLAIN and not isinstance(other, Tensor | NUMBER):
            return NotImplemented
        return fn(self, other)

    return method


def _compare_with_none(fn, answer: bool):
    """``x == None`` is False and ``x != None`` True, as in torch (not an error); other
    objects (an ndarray...) get NotImplemented, so Python asks them."""
    def method(self, other):
        if other is None:
            return answer
        if type(other) not in _PLAIN and not isinstance(other, Tensor | NUMBER):
            return NotImplemented
        return fn(self, other)

    return method


METHODS["__eq__"] = _compare_with_none(P.eq, False)
METHODS["__ne__"] = _compare_with_none(P.ne, True)

for _name, _fn in METHODS.items():
    if _name in _ARITHMETIC_OPERATORS:
        _fn = _operator(_fn)
    setattr(Tensor, _name, _fn)
