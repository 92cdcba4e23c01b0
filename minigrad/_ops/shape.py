"""Operations that change how data is seen, not the data: views, reshapes, dtype copies.

A *view* shares memory with its input (NumPy gives us that for free) and records a
``view_fn`` so that in-place changes through it can find their place in the base. Torch's
rule for which op returns a view is followed: ``view``, ``t``, ``transpose``, ``permute``,
``unsqueeze``, ``squeeze``, ``expand``, ``diagonal``, ``unfold``, indexing with ints and
slices, and ``reshape`` when the memory layout allows it.

A view is linear in its input, so its forward-mode rule is the same view of the tangent
(``_ViewNode.jvp``); its backward puts the gradient back in the input's shape.
"""

from __future__ import annotations

import math

import numpy as np

from minigrad import _dtype, _layout
from minigrad._numeric import cascade_sum_dims, for_dtype, quietly
from minigrad._ops._args import parses
from minigrad._ops._core import fused, needs_grad, record, record_view
from minigrad._ops.indexing import SelectBackwardBackward0, view_backward
from minigrad._ops.join import cat, stack
from minigrad._tensor import Tensor, _wrap_dim, check_device
from minigrad._tensor import device as _device
from minigrad.autograd import forward_grad, graph, views
from minigrad.autograd.graph import Node
from minigrad.autograd.views import MULTI_OUTPUT_NODE, make_view


class _ViewNode(Node):
    """The node of a view op; ``view_fn`` (set when recorded) takes the same view of any
    tensor shaped like the input, so the tangent's view is the view's tangent."""

    def jvp(self, t):
        return self.view_fn(t)


def _shape_arg(shape):
    if len(shape) == 1 and isinstance(shape[0], tuple | list):
        shape = tuple(shape[0])
    if type(shape) is tuple:  # the usual sizes, plain ints already: the tuple as it is
        for s in shape:
            if type(s) is not int:
                break
        else:
            return shape
    return tuple(int(s) for s in shape)


def _infer_shape(shape, numel):
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)  # Python ints: exact, and quick
    if -1 in shape:
        if known == 0 == numel:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} "
                               "because the unspecified dimension size -1 can be any value and "
                               "is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def _view_data(data, shape):
    """``data`` seen with ``shape`` without copying, or None if the layout forbids it."""
    out = data.view()
    try:
        out.shape = shape
    except AttributeError:
        return None
    return out


@parses(
    'view(Tensor input, tuple of ints size)',
    method=('view(torch.dtype dtype)|left_out', 'view(tuple of ints size)', ),
)
def view(input, *shape):
    shape = _infer_shape(_shape_arg(shape), input.numel())
    data = _view_data(input._data, shape)
    if data is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.")
    return record_view(input, data, ViewBackward0, lambda t: t.view(*shape),
                       self_shape=input._data.shape)


class ViewBackward0(_ViewNode):
    def backward(self, grad):
        return grad.reshape(*self.self_shape)


@parses('reshape(Tensor input, tuple of ints shape)')
def reshape(input, *shape):
    """A view when the memory allows it, else a contiguous copy (clone + unsafe view). As in
    torch, the view of a contiguous tensor is a ``view`` (ViewBackward0) and that of a
    non-contiguous one an alias with new strides (ReshapeAliasBackward0)."""
    shape = _infer_shape(_shape_arg(shape), input.numel())
    if input.is_contiguous():
        return view(input, *shape)
    data = _view_data(input._data, shape)
    if data is not None:
        return record_view(input, data, ReshapeAliasBackward0, lambda t: t.reshape(*shape),
                           self_shape=input._data.shape)
    return contiguous(input)._unsafe_view(shape)


class ReshapeAliasBackward0(_ViewNode):
    def backward(self, grad):
        return grad.reshape(*self.self_shape)


def _unsafe_view(input, shape):
    data = input._data.reshape(shape)
    return record(data, UnsafeViewBackward0, (input,), self_shape=input._data.shape)


class UnsafeViewBackward0(Node):
    """A reshape of a fresh copy (not a view, so in-place changes need no bookkeeping)."""

    def backward(self, grad):
        return grad.reshape(*self.self_shape)

    def jvp(self, t):
        return t.reshape(*self.result.shape)


@parses('flatten(Tensor input, int start_dim = 0, int end_dim = -1)')
def flatten(input, start_dim=0, end_dim=-1):
    s, e = _wrap_dim(start_dim, input.dim()), _wrap_dim(end_dim, input.dim())
    if input.dim() == 0:  # a 0-d tensor's dims are -1 and 0, as any dim argument's
        return reshape(input, 1)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = input.shape
    return reshape(input, *shape[:s], -1, *shape[e + 1:])


@parses('contiguous(Tensor input, *, torch.memory_format memory_format = '
        'torch.contiguous_format)', method_only=True)
def contiguous(input, *, memory_format=None):
    fmt = memory_format or _layout.contiguous_format
    if fmt is _layout.preserve_format and not input.is_contiguous():
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    _layout.check_memory_format(fmt, input.dim())
    if input.is_contiguous(memory_format=fmt):
        return input
    return clone(input, memory_format=fmt)


@parses('clone(Tensor input, *, torch.memory_format? memory_format = None)')
def clone(input, *, memory_format=None):
    """A copy with its own memory, laid out as ``input`` is (torch's ``preserve_format``: a
    transposed tensor's clone is transposed too) unless ``memory_format`` says otherwise."""
    return record(_layout.copy_like(input._data, memory_format), CloneBackward0, (input,))


class CloneBackward0(Node):
    def backward(self, grad):
        return grad

    def jvp(self, t):
        return t.clone()


_NUMBER_DTYPES = {bool: _dtype.bool, float: _dtype.float64}
_TO_OPTIONS = ("bool non_blocking = False, bool copy = False, *, "
               "torch.memory_format? memory_format = None")


@parses(f"to(Tensor input, torch.device? device = None, torch.dtype? dtype = None, {_TO_OPTIONS})",
        f"to(Tensor input, torch.dtype dtype, {_TO_OPTIONS})",
        f"to(Tensor input, Tensor tensor, {_TO_OPTIONS})", method_only=True,
        numbers_as_tensors=True)
def to(input, *args, dtype=None, copy=False, device=None, tensor=None, non_blocking=False,
       memory_format=None):
    """A dtype conversion. minigrad lives on the CPU: ``"cpu"`` is accepted, any other device
    raises a CPU-only torch's error (``"cuda"``: not compiled with CUDA). Positional arguments
    are told apart by type, as torch's three forms give them: ``(device, dtype, non_blocking,
    copy)``, ``(dtype, non_blocking, copy)``, ``(tensor, non_blocking, copy)``."""
    if args and type(args[0]) in _NUMBER_DTYPES:  # a number for the tensor: torch wraps it
        args = (_NUMBER_DTYPES[type(args[0])], *args[1:])
    flags = []
    for a in (*args, tensor):
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, bool):
            flags.append(a)
        elif isinstance(a, str | _device | int):
            device = a
    if len(flags) == 2:
        copy = flags[1]
    check_device(device)
    fmt = None if memory_format is _layout.preserve_format else memory_format
    if fmt is not None:
        _layout.check_memory_format(fmt, input.dim())
    if (dtype is None or dtype is input.dtype) and not copy and (
            fmt is None or input.is_contiguous(memory_format=fmt)):
        return input
    # laid out as torch's empty_like lays it out; nan or an out-of-range float cast to an
    # integer is a value (whatever the CPU gives), as in torch, not NumPy's warning
    out = _layout.empty_like_array(input._data, (dtype or input.dtype).numpy, fmt)
    quietly(np.copyto, out, for_dtype(input._data, out.dtype), "unsafe")
    return record(out, ToCopyBackward0, (input,))


class ToCopyBackward0(Node):
    """A dtype conversion: the engine casts the gradient back to the input's dtype."""

    def backward(self, grad):
        return grad

    def jvp(self, t):
        return t.to(self.result.dtype)


@parses('t(Tensor input)')
def t(input):
    if input._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{input.dim()}D")
    return record_view(input, input._data.T, TBackward0, lambda x: x.t())


class TBackward0(_ViewNode):
    def backward(self, grad):
        return t(grad)


@parses('transpose(Tensor input, int dim0, int dim1)')
def transpose(input, dim0, dim1):
    n = input.dim()
    d0, d1 = _wrap_dim(dim0, n), _wrap_dim(dim1, n)
    data = np.swapaxes(input._data, d0, d1)
    return record_view(input, data, TransposeBackward0, lambda x: x.transpose(d0, d1),
                       dim0=d0, dim1=d1, dim0_arg=dim0, dim1_arg=dim1)


class TransposeBackward0(_ViewNode):
    def backward(self, grad):  # the dims as given, as torch's formula passes them
        return grad.transpose(self.dim0_arg, self.dim1_arg)


@parses('swapaxes(Tensor input, int axis0, int axis1)')
def swapaxes(input, axis0, axis1):
    """NumPy's name for ``transpose`` (the same node, TransposeBackward0), with its own
    argument names in torch's messages."""
    return transpose(input, axis0, axis1)


@parses('swapdims(Tensor input, int dim0, int dim1)')
def swapdims(input, dim0, dim1):
    return transpose(input, dim0, dim1)


@parses('permute(Tensor input, tuple of ints dims)')
def permute(input, *dims):
    dims = dims_arg = _shape_arg(dims)
    if len(dims) != input.dim():  # counted before any dim is checked, as in torch
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does "
                           "not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {input.dim()} is not equal to len(dims) = {len(dims)}")
    dims = tuple(_wrap_dim(d, input.dim()) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    if sorted(dims) != list(range(input.dim())):
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does "
                           "not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {input.dim()} is not equal to len(dims) = {len(dims)}")
    data = np.transpose(input._data, dims)
    return record_view(input, data, PermuteBackward0, lambda x: x.permute(*dims), dims=dims,
                       dims_arg=dims_arg)  # torch keeps the dims as given


class PermuteBackward0(_ViewNode):
    def backward(self, grad):
        inverse = [0] * len(self.dims)
        for i, d in enumerate(self.dims):
            inverse[d] = i
        return grad.permute(*inverse)


@parses('unsqueeze(Tensor input, int dim)')
def unsqueeze(input, dim):
    d = _wrap_dim(dim, input.dim() + 1)
    x = input._data
    data = np.expand_dims(x, d)
    # torch keeps every stride and gives the new dim size * stride of the dim it goes before
    # (1 at the end); NumPy may choose other strides for dims of size 1
    strides = (*x.strides[:d], x.shape[d] * x.strides[d] if d < x.ndim else x.itemsize,
               *x.strides[d:])
    if data.strides != strides:
        data = np.lib.stride_tricks.as_strided(x, data.shape, strides)
    return record_view(input, data, UnsqueezeBackward0, lambda x: x.unsqueeze(d), dim=d,
                       dim_arg=dim)


class UnsqueezeBackward0(_ViewNode):
    def backward(self, grad):  # the dim as given, as torch's formula passes it
        return grad.squeeze(self.dim_arg)


@parses(
    'squeeze(Tensor input)',
    'squeeze(Tensor input, int dim)',
    'squeeze(Tensor input, tuple of ints dim)',
)
def squeeze(input, dim=None):
    if dim is None:
        data = np.squeeze(input._data)
        return record_view(input, data, SqueezeBackward0, lambda x: x.squeeze(),
                           self_shape=input._data.shape)
    if isinstance(dim, tuple | list):
        return _squeeze_dims(input, tuple(dim), SqueezeBackward2, dims_arg=tuple(dim))
    d = _wrap_dim(dim, input.dim())
    squeezable = input.dim() > 0 and input._data.shape[d] == 1  # a 0-d tensor stays as it is
    data = np.squeeze(input._data, d) if squeezable else input._data.view()
    return record_view(input, data, SqueezeBackward1, lambda x: x.squeeze(d),
                       self_shape=input._data.shape, dim=d, dim_arg=dim)


def _squeeze_dims(input, dims, node_cls=None, dims_arg=None):
    """squeeze(dims); matmul's 1-D @ 2-D calls it on its fresh result for torch's in-place
    ``squeeze_(0)``, whose node is SqueezeBackward4."""
    node_cls = node_cls or SqueezeBackward4
    dims = tuple(_wrap_dim(d, input.dim()) for d in dims)
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    drop = tuple(d for d in dims if input.dim() and input._data.shape[d] == 1)
    data = np.squeeze(input._data, drop)
    return record_view(input, data, node_cls, lambda x: x._squeeze_dims(dims, node_cls),
                       self_shape=input._data.shape, dims=dims, dims_arg=dims_arg or dims)


def _unsqueeze_to(grad, dims, sizes):
    """torch's unsqueeze_to, squeeze's backward: ``grad`` with each of ``dims`` that had
    size 1 put back, one ``unsqueeze`` at a time (``grad`` itself when there is none)."""
    for d, size in enumerate(sizes):
        if size == 1 and d in dims:
            grad = grad.unsqueeze(d)
    return grad


class SqueezeBackward0(ViewBackward0):
    """squeeze(): every dim of size 1"""

    def backward(self, grad):
        return _unsqueeze_to(grad, range(len(self.self_shape)), self.self_shape)


class SqueezeBackward1(ViewBackward0):
    """squeeze(dim)"""

    def backward(self, grad):
        return _unsqueeze_to(grad, (self.dim,), self.self_shape)


class SqueezeBackward2(ViewBackward0):
    """squeeze(dims), a tuple or list of dims"""

    def backward(self, grad):
        return _unsqueeze_to(grad, self.dims, self.self_shape)


class SqueezeBackward4(SqueezeBackward2):
    """squeeze_(dim), in place (matmul's 1-D @ 2-D)"""


@parses('expand(Tensor input, tuple of ints size, *, bool implicit = False)', method_only=True)
def expand(input, *sizes):
    sizes = _shape_arg(sizes)
    shape = input._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(f"expand(minigrad.{input.dtype.legacy_name}{{{list(shape)}}}, "
                           f"size={list(sizes)}): the number of sizes provided ({len(sizes)}) "
                           "must be greater or equal to the number of dimensions in the tensor "
                           f"({len(shape)})")
    lead = len(sizes) - len(shape)
    target = [0] * len(sizes)
    for i in reversed(range(len(sizes))):  # torch checks from the last dim backwards
        s = sizes[i]
        old = shape[i - lead] if i >= lead else 1
        if s == -1 and i < lead:
            raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
        if s == -1:
            s = old
        elif old != 1 and old != s:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({old}) at "
                f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                f"{list(shape)}")
        target[i] = s
    data = _expanded(input._data, target, lead)
    return record_view(input, data, ExpandBackward0, lambda x: x.expand(*target),
                       self_shape=shape)


class ExpandBackward0(_ViewNode):
    def backward(self, grad):
        return grad.sum_to_size(*self.self_shape)


def _expanded(data, target, lead):
    """A writable view of ``data`` with stride 0 along every expanded dim, as torch's expand.
    (Writing through it is refused later when elements overlap, with torch's error.)"""
    strides = [0] * lead
    for size, old, stride in zip(target[lead:], data.shape, data.strides):
        strides.append(stride if size == old else 0)
    return np.lib.stride_tricks.as_strided(data, tuple(target), tuple(strides))


@parses('expand_as(Tensor input, Tensor other)', method_only=True)
def expand_as(input, other):
    return expand(input, *other.shape)


@parses('view_as(Tensor input, Tensor other)', method_only=True)
def view_as(input, other):
    return view(input, *other.shape)


@parses('reshape_as(Tensor input, Tensor other)', method_only=True)
def reshape_as(input, other):
    return reshape(input, *other.shape)


def sum_to_size(input, *size):
    """Sum over broadcast dims so the result has ``size``: the inverse of ``expand``."""
    size = _shape_arg(size)
    shape = input._data.shape
    if shape == size:
        return input
    if not size:  # torch's sum_to: to a 0-d tensor, one sum of everything
        return input.sum()
    lead = len(shape) - len(size)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(size)
                                if s == 1 and shape[lead + i] != 1]
    if not dims:
        out = input
    elif fused() and input._data.dtype.kind == "f":
        # a backward pass that records nothing (validate_outputs sums broadcast gradients
        # here): sum's and view's own arithmetic (torch's order of additions), without the
        # ops around them; the result is still a view of the sum, as torch's
        out = Tensor._make(quietly(cascade_sum_dims, input._data, tuple(dims), True))
        if lead:
            view = Tensor._make(out._data.reshape(size))
            make_view(out, view, lambda t: t.view(*size))
            return view
        return out
    else:
        out = input.sum(dims, keepdim=True)
    return out.view(*size) if lead else out


@parses(
    "narrow(Tensor input, int dim, Tensor start, int length)",
    'narrow(Tensor input, int dim, int start, int length)',
)
def narrow(input, dim, start, length):
    """torch's narrow: ``slice(dim, start, start + length)`` with ``dim`` as given and a
    negative ``start`` counted from the end; ``start`` may be a 0-d integer tensor."""
    if input.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if isinstance(start, Tensor):
        if start.dim() or start.dtype.is_floating_point or start.dtype is _dtype.bool:
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start.item())
    d = _wrap_dim(dim, input.dim())
    size = input._data.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    start = start + size if start < 0 else start
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return input._slice(dim, start, start + length, 1)


@parses('unbind(Tensor input, int dim = 0)')
def unbind(input, dim=0):
    """One view per index along ``dim``, all outputs of a single UnbindBackward0 node."""
    d = _wrap_dim(dim, input.dim())
    outs = [Tensor._make(input._data[(slice(None),) * d + (i, Ellipsis)])
            for i in range(input._data.shape[d])]
    if outs and outs[0]._data.dtype.kind == "f":
        if needs_grad((input,)):
            graph.record(UnbindBackward0, (input,), outs, dim=d, dim_arg=dim)
        if forward_grad._state.level is not None:
            forward_grad.propagate(outs, UnbindBackward0, (input,), None, {"dim": d})
    for i, o in enumerate(outs):
        make_view(input, o, lambda x, index=(slice(None),) * d + (i,): x[index],
                  MULTI_OUTPUT_NODE)
    return tuple(outs)


class UnbindBackward0(Node):
    """Several outputs, one per slice along ``dim``: stack their gradients back."""

    def backward(self, *grads):  # the dim as given, as torch's formula passes it
        return stack(grads, self.dim_arg)

    def jvp(self, t):
        return t.unbind(self.dim)


# --- split, chunk: several views at once ------------------------------------------------------
def split(tensor, split_size_or_sections, dim=0):
    """Pieces of ``split_size`` along ``dim`` (the last one smaller), or of the given sizes
    (a list): views of ``tensor``, all outputs of one node, as torch's ``split``."""
    if isinstance(split_size_or_sections, list | tuple):
        return split_with_sizes(tensor, split_size_or_sections, dim)
    if tensor.dim() == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    size = int(split_size_or_sections)
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    d = _wrap_dim(dim, tensor.dim())
    n = tensor._data.shape[d]
    if size == 0 and n != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {n}")
    count = max((n + size - 1) // size, 1) if size else 1
    sizes = [min(size, n - i * size) for i in range(count)]
    return _split(tensor, d, sizes, SplitBackward0, split_size=size, dim_arg=dim)


def split_method(self, split_size, dim=0):
    """``Tensor.split``: the same, with torch's keyword name for the method (``split_size``)."""
    return split(self, split_size, dim)


@parses('split_with_sizes(Tensor input, tuple of ints split_sizes, int dim = 0)')
def split_with_sizes(input, split_sizes, dim=0):
    if input.dim() == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    sizes = [int(s) for s in split_sizes]
    d = _wrap_dim(dim, input.dim())
    n = input._data.shape[d]
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, "
                           f"but got split_sizes={sizes}")
    if sum(sizes) != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input "
                           f"tensor's size at dimension {d}), but got split_sizes={sizes}")
    return _split(input, d, sizes, SplitWithSizesBackward0, split_sizes=sizes,
                  dim_arg=dim)


@parses('chunk(Tensor input, int chunks, int dim = 0)')
def chunk(input, chunks, dim=0):
    """``chunks`` pieces (or fewer) of equal size but the last: torch's ``split`` with
    ``ceil(size / chunks)``."""
    if input.dim() == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = input._data.shape[_wrap_dim(dim, input.dim())]
    if n == 0:  # torch: ``chunks`` empty pieces
        return split_with_sizes(input, [0] * chunks, dim)
    return split(input, (n + chunks - 1) // chunks, dim)


def _split(input, d, sizes, node_cls, **attrs):
    """Views of ``input`` along ``d``, one per size, outputs of one ``node_cls`` node."""
    keys, start = [], 0
    for s in sizes:
        keys.append((slice(None),) * d + (slice(start, start + s),))
        start += s
    outs = [Tensor._make(input._data[k]) for k in keys]
    attrs.update(dim=d, sizes=sizes)
    if outs[0]._data.dtype.kind == "f":
        if needs_grad((input,)):
            graph.record(node_cls, (input,), outs, **attrs)
        if forward_grad._state.level is not None:
            forward_grad.propagate(outs, node_cls, (input,), None, attrs)
    for o, key in zip(outs, keys):
        make_view(input, o, lambda x, key=key: x[key], MULTI_OUTPUT_NODE)
    return tuple(outs)


class SplitBackward0(Node):
    """Several views, one per piece: their gradients are joined back with ``cat``."""

    def backward(self, *grads):
        return cat(list(grads), self.dim)

    def jvp(self, t):
        return t.split(self.split_size, self.dim)


class SplitWithSizesBackward0(SplitBackward0):
    def jvp(self, t):
        return t.split(self.split_sizes, self.dim)


# --- repeat, flip, roll: copies ---------------------------------------------------------------
@parses('repeat(Tensor input, tuple of ints repeats)')
def repeat(input, *sizes, repeats=None):
    """Tile ``input`` ``repeats[i]`` times along each dim (new leading dims if more repeats)."""
    repeats = _shape_arg(sizes if repeats is None else (repeats,))
    if len(repeats) < input.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    lead = len(repeats) - input.dim()
    padded = (1,) * lead + input._data.shape
    target = [s * r for s, r in zip(padded, repeats)]
    for s in target:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {target}")
    data = np.tile(input._data.reshape(padded), repeats)
    return record(data, RepeatBackward0, (input,), repeats=repeats,
                  self_shape=input._data.shape)


class RepeatBackward0(Node):
    """out = self tiled: each element's gradient is the sum over its copies."""

    def backward(self, grad):
        if 0 in self.repeats:
            return grad.new_zeros(self.self_shape)
        lead = len(self.repeats) - len(self.self_shape)
        for _ in range(lead):
            grad = grad.sum(0)
        sizes, dims = [], []
        for r, s in zip(self.repeats[lead:], self.self_shape):
            if r != 1:
                dims.append(len(sizes))
                sizes.append(r)
            sizes.append(s)
        return grad.reshape(*sizes).sum(dims) if dims else grad  # as torch: no reshape

    def jvp(self, t):
        return t.repeat(*self.repeats)


def _dims_arg(dims):
    if len(dims) == 1 and isinstance(dims[0], tuple | list):
        return tuple(dims[0])
    return tuple(dims)


@parses('flip(Tensor input, tuple of ints dims)')
def flip(input, *dim_args, dims=None):
    """A copy with the order of elements reversed along ``dims``."""
    dims = _dims_arg(dim_args if dims is None else (dims,))
    wrapped = [_wrap_dim(d, input.dim()) for d in dims]
    for i, d in enumerate(wrapped):
        if d in wrapped[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    data = np.flip(input._data, tuple(wrapped)) if wrapped and input.dim() else \
        input._data.copy()  # (no dims: still a copy)
    return record(_layout.preserved(data, input._data), FlipBackward0, (input,),
                  dims=tuple(wrapped),
                  dims_arg=dims)


class FlipBackward0(Node):
    def backward(self, grad):  # the dims as given, as torch's formula passes them
        return grad.flip(self.dims_arg)

    def jvp(self, t):
        return t.flip(self.dims)


@parses('roll(Tensor input, tuple of ints[1] shifts, tuple of ints[1] dims = [])')
def roll(input, shifts, dims=None):
    """A copy with elements shifted along ``dims`` (flattened first without ``dims``),
    wrapping around."""
    shifts = tuple(shifts) if isinstance(shifts, tuple | list) else (shifts,)
    dims = () if dims is None else tuple(dims) if isinstance(dims, tuple | list) else (dims,)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if len(shifts) != len(dims) and not (not dims and len(shifts) == 1):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(dims)}")
    if dims and input.dim() == 0:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    wrapped = tuple(_wrap_dim(d, input.dim()) for d in dims)
    data = np.roll(input._data, shifts, wrapped or None) if wrapped else \
        np.roll(input._data, shifts[0])
    return record(np.array(data, order="C"), RollBackward0, (input,), shifts=shifts,
                  dims=wrapped, dims_arg=dims)


class RollBackward0(Node):
    def backward(self, grad):
        # torch's formula: both lists reversed, the shifts negated, the dims as given
        return grad.roll(tuple(-s for s in reversed(self.shifts)),
                         tuple(reversed(self.dims_arg)) or None)

    def jvp(self, t):
        return t.roll(self.shifts, self.dims or None)


# --- diagonal: a view -------------------------------------------------------------------------
def diagonal_data(data, offset, d1, d2):
    """A writable NumPy view of the diagonal ``offset`` of the (d1, d2) planes: the other dims
    first, the diagonal last, as torch's ``diagonal``."""
    index = [slice(None)] * data.ndim
    if offset >= 0:
        index[d2] = slice(offset, None)
    else:
        index[d1] = slice(-offset, None)
    sub = data[tuple(index)]
    length = min(sub.shape[d1], sub.shape[d2])
    others = [k for k in range(data.ndim) if k not in (d1, d2)]
    shape = tuple(sub.shape[k] for k in others) + (length,)
    strides = tuple(sub.strides[k] for k in others) + (sub.strides[d1] + sub.strides[d2],)
    return np.lib.stride_tricks.as_strided(sub, shape, strides)


@parses('diagonal(Tensor input, int offset = 0, int dim1 = 0, int dim2 = 1)')
def diagonal(input, offset=0, dim1=0, dim2=1):
    d1, d2 = _wrap_dim(dim1, input.dim()), _wrap_dim(dim2, input.dim())
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    data = diagonal_data(input._data, offset, d1, d2)
    return record_view(input, data, DiagonalBackward0,
                       lambda x: x.diagonal(offset, d1, d2), self_shape=input._data.shape,
                       offset=offset, dim1_arg=dim1, dim2_arg=dim2)


class DiagonalBackward0(_ViewNode):
    """out = a diagonal of self: the gradient goes back onto that diagonal of zeros."""

    def backward(self, grad):
        return view_backward(grad, self, self.view_fn, DiagonalBackwardBackward0)


class DiagonalBackwardBackward0(SelectBackwardBackward0):
    """out = diagonal_backward(grad): ``grad`` on the diagonal of a zero tensor"""

    fields = ("offset", "dim1_arg", "dim2_arg")


# --- unfold: sliding windows, a view -------------------------------------------------------------
def _int_arg(name, position, value):
    """torch's parser for an ``int`` argument: a bool or a float is refused, by type name."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"unfold(): argument '{name}' (position {position}) must be int, not "
                        f"{type(value).__name__}")
    return value.__index__()


def unfold_data(data, d, size, step):
    """A writable NumPy view of every window of ``size`` elements along dim ``d``, ``step``
    apart: dim ``d`` counts the windows, a new last dim walks inside one (torch's strides)."""
    if data.ndim == 0:
        return np.lib.stride_tricks.as_strided(data, (size,), (data.itemsize,))
    shape = list(data.shape)
    strides = list(data.strides)
    shape[d] = (shape[d] - size) // step + 1
    strides[d] = data.strides[d] * step
    return np.lib.stride_tricks.as_strided(data, (*shape, size), (*strides, data.strides[d]))


@parses('unfold(Tensor input, int dimension, int size, int step)')
def unfold(input, dimension, size, step):
    """``x.unfold(dimension, size, step)``: the windows of ``size`` elements along
    ``dimension``, ``step`` apart, as a view (windows that overlap share elements)."""
    dimension = _int_arg("dimension", 1, dimension)
    size, step = _int_arg("size", 2, size), _int_arg("step", 3, step)
    d = _wrap_dim(dimension, input.dim())
    longest = input._data.shape[d] if input.dim() else 1
    if size > longest:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {longest} but size is "
                           f"{size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    data = unfold_data(input._data, d, size, step)
    return record_view(input, data, UnfoldBackward0, lambda t: t.unfold(d, size, step),
                       self_shape=input._data.shape, dim=d, dim_arg=dimension, size=size,
                       step=step)


class UnfoldBackward0(_ViewNode):
    """out = self.unfold(dim, size, step): each window's gradient goes back to its place; where
    windows overlap, their gradients add up (torch's unfold_backward)."""

    def backward(self, grad):
        return unfold_backward(grad, self)


def unfold_backward(grad, node):
    """torch's ``unfold_backward``: an op of its own (UnfoldBackwardBackward0), so that under
    ``create_graph`` the gradient's graph is torch's."""
    shape, d, size, step = node.self_shape, node.dim, node.size, node.step
    g = grad._data
    out = np.zeros(shape if shape else (1,), dtype=g.dtype)
    lead = (slice(None),) * d
    windows = g.shape[d] if shape else 1
    for i in reversed(range(size)):  # each element sums its windows in their order, as torch
        place = out[(*lead, slice(i, i + step * (windows - 1) + 1, step))]
        place += g[..., i] if shape else g[i]
    return record(out.reshape(shape), UnfoldBackwardBackward0, (grad,), self_shape=shape, dim=d,
                  dim_arg=node.dim_arg, size=size, step=step)


class UnfoldBackwardBackward0(Node):
    """out = unfold_backward(grad): its own gradient takes the same windows again."""

    def backward(self, grad):
        return grad.unfold(self.dim, self.size, self.step)

    def jvp(self, t):
        return unfold_backward(t, self)


# --- as_strided -----------------------------------------------------------------------------------
@parses('as_strided(Tensor input, tuple of ints size, tuple of ints stride, '
        'int? storage_offset = None)')
def as_strided(input, size, stride, storage_offset=None):
    """A view of ``input``'s memory with any sizes and strides (in elements), starting
    ``storage_offset`` elements in (``input``'s own offset by default), after torch's checks
    (setStrided: lengths, strides, the memory's bounds, the offset). Its node is
    AsStridedBackward0 (``autograd/views.py``), whose backward adds up the gradients of
    elements the view repeats (overlapping strides) and shares them out where ``input``
    itself repeats memory (an expanded input), as torch's as_strided_backward does."""
    offset = input.storage_offset() if storage_offset is None else storage_offset
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(stride)}")
    itemsize = input._data.itemsize
    needed = _storage_nbytes(size, stride, itemsize)
    available = input.untyped_storage().nbytes()
    if needed and needed + offset * itemsize > available:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                           f"offset {offset}, and itemsize {itemsize} requiring a storage size "
                           f"of {needed + offset * itemsize} are out of bounds for storage of "
                           f"size {available}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    return views.as_strided(input, size, stride, offset, offset_arg=storage_offset)


def _storage_nbytes(size, stride, itemsize) -> int:
    """torch's computeStorageNbytes: the bytes a geometry reaches (none if it has no
    elements), with its error for a negative size."""
    if 0 not in size and any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    return views._storage_size(size, stride, 0) * itemsize
