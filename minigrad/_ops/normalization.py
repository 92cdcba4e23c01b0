"""``native_layer_norm`` (behind ``F.layer_norm`` and ``nn.LayerNorm``) and its backward op.

Layer norm normalises each sample over its last dims (``normalized_shape``):
``xhat = (x - mean) * rstd`` with ``rstd = 1 / sqrt(var + eps)`` (the biased variance), then
``xhat * weight + bias``. torch computes it in one kernel and records one node,
``NativeLayerNormBackward0``, which saves the input, weight, bias and the per-sample ``mean``
and ``rstd`` (its ``_saved_result1`` and ``_saved_result2``: the kernel's second and third
outputs). Its gradient is an op of its own too, ``native_layer_norm_backward``, with three
outputs (for the input, weight and bias); under ``create_graph`` that op records one
``NativeLayerNormBackwardBackward0`` node, whose backward is the second derivative (torch's
``layer_norm_double_backward``) and is written below from minigrad ops, so it can be
differentiated again.

The derivative of ``xhat`` with respect to ``x`` along the normalised dims is the symmetric map
``J(v) = rstd * (v - <v> - xhat <xhat v>)`` (``<.>``: the mean over those dims; ``eps`` included
exactly, since ``d rstd = -rstd^2 <xhat dx>``). Every formula here is built from it.
"""

from __future__ import annotations

import math

import numpy as np

from minigrad._numeric import (
    aten_capability,
    fma,
    quietly,
    row_moments,
    torch_fuses,
    vec_row_sums,
)
from minigrad._ops._core import needs_grad, record
from minigrad._tensor import Tensor
from minigrad.autograd import forward_grad, graph
from minigrad.autograd.graph import Node


def _absent() -> Tensor:
    """A stand-in for a missing optional input: a constant, so its edge is ``(None, 0)``."""
    return Tensor._make(np.zeros((), dtype=np.float32))


def _shape_list(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def check_shapes(input, normalized_shape, weight, bias, sep=", "):
    """torch's checks of the shapes for layer_norm (and rms_norm, whose message has no comma
    in ``[*3]``, ``sep=""``)."""
    k = len(normalized_shape)
    if k < 1:
        raise RuntimeError(f"Expected normalized_shape to be at least 1-dimensional, i.e., "
                           f"containing at least one element, but got normalized_shape = "
                           f"{_shape_list(normalized_shape)}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {_shape_list(t.shape)} and normalized_shape"
                               f" = {_shape_list(normalized_shape)}")
    shape = tuple(input.shape)
    if len(shape) < k or shape[len(shape) - k:] != normalized_shape:
        expected = "[*" + sep + ", ".join(str(s) for s in normalized_shape) + "]"
        raise RuntimeError(f"Given normalized_shape={_shape_list(normalized_shape)}, expected "
                           f"input with shape {expected}, but got input of size"
                           f"{_shape_list(shape)}")


def native_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """``(x - mean) * rstd * weight + bias`` over the last ``len(normalized_shape)`` dims;
    returns the output (the mean and rstd are kept by the node, as torch's results 1 and 2)."""
    normalized_shape = tuple(int(s) for s in normalized_shape)
    check_shapes(input, normalized_shape, weight, bias)
    x = input._data
    out_dtype = x.dtype
    w = None if weight is None else weight._data
    b = None if bias is None else bias._data
    if x.dtype == np.float16:  # torch computes in float32 and rounds each result once
        x, w, b = (None if a is None else a.astype(np.float32) for a in (x, w, b))
    axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    one, dt = x.dtype.type(1), x.dtype.type
    size = math.prod(normalized_shape)
    stats_shape = x.shape[:x.ndim - len(axes)] + (1,) * len(axes)
    moments = row_moments(np.ascontiguousarray(x).reshape(-1, size)) if x.size else None
    fused = torch_fuses()
    with np.errstate(all="ignore"):
        if moments is not None:  # torch's own Welford steps (row_moments)
            mean, var = (a.reshape(stats_shape) for a in moments)
        else:  # a CPU whose kernels are not written out: float64, rounded once
            wide = x.astype(np.float64)
            if wide.size:
                mean64 = wide.mean(axis=axes, keepdims=True)
                var64 = np.square(wide - mean64).mean(axis=axes, keepdims=True)
            else:
                mean64 = var64 = np.zeros(stats_shape)
            mean, var = mean64.astype(x.dtype), var64.astype(x.dtype)
        rstd = one / np.sqrt(var + dt(eps))
        # torch: (x + (-mean)) * rstd * weight + bias, its compiler fusing the last multiply
        # and add in the AVX2 build (times a missing weight, 1, is left out; plus a missing
        # bias, 0, is still added: -0 becomes +0)
        centered = x - mean
        b = dt(0) if b is None else b
        if w is None and bias is not None and fused:
            out = fma(centered, rstd, b, x.dtype)
        else:
            out = centered * rstd
            if w is not None and bias is not None and fused:
                out = fma(out, w, b, x.dtype)
            else:
                out = (out if w is None else out * w) + b
    mean_t = Tensor._make(np.asarray(mean, dtype=out_dtype))
    rstd_t = Tensor._make(np.asarray(rstd, dtype=out_dtype))
    inputs = (input, _absent() if weight is None else weight, _absent() if bias is None else bias)
    return record(np.ascontiguousarray(out, dtype=out_dtype), NativeLayerNormBackward0, inputs,
                  save={"input": input, "weight": weight, "bias": bias, "result1": mean_t,
                        "result2": rstd_t},
                  normalized_shape=normalized_shape, has_weight=weight is not None,
                  has_bias=bias is not None)


def _saved_or_none(node, key):
    return node.saved(key) if node._find_saved(key) is not None else None


class NativeLayerNormBackward0(Node):
    """out = xhat * weight + bias; its gradients are one op, native_layer_norm_backward."""

    def backward(self, grad):
        mask = self.needs_input_grad
        outs = native_layer_norm_backward(
            grad, self.saved("input"), self.normalized_shape, self.saved("result1"),
            self.saved("result2"), _saved_or_none(self, "weight"), _saved_or_none(self, "bias"),
            mask)
        return tuple(o if wanted else None for o, wanted in zip(outs, mask))

    def jvp(self, t_input, t_weight, t_bias):
        """torch's layer_norm_jvp: J(t_input) * weight + xhat * t_weight + t_bias."""
        x = self.inputs[0]
        k = len(self.normalized_shape)
        xhat = (x - self.result1) * self.result2
        out = None
        if t_input is not None:
            out = _j(t_input, xhat, self.result2, k)
            if self.has_weight:
                out = out * self.inputs[1]
        if t_weight is not None and self.has_weight:
            out = _plus(out, xhat * t_weight)
        if t_bias is not None and self.has_bias:
            out = _plus(out, t_bias.expand(*x.shape))
        return out


def _plus(a, b):
    return b if a is None else a + b


def _norm_dims(k, ndim):
    return tuple(range(ndim - k, ndim))


def _mean_k(v, k):
    """The mean over the normalised (last ``k``) dims, kept as size-1 dims."""
    return v.mean(_norm_dims(k, v.dim()), keepdim=True)


def _sum_batch(v, k):
    """The sum over the batch (leading) dims: a weight's or bias's gradient."""
    batch = tuple(range(v.dim() - k))
    return v.sum(batch) if batch else v


def _j(v, xhat, rstd, k):
    """J(v) = rstd (v - <v> - xhat <xhat v>): xhat's derivative, applied to ``v``."""
    return rstd * (v - _mean_k(v, k) - xhat * _mean_k(xhat * v, k))


def native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias,
                               output_mask=(True, True, True)):
    """The gradients for the input, weight and bias (None where ``weight``/``bias`` is
    missing): ``J(grad_out * weight)``, ``sum(grad_out * xhat)``, ``sum(grad_out)`` over the
    batch dims. An op with three outputs, recorded as one NativeLayerNormBackwardBackward0."""
    k = len(normalized_shape)
    g, x, m, r = grad_out._data, input._data, mean._data, rstd._data
    axes = _norm_dims(k, x.ndim)
    batch = tuple(range(x.ndim - k))

    def compute():
        # torch's kernel: with ds = sum(dy x gamma) and db = sum(dy gamma) over the row,
        # grad_input = rstd dy gamma + b x + c, b = (db mean - ds) rstd^3 / N,
        # c = -b mean - db rstd / N (the same as J(dy gamma), rounded as torch rounds it)
        scale = x.dtype.type(1) / x.dtype.type(max(math.prod(normalized_shape), 1))
        if aten_capability() is not None and x.size:
            gi = _input_grad_as_torch(g, x, m, r, None if weight is None else weight._data,
                                      scale)
        else:
            dy = g * weight._data if weight is not None else g
            ds = (dy * x).sum(axis=axes, keepdims=True)
            db = dy.sum(axis=axes, keepdims=True)
            b = (db * m - ds) * r * r * r * scale
            c = -b * m - db * r * scale
            gi = r * dy + b * x + c
        gw = None
        if weight is not None:
            # per element as torch (a * x + b, fused in its AVX2 build); torch adds the rows
            # up in per-thread parts, so that sum's bits depend on its thread count
            xhat = fma(r, x, -r * m, x.dtype) if torch_fuses() else r * x + (-r * m)
            gw = (g * xhat).sum(axis=batch)
        gb = g.sum(axis=batch) if bias is not None else None
        return gi, gw, gb

    gi, gw, gb = quietly(compute)
    kinds = [0] + ([1] if gw is not None else []) + ([2] if gb is not None else [])
    outs = [Tensor._make(np.asarray(a, dtype=x.dtype)) for a in (gi, gw, gb) if a is not None]
    inputs = (grad_out, input, mean, rstd, _absent() if weight is None else weight,
              _absent() if bias is None else bias)
    attrs = {"normalized_shape": tuple(normalized_shape), "kinds": tuple(kinds),
             "has_weight": weight is not None}
    save = {"grad_out": grad_out, "input": input, "mean": mean, "rstd": rstd, "weight": weight}
    if needs_grad(inputs):
        graph.record(NativeLayerNormBackwardBackward0, inputs, outs, save, **attrs)
    if forward_grad._state.level is not None:
        forward_grad.propagate(outs, NativeLayerNormBackwardBackward0, inputs, save, attrs)
    by_kind = dict(zip(kinds, outs))
    return by_kind.get(0), by_kind.get(1), by_kind.get(2)


def _input_grad_as_torch(g, x, mean, rstd, weight, scale):
    """The input's gradient as torch's ``layer_norm_backward_frame`` computes it, row by row:
    its sums ds and db in its vectorised order (32-byte registers; ``vec_row_sums``), ``b``
    and ``c`` with the multiply-adds its AVX2 build fuses, then ``rstd dy gamma + b x + c``
    with the ``b x`` fused into the sum (all measured against torch 2.13)."""
    size = x.size // mean.size
    rows = (-1, size)
    g2, x2 = g.reshape(rows), x.reshape(rows)
    m, r = mean.reshape(-1, 1), rstd.reshape(-1, 1)
    fused = torch_fuses()
    width = 32  # layer norm's kernels have no AVX512 version

    def mul_add(a, b, c):
        return fma(a, b, c, x.dtype) if fused else a * b + c

    if weight is None:
        ds = vec_row_sums(g2 * x2, width, (g2, x2))
        db = vec_row_sums(g2, width)
        ady = r * g2
    else:
        w = weight.reshape(1, size)
        gx = g2 * x2
        ds = vec_row_sums(gx * w, width, (gx, w))
        db = vec_row_sums(g2 * w, width, (g2, w))
        ady = r * g2 * w
    ds, db = ds[:, None], db[:, None]
    b = mul_add(db, m, -ds) * r * r * r * scale
    c = mul_add(-b, m, -(db * r * scale))
    return (mul_add(b, x2, ady) + c).reshape(x.shape)


class NativeLayerNormBackwardBackward0(Node):
    """out = (J(g w), sum(g xhat), sum(g)) for g = grad_out: torch's layer_norm_double_backward.

    For incoming gradients a (input's), b (weight's), c (bias's), with gi = J(g w):
    d/dg = J(a) w + b xhat + c;  d/dweight = sum_batch(g J(a));
    d/dinput = -rstd (<a gi> xhat + <g w xhat> J(a) + <a xhat> gi) + J(g b);
    the bias, mean and rstd get none (the mean and rstd are the input's, already counted)."""

    def backward(self, *grads):
        by_kind = dict(zip(self.kinds, grads))
        a, b, c = by_kind.get(0), by_kind.get(1), by_kind.get(2)
        g, x = self.saved("grad_out"), self.saved("input")
        mean, rstd = self.saved("mean"), self.saved("rstd")
        w = self.saved("weight") if self.has_weight else None
        k = len(self.normalized_shape)
        xhat = (x - mean) * rstd
        dy = g * w if w is not None else g
        ja = None if a is None else _j(a, xhat, rstd, k)
        g_g = g_x = g_w = None
        if self.needs_input_grad[0]:
            if ja is not None:
                g_g = ja * w if w is not None else ja
            if b is not None:
                g_g = _plus(g_g, b * xhat)
            if c is not None:
                g_g = _plus(g_g, c.expand(*g.shape))
            if g_g is None:
                g_g = g.new_zeros(g.shape)
        if self.needs_input_grad[1]:
            if ja is not None:
                gi = _j(dy, xhat, rstd, k)
                g_x = -rstd * (_mean_k(a * gi, k) * xhat + _mean_k(dy * xhat, k) * ja
                               + _mean_k(a * xhat, k) * gi)
            if b is not None:
                g_x = _plus(g_x, _j(g * b, xhat, rstd, k))
            if g_x is None:
                g_x = x.new_zeros(x.shape)
        if self.needs_input_grad[4] and w is not None:
            g_w = _sum_batch(g * ja, k) if ja is not None else w.new_zeros(w.shape)
        return g_g, g_x, None, None, g_w, None

    def jvp(self, t_g, t_x, t_mean, t_rstd, t_w, t_b):
        g, x, mean, rstd = self.inputs[:4]
        w = self.inputs[4] if self.has_weight else None
        if not self.has_weight:
            t_w = None
        k = len(self.normalized_shape)
        xhat = (x - mean) * rstd
        dy = g * w if w is not None else g
        gi = _j(dy, xhat, rstd, k)
        t_dy = None
        if t_g is not None:
            t_dy = t_g * w if w is not None else t_g
        if t_w is not None:
            t_dy = _plus(t_dy, g * t_w)
        t_gi = None if t_dy is None else _j(t_dy, xhat, rstd, k)
        t_xhat = None
        if t_x is not None:
            t_xhat = _j(t_x, xhat, rstd, k)
            moved = -rstd * (_mean_k(xhat * t_x, k) * gi + t_xhat * _mean_k(dy * xhat, k)
                             + xhat * _mean_k(dy * t_xhat, k))
            t_gi = _plus(t_gi, moved)
        tangents = {0: t_gi if t_gi is not None else x.new_zeros(x.shape)}
        if 1 in self.kinds:
            t_gw = None if t_g is None else _sum_batch(t_g * xhat, k)
            if t_xhat is not None:
                t_gw = _plus(t_gw, _sum_batch(g * t_xhat, k))
            tangents[1] = t_gw
        if 2 in self.kinds:
            tangents[2] = None if t_g is None else _sum_batch(t_g, k)
        return tuple(tangents[kind] for kind in self.kinds)
