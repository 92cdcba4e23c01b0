"""diff, trace, addcmul and addcdiv: small arithmetic that tutorials and optimizers reach for.

``diff`` is a composite in torch (narrow and subtract, repeated ``n`` times; ``cat`` first
for ``prepend``/``append``), built the same way here so its graph is torch's. ``trace``,
``addcmul`` and ``addcdiv`` have nodes of their own (TraceBackward0, AddcmulBackward0,
AddcdivBackward0) with torch's formulas from ``derivatives.yaml``.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._layout import elementwise_result
from minigrad._numeric import fma, quietly, torch_fuses
from minigrad._ops._args import parses
from minigrad._ops._core import as_tensor_like, record, result_type
from minigrad._ops.index_add import index_fill
from minigrad._ops.inplace import _check_cast, apply_inplace
from minigrad._ops.join import cat
from minigrad._ops.pointwise import _total, div, mul_scalar
from minigrad._ops.rearrange import broadcast_shape
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


# --- diff ----------------------------------------------------------------------------------------
@parses('diff(Tensor input, int n = 1, int dim = -1, Tensor? prepend = None, '
        'Tensor? append = None, *, Tensor out = None)')
def diff(input, n=1, dim=-1, prepend=None, append=None):
    """``out[i] = x[i + 1] - x[i]`` along ``dim``, ``n`` times (``logical_xor`` for bools)."""
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for t in (prepend, append):
        if t is not None and t.dim() != input.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as "
                               "input")
    d = _wrap_dim(dim, input.dim())
    for t in (prepend, append):
        if t is None:
            continue
        for k in range(input.dim()):
            if k != d and t.shape[k] != input.shape[k]:
                raise RuntimeError(
                    "diff expects the shape of tensor to prepend or append to match that of "
                    f"input except along the differencing dimension; input.size({k}) = "
                    f"{input.shape[k]}, but got tensor.size({k}) = {t.shape[k]}")
    if n == 0:  # torch: zeros_like(self).copy_(self)
        return input.new_zeros(input.shape).copy_(input)
    x = input
    if prepend is not None or append is not None:
        x = cat([t for t in (prepend, input, append) if t is not None], dim)
    out_len = x.shape[d] - 1
    n = min(n, x.shape[d])
    for _ in range(n):
        # the second narrow first, as torch's compiled ``narrow(1) - narrow(0)`` makes them
        # (the order its engine then adds their gradients in)
        lo = x.narrow(dim, 0, out_len)
        hi = x.narrow(dim, 1, out_len)
        x = hi.logical_xor(lo) if x.dtype is _dtype.bool else hi - lo
        out_len -= 1
    return x


# --- trace ---------------------------------------------------------------------------------------
@parses('trace(Tensor input)')
def trace(input):
    """The sum of the main diagonal of a matrix (integers sum in int64, as ``sum``)."""
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    if input.dtype is _dtype.bool:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    diag = np.diagonal(input._data)
    if input._data.dtype.kind == "f":  # torch accumulates in double and rounds once
        data = np.asarray(diag.sum(dtype=np.float64)).astype(input._data.dtype)
    else:
        data = np.asarray(diag.sum(dtype=np.int64))
    return record(data, TraceBackward0, (input,), self_shape=input._data.shape)


class TraceBackward0(Node):
    """torch's trace_backward: ``grad`` written on the diagonal of a flat zero tensor
    (index_fill_), then viewed as the matrix."""

    def backward(self, grad):
        rows, cols = self.self_shape
        return _diagonal_fill(grad, rows, cols).view(rows, cols)

    def jvp(self, t):
        return trace(t)


def _diagonal_fill(grad, rows, cols):
    """``zeros(rows * cols).index_fill_(0, indices, grad)``, the indices of the diagonal
    (``cols + 1`` apart, ``min(rows, cols)`` of them)."""
    step = cols + 1
    index = Tensor._make(np.arange(0, min(rows, cols) * step, step, dtype=np.int64))
    zeros = Tensor._make(np.zeros(rows * cols, grad._data.dtype))  # a constant: no gradient
    return index_fill(zeros, 0, index, grad)


# --- addcmul, addcdiv ---------------------------------------------------------------------------
def _pointwise3(input, tensor1, tensor2, value, combine):
    """The dtype, shape checks and value of ``input + value * combine(tensor1, tensor2)``,
    in the result dtype with torch's order of operations (``value`` cast to it first; for
    addcmul, ``(value * tensor1) * tensor2 + input`` is one fused multiply-add where torch's
    kernels fuse it: measured bit for bit on this CPU's AVX2/AVX512 build)."""
    d = result_type(input, tensor1, tensor2)
    broadcast_shape((input, tensor1, tensor2))
    a, b, c = (t._data.astype(d.numpy, copy=False) for t in (input, tensor1, tensor2))
    v = d.numpy.type(value)
    if combine is np.multiply and d.is_floating_point and d.numpy in (np.float32, np.float64) \
            and torch_fuses():  # torch's vectorised kernel: one fused multiply-add
        a, b, c = np.broadcast_arrays(a, b, c)
        data = quietly(lambda: fma(v * b, c, a, d.numpy))
    else:
        data = quietly(lambda: combine(v * b, c) + a)
    # laid out as torch's TensorIterator lays out its output
    return elementwise_result(np.asarray(data, d.numpy), input._data, tensor1._data,
                              tensor2._data), d


@parses('addcmul(Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, '
        'Tensor out = None)',
        'addcmul(Tensor input, Number value, Tensor tensor1, Tensor tensor2)|hidden',
        method=('addcmul(Tensor tensor1, Tensor tensor2, *, Number value = 1)',
                'addcmul(Number value, Tensor tensor1, Tensor tensor2)|hidden'))
def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2`` (Adam's and RMSprop's updates)."""
    data, _ = _pointwise3(input, tensor1, tensor2, value, np.multiply)
    return record(data, AddcmulBackward0, (input, tensor1, tensor2),
                  save=_addcmul_save(tensor1, tensor2), value=value)


def _addcmul_save(tensor1, tensor2):
    return {"tensor1": tensor1 if tensor2.requires_grad else None,
            "tensor2": tensor2 if tensor1.requires_grad else None}


class AddcmulBackward0(Node):
    """``grad``, ``grad * (tensor2 * value)`` and ``grad * (tensor1 * value)``."""

    def backward(self, grad):
        need = self.needs_input_grad
        return (grad if need[0] else None,
                grad * mul_scalar(self.saved("tensor2"), self.value) if need[1] else None,
                grad * mul_scalar(self.saved("tensor1"), self.value) if need[2] else None)

    def jvp(self, t_self, t1, t2):
        _, a, b = self.inputs
        return _total(t_self,
                      None if t1 is None else mul_scalar(t1 * b, self.value),
                      None if t2 is None else mul_scalar(t2 * a, self.value))


@parses('addcdiv(Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, '
        'Tensor out = None)',
        'addcdiv(Tensor input, Number value, Tensor tensor1, Tensor tensor2)|hidden',
        method=('addcdiv(Tensor tensor1, Tensor tensor2, *, Number value = 1)',
                'addcdiv(Number value, Tensor tensor1, Tensor tensor2)|hidden'))
def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``."""
    _check_addcdiv(tensor1, tensor2)
    data, _ = _pointwise3(input, tensor1, tensor2, value, np.divide)
    return record(data, AddcdivBackward0, (input, tensor1, tensor2),
                  save=_addcdiv_save(tensor1, tensor2), value=value)


def _check_addcdiv(tensor1, tensor2):
    if not tensor1.dtype.is_floating_point and not tensor2.dtype.is_floating_point:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))."
            "to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")


def _scalar_over(value, t):
    """``value / t`` as torch's formula computes it: the number wrapped in a 0-d tensor, a
    DivBackward0 (not a reciprocal)."""
    return div(as_tensor_like(value, t.dtype), t)


def _addcdiv_save(tensor1, tensor2):
    return {"tensor1": tensor1 if tensor2.requires_grad else None,
            "tensor2": tensor2 if tensor1.requires_grad or tensor2.requires_grad else None}


class AddcdivBackward0(Node):
    """``grad``, ``grad * (value / tensor2)`` and
    ``-grad * (value * tensor1 / (tensor2 * tensor2))``."""

    def backward(self, grad):
        need = self.needs_input_grad
        t2 = self.saved("tensor2")
        g1 = g2 = None
        if need[1]:
            g1 = grad * _scalar_over(self.value, t2)
        if need[2]:
            g2 = -grad * (mul_scalar(self.saved("tensor1"), self.value) / (t2 * t2))
        return (grad if need[0] else None, g1, g2)

    def jvp(self, t_self, t1, t2):
        _, a, b = self.inputs
        return _total(t_self,
                      None if t1 is None else t1 * _scalar_over(self.value, b),
                      None if t2 is None else -t2 * (mul_scalar(a, self.value) / (b * b)))



def _pointwise3_(self, tensor1, tensor2, value, combine, node_cls, save):
    """addcmul_ / addcdiv_: the same value written into ``self``, torch's errors when the
    result has another shape or a dtype ``self`` cannot hold."""
    data, d = _pointwise3(self, tensor1, tensor2, value, combine)
    _check_cast(self, d)
    if data.shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(data.shape)}")
    return apply_inplace(self, data, node_cls, (self, tensor1, tensor2), save=save, value=value)


@parses('addcmul_(Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1)')
def addcmul_(self, tensor1, tensor2, *, value=1):
    return _pointwise3_(self, tensor1, tensor2, value, np.multiply, AddcmulBackward0,
                        _addcmul_save(tensor1, tensor2))


@parses('addcdiv_(Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1)')
def addcdiv_(self, tensor1, tensor2, *, value=1):
    _check_addcdiv(tensor1, tensor2)
    return _pointwise3_(self, tensor1, tensor2, value, np.divide, AddcdivBackward0,
                        _addcdiv_save(tensor1, tensor2))
