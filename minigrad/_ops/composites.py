"""torch functions that are other ops under another name or in a short composition, written
as torch's C++ (or Python) composes them, so that their nodes and errors are torch's:
true_divide (div), float_power (pow in float64), msort (sort along dim 0), narrow_copy (a
copy of narrow, NarrowCopyBackward0), broadcast_shapes (torch's Python), tril_indices and
triu_indices (the coordinates of a triangle, row by row), vander and linalg_vander (powers
by cumprod: two compositions, two graphs).
"""

from __future__ import annotations

from functools import reduce

import numpy as np

from minigrad import _dtype
from minigrad._creation import _finish, empty
from minigrad._ops import indexing as I
from minigrad._ops import inplace as X
from minigrad._ops import pointwise as P
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._ops.join import cat
from minigrad._ops.scan import cumprod
from minigrad._ops.shape import _wrap_dim, flip, narrow
from minigrad._ops.sorting import sort
from minigrad._tensor import Size, Tensor
from minigrad.autograd.graph import Node


@parses('true_divide(Tensor input, Tensor other, *, Tensor out = None)',
        'true_divide(Tensor input, Number other)', numbers_as_tensors=True)
def true_divide(input, other):
    """div without a rounding mode (DivBackward0)."""
    return P.div(input, other)


@parses('true_divide_(Tensor input, Tensor other)', 'true_divide_(Tensor input, Number other)',
        numbers_as_tensors=True)
def true_divide_(self, other):
    return X.div_(self, other)


# --- float_power ------------------------------------------------------------------------------
@parses('float_power(Tensor input, Tensor exponent, *, Tensor out = None)',
        'float_power(Number self, Tensor exponent, *, Tensor out = None)',
        'float_power(Tensor input, Number exponent, *, Tensor out = None)')
def float_power(input, exponent):
    """``pow`` in float64: tensors cast with ``.to(double)`` (ToCopyBackward0), numbers as
    doubles."""
    base = input.to(_dtype.float64) if isinstance(input, Tensor) else float(input)
    exp = exponent.to(_dtype.float64) if isinstance(exponent, Tensor) else float(exponent)
    return P.pow(base, exp)


@parses('float_power_(Tensor input, Tensor exponent)',
        'float_power_(Tensor input, Number exponent)')
def float_power_(self, exponent):
    if self.dtype is not _dtype.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype.scalar_name} "
                           "but the operation's result requires dtype Double")
    exp = exponent.to(_dtype.float64) if isinstance(exponent, Tensor) else float(exponent)
    return X.pow_(self, exp)


# --- msort, narrow_copy -----------------------------------------------------------------------
@parses('msort(Tensor input, *, Tensor out = None)')
def msort(input):
    """The values of ``sort(input, dim=0)``."""
    return sort(input, 0)[0]


@parses('narrow_copy(Tensor input, int dim, int start, int length, *, Tensor out = None)')
def narrow_copy(input, dim, start, length):
    """A contiguous copy of ``narrow(input, dim, start, length)``: one NarrowCopyBackward0."""
    if dim >= input.dim() > 0:  # torch's narrow_copy checks this one itself
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
                           "but got false.  (Could this error message be improved?  If so, "
                           "please report an enhancement request to PyTorch.)")
    view = narrow(input.detach(), dim, start, length)  # narrow's checks and messages
    d = _wrap_dim(dim, input.dim())
    begin = start + input.shape[d] if start < 0 else start
    return record(np.ascontiguousarray(view._data), NarrowCopyBackward0, (input,),
                  self_shape=input._data.shape, dim_arg=dim, length=length, step=1, d=d,
                  start=start, end=start + length, begin=begin)  # torch keeps start as given


class NarrowCopyBackward0(Node):
    """torch's slice_backward of the gradient (SliceBackwardBackward0): ``grad`` put at
    ``[start, start + length)`` of a zero tensor shaped like the input."""

    def backward(self, grad):
        return I.view_backward(grad, self, self._read, I.SliceBackwardBackward0)

    def jvp(self, t):
        return narrow_copy(t, self.dim_arg, self.start, self.length)

    def _read(self, t):
        return t._slice(self.d, self.begin, self.begin + self.length, 1)


# --- broadcast_shapes -------------------------------------------------------------------------
def broadcast_shapes(*shapes):
    """The shape ``broadcast_tensors`` would give tensors of these shapes (torch's
    ``_refs._broadcast_shapes``: an int is a 1-d shape, None is skipped), as a Size."""
    shapes = tuple((x,) if isinstance(x, int) else x for x in shapes if x is not None)
    if not shapes:
        return Size([])
    for shape in shapes:
        if not isinstance(shape, list | tuple | str | Size):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a "
                               f"list of ints, got {shape}")
    common = [1] * reduce(max, (len(shape) for shape in shapes))
    for arg_idx, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = shape[idx]
            if shape[idx] == 1:
                continue
            if common[idx] != shape[idx]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[idx]} at {idx}! "
                    f"Mismatching argument at index {arg_idx} had {shape}; but expected shape "
                    f"should be broadcastable to {common}")
    return Size(common)


# --- tril_indices, triu_indices ---------------------------------------------------------------
def _check_triangle(name, row, col, dtype):
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    if dtype not in (_dtype.int64, _dtype.int32):
        raise NotImplementedError(f"\"{name}\" not implemented for '{dtype.scalar_name}'")


def _triangle(row, col, keep, dtype):
    rows, cols = np.meshgrid(np.arange(row), np.arange(col), indexing="ij")
    mask = keep(rows, cols)
    return Tensor._make(np.stack([rows[mask], cols[mask]]).astype(dtype.numpy))


@parses('tril_indices(int row, int col, int offset = 0, *, torch.dtype? dtype = None, '
        'torch.layout? layout = None, torch.device? device = None, bool? pin_memory = False)')
def tril_indices(row, col, offset=0, *, dtype=None, device=None):
    """The (row, column) coordinates of the lower triangle (on and below diagonal ``offset``),
    row by row: a (2, n) int64 tensor."""
    dtype = _dtype.int64 if dtype is None else dtype
    _check_triangle("tril_indices", row, col, dtype)
    return _finish(_triangle(row, col, lambda r, c: c - r <= offset, dtype), False, device)


@parses('triu_indices(int row, int col, int offset = 0, *, torch.dtype? dtype = None, '
        'torch.layout? layout = None, torch.device? device = None, bool? pin_memory = False)')
def triu_indices(row, col, offset=0, *, dtype=None, device=None):
    """The (row, column) coordinates of the upper triangle (on and above diagonal ``offset``),
    row by row: a (2, n) int64 tensor."""
    dtype = _dtype.int64 if dtype is None else dtype
    _check_triangle("triu_indices", row, col, dtype)
    return _finish(_triangle(row, col, lambda r, c: c - r >= offset, dtype), False, device)


# --- vander, linalg.vander --------------------------------------------------------------------
@parses('vander(Tensor x, int? N = None, bool increasing = False)')
def vander(x, N=None, increasing=False):  # noqa: N803 - torch's name
    """The powers ``x ** (N - 1), ..., x, 1`` of a vector as columns (``increasing``: the other
    way round), composed as torch's C++ composes it, so the graph is its: a matrix of ones
    (int64 for integer and bool vectors, as cumprod gives them), ``x`` copied into its columns
    after the first (CopySlices of UnsqueezeBackward0), their cumulative product copied back
    over them (CopySlices of CumprodBackward0 of SliceBackward0), then flipped (FlipBackward0)
    unless ``increasing``."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    result = empty(x.shape[0], n, dtype=_dtype.promote_types(x.dtype, _dtype.int64))
    if n > 0:
        X.fill_(result, 1)
        if n > 1:
            X.copy_(narrow(result, 1, 1, n - 1), x.unsqueeze(1))
            X.copy_(narrow(result, 1, 1, n - 1), cumprod(narrow(result, 1, 1, n - 1), 1))
    return result if increasing else flip(result, (1,))


@parses('linalg_vander(Tensor x, *, int? N = None)')
def linalg_vander(x, *, N=None):  # noqa: N803 - torch's name
    """``torch.linalg.vander``: increasing powers along a new last dim, for a batch of vectors
    (a number is a vector of one), composed as torch's: a column of ones concatenated with the
    cumulative product of ``x`` expanded (CatBackward0, CumprodBackward0, ExpandBackward0,
    UnsqueezeBackward0). Floats of 32 and 64 bits and integers only (integers give int64)."""
    if not (x.dtype in (_dtype.float32, _dtype.float64) or x.dtype.numpy.kind in "iu"):
        raise RuntimeError("linalg.vander supports floating point, complex, and integer "
                           f"tensors, but got {x.dtype.scalar_name}")
    vectors = x.unsqueeze(-1) if x.dim() == 0 else x
    shape = list(vectors.shape)
    n = shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = cumprod(vectors.unsqueeze(-1).expand(*shape, n - 1), -1)
    return cat([powers.new_ones((*shape, 1)), powers], -1)
