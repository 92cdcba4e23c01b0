"""Custom autograd Functions: the same Function source runs on minigrad and torch, and every
observable (values, gradients, grad_fn names and edges, ctx fields, errors) must agree."""

from __future__ import annotations

import re
import types

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from tests.torch_compare import (
    assert_close,
    assert_grad_close,
    assert_same_error,
    assert_same_graph,
    normalize_text,
    pair,
)


def functions(lib):
    """The same custom Functions written against ``lib`` (torch or minigrad)."""
    F = lib.autograd.Function
    ns = types.SimpleNamespace(log=[])

    class Exp(F):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    class MulConst(F):
        """A non-tensor argument and state kept on ctx."""

        @staticmethod
        def forward(ctx, x, c, w):
            ns.log.append(("needs", ctx.needs_input_grad))
            ctx.c = c
            ctx.save_for_backward(x, w)
            return x * w * c

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            gx = g * w * ctx.c if ctx.needs_input_grad[0] else None
            gw = g * x * ctx.c if ctx.needs_input_grad[2] else None
            return gx, None, gw

    class TooFew(F):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    class GradForNumber(F):
        @staticmethod
        def forward(ctx, x, n):
            return x * n

        @staticmethod
        def backward(ctx, g):
            return g, g

    class BadShape(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g[:2]

    class ExtraNones(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None

    class SaveNumber(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x

    class SaveInput(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * g * x

    class Identity(F):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    class Double(F):
        """In place, declared with mark_dirty."""

        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class ValueAndIndex(F):
        @staticmethod
        def forward(ctx, x):
            value, index = x.max(0)
            index = index.to(x.dtype)
            ctx.mark_non_differentiable(index)
            ctx.save_for_backward(x, value)
            return value, index

        @staticmethod
        def backward(ctx, g_value, g_index):
            ns.log.append(("g_index", None if g_index is None else g_index.tolist()))
            x, value = ctx.saved_tensors
            return g_value * (x == value)

    class TwoOutputs(F):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            ns.log.append(("two", None if ga is None else ga.tolist(),
                           None if gb is None else gb.tolist()))
            ga = 0 if ga is None else ga
            gb = 0 if gb is None else gb
            return ga * 2 + gb * 3, None

    class Cube(F):
        """Backward written with differentiable ops: twice differentiable."""

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * g * x * x

    class CubeOnce(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @lib.autograd.function.once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * g * x * x

    class Scale(F):
        """The newer style: forward without ctx, then setup_context."""

        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    for cls in (Exp, MulConst, TooFew, GradForNumber, BadShape, ExtraNones, SaveNumber,
                SaveInput, Identity, Double, ValueAndIndex, TwoOutputs, Cube, CubeOnce, Scale):
        setattr(ns, cls.__name__, cls)
    return ns


M, T = functions(minigrad), functions(torch)


def _no_address(text: str) -> str:
    return re.sub(r"0x[0-9a-f]+", "0x", normalize_text(text))


floats = hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=2, max_side=4),
                    elements=st.floats(-3, 3))


@settings(deadline=None, max_examples=25)
@given(floats)
def test_exp_function_matches_torch(a):
    m, t = pair(a, requires_grad=True)
    my, ty = M.Exp.apply(m), T.Exp.apply(t)
    assert_close(my, ty)
    assert_same_graph(my, ty)
    assert _no_address(repr(my.grad_fn)) == _no_address(repr(ty.grad_fn))
    assert my.grad_fn.name() == ty.grad_fn.name() == "ExpBackward"
    my.sum().backward()
    ty.sum().backward()
    assert_grad_close(m, t)


@pytest.mark.parametrize("rx,rw", [(True, True), (True, False), (False, True)])
def test_non_tensor_argument_needs_input_grad_and_none_gradient(rx, rw):
    data = np.random.default_rng(0).normal(size=(2, 3))
    (mx, tx), (mw, tw) = pair(data, rx), pair(data[::-1].copy(), rw)
    M.log.clear()
    T.log.clear()
    my, ty = M.MulConst.apply(mx, 2.5, mw), T.MulConst.apply(tx, 2.5, tw)
    assert M.log == T.log
    assert my.grad_fn.needs_input_grad == ty.grad_fn.needs_input_grad
    assert_same_graph(my, ty)
    (my * my).sum().backward()
    (ty * ty).sum().backward()
    assert_grad_close(mx, tx)
    assert_grad_close(mw, tw)


def test_no_graph_without_requires_grad_or_under_no_grad():
    m, t = pair([1.0, 2.0], requires_grad=False)
    assert M.Exp.apply(m).grad_fn is None and T.Exp.apply(t).grad_fn is None
    m, t = pair([1.0, 2.0], requires_grad=True)
    with minigrad.no_grad():
        out = M.Exp.apply(m)
    with torch.no_grad():
        tout = T.Exp.apply(t)
    assert out.requires_grad == tout.requires_grad is False


@pytest.mark.parametrize("name,args", [
    ("TooFew", "two"), ("GradForNumber", "number"), ("BadShape", "one"), ("Exp", "twice"),
])
def test_backward_errors_match_torch(name, args):
    def run(lib, ns):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        fn = getattr(ns, name)
        if args == "two":
            out = fn.apply(x, x * 2)
        elif args == "number":
            out = fn.apply(x, 2)
        else:
            out = fn.apply(x)
        out.sum().backward()
        if args == "twice":
            out.sum().backward()

    assert_same_error(lambda: run(minigrad, M), lambda: run(torch, T))


def test_extra_trailing_nones_are_allowed():
    m, t = pair([1.0, 2.0], requires_grad=True)
    M.ExtraNones.apply(m).sum().backward()
    T.ExtraNones.apply(t).sum().backward()
    assert_grad_close(m, t)


def test_save_for_backward_only_tensors():
    assert_same_error(lambda: M.SaveNumber.apply(minigrad.ones(2, requires_grad=True)),
                      lambda: T.SaveNumber.apply(torch.ones(2, requires_grad=True)))


@pytest.mark.parametrize("modify", ["input", "output"])
def test_saved_tensor_version_check(modify):
    def run(lib, ns):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 1
        fn = ns.SaveInput if modify == "input" else ns.Exp
        out = fn.apply(h)
        (h if modify == "input" else out).mul_(2)
        out.sum().backward()

    assert_same_error(lambda: run(minigrad, M), lambda: run(torch, T))


def test_saved_tensors_freed_after_backward():
    def run(lib, ns):
        out = ns.Exp.apply(lib.tensor([1.0, 2.0], requires_grad=True))
        out.sum().backward()
        return out.grad_fn.saved_tensors

    assert_same_error(lambda: run(minigrad, M), lambda: run(torch, T))


def test_saved_tensors_kept_with_retain_graph():
    m, t = pair([0.5, -1.0], requires_grad=True)
    my, ty = M.Exp.apply(m), T.Exp.apply(t)
    my.sum().backward(retain_graph=True)
    ty.sum().backward(retain_graph=True)
    assert_close(my.grad_fn.saved_tensors[0], ty.grad_fn.saved_tensors[0])
    my.sum().backward()
    ty.sum().backward()
    assert_grad_close(m, t)


def test_returning_an_input_gives_a_new_tensor():
    m, t = pair([1.0, 2.0], requires_grad=True)
    my, ty = M.Identity.apply(m), T.Identity.apply(t)
    assert (my is m) == (ty is t)
    assert (my._base is m) == (ty._base is t)
    assert my.is_leaf == ty.is_leaf
    assert_same_graph(my, ty)
    my.sum().backward()
    ty.sum().backward()
    assert_grad_close(m, t)


def test_mark_dirty_in_place_function():
    m, t = pair([1.0, -2.0, 3.0], requires_grad=True)
    mh, th = m * 1, t * 1
    my, ty = M.Double.apply(mh), T.Double.apply(th)
    assert (my is mh) == (ty is th)
    assert my._version == ty._version
    assert_close(my, ty)
    assert_same_graph(my, ty)
    (my * my).sum().backward()
    (ty * ty).sum().backward()
    assert_grad_close(m, t)


def test_mark_dirty_on_a_leaf_is_an_error():
    assert_same_error(lambda: M.Double.apply(minigrad.ones(2, requires_grad=True)),
                      lambda: T.Double.apply(torch.ones(2, requires_grad=True)))


def test_mark_non_differentiable():
    data = np.array([[1.0, 5.0], [4.0, 2.0], [0.0, 1.0]])
    m, t = pair(data, requires_grad=True)
    M.log.clear()
    T.log.clear()
    (mv, mi), (tv, ti) = M.ValueAndIndex.apply(m), T.ValueAndIndex.apply(t)
    assert (mv.requires_grad, mi.requires_grad) == (tv.requires_grad, ti.requires_grad)
    assert mi.grad_fn is None and ti.grad_fn is None
    assert_close(mi, ti)
    mv.sum().backward()
    tv.sum().backward()
    assert M.log == T.log
    assert_grad_close(m, t)


@pytest.mark.parametrize("materialize", [True, False])
@pytest.mark.parametrize("use", [0, 1, 2])
def test_set_materialize_grads(materialize, use):
    m, t = pair([1.0, 2.0], requires_grad=True)
    M.log.clear()
    T.log.clear()
    ma, mb = M.TwoOutputs.apply(m, materialize)
    ta, tb = T.TwoOutputs.apply(t, materialize)
    assert ma.grad_fn is mb.grad_fn and ma._output_nr == 0 and mb._output_nr == 1
    loss_m = [ma.sum(), mb.sum(), ma.sum() + mb.sum()][use]
    loss_t = [ta.sum(), tb.sum(), ta.sum() + tb.sum()][use]
    loss_m.backward()
    loss_t.backward()
    assert M.log == T.log
    assert_grad_close(m, t)


def test_setup_context_style():
    m, t = pair([1.0, 2.0], requires_grad=True)
    my, ty = M.Scale.apply(m, 4.0), T.Scale.apply(t, 4.0)
    assert_close(my, ty)
    my.sum().backward()
    ty.sum().backward()
    assert_grad_close(m, t)


@settings(deadline=None, max_examples=20)
@given(floats)
def test_double_backward_through_a_function(a):
    m, t = pair(a, requires_grad=True)
    (gm,) = minigrad.autograd.grad(M.Cube.apply(m).sum(), m, create_graph=True)
    (gt,) = torch.autograd.grad(T.Cube.apply(t).sum(), t, create_graph=True)
    assert_close(gm, gt)
    assert_same_graph(gm, gt)
    (gm * gm).sum().backward()
    (gt * gt).sum().backward()
    assert_grad_close(m, t)


def test_once_differentiable():
    m, t = pair([1.0, -2.0], requires_grad=True)
    mv, tv = pair([1.0, 1.0], requires_grad=True)
    (gm,) = minigrad.autograd.grad(M.CubeOnce.apply(m), m, mv, create_graph=True)
    (gt,) = torch.autograd.grad(T.CubeOnce.apply(t), t, tv, create_graph=True)
    assert_close(gm, gt)
    assert_same_graph(gm, gt)
    assert_same_error(lambda: gm.sum().backward(), lambda: gt.sum().backward())
    # without a grad_output that requires grad there is no graph at all
    (gm,) = minigrad.autograd.grad(M.CubeOnce.apply(m).sum(), m, create_graph=True)
    (gt,) = torch.autograd.grad(T.CubeOnce.apply(t).sum(), t, create_graph=True)
    assert gm.requires_grad == gt.requires_grad


# --- the seed: a Function whose backward is a forward difference --------------------------------
def forward_difference(lib):
    """The lesson's Function: ``f`` is opaque to autograd (it goes through strings and eval),
    so its gradient with respect to ``weight`` is estimated by forward differences."""

    def f_str(x, w):
        return lib.tensor([eval(f"2 * {x_} * {w[0]} + {x_}**2 * {w[1]}") for x_ in x])

    class GeneralFunctionWithForwardDifference(lib.autograd.Function):
        @staticmethod
        def forward(ctx, f, xs, weight):
            ys = f(xs, weight)
            ctx.save_for_backward(xs, ys, weight)
            ctx.f = f
            return ys

        @staticmethod
        def backward(ctx, grad_output):
            xs, ys, weight = ctx.saved_tensors
            f = ctx.f
            dw = 0.001
            diff = []
            weight = weight.detach()
            for i in range(len(weight)):
                weight[i] += dw
                diff.append(lib.sum(grad_output * (f(xs, weight) - ys)))
                weight[i] -= dw
            diff = lib.tensor(diff) / dw
            return None, None, diff

    return f_str, GeneralFunctionWithForwardDifference


def _train(lib, xs, ys, steps=12, lr=0.1):
    f_str, fn = forward_difference(lib)
    w = lib.tensor([0.0, 0.0], requires_grad=True)
    history = []
    for i in range(steps):
        x, y = lib.tensor(xs[i % 4]), lib.tensor(ys[i % 4])
        out = fn.apply(f_str, x, w)
        loss = ((out - y) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            w -= lr * w.grad
        w.grad.zero_()
        history.append((loss.detach(), w.detach().clone()))
    return history, out


def test_forward_difference_function_trains_identically():
    rng = np.random.default_rng(3)
    xs = rng.random((4, 5)).astype(np.float32)
    ys = (2 * xs * 1.2 + xs ** 2 * -3.4).astype(np.float32)
    m_hist, m_out = _train(minigrad, xs, ys)
    t_hist, t_out = _train(torch, xs, ys)
    assert m_out.grad_fn.name() == t_out.grad_fn.name()
    assert m_out.grad_fn.needs_input_grad == t_out.grad_fn.needs_input_grad
    for (ml, mw), (tl, tw) in zip(m_hist, t_hist):
        assert_close(ml, tl)
        assert_close(mw, tw)


def _facts(lib):
    """needs_input_grad under no_grad, integer outputs, a view of an input as output."""
    seen = []

    class Mul(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            seen.append((ctx.needs_input_grad, lib.is_grad_enabled()))
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g, g

    class ToLong(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.long()

    class First(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[0]

        @staticmethod
        def backward(ctx, g):
            return g.expand(2)

    x = lib.ones(2, requires_grad=True)
    with lib.no_grad():
        out = Mul.apply(x, lib.ones(2))
    seen.append((out.grad_fn is None, out.requires_grad))
    out = Mul.apply(x, 2 * lib.ones(2, requires_grad=True))
    seen.append(len(out.grad_fn.next_functions))
    out = ToLong.apply(x)
    seen.append((out.requires_grad, out.grad_fn is None))
    out = First.apply(x)
    seen.append((out.requires_grad, out._base is x, out.grad_fn.name()))
    out.backward()
    seen.append(x.grad.tolist())
    return seen


def test_grad_mode_integer_outputs_and_views():
    assert _facts(minigrad) == _facts(torch)
