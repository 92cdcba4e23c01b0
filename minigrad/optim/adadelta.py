"""Adadelta: a step whose size comes from running averages of the squared gradient and of the
squared step itself, so that ``lr`` (1 by default) needs little tuning.

For each parameter p with gradient g (all in place, under no_grad)::

    g = -g if maximize;  g = g + weight_decay * p
    v = rho * v + (1 - rho) * g * g                    # running mean of g^2
    delta = sqrt(u + eps) / sqrt(v + eps) * g
    u = rho * u + (1 - rho) * delta * delta            # running mean of delta^2
    p = p - lr * delta

The steps are torch's single-tensor ones, in its order and with its roundings
(``_functional.py``).
"""

from __future__ import annotations

from minigrad._creation import tensor, zeros_like
from minigrad._numeric import quietly
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_tensor_lr


class Adadelta(Optimizer):
    _group_defaults = (
        ("foreach", None), ("maximize", False), ("differentiable", False), ("capturable", False))
    _tensor_state = ("step",)
    _capturable_tensors = "params and state_steps"
    _capturable_devices = ["cuda", "xpu", "hpu", "privateuseone"]  # no xla

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        if not state:
            state["step"] = tensor(0.0)
            state["square_avg"] = zeros_like(param)
            state["acc_delta"] = zeros_like(param)
        rho, eps = group["rho"], group["eps"]
        state["step"].add_(1)
        g = -grad._data if group["maximize"] else grad._data
        p = param._data
        if group["weight_decay"] != 0:
            g = K.add_alpha(g, p, group["weight_decay"])
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        K.write(square_avg, K.addcmul(K.mul(square_avg._data, rho), g, g, 1 - rho))
        std = K.sqrt(K.add(square_avg._data, eps))
        delta = K.sqrt(K.add(acc_delta._data, eps))
        delta = quietly(lambda: delta / std * g)  # delta.div_(std).mul_(grad)
        K.write(acc_delta, K.addcmul(K.mul(acc_delta._data, rho), delta, delta, 1 - rho))
        K.write(param, K.add_alpha(p, delta, -group["lr"]))
