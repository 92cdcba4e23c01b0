"""coursekit.compare: passes on identical behaviour, catches planted differences."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from coursekit import compare
from minigrad._ops import pointwise


@pytest.fixture
def session():
    return compare.Session(seed=1)


def test_two_cells_share_state_and_match(session, capsys):
    session.check("x = torch.tensor(same_random(3), requires_grad=True)\nprint(x.dtype)", ["x"])
    session.check("y = (x * x.exp()).sum()\ny.backward()\nprint(y.grad_fn.name())", ["x", "y"])
    out = capsys.readouterr().out
    assert "torch.float32\n✓ minigrad matches torch: output, x\n" in out
    assert out.endswith("✓ minigrad matches torch: output, x, x.grad, y\n")


def test_same_random_gives_both_engines_the_same_numbers(session):
    runs = session.check("a = torch.tensor(same_random(4))", ["a"], quiet=True)
    assert np.array_equal(runs["torch"].namespace["a"].numpy(),
                          runs["minigrad"].namespace["a"].numpy())


def test_import_torch_is_redirected(session):
    runs = session.check("import torch\nfrom torch import autograd\nname = torch.__name__",
                         quiet=True)
    assert runs["minigrad"].namespace["name"] == "minigrad"
    assert runs["minigrad"].namespace["autograd"] is minigrad.autograd


def test_same_error_is_a_match_and_is_shown(session, capsys):
    session.check("torch.ones(2) + torch.ones(3)")
    out = capsys.readouterr().out
    assert out.startswith("RuntimeError: The size of tensor a (2)")
    assert out.endswith("✓ minigrad matches torch: error (RuntimeError)\n")


def test_warning_compared_and_torch_suffix_stripped(session, capsys):
    session.check("x = torch.ones(2, requires_grad=True) * 2\nprint(x.grad)")
    out = capsys.readouterr().out
    assert "UserWarning: The .grad attribute" in out and "warnings" in out
    assert "Triggered internally" not in out


def test_planted_wrong_gradient_is_caught(session, monkeypatch):
    session.check("x = torch.tensor([0.5, 1.5], requires_grad=True)", quiet=True)
    real = pointwise.ExpBackward0.backward
    monkeypatch.setattr(pointwise.ExpBackward0, "backward", lambda self, g: real(self, g) * 2)
    with pytest.raises(AssertionError, match=r"x\.grad") as info:
        session.check("x.exp().sum().backward()", ["x"], quiet=True)
    assert "--- torch" in str(info.value) and "+x.grad = " in str(info.value)


def test_planted_different_message_is_caught(session):
    code = "raise ValueError('bad ' + ('a' if torch.__name__ == 'torch' else 'b'))"
    with pytest.raises(AssertionError, match="raised ValueError: bad b"):
        session.check(code, quiet=True)


def test_planted_extra_printed_line_is_caught(session):
    code = "print(1)\nif torch.__name__ == 'minigrad':\n    print('extra')"
    with pytest.raises(AssertionError, match=r"\+extra"):
        session.check(code, quiet=True)


def test_one_side_raising_is_caught(session):
    with pytest.raises(AssertionError, match="raised ZeroDivisionError"):
        session.check("if torch.__name__ == 'minigrad':\n    1 / 0", quiet=True)


def test_graph_difference_names_first_differing_node(session):
    code = ("x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
            "y = (x * 2 + 1).sum() if torch.__name__ == 'torch' else (x * 2 - 1).sum()")
    with pytest.raises(AssertionError) as info:
        session.check(code, ["y"], quiet=True)
    assert ("graph of y: grad_fn.next_functions[0]: minigrad has SubBackward0, torch has "
            "AddBackward0") in str(info.value)


def test_graph_diff_none_for_same_graph():
    xs = [lib.tensor([1.0, 2.0], requires_grad=True) for lib in (minigrad, torch)]
    ys = [(x.exp() * x).sum() for x in xs]
    assert compare.graph_diff(ys[0], ys[1]) is None


def test_engine_switch_shows_minigrad_output_normalised(session, capsys):
    session.check("print(torch.ones(1).dtype)", engine="minigrad")
    assert capsys.readouterr().out.startswith("torch.float32\n")


def test_user_namespace_gets_torch_results(session):
    ns = {}
    session.check("z = torch.zeros(2)", user_ns=ns, quiet=True)
    assert isinstance(ns["z"], torch.Tensor)


def test_magic_line_parsing():
    assert compare._parse_magic_line("x y,z --engine minigrad --no-graph") == (
        ["x", "y", "z"], {"engine": "minigrad", "graph": False})
    assert compare._parse_magic_line("x y~1e-3") == (["x", "y"], {"rtol": {"y": 1e-3}})


def test_a_loose_name_tolerates_only_its_own_budget(session, monkeypatch):
    """``name~R``: within R of the largest entry passes, beyond it fails, and the other names
    keep float32 precision."""
    real = pointwise.ExpBackward0.backward
    monkeypatch.setattr(pointwise.ExpBackward0, "backward",
                        lambda self, g: real(self, g) * (1 + 1e-4))
    code = "x = torch.tensor([0.5, 1.5], requires_grad=True); x.exp().sum().backward(); g = x.grad"
    session.check(code, ["g"], quiet=True, rtol={"g": 1e-3})
    with pytest.raises(AssertionError, match="g"):
        session.check(code, ["g"], quiet=True, rtol={"g": 1e-5})
    with pytest.raises(AssertionError, match="g"):
        session.check(code, ["g"], quiet=True)


def test_ipython_magic_registration(monkeypatch):
    import IPython
    from IPython.testing.globalipapp import get_ipython

    ip = get_ipython()
    compare.load_ipython_extension(ip)
    compare.session(reset=True)
    ip.run_cell_magic("both", "w",
                      "w = torch.ones(2, requires_grad=True)\n(w * 3).sum().backward()")
    assert isinstance(ip.user_ns["w"], torch.Tensor)
    assert IPython is not None


def test_normalize():
    assert compare.normalize("minigrad.float32 minigrad::autograd::X at 0x7fab12") == (
        "torch.float32 torch::autograd::X at 0x…")


@settings(deadline=None, max_examples=20)
@given(st.lists(st.floats(-2, 2, width=32), min_size=1, max_size=4),
       st.sampled_from(["exp", "sin", "tanh", "sigmoid"]))
def test_identical_behaviour_passes(values, op):
    s = compare.Session()
    code = (f"x = torch.tensor({values!r}, requires_grad=True)\n"
            f"y = (x.{op}() * x).sum()\ny.backward()\nprint(y)")
    s.check(code, ["x", "y"], quiet=True)


def test_anomaly_warning_matches_up_to_its_last_newline(session, capsys):
    """torch's anomaly warning ends with the forward traceback's newline, then its C++ suffix
    " (Triggered internally at ...)": only the suffix goes, so both engines' text still ends
    with the newline minigrad's has (stripping the newline too made them differ)."""
    session.check("x = torch.tensor([-1.0, 4.0], requires_grad=True)\n"
                  "with torch.autograd.detect_anomaly():\n"
                  "    y = x.sqrt()\n"
                  "    (y * 0).sum().backward()")
    out = capsys.readouterr().out
    assert "UserWarning: Error detected in SqrtBackward0. Traceback of forward call" in out
    assert ('File "<cell>", line 3, in <module>\n\nRuntimeError: Function \'SqrtBackward0\' '
            "returned nan values in its 0th output.\n") in out
    assert out.endswith("✓ minigrad matches torch: warnings, error (RuntimeError)\n")
