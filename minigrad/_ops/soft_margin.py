"""``soft_margin_loss``: ``log(1 + exp(-target * input))``, a smooth hinge for labels of +1 and
-1, one fused node as in torch (``SoftMarginLossBackward0``).

Its gradient is an op of its own, ``soft_margin_loss_backward`` (``-norm * target * z / (1 +
z) * grad`` with ``z = exp(-target * input)``), so a gradient taken with ``create_graph`` records
``SoftMarginLossBackwardBackward0``, whose backward is torch's
``soft_margin_loss_double_backward``, composed from ops. torch differentiates neither with
respect to the target (the forward refuses a target that requires grad), and has no
forward-mode rule for the backward op. Each step is rounded to the input's dtype, as torch's
kernels run them one by one (neg, mul, exp, log1p).
"""

from __future__ import annotations

import numpy as np

from minigrad._numeric import quietly
from minigrad._ops._core import check_same_shape_broadcast, record
from minigrad._ops.distance import _no_forward_ad
from minigrad._ops.linalg import _short
from minigrad._ops.nn_ops import reduce_loss
from minigrad._ops.pointwise import _like_torch, add_scalar, div_scalar
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node

_exp, _log1p = _like_torch(np.exp), _like_torch(np.log1p)


def _z(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``exp(-target * input)`` in the input's dtype."""
    return quietly(_exp, (-x * t.astype(x.dtype)).astype(x.dtype))


def _check(input, target):
    if target.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect "
                           "to argument 'target'. This input cannot have requires_grad True.")
    if not input.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{_short(input.dtype).capitalize()}")
    check_same_shape_broadcast(input._data, target._data)
    shape = np.broadcast_shapes(input.shape, target.shape)
    if shape != tuple(input.shape):
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")


def soft_margin_loss(input, target, reduction="mean"):
    _check(input, target)
    x = input._data
    loss = quietly(_log1p, _z(x, target._data))
    return record(np.asarray(reduce_loss(np.asarray(loss, dtype=x.dtype), reduction)),
                  SoftMarginLossBackward0, (input,),
                  save={"self": input, "target": target}, reduction=reduction)


class SoftMarginLossBackward0(Node):
    """out = reduce(log(1 + exp(-target * self)))"""

    def backward(self, grad):
        return soft_margin_loss_backward(grad, self.saved("self"), self.saved("target"),
                                         self.reduction)

    def jvp(self, t):
        x, target = self.inputs[0], self.target
        each = soft_margin_loss_backward(t, x, target, "none")
        if self.reduction == "mean":
            return each.mean()
        return each.sum() if self.reduction == "sum" else each


def soft_margin_loss_backward(grad_output, input, target, reduction):
    """``-norm * target * z / (1 + z) * grad``, rounded as torch's kernel: ``target * z``,
    times ``-norm``, over ``z + 1``, times the gradient."""
    x, t, g = input._data, target._data.astype(input._data.dtype), grad_output._data
    norm = x.dtype.type(1 / max(x.size, 1) if reduction == "mean" else 1)
    z = _z(x, t)
    with np.errstate(all="ignore"):
        data = (t * z) * -norm / (z + x.dtype.type(1)) * g
    return record(np.asarray(data, dtype=x.dtype), SoftMarginLossBackwardBackward0,
                  (grad_output, input),
                  save={"grad_output": grad_output, "self": input, "target": target},
                  reduction=reduction)


class SoftMarginLossBackwardBackward0(Node):
    """out = -norm target z / (1 + z) grad_output: linear in grad_output; in self, torch's
    soft_margin_loss_double_backward."""

    def backward(self, w):
        g, x, target = (self.saved(k) for k in ("grad_output", "self", "target"))
        g_g = None
        if self.needs_input_grad[0]:  # torch's soft_margin_loss_double_backward_grad_output
            if self.reduction == "none":
                g_g = soft_margin_loss_backward(w, x, target, self.reduction)
            else:
                ones = g.new_zeros(g.shape) + 1
                g_g = (soft_margin_loss_backward(ones, x, target, self.reduction) * w).sum()
        g_x = _double_backward(w * g, x, target, self.reduction) \
            if self.needs_input_grad[1] else None
        return g_g, g_x

    def jvp(self, t_g, t_x):
        _no_forward_ad("soft_margin_loss_backward")


def _double_backward(grad, x, target, reduction):
    z = (x * -target).exp()
    zplus1 = add_scalar(z, 1)
    grad_in = grad * (target * target) * z / (zplus1 * zplus1)
    return div_scalar(grad_in, x.numel()) if reduction == "mean" else grad_in
