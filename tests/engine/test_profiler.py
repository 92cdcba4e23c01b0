"""minigrad.autograd.profiler and minigrad.profiler against torch's: the same code profiled
by both lists the same op and backward-node rows (names, call counts), in torch's table
layout; the times are minigrad's own."""

from __future__ import annotations

import re

import pytest
import torch
import torch.autograd.profiler as tprof
import torch.profiler
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
import minigrad.autograd.profiler as mprof
import minigrad.profiler
from tests.torch_compare import normalize_text

LIBS = [(minigrad, mprof), (torch, tprof)]

# ops that torch runs as one ATen call each, with no helper op of its own
FORWARD_OPS = {
    "mul": lambda lib, a, b: a * b,
    "add": lambda lib, a, b: a + b,
    "sub": lambda lib, a, b: a - b,
    "div": lambda lib, a, b: a / (b + 1),
    "exp": lambda lib, a, b: a.exp(),
    "tanh": lambda lib, a, b: lib.tanh(a),
    "sigmoid": lambda lib, a, b: a.sigmoid(),
    "sin": lambda lib, a, b: a.sin(),
    "neg": lambda lib, a, b: -a,
    "mm": lambda lib, a, b: a @ b.t(),
}


def counts(prof, group_by_input_shape=False):
    return {normalize_text(e.key): e.count
            for e in prof.key_averages(group_by_input_shape=group_by_input_shape)}


def profiled(lib, prof_mod, fn, **kw):
    with prof_mod.profile(**kw) as prof:
        fn(lib)
    return prof


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from(sorted(FORWARD_OPS)), min_size=1, max_size=8))
def test_forward_rows_are_torchs(names):
    def run(lib):
        a = lib.ones(3, 3, requires_grad=True)
        b = lib.ones(3, 3) * 0.5
        for name in names:
            a = FORWARD_OPS[name](lib, a, b)

    m, t = (counts(profiled(lib, p, run)) for lib, p in LIBS)
    ours = {k: v for k, v in m.items() if k.startswith("aten::")}
    assert ours == {k: v for k, v in t.items() if k in ours}
    assert set(ours) >= {"aten::" + n for n in names}


def training_step(lib):
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 1))
    x = lib.ones(5, 3)
    with lib.autograd.profiler.record_function("forward"):
        loss = ((net(x) - 1) ** 2).mean()
    loss.backward()


def node_rows(c):
    nodes = {k[len("autograd::engine::evaluate_function: "):]
             for k in c if k.startswith("autograd::engine::evaluate_function: ")}
    return {k: v for k, v in c.items() if k.removeprefix(
        "autograd::engine::evaluate_function: ") in nodes}


def test_backward_node_rows_are_torchs():
    m, t = (counts(profiled(lib, p, training_step)) for lib, p in LIBS)
    assert node_rows(m) == node_rows(t)
    assert len(node_rows(m)) >= 10
    assert m["forward"] == t["forward"] == 1
    forward = {e.key for e in profiled(minigrad, mprof, training_step).function_events
               if e.key.startswith("aten::") and not in_backward(e)}
    assert forward and forward <= set(t)  # every forward op minigrad lists, torch lists too


def in_backward(evt):
    while evt.cpu_parent is not None:
        evt = evt.cpu_parent
        if evt.key.startswith("autograd::engine::"):
            return True
    return False


@pytest.mark.parametrize("record_shapes", [False, True])
@pytest.mark.parametrize("group", [False, True])
def test_headers_are_torchs(record_shapes, group):
    def header(lib, p):
        prof = profiled(lib, p, training_step, record_shapes=record_shapes)
        table = prof.key_averages(group_by_input_shape=group).table(row_limit=5)
        lines = table.splitlines()
        return re.split(r"\s{2,}", lines[1].strip()), set(lines[0]) | set(lines[2]), \
            lines[-1].split(":")[0], len(lines)

    assert header(*LIBS[0]) == header(*LIBS[1])


@pytest.mark.parametrize("sort_by", [None, "cpu_time_total", "self_cpu_time_total", "count"])
@pytest.mark.parametrize("row_limit", [3, 100])
@pytest.mark.parametrize("group", [False, True])
def test_table_layout_is_torchs(sort_by, row_limit, group):
    """torch's own averaged events, printed by minigrad's table and by torch's."""
    prof = profiled(torch, tprof, training_step, record_shapes=True)
    averages = prof.key_averages(group_by_input_shape=group)
    ours = mprof.EventList(averages).table(sort_by=sort_by, row_limit=row_limit)
    assert ours == averages.table(sort_by=sort_by, row_limit=row_limit)


def test_grouped_input_shapes_are_torchs():
    def run(lib):
        a = lib.ones(2, 3, requires_grad=True)
        (a * lib.ones(2, 3)).exp()
        a.t().exp()

    m, t = (counts(profiled(lib, p, run, record_shapes=True), group_by_input_shape=True)
            for lib, p in LIBS)
    rows = {(e.key, str(e.input_shapes)) for e in profiled(
        minigrad, mprof, run, record_shapes=True).key_averages(group_by_input_shape=True)}
    trows = {(e.key, str(e.input_shapes)) for e in profiled(
        torch, tprof, run, record_shapes=True).key_averages(group_by_input_shape=True)}
    assert {r for r in rows if r[0] in ("aten::exp", "aten::mul")} == \
        {r for r in trows if r[0] in ("aten::exp", "aten::mul")}
    assert m["aten::exp"] == t["aten::exp"]


def test_record_function_decorator_and_nesting():
    def run(lib):
        rf = lib.autograd.profiler.record_function

        @rf("step")
        def step(x):
            with rf("inner"):
                return (x * 2).sum()

        for _ in range(3):
            step(lib.ones(2, requires_grad=True))

    m, t = (counts(profiled(lib, p, run)) for lib, p in LIBS)
    assert (m["step"], m["inner"]) == (t["step"], t["inner"]) == (3, 3)
    events = profiled(minigrad, mprof, run).function_events
    for e in events:
        assert e.self_cpu_time_total >= 0
        assert e.cpu_time_total >= sum(c.cpu_time_total for c in e.cpu_children)
        if e.name == "inner":
            assert e.cpu_parent.name == "step"
            assert [c.name for c in e.cpu_children] == ["aten::mul", "aten::sum"]


def test_torch_profiler_form():
    def run(lib, mod):
        with mod.profile(activities=[mod.ProfilerActivity.CPU], record_shapes=True) as prof:
            with mod.record_function("block"):
                (lib.ones(2, 2, requires_grad=True) * 3).sum().backward()
        return counts(prof)

    m, t = run(minigrad, minigrad.profiler), run(torch, torch.profiler)
    assert node_rows(m) == node_rows(t) and m["block"] == t["block"] == 1


def test_off_outside_the_block_and_after_errors():
    with pytest.raises(ValueError), mprof.profile() as prof:
        with mprof.record_function("r"):
            minigrad.ones(2, requires_grad=True) * 2
            raise ValueError
    assert not mprof._state.active
    assert counts(prof) == {"r": 1, "aten::mul": 1}
    with mprof.profile() as prof:
        pass
    assert prof.key_averages().table() == ""
    with pytest.raises(RuntimeError, match="not reentrant"), prof:
        pass
