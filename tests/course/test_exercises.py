"""Exercises are generated from solutions: in sync, and every stub raises NotImplementedError.

Also unit tests of the nbgrader-style markers (``coursekit.grading.markers``) that the
generator uses. No kernel is started here; grading is tested in ``test_grading.py``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import jupytext
import pytest
import torch

from coursekit.grading import markers
from coursekit.notebooks import render_exercise

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.py"))
spec = importlib.util.spec_from_file_location("make_exercises", ROOT / "tools/make_exercises.py")
make_exercises = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_exercises)


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def test_every_lesson_from_01_on_has_exercises_with_at_least_three_graded_questions():
    lessons = {p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")} - {"00_welcome"}
    assert {p.stem for p in SOLUTIONS} == lessons == {
        p.stem for p in (ROOT / "exercises").glob("[0-9][0-9]_*.ipynb")}
    counts = {p.stem: sum(c.metadata.get("role") == "check" for c in jupytext.read(p).cells)
              for p in SOLUTIONS}
    assert min(counts.values()) >= 3, counts
    assert sum(counts.values()) >= 55, counts


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_exercise_is_exactly_what_generation_gives(solution):
    stored = (ROOT / "exercises" / f"{solution.stem}.ipynb").read_text(encoding="utf-8")
    assert stored == render_exercise(solution), "run ./course exercises"


def test_make_exercises_check_finds_nothing_stale(capsys):
    """``tools/make_exercises.py --check`` (what ``./course exercises`` writes) agrees."""
    assert make_exercises.main(["--check"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_exercise_has_no_solution_hidden_test_or_output(solution):
    for cell in _cells(ROOT / "exercises" / f"{solution.stem}.ipynb"):
        text = _source(cell)
        assert "### BEGIN" not in text and "### END" not in text
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_every_graded_question_has_an_answer_then_a_check(solution):
    cells = [c for c in jupytext.read(solution).cells if c.cell_type == "code"]
    roles = [(c.metadata.get("role"), c.metadata.get("question")) for c in cells]
    answers = [q for r, q in roles if r == "answer"]
    assert len(answers) >= 3 and len(set(answers)) == len(answers)
    for i, (role, qid) in enumerate(roles):
        if role == "answer":
            assert roles[i + 1] == ("check", qid), f"{qid}: the check cell must follow"
            assert markers.BEGIN_SOLUTION in cells[i].source


def _has_stub(fn: ast.FunctionDef) -> bool:
    return markers.STUB in ast.unparse(fn)


def _call_stubs(tree, scope):
    """The functions (and methods) of a cell that hold a stub, to call with a dummy tensor."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _has_stub(node):
            yield node.name, scope[node.name]
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and _has_stub(item):
                    yield f"{node.name}.{item.name}", getattr(scope[node.name], item.name)


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_every_stub_raises_not_implemented(solution):
    cells = [c for c in _cells(ROOT / "exercises" / f"{solution.stem}.ipynb")
             if c["cell_type"] == "code"]
    scope: dict = {}
    exec(_source(cells[0]), scope)  # the set-up cell
    answers = [c for c in cells if c["metadata"].get("role") == "answer"]
    for cell in answers:
        text = _source(cell)
        tree = ast.parse(text)
        stubs = text.count(markers.STUB)
        assert stubs >= 1
        raised = 0
        try:
            exec(text, scope)
        except NotImplementedError:
            raised = 1
        for name, fn in _call_stubs(tree, scope):
            required = fn.__code__.co_argcount - len(fn.__defaults__ or ())
            try:
                fn(*[torch.tensor(1.0, requires_grad=True) for _ in range(required)])
            except NotImplementedError:
                raised += 1
            else:
                pytest.fail(f"{name} does not raise NotImplementedError")
        assert raised == stubs, f"{cell['metadata']['question']}: a stub did not raise"


# --- the markers -----------------------------------------------------------------------------
def test_an_assignment_region_keeps_its_names():
    source = "x = 1\n### BEGIN SOLUTION\ngrad_x = 2 * x\na, b = 1, 2\n### END SOLUTION\nprint(x)"
    assert markers.to_exercise(source, "code") == (
        "x = 1\ngrad_x = ...\na, b = ..., ...\nraise NotImplementedError()\nprint(x)")


def test_a_function_body_becomes_an_indented_stub():
    source = "def f(x):\n    ### BEGIN SOLUTION\n    y = x\n    return y\n    ### END SOLUTION\n"
    assert markers.to_exercise(source, "code") == "def f(x):\n    raise NotImplementedError()\n"


def test_hidden_tests_are_removed_and_visible_ones_kept():
    source = "check(1)\n    ### BEGIN HIDDEN TESTS\n    check(2)\n    ### END HIDDEN TESTS\nok"
    assert markers.to_exercise(source, "code") == "check(1)\n    q.more_when_graded()\nok"


def test_markdown_regions_become_your_answer_here():
    source = "Why?\n\n### BEGIN SOLUTION\nBecause.\n### END SOLUTION\n"
    assert markers.to_exercise(source, "markdown") == "Why?\n\nYOUR ANSWER HERE\n"


@pytest.mark.parametrize("source", [
    "### BEGIN SOLUTION\nx = 1",
    "x = 1\n### END SOLUTION",
    "### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION\n### END SOLUTION",
])
def test_unpaired_markers_are_an_error(source):
    with pytest.raises(markers.MarkerError):
        markers.to_exercise(source, "code")
