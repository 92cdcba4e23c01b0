"""Rprop: each coordinate moves by its own step size, in the direction of the gradient's sign
only; the step size grows while the sign stays and shrinks when it flips.

For each parameter p with gradient g (all in place, under no_grad)::

    g = -g if maximize
    f = etaplus if g * prev > 0, etaminus if < 0, 1 otherwise (0 or NaN)
    s = clamp(s * f, step_size_min, step_size_max)     # starts at lr
    g = 0 where f is etaminus (no move after a flip)
    p = p - sign(g) * s;  prev = g

The steps are torch's single-tensor ones, in its order and with its roundings
(``_functional.py``).
"""

from __future__ import annotations

import numpy as np

from minigrad._creation import full_like, tensor, zeros_like
from minigrad._numeric import quietly
from minigrad.optim import _functional as K
from minigrad.optim.optimizer import Optimizer, _check_tensor_lr


class Rprop(Optimizer):
    _group_defaults = (
        ("foreach", None), ("maximize", False), ("differentiable", False), ("capturable", False))
    _tensor_state = ("step",)
    _capturable_tensors = "params and state_steps"

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        if not state:
            state["step"] = tensor(0.0)
            state["prev"] = zeros_like(param)
            state["step_size"] = full_like(grad, group["lr"])
        etaminus, etaplus = (K.scalar(eta, param._data) for eta in group["etas"])
        low, high = (K.scalar(size, param._data) for size in group["step_sizes"])
        g = -grad._data if group["maximize"] else grad._data
        state["step"].add_(1)
        prev, step_size = state["prev"], state["step_size"]
        sign = K.sign(quietly(np.multiply, g, prev._data))
        factor = sign.copy()
        factor[sign > 0] = etaplus
        factor[factor < 0] = etaminus
        factor[factor == 0] = 1
        K.write(step_size, quietly(lambda: np.minimum(np.maximum(step_size._data * factor, low),
                                                      high)))
        g = g.copy()
        g[factor == etaminus] = 0
        K.write(param, K.addcmul(param._data, K.sign(g), step_size._data, -1))
        K.write(prev, g)
