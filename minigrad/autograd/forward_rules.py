"""Every forward-mode (JVP) formula in one place, keyed by the op's backward node class.

This is the ``result:`` line of torch's ``derivatives.yaml``: given the tangents of an op's
inputs, the tangent of its output. A rule gets ``f`` (the op's ``inputs``, its ``result``,
what it saved, e.g. ``f.condition``, and its attributes, e.g. ``f.alpha``) and one tangent
per input, ``None`` for an input without one. Rules are written with minigrad operations, so a
tangent is itself differentiable in reverse mode.

Compare with ``derivatives.py``: backward multiplies the *output* gradient by the Jacobian's
transpose; here the *input* tangent is multiplied by the Jacobian. For linear ops (views,
sums, cat) the rule is the op itself applied to the tangent.
"""

from __future__ import annotations

import math

import numpy as np

from minigrad.autograd import derivatives as D


def _total(*terms):
    """The sum of the terms that exist: an input without tangent contributes nothing."""
    present = [t for t in terms if t is not None]
    if not present:
        return None
    out = present[0]
    for t in present[1:]:
        out = out + t
    return out


def _times(t, factor):
    return None if t is None else t * factor


def _zeros(x):
    from minigrad._creation import zeros

    return zeros(*x.shape, dtype=x.dtype)


# --- arithmetic ---------------------------------------------------------------------------------
def _add(f, ta, tb):
    return _total(ta, tb if f.alpha == 1 else _times(tb, f.alpha))


def _sub(f, ta, tb):
    return _total(ta, _times(tb, -f.alpha))


def _mul(f, ta, tb):
    a, b = f.inputs
    return _total(_times(ta, b), _times(tb, a))


def _div(f, ta, tb):
    a, b = f.inputs
    return _total(None if ta is None else ta / b, None if tb is None else -tb * a / (b * b))


def _pow_scalar(f, t):
    e = f.exponent
    return t * 0 if e == 0 else t * e * f.inputs[0] ** (e - 1)


def _pow_tensor(f, ta, tb):
    from minigrad._ops.pointwise import where

    base, exponent = f.inputs
    g_base = g_exp = None
    if ta is not None:
        g_base = where(exponent == 0, 0.0, ta * exponent * base ** (exponent - 1))
    if tb is not None:
        g_exp = where((base == 0) & (exponent >= 0), 0.0, tb * f.result * base.log())
    return _total(g_base, g_exp)


def _pow_base_scalar(f, t):
    return t * 0 if f.base == 0 else t * f.result * math.log(f.base)


# --- pointwise functions -------------------------------------------------------------------------
def _relu(f, t):
    return t * (f.result > 0)


def _clamp(f, t):
    x = f.inputs[0]
    mask = x == x
    if f.min is not None:
        mask = mask & (x >= f.min)
    if f.max is not None:
        mask = mask & (x <= f.max)
    return t * mask


def _where(f, ta, tb):
    from minigrad._ops.pointwise import where

    a, b = f.inputs
    return where(f.condition, _zeros(a) if ta is None else ta, _zeros(b) if tb is None else tb)


# --- reductions ---------------------------------------------------------------------------------
def _max_all(f, t):
    """Ties share the tangent evenly, matching the backward's even split."""
    mask = f.inputs[0] == f.result
    return (t * mask).sum() / mask.sum()


def _max_dim(f, t):
    """The tangent at the index that was picked."""
    from minigrad._tensor import Tensor

    idx = f.indices._data if f.keepdim else np.expand_dims(f.indices._data, f.dim)
    mask = np.zeros(f.self_shape, dtype=bool)
    np.put_along_axis(mask, idx, True, axis=f.dim)
    return (t * Tensor._make(mask)).sum(f.dim, keepdim=f.keepdim)


# --- linear algebra ------------------------------------------------------------------------------
def _product(op):
    def rule(f, ta, tb):
        a, b = f.inputs
        return _total(None if ta is None else op(ta, b), None if tb is None else op(a, tb))

    return rule


# --- joining, indexing, in place -----------------------------------------------------------------
def _cat(f, *tangents):
    from minigrad._ops.join import cat

    return cat([_zeros(x) if t is None else t for x, t in zip(f.inputs, tangents)], f.dim)


def _stack(f, *tangents):
    from minigrad._ops.join import stack

    return stack([_zeros(x) if t is None else t for x, t in zip(f.inputs, tangents)], f.dim)


def _index_put(f, t_self, t_values):
    t_self = _zeros(f.inputs[0]) if t_self is None else t_self
    t_values = _zeros(f.inputs[1]) if t_values is None else t_values
    return t_self.index_put(f.index, t_values, accumulate=f.accumulate)


def _fill_tensor(f, t_self, t_value):
    return None if t_value is None else t_value.expand(*f.result.shape)


def _copy(f, t_self, t_src):
    return _zeros(f.result) if t_src is None else t_src.expand(*f.result.shape)


def _view(f, t):
    """A view's tangent is the same view of the tangent."""
    return f.view_fn(t)


# --- layers and losses ----------------------------------------------------------------------------
def _addmm(f, t_self, t_mat1, t_mat2):
    _, mat1, mat2 = f.inputs
    return _total(_times(t_self, f.beta) if f.beta != 1 else t_self,
                  None if t_mat1 is None else _times(t_mat1.mm(mat2), f.alpha),
                  None if t_mat2 is None else _times(mat1.mm(t_mat2), f.alpha))


def _mse_loss(f, t_self, t_target):
    a, b = f.inputs
    t = 2 * (a - b) * _total(t_self, None if t_target is None else -t_target)
    return t.mean() if f.reduction == "mean" else t.sum() if f.reduction == "sum" else t


def _softmax(f, t):
    if t.dim() == 0:
        return t * 0
    return f.result * (t - (t * f.result).sum(f.dim, keepdim=True))


def _log_softmax(f, t):
    if t.dim() == 0:
        return t * 0
    return t - (t * f.result.exp()).sum(f.dim, keepdim=True)


def _nll_loss(f, t):
    from minigrad._ops.pointwise import where

    picked = -where(f.mask, t, 0.0)
    if f.reduction == "none":
        return picked.sum(-1)
    return picked.sum() / f.total_weight if f.reduction == "mean" else picked.sum()


RULES = {
    D.AddBackward0: _add,
    D.SubBackward0: _sub,
    D.RsubBackward1: lambda f, t: -t,
    D.MulBackward0: _mul,
    D.DivBackward0: _div,
    D.NegBackward0: lambda f, t: -t,
    D.ReciprocalBackward0: lambda f, t: -t * f.result * f.result,
    D.PowBackward0: _pow_scalar,
    D.PowBackward1: _pow_tensor,
    D.PowBackward2: _pow_base_scalar,
    D.AbsBackward0: lambda f, t: t * f.inputs[0].sign(),
    D.ExpBackward0: lambda f, t: t * f.result,
    D.LogBackward0: lambda f, t: t / f.inputs[0],
    D.SqrtBackward0: lambda f, t: t / (2 * f.result),
    D.SinBackward0: lambda f, t: t * f.inputs[0].cos(),
    D.CosBackward0: lambda f, t: -t * f.inputs[0].sin(),
    D.TanhBackward0: lambda f, t: t * (1 - f.result * f.result),
    D.SigmoidBackward0: lambda f, t: t * f.result * (1 - f.result),
    D.ReluBackward0: _relu,
    D.ClampBackward1: _clamp,
    D.WhereBackward0: _where,
    D.CloneBackward0: lambda f, t: t.clone(),
    D.ToCopyBackward0: lambda f, t: t.to(f.result.dtype),
    D.SumBackward0: lambda f, t: t.sum(),
    D.SumBackward1: lambda f, t: t.sum(f.dim, keepdim=f.keepdim),
    D.MeanBackward0: lambda f, t: t.mean(),
    D.MeanBackward1: lambda f, t: t.mean(f.dim, keepdim=f.keepdim),
    D.MaxBackward1: _max_all,
    D.MinBackward1: _max_all,
    D.MaxBackward0: _max_dim,
    D.MinBackward0: _max_dim,
    D.DotBackward0: _product(lambda a, b: a.dot(b)),
    D.MmBackward0: _product(lambda a, b: a.mm(b)),
    D.MvBackward0: _product(lambda a, b: a.mv(b)),
    D.UnsafeViewBackward0: lambda f, t: t.reshape(*f.result.shape),
    D.IndexBackward0: lambda f, t: t[f.index],
    D.IndexPutBackward0: _index_put,
    D.CatBackward0: _cat,
    D.StackBackward0: _stack,
    D.ZeroBackward0: lambda f, t: t * 0,
    D.FillBackward2: lambda f, t: t * 0,
    D.FillBackward3: _fill_tensor,
    D.CopyBackwards: _copy,
    D.DivBackward1: lambda f, t: t / f.other,
    D.AddmmBackward0: _addmm,
    D.MseLossBackward0: _mse_loss,
    D.SoftmaxBackward0: _softmax,
    D.LogSoftmaxBackward0: _log_softmax,
    D.NllLossBackward0: _nll_loss,
}
for _view_node in (D.TBackward0, D.TransposeBackward0, D.PermuteBackward0, D.ViewBackward0,
                   D.SqueezeBackward0, D.SqueezeBackward1, D.SqueezeBackward4,
                   D.UnsqueezeBackward0, D.ExpandBackward0, D.AliasBackward0,
                   D.SelectBackward0, D.SliceBackward0):
    RULES[_view_node] = _view
