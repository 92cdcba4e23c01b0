"""A model's parameters as one flat vector and back (torch's ``convert_parameters.py``):
what an optimizer written by hand, or a line search, works on."""

from __future__ import annotations

from minigrad._ops.join import cat
from minigrad._tensor import Tensor
from minigrad.nn.modules.module import typename


def parameters_to_vector(parameters) -> Tensor:
    """All the parameters' numbers in one 1-D tensor, in order (``cat`` of their views, so
    gradients flow back to them)."""
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters) -> None:
    """Each parameter's ``.data`` becomes its stretch of ``vec``, viewed in its shape."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
