"""ASGD: SGD with a decaying step size ``eta`` that also keeps ``ax``, a running average of
the parameters from step ``t0`` on (the averaged iterate, read from the state).

For each parameter p with gradient g, at step t (all in place, under no_grad)::

    g = -g if maximize;  g = g + weight_decay * p
    p = p * (1 - lambd * eta);  p = p - eta * g
    ax = ax + mu * (p - ax)            (ax = p while mu is 1)
    eta = lr / (1 + lambd * lr * t)^alpha;  mu = 1 / max(1, t - t0)

``eta`` and ``mu`` are 0-d tensors, rounded as torch rounds them. The steps are torch's
single-tensor ones, in its order and with its roundings (``_functional.py``).
"""

from __future__ import annotations

from minigrad._creation import as_tensor, tensor, zeros_like
from minigrad._numeric import quietly
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_tensor_lr


class ASGD(Optimizer):
    _group_defaults = (
        ("foreach", None), ("maximize", False), ("differentiable", False), ("capturable", False))
    _tensor_state = ("step", "eta", "mu")
    _capturable_tensors = "params, mus, etas, and state_steps"

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        if not state:
            state["step"] = tensor(0.0)
            state["eta"] = tensor(float(group["lr"]))
            state["mu"] = tensor(1.0)
            state["ax"] = zeros_like(param)
        lr, lambd = group["lr"], group["lambd"]
        g = -grad._data if group["maximize"] else grad._data
        state["step"].add_(1)
        p = param._data
        if group["weight_decay"] != 0:
            g = K.add_alpha(g, p, group["weight_decay"])
        eta = state["eta"].item()
        K.write(param, K.mul(p, 1 - lambd * eta))
        K.write(param, K.add_alpha(p, g, -eta))
        ax, mu = state["ax"], state["mu"].item()
        if mu != 1:
            m = K.scalar(mu, p)
            K.write(ax, quietly(lambda: ax._data + (p - ax._data) * m))
        else:
            K.write(ax, p)
        step = state["step"].item()
        # torch.as_tensor(a Python float): the default dtype first, then copied into the state
        K.write(state["eta"], as_tensor(lr / ((1 + lambd * lr * step) ** group["alpha"]))._data)
        K.write(state["mu"], as_tensor(1 / max(1, step - group["t0"]))._data)
