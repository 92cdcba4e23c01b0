"""Custom Functions that save their own outputs, any of them, for a differentiable backward.

A saved output comes back in ``backward`` as that output of the Function's node (torch's
``SavedVariable`` keeps its ``output_nr``), so under ``create_graph`` a gradient through it
reaches the slot of the output that was saved, not output 0 (issue 22). A generator of
Functions with 1-3 outputs, saving any subset of inputs and outputs, checks first and
second derivatives against torch and with ``gradgradcheck``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from tests.torch_compare import assert_close, assert_same_error, pair

# An output is ``(kind, input index, k)``:
#   "scale":  o = x * k,       do/dx = k
#   "exp":    o = exp(x * k),  do/dx = k * o   (the saved output, else exp(k * x) from saved x)
#   "square": o = x * x * k,   do/dx = 2 k x   (needs x saved)
KINDS = ("scale", "exp", "square")


def _output(kind, x, k):
    if kind == "scale":
        return x * k
    if kind == "exp":
        return (x * k).exp()
    return x * x * k


@st.composite
def specs(draw):
    """A Function: its inputs, its outputs and which of them ``save_for_backward`` keeps."""
    n_in = draw(st.integers(1, 2))
    outs = draw(st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, n_in - 1),
                                   st.sampled_from([0.5, -1.5, 2.0])), min_size=1, max_size=3))
    save_in = set(draw(st.sets(st.integers(0, n_in - 1))))
    save_out = set(draw(st.sets(st.integers(0, len(outs) - 1))))
    for j, (kind, i, _) in enumerate(outs):  # what each formula needs is saved
        if kind == "square":
            save_in.add(i)
        elif kind == "exp" and j not in save_out and i not in save_in:
            save_out.add(j)
    # the order given to save_for_backward: outputs and inputs interleaved as drawn
    order = draw(st.permutations([("in", i) for i in sorted(save_in)]
                                 + [("out", j) for j in sorted(save_out)]))
    return n_in, tuple(outs), tuple(order)


def make_function(lib, spec):
    """The Function described by ``spec``, written against ``lib`` (torch or minigrad)."""
    n_in, outs, order = spec

    class Gen(lib.autograd.Function):
        @staticmethod
        def forward(ctx, *xs):
            ys = tuple(_output(kind, xs[i], k) for kind, i, k in outs)
            ctx.save_for_backward(*[xs[n] if what == "in" else ys[n] for what, n in order])
            return ys if len(ys) > 1 else ys[0]

        @staticmethod
        def backward(ctx, *grads):
            saved = dict(zip(order, ctx.saved_tensors))
            gx = [None] * n_in
            for j, ((kind, i, k), g) in enumerate(zip(outs, grads)):
                if kind == "scale":
                    term = g * k
                elif kind == "exp":
                    y = saved.get(("out", j))
                    term = g * (y if y is not None else (saved[("in", i)] * k).exp()) * k
                else:
                    term = g * saved[("in", i)] * (2 * k)
                gx[i] = term if gx[i] is None else gx[i] + term
            return tuple(gx)

    return Gen


def _inputs(values, n_in):
    """``n_in`` pairs of float64 leaves (minigrad, torch) with the same values."""
    return [pair(values[i], requires_grad=True) for i in range(n_in)]


def _as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


def _combination(outs, which, weights):
    """A scalar made of the chosen outputs, each weighted differently."""
    return sum((outs[j] * w).sum() for j, w in zip(which, weights))


def _assert_grads_match(m_grads, t_grads, what):
    assert len(m_grads) == len(t_grads)
    for i, (mg, tg) in enumerate(zip(m_grads, t_grads)):
        assert (mg is None) == (tg is None), f"{what} of input {i}: {mg} vs {tg}"
        if mg is not None:
            assert_close(mg, tg, f"{what} of input {i}: ")
            assert mg.requires_grad == tg.requires_grad, f"{what} of input {i}: requires_grad"


values = st.lists(st.lists(st.floats(-1.5, 1.5), min_size=3, max_size=3),
                  min_size=2, max_size=2)


@settings(deadline=None, max_examples=60)
@given(specs(), values)
def test_first_and_second_derivatives_match_torch(spec, vals):
    n_in, outs, _ = spec
    m_fn, t_fn = make_function(minigrad, spec), make_function(torch, spec)
    weights = [1.0, -2.0, 0.5]
    combos = [c for r in range(1, len(outs) + 1)
              for c in itertools.combinations(range(len(outs)), r)]
    for which in combos:
        leaves = _inputs(np.array(vals, dtype=np.float64), n_in)
        ms, ts = [m for m, _ in leaves], [t for _, t in leaves]
        m_out, t_out = _as_tuple(m_fn.apply(*ms)), _as_tuple(t_fn.apply(*ts))
        for j, (mo, to) in enumerate(zip(m_out, t_out)):
            assert_close(mo, to, f"output {j}: ")
        m_loss, t_loss = _combination(m_out, which, weights), _combination(t_out, which, weights)
        m_g = minigrad.autograd.grad(m_loss, ms, create_graph=True, allow_unused=True)
        t_g = torch.autograd.grad(t_loss, ts, create_graph=True, allow_unused=True)
        _assert_grads_match(m_g, t_g, f"first derivative of outputs {which}")
        # the second derivative of each first-derivative combination
        for r in range(1, n_in + 1):
            for used in itertools.combinations(range(n_in), r):
                m_used = [m_g[i] * (i + 1.5) for i in used if m_g[i] is not None]
                t_used = [t_g[i] * (i + 1.5) for i in used if t_g[i] is not None]
                if not t_used or not any(g.requires_grad for g in t_used):
                    assert not any(g.requires_grad for g in m_used)
                    continue
                m_gg = minigrad.autograd.grad(sum(g.sum() for g in m_used), ms,
                                              retain_graph=True, allow_unused=True)
                t_gg = torch.autograd.grad(sum(g.sum() for g in t_used), ts,
                                           retain_graph=True, allow_unused=True)
                _assert_grads_match(m_gg, t_gg, f"second derivative of outputs {which}, "
                                                f"first derivatives {used}")


@settings(deadline=None, max_examples=30)
@given(specs(), values)
def test_gradgradcheck_agrees_like_torch(spec, vals):
    n_in = spec[0]
    m_fn, t_fn = make_function(minigrad, spec), make_function(torch, spec)
    leaves = _inputs(np.array(vals, dtype=np.float64), n_in)
    m_ok = minigrad.autograd.gradgradcheck(m_fn.apply, [m for m, _ in leaves],
                                           raise_exception=False)
    t_ok = torch.autograd.gradgradcheck(t_fn.apply, [t for _, t in leaves],
                                        raise_exception=False)
    assert t_ok, "the generated Function should be twice differentiable"
    assert m_ok == t_ok


def _issue_22(lib):
    """The Function of issue 22: it saves its output 1 and uses it in backward."""

    class F(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.save_for_backward(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            return ga * ctx.saved_tensors[0] + gb

    return F


def test_issue_22_saved_output_1_keeps_its_slot():
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(1.0, requires_grad=True)
        (g,) = lib.autograd.grad(_issue_22(lib).apply(x)[0], x, create_graph=True)
        (gg,) = lib.autograd.grad(g, x)
        results.append((g.item(), gg.item()))
    assert results[0] == results[1]


@pytest.mark.parametrize("hooks", [False, True])
def test_saved_output_1_under_saved_tensor_hooks(hooks):
    """Unpacked through ``unpack_hook``, the saved output is still output 1 of the node."""
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, -0.5], dtype=lib.float64, requires_grad=True)
        if hooks:
            with lib.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
                out = _issue_22(lib).apply(x)
        else:
            out = _issue_22(lib).apply(x)
        (g,) = lib.autograd.grad(out[0].sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        results.append((g.tolist(), gg.tolist()))
    assert results[0] == results[1]


def test_modified_saved_output_1_is_named_in_the_version_error():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        _, b = _issue_22(lib).apply(x)
        b.mul_(2)
        lib.autograd.grad(b.sum(), x)

    assert_same_error(lambda: run(minigrad), lambda: run(torch))
