"""``huber_loss`` and ``smooth_l1_loss``: quadratic near zero, linear beyond, one node each.

With ``z = |input - target|``, Huber's loss is ``z^2 / 2`` below ``delta`` and
``delta (z - delta / 2)`` above; smooth L1 is the same divided by ``beta`` (``z^2 / (2 beta)``,
then ``z - beta / 2``). torch computes each in one kernel and records one node
(``HuberLossBackward0``, ``SmoothL1LossBackward0``). Their gradients are ops of their own
(``huber_loss_backward``: the error clipped to ``[-delta, delta]``; ``smooth_l1_loss_backward``:
the error over ``beta`` clipped to ``[-1, 1]``), so a gradient taken with ``create_graph``
records ``HuberLossBackwardBackward0`` or ``SmoothL1LossBackwardBackward0``, whose backward is
torch's double-backward formulas (tools/autograd/derivatives.yaml). The forward formulas and
the kernels' roundings are torch's (Loss.cpp and its CPU kernels).

The two functions here are ``torch._C._nn.huber_loss`` and ``torch._C._nn.smooth_l1_loss``,
which F.huber_loss and F.smooth_l1_loss call once the inputs are broadcast: torch's parser (a
``float`` delta or beta, the reduction as its enum) and its dtype rules, which differ.
smooth_l1_loss is a structured TensorIterator op: input and target promoted (a float input
with an integer 0-d target is fine), the result in the common dtype, and its backward
promotes too. huber_loss writes into ``empty_like(input)``: computed in the common dtype,
the result in the input's (refused when that cast is unsafe), and its backward kernel
promotes nothing: a target of another dtype is torch's "Found dtype" error there.
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._args import parses
from minigrad._ops._core import common_data, record, result_type
from minigrad._ops.nn_ops import reduce_loss
from minigrad._ops.pointwise import div_scalar
from minigrad._ops.queries import can_cast
from minigrad.autograd.graph import Node

_REDUCTIONS = ("none", "mean", "sum")


def _kernel_dtype(name, common):
    """The dtype TensorIterator computes in (the operands' promoted dtype), which the kernel,
    for floating types only, must take."""
    if not common.is_floating_point:
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{common.scalar_name}\'')
    return common


def _same_dtypes(input, *others):
    """TensorIterator without promotion (huber_loss_backward's): every operand in the dtype
    of ``input``, the first one."""
    for other in others:
        if other.dtype is not input.dtype:
            raise RuntimeError(f"Found dtype {other.dtype.scalar_name} but expected "
                               f"{input.dtype.scalar_name}")


def _loss_jvp(node, backward_op, param, t_self, t_target):
    """derivatives.yaml's rule for both losses: each input's tangent through the loss's
    backward op (unreduced), summed, then reduced like the loss."""
    x, target = node.inputs
    total = None
    if t_self is not None:
        total = backward_op(t_self, x, target, "none", param)
    if t_target is not None:
        moved = backward_op(t_target, target, x, "none", param)
        total = moved if total is None else total + moved
    if node.reduction == "mean":
        return total.mean()
    return total.sum() if node.reduction == "sum" else total


def _norm(reduction, x: np.ndarray):
    """The kernels' factor: 1 / numel for a mean (rounded to the dtype), else 1."""
    return x.dtype.type(1 / max(x.size, 1) if reduction == "mean" else 1)


# --- huber_loss -----------------------------------------------------------------------------------
@parses('huber_loss(Tensor input, Tensor target, int reduction = 1, float delta = 1.0)')
def huber_loss(input, target, reduction=1, delta=1.0):
    """``reduction``: torch's enum (0 none, 1 mean, 2 sum)."""
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    common = result_type(input, target)
    if not can_cast(common, input.dtype):
        raise RuntimeError(f"result type {common.scalar_name} can't be cast to the desired "
                           f"output type {input.dtype.scalar_name}")
    x, t = common_data(input, target, _kernel_dtype("huber", common))
    d, half = x.dtype.type(delta), x.dtype.type(0.5)
    with np.errstate(all="ignore"):
        z = np.abs(x - t)
        loss = np.where(z < d, half * z * z, d * (z - half * d)).astype(input.dtype.numpy,
                                                                        copy=False)
    reduction = _REDUCTIONS[reduction]
    return record(np.asarray(reduce_loss(loss, reduction)), HuberLossBackward0, (input, target),
                  save={"self": input, "target": target}, reduction=reduction, delta=delta)


class HuberLossBackward0(Node):
    """out = reduce(huber(self - target)); d/dself = clip(self - target, -delta, delta)
    (/ numel for a mean), d/dtarget the same with the roles swapped."""

    def backward(self, grad):
        x, target = self.saved("self"), self.saved("target")
        return (huber_loss_backward(grad, x, target, self.reduction, self.delta)
                if self.needs_input_grad[0] else None,
                huber_loss_backward(grad, target, x, self.reduction, self.delta)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_target):
        return _loss_jvp(self, huber_loss_backward, self.delta, t_self, t_target)


def huber_loss_backward(grad_output, input, target, reduction, delta):
    """``norm * grad_output * clip(input - target, -delta, delta)``, as torch's kernel rounds
    it: ``-norm g delta``, ``norm g delta`` or ``norm x g``."""
    _same_dtypes(input, target, grad_output)
    g, x, t = grad_output._data, input._data, target._data
    norm, d = _norm(reduction, x), x.dtype.type(delta)
    with np.errstate(all="ignore"):
        diff = x - t
        data = np.where(diff <= -d, -norm * g * d,
                        np.where(diff >= d, norm * g * d, norm * diff * g))
    return record(np.asarray(data, dtype=x.dtype), HuberLossBackwardBackward0,
                  (grad_output, input, target),
                  save={"grad_output": grad_output, "self": input, "target": target},
                  reduction=reduction, delta=delta)


class HuberLossBackwardBackward0(Node):
    """out = norm g clip(self - target, -delta, delta): linear in g; in self (and minus in
    target) its slope is norm g where |self - target| < delta, else 0."""

    def backward(self, w):
        g, x, target = (self.saved(k) for k in ("grad_output", "self", "target"))
        g_g = g_x = g_t = None
        if self.needs_input_grad[0]:
            if self.reduction == "none":
                g_g = huber_loss_backward(w, x, target, self.reduction, self.delta)
            else:
                ones = g.new_zeros(g.shape) + 1
                g_g = (huber_loss_backward(ones, x, target, self.reduction, self.delta)
                       * w).sum()
        if self.needs_input_grad[1] or self.needs_input_grad[2]:
            inside = _huber_double_backward(w * g, x, target, self.reduction, self.delta)
            g_x = inside if self.needs_input_grad[1] else None
            g_t = -inside if self.needs_input_grad[2] else None
        return g_g, g_x, g_t

    def jvp(self, t_g, t_x, t_t):
        """torch has no forward-mode rule for huber_loss_backward: its error."""
        raise NotImplementedError(
            "Trying to use forward AD with huber_loss_backward that does not support it "
            "because it has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that "
            "we can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")


def _huber_double_backward(grad, x, target, reduction, delta):
    out = grad * ((x - target).abs() < delta)
    return div_scalar(out, x.numel()) if reduction == "mean" else out


# --- smooth_l1_loss -------------------------------------------------------------------------------
@parses('smooth_l1_loss(Tensor input, Tensor target, int reduction = 1, float beta = 1.0)')
def smooth_l1_loss(input, target, reduction=1, beta=1.0):
    """``reduction``: torch's enum (0 none, 1 mean, 2 sum); ``beta=0`` is F's l1_loss, which
    F.smooth_l1_loss calls instead."""
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    x, t = common_data(input, target,
                       _kernel_dtype("smooth_l1", result_type(input, target)))
    reduction = _REDUCTIONS[reduction]
    b, half = x.dtype.type(beta), x.dtype.type(0.5)
    with np.errstate(all="ignore"):
        z = np.abs(x - t)
        loss = np.where(z < b, half * z * z / b, z - half * b)
    return record(np.asarray(reduce_loss(loss, reduction)), SmoothL1LossBackward0, (input, target),
                  save={"self": input, "target": target}, reduction=reduction, beta=beta)


class SmoothL1LossBackward0(Node):
    """out = reduce(smooth_l1(self - target)); d/dself = clip((self - target) / beta, -1, 1)
    (/ numel for a mean), d/dtarget the same with the roles swapped."""

    def backward(self, grad):
        x, target = self.saved("self"), self.saved("target")
        return (smooth_l1_loss_backward(grad, x, target, self.reduction, self.beta)
                if self.needs_input_grad[0] else None,
                smooth_l1_loss_backward(grad, target, x, self.reduction, self.beta)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_target):
        return _loss_jvp(self, smooth_l1_loss_backward, self.beta, t_self, t_target)


def smooth_l1_loss_backward(grad_output, input, target, reduction, beta):
    """``clip((input - target) / beta, -1, 1) * norm * grad_output``, as torch's vector kernel
    rounds it: in the operands' promoted dtype, the result in the input's."""
    common = _kernel_dtype("smooth_l1_backward", result_type(input, target, grad_output))
    x, t = common_data(input, target, common)
    g = grad_output._data.astype(common.numpy, copy=False)
    norm, b = _norm(reduction, x), x.dtype.type(beta)
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        diff = x - t
        sign = np.where(diff <= -b, -one, np.where(diff >= b, one, diff / b))
        data = sign * norm * g
    return record(np.asarray(data, dtype=input.dtype.numpy), SmoothL1LossBackwardBackward0,
                  (grad_output, input, target),
                  save={"grad_output": grad_output, "self": input, "target": target},
                  reduction=reduction, beta=beta)


class SmoothL1LossBackwardBackward0(Node):
    """out = norm g clip((self - target) / beta, -1, 1): linear in g (its gradient is this op
    again, summed back by the engine for a reduced loss); in self (minus in target) its slope
    is norm g / beta where |self - target| < beta, else 0."""

    def backward(self, w):
        g, x, target = (self.saved(k) for k in ("grad_output", "self", "target"))
        g_g = g_x = g_t = None
        if self.needs_input_grad[0]:
            g_g = smooth_l1_loss_backward(w, x, target, self.reduction, self.beta)
        if self.needs_input_grad[1] or self.needs_input_grad[2]:
            inside = _smooth_l1_double_backward(w * g, x, target, self.reduction, self.beta)
            g_x = inside if self.needs_input_grad[1] else None
            g_t = -inside if self.needs_input_grad[2] else None
        return g_g, g_x, g_t

    def jvp(self, t_g, t_x, t_t):
        g, x, target = self.inputs
        out = None
        if t_x is not None:
            out = _smooth_l1_double_backward(t_x * g, x, target, self.reduction, self.beta)
        if t_t is not None:
            moved = _smooth_l1_double_backward(t_t * g, x, target, self.reduction, self.beta)
            out = -moved if out is None else out - moved
        if t_g is not None:
            moved = smooth_l1_loss_backward(t_g, x, target, self.reduction, self.beta)
            out = moved if out is None else out + moved
        return out


def _smooth_l1_double_backward(grad, x, target, reduction, beta):
    if beta == 0:
        return grad.new_zeros(grad.shape)
    out = grad * ((x - target).abs() < beta) / beta
    return div_scalar(out, x.numel()) if reduction == "mean" else out
