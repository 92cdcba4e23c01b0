"""Distances as modules: ``CosineSimilarity`` and ``PairwiseDistance`` remember their settings
(under torch's attribute names: ``PairwiseDistance`` keeps ``p`` as ``norm``) and call
``functional``."""

from __future__ import annotations

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
