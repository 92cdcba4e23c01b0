"""Joining tensors: ``cat`` along an existing dim, ``stack`` along a new one.

Backward cuts the gradient back into the pieces; forward mode joins the tangents the same way
(zeros for inputs without one).
"""

from __future__ import annotations

import numpy as np

from minigrad import _layout
from minigrad._ops._args import parses
from minigrad._ops._core import record, result_type
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


def _tangents_or_zeros(inputs, tangents):
    return [x.new_zeros(x.shape) if t is None else t for x, t in zip(inputs, tangents)]


def _tensor_sequence(name, tensors) -> list:
    """torch takes a sequence of tensors; a tensor alone is refused, not iterated."""
    if isinstance(tensors, Tensor):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        "not Tensor")
    return list(tensors)


@parses('cat(tuple of Tensors tensors, int dim = 0, *, Tensor out = None)')
def cat(tensors, dim=0):
    tensors = _tensor_sequence("cat", tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.dim() == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               "concatenated")
    # torch still accepts the legacy empty tensor (shape [0]) next to any other shape
    ref = next((t for t in tensors if t._data.shape != (0,)), tensors[0])
    d = _wrap_dim(dim, ref.dim())
    for i, t in enumerate(tensors):
        if t._data.shape == (0,) and ref._data.shape != (0,):
            continue
        if t.dim() != ref.dim():
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.dim()} "
                               f"and {t.dim()}")
        for k in range(ref.dim()):
            if k != d and t._data.shape[k] != ref._data.shape[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{ref._data.shape[k]} but got size {t._data.shape[k]} for tensor number "
                    f"{i} in the list.")
    dtype = result_type(*tensors)
    data = np.concatenate([t._data for t in tensors], axis=d).astype(dtype.numpy, copy=False)
    data = _layout.row_major(data)  # whatever the inputs' layout, as torch's cat
    return record(data, CatBackward0, tuple(tensors), dim=d, dim_arg=dim,
                  sizes=[t._data.shape[d] for t in tensors])


class CatBackward0(Node):
    def backward(self, grad):
        pieces, start = [], 0
        for size in self.sizes:
            pieces.append(grad.narrow(self.dim, start, size) if size is not None else None)
            start += size or 0
        return tuple(pieces)

    def jvp(self, *tangents):
        return cat(_tangents_or_zeros(self.inputs, tangents), self.dim)


@parses('stack(tuple of Tensors tensors, int dim = 0, *, Tensor out = None)')
def stack(tensors, dim=0):
    tensors = _tensor_sequence("stack", tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0]._data.shape
    d = _wrap_dim(dim, len(shape) + 1)
    for i, t in enumerate(tensors):
        if t._data.shape != shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(shape)} at entry 0 and {list(t._data.shape)} at entry {i}")
    dtype = result_type(*tensors)
    data = np.stack([t._data for t in tensors], axis=d).astype(dtype.numpy, copy=False)
    data = _layout.row_major(data)  # whatever the inputs' layout, as torch's stack
    return record(data, StackBackward0, tuple(tensors), dim=d, dim_arg=dim)


class StackBackward0(Node):
    def backward(self, grad):  # torch's stack_tensors_backward: one select per input
        return tuple(grad.select(self.dim_arg, i) for i in range(len(self._next_nodes)))

    def jvp(self, *tangents):
        return stack(_tangents_or_zeros(self.inputs, tangents), self.dim)
