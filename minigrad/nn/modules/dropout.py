"""``Dropout`` and its variants: zero elements (or whole channels: ``Dropout1d/2d/3d``) at
random while training, nothing in eval mode; ``AlphaDropout`` and ``FeatureAlphaDropout`` keep
a SELU network's mean and variance. All take ``p`` and ``inplace`` and print them."""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Each element zeroed with probability ``p`` in training mode and the rest scaled by
    ``1 / (1 - p)``, so the expected value is unchanged; the input itself in eval mode. The
    same ``manual_seed`` gives torch's zeros (see ``minigrad/_ops/dropout.py``)."""

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    def forward(self, input):  # torch's ignores ``inplace`` here
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)
