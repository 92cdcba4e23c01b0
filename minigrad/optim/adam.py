"""Adam: a step scaled by running averages of the gradient and of its square.

For each parameter p with gradient g, at step t (all in place, under no_grad)::

    m = m + (1 - beta1) * (g - m)          # running mean of g
    v = beta2 * v + (1 - beta2) * g * g     # running mean of g^2
    p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)

The two ``1 - beta^t`` factors undo the bias of averages that start at zero. ``amsgrad``
uses the largest v seen so far; ``decoupled_weight_decay`` is AdamW (``adamw.py``). The steps
are torch's single-tensor ones, in its order and with its roundings (``_functional.py``).
"""

from __future__ import annotations

from minigrad._creation import tensor, zeros_like
from minigrad._tensor import Tensor
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_fused, _check_tensor_lr, _to_scalar


class Adam(Optimizer):
    _group_defaults = (
        ("amsgrad", False), ("maximize", False), ("foreach", None), ("capturable", False),
        ("differentiable", False), ("decoupled_weight_decay", False), ("fused", None))
    _tensor_state = ("step",)
    _capturable_tensors = "params and state_steps"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        if isinstance(lr, Tensor) and foreach and not capturable:
            raise ValueError("lr as a Tensor is not supported for capturable=False and "
                             "foreach=True")
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
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)
                or isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor)):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, beta in enumerate(betas):
            if isinstance(beta, Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for "
                                     "capturable=False and foreach=True")
                if beta.numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        betas = tuple(map(_to_scalar, betas))
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        _check_fused(fused, differentiable, foreach)

    def _init_state(self, param, state, amsgrad):
        state["step"] = tensor(0.0)
        state["exp_avg"] = zeros_like(param)
        state["exp_avg_sq"] = zeros_like(param)
        if amsgrad:
            state["max_exp_avg_sq"] = zeros_like(param)

    def _update(self, param, grad, state, group):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        if not state:
            self._init_state(param, state, group["amsgrad"])
        g = -grad._data if group["maximize"] else grad._data
        state["step"].add_(1)
        p = param._data
        wd = group["weight_decay"]
        if wd != 0:
            if group["decoupled_weight_decay"]:
                K.write(param, K.mul(p, 1 - lr * wd))
            else:
                g = K.add_alpha(g, p, wd)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        K.write(exp_avg, K.lerp(exp_avg._data, g, 1 - beta1))
        K.write(exp_avg_sq, K.addcmul(K.mul(exp_avg_sq._data, beta2), g, g, 1 - beta2))
        step = state["step"].item()
        step_size = lr / (1 - beta1**step)
        bias_correction2_sqrt = (1 - beta2**step) ** 0.5
        v = exp_avg_sq._data
        if group["amsgrad"]:
            best = state["max_exp_avg_sq"]
            K.write(best, K.maximum(best._data, v))
            v = best._data
        denom = K.sqrt_div_add(v, bias_correction2_sqrt, eps)
        K.write(param, K.addcdiv(p, exp_avg._data, denom, -step_size))
