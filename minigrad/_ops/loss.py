"""``binary_cross_entropy``: torch's fused loss on probabilities, one node, and its backward op.

torch computes ``(target - 1) * max(log(1 - input), -100) - target * max(log(input), -100)``
in one kernel (aten/src/ATen/native/Loss.cpp), refusing inputs or targets outside [0, 1]; the
clamp at -100 keeps a probability of exactly 0 or 1 finite (a loss of 100, not inf). It records
one node, ``BinaryCrossEntropyBackward0``. The gradient for the input is an op of its own
(``binary_cross_entropy_backward``, ``(input - target) / max(input (1 - input), 1e-12)``),
so a gradient taken with ``create_graph`` is one ``BinaryCrossEntropyBackwardBackward0`` node,
whose backward is torch's double-backward formulas (tools/autograd/derivatives.yaml,
torch/csrc/autograd/FunctionsManual.cpp). ``weight`` is a constant: saved, but no edge.
"""

from __future__ import annotations

import numpy as np

from minigrad._numeric import quietly
from minigrad._ops._core import record
from minigrad._ops.linalg import _short
from minigrad._ops.nn_ops import reduce_loss
from minigrad._ops.pointwise import div_scalar
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node

_REDUCTIONS = ("none", "mean", "sum")
EPSILON = 1e-12  # the double-backward formulas' eps
# the backward kernel's floor of input * (1 - input): a C float constant 1e-12, so in float64
# it is float32's nearest value, 9.99999996e-13
BACKWARD_FLOOR = float(np.float32(1e-12))


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """The loss of probabilities ``input`` against ``target`` (both in [0, 1]), times
    ``weight`` (already expanded to the target's shape), then reduced."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if weight is not None and weight.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("The function 'binary_cross_entropy' is not differentiable with "
                           "respect to argument 'weight'. This input cannot have requires_grad "
                           "True.")
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {_short(target.dtype).capitalize()} but expected "
                           f"{_short(input.dtype).capitalize()}")
    x, t = input._data, target._data
    if not ((x >= 0) & (x <= 1)).all():
        raise RuntimeError("all elements of input should be between 0 and 1")
    if not ((t >= 0) & (t <= 1)).all():
        raise RuntimeError("all elements of target should be between 0 and 1")
    one, floor = x.dtype.type(1), x.dtype.type(-100)
    # torch's scalar kernel: the C library's log and log1p, each clamped at -100
    log_x = np.maximum(_log(np.log, x), floor)
    log_1mx = np.maximum(_log(np.log1p, quietly(np.negative, x)), floor)
    loss = quietly(lambda: (t - one) * log_1mx - t * log_x)
    if weight is not None:  # loss.mul_(weight): in the common dtype, rounded to the loss's
        loss = quietly(np.multiply, loss, weight._data).astype(loss.dtype)
    return record(np.asarray(reduce_loss(loss, reduction)), BinaryCrossEntropyBackward0,
                  (input, target), save={"self": input, "target": target, "weight": weight},
                  reduction=reduction)


def _log(fn, x: np.ndarray):
    """``fn(x)`` in float64, rounded once to ``x``'s dtype (the C library's float log is
    correctly rounded; NumPy's float32 one may be an ulp off)."""
    return quietly(fn, x.astype(np.float64)).astype(x.dtype)


class BinaryCrossEntropyBackward0(Node):
    """out = reduce(weight ((target - 1) log(1 - self) - target log(self)))
    d/dself = weight (self - target) / max(self (1 - self), 1e-12)  (an op: see below)
    d/dtarget = weight (log(1 - self) - log(self)), i.e. -logit(self)
    (each divided by numel for a mean)."""

    def backward(self, grad):
        x, target = self.saved("self"), self.saved("target")
        weight = self.saved("weight") if self._find_saved("weight") is not None else None
        g_self = g_target = None
        if self.needs_input_grad[0]:
            g_self = binary_cross_entropy_backward(grad, x, target, weight, self.reduction)
        if self.needs_input_grad[1]:
            g_target = _target_backward(grad, x, weight, self.reduction)
        return g_self, g_target

    def jvp(self, t_self, t_target):
        x, target = self.inputs
        terms = []
        if t_self is not None:
            terms.append(binary_cross_entropy_backward(t_self, x, target, self.weight, "none"))
        if t_target is not None:
            terms.append(_target_backward(t_target, x, self.weight, "none"))
        total = terms[0] if len(terms) == 1 else terms[0] + terms[1]
        if self.reduction == "mean":
            return total.mean()
        return total.sum() if self.reduction == "sum" else total


def _weight_like(weight, x):
    """``t *= weight`` keeps ``t``'s dtype: the weight as ``x``'s dtype."""
    return weight if weight is None or weight.dtype is x.dtype else weight.to(x.dtype)


def _target_backward(grad, x, weight, reduction):
    """torch's binary_cross_entropy_target_backward: -logit(self) * grad, weighted, / numel."""
    g = -_logit(x) * grad
    weight = _weight_like(weight, x)
    if weight is not None:
        g = g * weight
    return div_scalar(g, x.numel()) if reduction == "mean" else g


def _logit(input):
    """``log(x / (1 - x))``, recorded as torch's ``LogitBackward0`` (the op torch's formula for
    the target's gradient calls; minigrad has no public ``logit``)."""
    x = input._data
    data = quietly(lambda: np.log(x / (x.dtype.type(1) - x)))
    return record(data, LogitBackward0, (input,), save={"self": input})


class LogitBackward0(Node):
    """out = log(self / (1 - self)); d/dself = 1 / (self (1 - self))"""

    def backward(self, grad):
        x = self.saved("self")
        return grad / (x * (1 - x))

    def jvp(self, t):
        x = self.inputs[0]
        return t / (x * (1 - x))


def binary_cross_entropy_backward(grad_output, input, target, weight=None, reduction="mean"):
    """``grad_output * (input - target) / max((1 - input) * input, 1e-12)``, times ``weight``,
    divided by numel for a mean: the loss's gradient, an op of its own as in torch."""
    g, x, t = grad_output._data, input._data, target._data
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        data = g * (x - t) / np.maximum((one - x) * x, x.dtype.type(BACKWARD_FLOOR))
        if weight is not None:
            data = (data * weight._data).astype(x.dtype)
        if reduction == "mean":
            data = data / np.asarray(x.size, dtype=x.dtype)
    return record(np.asarray(data, dtype=x.dtype), BinaryCrossEntropyBackwardBackward0,
                  (grad_output, input, target),
                  save={"grad_output": grad_output, "self": input, "target": target,
                        "weight": weight}, reduction=reduction)


class BinaryCrossEntropyBackwardBackward0(Node):
    """out = g w (self - target) / max(self (1 - self), 1e-12) (/ numel for a mean), with
    torch's double-backward formulas (which write the floor as ``+ eps`` instead):
    d/dg = w (self - target) / ((self + eps)(1 - self + eps)), summed for a reduced loss;
    d/dself = g w (self^2 - 2 self target + target) / ((self + eps)^2 (1 - self + eps)^2);
    d/dtarget = -g w / max(self (1 - self), eps)."""

    def backward(self, v):
        g, x, target = (self.saved(k) for k in ("grad_output", "self", "target"))
        weight = self.saved("weight") if self._find_saved("weight") is not None else None
        return (_dd_grad_output(v, x, target, weight, self.reduction)
                if self.needs_input_grad[0] else None,
                _dd_self(g, v, x, target, weight, self.reduction)
                if self.needs_input_grad[1] else None,
                _dd_target(v, g, x, weight, self.reduction)
                if self.needs_input_grad[2] else None)

    def jvp(self, t_g, t_x, t_t):
        g, x, target = self.inputs
        terms = []
        if t_x is not None:
            terms.append(_dd_self(g, t_x, x, target, self.weight, self.reduction))
        if t_t is not None:
            terms.append(_dd_target(t_t, g, x, self.weight, self.reduction))
        if t_g is not None:
            terms.append(binary_cross_entropy_backward(t_g, x, target, self.weight,
                                                       self.reduction))
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        return total


def _dd_self(grad_output, grad, x, target, weight, reduction):
    weight = _weight_like(weight, x)
    gi = (x * x - 2 * x * target + target) / ((x + EPSILON).pow(2) * (1 - x + EPSILON).pow(2))
    gi = gi * (grad * grad_output)
    if weight is not None:
        gi = gi * weight
    return div_scalar(gi, x.numel()) if reduction == "mean" else gi


def _dd_grad_output(grad, x, target, weight, reduction):
    weight = _weight_like(weight, x)
    ggo = (x - target) / ((x + EPSILON) * (1 - x + EPSILON)) * grad
    if weight is not None:
        ggo = ggo * weight
    if reduction == "mean":
        return div_scalar(ggo.sum(), x.numel())
    return ggo.sum() if reduction == "sum" else ggo


def _dd_target(grad, grad_output, x, weight, reduction):
    weight = _weight_like(weight, x)
    res = -grad * grad_output
    if weight is not None:
        res = res * weight
    with grad_mode.no_grad():
        denom = ((1 - x) * x).clamp_min(EPSILON)
    res = res / denom
    return div_scalar(res, x.numel()) if reduction == "mean" else res
