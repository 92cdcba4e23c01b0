"""The plain-data bridge and the trusted check run, without a kernel: what the learner's process
may send (``coursekit.grading.plain``), what the check cells declare (``trusted``), and the
inline check's words. The whole grader on real notebooks is ``test_grading.py``."""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import jupytext
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from coursekit.grading import checks, grader, plain, trusted
from coursekit.grading.markers import to_exercise

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.py"))


def _round_trip(value):
    return plain.decode(json.loads(json.dumps(plain.encode(value))))


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=8)
                    | st.floats(allow_nan=False), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=20))
def test_plain_python_values_survive_the_round_trip(value):
    assert _round_trip(value) == value


@pytest.mark.parametrize("lib", [torch, minigrad])
def test_tensors_come_back_with_data_dtype_requires_grad_and_grad(lib):
    x = lib.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=lib.float64, requires_grad=True)
    (x * x).sum().backward()
    back = _round_trip(x)
    assert type(back) is type(x) and back.dtype == x.dtype and back.requires_grad
    assert torch.equal(torch.as_tensor(back.detach().numpy()), torch.as_tensor(x.detach().numpy()))
    assert np.array_equal(back.grad.numpy(), x.grad.numpy())
    y = x * 2
    encoded = plain.encode(y)
    assert encoded["grad_fn"] == "MulBackward0" and encoded["is_leaf"] is False


def test_numpy_sets_tuples_and_non_finite_floats():
    value = (np.array([1.0, 2.0], dtype=np.float32), {1, 2}, math.inf, np.float64(0.5))
    back = _round_trip(value)
    assert back[0].dtype == np.float32 and back[0].tolist() == [1.0, 2.0]
    assert back[1] == {1, 2} and back[2] == math.inf and back[3] == 0.5


def test_lying_objects_are_never_asked_anything():
    calls = []

    class Liar(float):
        def __eq__(self, other):
            calls.append("eq")
            return True

        def __float__(self):
            calls.append("float")
            return 8.0

        def __array__(self, *args, **kwargs):
            calls.append("array")
            return np.array(8.0)

        __hash__ = float.__hash__
        __class__ = property(lambda self: float)

    class Sneaky(torch.Tensor):
        pass

    encoded = plain.encode({"x": Liar(1.0), "t": torch.ones(2).as_subclass(Sneaky)})
    assert calls == []
    back = plain.decode(json.loads(json.dumps(encoded)))
    assert isinstance(back["x"], plain.LearnerObject) and back["x"].type_name == "Liar"
    assert isinstance(back["t"], plain.LearnerObject)
    message = checks.compare("x", back["x"], 8.0)
    assert message == "`x` should be a number or a tensor, not Liar"


def test_exceptions_come_back_as_the_builtin_type_or_learner_error():
    assert type(plain.rebuild_error(plain.encode(RuntimeError("boom")))) is RuntimeError

    class RuntimeError_(Exception):  # noqa: N801
        pass
    RuntimeError_.__name__ = "RuntimeError"
    fake = plain.rebuild_error(plain.encode(RuntimeError_("boom")))
    assert type(fake) is plain.LearnerError and fake.type_name == "RuntimeError"
    exit_ = plain.rebuild_error(plain.encode(SystemExit(0)))
    assert type(exit_) is plain.LearnerError  # never a SystemExit in the grader


@pytest.mark.parametrize("data", [
    {"$": "tensor", "lib": "torch", "dtype": "float32", "shape": [2], "data": [1.0]},
    {"$": "tensor", "lib": "os", "dtype": "float32", "shape": [], "data": 1.0},
    {"$": "ndarray", "dtype": "object", "shape": [], "data": 1},
    {"$": "code", "source": "import os"},
    {"no": "tag"},
])
def test_malformed_data_is_refused(data):
    with pytest.raises(plain.DecodeError):
        plain.decode(data)


def test_feedback_names_a_float_for_a_tensor_and_a_wrong_shape():
    want = torch.tensor([1.0, 2.0])
    assert checks.compare("g", 3.0, want, tensor=True) == "`g`: expected a tensor, got float"
    assert checks.compare("g", torch.tensor([[1.0], [2.0]]), want) == \
        "`g` has shape [2, 1], expected [2]"
    assert checks.compare("g", [[1.0, 2.0]], want) is None  # a list is an equivalent form
    assert checks.compare("g", want.double(), want, tensor=True) == \
        "`g` has dtype float64, expected float32"
    assert checks.compare("g", minigrad.tensor([1.0, 2.0]), want, tensor=True) is None


def test_predict_answers_do_not_reveal_the_expected_value():
    q = checks.Question("01.3", 2, answers=("grad_a",), results={})
    with pytest.raises(checks.CheckFailed) as failed:
        q.close("grad_a", 1.25, 3.0)
    assert "3" not in str(failed.value) and "1.25" in str(failed.value)
    with pytest.raises(checks.CheckFailed) as failed:
        q.close("x.grad", torch.tensor([1.0, 5.0]), torch.tensor([1.0, 2.0]))
    assert "expected [1., 2.]" in str(failed.value) and "index [1]" in str(failed.value)


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_every_check_cell_declares_its_answers_and_observes_by_top_level_functions(solution):
    for cell in jupytext.read(solution).cells:
        if cell.metadata.get("role") != "check":
            continue
        names = trusted.answers_of(cell.source)
        assert names is not None, f"{cell.metadata['question']}: question(..., answers=...)"
        for line in cell.source.splitlines():
            if "q.observe(" in line:
                fn = line.split("q.observe(")[1].split(",")[0].split(")")[0].strip()
                source = trusted.observation_source(cell.source, fn)
                assert f"def {fn}(" in source


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_answer_names_are_not_shared_between_questions(solution):
    """All cells run before any question is checked: one question's answer must not be
    overwritten by another's."""
    seen: dict[str, str] = {}
    for cell in jupytext.read(solution).cells:
        if cell.metadata.get("role") == "check":
            for name in trusted.answers_of(cell.source) or ():
                assert seen.setdefault(name, cell.metadata["question"]) == \
                    cell.metadata["question"], name


def test_observation_source_takes_the_helpers_it_calls():
    source = "def _a(x):\n    return _b(x)\n\n\ndef _b(x):\n    return x\n\n\ndef _c():\n    pass\n"
    assert trusted.observation_source(source, "_a") == \
        "def _a(x):\n    return _b(x)\n\n\ndef _b(x):\n    return x"


def test_inline_check_with_hidden_tests_says_grading_runs_more(capsys):
    source = next(c.source for c in jupytext.read(SOLUTIONS[0]).cells
                  if c.metadata.get("question") == "01.1" and c.metadata.get("role") == "check")
    exercise = to_exercise(source, "code")
    assert "q.more_when_graded()" in exercise
    scope = {"question": checks.question, "torch": torch, "math": math, "a": 16.0,
             "z": 16.0 + math.sin(2 * math.pi), "grad_x": 8.0, "grad_y": 2.0, "b": 0.0}
    exec(exercise, scope)
    assert "2/2 points · passes the visible checks; grading runs more" in capsys.readouterr().out


def test_inline_answers_are_seen_as_the_grader_sees_them():
    """An inline ✓ that grading would contradict: a value only its dunders make right."""
    class Liar(float):
        def __array__(self, *args, **kwargs):
            return np.array(8.0)

    q = checks.Question("01.1", 2, answers=("grad_x",), results={})
    with pytest.raises(checks.CheckFailed, match="not Liar"):
        q.close("grad_x", Liar(1.0), 8.0)
    q.close("grad_x", np.array(torch.tensor(8.0).detach()), 8.0)  # an honest other form


def test_the_grader_threads_build_python_ast_one_at_a_time():
    """``-j N`` grades notebooks in threads; CPython 3.11 races when two threads build AST objects
    (a check failed with "SystemError: AST constructor recursion depth mismatch" in a class batch).
    Every parse in the grader process (check sources, the solution's jupytext cells) waits for
    ``trusted.LOCK``, which a running check holds."""
    held, release, done = threading.Event(), threading.Event(), []

    def check_running():
        with trusted.LOCK:
            held.set()
            release.wait(10)

    def parse_while_a_check_runs():
        trusted.answers_of("with question('01.1', answers=('a',)) as q:\n    pass\n")
        done.append("answers_of")
        trusted.observation_source("def _probe():\n    return 1\n", "_probe")
        done.append("observation_source")
        grader.load_checks(SOLUTIONS[0])
        done.append("load_checks")

    holder = threading.Thread(target=check_running)
    holder.start()
    assert held.wait(10)
    parser = threading.Thread(target=parse_while_a_check_runs)
    parser.start()
    parser.join(0.5)
    assert done == []  # still waiting for the check
    release.set()
    parser.join(30)
    holder.join(10)
    assert done == ["answers_of", "observation_source", "load_checks"]


def test_predict_feedback_never_says_how_far_off_the_answer_is():
    """"half the right value" gives the value away as surely as printing it: a predict
    answer off by a factor gets the idea (the hint of that mistake), not the relation."""
    q = checks.Question("01.3", 2, answers=("grad_a",), results={})
    for got, hints in ((1.5, {}), (6.0, {}), (-3.0, {"negated": "the minus sign flips it"})):
        with pytest.raises(checks.CheckFailed) as failed:
            q.close("grad_a", got, 3.0, hints=hints)
        message = str(failed.value)
        assert "3" not in message.replace(checks._fmt(got), "") and "right value" not in message
        assert message.endswith(hints.get("negated", checks.REVISIT))
    with pytest.raises(checks.CheckFailed, match=r"twice the right value \(3\)"):
        q.close("x.grad", 6.0, 3.0)  # not a predict answer: the value is shown


def test_an_error_of_the_learner_s_code_names_the_check_s_input():
    def _probe(values, scale):
        return [v / scale for v in values]
    q = checks.Question("05.3", 2, answers=(), results={})
    with q:
        q.observe(_probe, [1.0, 2.0], 0)
    assert q._results["05.3"]["feedback"] == ("your code raised ZeroDivisionError: float division "
                                              "by zero (called by the check with [1.0, 2.0], 0)")
