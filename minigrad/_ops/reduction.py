"""Reductions: sum, mean, max, min, prod, amax, amin, logsumexp, var, std and norm over
everything or over some dims, with their nodes (and argmax, argmin, all, any, which have none).

Backward undoes the reduction: the reduced dims are put back (``unsqueeze``) and the gradient
is spread over them (``expand``; divided by the count for a mean; only to the picked element
for max and min, shared evenly between tied extremes for amax and amin; times the product of
the others for prod). Forward mode applies the same reduction to the tangent.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype, _layout, return_types
from minigrad._numeric import cascade_sum, cascade_sum_dims, cast, norm_sum, quietly
from minigrad._ops import _vmap_hook
from minigrad._ops._args import parses
from minigrad._ops._core import fused, record, warn_at_caller
from minigrad._ops.join import cat, stack
from minigrad._ops.pointwise import div_scalar, maximum, minimum, mul_scalar, np_exp, np_log, where
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


def _dims(dim, ndim):
    dims = (dim,) if isinstance(dim, int | np.integer) else tuple(dim)  # np.int64 too
    wrapped = [_wrap_dim(d, ndim) for d in dims]
    for i, d in enumerate(wrapped):
        if d in wrapped[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(wrapped)) if ndim else ()  # a 0-d tensor: its one element, as it is


def _reduced_dims(dim, ndim):
    """sum's and mean's dims: an empty list means every dim, as in torch (``x.sum(dim=())``
    is the sum of all)."""
    dims = _dims(dim, ndim)
    return dims if dims or not ndim else tuple(range(ndim))


@parses(
    'sum(Tensor input, *, torch.dtype? dtype = None)',
    'sum(Tensor input, tuple of ints[1]? dim, bool keepdim = False, *, '
    'torch.dtype? dtype = None, Tensor out = None)',
)
def sum(input, dim=None, keepdim=False, *, dtype=None):
    return quietly(_sum, input, dim, keepdim, dtype)  # inf - inf is nan, silently as in torch


def _sum(input, dim, keepdim, dtype):
    x = input  # with dtype=, torch casts inside the reduction: still one node, on the input
    data = x._data if dtype is None else cast(x._data, dtype.numpy)
    if data.dtype == np.bool_ or (data.dtype.kind in "iu" and data.dtype != np.int64):
        data = data.astype(np.int64)
    dim_arg = dim  # as given, for the node's saved field
    if dim is None and keepdim:  # sum(x, None, True): every dim, kept
        dim = tuple(range(data.ndim))
    floats = data.dtype.kind == "f"  # added up in torch's order: torch's last digits
    if dim is None:
        total = cascade_sum(data) if floats else np.asarray(data.sum(), dtype=data.dtype)
        return record(total, SumBackward0, (x,), self_shape=x._data.shape)
    dims = _reduced_dims(dim, data.ndim)
    out = cascade_sum_dims(data, dims, keepdim) if floats else \
        data.sum(axis=dims, keepdims=keepdim).astype(data.dtype, copy=False)
    return record(out, SumBackward1, (x,), self_shape=x._data.shape, dim=dims,
                  dim_arg=dim_arg, keepdim=keepdim)


class SumBackward0(Node):
    def backward(self, grad):
        return grad.expand(*self.self_shape)

    def jvp(self, t):
        return t.sum()


class SumBackward1(Node):
    """sum over ``dim``: put the reduced dims back, then expand."""

    def backward(self, grad):
        return _unreduce(grad, self.dim, self.keepdim, self.self_shape, self.dim_arg)

    def jvp(self, t):
        return t.sum(self.dim, keepdim=self.keepdim)


def _unreduce(grad, dims, keepdim, shape, given=None):
    """torch's sum_backward: the reduced dims put back (``_restore``), then expanded."""
    return _restore(grad, dims, keepdim, given).expand(*shape)


@parses(
    'mean(Tensor input, *, torch.dtype? dtype = None, Tensor out = None)',
    'mean(Tensor input, tuple of ints[1]? dim, bool keepdim = False, *, '
    'torch.dtype? dtype = None, Tensor out = None)',
)
def mean(input, dim=None, keepdim=False, *, dtype=None):
    return quietly(_mean, input, dim, keepdim, dtype)


def _mean(input, dim, keepdim, dtype):
    x = input  # with dtype=, torch casts inside the reduction: still one node, on the input
    data = source = x._data
    if dtype is not None or data.dtype.kind != "f":  # a float input needs no check
        d = x.dtype if dtype is None else dtype
        if not d.is_floating_point:
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {d.scalar_name}")
        if dtype is not None:
            data = cast(data, dtype.numpy)
    # float16: as torch, the sum and the division in float32, rounded once at the end (with
    # dtype=float16, the input itself is cast to float32 for the sum, not to float16 first)
    wide = source.astype(np.float32) if data.dtype == np.float16 else data
    if dim is None:
        if data.size:
            # as torch: the sum (in torch's order), then divided by the count; the division
            # in float64 rounded once to the dtype is the float32 division itself
            value = np.asarray(float(cascade_sum(wide)) / data.size, dtype=wide.dtype)
        else:
            value = np.asarray(np.nan)  # (NumPy would warn on an empty mean)
        return record(value.astype(data.dtype, copy=False), MeanBackward0, (x,),
                      self_shape=data.shape, numel=data.size)
    dims = _reduced_dims(dim, data.ndim)
    count = int(np.prod([data.shape[d] for d in dims]))
    if count:  # as torch: the sum (in its order) divided by the count
        out = (cascade_sum_dims(wide, dims, keepdim) / wide.dtype.type(count)).astype(
            data.dtype, copy=False)
    else:  # nothing to average: nan, as torch (and without NumPy's warning)
        out = np.full(data.sum(axis=dims, keepdims=keepdim).shape, np.nan, dtype=data.dtype)
    return record(out, MeanBackward1, (x,), self_shape=data.shape, dim=dims, dim_arg=dim,
                  keepdim=keepdim, count=count)


class MeanBackward0(Node):
    def backward(self, grad):
        g = grad._data
        if fused() and g.dtype.kind == "f":
            # every element is the same division, so divide once and fill (on the arrays)
            value = quietly(np.true_divide, g, np.asarray(self.numel, dtype=g.dtype))
            out = np.empty(self.self_shape, dtype=g.dtype)  # np.full's own two steps
            out[...] = value
            return Tensor._make(out)
        return div_scalar(grad.expand(*self.self_shape), self.numel)

    def jvp(self, t):
        return t.mean()


class MeanBackward1(Node):
    def backward(self, grad):
        return div_scalar(_unreduce(grad, self.dim, self.keepdim, self.self_shape), self.count)

    def jvp(self, t):
        return t.mean(self.dim, keepdim=self.keepdim)


def _extreme(input, dim, keepdim, np_reduce, np_arg, all_node, dim_node, name):
    data = input._data
    if dim is None:
        if data.size == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        return record(np.asarray(np_reduce(data)), all_node, (input,), save={"self": input},
                      output_name="result")
    d = _wrap_dim(dim, data.ndim)
    _check_nonempty_dim(data, d, name)
    idx = np.expand_dims(np_arg(data, axis=d), d) if data.ndim else np.asarray(0)
    values = np.take_along_axis(data, idx, axis=d) if data.ndim else data.copy()
    if not keepdim and data.ndim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    indices = Tensor._make(idx.astype(np.int64))
    out = record(values, dim_node, (input,), save={"indices": indices}, dim=d, dim_arg=dim,
                 keepdim=keepdim, self_shape=data.shape)
    return getattr(return_types, name)((out, indices))


def _arg_extreme(input, dim, keepdim, np_arg, extreme, name):
    """argmax/argmin: the flat index of the first extreme (every dim kept as 1 with
    ``keepdim``), or ``max``/``min`` along ``dim``'s indices."""
    if dim is None:
        if input._data.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        index = np.asarray(np_arg(input._data), dtype=np.int64)
        return Tensor._make(index.reshape((1,) * input._data.ndim) if keepdim else index)
    _check_nonempty_dim(input._data, _wrap_dim(dim, input._data.ndim), name)
    return extreme(input, dim, keepdim)[1]


def _check_nonempty_dim(data, d, name):
    if data.ndim and data.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


@parses(
    'max(Tensor input, *, Tensor out = None)',
    'max(Tensor input, Tensor other, *, Tensor out = None)',
    'max(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)',
)
def max(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):  # torch.max(a, b): the element-wise maximum
        return maximum(input, dim)
    return _extreme(input, dim, keepdim, np.max, np.argmax, MaxBackward1, MaxBackward0, "max")


@parses(
    'min(Tensor input, *, Tensor out = None)',
    'min(Tensor input, Tensor other, *, Tensor out = None)',
    'min(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)',
)
def min(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return minimum(input, dim)
    return _extreme(input, dim, keepdim, np.min, np.argmin, MinBackward1, MinBackward0, "min")


class MaxBackward1(Node):
    """max of all elements: the gradient is shared evenly between tied maxima."""

    def backward(self, grad):
        """torch's evenly_distribute_backward: a zero tensor filled at the ties, so the
        other elements get +0 whatever the gradient's sign. A NaN result came from the NaN
        elements (NaN == NaN is false), so those are the ties then, as torch's CPU kernel
        picks them: ``input.isnan()`` when the result is NaN, else ``input == result``.
        Inside torch.func's transforms (vmap, grad, jacrev...) torch's tensors are wrapped
        ("subclass-like") and its formula is ``mask * (grad / mask.sum())`` instead: the other
        elements get ``0 * grad``, -0 for a negative gradient."""
        x, result = self.saved("self"), self.saved("result")
        if _vmap_hook.active or _vmap_hook.transforms:
            mask = (x == result).logical_or(x.isnan().logical_and(result.isnan()))
            return mask * (grad / mask.sum())
        mask = x.isnan() if np.isnan(result._data).any() else x == result
        return grad.new_zeros(mask.shape).masked_fill(mask, grad / mask.sum())

    def jvp(self, t):
        """Ties share the tangent evenly, matching the backward's even split."""
        mask = self.inputs[0] == self.result
        return (t * mask).sum() / mask.sum()


class MinBackward1(MaxBackward1):
    """min of all elements"""


class MaxBackward0(Node):
    """max along ``dim``: the gradient goes to the index that was picked."""

    def backward(self, grad):  # the dim as given (-1 stays -1), as torch's formula passes it
        idx, d = self.saved("indices"), self.dim_arg
        if not self.keepdim and self.self_shape:  # a 0-d input: nothing to unsqueeze
            grad, idx = grad.unsqueeze(d), idx.unsqueeze(d)
        return grad.new_zeros(self.self_shape).scatter(d, idx, grad)

    def jvp(self, t):
        """The tangent at the index that was picked."""
        if not self.self_shape:
            return t
        idx = self.indices._data
        idx = idx if self.keepdim else np.expand_dims(idx, self.dim)
        mask = np.zeros(self.self_shape, dtype=bool)
        np.put_along_axis(mask, idx, True, axis=self.dim)
        return (t * Tensor._make(mask)).sum(self.dim, keepdim=self.keepdim)


class MinBackward0(MaxBackward0):
    """min along a dim"""


@parses('argmax(Tensor input, int? dim = None, bool keepdim = False, *, Tensor out = None)')
def argmax(input, dim=None, keepdim=False):
    return _arg_extreme(input, dim, keepdim, np.argmax, max, "argmax")


@parses(
    'prod(Tensor input, *, torch.dtype? dtype = None)',
    'prod(Tensor input, int dim, bool keepdim = False, *, torch.dtype? dtype = None, '
    'Tensor out = None)',
)
def prod(input, dim=None, keepdim=False, *, dtype=None):
    data = input._data if dtype is None else cast(input._data, dtype.numpy)
    if data.dtype == np.bool_ or (data.dtype.kind in "iu" and data.dtype != np.int64):
        data = data.astype(np.int64)
    if dim is None:
        return record(np.asarray(quietly(_product, data.ravel(order="K"), 0), dtype=data.dtype),
                      ProdBackward0, (input,), save={"self": input}, output_name="result")
    d = _wrap_dim(dim, data.ndim)
    out = _layout.row_major(quietly(_product, data, d, keepdim)) if data.ndim else data.copy()
    return record(out, ProdBackward1, (input,), save={"self": input}, output_name="result",
                  dim=d, dim_arg=dim, keepdim=keepdim)


def _product(data, axis, keepdim=False):
    """The product along ``axis``; float16 one factor after another, each step rounded to
    float16, as torch's kernel multiplies it (NumPy's own float16 product takes another
    order)."""
    if data.dtype != np.float16 or not data.shape[axis]:
        return data.prod(axis=axis, keepdims=keepdim)
    out = np.take(np.multiply.accumulate(data, axis=axis), [-1], axis=axis)
    return out if keepdim else np.squeeze(out, axis)


class ProdBackward0(Node):
    """prod of all elements: each gets the product of all the others."""

    def backward(self, grad):
        x = self.saved("self")
        if x.dim() == 0:
            return grad
        zeros = np.count_nonzero(x._data == 0)
        if zeros == 0:
            return grad * (self.saved("result") / x)
        if not grad_mode.is_grad_enabled() and zeros > 1:
            return x.new_zeros(x.shape)  # torch's shortcut: every gradient is +0
        return _prod_safe_zeros(grad, x.contiguous().view(-1), 0).view_as(x)

    def jvp(self, t):
        x = self.inputs[0]
        return (t * _others_product(x.reshape(-1), self.result, 0).view_as(x)).sum()


class ProdBackward1(Node):
    """prod along ``dim``: each element gets the product of the others along ``dim``."""

    def backward(self, grad):
        x, result = self.saved("self"), self.saved("result")
        if x.dim() == 0:
            return grad
        if not self.keepdim:
            grad, result = grad.unsqueeze(self.dim), result.unsqueeze(self.dim)
        if not (x._data == 0).any():
            return grad * (result / x)
        return _prod_safe_zeros(grad, x, self.dim)

    def jvp(self, t):
        x, result = self.inputs[0], self.result
        if x.dim() and not self.keepdim:
            result = result.unsqueeze(self.dim)
        return (t * _others_product(x, result, self.dim)).sum(self.dim, keepdim=self.keepdim)


def _prod_safe_zeros(grad, x, dim):
    """torch's prod_safe_zeros_backward: ``grad`` times, for each element along ``dim``, the
    product of the elements before it and of those after it (running products: cumprod),
    which never divides by a zero element."""
    if x.numel() == 0:
        return grad.expand_as(x)
    n = x.shape[dim]
    if n == 1:
        return grad
    ones_shape = list(x.shape)
    ones_shape[dim] = 1
    ones = grad.new_zeros(ones_shape) + 1
    before = cat([ones, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    after = cat([ones, x.narrow(dim, 1, n - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return grad * (before * after)


def _others_product(x, result, dim):
    """d prod / dx along ``dim`` (``result`` keeps that dim), as torch's prod_backward:
    ``result / x`` when no element is 0; otherwise the products of the elements before and
    after each one (torch's prod_safe_zeros_backward), which never divides by 0."""
    if x.dim() == 0:
        return x.new_zeros(()) + 1
    if not (x._data == 0).any():
        return result / x
    items = x.unbind(dim)
    one = items[0].new_zeros(items[0].shape) + 1
    before, after = [one], [one]  # products of the first i and of the last i elements
    for i in range(len(items) - 1):
        before.append(before[-1] * items[i])
        after.append(after[-1] * items[-1 - i])
    return stack([b * a for b, a in zip(before, reversed(after))], dim)


# --- more reductions: amax/amin, argmin, all/any, logsumexp, var/std, norm -------------------
def _all_dims(dim, ndim):
    """``dim`` as a sorted tuple; ``None`` (and, where torch allows it, ``()``) is every dim."""
    if dim is None or (not isinstance(dim, int | np.integer) and len(dim) == 0):
        return tuple(range(ndim))
    return _dims(dim, ndim)


def _restore(t, dims, keepdim, given=None):
    """A reduced tensor with its reduced dims back (size 1), to broadcast against the input:
    torch's unsqueeze_multiple, which unsqueezes one dim as it was given (``given``: -1 stays
    -1, which its node saves), several wrapped and in order."""
    if not keepdim:
        one = given if type(given) is int else (
            given[0] if isinstance(given, tuple | list) and len(given) == 1 else None)
        if one is not None and len(dims) == 1:  # (a 0-d input has no dim to put back)
            return t.unsqueeze(one)
        for d in sorted(dims):
            t = t.unsqueeze(d)
    return t


def _restore_by_reshape(t, node):
    """``_restore`` as torch's restore_reduced_dims does it: one reshape (amax's formula),
    where other formulas unsqueeze dim by dim. torch reads the dims as given: a 0-d input
    reduced over dim 0 gives a gradient of shape (1,), which the engine sums back to ()."""
    if node.keepdim:
        return t
    dims = node.dim
    if not node.inputs_ndim and node.dim_arg is not None:  # a 0-d input: the dims as given
        dims = (node.dim_arg,) if isinstance(node.dim_arg, int) else tuple(node.dim_arg)
        dims = tuple(d % len(dims) for d in dims)
    shape, sizes = [], iter(t.shape)
    for i in range(t.dim() + len(dims)):
        shape.append(1 if i in dims else next(sizes))
    return t.reshape(*shape)


@parses('amax(Tensor input, tuple of ints[1] dim = [], bool keepdim = False, *, Tensor out = None)')
def amax(input, dim=(), keepdim=False):
    return _amaxmin(input, dim, keepdim, np.max, AmaxBackward0, "amax")


@parses('amin(Tensor input, tuple of ints[1] dim = [], bool keepdim = False, *, Tensor out = None)')
def amin(input, dim=(), keepdim=False):
    return _amaxmin(input, dim, keepdim, np.min, AminBackward0, "amin")


def _amaxmin(input, dim, keepdim, np_reduce, node_cls, name):
    data = input._data
    dims = _all_dims(dim, data.ndim)
    for d in dims:
        if data.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    out = np_reduce(data, axis=dims, keepdims=keepdim) if data.ndim else data.copy()
    return record(np.asarray(out, dtype=data.dtype), node_cls, (input,), save={"self": input},
                  output_name="result", dim=dims, keepdim=keepdim, dim_arg=dim,
                  inputs_ndim=data.ndim)


class AmaxBackward0(Node):
    """out = amax(self, dim): the gradient is shared evenly between the tied extremes."""

    def backward(self, grad):
        x = self.saved("self")
        mask = _restore_by_reshape(self.saved("result"), self) == x
        return (_restore_by_reshape(grad, self) / mask.sum(self.dim, True)) * mask

    def jvp(self, t):
        x = self.inputs[0]
        mask = x == _restore(self.result, self.dim, self.keepdim)
        return (t * mask).sum(self.dim, self.keepdim) / mask.sum(self.dim, self.keepdim)


class AminBackward0(AmaxBackward0):
    """out = amin(self, dim)"""


@parses('argmin(Tensor input, int? dim = None, bool keepdim = False, *, Tensor out = None)')
def argmin(input, dim=None, keepdim=False):
    return _arg_extreme(input, dim, keepdim, np.argmin, min, "argmin")


def _logical_reduction(input, dim, keepdim, np_fn):
    """all and any: bool results (uint8 for a uint8 input, as torch keeps)."""
    data = input._data
    out_dtype = np.uint8 if data.dtype == np.uint8 else np.bool_
    if dim is None:
        return Tensor._make(np.asarray(np_fn(data), dtype=out_dtype))
    dims = _dims(dim, data.ndim)
    out = np_fn(data, axis=dims, keepdims=keepdim) if data.ndim else data != 0
    return Tensor._make(np.asarray(out, dtype=out_dtype))


@parses(
    'all(Tensor input, *, Tensor out = None)',
    'all(Tensor input, tuple of ints? dim = None, bool keepdim = False, *, Tensor out = None)',
    'all(Tensor input, int dim, bool keepdim = False, *, Tensor out = None)',
)
def all(input, dim=None, keepdim=False):
    return _logical_reduction(input, dim, keepdim, np.all)


@parses(
    'any(Tensor input, *, Tensor out = None)',
    'any(Tensor input, tuple of ints? dim = None, bool keepdim = False, *, Tensor out = None)',
    'any(Tensor input, int dim, bool keepdim = False, *, Tensor out = None)',
)
def any(input, dim=None, keepdim=False):
    return _logical_reduction(input, dim, keepdim, np.any)


@parses('logsumexp(Tensor input, tuple of ints[1] dim, bool keepdim = False, *, Tensor out = None)')
def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(x), dim))``, shifted by the max so that exp cannot overflow (an infinite
    max is not subtracted, as in torch)."""
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    data = x._data
    dims = _dims(dim, data.ndim)
    if not data.ndim:
        out = data.copy()
    else:
        with np.errstate(all="ignore"):
            maxes = data.max(axis=dims, keepdims=True) if data.size else np.zeros(
                [1 if d in dims else n for d, n in enumerate(data.shape)], data.dtype)
            maxes = np.where(np.isinf(maxes), 0, maxes).astype(data.dtype)
            # torch's order: exp, then sum (its cascade), log, plus the maxes
            total = cascade_sum_dims(np_exp(data - maxes), dims, True) if data.size else \
                np.exp(data).sum(axis=dims, keepdims=True)
            out = np_log(total) + maxes
        if not keepdim:
            out = out.squeeze(dims)
    return record(np.asarray(out, dtype=data.dtype), LogsumexpBackward0, (x,), save={"self": x},
                  output_name="result", dim=dims, keepdim=keepdim, dim_arg=dim)


class LogsumexpBackward0(Node):
    """out = log(sum(exp(self), dim)); d/dself = exp(self - out), the softmax"""

    def backward(self, grad):
        result = _restore(self.saved("result"), self.dim, self.keepdim, self.dim_arg)
        return (_restore(grad, self.dim, self.keepdim, self.dim_arg)
                * (self.saved("self") - result).exp())

    def jvp(self, t):
        result = _restore(self.result, self.dim, self.keepdim)
        return (t * (self.inputs[0] - result).exp()).sum(self.dim, self.keepdim)


def _correction(name, unbiased, correction):
    if unbiased is not None and correction is not None:
        raise RuntimeError(f"{name}: Only one of unbiased and correction may be given")
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def _given_correction(dim, unbiased, correction):
    """The correction as torch's node keeps it (``_saved_correction``): ``None`` for
    ``var()`` without dim, unbiased or correction; otherwise the one given or implied by
    ``unbiased``. (torch also keeps 1 for an explicit ``dim=None``, which minigrad cannot
    tell from no dim.)"""
    if correction is not None:
        return correction
    if unbiased is not None:
        return int(unbiased)
    return None if dim is None else 1


def _var_data(input, dim, unbiased, keepdim, correction, name):
    """The variance's value (in float64: the caller rounds it once, as torch) and what its
    backward needs; torch's warning when the degrees of freedom are <= 0 (the value is then
    inf, or nan where every element equals the mean)."""
    if isinstance(dim, bool):  # var(True): the old ``unbiased`` positional argument
        dim, unbiased = None, dim
    if not input.dtype.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    c = _correction(name, unbiased, correction)
    data = input._data
    dims = _all_dims(dim, data.ndim)
    n = int(np.prod([data.shape[d] for d in dims])) if data.ndim else 1
    dof = n - c
    if dof <= 0:
        warn_at_caller(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                       "less than the reduction factor (input numel divided by output numel).")
    wide = data.astype(np.float64)  # torch's CPU kernel accumulates in double
    with np.errstate(all="ignore"):
        centered = wide - (wide.mean(axis=dims, keepdims=True) if wide.ndim else wide)
        squares = (centered * centered).sum(axis=dims, keepdims=keepdim) if wide.ndim \
            else centered * centered
        out = np.true_divide(squares, np.float64(np.maximum(dof, 0)))
    attrs = {"dim": dims, "keepdim": keepdim, "dof": dof, "all_dims": dim is None or not data.ndim,
             "dim_arg": dim, "correction": _given_correction(dim, unbiased, correction)}
    return np.asarray(out), attrs


@parses(
    'var(Tensor input, tuple of ints[1]? dim, bool unbiased = True, bool keepdim = False, *, '
    'Tensor out = None)',
    'var(Tensor input, tuple of ints[1]? dim = None, *, Number? correction = None, '
    'bool keepdim = False, Tensor out = None)',
    'var(Tensor input, bool unbiased = True)',
)
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    out, attrs = _var_data(input, dim, unbiased, keepdim, correction, "var")
    return record(quietly(out.astype, input._data.dtype), VarBackward0, (input,),
                  save={"self": input},
                  **attrs)


@parses(
    'std(Tensor input, tuple of ints[1]? dim, bool unbiased = True, bool keepdim = False, *, '
    'Tensor out = None)',
    'std(Tensor input, tuple of ints[1]? dim = None, *, Number? correction = None, '
    'bool keepdim = False, Tensor out = None)',
    'std(Tensor input, bool unbiased = True)',
)
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    out, attrs = _var_data(input, dim, unbiased, keepdim, correction, "std")
    return record(quietly(lambda v: np.sqrt(v).astype(input._data.dtype), out), StdBackward0,
                  (input,), save={"self": input}, output_name="result", **attrs)


def _var_backward(node, x, grad):
    """torch's var_backward: ``2 / dof * grad * (x - mean)``; over all elements with
    dof <= 0, nan where x equals the mean and inf elsewhere. Over all elements the mean is
    ``x.mean()``; along dims it keeps them, and the gradient gets them back (not for a 1-D
    input, whose reduced gradient is a 0-d tensor that broadcasts)."""
    if node.all_dims:
        if node.dof <= 0:
            return grad * where(x == x.mean(), float("nan"), float("inf"))
        return mul_scalar(grad, _two_over(node.dof)) * (x - x.mean())
    if x.dim() > 1:
        grad = _restore(grad, node.dim, node.keepdim, node.dim_arg)
    # the dims as given (order and signs), as torch's formula passes them to mean
    return mul_scalar(grad, _two_over(node.dof)) * (x - x.mean(node.dim_arg, keepdim=True))


def _two_over(dof) -> float:
    return 2.0 / dof if dof else float("inf")


class VarBackward0(Node):
    """out = sum((self - mean)^2, dim) / (n - correction)"""

    def backward(self, grad):
        return _var_backward(self, self.saved("self"), grad)

    def jvp(self, t):
        x = self.inputs[0]
        return (_two_over(self.dof) * (t * (x - x.mean(self.dim, keepdim=True)))).sum(
            self.dim, self.keepdim)


class StdBackward0(Node):
    """out = sqrt(var(self)): var's gradient times 1 / (2 out), 0 where out is 0"""

    def backward(self, grad):
        result = self.saved("result")
        grad_var = (grad / mul_scalar(result, 2)).masked_fill(result == 0, 0)
        return _var_backward(self, self.saved("self"), grad_var)

    def jvp(self, t):
        return where(self.result == 0, 0.0, VarBackward0.jvp(self, t) / (2 * self.result))


def norm(input, p, dim=None, keepdim=False, dtype=None):
    """The vector p-norm over ``dim`` (every element by default), as torch's
    ``linalg.vector_norm`` computes it: p = 2, 1, inf, -inf, 0 (the count of non-zeros) or any
    other number. (The public ``torch.norm``, ``linalg.*_norm`` check the arguments and reach it
    through ``matrix_norms.py``.)"""
    # torch keeps the order as a C++ Scalar: an int stays an int (``_saved_ord`` shows 2, and
    # 'fro' is the int 2), a float stays a float; the formulas below only need its value.
    ord_arg = p
    p = float(ord_arg)
    if not input.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {input.dtype.scalar_name}")
    data = input._data if dtype is None else cast(input._data, dtype.numpy)
    dims = _all_dims(dim, data.ndim)
    out = vector_norm_data(data, p, dims, keepdim)
    return record(_layout.row_major(out), LinalgVectorNormBackward0, (input,),
                  save={"self": input}, output_name="result", ord=p, dim=dims, keepdim=keepdim,
                  dim_arg=dim, ord_arg=ord_arg)


def vector_norm_data(data, p: float, dims, keepdim):
    """The p-norm of ``data`` over ``dims`` as torch's kernel computes it (also at::norm's,
    which torch.dist and pairwise_distance call)."""
    axis = dims if data.ndim else None
    with np.errstate(all="ignore"):
        a = np.abs(data)
        if p == 0:
            out = (a != 0).sum(axis=axis, keepdims=keepdim).astype(data.dtype)
        elif p == float("inf"):
            out = a.max(axis=axis, keepdims=keepdim)
        elif p == float("-inf"):
            out = a.min(axis=axis, keepdims=keepdim)
        elif p in (1, 2):  # torch's order of additions where it is written out (norm_sum)
            total = norm_sum(data, dims, keepdim, int(p))
            if total is None:
                total = (a if p == 1 else a * a).sum(axis=axis, keepdims=keepdim)
            out = total if p == 1 else np.sqrt(total)
        else:
            out = np.power(np.power(a, p).sum(axis=axis, keepdims=keepdim), 1 / p)
    return np.asarray(out, dtype=data.dtype)


def _norm_backward(x, norm, grad, p, dims):
    """torch's linalg_vector_norm_backward, with ``norm`` and ``grad`` keeping the reduced
    dims. A zero norm gives a zero gradient (the subgradient torch picks)."""
    if p == 1:
        return x.sgn() * grad
    if p == 2:
        return grad * (x / norm).masked_fill(norm == 0, 0)
    if p in (float("inf"), float("-inf")):
        a = x.abs()
        mask = (a == norm) | a.isnan()
        return x.sgn() * ((grad / mask.sum(dims, True)) * mask)
    if p < 1:
        scaled = x.sgn() * (x.abs() ** (p - 1)).masked_fill(x == 0, 0)
        return scaled * grad * norm ** (1 - p)
    scaled = x.sgn() * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
    return scaled * (grad / norm ** (p - 1)).masked_fill(norm == 0, 0)


class LinalgVectorNormBackward0(Node):
    """out = sum(|self|^ord, dim)^(1/ord)"""

    def backward(self, grad):
        if self.ord == 0:  # a count of non-zeros: torch returns no gradient at all
            return None
        x = self.saved("self")
        # torch gets the reduced dims back only for a ``dim`` that was given
        dims = () if self.dim_arg is None or x.dim() == 0 else self.dim
        given = self.dim_arg if dims else None
        norm = _restore(self.saved("result"), dims, self.keepdim, given)
        return _norm_backward(x, norm, _restore(grad, dims, self.keepdim, given), self.ord,
                              self.dim)

    def jvp(self, t):
        if self.ord == 0:
            return self.result.new_zeros(self.result.shape)
        x = self.inputs[0]
        norm = _restore(self.result, self.dim, self.keepdim)
        one = norm.new_zeros(norm.shape) + 1
        return (t * _norm_backward(x, norm, one, self.ord, self.dim)).sum(self.dim,
                                                                          self.keepdim)
