"""Saved tensors are freed by backward, unless ``retain_graph=True``.

A weak reference to a NumPy array that only the graph keeps alive tells whether the engine
really let it go. tracemalloc checks the same for a big chain in bytes.
"""

from __future__ import annotations

import gc
import tracemalloc
import weakref

import numpy as np
import torch

import minigrad


def saved_array_ref():
    """A graph in which the array of ``h`` is kept alive only by nodes that saved ``h``."""
    x = minigrad.tensor(np.linspace(0.1, 1.0, 1000), requires_grad=True)
    h = x * 2  # saved by sin (as its input) and by mul (as an operand)
    ref = weakref.ref(h._data)
    out = h.sin() * h
    e = out.exp()  # saves its own output's data
    ref_out = weakref.ref(e._data)
    loss = e.sum()
    del h, out, e
    gc.collect()
    assert ref() is not None and ref_out() is not None  # held by the graph, nothing else
    return x, loss, ref, ref_out


def test_saved_arrays_are_released_after_backward():
    x, loss, ref, ref_out = saved_array_ref()
    loss.backward()
    gc.collect()
    assert ref() is None
    assert ref_out() is None
    assert x.grad is not None


def test_saved_arrays_kept_with_retain_graph_and_freed_by_the_last_backward():
    x, loss, ref, ref_out = saved_array_ref()
    loss.backward(retain_graph=True)
    gc.collect()
    assert ref() is not None and ref_out() is not None
    loss.backward()
    gc.collect()
    assert ref() is None and ref_out() is None


def test_autograd_grad_also_releases():
    x, loss, ref, _ = saved_array_ref()
    minigrad.autograd.grad(loss, x)
    gc.collect()
    assert ref() is None


def test_second_backward_after_release_raises_torchs_error():
    texts = []
    for lib in (torch, minigrad):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).sum()
        y.backward()
        try:
            y.backward()
        except RuntimeError as e:
            texts.append(str(e).replace("minigrad.", "torch."))
    assert len(texts) == 2 and texts[0] == texts[1]


def test_freed_graph_memory_is_returned():
    """A chain that saves ~40 MB: after backward, almost all of it is gone."""
    gc.collect()
    tracemalloc.start()
    try:
        x = minigrad.tensor(np.ones(100_000), requires_grad=True)
        y = x
        for _ in range(50):
            y = (y * 1.0001).sin()  # sin saves its input: 50 arrays of 800 kB
        loss = y.sum()
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
        loss.backward()
        del y
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held > 40 * 800_000 * 0.9
    assert after < held / 10, (held, after)


def test_node_references_do_not_keep_the_graph_in_cycles():
    """Dropping the loss frees the whole graph by reference counting alone (no cycles)."""
    x = minigrad.tensor(np.ones(1000), requires_grad=True)
    h = x.exp()
    ref = weakref.ref(h._data)
    loss = (h * h).sum()
    del h
    gc.disable()
    try:
        del loss
        assert ref() is None
    finally:
        gc.enable()
