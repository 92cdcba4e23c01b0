"""Rearranging and repeating: movedim, tile, broadcast_to, broadcast_tensors, meshgrid,
repeat_interleave, fliplr/flipud, rot90 and unflatten.

Each is a composite in torch, built from ops minigrad has, so its graph is torch's:
``movedim`` is a ``permute`` (a view, PermuteBackward0), ``tile`` a ``repeat``,
``broadcast_to`` an ``expand``, ``meshgrid`` a ``view`` then an ``expand`` per grid, and
``repeat_interleave`` an ``unsqueeze``/``expand``/``clone``/``flatten`` (an int count) or an
``index_select`` (a tensor of counts), ``fliplr``/``flipud`` a ``flip``, ``unflatten`` a
``view``, as ATen writes them. ``rot90`` has a node of its own (Rot90Backward0).
"""

from __future__ import annotations

import warnings

import numpy as np

from minigrad import _dtype, _layout
from minigrad._ops._args import parses, type_name
from minigrad._ops._core import check_same_shape_broadcast, record
from minigrad._ops.indexing import alias
from minigrad._ops.shape import expand, flip, permute, repeat
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


@parses('movedim(Tensor input, int source, int destination)',
        'movedim(Tensor input, tuple of ints source, tuple of ints destination)')
def movedim(input, source, destination):
    """The dims ``source`` moved to the places ``destination``, the others keeping their
    order: a ``permute`` (torch's movedim is one, PermuteBackward0)."""
    src = list(source) if isinstance(source, tuple | list) else [source]
    dst = list(destination) if isinstance(destination, tuple | list) else [destination]
    n = input.dim()
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) "
                           f"should contain the same number of dims as destination ({dst} dims)")
    src = [_wrap_dim(d, n) for d in src]
    dst = [_wrap_dim(d, n) for d in dst]
    if len(set(src)) != len(src):
        raise RuntimeError(f"movedim: repeated dim in `source` ({list(source)})")
    if len(set(dst)) != len(dst):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({list(destination)})")
    if n == 0:  # torch: a 0-d tensor comes back as an alias (AliasBackward0)
        return alias(input)
    order = [-1] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    order = [next(rest) if o == -1 else o for o in order]
    return permute(input, *order)


@parses('moveaxis(Tensor input, int source, int destination)',
        'moveaxis(Tensor input, tuple of ints source, tuple of ints destination)')
def moveaxis(input, source, destination):
    """NumPy's name for ``movedim``."""
    return movedim(input, source, destination)


@parses('tile(Tensor input, tuple of ints dims)')
def tile(input, *dims):
    """``repeat`` with ones put in front of ``dims`` when it has fewer entries than the
    tensor has dims (torch's tile is that ``repeat``: RepeatBackward0)."""
    dims = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], tuple | list) else dims
    lead = input.dim() - len(dims)
    return repeat(input, *((1,) * lead + tuple(dims)))


@parses('broadcast_to(Tensor input, tuple of ints size)')
def broadcast_to(input, *size):
    """``expand`` (a view, ExpandBackward0)."""
    return expand(input, *size)


def broadcast_shape(tensors):
    """The shape ``tensors`` broadcast to, checked in order with torch's message."""
    shape = ()
    for t in tensors:
        check_same_shape_broadcast(np.empty(shape, np.bool_), t._data)
        shape = np.broadcast_shapes(shape, t._data.shape)
    return shape


def broadcast_tensors(*tensors):
    """Each tensor expanded to the shape they broadcast to; one already of that shape comes
    back as it is (the same tensor, as torch's)."""
    _check_tensors(tensors)  # a list is refused, not unpacked (unlike meshgrid)
    shape = broadcast_shape(tensors)
    return tuple(t if t._data.shape == shape else expand(t, *shape) for t in tensors)


def _tensor_list(tensors):
    """meshgrid's ``*tensors``: the tensors one by one, or one list or tuple of them."""
    if len(tensors) == 1 and isinstance(tensors[0], tuple | list):
        tensors = tuple(tensors[0])
    return _check_tensors(tensors)


def _check_tensors(tensors):
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    return tensors


MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                    "indexing argument.")
_warned = []


def meshgrid(*tensors, indexing=None):
    """Coordinate grids: grid ``i`` holds tensor ``i`` along dim ``i``, expanded over the
    others (``indexing="xy"`` swaps the first two dims, as NumPy's default). Without
    ``indexing``, torch's "ij" and its warning (once per process, as torch's TORCH_WARN_ONCE)."""
    tensors = _tensor_list(tensors)
    if not (indexing is None or isinstance(indexing, str)):
        raise TypeError(f"meshgrid(): argument 'indexing' must be str, not "
                        f"{type_name(indexing)}")
    if indexing is None:
        if not _warned:
            _warned.append(True)
            # torch warns from C++ called by torch/functional.py: at that line, its own
            warnings.warn(MESHGRID_WARNING, UserWarning, stacklevel=1)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors[1:]:
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got a {t.dim()}D tensor")
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f"received: {indexing}")
    order = list(tensors)
    swap = indexing == "xy" and len(order) >= 2
    if swap:
        order[0], order[1] = order[1], order[0]
    shape = [t.numel() for t in order]
    grids = []
    for i, t in enumerate(order):
        view_shape = [1] * len(order)
        view_shape[i] = -1
        grids.append(t.view(*view_shape).expand(*shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@parses('repeat_interleave(Tensor input, Tensor repeats, int? dim = None, *, '
        'int? output_size = None)',
        'repeat_interleave(Tensor repeats, *, int? output_size = None)',
        'repeat_interleave(Tensor input, int repeats, int? dim = None, *, '
        'int? output_size = None)')
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along ``dim``) repeated ``repeats`` times in place, one after
    the other (``repeat`` repeats the whole tensor). A tensor of counts alone gives the
    indices that repeat each position that often."""
    if repeats is None:
        return _repeat_counts(input, output_size)
    if isinstance(repeats, Tensor):
        return _repeat_by_tensor(input, repeats, dim, output_size)
    x = input if dim is not None else input.flatten()
    d = _wrap_dim(0 if dim is None else dim, input.dim())
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    x = x.unsqueeze(d + 1)
    shape = list(x.shape)
    shape[d + 1] = repeats
    x = x.expand(*shape)
    if output_size is not None and output_size != repeats * shape[d]:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected "
                           f"{repeats * shape[d]} but got {output_size}")
    return x.clone(memory_format=_layout.contiguous_format).flatten(d, d + 1)


def _repeat_by_tensor(input, repeats, dim, output_size):
    x = input
    if dim is None:
        x, d = input.flatten(), 0
    else:
        d = _wrap_dim(dim, input.dim())
    size = x.shape[d]
    if repeats.dim() == 0 or (repeats.dim() == 1 and repeats.shape[0] == 1):
        repeats = repeats.reshape(1).expand(size)
    elif repeats.dim() == 1:
        if repeats.shape[0] != size:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {repeats.shape[0]} and input.size({d}) = "
                               f"{size}")
    else:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    return x.index_select(d, _repeat_counts(repeats, output_size))


def _repeat_counts(repeats, output_size):
    """``repeat_interleave(repeats)``: index ``i`` written ``repeats[i]`` times."""
    if repeats.dtype not in (_dtype.int64, _dtype.int32):
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for "
                                  f"'{repeats.dtype.scalar_name}'")
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    counts = repeats._data
    if (counts < 0).any():
        raise RuntimeError("repeats can not be negative")
    if output_size is not None and output_size != int(counts.sum()):
        raise RuntimeError("allocated size does not match required size")
    data = np.repeat(np.arange(len(counts), dtype=counts.dtype), counts)
    return Tensor._make(data)


# --- fliplr, flipud, rot90 -----------------------------------------------------------------------
@parses('fliplr(Tensor input)')
def fliplr(input):
    """Columns in reverse order: ``flip`` of dim 1 (FlipBackward0)."""
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, 1)


@parses('flipud(Tensor input)')
def flipud(input):
    """Rows in reverse order: ``flip`` of dim 0."""
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, 0)


@parses('rot90(Tensor input, int k = 1, tuple of ints dims = [0,1])')
def rot90(input, k=1, dims=(0, 1)):
    """A copy turned ``k`` quarter turns in the plane of ``dims``, from the first dim towards
    the second (NumPy's rot90)."""
    dims = tuple(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.dim() < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.dim()}")
    d0, d1 = _wrap_dim(dims[0], input.dim()), _wrap_dim(dims[1], input.dim())
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and "
                           f"dim1 = {d1}")
    x = input._data  # torch's steps: a flip (laid out as the input), then a transposed view
    turns = k % 4
    if turns == 0:
        data = np.array(x, order="C")
    elif turns == 2:
        data = _layout.preserved(np.flip(x, (d0, d1)), x)
    else:
        data = np.swapaxes(_layout.preserved(np.flip(x, d1 if turns == 1 else d0), x), d0, d1)
    return record(data, Rot90Backward0, (input,), k=k, dims=dims)


class Rot90Backward0(Node):
    """out = self turned k times: the gradient turned back (``rot90(-k, dims)``)."""

    def backward(self, grad):
        return rot90(grad, -self.k, self.dims)

    def jvp(self, t):
        return rot90(t, self.k, self.dims)


# --- unflatten: a view --------------------------------------------------------------------------
@parses('unflatten(Tensor input, int dim, tuple of ints sizes)')
def unflatten(input, dim, sizes):
    """Dim ``dim`` split into ``sizes`` (one may be -1): a view (ViewBackward0)."""
    return input.view(*unflattened_shape(input, dim, sizes))


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
