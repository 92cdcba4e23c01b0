"""Grad modes against torch: no_grad, enable_grad, set_grad_enabled, inference_mode.

A random nesting of modes (as context managers, as decorators, or by calling
``set_grad_enabled`` directly) is replayed in both libraries; at every level we record the
global switches and what an operation made there looks like.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from tests.torch_compare import both_engines as both
from tests.torch_compare import outcome

LIBS = (torch, minigrad)





MODES = [("no_grad",), ("enable_grad",), ("set_grad_enabled", True),
         ("set_grad_enabled", False), ("inference_mode", True), ("inference_mode", False)]


def make_mode(lib, mode):
    name, *args = mode
    return getattr(lib, name)(*args)


def snapshot(lib, x):
    y = x * 2
    return (lib.is_grad_enabled(), lib.is_inference_mode_enabled(), y.requires_grad,
            y.grad_fn is not None, y.is_inference(), y.is_leaf)


def run_nested(lib, plan, style):
    x = lib.ones(2, requires_grad=True)
    log = []

    def level(i):
        log.append(snapshot(lib, x))
        if i == len(plan):
            return
        if style == "decorator":
            make_mode(lib, plan[i])(level)(i + 1)
        else:
            with make_mode(lib, plan[i]):
                level(i + 1)
        log.append(snapshot(lib, x))

    level(0)
    log.append(snapshot(lib, x))
    return log


@settings(deadline=None, max_examples=120)
@given(st.lists(st.sampled_from(MODES), max_size=5), st.sampled_from(["with", "decorator"]))
def test_random_nesting_matches_torch(plan, style):
    both(lambda lib: run_nested(lib, plan, style))
    assert torch.is_grad_enabled() and minigrad.is_grad_enabled()
    assert not minigrad.is_inference_mode_enabled()


def test_modes_restore_state_after_exception():
    def fn(lib):
        states = []
        for mode in MODES:
            try:
                with make_mode(lib, mode):
                    raise ValueError("boom")
            except ValueError:
                states.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled()))
        return states

    both(fn)


def test_set_grad_enabled_as_a_plain_call():
    def fn(lib):
        states = [lib.is_grad_enabled()]
        lib.set_grad_enabled(False)
        states.append(lib.is_grad_enabled())
        x = lib.ones(1, requires_grad=True)
        states.append((x * 2).requires_grad)
        lib.set_grad_enabled(True)
        states.append(lib.is_grad_enabled())
        return states

    both(fn)


def test_decorators_keep_function_metadata_and_generators():
    def fn(lib):
        @lib.no_grad()
        def f(x):
            """doc"""
            return x * 2

        @lib.enable_grad()
        def g(x):
            return x * 2

        @lib.inference_mode()
        def h(x):
            return x * 2

        x = lib.ones(1, requires_grad=True)
        with lib.no_grad():
            inner = g(x).requires_grad
        return f.__name__, f.__doc__, f(x).requires_grad, inner, h(x).is_inference()

    both(fn)


def test_no_grad_bare_decorator_form():
    def fn(lib):
        @lib.no_grad
        def f(x):
            return x * 2

        return f(lib.ones(1, requires_grad=True)).requires_grad

    both(fn)


def test_inference_tensors_cannot_be_saved_for_backward():
    def fn(lib):
        with lib.inference_mode():
            t = lib.ones(3)
        w = lib.ones(3, requires_grad=True)
        (w * t).sum()

    assert both(fn)[0] == "RuntimeError"


def test_inference_tensor_not_saved_is_fine_and_clone_is_normal():
    def fn(lib):
        with lib.inference_mode():
            t = lib.ones(3) * 2
        w = lib.ones(3, requires_grad=True)
        (w + t).sum().backward()
        c = t.clone()
        (w * c).sum().backward()
        return t.is_inference(), c.is_inference(), arr(w.grad)

    both(fn)


def test_inference_mode_results_and_inplace_outside():
    def fn(lib):
        x = lib.ones(2, requires_grad=True)
        with lib.inference_mode():
            y = x * 2
            flags = (y.requires_grad, y.is_inference(), x.is_inference(), y.is_leaf)
        return flags, outcome(lambda _: y.add_(1), lib)

    both(fn)


def test_no_grad_results_are_leaves_without_grad():
    def fn(lib):
        x = lib.ones(2, requires_grad=True)
        with lib.no_grad():
            y = x * 2
            z = y.sum()
        return y.requires_grad, y.is_leaf, y.grad_fn, z.requires_grad, y.is_inference()

    both(fn)


def test_backward_inside_no_grad_still_computes_gradients():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        with lib.no_grad():
            y.backward()
        return arr(x.grad)

    res = [fn(lib) for lib in LIBS]
    np.testing.assert_allclose(res[1], res[0])


@pytest.mark.parametrize("mode", MODES, ids=str)
def test_module_aliases(mode):
    assert getattr(minigrad.autograd, mode[0]) is getattr(minigrad, mode[0])


def arr(t):
    return t.detach().numpy().copy().tolist()
