"""Distances and similarities between vectors: ``cosine_similarity``, ``pairwise_distance`` and
``dist``, as torch builds them.

torch composes ``cosine_similarity`` from other ops (``Distance.cpp``): each input divided by
its own 2-norm (a clone of it, clamped at ``eps`` in place where autograd does not look), the
two quotients multiplied and summed, so its graph is ``SumBackward1``, ``MulBackward0``,
``DivBackward0``, ``CloneBackward0``, ``LinalgVectorNormBackward0``. ``pairwise_distance`` is
``norm(x1 - x2 + eps, p, last dim)`` through ``at::norm``, whose node is ``NormBackward1``;
``dist`` is one node, ``DistBackward0``; ``cdist`` is ``CdistBackward0``, or for many rows
torch's matrix-product form (``EuclideanDistBackward0``). ``NormBackward1`` and
``DistBackward0`` use torch's ``norm_backward``, the formula ``linalg.vector_norm`` uses
(``reduction._norm_backward``).
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype, _layout
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
    right = x2 / n2  # first, as torch's compiled C++ evaluates it (the order of accumulation)
    return ((x1 / n1) * right).sum(dim)


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
    return record(_layout.row_major(out), NormBackward1, (input,), save={"self": input},
                  output_name="result",
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


# --- cdist: the p-norm distance between every row of x1 and every row of x2 --------------------
_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
          "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """``out[..., i, j] = |x1[..., i, :] - x2[..., j, :]|_p``. As torch: for p = 2 and more
    than 25 rows (or ``compute_mode="use_mm_for_euclid_dist"``) through one matrix product
    (``EuclideanDistBackward0``, then ``ViewBackward0``), otherwise one node,
    ``CdistBackward0`` (differentiable once only, as torch's)."""
    if compute_mode not in _MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    return _cdist.as_function(x1, x2, p, _MODES[compute_mode])  # (torch's _VF.cdist parses)


@parses('cdist(Tensor x1, Tensor x2, float p, int? compute_mode)')
def _cdist(x1, x2, p, compute_mode):
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{x.dim()}D")
    c1, c2 = x1.shape[-1], x2.shape[-1]
    if c1 != c2:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}")
    mode = 0 if compute_mode is None else compute_mode
    r1, r2 = x1.shape[-2], x2.shape[-2]
    mm = p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))
    if not mm and _dtype.float16 in (x1.dtype, x2.dtype):  # (the product way has one)
        raise NotImplementedError("\"cdist\" not implemented for 'Half'")
    if x1.numel() == 0 or x2.numel() == 0 or not mm:
        return _cdist_forward(x1, x2, p, mode)
    _cdist_checks(x1, x2, p, mode)
    batch = _batch_shape(x1, x2)
    n = 1
    for s in batch:
        n *= s
    if n == 1:
        out = _euclidean_dist(x1, x2)
    else:
        out = _euclidean_dist(x1.expand(*batch, r1, c1).contiguous().view(n, r1, c1),
                              x2.expand(*batch, r2, c2).contiguous().view(n, r2, c2))
    return out.view(*batch, r1, r2)


def _cdist_checks(x1, x2, p, mode):
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{x.dtype.scalar_name}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if not 0 <= mode <= 2:
        raise RuntimeError(f"possible modes: 0, 1, 2, but was: {mode}")


def _batch_shape(x1, x2):
    a, b = x1._data[..., :1, :1], x2._data[..., :1, :1]
    check_same_shape_broadcast(a, b)
    return _broadcast_shape(x1.shape[:-2], x2.shape[:-2])


def _cdist_forward(x1, x2, p, mode):
    """torch's ``_cdist_forward``: one node, ``CdistBackward0``."""
    _cdist_checks(x1, x2, p, mode)
    batch = _batch_shape(x1, x2)
    if x1.dtype is not x2.dtype and x1.numel() and x2.numel():
        raise RuntimeError(f"expected scalar type {x1.dtype.scalar_name} but found "
                           f"{x2.dtype.scalar_name}")
    a = np.broadcast_to(x1._data, (*batch, *x1.shape[-2:]))
    b = np.broadcast_to(x2._data, (*batch, *x2.shape[-2:]))
    diff = a[..., :, None, :] - b[..., None, :, :].astype(a.dtype)
    out = vector_norm_data(diff, float(p), (diff.ndim - 1,), False) if diff.size else \
        np.zeros(diff.shape[:-1], dtype=a.dtype)
    return record(_layout.row_major(out), CdistBackward0, (x1, x2),
                  save={"x1": x1, "x2": x2},
                  output_name="result", p=float(p))


def _cdist_backward_data(grad, x1, x2, p, dist):
    """torch's CPU ``_cdist_backward`` kernel: the gradient for ``x1`` (batch dims
    broadcast), summed over the rows of ``x2``."""
    diff = x1[..., :, None, :] - x2[..., None, :, :]
    d, g = dist[..., None], grad[..., None]
    with np.errstate(all="ignore"):
        if p == 0:
            terms = np.zeros_like(diff)
        elif p == 1:
            terms = g * np.sign(diff)
        elif p < 2:
            terms = np.sign(diff) * np.abs(diff) ** (p - 1) * g / d ** (p - 1)
            terms = np.where((d == 0) | ((diff == 0) & (p < 1)), 0, terms)
        elif p == 2:
            terms = np.where(d == 0, 0, g * diff / d)
        elif p == float("inf"):
            terms = g * np.sign(diff) * (1 - np.minimum(1, np.ceil(np.abs(np.abs(diff) - d))))
        else:
            terms = np.where(d == 0, 0, diff * np.abs(diff) ** (p - 2) * g / d ** (p - 1))
    return terms.sum(axis=-2).astype(x1.dtype, copy=False)


def _cdist_backward(grad, x1, x2, p, dist):
    """``_cdist_backward(grad, x1, x2, p, dist)``: computed as torch's kernel; under
    create_graph its node is ``CdistBackwardBackward0``, which torch cannot differentiate."""
    batch = _batch_shape(x1, x2)
    a = np.broadcast_to(x1._data, (*batch, *x1.shape[-2:]))
    b = np.broadcast_to(x2._data, (*batch, *x2.shape[-2:]))
    if 0 in a.shape or 0 in b.shape:
        data = np.zeros(x1.shape, dtype=x1._data.dtype)
    else:
        data = _cdist_backward_data(grad._data, a, b, p, dist._data)
    return record(data, CdistBackwardBackward0, (grad, x1, x2, dist))


def _no_forward_ad(name):
    raise NotImplementedError(
        f"Trying to use forward AD with {name} that does not support it because it has not been "
        "implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
        "can prioritize its implementation or submit a PR adding the implementation to "
        "derivatives.yaml")


class CdistBackward0(Node):
    """``_cdist_backward(grad, x1, x2, p, result)`` for x1, and with the two swapped (and
    grad and result transposed) for x2."""

    def backward(self, grad):
        x1, x2, result = self.saved("x1"), self.saved("x2"), self.saved("result")
        g1 = _cdist_backward(grad.contiguous(), x1, x2, self.p, result) \
            if self.needs_input_grad[0] else None
        g2 = _cdist_backward(grad.mT.contiguous(), x2, x1, self.p, result.mT.contiguous()) \
            if self.needs_input_grad[1] else None
        return g1, g2

    def jvp(self, t1, t2):
        _no_forward_ad("_cdist_forward")


class CdistBackwardBackward0(Node):
    """torch has no derivative for ``_cdist_backward``."""

    def backward(self, grad):
        raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")

    def jvp(self, *tangents):
        _no_forward_ad("_cdist_backward")


def _euclidean_dist(x1, x2):
    """torch's ``_euclidean_dist``: ``|a|^2 - 2 a.b + |b|^2`` from one matrix product of
    ``[-2 x1, |x1|^2, 1]`` and ``[x2, 1, |x2|^2]``, clamped at 0, square-rooted."""
    a, b = x1._data, x2._data
    n1 = (a * a).sum(axis=-1, keepdims=True)
    n2 = (b * b).sum(axis=-1, keepdims=True)
    left = np.concatenate([a * -2, n1, np.ones_like(n1)], axis=-1)
    right = np.concatenate([b, np.ones_like(n2), n2], axis=-1)
    prod = np.matmul(left, np.swapaxes(right, -1, -2))
    data = np.sqrt(np.maximum(prod, 0)).astype(a.dtype, copy=False)
    return record(_layout.row_major(data), EuclideanDistBackward0, (x1, x2),
                  save={"x1": x1, "x2": x2},
                  output_name="result")


class EuclideanDistBackward0(Node):
    """torch's ``_euclidean_dist_backward``: with ``ratio = grad / result`` (0 where the
    distance is 0), ``x1 * ratio.sum(-1, True) - ratio @ x2`` and
    ``x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT @ x1``."""

    def backward(self, grad):
        x1, x2, res = self.saved("x1"), self.saved("x2"), self.saved("result")
        ratio = (grad / res).masked_fill(res == 0, 0)
        g1 = x1 * ratio.sum(-1, True) - ratio.matmul(x2) if self.needs_input_grad[0] else None
        g2 = x2 * ratio.sum(-2, False).unsqueeze(-1) - ratio.mT.matmul(x1) \
            if self.needs_input_grad[1] else None
        return g1, g2

    def jvp(self, t1, t2):
        _no_forward_ad("_euclidean_dist")
