"""The grader: full marks for solutions, zero for untouched exercises, and robustness.

One ``python -m coursekit.grading --json`` run (a real subprocess, one kernel per notebook)
grades solutions/, exercises/ and two notebooks with planted bad answers; each test reads its
part of that one report, so the kernels start once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from coursekit.grading.__main__ import table

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 20  # seconds per cell in the planted run (the infinite loop costs this much)


def _cell(nb, qid, role):
    return next(c for c in nb.cells if c.metadata.get("question") == qid
                and c.metadata.get("role") == role)


def _plant_01(path: Path) -> None:
    nb = nbformat.read(ROOT / "solutions/01_computational_graphs.ipynb", as_version=4)
    _cell(nb, "01.1", "answer").source = "grad_x = 8.0 +\n"  # syntax error
    nb.cells.remove(_cell(nb, "01.2", "check"))  # deleted test cell, right answer
    _cell(nb, "01.3", "answer").source = "# Answer 01.3\ngrad_a = -(0.5 * 2.0)\n"  # one path
    _cell(nb, "01.3", "check").source = 'print("✓ 01.3: 2/2 points")'  # edited test cell
    _cell(nb, "01.4", "answer").source = "while True:\n    pass\n"  # infinite loop
    nbformat.write(nb, path)


def _plant_03(path: Path) -> None:
    nb = nbformat.read(ROOT / "solutions/03_building_the_graph.ipynb", as_version=4)
    _cell(nb, "03.1", "answer").source = "is_leaf = 1 / 0\n"  # exception
    nb.cells.remove(_cell(nb, "03.2", "answer"))  # missing answer cell
    answer = _cell(nb, "03.3", "answer")
    answer.source = answer.source.replace("grad * 3 * x * x", "grad * 3 * x")  # wrong formula
    answer.source += (  # and helpers redefined so that everything "passes"
        "\n\nimport coursekit.grading.checks as _c\n"
        "class _Pass:\n"
        "    def __init__(self, *a, **k): pass\n"
        "    def __enter__(self): return self\n"
        "    def __exit__(self, *a): return True\n"
        "    def close(self, *a, **k): pass\n"
        "    def true(self, *a, **k): pass\n"
        "question = _c.question = _Pass\n"
        "_c.RESULTS['03.3'] = {'points': 3, 'feedback': 'correct'}\n")
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("learner")
    _plant_01(folder / "01_planted.ipynb")
    _plant_03(folder / "03_planted.ipynb")
    before = {p: (p.read_bytes(), os.stat(p).st_mtime_ns) for p in folder.iterdir()}
    run = subprocess.run([sys.executable, "-m", "coursekit.grading", "solutions", "exercises",
                          str(folder), "--json", "--timeout", str(TIMEOUT)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    after = {p: (p.read_bytes(), os.stat(p).st_mtime_ns) for p in folder.iterdir()}
    data = json.loads(run.stdout)
    data["_untouched"] = before == after
    return {"data": data, "by_path": {Path(n["path"]).parent.name + "/" + Path(n["path"]).name: n
                                      for n in data["notebooks"]}}


def _questions(report, suffix):
    found = [n for key, n in report["by_path"].items() if key.endswith(suffix)]
    assert len(found) == 1, suffix
    return {q["id"]: q for q in found[0]["questions"]}


def test_json_has_exactly_the_documented_schema(report):
    data = report["data"]
    assert set(data) - {"_untouched"} == {"notebooks", "score", "max_score"}
    for nb in data["notebooks"]:
        assert set(nb) == {"path", "questions", "score", "max_score"}
        for q in nb["questions"]:
            assert set(q) == {"id", "points", "max", "feedback"}
        assert nb["score"] == sum(q["points"] for q in nb["questions"])
    assert data["score"] == sum(nb["score"] for nb in data["notebooks"])


def test_solutions_get_full_marks(report):
    sols = [n for k, n in report["by_path"].items() if k.startswith("solutions/")]
    assert len(sols) >= 3
    for nb in sols:
        assert nb["score"] == nb["max_score"] > 0, nb
        assert all(q["feedback"] == "correct" for q in nb["questions"])


def test_untouched_exercises_get_zero_with_feedback_everywhere(report):
    exercises = [n for k, n in report["by_path"].items() if k.startswith("exercises/")]
    assert len(exercises) >= 3
    for nb in exercises:
        assert nb["score"] == 0 and nb["max_score"] > 0
        for q in nb["questions"]:
            assert "NotImplementedError" in q["feedback"], q


def test_syntax_error_scores_zero_with_the_error(report):
    q = _questions(report, "01_planted.ipynb")["01.1"]
    assert q["points"] == 0 and q["feedback"].startswith("syntax error")


def test_deleted_check_cell_does_not_matter(report):
    assert _questions(report, "01_planted.ipynb")["01.2"]["points"] == 2


def test_edited_check_cell_is_ignored_and_feedback_is_specific(report):
    q = _questions(report, "01_planted.ipynb")["01.3"]
    assert q["points"] == 0
    assert "gradients of both paths add up" in q["feedback"]


def test_infinite_loop_times_out_and_only_costs_its_question(report):
    q = _questions(report, "01_planted.ipynb")["01.4"]
    assert q["points"] == 0 and "timed out" in q["feedback"]


def test_exception_in_an_answer_scores_zero_with_the_error(report):
    q = _questions(report, "03_planted.ipynb")["03.1"]
    assert q["points"] == 0 and "ZeroDivisionError" in q["feedback"]


def test_missing_answer_cell(report):
    q = _questions(report, "03_planted.ipynb")["03.2"]
    assert q == {"id": "03.2", "points": 0, "max": 2, "feedback": "answer cell missing"}


def test_redefining_the_check_helpers_does_not_give_marks(report):
    qs = _questions(report, "03_planted.ipynb")
    assert qs["03.3"]["points"] == 0
    assert "3x²" in qs["03.3"]["feedback"]
    assert qs["03.4"]["points"] == qs["03.4"]["max"]  # later questions are still graded


def test_learner_files_are_never_written(report):
    assert report["data"]["_untouched"]


def test_text_table_lists_every_question_and_the_total(report):
    nb = report["data"]["notebooks"][0]
    text = table(nb)
    assert text.splitlines()[0] == nb["path"]
    assert all(q["id"] in text for q in nb["questions"])
    assert f"total: {nb['score']}/{nb['max_score']}" in text


@pytest.mark.parametrize("args", [["no/such/notebook.ipynb"], [], ["README.md"],
                                  ["exercises", "--solutions", "no/such/folder"],
                                  ["exercises", "--solutions", "exercises"]])
def test_usage_errors_exit_non_zero_with_a_message(args):
    run = subprocess.run([sys.executable, "-m", "coursekit.grading", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip() and run.stdout == ""


def test_without_a_solutions_folder_here_it_says_where_it_looked(tmp_path):
    """The grader finds the solutions in the current folder (or --solutions), never next to
    its own source: run elsewhere without --solutions, it stops and says what to do."""
    exercise = ROOT / "exercises" / "01_computational_graphs.ipynb"
    run = subprocess.run([sys.executable, "-m", "coursekit.grading", str(exercise)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == ""
    assert f"no solutions folder at {tmp_path.resolve() / 'solutions'}" in run.stderr
    assert "--solutions DIR" in run.stderr and "Traceback" not in run.stderr


def test_solutions_folder_is_an_argument(tmp_path):
    """Run from another folder with --solutions: the checks (hidden tests included) come from
    that folder; here a copy of solution 01 with one question's points changed."""
    solutions = tmp_path / "my_solutions"
    solutions.mkdir()
    source = (ROOT / "solutions" / "01_computational_graphs.py").read_text(encoding="utf-8")
    (solutions / "01_computational_graphs.py").write_text(
        source.replace('question="01.1" role="check" points=2',
                       'question="01.1" role="check" points=12'),
        encoding="utf-8")
    exercise = ROOT / "exercises" / "01_computational_graphs.ipynb"
    run = subprocess.run([sys.executable, "-m", "coursekit.grading", str(exercise),
                          "--solutions", str(solutions), "--json"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    (nb,) = json.loads(run.stdout)["notebooks"]
    assert nb["score"] == 0
    first = nb["questions"][0]
    assert first["id"] == "01.1" and first["max"] == 12
