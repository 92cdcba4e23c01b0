"""How much a recorded graph weighs on Python's garbage collector.

A long forward pass keeps every node alive until backward, and each full collection scans
every tracked object that is alive; what a node keeps also ticks the collector towards its
next collection. So a node keeps as few tracked objects as it can (``graph.py``): itself, the
tuple of its next nodes, and one ``SavedTensor`` per tensor it saved. These tests pin that
count, so a change that adds a dict or a tuple per node shows up here, not only as a slower
benchmark.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest

import minigrad
from minigrad.autograd import graph


def _tracked_objects_kept(build) -> int:
    """How many more objects the collector tracks while ``build()``'s result is alive."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()  # so nothing is untracked or collected while we count
    try:
        before = len(gc.get_objects())
        kept = build()
        after = len(gc.get_objects())
        del kept
    finally:
        if was_enabled:
            gc.enable()
    return after - before


def _chain(n_ops):
    x = minigrad.tensor(np.linspace(-1, 1, 16, dtype=np.float32), requires_grad=True)
    c = minigrad.tensor(np.full(16, 1.01, np.float32))

    def build():
        y = x
        for i in range(n_ops):
            if i % 3 == 0:
                y = y * c
            elif i % 3 == 1:
                y = y + 0.01
            else:
                y = y.tanh()
        return y

    return build


def test_a_chain_keeps_under_three_tracked_objects_per_op():
    # mul: node, next-nodes tuple, SavedTensor(other); add: node, tuple; tanh: node, tuple,
    # SavedTensor(result). 8 per 3 ops, plus the result tensor and a few objects of the loop.
    n_ops = 3000
    kept = _tracked_objects_kept(_chain(n_ops))
    assert kept <= 8 * n_ops // 3 + 50, f"{kept / n_ops:.2f} tracked objects per op"
    # and the count is the one computed above: nothing is left out either
    assert kept >= 8 * n_ops // 3


def test_a_backward_frees_what_the_chain_kept():
    build = _chain(300)

    def build_and_backward():
        y = build()
        y.sum().backward()
        return None

    assert _tracked_objects_kept(build_and_backward) < 20


def test_nodes_share_their_tuples_of_plain_values():
    x = minigrad.ones(3, requires_grad=True)
    a, b = x * 2, x * 3
    fa, fb = a.grad_fn, b.grad_fn
    assert fa.needs_input_grad is fb.needs_input_grad
    assert fa._next_nrs is fb._next_nrs
    assert fa._input_meta is fb._input_meta
    # next_functions is built from them on each access, as torch builds it
    assert fa.next_functions == ((x._grad_accumulator(), 0), (None, 0))
    assert fa.next_functions is not fa.next_functions


def test_the_shared_table_is_bounded(monkeypatch):
    monkeypatch.setattr(graph, "_SHARED", {})
    monkeypatch.setattr(graph, "_MAX_SHARED", 3)
    for n in range(1, 10):  # a new shape each time
        minigrad.ones(n, requires_grad=True).exp()
    assert len(graph._SHARED) == 3
    # past the bound a node keeps its own tuple, equal to what sharing would give
    y = minigrad.ones(20, requires_grad=True).exp()
    assert y.grad_fn._input_meta == (((20,), "f"),)


@pytest.mark.parametrize("shape", [(), (2, 3)])
def test_version_counters_are_not_tracked_and_count_as_ints(shape):
    t = minigrad.ones(shape)
    view = t[...]
    t.add_(1)
    assert not gc.is_tracked(t._version_counter)
    assert type(t._version) is int and t._version == 1 == view._version
