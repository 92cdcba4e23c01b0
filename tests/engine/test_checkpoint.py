"""minigrad.utils.checkpoint against torch.utils.checkpoint: the same block, checkpointed in
both modes, gives the gradients of the plain block and torch's; random ops inside replay
the same numbers; warnings, errors and recomputation counts are torch's."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
import torch.utils.checkpoint as tcp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
import minigrad.utils.checkpoint as mcp
from tests.torch_compare import assert_grad_close, assert_same_error, normalize_text, pair

LIBS = [(minigrad, mcp), (torch, tcp)]
MODES = [True, False]

arrays = hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)),
                    elements=st.floats(-2, 2))


def block(h, w):
    """Ops that save inputs and outputs (mul, sin, exp, matmul, tanh)."""
    return ((h.sin() * h).exp() @ w).tanh()


def noisy(lib):
    """A block with dropout-like noise drawn from the generator."""
    def fn(h):
        keep = (lib.rand(h.shape, dtype=h.dtype) > 0.3).to(h.dtype)
        return (h * keep / 0.7).exp() * lib.randn(h.shape, dtype=h.dtype)
    return fn


def grads_of(lib, cp, fn, arrays_, mode, **kw):
    leaves = [lib.tensor(a.copy(), requires_grad=True) for a in arrays_]
    out = fn(*leaves) if mode is None else cp.checkpoint(fn, *leaves, use_reentrant=mode, **kw)
    out.sum().backward()
    return [t.grad for t in leaves]


@settings(max_examples=25, deadline=None)
@given(arrays, st.integers(1, 3), st.sampled_from(MODES))
def test_gradients_equal_plain_and_torch(h, cols, mode):
    w = np.linspace(-1, 1, h.shape[1] * cols).reshape(h.shape[1], cols)
    plain = grads_of(minigrad, mcp, block, [h, w], None)
    m = grads_of(minigrad, mcp, block, [h, w], mode)
    t = grads_of(torch, tcp, block, [h, w], mode)
    for a, b, c in zip(plain, m, t):
        np.testing.assert_array_equal(a.numpy(), b.numpy())  # the same ops, recomputed
        assert_grad_close(b, c)


@settings(max_examples=15, deadline=None)
@given(arrays, st.integers(0, 2**31), st.sampled_from(MODES), st.booleans())
def test_random_ops_replay_torch_numbers(h, seed, mode, preserve):
    out = []
    for lib, cp in LIBS:
        lib.manual_seed(seed)
        out.append(grads_of(lib, cp, noisy(lib), [h], mode, preserve_rng_state=preserve)[0])
        out.append(lib.rand(2, dtype=lib.float64))  # the generator where torch leaves it
    assert_grad_close(out[0], out[2])
    np.testing.assert_array_equal(out[1].numpy(), out[3].numpy())
    if preserve:  # the recomputation drew the forward's numbers: the plain block's gradient
        minigrad.manual_seed(seed)
        plain = grads_of(minigrad, mcp, noisy(minigrad), [h], None)[0]
        np.testing.assert_array_equal(plain.numpy(), out[0].numpy())


def caught(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [(type(x.message), normalize_text(str(x.message))) for x in w]


@pytest.mark.parametrize("case", ["default", "no_grad_inputs", "sequential"])
def test_warnings_are_torchs(case):
    def run(lib, cp):
        x = lib.ones(2, 2, requires_grad=case != "no_grad_inputs")
        if case == "sequential":
            seq = lib.nn.Sequential(lib.nn.Tanh(), lib.nn.Tanh(), lib.nn.Tanh())
            return caught(lambda: cp.checkpoint_sequential(seq, 2, x))
        return caught(lambda: cp.checkpoint(lambda a: a * 2, x))

    results = [run(lib, cp) for lib, cp in LIBS]
    assert results[0] == results[1] and results[0]


def test_no_warning_when_mode_given():
    x = minigrad.ones(2, requires_grad=True)
    for mode in MODES:
        assert caught(lambda mode=mode: mcp.checkpoint(lambda a: a.exp(), x,
                                                       use_reentrant=mode)) == []


@pytest.mark.parametrize("case", ["grad", "backward_inputs", "kwargs", "context_fn",
                                  "determinism", "no_output_grad", "debug_context"])
def test_errors_are_torchs(case):
    def run(lib, cp):
        x = lib.ones(3, requires_grad=True)
        if case == "grad":
            lib.autograd.grad(cp.checkpoint(lambda a: a.exp(), x, use_reentrant=True).sum(), x)
        elif case == "backward_inputs":
            cp.checkpoint(lambda a: a.exp(), x, use_reentrant=True).sum().backward(inputs=[x])
        elif case == "kwargs":
            cp.checkpoint(lambda a, b: a * b, x, b=2, use_reentrant=True)
        elif case == "context_fn":
            cp.checkpoint(lambda a: a, x, use_reentrant=True, context_fn=lambda: (None, None))
        elif case == "determinism":
            cp.checkpoint(lambda a: a.exp(), x, use_reentrant=False, determinism_check="all")
        elif case == "no_output_grad":
            cp.checkpoint(lambda a: a.detach() * 2, x, use_reentrant=True).sum().backward()
        else:
            cp.checkpoint(lambda a: a, x, use_reentrant=False, debug=True,
                          context_fn=lambda: (None, None))

    assert_same_error(lambda: run(minigrad, mcp), lambda: run(torch, tcp))


def test_reentrant_graph_is_one_custom_node():
    names = []
    for lib, cp in LIBS:
        x = lib.ones(2, requires_grad=True)
        y = cp.checkpoint(block, x.view(1, 2), x.view(2, 1), use_reentrant=True)
        names.append((type(y.grad_fn).__name__, [type(n).__name__ for n, _ in
                                                 y.grad_fn.next_functions]))
    assert names[0] == names[1]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("early_stop", [True, False])
def test_recomputation_counts_are_torchs(mode, early_stop):
    def run(lib, cp):
        calls = []

        def fn(a):
            calls.append("start")
            y = a.exp()
            calls.append("saved")
            return y.sin().sum() * 1.0

        x = lib.ones(3, requires_grad=True)
        kw = {} if mode else {"early_stop": early_stop}
        cp.checkpoint(fn, x, use_reentrant=mode, **kw).backward()
        return calls

    counts = [run(lib, cp) for lib, cp in LIBS]
    assert counts[0] == counts[1]


def test_non_reentrant_grad_create_graph_kwargs_and_nesting():
    def run(lib, cp):
        x = lib.tensor([0.3, -1.2, 2.0], dtype=lib.float64, requires_grad=True)

        def inner(a, *, scale):
            return (a * scale).sin() * a

        def outer(a):
            return cp.checkpoint(inner, a.exp(), scale=2.0, use_reentrant=False).cos()

        y = cp.checkpoint(outer, x, use_reentrant=False).sum()
        g, = lib.autograd.grad(y, x, create_graph=True)
        gg, = lib.autograd.grad(g.sum(), x)
        return g, gg

    results = [run(lib, cp) for lib, cp in LIBS]
    for m, t in zip(*results):
        assert_grad_close(m, t)


def test_non_reentrant_metadata_mismatch_error():
    def run(lib, cp):
        sizes = iter([3, 2])
        x = lib.ones(3, requires_grad=True)

        def fn(a):
            return a[:next(sizes)].exp()

        cp.checkpoint(fn, x, use_reentrant=False, determinism_check="default").sum().backward()

    assert_same_error(lambda: run(minigrad, mcp), lambda: run(torch, tcp))


@pytest.mark.parametrize("mode", MODES)
def test_checkpoint_sequential_matches_torch(mode):
    grads = []
    for lib, cp in LIBS:
        lib.manual_seed(0)
        seq = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 4),
                                lib.nn.Tanh(), lib.nn.Linear(4, 1))
        x = lib.ones(5, 3, requires_grad=True)
        cp.checkpoint_sequential(seq, 2, x, use_reentrant=mode).sum().backward()
        grads.append([x.grad] + [p.grad for p in seq.parameters()])
    for m, t in zip(*grads):
        assert_grad_close(m, t)


def test_no_grad_mode_runs_plainly():
    m, t = pair([1.0, 2.0], requires_grad=True)
    with minigrad.no_grad():
        y = mcp.checkpoint(lambda a: a.exp(), m, use_reentrant=False)
    with torch.no_grad():
        z = tcp.checkpoint(lambda a: a.exp(), t, use_reentrant=False)
    assert y.requires_grad == z.requires_grad is False


@pytest.mark.parametrize("mode", MODES)
def test_retain_graph_backward_twice(mode):
    def run(lib, cp):
        n = []

        def fn(a):
            n.append(1)
            return (a.sin() * a).exp()

        x = lib.tensor([0.5, -1.0], dtype=lib.float64, requires_grad=True)
        y = cp.checkpoint(fn, x, use_reentrant=mode).sum()
        y.backward(retain_graph=True)
        y.backward()
        return x.grad, len(n)

    (m, m_calls), (t, t_calls) = (run(lib, cp) for lib, cp in LIBS)
    assert m_calls == t_calls
    assert_grad_close(m, t)


def test_context_fn_runs_forward_and_recomputation_contexts():
    def run(lib, cp):
        log = []

        class Ctx:
            def __init__(self, name):
                self.name = name

            def __enter__(self):
                log.append(self.name)

            def __exit__(self, *exc):
                return False

        x = lib.ones(3, requires_grad=True)
        y = cp.checkpoint(lambda a: a.exp().sin(), x, use_reentrant=False,
                          context_fn=lambda: (Ctx("forward"), Ctx("recompute")))
        log.append("backward")
        y.sum().backward()
        return log, x.grad

    (m_log, m_grad), (t_log, t_grad) = (run(lib, cp) for lib, cp in LIBS)
    assert m_log == t_log == ["forward", "backward", "recompute"]
    assert_grad_close(m_grad, t_grad)


@pytest.mark.parametrize("mode", [True, False])
def test_saved_tensor_hooks_around_checkpoint_see_what_torch_s_see(mode):
    """Non-reentrant checkpoint keeps the call's tensor arguments as saved tensors (torch's
    frame.save_inputs): a pack hook around it sees them; the reentrant one saves its inputs
    in its Function. Same shapes, in the same order, and the same gradient after backward."""
    outcomes = []
    for lib in (torch, minigrad):
        W = lib.tensor(np.linspace(-1, 1, 16).reshape(4, 4), requires_grad=True)
        x = lib.tensor(np.linspace(0.5, 2, 8).reshape(2, 4))
        seen = []

        def pack(s, seen=seen):
            seen.append(tuple(s.shape))
            return s

        with lib.autograd.graph.saved_tensors_hooks(pack, lambda s: s):
            out = lib.utils.checkpoint.checkpoint(lambda h, w: (h @ w).tanh(), x, W,
                                                  use_reentrant=mode)
        out.sum().backward()
        outcomes.append((seen, W.grad.numpy().round(12).tolist()))
    assert outcomes[0] == outcomes[1]
