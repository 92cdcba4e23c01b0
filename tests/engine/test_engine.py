"""The backward engine against torch's: order, accumulation, hooks, retain_graph, errors.

Graphs are built twice from the same NumPy data, once with torch and once with minigrad, and
everything observable is compared: gradients, the order in which nodes run (recorded with
tensor hooks, which both engines call just before the node that made the tensor runs), error
types and messages (minigrad's text normalised: ``minigrad.`` -> ``torch.``).
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from tests.torch_compare import both_engines as same_outcome
from tests.torch_compare import norm, outcome

LIBS = (torch, minigrad)





def arr(t):
    return None if t is None else t.detach().numpy().copy()


def assert_close(got, expected):
    if expected is None:
        assert got is None
        return
    assert got is not None
    np.testing.assert_allclose(arr(got), arr(expected), rtol=1e-6, atol=1e-9)


# --- random graphs: execution order, gradients ----------------------------------------------
UNARY = ["exp", "sin", "tanh", "double", "neg", "unbind"]
BINARY = ["add", "mul", "sub"]


@st.composite
def graphs(draw):
    """A random DAG: a few leaves, then ops each reading one or two earlier tensors."""
    n_leaves = draw(st.integers(1, 3))
    ops = []
    for k in range(draw(st.integers(1, 12))):
        avail = n_leaves + k
        if draw(st.booleans()):
            ops.append((draw(st.sampled_from(UNARY)), draw(st.integers(0, avail - 1))))
        else:
            ops.append((draw(st.sampled_from(BINARY)), draw(st.integers(0, avail - 1)),
                        draw(st.integers(0, avail - 1))))
    n = n_leaves + len(ops)
    outs = draw(st.lists(st.integers(n_leaves, n - 1), min_size=1, max_size=3, unique=True))
    return n_leaves, ops, outs


def build(lib, spec, data, hooks_log=None):
    n_leaves, ops, outs = spec
    ts = [lib.tensor(data[i], requires_grad=True) for i in range(n_leaves)]
    for op in ops:
        a = ts[op[1]]
        if op[0] == "double":
            r = a * 2.0
        elif op[0] == "unbind":  # a node with several outputs, both used
            pieces = a.unbind(0) if a.dim() else (a, a)
            r = pieces[0] * 2.0 + pieces[-1]
        elif op[0] in UNARY:
            r = getattr(a, op[0])()
        else:
            r = getattr(a, op[0])(ts[op[2]])
        ts.append(r)
    if hooks_log is not None:
        for i, t in enumerate(ts):
            t.register_hook(lambda g, i=i: hooks_log.append(i))
    loss = sum(ts[o].sum() for o in outs)
    return ts, loss


@settings(deadline=None, max_examples=60)
@given(graphs(), st.integers(0, 2**31 - 1))
def test_random_graph_order_and_grads_match_torch(spec, seed):
    data = np.random.default_rng(seed).uniform(-1, 1, size=(3, 2, 3))
    logs, results = [], []
    for lib in LIBS:
        log = []
        ts, loss = build(lib, spec, data, log)
        loss.backward()
        logs.append(log)
        results.append(ts[: spec[0]])
    assert logs[1] == logs[0]
    for tt, mt in zip(*results):
        assert_close(mt.grad, tt.grad)


@settings(deadline=None, max_examples=60)
@given(graphs(), st.integers(0, 2**31 - 1), st.data())
def test_grad_wrt_random_inputs_matches_torch(spec, seed, data):
    """autograd.grad for a random subset of leaves and intermediates: same gradients, same
    unused inputs, and the same hooks run in the same order (only the needed part runs)."""
    n = spec[0] + len(spec[1])
    picks = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True))
    values = np.random.default_rng(seed).uniform(-1, 1, size=(3, 2, 3))
    logs, results = [], []
    for lib in LIBS:
        log = []
        ts, loss = build(lib, spec, values, log)
        grads = lib.autograd.grad(loss, [ts[i] for i in picks], allow_unused=True)
        logs.append(log)
        results.append((grads, [t.grad for t in ts[: spec[0]]]))
    assert logs[1] == logs[0]
    for mg, tg in zip(results[1][0], results[0][0]):
        assert_close(mg, tg)
    assert results[1][1] == results[0][1] == [None] * spec[0]


@settings(deadline=None, max_examples=25)
@given(graphs(), st.integers(0, 2**31 - 1), st.integers(2, 3))
def test_accumulation_over_repeated_backward_matches_torch(spec, seed, times):
    data = np.random.default_rng(seed).uniform(-1, 1, size=(3, 4))
    grads = []
    for lib in LIBS:
        ts, loss = build(lib, spec, data)
        first = None
        for _ in range(times):
            loss.backward(retain_graph=True)
            first = ts[0].grad if first is None else first
        assert ts[0].grad is first  # accumulated in place, same object
        grads.append([t.grad for t in ts[: spec[0]]])
    for tg, mg in zip(*grads):
        assert_close(mg, tg)


def test_every_node_runs_once_after_all_its_consumers():
    """A diamond with a long and a short branch: the join node must wait for both."""
    counts = []
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        calls = {"a": 0}
        a = x * 3
        a.register_hook(lambda g, calls=calls: calls.__setitem__("a", calls["a"] + 1))
        long = a
        for _ in range(10):
            long = long.sin()
        (long + a.exp()).sum().backward()
        counts.append((calls["a"], arr(x.grad)))
    assert counts[0][0] == counts[1][0] == 1
    np.testing.assert_allclose(counts[1][1], counts[0][1], rtol=1e-6)


# --- long chains --------------------------------------------------------------------------
def _chain(n):
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0
    return x, y


def test_100k_op_chain_has_no_recursion_error():
    x, y = _chain(100_000)
    limit = sys.getrecursionlimit()
    y.backward()
    assert sys.getrecursionlimit() == limit
    assert x.grad.item() == 1.0


def test_backward_time_is_linear_in_graph_size():
    """Quadrupling the chain must not much more than quadruple the time (loosely: < x8)."""
    def backward_seconds(n):
        best = float("inf")
        for _ in range(2):
            _, y = _chain(n)
            start = time.perf_counter()
            y.backward()
            best = min(best, time.perf_counter() - start)
        return best

    small, large = backward_seconds(10_000), backward_seconds(40_000)
    assert large < 8 * small, (small, large)


# --- retain_graph and freed graphs ---------------------------------------------------------
def test_second_backward_without_retain_graph_raises_torchs_error():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()

    assert same_outcome(fn)[0] == "RuntimeError"


def test_retain_graph_allows_second_backward():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).sum()
        y.backward(retain_graph=True)
        y.backward()
        return x.grad.tolist()

    got = outcome(fn, minigrad)
    expected = outcome(fn, torch)
    assert got[0] == expected[0] == "ok"
    np.testing.assert_allclose(got[1], expected[1], rtol=1e-6)


def test_second_backward_through_node_without_saved_tensors_works_like_torch():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()
        return x.grad.tolist()

    same_outcome(fn)


# --- backward(): gradient, inputs, errors --------------------------------------------------
def test_backward_with_gradient_argument():
    g = np.array([[0.5, -1.0], [2.0, 3.0]])
    res = []
    for lib in LIBS:
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        (x * x).backward(lib.tensor(g))
        res.append(x.grad)
    assert_close(res[1], res[0])


@pytest.mark.parametrize("case", ["nonscalar", "no_grad_fn", "nonscalar_no_grad_fn",
                                  "wrong_shape", "int_scalar", "inputs_no_grad"])
def test_backward_errors_match_torch(case):
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        if case == "nonscalar":
            (x * 2).backward()
        elif case == "no_grad_fn":
            lib.tensor(1.0).backward()
        elif case == "nonscalar_no_grad_fn":
            lib.tensor([1.0, 2.0]).backward()
        elif case == "wrong_shape":
            (x * 2).backward(lib.ones(3))
        elif case == "int_scalar":
            lib.tensor(3).backward()
        else:
            (x * 2).sum().backward(inputs=[lib.tensor([1.0])])

    assert same_outcome(fn)[0] != "ok"


def test_backward_inputs_only_fills_those_grads():
    res = []
    for lib in LIBS:
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        c = a * b
        c.retain_grad()
        loss = (c * c).sum()
        loss.backward(inputs=[b, c])
        res.append((a.grad, b.grad, c.grad))
    for m, t in zip(res[1], res[0]):
        assert_close(m, t)


def test_autograd_backward_function_with_several_roots():
    res = []
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y1, y2 = (x * x).sum(), x.exp()
        lib.autograd.backward([y1, y2], [None, lib.ones(3)])
        res.append(x.grad)
    assert_close(res[1], res[0])


# --- autograd.grad ----------------------------------------------------------------------------
@settings(deadline=None, max_examples=30)
@given(st.lists(st.floats(-2, 2), min_size=1, max_size=4))
def test_grad_with_create_graph_gives_second_derivatives(values):
    res = []
    for lib in LIBS:
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        y = (x.sin() * x * x).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (h,) = lib.autograd.grad(g.sum(), x)
        res.append((g, h, x.grad, g.requires_grad))
    assert_close(res[1][0], res[0][0])
    assert_close(res[1][1], res[0][1])
    assert res[1][2] is None and res[0][2] is None
    assert res[1][3] == res[0][3] is True


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_backward_with_create_graph_gives_differentiable_grad():
    res = []
    for lib in LIBS:
        x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        (x.tanh() * x).sum().backward(create_graph=True)
        g = x.grad
        flags = (g.requires_grad, g.grad_fn is not None)
        x.grad = None
        g.sum().backward()
        res.append((arr(g), arr(x.grad), flags))
    np.testing.assert_allclose(res[1][0], res[0][0], rtol=1e-12)
    np.testing.assert_allclose(res[1][1], res[0][1], rtol=1e-12)
    assert res[1][2] == res[0][2]


def test_grad_does_not_touch_dot_grad_and_supports_grad_outputs():
    res = []
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        g = lib.autograd.grad(y, [x], grad_outputs=lib.tensor([1.0, -3.0]))
        res.append((g, x.grad))
    assert isinstance(res[1][0], tuple) and len(res[1][0]) == 1
    assert_close(res[1][0][0], res[0][0][0])
    assert res[1][1] is None


@pytest.mark.parametrize("allow_unused", [False, True, None])
def test_grad_allow_unused(allow_unused):
    def fn(lib):
        x = lib.tensor([1.0], requires_grad=True)
        z = lib.tensor([2.0], requires_grad=True)
        gx, gz = lib.autograd.grad((x * 3).sum(), [x, z], allow_unused=allow_unused)
        return gx.tolist(), gz

    same_outcome(fn)


def test_grad_of_input_that_does_not_require_grad():
    def fn(lib):
        x = lib.tensor([1.0], requires_grad=True)
        lib.autograd.grad((x * 3).sum(), [lib.tensor([1.0])])

    assert same_outcome(fn)[0] == "RuntimeError"


def test_grad_wrt_intermediate_and_retain_graph():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x.exp()
        y = (h * h).sum()
        (gh,) = lib.autograd.grad(y, h, retain_graph=True)
        (gx,) = lib.autograd.grad(y, x)
        return gh, gx, x.grad

    (t_gh, t_gx, t_grad), (m_gh, m_gx, m_grad) = fn(torch), fn(minigrad)
    assert_close(m_gh, t_gh)
    assert_close(m_gx, t_gx)
    assert m_grad is None and t_grad is None


# --- hooks ----------------------------------------------------------------------------------
def test_hook_replacing_gradient_and_remove():
    res = []
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        seen = []
        h1 = y.register_hook(lambda g: g * 10)
        y.register_hook(lambda g, seen=seen: seen.append(arr(g)))
        hx = x.register_hook(lambda g: g + 1)
        z = (y * y).sum()
        z.backward(retain_graph=True)
        first = arr(x.grad)
        h1.remove()
        hx.remove()
        x.grad = None
        z.backward()
        res.append((first, arr(x.grad), seen))
    np.testing.assert_allclose(res[1][0], res[0][0])
    np.testing.assert_allclose(res[1][1], res[0][1])
    assert len(res[1][2]) == len(res[0][2]) == 2
    for a, b in zip(res[1][2], res[0][2]):
        np.testing.assert_allclose(a, b)


def test_hook_on_leaf_changes_what_is_accumulated():
    res = []
    for lib in LIBS:
        x = lib.tensor([1.0, -1.0], requires_grad=True)
        x.register_hook(lambda g: g * 0.5)
        (x * 4).sum().backward()
        res.append(arr(x.grad))
    np.testing.assert_allclose(res[1], res[0])


def test_register_hook_on_tensor_without_grad_raises():
    same_outcome(lambda lib: lib.tensor([1.0]).register_hook(lambda g: g))


def test_retain_grad_sees_hook_modified_gradient():
    """retain_grad's hook always runs last, after user hooks, as in torch."""
    res = []
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.retain_grad()
        y.register_hook(lambda g: g * 2)
        (y * y).sum().backward()
        res.append((arr(y.grad), arr(x.grad), y.retains_grad, y.is_leaf))
    for a, b in zip(res[1], res[0]):
        np.testing.assert_allclose(a, b)


def test_non_leaf_grad_warning_text():
    texts = []
    for lib in LIBS:
        x = lib.tensor([1.0], requires_grad=True)
        y = x * 2
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert y.grad is None
        assert len(w) == 1 and w[0].category is UserWarning
        texts.append(str(w[0].message).split(" (Triggered internally")[0])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            y.retain_grad()
            assert y.grad is None  # no warning once it retains grad
            assert x.grad is None  # nor for a leaf
    assert texts[1] == texts[0]


# --- graph objects --------------------------------------------------------------------------
def graph_names(fn, depth=6):
    if fn is None:
        return None
    if depth == 0:
        return norm(fn.name())
    return (norm(fn.name()), tuple(graph_names(n, depth - 1) for n, _ in fn.next_functions))


def test_grad_fn_names_and_next_functions_match_torch():
    names = []
    for lib in LIBS:
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        c = lib.tensor([1.0, 1.0])
        y = (x.clone()[0] * c + x.t()[1:].view(2)).reshape(2, 1)
        names.append((graph_names(y.grad_fn), type(y.grad_fn).__name__,
                      [nr for _, nr in y.grad_fn.next_functions]))
    assert names[1] == names[0]


def test_accumulate_grad_node_is_shared_and_points_to_leaf():
    for lib in LIBS:
        x = lib.tensor([1.0], requires_grad=True)
        a, b = x * 2, x * 3
        acc_a, acc_b = a.grad_fn.next_functions[0][0], b.grad_fn.next_functions[0][0]
        assert acc_a is acc_b
        assert acc_a.variable is x
        assert norm(acc_a.name()) == "torch::autograd::AccumulateGrad"


def test_retain_grad_follows_the_tensor_through_inplace_changes():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        log = []
        y.register_hook(lambda g: log.append(arr(g).tolist()))  # stays on the old node
        y.mul_(3)
        v = y[0]
        v.retain_grad()
        y.add_(1)  # v's grad_fn is rebuilt; its retain_grad moves along
        (y * y).sum().backward(retain_graph=True)
        v.backward()
        return arr(y.grad).tolist(), arr(v.grad).tolist(), arr(x.grad).tolist(), log

    same_outcome(fn)


@pytest.mark.parametrize("change", ["size", "dtype"])
def test_hook_may_not_change_size_or_dtype(change):
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1

        def shrink(g):
            return g[:1] if change == "size" else g.double()

        y.register_hook(shrink)
        (y * 1).sum().backward()

    assert same_outcome(fn)[0] == "RuntimeError"


@pytest.mark.parametrize("case", ["same tensor twice", "two outputs of one node"])
def test_roots_sharing_a_node_match_torch(case):
    """Two roots on one node (the same tensor twice, or two outputs of unbind): the node's
    edges are counted once, so every gradient arrives (a bug found by the op database)."""
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * x
        outs = [y, y] if case == "same tensor twice" else list(y.unbind(0))[:2]
        grads = [lib.ones_like(o) for o in outs]
        (g,) = lib.autograd.grad(outs, x, grads, retain_graph=True)
        lib.autograd.backward(outs, grads)
        return g.tolist(), x.grad.tolist()

    assert run(minigrad) == run(torch)
