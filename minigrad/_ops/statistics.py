"""Reductions that give two statistics at once or leave NaN out: ``var_mean``, ``std_mean``,
``aminmax``, ``nansum`` and ``nanmean``.

``var_mean`` and ``std_mean`` are one node with two outputs (``VarMeanBackward0``,
``StdMeanBackward0``): var's (or std's) gradient plus mean's, each only for an output that got
a gradient (torch passes the other as undefined, so nothing of it is recorded). ``aminmax``
is one node too (``AminmaxBackward0``): amin's and amax's gradients, shared between ties.
``nansum`` is ``sum`` with NaN read as 0 (``NansumBackward0``: no gradient to the NaNs);
``nanmean`` is torch's composition, ``nansum(x) / (count of non-NaN)``.
"""

from __future__ import annotations

import numpy as np

from minigrad import return_types
from minigrad._numeric import cascade_sum, cascade_sum_dims, cast, quietly
from minigrad._ops._args import parses
from minigrad._ops._core import needs_grad, record
from minigrad._ops.linalg import _short
from minigrad._ops.pointwise import div_scalar, mul_scalar
from minigrad._ops.reduction import (
    _all_dims,
    _reduced_dims,
    _restore_by_reshape,
    _unreduce,
    _var_backward,
    _var_data,
)
from minigrad._tensor import Tensor
from minigrad.autograd import forward_grad, graph
from minigrad.autograd.graph import Node


def _record_pair(first, second, node_cls, input, save, output_name, attrs):
    """Two outputs of one node (as torch's multi-output ops)."""
    outs = (Tensor._make(np.asarray(first)), Tensor._make(np.asarray(second)))
    if outs[0]._data.dtype.kind == "f":
        if needs_grad((input,)):
            graph.record(node_cls, (input,), outs, save=save, output_name=output_name, **attrs)
        if forward_grad._state.level is not None:
            forward_grad.propagate(outs, node_cls, (input,), save, attrs)
    return outs


# --- var_mean, std_mean ----------------------------------------------------------------------
_SIGNATURES = (
    '{}(Tensor input, tuple of ints[1]? dim, bool unbiased = True, bool keepdim = False)',
    '{}(Tensor input, tuple of ints[1]? dim = None, *, Number? correction = None, '
    'bool keepdim = False)',
    '{}(Tensor input, bool unbiased = True)',
)


def _moments(input, dim, unbiased, keepdim, correction, name):
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    var, attrs = _var_data(input, dim, unbiased, keepdim, correction, name)
    wide = input._data.astype(np.float64)
    dims = attrs["dim"]
    mean = wide.mean(axis=dims, keepdims=keepdim) if wide.ndim else wide
    if wide.ndim and not keepdim and not dims:
        mean = wide.copy()
    attrs["self_shape"] = input._data.shape
    return var, quietly(np.asarray(mean).astype, input._data.dtype), attrs


@parses(*(s.format("var_mean") for s in _SIGNATURES))
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """The variance and the mean over ``dim``, one node for both."""
    var, mean, attrs = _moments(input, dim, unbiased, keepdim, correction, "var_mean")
    return _record_pair(quietly(var.astype, input._data.dtype), mean, VarMeanBackward0, input,
                        {"self": input}, None, attrs)


@parses(*(s.format("std_mean") for s in _SIGNATURES))
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """The standard deviation and the mean over ``dim``, one node for both."""
    var, mean, attrs = _moments(input, dim, unbiased, keepdim, correction, "std_mean")
    std = quietly(lambda v: np.sqrt(v).astype(input._data.dtype), var)
    return _record_pair(std, mean, StdMeanBackward0, input, {"self": input}, "result0", attrs)


def _mean_backward(node, grad):
    """torch's mean_backward: the gradient put back over the reduced dims, over the count."""
    count = int(np.prod([node.self_shape[d] for d in node.dim])) if node.self_shape else 1
    if node.all_dims and not node.keepdim:
        return div_scalar(grad.expand(*node.self_shape), count)
    return div_scalar(_unreduce(grad, node.dim, node.keepdim, node.self_shape), count)


def _mean_jvp(node, t):
    return t.mean(node.dim, keepdim=node.keepdim) if node.self_shape else t.clone()


class VarMeanBackward0(Node):
    """out = (var(self, dim), mean(self, dim))"""

    materialize_grads = False  # a missing output gradient stays undefined, as in torch

    def backward(self, g_var, g_mean):
        x = self.saved("self")
        out = None if g_var is None else _var_backward(self, x, g_var)
        if g_mean is not None:
            aux = _mean_backward(self, g_mean)
            out = aux if out is None else out + aux
        return out

    def jvp(self, t):
        x = self.inputs[0]
        dims = self.dim
        var_t = (mul_scalar(t * (x - x.mean(dims, keepdim=True)), _two_over(self.dof))).sum(
            dims, self.keepdim)
        return var_t, _mean_jvp(self, t)


def _two_over(dof) -> float:
    return 2.0 / dof if dof else float("inf")


class StdMeanBackward0(Node):
    """out = (sqrt(var(self, dim)), mean(self, dim))"""

    materialize_grads = False

    def backward(self, g_std, g_mean):
        x = self.saved("self")
        out = None
        if g_std is not None:
            result = self.saved("result0")
            grad_var = (g_std / mul_scalar(result, 2)).masked_fill(result == 0, 0)
            out = _var_backward(self, x, grad_var)
        if g_mean is not None:
            aux = _mean_backward(self, g_mean)
            out = aux if out is None else out + aux
        return out

    def jvp(self, t):
        var_t, mean_t = VarMeanBackward0.jvp(self, t)
        std = self.result[0]
        return var_t.masked_fill(std == 0, 0) / mul_scalar(std, 2), mean_t


# --- aminmax ---------------------------------------------------------------------------------
@parses('aminmax(Tensor input, *, int? dim = None, bool keepdim = False, '
        'tuple of Tensors out = None)')
def aminmax(input, *, dim=None, keepdim=False):
    """The smallest and the largest element (along ``dim``), one node for both."""
    data = input._data
    if dim is None:
        if data.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
        axis, dims = None, tuple(range(data.ndim))
    else:
        dims = _all_dims(dim, data.ndim)
        axis = dims if data.ndim else None
        if data.ndim and data.shape[dims[0]] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {dims[0]} to have non-zero "
                             "size.")
    with np.errstate(invalid="ignore"):
        lo = np.min(data, axis=axis, keepdims=keepdim and axis is not None)
        hi = np.max(data, axis=axis, keepdims=keepdim and axis is not None)
    if dim is None and keepdim:
        lo, hi = np.reshape(lo, (1,) * data.ndim), np.reshape(hi, (1,) * data.ndim)
    attrs = {"dim": dims, "dim_arg": dim, "keepdim": keepdim, "inputs_ndim": data.ndim}
    outs = _record_pair(lo, hi, AminmaxBackward0, input, {"self": input}, None, attrs)
    node = outs[0]._grad_fn
    if node is not None:  # torch saves both outputs
        node.save_output("max", outs[1], 1)
        node.save_output("min", outs[0], 0)
    return return_types.aminmax(outs)


def _extreme_grad(node, x, value, grad):
    """amin's (amax's) gradient: shared evenly between the elements equal to the result."""
    if node.dim_arg is None:  # torch's restore_reduced_dims with no dims: a reshape (a view)
        grad = grad if node.keepdim else grad.reshape(grad.shape)
        mask = x == value
        return (grad / mask.sum((), True)) * mask
    value = _restore_by_reshape(value, node)
    grad = _restore_by_reshape(grad, node)
    mask = x == value
    return (grad / mask.sum(node.dim, True)) * mask


class AminmaxBackward0(Node):
    """out = (amin(self, dim), amax(self, dim))"""

    materialize_grads = False

    def backward(self, g_min, g_max):
        x = self.saved("self")
        out = None
        if g_min is not None:
            out = _extreme_grad(self, x, self.saved("min"), g_min)
        if g_max is not None:
            aux = _extreme_grad(self, x, self.saved("max"), g_max)
            out = aux if out is None else out + aux
        return out

    def jvp(self, t):
        x = self.inputs[0]
        outs = []
        for value in self.result:
            v = value if self.dim_arg is None else _restore_by_reshape(value, self)
            mask = x == v
            if self.dim_arg is None:
                outs.append((t * mask).sum() / mask.sum())
            else:
                outs.append((t * mask).sum(self.dim, self.keepdim) /
                            mask.sum(self.dim, self.keepdim))
        return tuple(outs)


# --- nansum, nanmean -------------------------------------------------------------------------
@parses('nansum(Tensor input, tuple of ints[1]? dim = None, bool keepdim = False, *, '
        'torch.dtype? dtype = None, Tensor out = None)')
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum with NaN read as 0."""
    data = input._data if dtype is None else cast(input._data, dtype.numpy)
    if data.dtype == np.bool_ or (data.dtype.kind in "iu" and data.dtype != np.int64):
        data = data.astype(np.int64)
    if data.dtype.kind == "f":
        data = np.where(np.isnan(data), data.dtype.type(0), data)
    dims = _reduced_dims(dim, data.ndim) if dim is not None else tuple(range(data.ndim))
    keep = keepdim
    if data.dtype.kind == "f":
        out = cascade_sum(data) if dim is None and not keep else \
            cascade_sum_dims(data, dims, keep)
    else:
        out = np.asarray(data.sum(axis=dims, keepdims=keep), dtype=data.dtype)
    return record(np.asarray(out, dtype=data.dtype), NansumBackward0, (input,),
                  save={"self": input}, dim=dims, dim_arg=dim, keepdim=keepdim,
                  self_shape=data.shape)


class NansumBackward0(Node):
    """out = sum(self where not NaN): the gradient spread back, 0 at the NaNs."""

    def backward(self, grad):
        x = self.saved("self")
        if self.dim_arg is None and not self.keepdim:
            spread = grad.expand(*self.self_shape)
        else:
            spread = _unreduce(grad, self.dim, self.keepdim, self.self_shape)
        return spread * x.isnan().logical_not()

    def jvp(self, t):
        x = self.inputs[0]
        masked = t.masked_fill(x.isnan(), 0)
        if self.dim_arg is None and not self.keepdim:
            return masked.sum()
        return masked.sum(self.dim, keepdim=self.keepdim)


@parses('nanmean(Tensor input, tuple of ints[1]? dim = None, bool keepdim = False, *, '
        'torch.dtype? dtype = None, Tensor out = None)')
def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """The mean of the non-NaN elements: ``nansum(x) / (count of non-NaN)``, as torch."""
    if not input.dtype.is_floating_point:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {_short(input.dtype).capitalize()}")
    factor = input.isnan().logical_not()
    factor = factor.sum() if dim is None and not keepdim else \
        factor.sum(_all_dims(dim, input.dim()) if dim is not None else
                   tuple(range(input.dim())), keepdim)
    return nansum(input, dim, keepdim, dtype=dtype).div(factor)
