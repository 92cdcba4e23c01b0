"""binary_cross_entropy_with_logits and BCEWithLogitsLoss against torch, computed at test time."""

import pathlib
import subprocess
import sys
import textwrap

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
    graph_signature,
    pair,
    saved_numbers,
)

LIBS = {"torch": torch, "minigrad": minigrad}


@st.composite
def cases(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=0, max_size=3)))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    logit = st.one_of(st.sampled_from([100.0, -100.0, 0.0]), st.floats(-20, 20))
    n = int(np.prod(shape))
    x = np.array(draw(st.lists(logit, min_size=n, max_size=n)), dtype).reshape(shape)
    y = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)), dtype).reshape(shape)
    extras = []
    for _ in range(2):  # weight, pos_weight: None, or broadcastable to the input
        if draw(st.booleans()):
            k = draw(st.integers(0, len(shape)))
            sub = tuple(draw(st.sampled_from([1, s])) for s in shape[len(shape) - k:])
            m = int(np.prod(sub))
            vals = draw(st.lists(st.floats(0.1, 3), min_size=m, max_size=m))
            extras.append(np.array(vals, dtype).reshape(sub))
        else:
            extras.append(None)
    return x, y, extras[0], extras[1], draw(st.sampled_from(["mean", "sum", "none"]))


def _run(lib, x, y, w, pw, reduction):
    xi = lib.tensor(x.copy(), requires_grad=True)
    yi = lib.tensor(y.copy(), requires_grad=True)
    wi = None if w is None else lib.tensor(w.copy())
    pwi = None if pw is None else lib.tensor(pw.copy())
    loss = lib.nn.functional.binary_cross_entropy_with_logits(xi, yi, wi, reduction=reduction,
                                                              pos_weight=pwi)
    grads = lib.autograd.grad(loss.sum(), (xi, yi), retain_graph=True)
    return loss, grads


@settings(max_examples=60, deadline=None)
@given(cases())
def test_values_gradients_and_graph_match_torch(case):
    m_loss, m_grads = _run(minigrad, *case)
    t_loss, t_grads = _run(torch, *case)
    assert_close(m_loss, t_loss, "loss: ")
    for what, mg, tg in zip(("input", "target"), m_grads, t_grads, strict=True):
        assert_close(mg, tg, f"{what} grad: ")
    assert graph_signature(m_loss.grad_fn) == graph_signature(t_loss.grad_fn)
    assert saved_numbers(m_loss.grad_fn) == saved_numbers(t_loss.grad_fn)
    for field in ("weight", "pos_weight"):
        m_saved = getattr(m_loss.grad_fn, f"_saved_{field}")
        t_saved = getattr(t_loss.grad_fn, f"_saved_{field}")
        assert (m_saved is None) == (t_saved is None)
        if t_saved is not None:
            assert_close(m_saved, t_saved)


@settings(max_examples=30, deadline=None)
@given(cases())
def test_forward_mode_matches_torch(case):
    x, y, w, pw, reduction = case
    out = {}
    for name, lib, fw in (("m", minigrad, mfw), ("t", torch, tfw)):
        with fw.dual_level():
            xi = fw.make_dual(lib.tensor(x), lib.tensor(np.ones_like(x)))
            yi = fw.make_dual(lib.tensor(y), lib.tensor(np.full_like(y, 0.5)))
            loss = lib.nn.functional.binary_cross_entropy_with_logits(
                xi, yi, None if w is None else lib.tensor(w), reduction=reduction,
                pos_weight=None if pw is None else lib.tensor(pw))
            out[name] = fw.unpack_dual(loss).tangent
    assert_close(out["m"], out["t"], "tangent: ")


@pytest.mark.parametrize("pos_weight", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_gradcheck_and_gradgradcheck(reduction, pos_weight):
    rng = np.random.default_rng(0)
    x = minigrad.tensor(rng.normal(size=(3, 2)) * 3, requires_grad=True)
    y = minigrad.tensor(rng.uniform(size=(3, 2)), requires_grad=True)
    w = minigrad.tensor(rng.uniform(0.5, 2, size=(2,)))
    pw = minigrad.tensor(rng.uniform(0.5, 2, size=(2,))) if pos_weight else None

    def f(a, b):
        return minigrad.nn.functional.binary_cross_entropy_with_logits(
            a, b, w, reduction=reduction, pos_weight=pw)
    assert minigrad.autograd.gradcheck(f, (x, y))
    assert minigrad.autograd.gradgradcheck(f, (x, y))


def test_module_repr_and_result_match_torch():
    (mx, tx), (my, ty) = pair(np.linspace(-3, 3, 6), True), pair(np.linspace(0, 1, 6))
    (mw, tw) = pair(np.full(6, 2.0))
    m_mod = minigrad.nn.BCEWithLogitsLoss(pos_weight=mw, reduction="sum")
    t_mod = torch.nn.BCEWithLogitsLoss(pos_weight=tw, reduction="sum")
    assert repr(m_mod) == repr(t_mod)
    assert_close(m_mod(mx, my), t_mod(tx, ty))


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(lib.zeros(3), lib.zeros(4)),
    lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(lib.zeros(3), lib.zeros(3),
                                                                   reduction="avg"),
    lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        lib.zeros(3), lib.zeros(3, dtype=lib.int64)),
    lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        lib.zeros(3), lib.zeros(3), weight=lib.ones(3, requires_grad=True)),
])
def test_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


TUTORIAL_CELL = textwrap.dedent("""
    import sys
    torch = __import__(sys.argv[1])
    torch.manual_seed(0)
    x = torch.ones(5)  # input tensor
    y = torch.zeros(3)  # expected output
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w)+b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    print(f"Gradient function for z = {z.grad_fn}".split(" object at")[0])
    print(f"Gradient function for loss = {loss.grad_fn}".split(" object at")[0])
    print(loss)
    loss.backward()
    print(w.grad)
    print(b.grad)
""")


def test_tutorial_cell_prints_what_torch_prints():
    root = pathlib.Path(__file__).resolve().parents[2]  # this checkout's minigrad
    outs = [subprocess.run([sys.executable, "-c", TUTORIAL_CELL, lib], capture_output=True,
                           text=True, check=True, cwd=root).stdout
            for lib in ("torch", "minigrad")]
    assert "BinaryCrossEntropyWithLogitsBackward0" in outs[0]
    assert outs[1] == outs[0]


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32")])
@pytest.mark.parametrize("pos_weight", [None, 2.0])
def test_mixed_dtypes_follow_the_target_like_torch(dtypes, pos_weight):
    """The loss has the target's dtype (torch's kernel works in place on ``1 - target``);
    a float32 operand rounds at float32, so values agree to float32's tolerance."""
    rng = np.random.default_rng(3)
    x = (rng.normal(size=(4, 3)) * 5).astype(dtypes[0])
    y = rng.uniform(size=(4, 3)).astype(dtypes[1])
    pw = None if pos_weight is None else np.array([pos_weight], dtypes[0])
    for reduction in ("none", "mean"):
        m_loss, m_grads = _run(minigrad, x, y, None, pw, reduction)
        t_loss, t_grads = _run(torch, x, y, None, pw, reduction)
        for m, t in zip((m_loss, *m_grads), (t_loss, *t_grads), strict=True):
            assert_close(m, t, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("size_average", "reduce"), [(False, None), (None, False), (True, True)])
def test_legacy_size_average_and_reduce_pick_torchs_reduction(size_average, reduce):
    (mx, tx), (my, ty) = pair(np.linspace(-2, 2, 4)), pair(np.linspace(0, 1, 4))
    with pytest.warns(UserWarning) as m_warned:
        m = minigrad.nn.functional.binary_cross_entropy_with_logits(
            mx, my, size_average=size_average, reduce=reduce)
    with pytest.warns(UserWarning) as t_warned:
        t = torch.nn.functional.binary_cross_entropy_with_logits(
            tx, ty, size_average=size_average, reduce=reduce)
    assert_close(m, t)
    assert [str(w.message) for w in m_warned] == [str(w.message) for w in t_warned]


def test_weighted_module_keeps_weights_as_buffers_like_torch():
    (mw, tw), (mp, tp) = pair(np.array([1.0, 2.0, 0.5])), pair(np.array([3.0]))
    m_mod = minigrad.nn.BCEWithLogitsLoss(weight=mw, pos_weight=mp)
    t_mod = torch.nn.BCEWithLogitsLoss(weight=tw, pos_weight=tp)
    assert list(dict(m_mod.named_buffers())) == list(dict(t_mod.named_buffers()))
    (mx, tx), (my, ty) = pair(np.linspace(-5, 5, 6).reshape(2, 3), True), \
        pair(np.linspace(0, 1, 6).reshape(2, 3))
    m_loss, t_loss = m_mod(mx, my), t_mod(tx, ty)
    assert_close(m_loss, t_loss)
    m_loss.backward()
    t_loss.backward()
    assert_close(mx.grad, tx.grad)


def test_no_longer_left_out():
    assert "binary_cross_entropy_with_logits" in dir(minigrad.nn.functional)
    with pytest.raises(AttributeError, match="minigrad does not implement torch.nn.Conv2d"):
        _ = minigrad.nn.Conv2d
