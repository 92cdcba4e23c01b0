"""Layers that only change a tensor's shape (``Flatten``, ``Unflatten``). Flatten is
``reshape``: a view (``ViewBackward0``) when the memory allows, else a copy (``CloneBackward0``
+ ``UnsafeViewBackward0``), as torch's; Unflatten is always a view."""

from __future__ import annotations

from minigrad._ops.rearrange import unflattened_shape
from minigrad.nn.modules.module import Module


class Flatten(Module):
    """``input.flatten(start_dim, end_dim)``; the default keeps the batch dim."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dim ``dim`` into ``unflattened_size`` (one entry may be -1): torch's
    ``input.unflatten(dim, sizes)``, a view (splitting a dim is a view of any layout)."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        _require_tuple_int(unflattened_size)
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.view(*unflattened_shape(input, self.dim, self.unflattened_size))

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


def _require_tuple_int(sizes) -> None:
    if isinstance(sizes, tuple | list):
        for i, elem in enumerate(sizes):
            if not isinstance(elem, int):
                raise TypeError(f"unflattened_size must be tuple of ints, but found element of "
                                f"type {type(elem).__name__} at pos {i}")
        return
    raise TypeError(f"unflattened_size must be a tuple of ints, but found type "
                    f"{type(sizes).__name__}")
