"""Scans: cumsum and cumprod, the running sum and product along one dim; cummax and cummin,
the running extremes (with their indices); logcumsumexp.

Their gradients run the scan backwards: element ``k`` of ``cumsum`` feeds every output from
``k`` on, so its gradient is the sum of the output gradients from ``k`` to the end (a reversed
cumsum). For ``cumprod`` each output ``i`` is the product of the inputs up to ``i``; torch
divides by the input where no input is 0, and otherwise uses the products that leave one
element out, which never divide (as ``prod`` does).
"""

from __future__ import annotations

import numpy as np

from minigrad import return_types
from minigrad._numeric import cast
from minigrad._ops import pointwise as P
from minigrad._ops._args import parses
from minigrad._ops._core import fused, record
from minigrad._ops.join import cat, stack
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


def _scan_input(input, dim, dtype):
    data = input._data if dtype is None else cast(input._data, dtype.numpy)
    if data.dtype == np.bool_ or (data.dtype.kind in "iu" and data.dtype != np.int64):
        data = data.astype(np.int64)  # integers add up in int64, as in torch
    return data, _wrap_dim(dim, data.ndim)


def scan(np_fn, data, dim):
    """A running sum or product along ``dim``. torch's CPU kernel accumulates floats in its
    acc_type, double (float for float16), and rounds each result once: a float32 cumsum of
    many terms is then exact to the last digit, where NumPy's float32 running sum drifts."""
    if not data.ndim:
        return data.copy()
    acc = (np.float32 if data.dtype == np.float16 else np.float64) if data.dtype.kind == "f" \
        else data.dtype
    with np.errstate(all="ignore"):  # overflow to inf is a value, as in torch
        out = cast(np_fn(data, dim, acc), data.dtype)  # (float16 from double as torch)
    return np.ascontiguousarray(out)  # row-major whatever the input's layout, as torch's


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


# --- cummax, cummin: running extremes ------------------------------------------------------------
def _running_extreme(data, d, better):
    """The running max (or min) along ``d`` and where it was found, as torch's kernel: an
    element replaces the running value when it is nan or ``better`` (ties: the later index);
    once nan, the value stays nan (a later nan moves the index)."""
    values, indices = np.empty_like(data), np.empty(data.shape, np.int64)
    if data.ndim == 0:
        return data.copy(), np.zeros((), np.int64)
    moved_v, moved_i, src = (np.moveaxis(a, d, 0) for a in (values, indices, data))
    with np.errstate(invalid="ignore"):
        for i in range(src.shape[0]):
            x = src[i]
            if i == 0:
                moved_v[0], moved_i[0] = x, 0
                continue
            out = moved_v[i - 1]
            take = better(x, out)
            if data.dtype.kind in "fc":
                take = np.isnan(x) | (~np.isnan(out) & take)
            moved_v[i] = np.where(take, x, out)
            moved_i[i] = np.where(take, i, moved_i[i - 1])
    return values, indices


def _cum_extreme(input, dim, better, node_cls, name):
    d = _wrap_dim(dim, input.dim())
    # row-major whatever the input's layout, as torch writes them
    values, indices = (np.asarray(a, order="C") for a in _running_extreme(input._data, d, better))
    indices = Tensor._make(indices)
    out = record(values, node_cls, (input,), save={"self": input, "indices": indices}, dim=d,
                 dim_arg=dim, indices=indices)
    return getattr(return_types, name)((out, indices))


@parses('cummax(Tensor input, int dim, *, tuple of Tensors out = None)')
def cummax(input, dim):
    """The running maximum along ``dim`` and the index where each was found (a named tuple
    ``(values, indices)``, as ``max(dim)``)."""
    return _cum_extreme(input, dim, np.greater_equal, CummaxBackward0, "cummax")


@parses('cummin(Tensor input, int dim, *, tuple of Tensors out = None)')
def cummin(input, dim):
    return _cum_extreme(input, dim, np.less_equal, CumminBackward0, "cummin")


class CummaxBackward0(Node):
    """Each output's gradient goes to the input it copied: torch's cummaxmin_backward,
    ``zeros.scatter_add(dim, indices, grad)``."""

    def backward(self, grad):
        x = self.saved("self")
        if x.numel() == 0:
            return x
        return grad.new_zeros(x.shape).scatter_add(self.dim_arg, self.saved("indices"), grad)

    def jvp(self, t):
        return t.gather(self.dim, self.indices)


class CumminBackward0(CummaxBackward0):
    pass


# --- logcumsumexp ------------------------------------------------------------------------------
def _log_add_exp(x, y):
    """torch's _log_add_exp_helper: ``max + log1p(exp(min - max))``, or ``x`` when both are
    the same infinity."""
    low, high = np.minimum(x, y), np.maximum(x, y)
    with np.errstate(all="ignore"):
        general = np.log1p(np.exp(low - high)) + high
    return np.where((low != high) | np.isfinite(low), general, x)


@parses('logcumsumexp(Tensor input, int dim, *, Tensor out = None)')
def logcumsumexp(input, dim):
    """``log(cumsum(exp(x)))`` along ``dim`` without overflow; accumulated in double and
    rounded once per output, as torch's CPU kernel."""
    d = _wrap_dim(dim, input.dim())  # (checked first, as torch)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for "
                                  f"'{input.dtype.scalar_name}'")
    data = input._data
    if data.ndim == 0:
        out = data.copy()
    else:
        wide = np.moveaxis(data.astype(np.float64), d, 0)
        acc = np.full(wide.shape[1:], -np.inf)
        result = np.empty_like(wide)
        for i in range(wide.shape[0]):
            acc = _log_add_exp(wide[i], acc)
            result[i] = acc
        out = np.ascontiguousarray(np.moveaxis(result, 0, d)).astype(data.dtype)
    return record(out, LogcumsumexpBackward0, (input,), save={"self": input},
                  output_name="result", dim=d, dim_arg=dim)


class LogcumsumexpBackward0(Node):
    """torch's logcumsumexp_backward: the positive and the negative parts of ``grad`` each
    run through a reversed logcumsumexp in log space, so nothing overflows."""

    def backward(self, grad):
        if grad.dim() == 0 or grad.numel() == 0:
            return grad
        x, result, d = self.saved("self"), self.saved("result"), self.dim_arg
        lowest = Tensor._make(np.asarray(np.finfo(grad._data.dtype).min, grad._data.dtype))
        log_abs_grad = grad.abs().log()
        positive = P.where(grad > 0, log_abs_grad, lowest)
        negative = P.where(grad < 0, log_abs_grad, lowest)

        def reverse(t):
            return t.flip(d).logcumsumexp(d).flip(d)

        return (reverse(positive - result) + x).exp() - (reverse(negative - result) + x).exp()

    def jvp(self, t):
        x, d = self.inputs[0], self.dim
        e = (x - x.amax(d, True)).exp() if x.numel() else x.exp()
        return (e * t).cumsum(d) / e.cumsum(d)
