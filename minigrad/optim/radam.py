"""RAdam: Adam whose adaptive step is switched on only once the variance of its running
``v`` is tractable, and then scaled by a rectification factor ``r_t``.

For each parameter p with gradient g, at step t (all in place, under no_grad)::

    g = -g if maximize;  g = g + weight_decay * p  (or p = p * (1 - lr * wd), decoupled)
    m = m + (1 - beta1) * (g - m);  v = beta2 * v + (1 - beta2) * g * g
    rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
    p = p - m / (1 - beta1^t) * lr * sqrt(1 - beta2^t) / (sqrt(v) + eps) * r_t   if rho_t > 5
    p = p - m / (1 - beta1^t) * lr                                               otherwise

The steps are torch's single-tensor ones, in its order and with its roundings
(``_functional.py``).
"""

from __future__ import annotations

from minigrad._creation import tensor, zeros_like
from minigrad._numeric import quietly
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_tensor_lr


class RAdam(Optimizer):
    _group_defaults = (
        ("foreach", None), ("maximize", False), ("differentiable", False),
        ("decoupled_weight_decay", False), ("capturable", False))
    _tensor_state = ("step",)
    _capturable_tensors = "params and state_steps"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
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
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        lr, (beta1, beta2), wd = group["lr"], group["betas"], group["weight_decay"]
        g = -grad._data if group["maximize"] else grad._data
        state["step"].add_(1)
        step = state["step"].item()
        p = param._data
        if wd != 0:
            if group["decoupled_weight_decay"]:
                K.write(param, K.mul(p, 1 - lr * wd))
            else:
                g = K.add_alpha(g, p, wd)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        K.write(exp_avg, K.lerp(exp_avg._data, g, 1 - beta1))
        K.write(exp_avg_sq, K.addcmul(K.mul(exp_avg_sq._data, beta2), g, g, 1 - beta2))
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        update = K.mul(K.div(exp_avg._data, bias_correction1), lr)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive_lr = K.rdiv(bias_correction2**0.5,
                                 K.add(K.sqrt(exp_avg_sq._data), group["eps"]))
            update = K.mul(quietly(lambda: update * adaptive_lr), rect)
        K.write(param, K.add_alpha(p, update, -1.0))
