"""``multi_margin_loss``: the multi-class hinge loss, one fused node as in torch
(``MultiMarginLossBackward0``). For a sample of class ``y``, the mean over the other classes
``j`` of ``weight[y] * max(0, margin - x[y] + x[j]) ** p`` (p is 1 or 2).

Its gradient is torch's ``multi_margin_loss_backward`` kernel, an op torch cannot
differentiate again (its result records ``NotImplemented``), and there is no forward-mode
rule.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._ops._core import fused, record
from minigrad._ops.distance import _no_forward_ad
from minigrad._ops.linalg import _short
from minigrad._ops.pointwise import _not_differentiable
from minigrad._tensor import Tensor
from minigrad.autograd.graph import Node


def _rows(input, target, weight):
    x = input._data
    if x.ndim > 2 or x.size == 0 and x.ndim != 2:
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, "
                           f"but got: {list(x.shape)}")
    if not input.dtype.is_floating_point or input.dtype is _dtype.float16:  # no such kernel
        raise NotImplementedError("\"multi_margin_loss_cpu_kernel\" not implemented for "
                                  f"'{_short(input.dtype).capitalize()}'")
    rows = x.reshape(1, -1) if x.ndim < 2 else x
    n = rows.shape[0]
    t = target._data.reshape(-1) if target.dim() <= 1 else target._data
    if target.dim() > 1 or t.size != n:
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to "
                           "the number of input samples (batch size). Expected target size "
                           f"[{n}], but got {list(target.shape)}. Input has shape "
                           f"{list(x.shape)}.")
    if target.dtype.name != "int64":
        raise RuntimeError(f"expected scalar type Long but found "
                           f"{_short(target.dtype).capitalize()}")
    if weight is not None:
        if weight.numel() != rows.shape[1]:
            raise RuntimeError(f"inconsistent weight size, expected {rows.shape[1]} but got "
                               f"{list(weight.shape)}")
        if weight.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar type {_short(input.dtype).capitalize()} but "
                               f"found {_short(weight.dtype).capitalize()}")
    if t.size and (t.min() < 0 or t.max() >= rows.shape[1]):
        raise RuntimeError("target out of range")
    return rows, t.astype(np.int64)


def _margins(rows, t, margin):
    """``margin - x[y] + x[j]`` for every class ``j`` (the target's own column left out)."""
    picked = np.take_along_axis(rows, t[:, None], axis=1)
    z = rows.dtype.type(margin) - picked + rows
    others = np.ones(rows.shape, dtype=bool)
    others[np.arange(rows.shape[0]), t] = False
    return z, others


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, reduction="mean"):
    rows, t = _rows(input, target, weight)
    z, others = _margins(rows, t, margin)
    with np.errstate(all="ignore"):
        h = np.where(others & (z > 0), z if p == 1 else z * z, 0).astype(rows.dtype)
        if weight is not None:
            h = h * weight._data.reshape(-1)[t][:, None]
        per_sample = h.sum(axis=1) / rows.dtype.type(rows.shape[1])
    if reduction == "none":
        out = per_sample if target.dim() > 0 else per_sample.reshape(())
    elif reduction == "sum":
        out = per_sample.sum()
    else:
        out = per_sample.sum() / rows.dtype.type(rows.shape[0])
    return record(np.asarray(out, dtype=rows.dtype), MultiMarginLossBackward0, (input,),
                  save={"self": input, "target": target, "weight": weight}, p=p,
                  margin=float(margin), reduction=reduction)


class MultiMarginLossBackward0(Node):
    """out = mean over the other classes of weight[y] max(0, margin - x[y] + x[j]) ** p"""

    def backward(self, grad):
        weight = self.saved("weight") if self._find_saved("weight") is not None else None
        return multi_margin_loss_backward(grad, self.saved("self"), self.saved("target"),
                                          self.p, self.margin, weight, self.reduction)

    def jvp(self, t):
        _no_forward_ad("multi_margin_loss")


def multi_margin_loss_backward(grad_output, input, target, p, margin, weight, reduction):
    """torch's kernel: ``h = g`` (``2 g z`` for p = 2) times weight[y] where ``z > 0``, for
    each other class, minus their sum at the target; ``g`` is ``1 / C`` (``1 / (N C)`` for a
    mean), then times the incoming gradient."""
    rows, t = _rows(input, target, weight)
    z, others = _margins(rows, t, margin)
    n, c = rows.shape
    g = rows.dtype.type(1 / (n * c) if reduction == "mean" else 1 / c)
    with np.errstate(all="ignore"):
        h = np.where(others & (z > 0), g if p == 1 else 2 * g * z, 0).astype(rows.dtype)
        if weight is not None:
            h = h * weight._data.reshape(-1)[t][:, None]
        # torch's kernel subtracts each h from a +0 in class order: +0 (not -0) for a
        # sample with no active margin, and its rounding
        at_target = np.zeros(n, dtype=rows.dtype)
        for d in range(c):
            at_target = at_target - h[:, d]
        h[np.arange(n), t] = at_target
        go = grad_output._data
        h = h * (go.reshape(-1, 1) if reduction == "none" else go)
    data = np.asarray(h.reshape(input.shape), dtype=rows.dtype)
    if fused():
        return Tensor._make(data)
    return _not_differentiable(data, (input,), "multi_margin_loss_backward")
