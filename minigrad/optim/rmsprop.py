"""RMSprop: a step divided by the root of a running mean of the squared gradient.

For each parameter p with gradient g (all in place, under no_grad)::

    g = -g if maximize;  g = g + weight_decay * p
    v = alpha * v + (1 - alpha) * g * g              # running mean of g^2
    avg = sqrt(v - m * m) + eps,  m = lerp(m, g, 1 - alpha)   if centered (m: mean of g)
    avg = sqrt(v) + eps                                        otherwise
    buf = momentum * buf + g / avg;  p = p - lr * buf          if momentum > 0
    p = p - lr * g / avg                                       otherwise

The steps are torch's single-tensor ones, in its order and with its roundings
(``_functional.py``).
"""

from __future__ import annotations

from minigrad._creation import tensor, zeros_like
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_tensor_lr


class RMSprop(Optimizer):
    _group_defaults = (
        ("momentum", 0), ("centered", False), ("foreach", None), ("maximize", False),
        ("differentiable", False), ("capturable", False))
    _tensor_state = ("step",)
    _capturable_tensors = "params and state_steps"

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        if not state:
            state["step"] = tensor(0.0)
            state["square_avg"] = zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = zeros_like(param)
        alpha, lr = group["alpha"], group["lr"]
        g = -grad._data if group["maximize"] else grad._data
        state["step"].add_(1)
        p = param._data
        if group["weight_decay"] != 0:
            g = K.add_alpha(g, p, group["weight_decay"])
        square_avg = state["square_avg"]
        K.write(square_avg, K.addcmul(K.mul(square_avg._data, alpha), g, g, 1 - alpha))
        if group["centered"]:
            grad_avg = state["grad_avg"]
            K.write(grad_avg, K.lerp(grad_avg._data, g, 1 - alpha))
            m = grad_avg._data
            avg = K.sqrt_plus(K.addcmul(square_avg._data, m, m, -1), group["eps"])
        else:
            avg = K.sqrt_plus(square_avg._data, group["eps"])
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            K.write(buf, K.addcdiv(K.mul(buf._data, group["momentum"]), g, avg))
            K.write(param, K.add_alpha(p, buf._data, -lr))
        else:
            K.write(param, K.addcdiv(p, g, avg, -lr))
