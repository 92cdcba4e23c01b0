"""``Tensor.resize`` and ``Tensor.resize_as`` (deprecated, without the underscore), as torch
has them: a custom ``Function`` (``torch.autograd._functions.Resize``, so the result's
``grad_fn`` is ``ResizeBackward``) that reshapes to a shape of the same number of elements,
sharing memory with the input when it is contiguous. Old books still call them."""

from __future__ import annotations

import math
import warnings

from minigrad.autograd.function import Function


class Resize(Function):
    @staticmethod
    def forward(ctx, tensor, sizes):
        ctx.sizes = sizes
        ctx.numel = math.prod(sizes)
        if tensor.numel() != ctx.numel:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({ctx.numel} elements in "
                f"total), but the given tensor has a size of "
                f"{'x'.join(map(str, tensor.size()))} ({tensor.numel()} elements). autograd's "
                "resize can only change the shape of a given tensor, while preserving the "
                "number of elements. ")
        ctx.input_sizes = tensor.size()
        if tensor.is_contiguous():  # torch: tensor.new(tensor), an alias of the same memory
            return tensor.detach().view(*sizes)
        return tensor.contiguous().view(*sizes)

    @staticmethod
    def backward(ctx, grad_output):
        if grad_output.numel() != ctx.numel:
            raise AssertionError(f"Expected grad_output to have {ctx.numel} elements, but got "
                                 f"{grad_output.numel()}")
        return grad_output.contiguous().view(ctx.input_sizes), None


def resize(self, *sizes):
    warnings.warn("non-inplace resize is deprecated", stacklevel=2)
    return Resize.apply(self, sizes)


def resize_as(self, tensor):
    warnings.warn("non-inplace resize_as is deprecated", stacklevel=2)
    return Resize.apply(self, tensor.size())
