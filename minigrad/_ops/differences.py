"""diff, gradient, trace, addcmul and addcdiv: small arithmetic that tutorials and optimizers
reach for.

``diff`` is a composite in torch (narrow and subtract, repeated ``n`` times; ``cat`` first
for ``prepend``/``append``), built the same way here so its graph is torch's; so is
``gradient`` (slices, differences, divisions, then ``cat``). ``trace``,
``addcmul`` and ``addcdiv`` have nodes of their own (TraceBackward0, AddcmulBackward0,
AddcdivBackward0) with torch's formulas from ``derivatives.yaml``.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._layout import elementwise_result
from minigrad._numeric import fma, for_dtype, quietly, torch_fuses
from minigrad._ops._args import parses
from minigrad._ops._core import as_tensor_like, record, result_type
from minigrad._ops.index_add import index_fill
from minigrad._ops.indexing import select, slice_dim
from minigrad._ops.inplace import _check_cast, apply_inplace
from minigrad._ops.join import cat
from minigrad._ops.pointwise import _total, div, div_scalar, mul_scalar
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


# --- gradient ------------------------------------------------------------------------------------
@parses('gradient(Tensor input, *, tuple of ints dim, int edge_order = 1)',
        'gradient(Tensor input, *, Number spacing, tuple of ints dim, int edge_order = 1)',
        'gradient(Tensor input, *, Number spacing = None, int dim = None, int edge_order = 1)',
        'gradient(Tensor input, *, tuple of Scalars spacing, int dim = None, '
        'int edge_order = 1)',
        'gradient(Tensor input, *, tuple of Scalars spacing, tuple of ints dim, '
        'int edge_order = 1)',
        'gradient(Tensor input, *, tuple of Tensors spacing, int dim = None, '
        'int edge_order = 1)',
        'gradient(Tensor input, *, tuple of Tensors spacing, tuple of ints dim, '
        'int edge_order = 1)')
def gradient(input, *, spacing=None, dim=None, edge_order=1):
    """The derivative of sampled values along each of ``dim`` (every dim by default), one
    tensor per dim: central differences inside, one-sided ones (first or second order,
    ``edge_order``) at both ends. ``spacing``: one step for every dim, a step per dim, or the
    coordinates of the samples per dim (tensors: unevenly spaced). A composite in torch
    (ReduceOps.cpp), written here in its ops, so the graph is its: slices, subtractions,
    divisions by numbers (DivBackward1) or products with the coefficients the coordinates
    give (MulBackward0), concatenated (CatBackward0)."""
    listed = isinstance(dim, tuple | list)
    dims = list(dim) if listed else [dim] if dim is not None else list(range(input.dim()))
    if spacing is None or not isinstance(spacing, tuple | list):  # one step, for every dim
        size = None if spacing is None and not listed else len(dims)
        spacing = [1.0 if spacing is None else spacing] * len(dims)
    else:
        size = len(spacing)
    _check_gradient(input, size, dims if dim is not None else None, edge_order)
    if spacing and isinstance(spacing[0], Tensor):
        return tuple(_gradient_along(input, _wrap_dim(d, input.dim()), coords, edge_order)
                     for d, coords in zip(dims, spacing))
    return tuple(_gradient_by_step(input, _wrap_dim(d, input.dim()), step, edge_order)
                 for d, step in zip(dims, spacing))


def _check_gradient(input, spacing_size, dims, edge_order):
    """torch's pre_check_gradient, in its order."""
    if input.dtype is _dtype.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != input.dim():
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
            f"equal to 'self.dim() = {input.dim()}', since dim argument was not given, but got "
            f"a list of length {spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
            f"dim arguments to have the same length, but got a spacing argument of length "
            f"{spacing_size} and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    seen = set()
    for d in dims if dims is not None else ():  # dim_list_to_bitset: one dim at a time
        wrapped = _wrap_dim(d, input.dim())
        if wrapped in seen:
            raise RuntimeError(f"dim {wrapped} appears multiple times in the list of dims")
        seen.add(wrapped)
    for d in dims if dims is not None else range(input.dim()):
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")


def _gradient_by_step(input, d, step, edge_order):
    """torch's gradient_helper_float: evenly spaced samples, ``step`` apart."""
    def part(start, stop=None):
        return slice_dim(input, d, start, stop, 1)

    center = div_scalar(_difference(part, (2,), (0, -2)), step)
    if edge_order == 1:
        first = div_scalar(_difference(part, (1, 2), (0, 1)), step)
        last = div_scalar(_difference(part, (-1,), (-2, -1)), step)
    else:  # the right operand first, as in _combination
        third = mul_scalar(part(2, 3), 0.5)
        second = mul_scalar(part(1, 2), 2)
        first = div_scalar(mul_scalar(part(0, 1), -1.5) + second - third, step)
        third = mul_scalar(part(-1), 1.5)
        second = mul_scalar(part(-2, -1), 2)
        last = div_scalar(mul_scalar(part(-3, -2), 0.5) - second + third, step)
    return cat([first, div_scalar(center, 2), last], d)


def _gradient_along(input, d, coords, edge_order):
    """torch's gradient_helper: samples at the coordinates ``coords`` (a vector), through
    the second-order formulas for uneven steps ``dx1``, ``dx2`` on either side."""
    if coords.dim() != 1:
        raise RuntimeError("torch.gradient expected each element of spacing to have one "
                           f"dimension, but got an element with {coords.dim()} dimensions!")
    shape = [1] * input.dim()
    shape[d] = -1

    def part(start, stop=None):
        return slice_dim(input, d, start, stop, 1)

    # each binary operation's right operand is made first, as in torch's compiled
    # expressions: the order of the nodes, which fixes the order backward adds gradients in
    steps = diff(coords, 1, 0)
    dx1, dx2 = slice_dim(steps, 0, 0, -1, 1), slice_dim(steps, 0, 1, None, 1)
    denominator = dx1 * (dx1 + dx2)
    a = (-dx2 / denominator).reshape(shape)
    denominator = dx1 * dx2
    b = ((dx2 - dx1) / denominator).reshape(shape)
    denominator = dx2 * (dx1 + dx2)
    c = (dx1 / denominator).reshape(shape)
    center = _combination((a, b, c), (part, (0, -2), (1, -1), (2,)))

    def h(i):  # torch's ax_dx[i]: a new select at each use
        return select(steps, 0, i)

    def h_sum(i, j):  # ax_dx[i] + ax_dx[j]
        right = h(j)
        return h(i) + right

    def h_product(i, j):  # ax_dx[i] * ax_dx[j]
        right = h(j)
        return h(i) * right

    if edge_order == 1:
        step = h(0)
        first = _difference(part, (1, 2), (0, 1)) / step
        step = h(-1)
        last = _difference(part, (-1,), (-2, -1)) / step
        return cat([first, center, last], d)
    # -(2 ax0 + ax1) / (ax0 (ax0 + ax1)), (ax0 + ax1) / (ax0 ax1), -ax0 / (ax1 (ax0 + ax1))
    sums = h_sum(0, 1)
    denominator = h(0) * sums
    right = h(1)
    a = -(mul_scalar(h(0), 2.0) + right) / denominator
    denominator = h_product(0, 1)
    b = h_sum(0, 1) / denominator
    sums = h_sum(0, 1)
    denominator = h(1) * sums
    c = (-h(0)) / denominator
    first = _combination((a, b, c), (part, (0, 1), (1, 2), (2, 3)))
    # ax1 / (ax2 (ax1 + ax2)), -(ax1 + ax2) / (ax1 ax2), (2 ax1 + ax2) / (ax1 (ax1 + ax2)),
    # counting from the end
    sums = h_sum(-1, -2)
    denominator = h(-2) * sums
    a = h(-1) / denominator
    denominator = h_product(-1, -2)
    b = -h_sum(-1, -2) / denominator
    sums = h_sum(-1, -2)
    denominator = h(-1) * sums
    right = h(-2)
    c = (mul_scalar(h(-1), 2) + right) / denominator
    last = _combination((a, b, c), (part, (-3, -2), (-2, -1), (-1,)))
    return cat([first, center, last], d)


def _difference(part, hi, lo):
    """``part(*hi) - part(*lo)``, the right operand made first as torch's compiled expression
    makes it (the order its backward then adds the slices' gradients in)."""
    low = part(*lo)
    return part(*hi) - low


def _combination(weights, parts):
    """``a * part(*p0) + b * part(*p1) + c * part(*p2)`` (``parts``: the slicing function and
    three ranges), its nodes made in the order of torch's compiled expression: the right
    operand of each ``+`` first."""
    (a, b, c), (part, p0, p1, p2) = weights, parts
    third = c * part(*p2)
    second = b * part(*p1)
    return (a * part(*p0) + second) + third


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
    v = d.numpy.type(for_dtype(value, d.numpy))
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
