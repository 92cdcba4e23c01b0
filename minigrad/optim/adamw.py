"""AdamW: Adam whose weight decay shrinks the parameters directly (``p *= 1 - lr * wd``)
instead of adding ``wd * p`` to the gradient, so the decay does not pass through the running
averages. As in torch, it is Adam with ``decoupled_weight_decay=True`` and a default decay of
0.01."""

from __future__ import annotations

from minigrad.optim.adam import Adam


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        for group in self.param_groups:  # AdamW is decoupled, whatever a checkpoint says
            group["decoupled_weight_decay"] = True
