"""NAdam: Adam with Nesterov momentum (the step looks ahead along the running mean), its
momentum warmed up by a schedule ``mu_t``.

For each parameter p with gradient g, at step t (all in place, under no_grad)::

    g = -g if maximize;  g = g + weight_decay * p  (or p = p * (1 - lr * wd), decoupled)
    mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay));  prod = prod * mu_t
    m = m + (1 - beta1) * (g - m);  v = beta2 * v + (1 - beta2) * g * g
    d = sqrt(v / (1 - beta2^t)) + eps
    p = p - lr * (1 - mu_t) / (1 - prod) * g / d
          - lr * mu_{t+1} / (1 - prod * mu_{t+1}) * m / d

``prod`` (``mu_product``) is a 0-d tensor, rounded as torch rounds it. The steps are torch's
single-tensor ones, in its order and with its roundings (``_functional.py``).
"""

from __future__ import annotations

from minigrad._creation import tensor, zeros_like
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_tensor_lr


class NAdam(Optimizer):
    _group_defaults = (
        ("maximize", False), ("foreach", None), ("capturable", False), ("differentiable", False),
        ("decoupled_weight_decay", False))
    _tensor_state = ("step", "mu_product")
    _capturable_tensors = "params, mu_products and state_steps"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
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
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        if not state:
            state["step"] = tensor(0.0)
            state["mu_product"] = tensor(1.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        lr, (beta1, beta2), wd = group["lr"], group["betas"], group["weight_decay"]
        g = -grad._data if group["maximize"] else grad._data
        state["step"].add_(1)
        step = state["step"].item()
        p = param._data
        bias_correction2 = 1 - beta2**step
        if wd != 0:
            if group["decoupled_weight_decay"]:
                K.write(param, K.mul(p, 1 - lr * wd))
            else:
                g = K.add_alpha(g, p, wd)
        decay = group["momentum_decay"]
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
        mu_product = state["mu_product"]
        K.write(mu_product, K.mul(mu_product._data, mu))
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        K.write(exp_avg, K.lerp(exp_avg._data, g, 1 - beta1))
        K.write(exp_avg_sq, K.addcmul(K.mul(exp_avg_sq._data, beta2), g, g, 1 - beta2))
        denom = K.add(K.sqrt(K.div(exp_avg_sq._data, bias_correction2)), group["eps"])
        product = mu_product.item()
        mu_product_next = product * mu_next
        K.write(param, K.addcdiv(p, g, denom, -lr * (1.0 - mu) / (1.0 - product)))
        K.write(param, K.addcdiv(p, exp_avg._data, denom,
                                 (-lr * mu_next) / (1.0 - mu_product_next)))
