"""NumPy's stacking and splitting helpers: hstack, vstack, dstack, column_stack, atleast_1d/
2d/3d, tensor_split, hsplit, vsplit, dsplit; and block_diag (its own node, BlockDiagBackward0,
whose backward slices each block out of the gradient).

All are composites in torch, made of ops minigrad has, and are built the same way here so the
graphs are torch's: the stacks ``cat`` inputs first raised to enough dims (``reshape`` of a
0-d tensor: ViewBackward0; ``unsqueeze``), the splits are one ``slice`` view per piece
(SliceBackward0 each, not one node for all as ``split``'s).
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._ops._args import parses
from minigrad._ops._core import record, result_type
from minigrad._ops.join import cat
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


# --- atleast_1d / 2d / 3d ------------------------------------------------------------------------
def _at_least(tensors, one):
    """torch.functional's rule: one tensor gives a tensor, several (or one list) a tuple."""
    if len(tensors) == 1:
        tensors = tensors[0]
    if isinstance(tensors, Tensor):
        return one(tensors)
    if not isinstance(tensors, tuple | list):
        name = type(tensors).__name__
        why = f"      didn't match because some of the arguments have invalid types: (!{name}!)\n"
        raise TypeError(f"{one.__name__}() received an invalid combination of arguments - got "
                        f"({name}), but expected one of:\n * (Tensor input)\n{why}"
                        f" * (tuple of Tensors tensors)\n{why}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    return tuple(one(t) for t in tensors)


def _atleast_1d(t):
    return t.reshape(1) if t.dim() == 0 else t


def _atleast_2d(t):
    if t.dim() == 0:
        return t.reshape(1, 1)
    return t.unsqueeze(0) if t.dim() == 1 else t


def _atleast_3d(t):
    if t.dim() == 0:
        return t.reshape(1, 1, 1)
    if t.dim() == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if t.dim() == 2 else t


_atleast_1d.__name__, _atleast_2d.__name__, _atleast_3d.__name__ = (
    "atleast_1d", "atleast_2d", "atleast_3d")


def atleast_1d(*tensors):
    """A 0-d tensor as a vector of one element (a view); others as they are."""
    return _at_least(tensors, _atleast_1d)


def atleast_2d(*tensors):
    """At least 2 dims: a vector becomes one row."""
    return _at_least(tensors, _atleast_2d)


def atleast_3d(*tensors):
    """At least 3 dims: a vector ``(n,)`` becomes ``(1, n, 1)``, a matrix ``(m, n, 1)``."""
    return _at_least(tensors, _atleast_3d)


# --- hstack, vstack, dstack, column_stack ------------------------------------------------------
def _non_empty(name, tensors):
    if isinstance(tensors, Tensor):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        "not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


@parses('hstack(tuple of Tensors tensors, *, Tensor out = None)')
def hstack(tensors):
    """Side by side: ``cat`` along dim 1 (dim 0 for vectors)."""
    pieces = [_atleast_1d(t) for t in _non_empty("hstack", tensors)]
    return cat(pieces, 0 if pieces[0].dim() == 1 else 1)


@parses('vstack(tuple of Tensors tensors, *, Tensor out = None)')
def vstack(tensors):
    """One above the other: vectors as rows, then ``cat`` along dim 0."""
    return cat([_atleast_2d(t) for t in _non_empty("vstack", tensors)], 0)


@parses('dstack(tuple of Tensors tensors, *, Tensor out = None)')
def dstack(tensors):
    """Along the third dim (depth), each raised to 3 dims first."""
    return cat([_atleast_3d(t) for t in _non_empty("dstack", tensors)], 2)


@parses('column_stack(tuple of Tensors tensors, *, Tensor out = None)')
def column_stack(tensors):
    """Vectors (and 0-d tensors) as columns, side by side with matrices."""
    tensors = _non_empty("column_stack", tensors)
    return cat([t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in tensors], 1)


# --- tensor_split, hsplit, vsplit, dsplit ------------------------------------------------------
@parses('tensor_split(Tensor input, tuple of ints indices, int dim = 0)',
        'tensor_split(Tensor input, Tensor tensor_indices_or_sections, int dim = 0)',
        'tensor_split(Tensor input, int sections, int dim = 0)')
def tensor_split(input, indices=None, dim=0, *, sections=None, tensor_indices_or_sections=None):
    """Views of ``input`` along ``dim``: ``sections`` pieces as equal as can be (the first
    ones one longer), or cut before each of ``indices``."""
    split = next(a for a in (indices, sections, tensor_indices_or_sections) if a is not None)
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    if isinstance(split, Tensor):
        if split.dtype is not _dtype.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {split.dtype.scalar_name}")
        if split.dim() > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a "
                               "zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {split.dim()} dims")
        split = int(split._data) if split.dim() == 0 else split._data.tolist()
    d = _wrap_dim(dim, input.dim())
    if isinstance(split, tuple | list):
        return _cut(input, d, [int(i) for i in split])
    if split <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {split}")
    size = input.shape[d]
    base, extra = divmod(size, split)
    pieces, start = [], 0
    for i in range(split):
        end = start + base + (1 if i < extra else 0)
        pieces.append(input._slice(d, start, end, 1))
        start = end
    return tuple(pieces)


def _cut(input, d, indices):
    pieces, start = [], 0
    for end in indices:
        pieces.append(input._slice(d, start, end, 1))
        start = end
    pieces.append(input._slice(d, start, input.shape[d], 1))
    return tuple(pieces)


def _split_along(name, input, split, d, least):
    if input.dim() < least:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, "
                           f"but got a tensor with {input.dim()} dimensions!")
    if isinstance(split, tuple | list):
        return tensor_split(input, list(split), d)
    if split == 0 or input.shape[d] % split:
        raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the size "
                           f"of the dimension {input.shape[d]} is not divisible by the "
                           f"split_size {split}!")
    return tensor_split(input, split, d)


@parses('hsplit(Tensor input, int sections)', 'hsplit(Tensor input, tuple of ints indices)')
def hsplit(input, sections=None, *, indices=None):
    """``tensor_split`` along dim 1 (dim 0 for a vector), into equal pieces or at indices."""
    return _split_along("hsplit", input, sections if indices is None else indices,
                        0 if input.dim() == 1 else 1, 1)


@parses('vsplit(Tensor input, int sections)', 'vsplit(Tensor input, tuple of ints indices)')
def vsplit(input, sections=None, *, indices=None):
    return _split_along("vsplit", input, sections if indices is None else indices, 0, 2)


@parses('dsplit(Tensor input, int sections)', 'dsplit(Tensor input, tuple of ints indices)')
def dsplit(input, sections=None, *, indices=None):
    return _split_along("dsplit", input, sections if indices is None else indices, 2, 3)


# --- block_diag --------------------------------------------------------------------------------
def block_diag(*tensors):
    """The tensors as blocks along the diagonal of one matrix, zeros elsewhere (a 0-d tensor
    is a 1x1 block, a vector one row); the dtype all of them promote to."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {t.dim()} dimensions")
    if not tensors:
        return Tensor._make(np.zeros((1, 0), _dtype.get_default_dtype().numpy))
    blocks = [t._data.reshape(1, 1) if t.dim() == 0 else t._data.reshape(1, -1)
              if t.dim() == 1 else t._data for t in tensors]
    dtype = result_type(*tensors)
    data = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)),
                    dtype.numpy)
    row = col = 0
    for b in blocks:
        data[row:row + b.shape[0], col:col + b.shape[1]] = b
        row, col = row + b.shape[0], col + b.shape[1]
    return record(data, BlockDiagBackward0, tuple(tensors),
                  shapes=[tuple(t.shape) for t in tensors])


class BlockDiagBackward0(Node):
    """Each input's gradient is its block of ``grad`` (``slice`` of rows, then of columns;
    squeezed back for a vector or a 0-d tensor), as torch's block_diag_backward."""

    def backward(self, grad):
        out, row, col = [], 0, 0
        for shape in self.shapes:
            if shape == (0,):  # torch skips it without moving down (its forward took a row)
                out.append(grad.new_zeros((0,)))
                continue
            rows, cols = (shape if len(shape) == 2 else (1, shape[0]) if shape else (1, 1))
            piece = grad._slice(0, row, row + rows, 1)._slice(1, col, col + cols, 1)
            if not shape:
                piece = piece.squeeze(-1).squeeze(-1)
            elif len(shape) == 1:
                piece = piece.squeeze(-1)
            out.append(piece)
            row, col = row + rows, col + cols
        return tuple(out)

    def jvp(self, *tangents):
        return block_diag(*(t.new_zeros(t.shape) if d is None else d
                            for t, d in zip(self.inputs, tangents)))
