"""The scatter forms of the view ops: select_scatter, slice_scatter, diagonal_scatter. Each
returns a copy of ``input`` (laid out as ``input``, as torch's clone) with ``src`` written
where the view would read; the view op itself gives the index errors, the size check is
torch's. Their gradients are ``derivatives.yaml``'s: ``input``'s is the gradient with zeros
scattered in, ``src``'s the view of the gradient.
"""

from __future__ import annotations

import numpy as np

from minigrad import _layout
from minigrad._ops import shape as S
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._ops.indexing import select, slice_dim
from minigrad._tensor import Tensor
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


def _scatter(input, src, view, node_cls, **attrs):
    """``input`` copied, ``src`` written into ``view(copy)``: one ``node_cls`` node."""
    out = Tensor._make(_layout.copy_like(input._data, None))
    with grad_mode.no_grad():
        place = view(out)
    if place.shape != src.shape:
        raise RuntimeError("expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(place.shape)}")
    place._data[...] = src._data
    return record(out._data, node_cls, (input, src), shapes=(input._data.shape, src.shape),
                  **attrs)


def _zeros_like(node, i, t):
    return Tensor._make(np.zeros(node.shapes[i], dtype=t._data.dtype))


class _ViewScatter:
    """The nodes' shared rules (a mixin, not a node of its own): the gradient with zeros
    scattered where src went for input, the view of the gradient for src."""

    def backward(self, grad):
        return (self.scatter(self, grad, _zeros_like(self, 1, grad))
                if self.needs_input_grad[0] else None,
                self.view(self, grad) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_src):
        """``<op>_scatter(self_t, src_t)``, a missing tangent as zeros (in forward mode
        ``self`` is the op's context: the rules are read from its node class)."""
        rules = self.node_cls
        ref = t_self if t_self is not None else t_src
        base = t_self if t_self is not None else _zeros_like(self, 0, ref)
        return rules.scatter(self, base, t_src if t_src is not None else _zeros_like(self, 1, ref))


@parses('select_scatter(Tensor input, Tensor src, int dim, int index)')
def select_scatter(input, src, dim, index):
    """``input`` with ``src`` in place of ``input.select(dim, index)``."""
    return _scatter(input, src, lambda t: select(t, dim, index), SelectScatterBackward0,
                    dim_arg=dim, index=index)


class SelectScatterBackward0(_ViewScatter, Node):
    @staticmethod
    def scatter(ctx, base, src):
        return select_scatter(base, src, ctx.dim_arg, ctx.index)

    @staticmethod
    def view(ctx, t):
        return select(t, ctx.dim_arg, ctx.index)


@parses('slice_scatter(Tensor input, Tensor src, int dim = 0, int? start = None, '
        'int? end = None, int step = 1)')
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """``input`` with ``src`` in place of ``input[..., start:end:step, ...]`` (along dim)."""
    if step <= 0:  # torch's slice_scatter checks it before its slice (whose words differ)
        raise RuntimeError("slice step must be positive")
    return _scatter(input, src, lambda t: slice_dim(t, dim, start, end, step),
                    SliceScatterBackward0, dim_arg=dim, start=start, end=end, step=step)


class SliceScatterBackward0(_ViewScatter, Node):
    @staticmethod
    def scatter(ctx, base, src):
        return slice_scatter(base, src, ctx.dim_arg, ctx.start, ctx.end, ctx.step)

    @staticmethod
    def view(ctx, t):
        return slice_dim(t, ctx.dim_arg, ctx.start, ctx.end, ctx.step)


@parses('diagonal_scatter(Tensor input, Tensor src, int offset = 0, int dim1 = 0, '
        'int dim2 = 1)')
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``input`` with ``src`` on its diagonal ``offset`` of the (dim1, dim2) planes."""
    return _scatter(input, src, lambda t: S.diagonal(t, offset, dim1, dim2),
                    DiagonalScatterBackward0, offset=offset, dim1_arg=dim1, dim2_arg=dim2)


class DiagonalScatterBackward0(_ViewScatter, Node):
    @staticmethod
    def scatter(ctx, base, src):
        return diagonal_scatter(base, src, ctx.offset, ctx.dim1_arg, ctx.dim2_arg)

    @staticmethod
    def view(ctx, t):
        return S.diagonal(t, ctx.offset, ctx.dim1_arg, ctx.dim2_arg)
