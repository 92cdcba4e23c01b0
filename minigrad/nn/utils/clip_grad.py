"""Gradient clipping, as torch's ``nn/utils/clip_grad.py`` computes it.

``clip_grad_norm_`` scales every gradient by ``max_norm / (total_norm + 1e-6)`` when that is
below 1, where ``total_norm`` is the norm of the gradients' norms (the norm of all their
numbers together, computed in two steps, as torch does, so its digits are torch's);
``clip_grad_value_`` clamps each gradient to ``[-clip_value, clip_value]``. Both change the
gradients in place, under ``no_grad``.
"""

from __future__ import annotations

import types
import warnings

from minigrad._creation import tensor
from minigrad._ops.join import stack
from minigrad._tensor import Tensor
from minigrad.autograd.grad_mode import no_grad


def _as_list(parameters) -> list:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


@no_grad()
def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the tensors' norms (a 0-d tensor; ``tensor(0.)`` for none)."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    total = stack([t.norm(norm_type) for t in tensors]).norm(norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the gradients "
            "by the non-finite norm anyway, set `error_if_nonfinite=False`")
    return total


@no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                    foreach=None):
    """Scale the gradients so that their total norm is at most ``max_norm``; returns the
    total norm before clipping."""
    if not isinstance(parameters, Tensor) and isinstance(parameters, types.GeneratorType):
        parameters = list(parameters)  # read twice: a generator would be used up
        if not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                          stacklevel=3)
    parameters = _as_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


@no_grad()
def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None) -> None:
    """Scale the gradients by ``max_norm / (total_norm + 1e-6)`` when that is below 1: the
    second half of ``clip_grad_norm_``, for a total norm computed elsewhere."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    clip_coef_clamped = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(clip_coef_clamped)


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                   foreach=None):
    """The pre-0.4 name (old books use it): ``clip_grad_norm_``, with torch's FutureWarning."""
    warnings.warn("`minigrad.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`minigrad.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@no_grad()
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient's numbers to ``[-clip_value, clip_value]``, in place."""
    clip_value = float(clip_value)
    for p in _as_list(parameters):
        if p.grad is not None:
            p.grad.clamp_(min=-clip_value, max=clip_value)
