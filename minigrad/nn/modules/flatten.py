"""Layers that only change a tensor's shape (``Flatten``, ``Unflatten``) or nothing at all
(``Identity``). Flatten is ``reshape``: a view (``ViewBackward0``) when the memory allows,
else a copy (``CloneBackward0`` + ``UnsafeViewBackward0``), as torch's; Unflatten is always a
view; Identity returns its input itself, adding no node."""

from __future__ import annotations

from minigrad.nn.modules.module import Module


class Identity(Module):
    """Returns its input, the same tensor; any arguments are accepted and ignored (so it can
    stand in for a layer whose arguments are already written)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


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


def unflattened_shape(input, dim, sizes) -> list:
    """The shape of ``input.unflatten(dim, sizes)``, with torch's errors: the size inference
    is reshape's, whose errors torch wraps (and rewords when the sizes do not multiply up)."""
    ndim = max(input.dim(), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-ndim}, {ndim - 1}], but got {dim})")
    dim %= ndim
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if input.dim() == 0:
        raise _unexpected("Dimension specified as 0 but tensor has no dimensions")
    size, sizes = input.shape[dim], list(sizes)
    inferred, known = None, 1
    for i, s in enumerate(sizes):
        if s == -1:
            if inferred is not None:
                raise _unexpected("only one dimension can be inferred")
            inferred = i
        elif s >= 0:
            known *= s
        else:
            raise _unexpected(f"invalid shape dimension {s} at index {i} of shape {sizes}")
    if size == known or (inferred is not None and known > 0 and size % known == 0):
        if inferred is not None:
            if known == 0:
                raise _unexpected(f"cannot reshape tensor of {size} elements into shape {sizes} "
                                  f"because the unspecified dimension size -1 can be any value "
                                  f"and is ambiguous")
            sizes[inferred] = size // known
        return [*input.shape[:dim], *sizes, *input.shape[dim + 1:]]
    raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim "
                       f"{dim} ({size}) in the input tensor")


def _unexpected(message) -> RuntimeError:
    return RuntimeError(f"unflatten got an unexpected error:\n{message}")
