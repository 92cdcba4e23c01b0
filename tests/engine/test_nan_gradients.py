"""Gradients at NaN, inf and signed zeros, against torch computed here (issue 22).

torch has conventions there that the math does not fix: ``abs`` passes ``grad * sgn(x)``
and ``sgn(NaN)`` is 0, so a NaN element gets a zero gradient; the full ``max``/``min``
reductions share the gradient between the NaN elements when the result is NaN (while
``amax``/``amin`` and the forward-mode rules do not, and give NaN). Arrays with such values at
random positions go through each op in both engines; the gradients (and forward-mode
tangents) must be equal bit for bit, NaN positions included (``assert_array_equal`` treats
NaN as equal to NaN).
"""

from __future__ import annotations

import numpy as np
import torch
import torch.autograd.forward_ad as torch_fwad
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
import minigrad.autograd.forward_ad as mg_fwad

SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5]


def arrays(dtype, min_dims=1):
    """Small arrays of values where the conventions matter (and ties between them)."""
    return hnp.arrays(dtype, hnp.array_shapes(min_dims=min_dims, max_dims=2, max_side=4),
                      elements=st.sampled_from(SPECIAL))


DTYPES = st.sampled_from([np.float32, np.float64])

# (name, function of (lib, x)); each takes a tensor with NaN/inf/±0 inside
UNARY = [
    ("abs", lambda lib, x: x.abs()),
    ("sgn", lambda lib, x: x.sgn()),
    ("sign", lambda lib, x: x.sign()),
    ("relu", lambda lib, x: lib.relu(x)),
    ("clamp", lambda lib, x: x.clamp(-1.0, 2.0)),
    ("clamp_min", lambda lib, x: x.clamp(min=0.0)),
    ("clamp_max", lambda lib, x: x.clamp(max=0.0)),
    ("clamp_nan_bound", lambda lib, x: x.clamp(min=float("nan"))),
    ("max", lambda lib, x: x.max()),
    ("min", lambda lib, x: x.min()),
    ("amax", lambda lib, x: x.amax()),
    ("amin", lambda lib, x: x.amin()),
    ("amax_dim", lambda lib, x: x.amax(-1)),
    ("amin_dim_keepdim", lambda lib, x: x.amin(0, keepdim=True)),
    ("max_dim", lambda lib, x: x.max(-1)[0]),
    ("min_dim", lambda lib, x: x.min(0, keepdim=True)[0]),
    ("nan_to_num", lambda lib, x: lib.nan_to_num(x)),
    ("nan_to_num_values", lambda lib, x: x.nan_to_num(nan=1.5, posinf=2.0, neginf=-3.0)),
    ("nan_to_num_", lambda lib, x: x.clone().nan_to_num_(posinf=7.0)),
    ("sqrt_then_nan_to_num", lambda lib, x: lib.nan_to_num(x.sqrt())),
    ("where_sqrt", lambda lib, x: lib.where(x > 0, x.sqrt(), 0.0)),
    ("double_where_sqrt", lambda lib, x: lib.where(x > 0, lib.where(x > 0, x, 1.0).sqrt(), 0.0)),
    ("norm_at_zero", lambda lib, x: (x * 0).norm()),
]
BINARY = [
    ("maximum", lambda lib, x, y: lib.maximum(x, y)),
    ("minimum", lambda lib, x, y: lib.minimum(x, y)),
    ("clamp_tensor_bounds", lambda lib, x, y: x.clamp(y, y + 1)),
]


def _weights(shape, dtype):
    """A non-uniform upstream gradient, so a wrong share or sign shows."""
    n = int(np.prod(shape))
    return ((np.arange(n).reshape(shape) - 1.5) * 0.5).astype(dtype)


def _grads(lib, f, arrays_in):
    leaves = [lib.tensor(a, requires_grad=True) for a in arrays_in]
    out = f(lib, *leaves)
    gradient = lib.tensor(_weights(tuple(out.shape), arrays_in[0].dtype))
    out.backward(gradient)
    # torch's sgn/sign gradient is a ZeroTensor, which wants force=True to become an array
    return [leaf.grad.numpy(force=True) for leaf in leaves], out.detach().numpy()


def _jvp(lib, fwad, f, arrays_in):
    with fwad.dual_level():
        duals = [fwad.make_dual(lib.tensor(a), lib.tensor(_weights(a.shape, a.dtype) + i))
                 for i, a in enumerate(arrays_in)]
        out = f(lib, *duals)
        return fwad.unpack_dual(out).tangent.numpy(force=True)


def _compare(f, arrays_in):
    (want_grads, want_out), (got_grads, got_out) = _grads(torch, f, arrays_in), \
        _grads(minigrad, f, arrays_in)
    np.testing.assert_array_equal(got_out, want_out)
    assert got_out.dtype == want_out.dtype
    for got, want in zip(got_grads, want_grads, strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.signbit(got[~np.isnan(got)]),
                                      np.signbit(want[~np.isnan(want)]))
        np.testing.assert_array_equal(got, want)
    want_t = _jvp(torch, torch_fwad, f, arrays_in)
    got_t = _jvp(minigrad, mg_fwad, f, arrays_in)
    assert got_t.dtype == want_t.dtype
    # NaN/inf positions exactly; finite values to a few ulps, because a tangent shared between
    # many tied maxima is a float32 sum whose order differs from torch's (not a NaN matter)
    np.testing.assert_array_equal(np.isfinite(got_t), np.isfinite(want_t))
    np.testing.assert_allclose(got_t, want_t, rtol=4 * np.finfo(got_t.dtype).eps, atol=0)


@settings(deadline=None, max_examples=60)
@given(op=st.sampled_from(UNARY), dtype=DTYPES, data=st.data())
def test_unary_gradients_at_nan_inf_and_zeros_match_torch(op, dtype, data):
    name, f = op
    a = data.draw(arrays(dtype), label="x")
    _compare(f, [a])


@settings(deadline=None, max_examples=40)
@given(op=st.sampled_from(BINARY), dtype=DTYPES, data=st.data())
def test_binary_gradients_route_nan_as_torch(op, dtype, data):
    """maximum/minimum send the gradient to a NaN operand (or share it on ties)."""
    name, f = op
    a = data.draw(arrays(dtype), label="x")
    b = data.draw(hnp.arrays(dtype, a.shape, elements=st.sampled_from(SPECIAL)), label="y")
    _compare(f, [a, b])


def test_examples_from_the_issue():
    """The two reported cases, pinned so they always run (hypothesis may draw others)."""
    nan = float("nan")
    _compare(UNARY[0][1], [np.array([nan, 1.0, -2.0], dtype=np.float32)])
    _compare(dict(UNARY)["max"], [np.array([nan, 5.0, -2.0], dtype=np.float32)])
    _compare(dict(UNARY)["min"], [np.array([1.0, nan, 3.0, nan], dtype=np.float64)])
