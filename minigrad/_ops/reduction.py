"""Reductions: sum, mean, max, min, prod over everything or over some dims, with their nodes.

Backward undoes the reduction: the reduced dims are put back (``unsqueeze``) and the gradient
is spread over them (``expand``; divided by the count for a mean; only to the picked element
for max and min; times the product of the others for prod). Forward mode applies the same
reduction to the tangent.
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._core import record
from minigrad._ops.join import stack
from minigrad._ops.pointwise import where
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


def _dims(dim, ndim):
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    wrapped = [_wrap_dim(d, ndim) for d in dims]
    for i, d in enumerate(wrapped):
        if d in wrapped[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(wrapped)) if ndim else ()  # a 0-d tensor: its one element, as it is


def sum(input, dim=None, keepdim=False, *, dtype=None):
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is nan, silently as in torch
        return _sum(input, dim, keepdim, dtype)


def _sum(input, dim, keepdim, dtype):
    x = input  # with dtype=, torch casts inside the reduction: still one node, on the input
    data = x._data if dtype is None else x._data.astype(dtype.numpy)
    if data.dtype == np.bool_ or (data.dtype.kind in "iu" and data.dtype != np.int64):
        data = data.astype(np.int64)
    if dim is None:
        return record(np.asarray(data.sum(), dtype=data.dtype), SumBackward0, (x,),
                      self_shape=x._data.shape)
    dims = _dims(dim, data.ndim)
    out = data.sum(axis=dims, keepdims=keepdim).astype(data.dtype, copy=False)
    return record(out, SumBackward1, (x,), self_shape=x._data.shape, dim=dims,
                  keepdim=keepdim)


class SumBackward0(Node):
    def backward(self, grad):
        return grad.expand(*self.self_shape)

    def jvp(self, t):
        return t.sum()


class SumBackward1(Node):
    """sum over ``dim``: put the reduced dims back, then expand."""

    def backward(self, grad):
        return _unreduce(grad, self.dim, self.keepdim, self.self_shape)

    def jvp(self, t):
        return t.sum(self.dim, keepdim=self.keepdim)


def _unreduce(grad, dims, keepdim, shape):
    if not keepdim:
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
    return grad.expand(*shape)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    with np.errstate(invalid="ignore", over="ignore"):
        return _mean(input, dim, keepdim, dtype)


def _mean(input, dim, keepdim, dtype):
    x = input  # with dtype=, torch casts inside the reduction: still one node, on the input
    d = x.dtype if dtype is None else dtype
    if not d.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {d.legacy_name.removesuffix('Tensor')}")
    data = x._data if dtype is None else x._data.astype(dtype.numpy)
    if dim is None:
        return record(np.asarray(data.mean(), dtype=data.dtype), MeanBackward0, (x,),
                      self_shape=data.shape, numel=data.size)
    dims = _dims(dim, data.ndim)
    out = data.mean(axis=dims, keepdims=keepdim).astype(data.dtype, copy=False)
    count = int(np.prod([data.shape[d] for d in dims]))
    return record(out, MeanBackward1, (x,), self_shape=data.shape, dim=dims,
                  keepdim=keepdim, count=count)


class MeanBackward0(Node):
    def backward(self, grad):
        return grad.expand(*self.self_shape) / self.numel

    def jvp(self, t):
        return t.mean()


class MeanBackward1(Node):
    def backward(self, grad):
        return _unreduce(grad, self.dim, self.keepdim, self.self_shape) / self.count

    def jvp(self, t):
        return t.mean(self.dim, keepdim=self.keepdim)


class MaxResult(tuple):
    """``values, indices`` as torch's named tuple ``torch.return_types.max``."""

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self) -> str:
        return (f"minigrad.return_types.{self._name}(\nvalues={self[0]!r},\n"
                f"indices={self[1]!r})")


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
    idx = np.expand_dims(np_arg(data, axis=d), d) if data.ndim else np.asarray(0)
    values = np.take_along_axis(data, idx, axis=d) if data.ndim else data.copy()
    if not keepdim and data.ndim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    indices = Tensor._make(idx.astype(np.int64))
    out = record(values, dim_node, (input,), save={"indices": indices}, dim=d,
                 keepdim=keepdim, self_shape=data.shape)
    result = MaxResult((out, indices))
    result._name = name
    return result


def max(input, dim=None, keepdim=False):
    return _extreme(input, dim, keepdim, np.max, np.argmax, MaxBackward1, MaxBackward0, "max")


def min(input, dim=None, keepdim=False):
    return _extreme(input, dim, keepdim, np.min, np.argmin, MinBackward1, MinBackward0, "min")


class MaxBackward1(Node):
    """max of all elements: the gradient is shared evenly between tied maxima."""

    def backward(self, grad):
        """torch's evenly_distribute_backward: a zero tensor filled at the ties, so the
        other elements get +0 whatever the gradient's sign."""
        mask = self.saved("self") == self.saved("result")
        return where(mask, grad / mask.sum(), 0.0)

    def jvp(self, t):
        """Ties share the tangent evenly, matching the backward's even split."""
        mask = self.inputs[0] == self.result
        return (t * mask).sum() / mask.sum()


class MinBackward1(MaxBackward1):
    """min of all elements"""


class MaxBackward0(Node):
    """max along ``dim``: the gradient goes to the index that was picked."""

    def backward(self, grad):
        if not self.self_shape:  # a 0-d input: its one element was picked
            return grad
        idx = self.saved("indices")
        if not self.keepdim:
            grad, idx = grad.unsqueeze(self.dim), idx.unsqueeze(self.dim)
        return grad.new_zeros(self.self_shape).scatter(self.dim, idx, grad)

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


def argmax(input, dim=None, keepdim=False):
    if dim is None:
        return Tensor._make(np.asarray(np.argmax(input._data), dtype=np.int64))
    return max(input, dim, keepdim)[1]


def prod(input, dim=None, keepdim=False):
    data = input._data
    if data.dtype == np.bool_ or (data.dtype.kind in "iu" and data.dtype != np.int64):
        data = data.astype(np.int64)
    if dim is None:
        return record(np.asarray(data.prod(), dtype=data.dtype), ProdBackward0, (input,),
                      save={"self": input}, output_name="result")
    d = _wrap_dim(dim, data.ndim)
    out = data.prod(axis=d, keepdims=keepdim) if data.ndim else data.copy()
    return record(out, ProdBackward1, (input,), save={"self": input}, output_name="result",
                  dim=d, keepdim=keepdim)


class ProdBackward0(Node):
    """prod of all elements: each gets the product of all the others."""

    def backward(self, grad):
        x = self.saved("self")
        if not grad_mode.is_grad_enabled() and np.count_nonzero(x._data == 0) > 1:
            return x.new_zeros(x.shape)  # torch's shortcut: every gradient is +0
        return grad * _others_product(x.reshape(-1), self.saved("result"), 0).view_as(x)

    def jvp(self, t):
        x = self.inputs[0]
        return (t * _others_product(x.reshape(-1), self.result, 0).view_as(x)).sum()


class ProdBackward1(Node):
    """prod along ``dim``: each element gets the product of the others along ``dim``."""

    def backward(self, grad):
        x, result = self.saved("self"), self.saved("result")
        if x.dim() and not self.keepdim:
            grad, result = grad.unsqueeze(self.dim), result.unsqueeze(self.dim)
        return grad * _others_product(x, result, self.dim)

    def jvp(self, t):
        x, result = self.inputs[0], self.result
        if x.dim() and not self.keepdim:
            result = result.unsqueeze(self.dim)
        return (t * _others_product(x, result, self.dim)).sum(self.dim, keepdim=self.keepdim)


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
