"""Loss functions as modules: they only remember the ``reduction`` and call ``functional``."""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        self.reduction = reduction


class MSELoss(_Loss):
    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    def forward(self, input, target):
        return F.cross_entropy(input, target, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Remembers ``weight`` and ``pos_weight`` as buffers, as torch's module does."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean",
                 pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  pos_weight=self.pos_weight,
                                                  reduction=self.reduction)
