"""Constant padding as modules: ``ConstantPad1d/2d/3d`` and ``ZeroPad1d/2d/3d`` remember
``padding`` (one int is used on every side, as torch's ``_ntuple``) and ``value``, and call
``F.pad``."""

from __future__ import annotations

from collections.abc import Iterable

from minigrad.nn import functional as F
from minigrad.nn.modules.module import Module


def _ntuple(padding, n):
    return tuple(padding) if isinstance(padding, Iterable) else (padding,) * n


class _ConstantPadNd(Module):
    """Each subclass has its own ``__init__`` (as torch's), so a missing argument's
    TypeError names ``ConstantPad2d.__init__()``, not the base class."""

    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple(padding, 2)


class ConstantPad2d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple(padding, 4)


class ConstantPad3d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple(padding, 6)


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"
