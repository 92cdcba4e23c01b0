"""Assorted torch functions that torch composes from other ops, written as its C++ composes
them so that the graph they record is torch's, node for node:

* ``combinations``: ``meshgrid`` of ``r`` copies of the vector (ViewBackward0 and
  ExpandBackward0), each grid masked (MaskedSelectBackward0) by the "i < j < ..." (or
  "i <= j <= ...") mask, stacked as columns (StackBackward0);
* ``cov`` and ``corrcoef``: the weighted mean subtracted, one ``mm``, a true division by the
  normalization factor, a squeeze; corrcoef divides by the standard deviations and clips;
* ``diagflat``: ``diag_embed`` of the flattened tensor;
* ``renorm``: a real node (RenormBackward0) whose backward is torch's renorm_backward;
* ``chain_matmul``: deprecated (a warning, once), then ``linalg.multi_dot``;
* ``real`` and ``imag`` of a real tensor: the tensor itself, and torch's error.
"""

from __future__ import annotations

import warnings

import numpy as np

from minigrad import _dtype
from minigrad._ops import pointwise as P
from minigrad._ops import subclass
from minigrad._ops._args import parses, type_name
from minigrad._ops._core import record
from minigrad._ops.inplace import _saved_original, apply_inplace
from minigrad._ops.join import stack
from minigrad._ops.linalg import diag_embed, mm
from minigrad._ops.multi_dot import multi_dot
from minigrad._ops.rearrange import meshgrid
from minigrad._ops.reduction import _norm_backward, vector_norm_data
from minigrad._tensor import Tensor, _warn_once, _wrap_dim
from minigrad.autograd.graph import Node

CHAIN_MATMUL_WARNING = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters.")
COV_DOF_WARNING = ("cov(): degrees of freedom is <= 0. Correction should be strictly less than "
                   "the number of observations.")


# --- combinations ------------------------------------------------------------------------------
@parses('combinations(Tensor input, int r = 2, bool with_replacement = False)')
def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of a vector's elements (with repeats when
    ``with_replacement``), one per row, in lexicographic order of positions."""
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return Tensor._make(np.empty((0,), dtype=input._data.dtype))
    n = input.shape[0]
    positions = np.meshgrid(*([np.arange(n)] * r), indexing="ij")
    mask = np.ones(positions[0].shape, dtype=bool)
    for a, b in zip(positions[:-1], positions[1:], strict=True):
        mask &= (a <= b) if with_replacement else (a < b)
    mask = Tensor._make(mask)
    grids = meshgrid(*([input] * r), indexing="ij")
    return stack([g.masked_select(mask) for g in grids], 1)


# --- cov, corrcoef -----------------------------------------------------------------------------
def _check_weights(w, kind, n):
    if w.dim() > 1:
        raise RuntimeError(f"cov(): expected {kind} to have one or fewer dimensions but got "
                           f"{kind} with {w.dim()} dimensions")
    integral = kind == "fweights"
    if integral and (w.dtype.is_floating_point or w.dtype is _dtype.bool):
        raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights "
                           f"with {w.dtype.scalar_name} dtype")
    if not integral and not w.dtype.is_floating_point:
        raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got "
                           f"aweights with {w.dtype.scalar_name} dtype")
    if w.numel() != n:
        raise RuntimeError(f"cov(): expected {kind} to have the same numel as there are "
                           f"observations in the input but got {w.numel()} != {n}")
    if n and w._data.min() < 0:
        raise RuntimeError(f"cov(): {kind} cannot be negative")


@parses('cov(Tensor input, *, int correction = 1, Tensor? fweights = None, '
        'Tensor? aweights = None)')
def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in ``input``'s rows (observations in its
    columns), weighted by observation counts ``fweights`` and weights ``aweights``."""
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.dim()} dimensions")
    if input.dtype is _dtype.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", n)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", n)
        w = aweights if w is None else w * aweights
    long = Tensor._make(np.array(n, dtype=np.int64))
    w_sum = long if w is None else w.sum()
    if w is not None and not w_sum._data != 0:
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x if w is None else x * w).sum(1) / w_sum
    if w is None:
        norm_factor = Tensor._make(np.array(n - correction, dtype=np.int64))
    elif correction == 0:
        norm_factor = w_sum
    elif aweights is None:
        norm_factor = w_sum - correction
    elif fweights is None and n == 1 and correction == 1:
        norm_factor = Tensor._make(np.array(0, dtype=np.int64))
    else:
        norm_factor = w_sum - P.mul_scalar((w * aweights).sum(), correction) / w_sum
    if norm_factor._data <= 0:
        warnings.warn(COV_DOF_WARNING, UserWarning, stacklevel=subclass.stacklevel(3))
        norm_factor = norm_factor.detach() * 0
    centered = x - avg.unsqueeze(1)
    c = mm(centered, (centered if w is None else centered * w).t())
    return P.div(c, norm_factor).squeeze()


@parses('corrcoef(Tensor input)')
def corrcoef(input):
    """Pearson's correlation coefficients: ``cov`` over the products of the standard
    deviations, clipped to [-1, 1] as NumPy does."""
    if input.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {input.dim()} dimensions")
    c = cov(input)
    if c.dim() == 0:
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


# --- diagflat ----------------------------------------------------------------------------------
@parses('diagflat(Tensor input, int offset = 0)')
def diagflat(input, offset=0):
    """A square matrix with the flattened ``input`` on diagonal ``offset``."""
    return diag_embed(input.contiguous().view(-1), offset)


# --- renorm ------------------------------------------------------------------------------------
def _renorm_check(input, p, dim, maxnorm):
    d = _wrap_dim(dim, max(input.dim(), 1))
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {input.dtype.scalar_name}")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input.dim() <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.dim()} "
                           "dimensions")
    return d


def _renormed(input, p, d, maxnorm):
    """Each slice along ``d`` whose p-norm is over ``maxnorm`` scaled down to it: the norms in
    double (torch's CPU accumulate type), the product rounded once to the tensor's dtype."""
    dims = tuple(k for k in range(input.dim()) if k != d)
    data = input._data.astype(np.float64)
    norm = vector_norm_data(data, float(p), dims, True)
    with np.errstate(all="ignore"):
        factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
        return np.ascontiguousarray((data * factor).astype(input._data.dtype))


@parses('renorm(Tensor input, Number p, int dim, Number maxnorm, *, Tensor out = None)')
def renorm(input, p, dim, maxnorm):
    """``input`` with each slice along ``dim`` rescaled to p-norm at most ``maxnorm``."""
    d = _renorm_check(input, p, dim, maxnorm)
    return record(_renormed(input, p, d, maxnorm), RenormBackward0, (input,),
                  save={"self": input}, p=p, dim=d, dim_arg=dim, maxnorm=maxnorm)


@parses('renorm_(Tensor input, Number p, int dim, Number maxnorm)')
def renorm_(self, p, dim, maxnorm):
    d = _renorm_check(self, p, dim, maxnorm)
    return apply_inplace(self, _renormed(self, p, d, maxnorm), RenormBackward0, (self,),
                         save={"self": _saved_original(self, True)}, p=p, dim=d, dim_arg=dim,
                         maxnorm=maxnorm)


def _slice_norms(x, p, d):
    """The p-norms of ``x``'s slices along ``d`` (the other dims kept, of size 1)."""
    dims = [k for k in range(x.dim()) if k != d]
    return x.norm(p, dims, True), dims


class RenormBackward0(Node):
    """torch's renorm_backward: where a slice's norm exceeds maxnorm the output is
    ``maxnorm * self / (norm + 1e-7)``, so its gradient runs through the norm too
    (linalg_vector_norm's backward); elsewhere the gradient is ``grad``."""

    def backward(self, grad):
        x = self.saved("self")
        norm, dims = _slice_norms(x, self.p, self.dim)
        grad_output = (x * grad).sum(dims, True)
        nb = _norm_backward(x, norm, grad_output, float(self.p), dims)
        invnorm = P.add_scalar(norm, 1e-7).reciprocal()
        grad_norm = P.mul_scalar(invnorm, self.maxnorm) * (grad - invnorm * nb)
        return P.where(norm > self.maxnorm, grad_norm, grad)

    def jvp(self, t):
        x = self.inputs[0]
        norm, dims = _slice_norms(x, self.p, self.dim)
        one = norm.new_zeros(norm.shape) + 1
        norm_t = (t * _norm_backward(x, norm, one, float(self.p), dims)).sum(dims, True)
        invnorm = P.add_scalar(norm, 1e-7).reciprocal()
        factor = P.mul_scalar(invnorm, self.maxnorm)
        return P.where(norm > self.maxnorm, factor * (t - x * invnorm * norm_t), t)


# --- chain_matmul ------------------------------------------------------------------------------
def chain_matmul(*matrices):
    """Deprecated (torch warns once): the product of the matrices, as ``linalg.multi_dot``;
    one matrix gives a copy. The matrices come one by one (a list is refused, as torch's
    parser refuses it)."""
    for i, m in enumerate(matrices):
        if not isinstance(m, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type_name(m)}")
    _warn_once(CHAIN_MATMUL_WARNING)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if len(matrices) == 1:
        return matrices[0].clone()
    return multi_dot(list(matrices))


# --- real, imag --------------------------------------------------------------------------------
@parses('real(Tensor input)')
def real(input):
    """The real part: a real tensor itself (minigrad has no complex tensors)."""
    return input


@parses('imag(Tensor input)')
def imag(input):
    """The imaginary part, which a real tensor does not have: torch's error."""
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
