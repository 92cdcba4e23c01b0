"""``binary_cross_entropy_with_logits``: torch's fused sigmoid + binary cross-entropy, one node.

torch computes this loss in one kernel (aten/src/ATen/native/Loss.cpp) and records one node,
``BinaryCrossEntropyWithLogitsBackward0``, whose inputs are the logits and the target; the
reduction happens inside, so there is no ``MeanBackward0`` above it. Building the loss from
``sigmoid`` and ``log`` would give a different graph and would overflow for large logits, so
the forward formula, the backward and forward-mode rules (tools/autograd/derivatives.yaml) sit
here side by side. ``weight`` and ``pos_weight`` are constants to torch (it refuses ones that
require grad), so the node saves them (``_saved_weight``) but has no edge to them.
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._core import record, result_type
from minigrad._ops.linalg import _short
from minigrad._ops.pointwise import div_scalar
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node

_REDUCTIONS = ("none", "mean", "sum")


def _np_log_sigmoid(x):
    """log(sigmoid(x)) without overflow: min(x, 0) - log1p(exp(-|x|)), as torch's kernel;
    float32 (or float16) is computed in float64 and rounded once, which matches torch's
    accurate vectorised exp and log1p far better than NumPy's float32 ones."""
    wide = x.astype(np.float64, copy=False)
    return (np.minimum(wide, 0) - np.log1p(np.exp(-np.abs(wide)))).astype(x.dtype, copy=False)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction="mean"):
    """``(1 - target) * input - (1 + (pos_weight - 1) * target) * log_sigmoid(input)``, times
    ``weight``, then reduced; the result has the target's dtype, as torch's in-place kernel."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    for name, extra in (("weight", weight), ("pos_weight", pos_weight)):
        if extra is not None and extra.requires_grad and grad_mode.is_grad_enabled():
            raise RuntimeError(f"The function 'binary_cross_entropy_with_logits' is not "
                               f"differentiable with respect to argument '{name}'. This input "
                               f"cannot have requires_grad True.")
    if not target.dtype.is_floating_point:  # torch's in-place kernel writes into the target's dtype
        d = result_type(input, target, *(e for e in (weight, pos_weight) if e is not None))
        raise RuntimeError(f"result type {_dtype_name(d)} can't be cast to the desired output "
                           f"type {_dtype_name(target.dtype)}")
    x, t = input._data, target._data
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        # torch's order and dtypes: (1 - target).mul_(input) stays in the target's dtype,
        # at::log_sigmoid(input) runs in the input's, each in-place step rounds to its tensor
        loss = _inplace(1 - t, np.multiply, x)
        log_sig = _np_log_sigmoid(x)
        if pos_weight is not None:
            pw = pos_weight._data
            log_weight = (pw - np.asarray(1, pw.dtype)) * t
            log_weight = log_weight + np.asarray(1, log_weight.dtype)
            log_sig = _inplace(log_weight, np.multiply, log_sig)
        loss = _inplace(loss, np.subtract, log_sig)
        if weight is not None:
            loss = _inplace(loss, np.multiply, weight._data)
        if loss.shape != x.shape:  # a weight that broadcasts past the input
            raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast "
                               f"shape {list(loss.shape)}")
        if reduction == "sum":
            loss = loss.sum(dtype=loss.dtype)
        elif reduction == "mean":
            loss = loss.sum(dtype=loss.dtype) / np.asarray(loss.size, dtype=loss.dtype)
    return record(np.asarray(loss), BinaryCrossEntropyWithLogitsBackward0, (input, target),
                  save={"self": input, "target": target, "weight": weight,
                        "pos_weight": pos_weight}, reduction=reduction)


def _inplace(a, op, b):
    """``a.op_(b)`` as torch computes it: in the promoted dtype, rounded back to ``a``'s."""
    common = np.promote_types(a.dtype, b.dtype)
    return op(a.astype(common, copy=False), b.astype(common, copy=False)).astype(a.dtype,
                                                                                  copy=False)


def _dtype_name(d):
    return _short(d).capitalize()


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """out = reduce(weight ((1 - target) self - (1 + (pos_weight - 1) target) log_sigmoid(self)))
    d/dself = weight ((pos_weight target + 1 - target) sigmoid(self) - pos_weight target),
    d/dtarget = weight (log_sigmoid(-self) - pos_weight log_sigmoid(self)) (without
    pos_weight: sigmoid(self) - target and -self), each divided by numel for a mean
    (torch's binary_cross_entropy_with_logits_backward and ..._target_backward).

    Both are written with minigrad ops, so they are differentiable again (double backward),
    recording the nodes torch's composite formulas record."""

    def backward(self, grad):
        x, target = self.saved("self"), self.saved("target")
        weight, pos_weight = (self.saved(k) if self._find_saved(k) is not None else None
                              for k in ("weight", "pos_weight"))
        g_self = g_target = None
        if self.needs_input_grad[0]:
            g = _d_self(x, target, pos_weight) * grad
            g_self = _finish(g, weight, self.reduction, x)
        if self.needs_input_grad[1]:
            g = _d_target(x, pos_weight) * grad
            g_target = _finish(g, weight, self.reduction, target)
        return g_self, g_target

    def jvp(self, t_self, t_target):
        """derivatives.yaml's binary_cross_entropy_with_logits_jvp: the two partial
        derivatives times the tangents, weighted, then reduced like the loss."""
        x, target = self.inputs
        terms = []
        if t_self is not None:
            terms.append(_d_self(x, target, self.pos_weight) * t_self)
        if t_target is not None:
            terms.append(_d_target(x, self.pos_weight) * t_target)
        total = terms[0] if len(terms) == 1 else terms[0] + terms[1]
        if self.weight is not None:
            total = total * self.weight
        if self.reduction == "mean":
            return total.mean()
        return total.sum() if self.reduction == "sum" else total


def _log_sigmoid(x):
    """log(sigmoid(x)) from differentiable minigrad ops, stable for large |x|."""
    return x.clamp_max(0) - ((-x.abs()).exp() + 1).log()


def _d_self(x, target, pos_weight):
    if pos_weight is None:
        return x.sigmoid() - target
    t = pos_weight * target
    return (t + 1 - target) * x.sigmoid() - t


def _d_target(x, pos_weight):
    if pos_weight is None:
        return -x
    return _log_sigmoid(-x) - _log_sigmoid(x) * pos_weight


def _finish(g, weight, reduction, like):
    if weight is not None:
        g = g * weight
    if reduction == "mean":
        g = div_scalar(g, like.numel())  # DivBackward1, as torch's C++ division by a size
    return g if g.dtype is like.dtype else g.to(like.dtype)
