"""Determinants: ``linalg.det`` (``LinalgDetBackward0``), ``linalg.slogdet`` (one node for the
sign and the log of the absolute value, ``LinalgSlogdetBackward0``) and ``logdet`` (torch's
composition: ``where(sign == -1, nan, logabsdet)``).

All three read an LU factorisation with partial pivoting (``_ops/lu.py``), as torch does:
``det = (-1)^swaps * prod(diag U)``, ``logabsdet = sum(log|diag U|)``. The nodes save the
factors, and the gradient ``det * A^{-H}`` (``A^{-H}`` for logabsdet) is solved with them,
or, under ``create_graph``, with a new ``linalg.solve`` (torch's ``linalg_det_backward`` and
``slogdet_backward``), so second derivatives have torch's graph.

At an exactly singular matrix (a zero pivot) the determinant's first derivative is what
torch's formula gives: the zero pivot replaced by epsilon, the result multiplied by
``det = 0``, so zero. Under ``create_graph`` torch differentiates a (nearly) singular matrix
through an SVD, which minigrad leaves out: that case raises a clear error.
"""

from __future__ import annotations

import numpy as np

from minigrad import return_types
from minigrad._ops import lu as _lu
from minigrad._ops._args import parses
from minigrad._ops._core import fused, needs_grad, record
from minigrad._ops.linalg import diag_embed
from minigrad._ops.pointwise import where
from minigrad._ops.solve import factor, floating_check, lu_solve, no_half_lu, solve, square_check
from minigrad._tensor import Tensor
from minigrad.autograd import forward_grad, graph
from minigrad.autograd.graph import Node

SINGULAR_CREATE_GRAPH = (
    "minigrad does not implement the derivative of linalg.det at a (nearly) singular matrix "
    "with create_graph=True: torch computes it through an SVD (linalg.svd), which minigrad "
    "leaves out; run this code with torch")


def _sequential(fn, start, values: np.ndarray) -> np.ndarray:
    """``start fn v0 fn v1 ...`` over the last dim, one element after another (torch's
    reduction of a short strided diagonal)."""
    out = np.full(values.shape[:-1], start, dtype=values.dtype)
    with np.errstate(all="ignore"):
        for k in range(values.shape[-1]):
            out = fn(out, values[..., k])
    return out


def _diag_matrix(values: np.ndarray, n: int) -> np.ndarray:
    """A batch of n x n matrices with ``values`` (batch-shaped) on each diagonal."""
    out = np.zeros((*values.shape, n, n), dtype=values.dtype)
    np.einsum("...ii->...i", out)[...] = values[..., None]
    return out


def _saved_factors(A, lu, pivots) -> dict:
    return {"A": A, "LU": Tensor._make(lu), "pivots": Tensor._make(pivots)}


@parses('linalg_det(Tensor A, *, Tensor out = None)')
def det(A):
    """The determinant of a square matrix (of each one, for a batch)."""
    square_check(A, "linalg.det")
    floating_check(A, "linalg.det")
    no_half_lu(A)
    lu, pivots, _, use_a_t = factor(A, A.is_contiguous())
    data = _lu.permutation_sign(pivots, lu.dtype) * _lu.diagonal_product(lu)
    return record(np.array(data), LinalgDetBackward0, (A,),
                  save=_saved_factors(A, lu, pivots), output_name="result", use_A_T=use_a_t)


@parses('det(Tensor input)')
def torch_det(input):
    """``torch.det`` and ``Tensor.det``: ``linalg.det`` under its older name."""
    return det(input)


class LinalgDetBackward0(Node):
    """out = det(A): d/dA = grad * det * A^{-H} (torch's linalg_det_backward)"""

    def backward(self, grad):
        A = self.saved("A")
        if A.numel() == 0:  # torch's undefined gradient, which .grad shows as empty
            return A.new_zeros(A.shape)
        if A.shape[-1] == 1:  # det of a 1 x 1 matrix is its entry (torch 2.13's shortcut)
            return grad.unsqueeze(-1).unsqueeze(-1).expand(*A.shape)
        result, pivots = self.saved("result"), self.saved("pivots")
        if fused():  # the saved factors, a zero pivot replaced by epsilon
            d = _diag_matrix(grad._data * result._data, A.shape[-1])
            lu = _lu.perturbed(self.saved("LU")._data)
            return Tensor._make(lu_solve(lu, pivots._data, d, True, not self.use_A_T))
        d = diag_embed((grad * result).unsqueeze(-1).expand_as(pivots)).mT
        if bool((np.abs(result._data) < 100 * np.finfo(result._data.dtype).eps).any()):
            raise NotImplementedError(SINGULAR_CREATE_GRAPH)
        return solve(A.mH, d)

    def jvp(self, t):
        """d det = tr(A^{-1} dA) det (torch's linalg_det_jvp, with its epsilon pivots)"""
        lu = _lu.perturbed(self.LU._data)
        eye = np.broadcast_to(np.eye(lu.shape[-1], dtype=lu.dtype), lu.shape)
        inverse = Tensor._make(lu_solve(lu, self.pivots._data, eye, True, self.use_A_T))
        return (inverse.mT * t).sum((-2, -1)) * self.result


def _slogdet(A, name: str, kind):
    square_check(A, name)
    floating_check(A, name, low_precision=False)
    lu, pivots, _, use_a_t = factor(A, A.is_contiguous())
    diag = np.diagonal(lu, 0, -2, -1)
    with np.errstate(divide="ignore"):
        sign = _sequential(np.multiply, 1, np.sign(diag)) * _lu.permutation_sign(pivots,
                                                                                   lu.dtype)
        logabsdet = _sequential(np.add, 0, np.log(np.abs(diag)))
    outs = (Tensor._make(np.array(sign)),
            Tensor._make(np.array(logabsdet)))
    save, attrs = _saved_factors(A, lu, pivots), {"use_A_T": use_a_t}
    if needs_grad((A,)):
        node = graph.record(LinalgSlogdetBackward0, (A,), outs, save=save, **attrs)
        node.save_output("sign", outs[0], 0)
    if forward_grad._state.level is not None:
        forward_grad.propagate(outs, LinalgSlogdetBackward0, (A,), save, attrs)
    return kind(outs)


@parses('linalg_slogdet(Tensor A)')
def slogdet(A):
    """``(sign, logabsdet)``: the determinant's sign and the log of its absolute value, which
    stays finite where the determinant itself under- or overflows."""
    return _slogdet(A, "linalg.slogdet", return_types.linalg_slogdet)


@parses('slogdet(Tensor input)')
def torch_slogdet(input):
    """``torch.slogdet`` and ``Tensor.slogdet``: the same, as ``torch.return_types.slogdet``."""
    return _slogdet(input, "linalg.slogdet", return_types.slogdet)


@parses('logdet(Tensor input)')
def logdet(input):
    """log(det): NaN for a negative determinant (torch's composition of slogdet and where)."""
    square_check(input, "logdet")
    floating_check(input, "logdet", low_precision=False)
    sign, logabsdet = _slogdet(input, "linalg.slogdet", tuple)
    return where(sign == -1.0, float("nan"), logabsdet)


class LinalgSlogdetBackward0(Node):
    """(sign, logabsdet) = slogdet(A): d logabsdet/dA = grad * A^{-H}; the sign's derivative
    is zero for real matrices (torch's slogdet_backward)"""

    materialize_grads = False

    def backward(self, grad_sign, grad_logabsdet):
        if grad_logabsdet is None:
            return None
        A, pivots = self.saved("A"), self.saved("pivots")
        if fused():
            d = _diag_matrix(grad_logabsdet._data, A.shape[-1])
            return Tensor._make(lu_solve(self.saved("LU")._data, pivots._data, d, True,
                                         not self.use_A_T))
        d = diag_embed(grad_logabsdet.unsqueeze(-1).expand_as(pivots)).mT
        return solve(A.mH, d)

    def jvp(self, t):
        """d logabsdet = tr(A^{-1} dA); the sign's tangent is zero"""
        lu = self.LU._data
        eye = np.broadcast_to(np.eye(lu.shape[-1], dtype=lu.dtype), lu.shape)
        inverse = Tensor._make(lu_solve(lu, self.pivots._data, eye, True, self.use_A_T))
        sign = self.result[0]
        return sign.new_zeros(sign.shape), (inverse.mT * t).sum((-2, -1))
