"""Adafactor (Shazeer and Stern; torch 2.13's variant): Adam's second moment kept in factored
form, so a matrix parameter costs a row and a column of numbers, not a matrix.

For each parameter p with gradient g, at step t (all in place, under no_grad)::

    g = -g if maximize
    rho = min(lr, 1 / sqrt(t));  alpha = max(eps2, rms(p)) * rho    # relative step size
    p = p * (1 - lr * weight_decay)
    matrix:  r = lerp(r, mean(g^2, dim=-1), t^beta2_decay)          # row means
             c = lerp(c, mean(g^2, dim=-2), t^beta2_decay)          # column means
             v = r @ c / max(mean(r, dim=-2), eps1)
    vector:  v = lerp(v, g^2, t^beta2_decay)
    u = g / sqrt(max(v, eps1^2))
    p = p - alpha / max(1, rms(u) / d) * u                          # update clipping

There is no first moment (no beta1). The steps are torch's single-tensor ones (``foreach``
off, the default on the CPU), with minigrad's tensor ops in torch's order: the means of g^2
are taken, as torch takes them, as the square of the 2-norm over the size.
"""

from __future__ import annotations

from minigrad._creation import tensor, zeros_like
from minigrad._dtype import finfo
from minigrad.optim.optimizer import Optimizer, _check_tensor_lr


class Adafactor(Optimizer):
    _group_defaults = (("foreach", None),)
    _tensor_state = ("step",)

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        if not state:
            state["step"] = tensor(0.0)
            if grad.dim() > 1:  # factored: one number per row, one per column
                row_shape = list(grad.shape)
                row_shape[-1] = 1
                state["row_var"] = grad.new_zeros(row_shape)
                col_shape = list(grad.shape)
                col_shape[-2] = 1
                state["col_var"] = grad.new_zeros(col_shape)
            else:
                state["variance"] = zeros_like(grad)
        lr, d, weight_decay = group["lr"], group["d"], group["weight_decay"]
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = finfo(param.dtype).eps
        if group["maximize"]:
            grad = -grad
        step_t = state["step"]
        step_t += 1
        step_float = step_t.item()
        one_minus_beta2_t = step_float ** group["beta2_decay"]
        rho_t = min(lr, 1 / (step_float**0.5))
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_mean = grad.norm(dim=-1, keepdim=True).pow_(2).div_(grad.size(-1))
            row_var.lerp_(row_mean, one_minus_beta2_t)
            col_mean = grad.norm(dim=-2, keepdim=True).pow_(2).div_(grad.size(-2))
            col_var.lerp_(col_mean, one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            variance = state["variance"]
            variance.lerp_(grad * grad, one_minus_beta2_t)
            var_estimate = variance.clone()  # the update must not write into the state
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
        param.add_(update, alpha=-alpha / denom)
