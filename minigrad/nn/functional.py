"""``minigrad.nn.functional``: layers and losses as plain functions of tensors.

Each one is written with ordinary minigrad operations, so its backward needs no formula of its
own: autograd differentiates the pieces. (torch has fused kernels, so its ``grad_fn`` names
differ: ``AddmmBackward0`` for ``linear``, ``MseLossBackward0`` for ``mse_loss``.)
"""

from __future__ import annotations

import warnings

from minigrad._creation import arange


def linear(input, weight, bias=None):
    """input @ weight.T + bias"""
    out = input.matmul(weight.t())
    return out if bias is None else out + bias


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape!r}) that is different to the input "
                      f"size ({input.shape!r}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=2)
    diff = input - target
    return _reduce(diff * diff, reduction)


def _shifted(input, dim):
    """input minus its max along ``dim``: same softmax, but exp cannot overflow. The max is
    detached: the softmax does not depend on the shift, so no gradient should flow through it."""
    return input - input.max(dim, keepdim=True).values.detach()


def softmax(input, dim, _stacklevel=3, dtype=None):
    x = input if dtype is None else input.to(dtype)
    e = _shifted(x, dim).exp()
    return e / e.sum(dim, keepdim=True)


def log_softmax(input, dim, _stacklevel=3, dtype=None):
    x = input if dtype is None else input.to(dtype)
    z = _shifted(x, dim)
    return z - z.exp().sum(dim, keepdim=True).log()


def nll_loss(input, target, reduction="mean"):
    """Minus the log-probability of each target class."""
    picked = input[arange(input.shape[0]), target] if input.dim() == 2 else input[target]
    return _reduce(-picked, reduction)


def cross_entropy(input, target, reduction="mean"):
    """log_softmax then nll_loss; a float target holds class probabilities instead."""
    logp = log_softmax(input, 1 if input.dim() > 1 else 0)
    if target.dtype.is_floating_point:
        loss = -(target * logp).sum(1 if input.dim() > 1 else 0)
        return loss.sum() / input.shape[0] if reduction == "mean" and input.dim() > 1 \
            else _reduce(loss, reduction)
    return nll_loss(logp, target, reduction)
