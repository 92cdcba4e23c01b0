"""Scans: cumsum and cumprod, the running sum and product along one dim.

Their gradients run the scan backwards: element ``k`` of ``cumsum`` feeds every output from
``k`` on, so its gradient is the sum of the output gradients from ``k`` to the end (a reversed
cumsum). For ``cumprod`` each output ``i`` is the product of the inputs up to ``i``; torch
divides by the input where no input is 0, and otherwise uses the products that leave one
element out, which never divide (as ``prod`` does).
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._args import parses
from minigrad._ops._core import fused, record
from minigrad._ops.join import cat, stack
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


def _scan_input(input, dim, dtype):
    data = input._data if dtype is None else input._data.astype(dtype.numpy)
    if data.dtype == np.bool_ or (data.dtype.kind in "iu" and data.dtype != np.int64):
        data = data.astype(np.int64)  # integers add up in int64, as in torch
    return data, _wrap_dim(dim, data.ndim)


def scan(np_fn, data, dim):
    """A running sum or product along ``dim``. torch's CPU kernel accumulates floats in
    double and rounds each result once: a float32 cumsum of many terms is then exact to the
    last digit, where NumPy's float32 running sum drifts."""
    if not data.ndim:
        return data.copy()
    acc = np.float64 if data.dtype.kind == "f" else data.dtype
    with np.errstate(all="ignore"):  # overflow to inf is a value, as in torch
        return np_fn(data, dim, acc).astype(data.dtype, copy=False)


@parses('cumsum(Tensor input, int dim, *, torch.dtype? dtype = None, Tensor out = None)')
def cumsum(input, dim, *, dtype=None):
    data, d = _scan_input(input, dim, dtype)
    return record(scan(np.cumsum, data, d), CumsumBackward0, (input,), dim=d,
                  dim_arg=dim)


def reversed_cumsum(t, dim):
    """``out[k] = sum(t[k:])`` along ``dim``: cumsum's backward."""
    if t.dim() == 0 or t.shape[dim] == 1:
        return t
    if fused():
        return Tensor._make(np.ascontiguousarray(np.flip(scan(np.cumsum, np.flip(t._data, dim),
                                                              dim), dim)))
    return t.flip(dim).cumsum(dim).flip(dim)


class CumsumBackward0(Node):
    """out[i] = sum(self[:i + 1]) along dim"""

    def backward(self, grad):
        return reversed_cumsum(grad, self.dim_arg)  # the dim as given, as torch passes it

    def jvp(self, t):
        return t.cumsum(self.dim)


@parses('cumprod(Tensor input, int dim, *, torch.dtype? dtype = None, Tensor out = None)')
def cumprod(input, dim, *, dtype=None):
    data, d = _scan_input(input, dim, dtype)
    return record(scan(np.cumprod, data, d), CumprodBackward0, (input,),
                  save={"self": input}, output_name="result", dim=d, dim_arg=dim)


def _leave_one_out(x, dim):
    """``P[k][i] = prod(x[j] for j <= i, j != k)`` for ``k <= i`` along ``dim``: how output
    ``i`` changes with input ``k``, without dividing by a zero input."""
    items = x.unbind(dim)
    table, before = [], items[0].new_zeros(items[0].shape) + 1  # before: prod of x[:k]
    for k in range(len(items)):
        row, running = [], before
        for i in range(k, len(items)):
            if i > k:
                running = running * items[i]
            row.append(running)
        table.append(row)
        before = before * items[k]
    return table


class CumprodBackward0(Node):
    """out[i] = prod(self[:i + 1]) along dim"""

    def backward(self, grad):
        x, d = self.saved("self"), self.dim
        if x.numel() <= 1 or x.shape[d] == 1:
            return grad
        if not (x._data == 0).any():
            return reversed_cumsum(self.saved("result") * grad, d) / x
        if grad_mode.is_grad_enabled():  # create_graph: torch's differentiable formula
            return _cumprod_backward_with_zeros(grad, x, d)
        return _cumprod_backward_first_zero(grad, x, self.saved("result"), d)

    def jvp(self, t):
        x, d = self.inputs[0], self.dim
        if x.numel() <= 1 or x.shape[d] == 1:
            return t
        if not (x._data == 0).any():
            return self.result * (t / x).cumsum(d)
        table, ts = _leave_one_out(x, d), t.unbind(d)
        n = len(ts)
        return stack([_sum(ts[k] * table[k][i - k] for k in range(i + 1)) for i in range(n)], d)


def _cumprod_backward_first_zero(grad, x, result, d):
    """torch's O(n) cumprod_backward (no create_graph) when an input is 0, on the arrays.

    Along ``d``: before the first zero, the formula that divides by the input; at the first
    zero, the output gradients up to the second zero times the products that leave it out;
    after it, nothing is written into torch's zeros. So those places are ``+0``, never the
    ``-0`` (or ``nan``, with an ``inf`` input) that a product leaving one input out can give."""
    g, xv, out = grad._data, x._data, result._data
    count = np.cumsum(xv == 0, axis=d)
    before, upto_second = count == 0, count == 1
    first = np.expand_dims(np.argmax(upto_second, axis=d), d)
    first_zero = np.zeros_like(upto_second)
    np.put_along_axis(first_zero, first, True, axis=d)
    first_zero &= upto_second
    after = upto_second & ~first_zero
    with np.errstate(all="ignore"):
        w = np.where(before, out * g, 0).astype(g.dtype)
        grad_input = np.where(before, np.flip(scan(np.cumsum, np.flip(w, d), d), d) / xv, 0)
        left_out = scan(np.cumprod, np.where(after, xv, 1).astype(xv.dtype), d)
        at_zero = (left_out * np.where(upto_second, g, 0)).sum(d, keepdims=True)
        prev = np.take_along_axis(out, np.maximum(first - 1, 0), axis=d)
        at_zero = at_zero * np.where(first == 0, 1, prev)
    return Tensor._make(np.where(first_zero, at_zero, grad_input).astype(g.dtype))


def _cumprod_backward_with_zeros(grad, x, d):
    """torch's cumprod_backward under grad mode (create_graph) when an input is 0: for each k,
    the products of the inputs up to i that leave x[k] out, written into a zero tensor slice
    by slice (``copy_``), so that the gradient can be differentiated again."""
    n = x.shape[d]
    grad_input = grad.new_zeros(x.shape)
    ones_shape = list(x.shape)
    ones_shape[d] = 1
    ones = grad.new_zeros(ones_shape) + 1
    for k in range(n):
        if k == 0:
            omitted = cat([ones, x._slice(d, 1, None, None).cumprod(d)], d)
        elif k == n - 1:
            omitted = x._slice(d, 0, k, None).prod(d, keepdim=True)
        else:
            until = x._slice(d, 0, k, None).prod(d, keepdim=True)
            after = x._slice(d, k + 1, None, None).cumprod(d)
            omitted = cat([until, until.expand_as(after) * after], d)
        # torch's slices: x.slice(d, k + 1) has no end (_saved_end None); grad[k:] along d is
        # a SliceBackward0 even for k = 0 (narrow would skip a full slice)
        grad_input.select(d, k).copy_((grad._slice(d, k, None, None) * omitted).sum(d))
    return grad_input


def _sum(terms):
    terms = iter(terms)
    out = next(terms)
    for term in terms:
        out = out + term
    return out
