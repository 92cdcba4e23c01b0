"""``Dropout``: zeroes elements at random while training, nothing in eval mode."""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module


class Dropout(Module):
    """Each element zeroed with probability ``p`` in training mode and the rest scaled by
    ``1 / (1 - p)``, so the expected value is unchanged; the input itself in eval mode. The
    same ``manual_seed`` gives torch's zeros (see ``minigrad/_ops/dropout.py``)."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
