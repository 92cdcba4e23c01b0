"""Adagrad: each coordinate's step divided by the root of the sum of all its squared gradients.

For each parameter p with gradient g, at step t (all in place, under no_grad)::

    g = -g if maximize;  g = g + weight_decay * p
    clr = lr / (1 + (t - 1) * lr_decay)
    s = s + g * g                     # starts at initial_accumulator_value
    p = p - clr * g / (sqrt(s) + eps)

As in torch, the state (``step`` and ``sum``) is made for every parameter when the optimizer
is made, not at its first step. The steps are torch's single-tensor ones, in its order and with
its roundings (``_functional.py``).
"""

from __future__ import annotations

from minigrad._creation import full_like, tensor
from minigrad._tensor import Tensor
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_fused, _check_tensor_lr, _scalar_dtype


class Adagrad(Optimizer):
    _group_defaults = (
        ("foreach", None), ("maximize", False), ("differentiable", False), ("fused", None))
    _tensor_state = ("step",)

    def __setstate__(self, state) -> None:
        """torch's, then its second pass: if the first state's step is not a tensor (an old
        checkpoint whose groups did not list it), every step becomes one."""
        super().__setstate__(state)
        values = list(self.state.values())
        if not (values and isinstance(values[0]["step"], Tensor)):
            fused = self.param_groups[-1].get("fused") if self.param_groups else None
            for s in values:
                s["step"] = tensor(float(s["step"]), dtype=_scalar_dtype(fused))

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: "
                             f"{initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        _check_fused(fused, differentiable, foreach)
        if fused:
            raise NotImplementedError("minigrad's Adagrad has no fused implementation")
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, self.state[p])

    def _init_state(self, param, state):
        state["step"] = tensor(0.0)
        state["sum"] = full_like(param, self.defaults["initial_accumulator_value"])

    def _update(self, param, grad, state, group):
        if not state:  # a group added after the optimizer was made
            self._init_state(param, state)
        state["step"].add_(1)
        step = state["step"].item()
        g = -grad._data if group["maximize"] else grad._data
        p = param._data
        if group["weight_decay"] != 0:
            g = K.add_alpha(g, p, group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state_sum = state["sum"]
        K.write(state_sum, K.addcmul(state_sum._data, g, g, 1))
        std = K.sqrt_plus(state_sum._data, group["eps"])
        K.write(param, K.addcdiv(p, g, std, -clr))
