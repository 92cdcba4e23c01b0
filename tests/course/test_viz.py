"""coursekit.viz: the same DOT text for minigrad and torch, deterministic, renderable."""

import re
import shutil
import subprocess
import sys

import graphviz
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from coursekit import viz

EXPRESSIONS = {
    "mul_exp_sum": lambda lib, x, y: (x * y + x.exp()).sum(),
    "square_same_input": lambda lib, x, y: (x * x).mean(),
    "chain": lambda lib, x, y: (x.sin() * 2 - y).tanh().sum(),
    "view": lambda lib, x, y: (x * y).reshape(3, 1)[1:],
    "matmul": lambda lib, x, y: x.reshape(1, 3).mm(y.reshape(3, 1)).relu(),
    "constant": lambda lib, x, y: (x + lib.tensor([1.0, 2.0, 3.0])).pow(2).sum(),
}


def build(lib, name, a, b):
    x = lib.tensor(a, requires_grad=True)
    y = lib.tensor(b, requires_grad=True)
    return EXPRESSIONS[name](lib, x, y), dict(x=x, y=y)


def both(name, a, b, **kwargs):
    out = {}
    for lib in (minigrad, torch):
        z, params = build(lib, name, a, b)
        out[lib.__name__] = viz.make_dot(z, params, **kwargs).source
    return out["minigrad"], out["torch"]


CASES = [(n, saved) for n in sorted(EXPRESSIONS) for saved in (False, True)]


@pytest.mark.parametrize(("name", "show_saved"), CASES)
def test_dot_text_matches_torch(name, show_saved):
    a = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    m, t = both(name, a, a[::-1].copy(), show_saved=show_saved)
    assert m == t
    assert "darkolivegreen1" in m and "lightblue" in m
    assert ("orange" in m) == show_saved or name == "view"


@settings(deadline=None, max_examples=15)
@given(st.sampled_from(sorted(EXPRESSIONS)),
       st.lists(st.floats(-3, 3, width=32), min_size=6, max_size=6))
def test_dot_text_matches_torch_with_values(name, v):
    a = np.array(v[:3], dtype=np.float32)
    b = np.array(v[3:], dtype=np.float32)
    m, t = both(name, a, b, show_values=True)
    assert m == t


def test_values_and_gradients_are_coloured():
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    z, params = build(torch, "mul_exp_sum", a, a)
    z.backward()
    src = viz.make_dot(z, params, show_values=True).source
    assert f'<font color="{viz.VALUE_COLOR}">value' in src
    assert f'<font color="{viz.GRAD_COLOR}">grad {viz.fmt(params["x"].grad)}' in src


def test_intermediate_named_tensor_gets_its_value():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    z = y.sum()
    z.backward()
    src = viz.make_dot(z, dict(x=x, y=y), show_values=True).source
    assert "y = MulBackward0" in src and viz.fmt(y.grad) in src


def test_attrs_listed():
    z, params = build(minigrad, "mul_exp_sum", np.ones(3, np.float32), np.ones(3, np.float32))
    src = viz.make_dot(z, params, show_attrs=True).source
    assert "other: [saved tensor]" in src


def test_deterministic_within_and_across_processes():
    code = ("import numpy as np, minigrad; from coursekit import viz\n"
            "x = minigrad.tensor(np.arange(3, dtype=np.float32), requires_grad=True)\n"
            "print(viz.make_dot((x * x.exp()).sum(), dict(x=x), show_saved=True).source)")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1]
    x = minigrad.tensor(np.arange(3, dtype=np.float32), requires_grad=True)
    here = viz.make_dot((x * x.exp()).sum(), dict(x=x), show_saved=True).source
    assert here + "\n" == runs[0]


def test_drawing_minigrad_graphs_needs_no_torch():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import minigrad; from coursekit import viz\n"
            "x = minigrad.tensor([1.0, 2.0], requires_grad=True)\n"
            "print(viz.make_dot((x * x).sum(), dict(x=x)).source)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "MulBackward0" in run.stdout


def test_svg_rendering_with_dot():
    # The course's set-up installs dot; without it this must fail, not skip.
    assert shutil.which("dot"), "Graphviz's dot is not on PATH: run ./course setup"
    z, params = build(minigrad, "chain", np.ones(3, np.float32), np.ones(3, np.float32))
    svg = viz.make_dot(z, params).pipe(format="svg", encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "TanhBackward0" in svg
    assert "<svg" in viz.show(viz.make_dot(z, params))._repr_svg_()


def test_side_by_side_has_both_clusters():
    a = np.ones(3, np.float32)
    zm, pm = build(minigrad, "chain", a, a)
    zt, pt = build(torch, "chain", a, a)
    src = viz.side_by_side(zm, zt, pm, pt).source
    assert "subgraph cluster_minigrad" in src and "subgraph cluster_torch" in src
    body_m = src.split("subgraph cluster_torch")[0].split("subgraph cluster_minigrad")[1]
    body_t = src.split("subgraph cluster_torch")[1]
    assert body_m.count("->") == body_t.count("->") > 0
    labels = re.compile(r"\[label=(.*?)[ \]]", re.S)
    assert labels.findall(body_m) == labels.findall(body_t)
    assert "TanhBackward0" in body_m


def test_missing_dot_prints_install_hint(monkeypatch, capsys):
    def missing(*args, **kwargs):
        raise graphviz.ExecutableNotFound(("dot",))

    dot = viz.make_dot(minigrad.ones(2, requires_grad=True).sum())
    monkeypatch.setattr(type(dot), "pipe", missing)
    assert viz.show(dot) == dot.source
    out = capsys.readouterr().out
    assert "apt-get install graphviz" in out and "conda install" in out and "brew install" in out

