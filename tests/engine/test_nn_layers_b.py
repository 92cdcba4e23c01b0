"""LayerNorm, binary_cross_entropy/BCELoss, l1_loss/L1Loss and NLLLoss against torch, computed at
test time. (The functional ops also run through every check of the op database,
``tests/engine/op_db.py``: values, graphs, gradients, forward mode, double backward, gradcheck.)"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as tfw
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from minigrad.autograd import forward_ad as mfw
from tests.torch_compare import (
    assert_close,
    assert_same_error,
    both_engines,
    graph_signature,
    normalize_text,
    saved_numbers,
    to_numpy,
)

LIBS = (minigrad, torch)
TOL = {"float64": (1e-12, 1e-13), "float32": (2e-6, 2e-6)}


def _tensor(lib, data, requires_grad=False):
    return None if data is None else lib.tensor(np.array(data), requires_grad=requires_grad)


# --- layer_norm ------------------------------------------------------------------------------
@st.composite
def layer_norm_cases(draw):
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    norm = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=2)))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    scale = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    x = (rng.standard_normal(batch + norm) * scale + draw(st.sampled_from([0.0, 5.0])))
    affine = draw(st.sampled_from(["both", "weight", "none"]))
    w = rng.standard_normal(norm) if affine != "none" else None
    b = rng.standard_normal(norm) if affine == "both" else None
    eps = draw(st.sampled_from([1e-5, 1e-2]))
    return x.astype(dtype), norm, w if w is None else w.astype(dtype), \
        b if b is None else b.astype(dtype), eps


def _layer_norm_bounds(x, norm, w, b, eps, upstream):
    """How far two correct float computations of layer norm can be apart, from rounding: the
    unit roundoff u times the magnitudes involved, times kappa = 1 + (|x| + |mean|) * rstd per
    row (the cancellation in x - mean, large when the mean dwarfs the spread), times a constant
    for summation order. (torch sums with Welford in a cascade, minigrad in float64.)"""
    u = 2.0 ** -24 if x.dtype == np.float32 else 2.0 ** -53
    k = len(norm)
    axes = tuple(range(x.ndim - k, x.ndim))
    wide = x.astype(np.float64)
    mean = wide.mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(np.square(wide - mean).mean(axis=axes, keepdims=True) + eps)
    kappa = 1 + (np.abs(wide).max(axis=axes, keepdims=True) + np.abs(mean)) * rstd
    w_abs = np.ones(norm) if w is None else np.abs(w.astype(np.float64))
    b_abs = np.zeros(norm) if b is None else np.abs(b.astype(np.float64))
    g = np.abs(upstream.astype(np.float64))
    c = 64 * u
    y_bound = c * kappa * (w_abs * (1 + np.abs(wide - mean) * rstd) + b_abs)
    gi_bound = c * kappa**2 * rstd * (g * w_abs).max(axis=axes, keepdims=True) * \
        np.ones_like(wide)
    batch = tuple(range(x.ndim - k))
    gw_bound = c * (kappa * g * (1 + np.abs(wide - mean) * rstd)).sum(axis=batch)
    gb_bound = c * g.sum(axis=batch)
    return y_bound, [gi_bound, gw_bound, gb_bound]


def _assert_within(ours, theirs, bound):
    a, b = to_numpy(ours).astype(np.float64), to_numpy(theirs).astype(np.float64)
    assert ours.dtype.name == str(theirs.dtype).removeprefix("torch.") and a.shape == b.shape
    assert (np.abs(a - b) <= bound).all(), (a, b, np.abs(a - b) / bound)


@settings(max_examples=40, deadline=None)
@given(case=layer_norm_cases())
def test_layer_norm_values_gradients_and_saved_fields_match_torch(case):
    x, norm, w, b, eps = case
    upstream = np.cos(np.arange(x.size)).reshape(x.shape).astype(x.dtype)
    out = {}
    for lib in LIBS:
        xi, wi, bi = (_tensor(lib, a, True) for a in (x, w, b))
        y = lib.nn.functional.layer_norm(xi, norm, wi, bi, eps)
        inputs = [t for t in (xi, wi, bi) if t is not None]
        grads = lib.autograd.grad((y * lib.tensor(upstream)).sum(), inputs, retain_graph=True)
        node = y.grad_fn
        out[lib.__name__] = (y, grads, graph_signature(node), saved_numbers(node),
                             node._saved_result1, node._saved_result2,
                             node._saved_input is xi, node._saved_weight is wi,
                             node._saved_bias is bi)
    m, t = out["minigrad"], out["torch"]
    y_bound, grad_bounds = _layer_norm_bounds(x, norm, w, b, eps, upstream)
    _assert_within(m[0], t[0], y_bound)
    for mg, tg, bound in zip(m[1], t[1], grad_bounds):
        _assert_within(mg, tg, bound)
    assert m[2] == t[2] and m[3] == t[3]
    # the mean: a sum of n terms, each engine in its own order, so within n rounding errors
    # of the terms' size (relative to the mean itself it is unbounded when they cancel)
    n = int(np.prod(norm))
    assert_close(m[4], t[4], rtol=0, atol=(n + 2) * np.finfo(x.dtype).eps * np.abs(x).max())
    assert_close(m[5], t[5], rtol=64 * np.finfo(x.dtype).eps * 1e3, atol=0)  # rstd
    assert m[6:] == t[6:] == (True, True, True)


@pytest.mark.parametrize("affine", ["both", "weight", "none"])
def test_layer_norm_double_backward_graph_and_values_match_torch(affine):
    rng = np.random.default_rng(4)
    x, w, b = rng.standard_normal((2, 3, 4)), rng.standard_normal(4), rng.standard_normal(4)
    w = None if affine == "none" else w
    b = b if affine == "both" else None
    out = {}
    for lib in LIBS:
        xi, wi, bi = (_tensor(lib, a, True) for a in (x, w, b))
        y = lib.nn.functional.layer_norm(xi, [4], wi, bi)
        inputs = [t for t in (xi, wi, bi) if t is not None]
        grads = lib.autograd.grad((y * y.detach().cos()).sum(), inputs, create_graph=True)
        gnode = grads[0].grad_fn
        saved = [to_numpy(getattr(gnode, f"_saved_{k}")).copy() for k in
                 ("grad_out", "mean", "rstd")]
        total = sum((g * g.detach().sin()).sum() for g in grads)
        second = lib.autograd.grad(total, inputs, allow_unused=True)
        out[lib.__name__] = (grads, second, graph_signature(gnode), saved_numbers(gnode), saved)
    m, t = out["minigrad"], out["torch"]
    assert m[2] == t[2] and m[3] == t[3]
    assert t[2][0][0] == "NativeLayerNormBackwardBackward0"
    for mg, tg in zip(m[0] + m[1], t[0] + t[1]):
        if tg is None:
            assert mg is None
        else:
            assert_close(mg, tg, rtol=1e-11, atol=1e-12)
    for ma, ta in zip(m[4], t[4]):
        np.testing.assert_allclose(ma, ta, rtol=1e-12, atol=1e-14)


def test_layer_norm_forward_mode_matches_torch():
    rng = np.random.default_rng(5)
    x, w, b = rng.standard_normal((3, 4)), rng.standard_normal(4), rng.standard_normal(4)
    tx, tw, tb = rng.standard_normal((3, 4)), rng.standard_normal(4), rng.standard_normal(4)
    out = {}
    for lib, fw in ((minigrad, mfw), (torch, tfw)):
        with fw.dual_level():
            duals = [fw.make_dual(lib.tensor(p), lib.tensor(d)) for p, d in
                     ((x, tx), (w, tw), (b, tb))]
            y = lib.nn.functional.layer_norm(duals[0], (4,), duals[1], duals[2])
            out[lib.__name__] = fw.unpack_dual(y).tangent
    assert_close(out["minigrad"], out["torch"], rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("kwargs", [{}, {"eps": 1e-3}, {"elementwise_affine": False},
                                    {"bias": False}, {"dtype": "float64"}])
@pytest.mark.parametrize("shape", [4, (3, 4)])
def test_layer_norm_module_matches_torch(shape, kwargs):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2,) + ((shape,) if isinstance(shape, int) else shape))
    out = {}
    for lib in LIBS:
        kw = dict(kwargs)
        if "dtype" in kw:
            kw["dtype"] = getattr(lib, kw["dtype"])
        module = lib.nn.LayerNorm(shape, **kw)
        xi = lib.tensor(x.astype(to_numpy(module.weight).dtype if module.weight is not None
                                 else np.float32), requires_grad=True)
        y = module(xi)
        y.sum().backward()
        out[lib.__name__] = (repr(module), [(n, to_numpy(p).tolist(), p.requires_grad)
                                            for n, p in module.named_parameters()],
                             list(module.state_dict()), module.normalized_shape, y,
                             graph_signature(y.grad_fn))
    m, t = out["minigrad"], out["torch"]
    assert m[:4] == t[:4]
    assert_close(m[4], t[4], rtol=1e-5, atol=1e-6)
    assert m[5] == t[5]


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.layer_norm(lib.zeros(2, 3), (4,)),
    lambda lib: lib.nn.functional.layer_norm(lib.zeros(2, 3), (2, 3, 1)),
    lambda lib: lib.nn.functional.layer_norm(lib.zeros(2, 3), (3,), lib.ones(4)),
    lambda lib: lib.nn.functional.layer_norm(lib.zeros(2, 3), (3,), None, lib.ones(2)),
    lambda lib: lib.nn.functional.layer_norm(lib.zeros(2, 3), ()),
])
def test_layer_norm_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


# --- binary_cross_entropy ----------------------------------------------------------------------
@st.composite
def bce_cases(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), max_size=3)))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    n = int(np.prod(shape))
    prob = st.one_of(st.sampled_from([0.0, 1.0, 1e-50, 1 - 1e-9]), st.floats(0, 1))
    x = np.array(draw(st.lists(prob, min_size=n, max_size=n)), dtype).reshape(shape)
    y = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)), dtype).reshape(shape)
    w = None
    if draw(st.booleans()):
        k = draw(st.integers(0, len(shape)))
        sub = tuple(draw(st.sampled_from([1, s])) for s in shape[len(shape) - k:])
        w = np.array(draw(st.lists(st.floats(0.1, 3), min_size=int(np.prod(sub)),
                                   max_size=int(np.prod(sub)))), dtype).reshape(sub)
    return x, y, w, draw(st.sampled_from(["mean", "sum", "none"]))


@settings(max_examples=60, deadline=None)
@given(case=bce_cases())
def test_binary_cross_entropy_matches_torch(case):
    """Values (logs clamped at -100: a probability of 0 or 1 costs 100, not inf), gradients
    (floored at 1e-12), the node and its saved fields."""
    x, y, w, reduction = case
    out = {}
    for lib in LIBS:
        xi, yi = lib.tensor(x.copy(), requires_grad=True), lib.tensor(y.copy(), requires_grad=True)
        wi = None if w is None else lib.tensor(w.copy())
        loss = lib.nn.functional.binary_cross_entropy(xi, yi, wi, reduction=reduction)
        gx = lib.autograd.grad(loss.sum() if reduction == "none" else loss, xi,
                               retain_graph=True)[0]
        out[lib.__name__] = (loss, gx, graph_signature(loss.grad_fn),
                             saved_numbers(loss.grad_fn),
                             loss.grad_fn._saved_self is xi, loss.grad_fn._saved_target is yi)
    m, t = out["minigrad"], out["torch"]
    rtol, atol = TOL[x.dtype.name]
    assert_close(m[0], t[0], rtol=rtol * 10, atol=atol * 10)
    assert_close(m[1], t[1], rtol=rtol * 10, atol=atol)
    assert m[2:] == t[2:]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy_target_gradient_and_forward_mode_match_torch(reduction):
    rng = np.random.default_rng(7)
    x, y, w = rng.uniform(0.05, 0.95, (3, 4)), rng.uniform(0, 1, (3, 4)), rng.uniform(0.5, 2, 4)
    tx, ty = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    out = {}
    for lib, fw in ((minigrad, mfw), (torch, tfw)):
        xi, yi = lib.tensor(x, requires_grad=True), lib.tensor(y, requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy(xi, yi, lib.tensor(w), reduction=reduction)
        gy = lib.autograd.grad(loss.sum() if reduction == "none" else loss, yi,
                               create_graph=True)[0]
        with fw.dual_level():
            dx, dy = fw.make_dual(lib.tensor(x), lib.tensor(tx)), fw.make_dual(lib.tensor(y),
                                                                                lib.tensor(ty))
            tangent = fw.unpack_dual(lib.nn.functional.binary_cross_entropy(
                dx, dy, lib.tensor(w), reduction=reduction)).tangent
        out[lib.__name__] = (gy, graph_signature(gy.grad_fn), tangent)
    m, t = out["minigrad"], out["torch"]
    assert_close(m[0], t[0], rtol=1e-12, atol=1e-13)
    assert m[1] == t[1]
    assert_close(m[2], t[2], rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([1.5]), lib.tensor([0.5])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([-0.1]), lib.tensor([0.5])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([float("nan")]),
                                                       lib.tensor([0.5])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([0.5]), lib.tensor([1.5])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([0.5]), lib.tensor([0.5, 1])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([0.5]), lib.tensor([1])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([0.5], dtype=lib.float64),
                                                       lib.tensor([1.0])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([0.5]), lib.tensor([1.0]),
                                                       reduction="avg"),
    lambda lib: lib.nn.functional.binary_cross_entropy(
        lib.tensor([0.5, 0.2]), lib.tensor([1.0, 0.0]), lib.tensor([1.0, 2.0, 3.0])),
    lambda lib: lib.nn.functional.binary_cross_entropy(
        lib.tensor([0.5], requires_grad=True), lib.tensor([1.0]),
        lib.tensor([2.0], requires_grad=True)),
])
def test_binary_cross_entropy_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


# --- l1_loss -------------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,)), ((4,), ())])
def test_l1_loss_is_torchs_composite(reduction, shapes):
    rng = np.random.default_rng(8)
    x, y = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    out = {}
    for lib in LIBS:
        xi, yi = lib.tensor(x, requires_grad=True), lib.tensor(y, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = lib.nn.functional.l1_loss(xi, yi, reduction=reduction)
        loss.sum().backward() if reduction == "none" else loss.backward()
        out[lib.__name__] = (loss, graph_signature(loss.grad_fn), xi.grad, yi.grad,
                             [str(w.message).replace("torch.", "").replace("minigrad.", "")
                              for w in caught])
    m, t = out["minigrad"], out["torch"]
    assert m[1] == t[1] and m[4] == t[4]
    for a, b in zip(m[:4:2] + (m[3],), t[:4:2] + (t[3],)):
        assert_close(a, b)


def test_l1_loss_with_weight_and_errors_match_torch():
    rng = np.random.default_rng(9)
    x, y, w = rng.standard_normal((2, 3)), rng.standard_normal((2, 3)), rng.uniform(1, 2, (2, 3))
    out = {}
    for lib in LIBS:
        xi = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.l1_loss(xi, lib.tensor(y), weight=lib.tensor(w))
        loss.backward()
        out[lib.__name__] = (loss, xi.grad, graph_signature(loss.grad_fn))
    assert out["minigrad"][2] == out["torch"][2]
    assert_close(out["minigrad"][0], out["torch"][0])
    assert_close(out["minigrad"][1], out["torch"][1])
    for call in (lambda lib: lib.nn.functional.l1_loss(lib.zeros(2), lib.zeros(2),
                                                       weight=lib.ones(3)),
                 lambda lib: lib.nn.functional.l1_loss(lib.zeros(2), lib.zeros(2),
                                                       reduction="avg"),
                 lambda lib: lib.nn.functional.l1_loss(lib.zeros(2), lib.zeros(2),
                                                       reduction="avg", weight=lib.ones(2))):
        assert_same_error(lambda call=call: call(minigrad), lambda call=call: call(torch))


# --- the loss modules ---------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda lib: lib.nn.BCELoss(), lambda lib: lib.nn.BCELoss(reduction="sum"),
    lambda lib: lib.nn.BCELoss(weight=lib.tensor([1.0, 2.0, 0.5])),
    lambda lib: lib.nn.L1Loss(), lambda lib: lib.nn.L1Loss(reduction="none"),
    lambda lib: lib.nn.NLLLoss(), lambda lib: lib.nn.NLLLoss(ignore_index=1, reduction="sum"),
])
def test_loss_modules_match_torch(make):
    rng = np.random.default_rng(10)
    x = rng.uniform(0.05, 0.95, (4, 3))
    out = {}
    for lib in LIBS:
        module = make(lib)
        xi = lib.tensor(x, requires_grad=True)
        if isinstance(module, lib.nn.NLLLoss):
            target = lib.tensor([0, 1, 2, 1])
            loss = module(xi.log(), target)
        else:
            loss = module(xi, lib.tensor(x[::-1].copy()))
        loss.sum().backward()
        out[lib.__name__] = (repr(module), list(module.state_dict()),
                             [n for n, _ in module.named_buffers()], module.reduction,
                             getattr(module, "ignore_index", None), loss, xi.grad,
                             graph_signature(loss.grad_fn))
    m, t = out["minigrad"], out["torch"]
    assert m[:5] == t[:5] and m[7] == t[7]
    assert_close(m[5], t[5])
    assert_close(m[6], t[6])


@pytest.mark.parametrize("make", [
    lambda lib: lib.nn.NLLLoss(weight=lib.tensor([1.0, 2.0, 0.5], dtype=lib.float64)),
    lambda lib: lib.nn.NLLLoss(weight=lib.tensor([1.0, 2.0, 0.5], dtype=lib.float64),
                               ignore_index=2, reduction="none"),
    lambda lib: lib.nn.CrossEntropyLoss(weight=lib.tensor([1.0, 2.0, 0.5], dtype=lib.float64)),
    lambda lib: lib.nn.CrossEntropyLoss(ignore_index=0, reduction="sum"),
])
def test_class_weights_match_torch(make):
    """The loss, the gradient made with create_graph (its node keeps the weight), and the
    second derivative."""
    x = np.random.default_rng(11).standard_normal((4, 3))
    out = {}
    for lib in LIBS:
        module = make(lib)
        xi = lib.tensor(x, requires_grad=True)
        scores = xi.log_softmax(1) if isinstance(module, lib.nn.NLLLoss) else xi
        loss = module(scores, lib.tensor([0, 2, 1, 1]))
        g = lib.autograd.grad(loss.sum(), xi, create_graph=True)[0]
        g_graph = graph_signature(g.grad_fn)
        gg = lib.autograd.grad((g * g).sum(), xi)[0]
        out[lib.__name__] = (repr(module), list(module.state_dict()), loss, g, gg,
                             graph_signature(loss.grad_fn), g_graph)
    m, t = out["minigrad"], out["torch"]
    assert m[:2] == t[:2] and m[5:] == t[5:]
    for a, b in zip(m[2:5], t[2:5]):
        assert_close(a, b, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 3), lib.tensor([0, 1]),
                                           lib.ones(4)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 3, dtype=lib.float64),
                                           lib.tensor([0, 1]), lib.ones(3)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 3), lib.tensor([0, 1]),
                                           lib.ones(3, requires_grad=True)),
])
def test_class_weight_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


def test_legacy_size_average_and_reduce_flags_set_the_reduction():
    for flags in ({"size_average": False}, {"reduce": False}, {"size_average": True}):
        for name in ("NLLLoss", "BCELoss", "L1Loss", "CrossEntropyLoss", "MSELoss"):
            with pytest.warns(UserWarning, match="size_average and reduce args"):
                ours = getattr(minigrad.nn, name)(**flags).reduction
            with pytest.warns(UserWarning, match="size_average and reduce args"):
                theirs = getattr(torch.nn, name)(**flags).reduction
            assert ours == theirs


@pytest.mark.parametrize("name", ["LayerNorm", "BCELoss", "L1Loss", "NLLLoss", "HuberLoss",
                                  "SmoothL1Loss"])
def test_new_names_are_no_longer_left_out(name):
    assert getattr(minigrad.nn, name) is not None
    functional = {"LayerNorm": "layer_norm", "BCELoss": "binary_cross_entropy",
                  "L1Loss": "l1_loss", "NLLLoss": "nll_loss", "HuberLoss": "huber_loss",
                  "SmoothL1Loss": "smooth_l1_loss"}[name]
    assert callable(getattr(minigrad.nn.functional, functional))


# --- huber_loss, smooth_l1_loss -----------------------------------------------------------------
@pytest.mark.parametrize("name,param", [("huber_loss", "delta"), ("smooth_l1_loss", "beta")])
@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 4), max_size=2), dtype=st.sampled_from(["float32", "float64"]),
       value=st.sampled_from([0.25, 1.0, 3.0]), reduction=st.sampled_from(["mean", "sum", "none"]),
       seed=st.integers(0, 2**16))
def test_robust_losses_match_torch(name, param, shape, dtype, value, reduction, seed):
    """Values, both gradients (as torch's kernels round them), the node and its saved fields,
    and the gradient made with create_graph: its node and the second derivatives."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 2).astype(dtype)
    y = rng.standard_normal(shape).astype(dtype)
    out = {}
    for lib in LIBS:
        xi, yi = lib.tensor(x.copy(), requires_grad=True), lib.tensor(y.copy(), requires_grad=True)
        loss = getattr(lib.nn.functional, name)(xi, yi, reduction=reduction, **{param: value})
        total = loss.sum() if reduction == "none" else loss
        gx, gy = lib.autograd.grad(total, (xi, yi), create_graph=True)
        facts = (graph_signature(loss.grad_fn), saved_numbers(loss.grad_fn),
                 graph_signature(gx.grad_fn), saved_numbers(gx.grad_fn))
        second = lib.autograd.grad((gx * gx).sum() + (gy * xi).sum(), (xi, yi))
        out[lib.__name__] = (loss, gx, gy, *second, facts)
    m, t = out["minigrad"], out["torch"]
    assert m[-1] == t[-1]
    rtol, atol = TOL[dtype]
    for a, b in zip(m[:-1], t[:-1]):
        assert_close(a, b, rtol=rtol * 10, atol=atol * 10)


def _promoted_loss_facts(lib, name, param, dtypes, target_shape, reduction):
    """What a loss of operands of two dtypes gives, stage by stage (each stage a value or
    an error): the loss's dtype and values, then the gradients' (made with create_graph),
    then the second derivatives."""
    a = lib.tensor(np.array([0.3, 1.7, -2.2, 0.1])).to(getattr(lib, dtypes[0]))
    b = lib.tensor(np.array([1.1, 0.2, -0.9, 0.6])[:int(np.prod(target_shape))]
                   .reshape(target_shape)).to(getattr(lib, dtypes[1]))
    leaves = [v.requires_grad_() for v in (a, b) if v.dtype.is_floating_point]
    facts = []

    def plain(t):
        return str(t.dtype).split(".")[-1], t.detach().double().numpy().tolist()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the target size warning
        try:
            loss = getattr(lib.nn.functional, name)(a, b, reduction=reduction, **{param: 0.7})
            facts.append(plain(loss))
            grads = lib.autograd.grad(loss.sum(), leaves, create_graph=True)
            facts.append([plain(g) for g in grads])
            second = lib.autograd.grad(sum((g * g).sum() for g in grads), leaves,
                                       allow_unused=True)
            facts.append([None if g is None else plain(g) for g in second])
        except Exception as e:  # noqa: BLE001 - the error is what is compared
            facts.append((type(e).__name__, normalize_text(str(e))))
    return facts


@pytest.mark.parametrize("reduction", ["none", "mean"])
@pytest.mark.parametrize("target_shape", [(4,), ()], ids=["same-shape", "0-d-target"])
@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32"),
                                    ("float16", "float32"), ("float32", "float16"),
                                    ("float32", "int64"), ("int64", "float32"),
                                    ("float32", "bool"), ("int64", "int64")],
                         ids="-".join)
@pytest.mark.parametrize("name,param", [("huber_loss", "delta"), ("smooth_l1_loss", "beta")])
def test_robust_losses_promote_dtypes_as_torch(name, param, dtypes, target_shape, reduction):
    """Operands of two dtypes (a float input with an integer 0-d target, found by the
    arg-parsing sweep, was refused): smooth_l1_loss promotes them, its result and backward in
    the common dtype; huber_loss computes in the common dtype but gives the input's (an
    integer input with a float target: torch's cast error), and its backward kernel refuses
    a target of another dtype with torch's "Found dtype" error."""
    got = _promoted_loss_facts(minigrad, name, param, dtypes, target_shape, reduction)
    expected = _promoted_loss_facts(torch, name, param, dtypes, target_shape, reduction)
    assert _without_values(got) == _without_values(expected)
    # values an ulp apart at most, in their own dtype: torch's element-by-element loop (for the
    # elements past the last full vector) rounds smooth_l1_loss_backward's x / beta in double
    for m, t in zip(_values(got), _values(expected)):
        np.testing.assert_array_max_ulp(m, t, maxulp=1)


def _without_values(facts):
    """The stages' dtypes and errors (values replaced by their number)."""
    if isinstance(facts, list):
        return [_without_values(f) for f in facts]
    if isinstance(facts, tuple) and len(facts) == 2 and not isinstance(facts[1], str):
        return facts[0], np.size(facts[1])
    return facts


def _values(facts):
    if isinstance(facts, list):
        return [v for f in facts for v in _values(f)]
    if isinstance(facts, tuple) and len(facts) == 2 and not isinstance(facts[1], str):
        return [np.array(facts[1], dtype=np.dtype(facts[0]))]
    return []


@pytest.mark.parametrize("name,param", [("huber_loss", "delta"), ("smooth_l1_loss", "beta")])
@pytest.mark.parametrize("value", [None, "a", 1, True, 0, -1, "0-d", "1-d"])
def test_robust_loss_parameters_are_parsed_as_torch(name, param, value):
    """delta and beta go through torch's parser as floats (0-d tensors and ints taken, None and
    strings refused with its TypeError); smooth_l1_loss compares beta with 0 in Python first,
    as torch's F does, so a 1-d tensor beta is the ambiguous truth value's error."""
    def call(lib):
        x = lib.tensor([[0.5, 1.25, 2.0], [3.5, 0.75, 1.5]], requires_grad=True)
        arg = {"0-d": lib.tensor(0.5), "1-d": lib.tensor([0.5, 0.5])}.get(value, value)
        loss = getattr(lib.nn.functional, name)(x, x.flip(0), **{param: arg})
        return str(loss.dtype)[-7:], loss.item(), type(loss.grad_fn).__name__
    both_engines(call)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.huber_loss(lib.zeros(2), lib.zeros(2), delta=0.0),
    lambda lib: lib.nn.functional.smooth_l1_loss(lib.zeros(2), lib.zeros(2), beta=-1.0),
    lambda lib: lib.nn.functional.huber_loss(lib.zeros(2), lib.zeros(2), reduction="avg"),
    lambda lib: lib.nn.functional.smooth_l1_loss(lib.zeros(2), lib.zeros(2), reduction="avg"),
    lambda lib: lib.nn.functional.huber_loss(lib.zeros(2), lib.zeros(2), weight=lib.ones(3)),
    lambda lib: lib.nn.functional.huber_loss(lib.zeros(2), lib.zeros(2), weight=lib.ones(2),
                                             reduction="avg"),
    lambda lib: lib.nn.functional.huber_loss(lib.zeros(3), lib.zeros(2)),
])
def test_robust_loss_errors_match_torch(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(lambda: call(minigrad), lambda: call(torch))


def test_huber_weight_and_smooth_l1_beta_zero_graphs_match_torch():
    rng = np.random.default_rng(12)
    x, y, w = rng.standard_normal((2, 3)), rng.standard_normal((2, 3)), rng.uniform(1, 2, (2, 3))
    out = {}
    for lib in LIBS:
        xi = lib.tensor(x, requires_grad=True)
        a = lib.nn.functional.huber_loss(xi, lib.tensor(y), weight=lib.tensor(w), delta=0.5)
        b = lib.nn.functional.smooth_l1_loss(xi, lib.tensor(y), beta=0.0, reduction="sum")
        (a + b).backward()
        out[lib.__name__] = (graph_signature(a.grad_fn), graph_signature(b.grad_fn), a, b, xi.grad)
    m, t = out["minigrad"], out["torch"]
    assert m[:2] == t[:2]
    for p, q in zip(m[2:], t[2:]):
        assert_close(p, q)


def test_huber_double_backward_has_no_forward_mode_as_in_torch():
    """A gradient of huber_loss made with create_graph from a dual input needs the tangent
    of huber_loss_backward, which torch does not define: its error, in both engines
    (smooth_l1_loss_backward has one)."""
    results = {}
    for lib, fw in ((minigrad, mfw), (torch, tfw)):
        results[lib.__name__] = {}
        for name in ("huber_loss", "smooth_l1_loss"):
            with fw.dual_level():
                dual = fw.make_dual(lib.tensor([0.3, -2.0]), lib.tensor([1.0, 1.0]))
                dual.requires_grad_()
                loss = getattr(lib.nn.functional, name)(dual, lib.tensor([0.0, 0.0]))
                try:
                    g = lib.autograd.grad(loss, dual, create_graph=True)[0]
                    results[lib.__name__][name] = to_numpy(fw.unpack_dual(g).tangent).tolist()
                except NotImplementedError as e:
                    results[lib.__name__][name] = str(e)
    assert results["minigrad"] == results["torch"]
    assert "huber_loss_backward that does not support it" in results["torch"]["huber_loss"]


@pytest.mark.parametrize("make", [
    lambda lib: lib.nn.HuberLoss(), lambda lib: lib.nn.HuberLoss(reduction="sum", delta=0.5),
    lambda lib: lib.nn.SmoothL1Loss(), lambda lib: lib.nn.SmoothL1Loss(beta=0.25),
])
def test_robust_loss_modules_match_torch(make):
    x = np.random.default_rng(13).standard_normal((3, 2)) * 2
    out = {}
    for lib in LIBS:
        module = make(lib)
        xi = lib.tensor(x, requires_grad=True)
        loss = module(xi, lib.tensor(x[::-1].copy()))
        loss.sum().backward()
        out[lib.__name__] = (repr(module), module.reduction,
                             getattr(module, "delta", getattr(module, "beta", None)), loss, xi.grad)
    m, t = out["minigrad"], out["torch"]
    assert m[:3] == t[:3]
    assert_close(m[3], t[3])
    assert_close(m[4], t[4])
