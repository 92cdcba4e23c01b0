"""``nll_loss`` for inputs of every rank, as torch's ``nll_loss_nd`` dispatches it.

A 1-D or 2-D input (one sample, or a batch of them, classes last) is ``nll_loss`` proper:
``NllLossBackward0``. A 4-D input (a batch of images, classes in dim 1, one target per pixel)
is ``nll_loss2d``: ``NllLoss2DBackward0``. Any other rank (a batch of sequences, classes in dim
1: ``cross_entropy(logits.transpose(1, 2), targets)``) is viewed as 4-D first,
``(N, C, 1, -1)``, and a loss without reduction viewed back: torch's graph has those views
(``ViewBackward0``) around the one ``NllLoss2DBackward0``.

Both kernels are the same idea: ``-input[..., target, ...]`` (times the class weight) per
target, ignored targets skipped. A reduction adds the terms up in the order torch's loop meets
them (``nll_sum``) and a mean divides by the number of targets kept (or their weights' sum,
``total_weight``, which the node saves as torch's does). Here the class axis is moved last, so
that one row per target serves both kernels.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype, _layout
from minigrad._numeric import nll_sum
from minigrad._ops._core import record
from minigrad._ops.linalg import _short
from minigrad._ops.nn_ops import _check_reduction
from minigrad._ops.pointwise import where
from minigrad._tensor import Tensor
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


def nll_loss(input, target, ignore_index=-100, reduction="mean", weight=None):
    """torch's ``nll_loss_nd``: checks the batch, then picks the kernel by the input's rank."""
    _check_reduction(reduction)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() > 2 and target.dtype not in (_dtype.int64, _dtype.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_short(target.dtype)}")
    if input.dim() != 1 and (target.dim() == 0 or target.shape[0] != input.shape[0]):
        batch = target.shape[0] if target.dim() else 0  # (torch reads a 0-d size as 0)
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({batch}).")
    if input.dim() <= 2:
        return _nll_rows(input, target, ignore_index, reduction, weight)
    if input.dim() == 4:
        return _nll_2d(input, target, ignore_index, reduction, weight)
    n, c = input.shape[0], input.shape[1]
    out_size = (n, *input.shape[2:])
    if tuple(target.shape[1:]) != tuple(input.shape[2:]):
        raise RuntimeError(f"Expected target size {list(out_size)}, got {list(target.shape)}")
    flat_input, flat_target = input.contiguous(), target.contiguous()
    flat_input = (flat_input.view(n, c, 1, -1) if flat_input.numel()
                  else flat_input.reshape(n, c, 0, 0))
    flat_target = (flat_target.view(n, 1, -1) if flat_target.numel()
                   else flat_target.reshape(n, 0, 0))
    loss = _nll_2d(flat_input, flat_target, ignore_index, reduction, weight)
    return loss.view(out_size) if reduction == "none" else loss


def _nll_rows(input, target, ignore_index, reduction, weight):
    """``nll_loss`` proper: a 1-D input (one sample) or 2-D (a batch), classes last."""
    if target.dim() > 1 or (input.dim() == 2 and target.dim() == 0):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.dim() == 1 and target.dim() == 1:
        raise RuntimeError(f"size mismatch (got input: [{input.shape[0]}], target: "
                           f"[{target.shape[0]}])")
    if target.dtype not in (_dtype.int64, _dtype.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_short(target.dtype)}")
    classes = input.shape[-1]
    if weight is not None:
        if weight.numel() != classes:
            raise RuntimeError(f"weight tensor should be defined either for all {classes} "
                               f"classes or no classes but got weight tensor of shape: "
                               f"{list(weight.shape)}")
        _check_weight(weight, input, "nll_loss_forward")
    return _nll(input, target, ignore_index, reduction, weight, NllLossBackward0, -1)


def _nll_2d(input, target, ignore_index, reduction, weight):
    """``nll_loss2d``: a batch of images (N, C, H, W) and a target per pixel (N, H, W)."""
    if target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {target.dim()}")
    if weight is not None and weight.numel() != input.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    (n, _, h, w), target_shape = input.shape, tuple(target.shape)
    if target_shape != (n, h, w):  # torch's message has no closing parenthesis
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: "
                           f"{list(target_shape)}")
    if weight is not None:
        _check_weight(weight, input, "nll_loss2d_forward")
    if target.dtype is not _dtype.int64:  # its kernel reads the targets as int64 only
        raise RuntimeError(f"expected scalar type Long but found {_short(target.dtype)}")
    return _nll(input, target, ignore_index, reduction, weight, NllLoss2DBackward0, 1)


def _check_weight(weight, input, kernel):
    """torch's checks of the class weights' dtype, and that they are a constant."""
    if weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_short(input.dtype).capitalize()} but found "
                           f"{_short(weight.dtype).capitalize()}")
    if weight.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"The function '{kernel}' is not differentiable with respect to "
                           f"argument 'weight'. This input cannot have requires_grad True.")


def _nll(input, target, ignore_index, reduction, weight, node_cls, class_axis):
    """Both kernels: the terms ``-x[target] * weight[target]`` of the targets kept, in the
    order torch's loop meets them (row-major over the targets), then the reduction."""
    x = input._data
    classes = x.shape[class_axis]
    rows_x = np.moveaxis(x, class_axis, -1).reshape(-1, classes)  # one row per target
    batch = len(rows_x)
    labels = target._data.reshape(-1).astype(np.int64, copy=False)  # only read
    kept = labels != ignore_index
    every = kept.all()  # no target ignored (the usual case): the rows are 0, 1, 2...
    rows = np.arange(batch) if every else np.nonzero(kept)[0]
    row_labels = labels if every else labels[rows]
    # checked at once: a loop over the batch would cost more than the loss
    if row_labels.size and (np.minimum.reduce(row_labels) < 0
                            or np.maximum.reduce(row_labels) >= classes):
        bad = (row_labels < 0) | (row_labels >= classes)
        raise IndexError(f"Target {row_labels[bad][0]} is out of bounds.")
    mask = np.zeros((batch, classes), dtype=bool)
    mask[rows, row_labels] = True
    if every:
        losses = -rows_x[rows, row_labels]
    else:
        losses = np.zeros(batch, dtype=x.dtype)
        losses[rows] = -rows_x[rows, row_labels]
    if weight is None:
        total_weight = float(rows.size)
    else:
        picked = weight._data[row_labels]
        losses[rows] = losses[rows] * picked
        weights = np.zeros(batch, dtype=x.dtype)
        weights[rows] = picked
        total_weight = float(nll_sum(weights, rows))  # added up as the losses are
    if reduction == "none":
        data = losses.reshape(target.shape)
    elif reduction == "sum":
        data = nll_sum(losses, rows)
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            data = nll_sum(losses, rows) / np.asarray(total_weight, dtype=x.dtype)
    moved_shape = np.moveaxis(x, class_axis, -1).shape
    mask = np.ascontiguousarray(np.moveaxis(mask.reshape(moved_shape), -1, class_axis))
    # torch's kernel fills total_weight for a reduction only (0 for none)
    total = Tensor._make(np.asarray(0 if reduction == "none" else total_weight, dtype=x.dtype))
    return record(np.asarray(data, dtype=x.dtype), node_cls, (input,),
                  save={"self": input, "target": target, "weight": weight,
                        "total_weight": total},
                  mask=Tensor._make(mask), reduction=reduction, count=total_weight,
                  ignore_index=ignore_index, target=target, class_axis=class_axis)


class NllLossBackward0(Node):
    """out[i] = -self[i, target[i]] (reduced; a mean divides by the number of counted targets):
    the gradient is -grad at each picked entry, zero elsewhere."""

    def backward(self, grad):
        self.saved("target")  # read as torch reads it: a target changed in place is refused
        self.saved("total_weight")
        weight = self.saved("weight") if self._find_saved("weight") is not None else None
        return nll_loss_backward(grad, self.saved("self"), self, weight)

    def jvp(self, t):
        picked = -where(self.mask, t if self.weight is None else t * _along(self.weight, self),
                        0.0)
        if self.reduction == "none":
            return picked.sum(self.class_axis)
        return picked.sum() / self.count if self.reduction == "mean" else picked.sum()


class NllLoss2DBackward0(NllLossBackward0):
    """``nll_loss2d``: the same formula, the classes in dim 1 of a 4-D input."""


def _along(weight, node):
    """The class weights shaped to broadcast along the input's class axis."""
    if node.class_axis == -1:
        return weight
    shape = [1] * node.mask.dim()
    shape[node.class_axis] = weight.shape[0]
    return weight.view(shape)


def nll_loss_backward(grad_output, input, node, weight=None):
    """nll_loss's backward, an op of its own as in torch (NllLossBackwardBackward0, over the
    upstream gradient and the loss's input): ``-grad_output`` (times the class weight) at each
    picked entry."""
    if node.class_axis == 1 and _layout.is_dense(input._data) and not input.is_contiguous():
        # torch's nll_loss2d_backward writes into zeros_like(input), which keeps a dense
        # input's layout (a permuted batch of images), and then refuses it
        raise RuntimeError("grad_input must be contiguous")
    g = grad_output._data
    if node.reduction == "none":
        g = np.expand_dims(g, node.class_axis) if g.ndim else g  # one per target
    elif node.reduction == "mean":
        g = g / np.asarray(node.count, dtype=g.dtype)
    if weight is not None:
        g = -g * _along(weight, node)._data  # the picked entry is at the target's class
    else:
        g = -g
    data = np.where(node.mask._data, g, np.asarray(0.0, dtype=g.dtype)).astype(g.dtype)
    node_cls = NllLoss2DBackwardBackward0 if node.class_axis == 1 else NllLossBackwardBackward0
    return record(data, node_cls, (grad_output, input),
                  save={"weight": weight}, mask=node.mask,
                  reduction=node.reduction, count=node.count,
                  ignore_index=node.ignore_index, target=node.target,
                  class_axis=node.class_axis)


class NllLossBackwardBackward0(Node):
    """out = nll_loss's gradient: linear in the upstream gradient (its gradient is nll_loss
    of the incoming one), and constant in the loss's input (a zero gradient, as torch's)."""

    def backward(self, w):
        g_g = g_self = None
        if self.needs_input_grad[0]:
            weight = self.saved("weight") if self._find_saved("weight") is not None else None
            kernel = _nll_2d if self.class_axis == 1 else _nll_rows
            g_g = kernel(w, self.target, self.ignore_index, self.reduction, weight)
        if self.needs_input_grad[1]:
            g_self = w.new_zeros(w.shape)
        return g_g, g_self

    def jvp(self, t_g, t_self):
        return None if t_g is None else nll_loss_backward(t_g, self.inputs[1], self, self.weight)


class NllLoss2DBackwardBackward0(NllLossBackwardBackward0):
    """``nll_loss2d``'s gradient, differentiated again."""
