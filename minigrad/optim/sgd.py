"""Stochastic gradient descent, with torch's momentum, dampening, Nesterov and weight decay.

For each parameter p with gradient g (all in place, under no_grad)::

    g = -g if maximize;  g = g + weight_decay * p
    buf = g (first step)  or  buf = momentum * buf + (1 - dampening) * g
    g = g + momentum * buf if nesterov else buf
    p = p - lr * g
"""

from __future__ import annotations

from minigrad.optim.optimizer import Optimizer, _check_fused, _check_tensor_lr


class SGD(Optimizer):
    _group_defaults = (
        ("nesterov", False), ("maximize", False), ("foreach", None), ("differentiable", False),
        ("fused", False))

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        _check_tensor_lr(lr)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        foreach=foreach, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        _check_fused(fused, differentiable, foreach)

    def _state_of(self, param, group) -> dict:
        """Plain SGD keeps nothing: its parameters get no entry in ``state`` (as in torch)."""
        return self.state[param] if group["momentum"] != 0 else {}

    def _update(self, param, grad, state, group):
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.clone().detach()
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        param.add_(grad, alpha=-group["lr"])  # one fused multiply-add, as torch's kernel
