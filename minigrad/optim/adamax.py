"""Adamax: Adam with the root mean square of the gradient replaced by a decaying maximum of its
size (the infinity norm).

For each parameter p with gradient g, at step t (all in place, under no_grad)::

    g = -g if maximize;  g = g + weight_decay * p
    m = m + (1 - beta1) * (g - m)                  # running mean of g
    u = max(beta2 * u, |g| + eps)                  # decaying maximum of |g|
    p = p - lr / (1 - beta1^t) * m / u

The steps are torch's single-tensor ones, in its order and with its roundings
(``_functional.py``).
"""

from __future__ import annotations

import numpy as np

from minigrad._creation import tensor, zeros_like
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_tensor_lr


class Adamax(Optimizer):
    _group_defaults = (
        ("foreach", None), ("maximize", False), ("differentiable", False), ("capturable", False))
    _tensor_state = ("step",)
    _capturable_tensors = "params and state_steps"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_inf"] = zeros_like(param)
        beta1, beta2 = group["betas"]
        g = -grad._data if group["maximize"] else grad._data
        state["step"].add_(1)
        p = param._data
        if group["weight_decay"] != 0:
            g = K.add_alpha(g, p, group["weight_decay"])
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        K.write(exp_avg, K.lerp(exp_avg._data, g, 1 - beta1))
        K.write(exp_inf, K.maximum(K.mul(exp_inf._data, beta2), K.add(np.abs(g), group["eps"])))
        clr = group["lr"] / (1 - beta1 ** state["step"].item())
        K.write(param, K.addcdiv(p, exp_avg._data, exp_inf._data, -clr))
