"""The losses torch composes from other ops in C++ (``aten/src/ATen/native/Loss.cpp``), built
from minigrad's ops the same way so their graphs are torch's node for node:

* ``kl_div``: ``xlogy(target, target) - target * input`` (``exp(target) * (target - input)``
  with ``log_target``), then reduced;
* ``margin_ranking_loss``: ``(-target * (input1 - input2) + margin).clamp_min_(0)``;
* ``hinge_embedding_loss``: ``where(target != 1, (margin - input).clamp_min_(0), 0) +
  where(target != -1, input, 0)``;
* ``cosine_embedding_loss``: the cosine from sums of products, then ``1 - cos`` or
  ``(cos - margin).clamp_min_(0)`` by the target's sign;
* ``triplet_margin_loss``: ``clamp_min(margin + d(a, p) - d(a, n), 0)`` with
  ``pairwise_distance``;
* ``poisson_nll_loss``: ``exp(input) - target * input`` (or ``input - target * log(input +
  eps)``), plus Stirling's term with ``full``.

``reduction`` is torch's enum here (0 none, 1 mean, 2 sum), as ``torch.kl_div`` takes it; the
torch.* spellings default to 0, as torch's Python bindings do (``nn.functional`` passes the
enum). kl_div uses ``elementary.xlogy`` (``XlogyBackward0``).
"""

from __future__ import annotations

import math

from minigrad._ops import pointwise as P
from minigrad._ops._args import parses
from minigrad._ops._core import as_tensor_like
from minigrad._ops.distance import pairwise_distance
from minigrad._ops.elementary import xlogy
from minigrad._ops.pointwise import add_scalar


def _reduce(output, reduction):
    """torch's apply_loss_reduction: 1 is the mean, 2 the sum, anything else none."""
    if reduction == 1:
        return output.mean()
    if reduction == 2:
        return output.sum()
    return output


def _number(x, like):
    """A Python number as torch's wrapped scalar next to ``like``: its dtype, no promotion."""
    return as_tensor_like(float(x), like.dtype)


# --- kl_div ----------------------------------------------------------------------------------
@parses('kl_div(Tensor input, Tensor target, int reduction = 0, *, bool log_target = False)')
def kl_div(input, target, reduction=0, *, log_target=False):
    """The pointwise KL divergence ``target * (log(target) - input)`` (``input`` holds
    log-probabilities), then reduced."""
    if not input.dtype.is_floating_point or not target.dtype.is_floating_point:
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # operands in the order torch's compiled C++ evaluates them (right first): it fixes the
    # order in which a gradient reaching the same tensor twice is added up
    if log_target:
        diff = target - input
        output = target.exp() * diff
    else:
        product = target * input
        output = xlogy(target, target) - product
    return _reduce(output, reduction)


# --- margin losses ---------------------------------------------------------------------------
@parses('margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin = 0, '
        'int reduction = 0)')
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    """``max(0, -target * (input1 - input2) + margin)``: input1 should rank above input2
    where target is 1, below where it is -1."""
    output = add_scalar(-target * (input1 - input2), margin).clamp_min_(0)
    return _reduce(output, reduction)


@parses('hinge_embedding_loss(Tensor input, Tensor target, float margin = 1, '
        'int reduction = 0)')
def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    """``input`` where target is 1, ``max(0, margin - input)`` where it is -1."""
    zeros = input.new_zeros(input.shape)
    # (methods, not the kernels: under vmap, batched operands go to their batching rules)
    margin_clamp = _number(margin, input).sub(input).clamp_min_(0)
    output_margin = margin_clamp.where(target != 1, zeros)
    output_self = input.where(target != -1, zeros)
    return _reduce(output_margin + output_self, reduction)


_EPSILON = 1e-12


@parses('cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin = 0, '
        'int reduction = 0)')
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    """``1 - cos(input1, input2)`` where target is 1, ``max(0, cos - margin)`` where it is
    -1; each row's cosine from sums of products (with 1e-12 added to each squared norm)."""
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    want = 2 if targ_dim == 1 else 1
    if input1.dim() != want or input2.dim() != want:
        which = "1D target tensor expects 2D" if targ_dim == 1 else "0D target tensor expects 1D"
        raise RuntimeError(f"{which} input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1 = add_scalar((input1 * input1).sum(targ_dim), _EPSILON)
    mag_square2 = add_scalar((input2 * input2).sum(targ_dim), _EPSILON)
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = cos.new_zeros(cos.shape)
    pos = _number(1, cos).sub(cos)  # (methods: see hinge_embedding_loss)
    neg = P.sub_scalar(cos, margin).clamp_min_(0)
    output_pos = pos.where(target == 1, zeros)
    output_neg = neg.where(target == -1, zeros)
    return _reduce(output_pos + output_neg, reduction)


@parses('triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, '
        'float margin = 1.0, float p = 2, float eps = 1e-06, bool swap = False, '
        'int reduction = 0)')
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                        reduction=0):
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with ``d`` the
    ``p``-norm pairwise distance (``swap``: the smaller of d(a, n) and d(p, n))."""
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not a_dim == p_dim == n_dim:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {a_dim}D, positive "
                           f"{p_dim}D, and negative {n_dim}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = P.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    output = P.clamp_min(add_scalar(dist_pos, margin) - dist_neg, 0)
    return _reduce(output, reduction)


# --- poisson_nll_loss ------------------------------------------------------------------------
@parses('poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, '
        'int reduction)')
def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """The negative log-likelihood of ``target`` under a Poisson of rate ``exp(input)`` (or
    ``input``), without the constant ``log(target!)`` unless ``full`` (Stirling's
    approximation, for targets above 1)."""
    if log_input:  # operands in the order torch's compiled C++ evaluates them (see kl_div)
        product = target * input
        loss = input.exp() - product
    else:
        loss = input - target * add_scalar(input, eps).log()
    if full:
        half_log = P.mul_scalar(P.mul_scalar(target, 2 * math.pi).log(), 0.5)
        log_target = target.log()
        stirling = target * log_target - target + half_log
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)
