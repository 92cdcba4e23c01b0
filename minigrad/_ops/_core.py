"""What every operation shares: turning inputs into tensors, type promotion, and recording.

An operation computes its result with NumPy, then calls ``record`` (or ``record_view``):
if grad mode is on and some input requires grad, it records the operation's backward node
(``autograd.graph.record`` creates it, links it to the inputs' nodes and attaches it to the
result); inside a forward-AD dual level it also computes the result's tangent. Otherwise the
result is a plain tensor.
"""

from __future__ import annotations

import numbers
import os
import sys
import warnings

import numpy as np

from minigrad import _dtype
from minigrad._numeric import cast
from minigrad._ops import subclass
from minigrad._tensor import Tensor
from minigrad.autograd import forward_grad, grad_mode, graph, profiler
from minigrad.autograd.views import make_view

_profiler_state = profiler._state

# What may stand beside a tensor in an op: Python numbers, NumPy's scalars (which are numbers
# too, np.bool_ included: torch reads it as a float)
NUMBER = numbers.Number | np.bool_


def is_scalar(x) -> bool:
    if isinstance(x, Tensor):  # (checked first: isinstance against numbers.Number is slow)
        return False
    return type(x) in (int, float) or isinstance(x, NUMBER)


def _kind_of_scalar(x):
    if isinstance(x, bool):
        return _dtype.bool
    if isinstance(x, np.bool_):  # torch reads NumPy's bool as a float, not a bool
        return _dtype.get_default_dtype()
    if isinstance(x, numbers.Integral):
        return _dtype.int64
    if isinstance(x, numbers.Real):
        return _dtype.get_default_dtype()
    raise TypeError(f"unsupported scalar type {type(x).__name__}")


def result_type(*operands) -> _dtype.dtype:
    """torch's promotion: tensors with dims outrank 0-d tensors, which outrank Python numbers;
    a lower rank only matters when it brings a higher category (bool < int < float)."""
    ranks = [None, None, None]  # dimensioned, zero-dim, python number
    for x in operands:
        if isinstance(x, Tensor):
            rank, d = (0 if x._data.ndim else 1), x.dtype
        else:
            rank, d = 2, _kind_of_scalar(x)
        ranks[rank] = d if ranks[rank] is None else _dtype.promote_types(ranks[rank], d)
    return _combine(ranks[0], _combine(ranks[1], ranks[2]))


def _combine(higher, lower):
    """c10's combine_categories: keep ``higher`` unless ``lower`` climbs a category."""
    if higher is None:
        return lower
    if lower is None or higher.is_floating_point:
        return higher
    if higher is _dtype.bool or lower.is_floating_point:
        return _dtype.promote_types(higher, lower)
    return higher


def as_tensor_like(x, dtype) -> Tensor:
    """A Python number as a constant 0-d tensor (torch's 'wrapped number')."""
    if isinstance(x, Tensor):
        return x
    if type(x) is int and dtype.numpy.kind in "iu":  # wraps around, as torch's C++ cast
        return Tensor._make(np.asarray(x).astype(dtype.numpy))
    return Tensor._make(cast(x, dtype.numpy))


def wrapped(x) -> Tensor:
    """``x`` itself, or a Python number as torch keeps it in a node: a 0-d tensor of the
    number's own type (int64, float64, bool), whatever the op's dtype."""
    if isinstance(x, Tensor):
        return x
    dtype = {bool: _dtype.bool, int: _dtype.int64}.get(type(x), _dtype.float64)
    return Tensor._make(np.asarray(x, dtype.numpy))


def operands(a, b):
    """Two operands of a binary op as tensors, and the dtype of the result."""
    if isinstance(a, Tensor):  # the common cases first: nothing to promote
        if isinstance(b, Tensor) and a._data.dtype == b._data.dtype:
            return a, b, a.dtype
        if type(b) in (float, int) and a._data.dtype.kind == "f":
            d = a.dtype  # a number never changes a float tensor's dtype
            return a, Tensor._make(cast(b, d.numpy)), d
    if not isinstance(a, Tensor | NUMBER) or not isinstance(b, Tensor | NUMBER):
        bad = b if isinstance(a, Tensor) else a
        raise TypeError(f"unsupported operand type: '{type(bad).__name__}'")
    d = result_type(a, b)
    return as_tensor_like(a, d), as_tensor_like(b, d), d


def common_data(a, b, d):
    """The arrays of ``a`` and ``b`` (tensors) in the dtype ``d`` the op computes in.

    torch's TensorIterator casts every input to the common dtype before its kernel runs:
    ``x * torch.tensor(0.1, dtype=torch.float64)`` for a float32 ``x`` rounds 0.1 to float32,
    then multiplies in float32. NumPy would multiply in float64 and round the product, which
    gives another last digit for about half of the elements."""
    x, y, dn = a._data, b._data, d.numpy
    return (x if x.dtype == dn else cast(x, dn)), (y if y.dtype == dn else cast(y, dn))


class ReducedScalar:
    """torch's CPU ``mul`` and ``div`` (true, trunc, floor) of a float16 tensor by one number:
    the kernels it keeps for its 'reduced' floats when the second operand is a single element
    (``is_scalar(2)``). The number keeps float32 precision (``original_scalar_value<float>``:
    0.1 stays 0.1f, not float16's 0.0999755859375), each element is computed in float32 and
    rounded to float16 once. ``ReducedScalar.wrap`` gives the ufunc itself elsewhere."""

    __slots__ = ("ufunc", "value")

    def __init__(self, ufunc, value):
        self.ufunc, self.value = ufunc, value

    @classmethod
    def wrap(cls, ufunc, d, other):
        """The kernel torch runs for ``ufunc(input, other)`` whose common dtype is ``d``."""
        if d is not _dtype.float16:
            return ufunc
        if isinstance(other, Tensor):
            if other._data.size != 1:
                return ufunc
            value = other._data.reshape(-1)[0]
        else:
            value = other
        return cls(ufunc, np.float32(value))

    def __call__(self, x, y):
        wide = x.astype(np.float16, copy=False).astype(np.float32)
        return self.ufunc(wide, self.value).astype(np.float16)


def needs_grad(inputs) -> bool:
    """Does an op on ``inputs`` record a node? Only when grad mode records and some input
    requires grad."""
    if not grad_mode.is_recording():
        return False
    for t in inputs:
        if isinstance(t, Tensor) and t.requires_grad:
            return True
    return False


def cross_save(a, b, a_key: str = "self", b_key: str = "other") -> dict:
    """What a product saves: each factor only if the *other* one needs a gradient, because
    d(a*b)/da = b and d(a*b)/db = a. torch saves exactly these, no more. (Nothing when grad
    mode is off, as in every backward formula: nothing will be recorded.)"""
    if not grad_mode._state.enabled:
        return None
    return {a_key: a if isinstance(b, Tensor) and b.requires_grad else None,
            b_key: b if isinstance(a, Tensor) and a.requires_grad else None}


def record(data, node_cls, inputs, save=None, output_name=None, **attrs) -> Tensor:
    """Wrap ``data`` in a Tensor and, when autograd is on, attach a ``node_cls`` node.

    ``save`` maps names to tensors the backward formula needs; ``output_name`` saves the
    result itself under that name; ``attrs`` are plain values (shapes, dims) for the formula.
    """
    out = Tensor._make(data if type(data) is np.ndarray else np.asarray(data))
    if _profiler_state.active:  # autograd.profiler: one event per op (``aten::<name>``)
        profiler.op(node_cls, inputs)
    if out._data.dtype.kind == "f":
        if needs_grad(inputs):  # ``attrs`` passed on as the dict it already is
            graph.record_with(node_cls, inputs, (out,), save, output_name, attrs)
        if forward_grad._state.level is not None:  # forward-mode AD: the result's tangent
            forward_grad.propagate((out,), node_cls, inputs, save, attrs)
    return out


def record_view(base: Tensor, data, node_cls, fn, **attrs) -> Tensor:
    """Like ``record``, for an op whose result shares memory with ``base``; ``fn`` takes the
    same view of any tensor shaped like ``base`` (see ``autograd/views.py``)."""
    out = record(data, node_cls, (base,), view_fn=fn, **attrs)
    make_view(base, out, fn)
    return out


def fused() -> bool:
    """May a backward formula compute in plain NumPy, like torch's fused kernels? Only when
    minigrad ops would record nothing: no ``create_graph`` (so grad mode is off) and no
    forward-mode tangents to carry."""
    state = grad_mode._state  # grad_mode.is_recording(), read directly: every formula asks
    return not (state.enabled and not state.inference) and forward_grad._state.level is None


def check_same_shape_broadcast(a: np.ndarray, b: np.ndarray) -> None:
    """torch's message when two shapes cannot be broadcast together."""
    sa, sb = a.shape, b.shape
    for i in range(1, min(len(sa), len(sb)) + 1):
        x, y = sa[-i], sb[-i]
        if x != y and x != 1 and y != 1:
            dim = max(len(sa), len(sb)) - i
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b "
                               f"({y}) at non-singleton dimension {dim}")


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def warn_at_caller(message: str) -> None:
    """A UserWarning pointing at the first line outside minigrad (the learner's), as torch's
    warnings from C++ point at the Python line that called it, however many frames minigrad's
    parsers and composites add. An op a learner's subclass dispatched names the dispatch's
    line, as torch's name its ``Tensor.__torch_function__``'s."""
    frame, level = sys._getframe(1), 2  # stacklevel 2 names this function's caller
    while (frame is not None and frame.f_code.co_filename.startswith(_PACKAGE)
           and frame.f_code is not subclass.RUN_AS_CODE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)
