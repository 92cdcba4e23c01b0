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



# --- folding blocks ------------------------------------------------------------------------------
def mlp_loss(lib):
    """A small MLP built the same way on both engines (same weights), run under record_modules."""
    nn = lib.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1))
    with lib.no_grad():
        for k, p in enumerate(model.parameters()):
            p.copy_(lib.tensor(np.linspace(-1, 1, p.numel(), dtype=np.float32).reshape(p.shape)
                               * (k + 1)))
    x = lib.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    with viz.record_modules(model) as blocks:
        loss = model(x).pow(2).mean()
    return loss, blocks, dict(model.named_parameters()), model


def loop_loss(lib, steps=20):
    """h <- tanh(W h + x_t) for 20 steps, one block per step; W is shared by all steps."""
    W = lib.tensor(np.eye(3, dtype=np.float32) * 0.5, requires_grad=True)
    xs = lib.tensor(np.linspace(-1, 1, 3 * steps, dtype=np.float32).reshape(steps, 3))
    h = lib.zeros(3)
    blocks = viz.Blocks()
    for t in range(steps):
        h = blocks.add(f"step {t}", lib.tanh(W.mv(h) + xs[t]), h)
    return h.sum(), blocks, dict(W=W)


BUILDERS = {"mlp": lambda lib: mlp_loss(lib)[:3], "loop": loop_loss}


def boxes(src_or_dot):
    dot = src_or_dot
    return [(tail, attrs) for tail, head, attrs in viz._statements(dot) if head is None]


def without_clusters(src: str) -> str:
    return re.sub(r"\tsubgraph cluster_fold\d+ \{.*?\n\t\}\n", "", src, flags=re.S)


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_folded_dot_is_the_same_for_minigrad_and_torch(name):
    sources = []
    for lib in (minigrad, torch):
        loss, blocks, params = BUILDERS[name](lib)
        some = blocks.names[1:3]
        sources.append((viz.make_dot(loss, params, fold=blocks).source,
                        viz.make_dot(loss, params, fold=blocks, expand=some).source))
    assert sources[0] == sources[1]
    assert "fold0" in sources[0][0] and "cluster_fold1" in sources[0][1]


@pytest.mark.parametrize("show_saved", [False, True])
@pytest.mark.parametrize("name", sorted(BUILDERS))
@pytest.mark.parametrize("lib", [minigrad, torch], ids=["minigrad", "torch"])
def test_folding_conserves_boxes_and_expanding_everything_unfolds(name, lib, show_saved):
    loss, blocks, params = BUILDERS[name](lib)
    full = viz.make_dot(loss, params, show_saved=show_saved)
    folded = viz.make_dot(loss, params, show_saved=show_saved, fold=blocks)
    folds = [(i, a) for i, a in boxes(folded) if i.startswith("fold")]
    assert len(folds) == len(blocks)
    counts = [int(re.search(r"\n(\d+) box", a).group(1)) for _, a in folds]
    assert len(boxes(full)) == len(boxes(folded)) - len(folds) + sum(counts)
    assert ("orange" in folded.source) == (show_saved and name == "mlp")  # Pow saved its input
    everything = viz.make_dot(loss, params, show_saved=show_saved, fold=blocks,
                              expand=blocks.names).source
    assert everything != full.source  # the frames are drawn...
    assert without_clusters(everything) == full.source  # ...around the very same drawing


def test_mlp_blocks_hold_their_layers_and_parameters():
    loss, blocks, params, model = mlp_loss(torch)
    assert blocks.names == ["0: Linear", "1: Tanh", "2: Linear", "3: Tanh", "4: Linear"]
    src = viz.make_dot(loss, params, fold=blocks).source
    assert "weight" not in src and "AddmmBackward0" not in src and "TanhBackward0" not in src
    assert 'label="0: Linear\n6 boxes\nin (2, 3)\nout (2, 4)"' in src
    assert 'label="1: Tanh\n1 box\nin (2, 4)\nout (2, 4)"' in src
    one = viz.make_dot(loss, params, fold=blocks, expand=["2: Linear"]).source
    assert "2.weight" in one and "0.weight" not in one
    assert not any("forward" in vars(m) for m in model.children())  # the wrappers are gone


def test_a_weight_shared_by_every_step_stays_outside_the_steps():
    loss, blocks, params = loop_loss(minigrad)
    src = viz.make_dot(loss, params, fold=blocks).source
    assert src.count("fold") > 20 and "MvBackward0" not in src
    assert '"W\n (3, 3)"' in src
    accumulate = [i for i, a in boxes(viz.make_dot(loss, params, fold=blocks))
                  if "AccumulateGrad" in a]
    assert len(accumulate) == 1
    assert len(re.findall(rf"\t{accumulate[0]} -> fold\d+", src)) == 20


def test_expanding_an_unknown_block_names_the_blocks():
    loss, blocks, params = loop_loss(minigrad, steps=2)
    with pytest.raises(ValueError, match=r"no block named \['step 7'\].*'step 0', 'step 1'"):
        viz.make_dot(loss, params, fold=blocks, expand=["step 7"])


def test_fold_widget_redraws_with_the_chosen_block_expanded():
    loss, blocks, params = loop_loss(minigrad, steps=3)
    box = viz.fold_widget(loss, blocks, params)
    choose, view = box.children
    before = view.value
    assert "MvBackward0" not in before
    choose.value = ("step 1",)
    assert view.value != before and "MvBackward0" in view.value and "step 1" in view.value


# --- the real torchviz ---------------------------------------------------------------------------
# torchviz 0.0.3 compares torch versions with distutils' LooseVersion, which warns.
torchviz_warns = pytest.mark.filterwarnings("ignore:distutils Version classes:DeprecationWarning")


def torchviz_case():
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    return (x * y + torch.sin(x)) ** 2, dict(x=x, y=y)


@torchviz_warns
def test_torchviz_renumbered_is_deterministic_and_draws_what_we_draw():
    import torchviz

    sources = []
    for _ in range(2):
        z, params = torchviz_case()
        theirs = viz.stable_ids(torchviz.make_dot(z, params))
        sources.append(theirs.source)
        assert viz.structure(theirs) == viz.structure(viz.make_dot(z, params))
        attrs = viz.stable_ids(torchviz.make_dot(z, params, show_attrs=True))
        assert viz.structure(attrs) == viz.structure(viz.make_dot(z, params, show_attrs=True))
    assert sources[0] == sources[1] and re.search(r"\tt\d+ -> t\d+", sources[0])
    assert not re.search(r"\d{6}", sources[0])


@torchviz_warns
def test_torchviz_merges_a_saved_leaf_with_the_leaf_and_fails_after_backward():
    import torchviz

    z, params = torchviz_case()
    theirs = viz.stable_ids(torchviz.make_dot(z, params, show_saved=True))
    ours = viz.make_dot(z, params, show_saved=True)
    # torchviz names a box by the tensor's id(): the leaves x and y saved by Mul, and x saved by
    # Sin, are drawn as the leaves' own boxes (three boxes fewer), relabelled by the last one
    assert len({i for i, _ in boxes(ours)}) - len({i for i, _ in boxes(theirs)}) == 3
    z.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        torchviz.make_dot(z, params, show_saved=True)
    assert "orange" not in viz.make_dot(z, params, show_saved=True).source


@torchviz_warns
def test_beside_frames_two_drawings_without_clashing_ids():
    import torchviz

    z, params = torchviz_case()
    theirs = viz.stable_ids(torchviz.make_dot(z, params))
    loss, blocks, named = loop_loss(minigrad, steps=3)
    ours = viz.make_dot(loss, named, fold=blocks, expand=["step 1"])
    both_src = viz.beside(torchviz=theirs, coursekit_viz=ours).source
    assert "subgraph cluster_torchviz" in both_src and "label=\"coursekit.viz\"" in both_src
    ids = [i for i, _ in boxes(viz.beside(torchviz=theirs, coursekit_viz=ours))]
    assert len(ids) == len({i for i, _ in boxes(theirs)}) + len(boxes(ours))
    assert re.search(r"\t\td1_\d+\n", both_src)  # a member of the expanded frame, renamed
    assert viz.structure(viz.stable_ids(ours)) == viz.structure(ours)
