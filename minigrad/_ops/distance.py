"""Distances and similarities between vectors: ``cosine_similarity``, ``pairwise_distance`` and
``dist``, as torch builds them.

torch composes ``cosine_similarity`` from other ops (``Distance.cpp``): each input divided by
its own 2-norm (a clone of it, clamped at ``eps`` in place where autograd does not look), the
two quotients multiplied and summed, so its graph is ``SumBackward1``, ``MulBackward0``,
``DivBackward0``, ``CloneBackward0``, ``LinalgVectorNormBackward0``. ``pairwise_distance`` is
``norm(x1 - x2 + eps, p, last dim)`` through ``at::norm``, whose node is ``NormBackward1``;
``dist`` is one node, ``DistBackward0``. Both nodes use torch's ``norm_backward``, the formula
``linalg.vector_norm`` uses (``reduction._norm_backward``).
"""

from __future__ import annotations

from minigrad._ops import shape as S
from minigrad._ops._args import parses
from minigrad._ops._core import check_same_shape_broadcast, record, result_type
from minigrad._ops.pointwise import add_scalar
from minigrad._ops.reduction import (
    LinalgVectorNormBackward0,
    _norm_backward,
    norm,
    vector_norm_data,
)
from minigrad._tensor import _wrap_dim
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


@parses('cosine_similarity(Tensor x1, Tensor x2, int dim = 1, float eps = 1e-08)')
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``<x1, x2> / (|x1| |x2|)`` along ``dim``: each input is divided by its norm first (a
    clone, clamped at ``eps`` under no_grad), as torch does, which keeps the result in
    [-1, 1]."""
    common = result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError("expected common dtype to be floating point, yet common dtype is "
                           f"{common.scalar_name}")
    if not x1.dtype.is_floating_point:
        x1 = S.to(x1, common)
    if not x2.dtype.is_floating_point:
        x2 = S.to(x2, common)
    if x1.shape != x2.shape:  # torch's expand_outplace: both expanded when the shapes differ
        check_same_shape_broadcast(x1._data, x2._data)
        shape = _broadcast_shape(x1.shape, x2.shape)
        x1, x2 = x1.expand(*shape), x2.expand(*shape)
    n1 = norm(x1, 2, dim, True).clone()
    n2 = norm(x2, 2, dim, True).clone()
    with grad_mode.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def _broadcast_shape(a, b):
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return tuple(y if x == 1 else x for x, y in zip(a, b, strict=True))


@parses('pairwise_distance(Tensor x1, Tensor x2, float p = 2, float eps = 1e-06, '
        'bool keepdim = False)')
def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of ``x1 - x2 + eps`` over the last dim of the broadcast shape (``eps`` keeps
    the gradient finite where the two are equal)."""
    diff = add_scalar(x1 - x2, eps)
    return _norm_p(diff, float(p), max(x1.dim(), x2.dim()) - 1, keepdim)


def _norm_p(input, p, dim, keepdim):
    """``at::norm(input, p, dim, keepdim)``: linalg.vector_norm's value, ``NormBackward1``."""
    if not input.dtype.is_floating_point:
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {input.dtype.scalar_name} instead.")
    data = input._data
    dims = (_wrap_dim(dim, data.ndim),) if data.ndim else ()
    out = vector_norm_data(data, p, dims, keepdim)
    return record(out, NormBackward1, (input,), save={"self": input}, output_name="result",
                  ord=p, dim=dims, keepdim=keepdim, dim_arg=dim, ord_arg=p)


class NormBackward1(LinalgVectorNormBackward0):
    """out = sum(|self|^p, dim)^(1/p): at::norm with a dim, the same formula as
    linalg.vector_norm's (torch's norm_backward)."""


@parses('dist(Tensor input, Tensor other, Number p = 2)')
def dist(input, other, p=2):
    """``norm(input - other, p)`` over every element, one node (``DistBackward0``)."""
    d = result_type(input, other)
    check_same_shape_broadcast(input._data, other._data)
    if not d.is_floating_point:
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {d.scalar_name} instead.")
    a, b = input._data.astype(d.numpy), other._data.astype(d.numpy)
    diff = a - b
    out = vector_norm_data(diff, float(p), tuple(range(diff.ndim)), False)
    return record(out, DistBackward0, (input, other),
                  save={"self": input, "other": other}, output_name="result", p=p)


class DistBackward0(Node):
    """``norm_backward(grad, self - other, p, result)`` for self, its negative for other."""

    def _grad(self, grad, x, result):
        p = float(self.p)
        if p == 0:
            return None
        return _norm_backward(x, result, grad, p, ())

    def backward(self, grad):
        x, y, result = self.saved("self"), self.saved("other"), self.saved("result")
        g_self = self._grad(grad, x - y, result) if self.needs_input_grad[0] else None
        g_other = None
        if self.needs_input_grad[1]:
            g = self._grad(grad, x - y, result)
            if g is None:  # p = 0: torch negates its undefined gradient, which raises
                raise RuntimeError("Expected a proper Tensor but got None (or an undefined "
                                   "Tensor in C++) for argument #0 'self'")
            g_other = -g
        return g_self, g_other

    def jvp(self, t_self, t_other):
        x, y = self.inputs
        if float(self.p) == 0:
            return self.result.new_zeros(self.result.shape)
        if t_self is None:
            t = -t_other
        elif t_other is None:
            t = t_self
        else:
            t = t_self - t_other
        one = self.result.new_zeros(()) + 1
        return (t * _norm_backward(x - y, self.result, one, float(self.p), ())).sum()
