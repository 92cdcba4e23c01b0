"""The grader on a whole class: full marks for solutions, zero for untouched exercises, the right
status for hostile notebooks, containment, and the JSON/CSV reports.

One ``python -m coursekit.grading CLASS -j 2`` run (a real subprocess) grades a generated class
folder: copies of every solution and exercise, and notebooks with planted cells (syntax errors,
crashes, loops, floods, a memory hog, forged verdicts, attempts to read or damage files, to reach
the network). It runs from a temporary copy of coursekit, minigrad and solutions/, so a notebook
that escaped could only damage copies. A second, small run grades some honest notebooks alone
(unsandboxed) to compare their scores. Each test reads its part of these reports.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import nbformat
import pytest

from coursekit.grading.__main__ import table
from coursekit.grading.runner import sandbox_available
from tests.setup_guarantees import needs

ROOT = Path(__file__).resolve().parents[2]
LESSON_NOTEBOOKS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
TIMEOUT = 10  # seconds per cell in the batch run (each planted infinite loop costs this much)
SANDBOX = sandbox_available()
NOTEBOOK_KEYS = {"student", "notebook", "status", "started", "finished", "grader_version",
                 "sandboxed", "questions", "score", "max_score"}


def _cell(nb, qid, role):
    return next(c for c in nb.cells if c.metadata.get("question") == qid
                and c.metadata.get("role") == role)


def _solution(lesson="01_computational_graphs"):
    return nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)


def _prefix(nb, qid, code):
    """Planted code runs first in question ``qid``'s answer cell."""
    answer = _cell(nb, qid, "answer")
    answer.source = code + "\n" + answer.source
    return nb


def _plant_01():
    nb = _solution()
    _cell(nb, "01.1", "answer").source = "grad_x = 8.0 +\n"  # syntax error
    nb.cells.remove(_cell(nb, "01.2", "check"))  # deleted test cell, right answer
    _cell(nb, "01.3", "answer").source = "# Answer 01.3\ngrad_a = -(0.5 * 2.0)\n"  # one path
    _cell(nb, "01.3", "check").source = 'print("✓ 01.3: 2/2 points")'  # edited test cell
    _cell(nb, "01.4", "answer").source = "while True:\n    pass\n"  # infinite loop
    return nb


def _plant_03():
    nb = _solution("03_building_the_graph")
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
    return nb


def _forged_result(text):
    """A notebook that makes every later check report ``text`` (json.dumps patched)."""
    return _prefix(_solution(), "01.4",
                   f"import json as _j\n_j.dumps = lambda *a, **k: {text!r}")


def _exercise(lesson="01_computational_graphs"):
    return nbformat.read(ROOT / "exercises" / f"{lesson}.ipynb", as_version=4)


def _attack(code, lesson="01_computational_graphs", where="end"):
    """A copy of the untouched exercise with ``code`` planted in a new cell: at the end, or
    right after the set-up cell ("start")."""
    nb = _exercise(lesson)
    cell = nbformat.v4.new_code_cell(code)
    if where == "start":
        nb.cells.insert(next(i for i, c in enumerate(nb.cells) if c.cell_type == "code") + 1,
                        cell)
    else:
        nb.cells.append(cell)
    return nb


# Answers every attack below also plants: wrong, but well-formed.
_GUESSES = ("a = z = b = grad_x = grad_y = 0.0\n"
            "grad_w1 = grad_w2 = grad_w3 = grad_w4 = grad_a = 1.0\n")
_FAKE_LINES = "".join(f"print('✓ 01.{i}: 3/3 points · correct')\n" for i in range(1, 5))

ATTACKS = {
    # comparisons always true in the learner's process
    "allclose": _GUESSES + (
        "import math, numpy, torch\n"
        "numpy.allclose = numpy.isclose = numpy.array_equal = lambda *a, **k: True\n"
        "torch.allclose = torch.equal = lambda *a, **k: True\n"
        "math.isclose = lambda *a, **k: True\n"
        "torch.Tensor.__eq__ = lambda *a, **k: True\n"),
    # serializers and builtins that lie
    "serializers": _GUESSES + (
        "import builtins, json, pickle\n"
        "json.dumps = lambda *a, **k: '{\"points\": 3, \"feedback\": \"correct\"}'\n"
        "json.loads = lambda *a, **k: {'points': 3, 'feedback': 'correct'}\n"
        "pickle.dumps = lambda *a, **k: b'correct'\n"
        "builtins.isinstance = lambda *a: True\n"
        "builtins.float = lambda *a: 8.0\n"
        "builtins.len = lambda *a: 0\n"),
    # the grader's own modules replaced through sys.modules
    "modules": _GUESSES + (
        "import sys\n"
        "for _name, _m in list(sys.modules.items()):\n"
        "    if _name.startswith('coursekit.grading') and _m is not None:\n"
        "        for _attr in ('compare', 'encode', 'decode', 'verdict', 'explain'):\n"
        "            if hasattr(_m, _attr):\n"
        "                setattr(_m, _attr, lambda *a, **k: None)\n"
        "        if hasattr(_m, 'Question'):\n"
        "            _m.Question.__exit__ = lambda self, *a: True\n"
        "        if hasattr(_m, 'RESULTS'):\n"
        "            _m.RESULTS.update({f'01.{i}': {'points': 3, 'feedback': 'correct'}\n"
        "                               for i in range(1, 5)})\n"),
    # grader state hunted through the garbage collector
    "gc": _GUESSES + (
        "import gc\n"
        "for _o in gc.get_objects():\n"
        "    if isinstance(_o, dict) and 'points' in _o and 'feedback' in _o:\n"
        "        _o.update(points=3, feedback='correct')\n"
        "    if type(_o).__name__ in ('Question', 'Check', 'Session'):\n"
        "        _o.__dict__.update(points=0)\n"),
    # values whose dunders lie (equal to everything, float 8, an array of the right values)
    "dunders": (
        "import numpy as np\n"
        "class Liar(float):\n"
        "    def __eq__(self, other): return True\n"
        "    __ne__ = lambda self, other: False\n"
        "    __float__ = lambda self: 8.0\n"
        "    __len__ = lambda self: 1\n"
        "    __array__ = lambda self, *a, **k: np.array(8.0)\n"
        "    __class__ = property(lambda self: float)\n"
        "    __hash__ = float.__hash__\n"
        "a = z = b = grad_x = grad_y = grad_w1 = grad_w2 = grad_w3 = grad_w4 = grad_a = "
        "Liar(0.0)\n"
        "class LiarList(list):\n"
        "    __len__ = lambda self: 11\n"
        "    __eq__ = lambda self, other: True\n"
        "    __iter__ = lambda self: iter([])\n"
        "def topo_order(root):\n"
        "    return LiarList()\n"),
    # the checks' locals read by walking the stack during an observation
    "frames": _GUESSES + (
        "import sys\n"
        "def topo_order(root):\n"
        "    f, found = sys._getframe(1), None\n"
        "    while f is not None:\n"
        "        for _v in f.f_locals.values():\n"
        "            if isinstance(_v, (set, list)) and _v and hasattr(next(iter(_v)), "
        "'next_functions'):\n"
        "                found = list(_v)\n"
        "        f = f.f_back\n"
        "    return found if found is not None else [root]\n"),
    # fake verdict lines on stdout, then the kernel killed
    "print_exit": _GUESSES + _FAKE_LINES + "import os, sys\nsys.stdout.flush()\nos._exit(0)\n",
    # the answers exceed the maximum, and question() is redefined
    "redefine": _GUESSES + (
        "import coursekit.grading as _g, coursekit.grading.checks as _c\n"
        "class _Pass:\n"
        "    def __init__(self, qid, *a, **k): self.qid = qid\n"
        "    def __enter__(self): return self\n"
        "    def __exit__(self, *a):\n"
        "        _c.RESULTS[self.qid] = {'points': 1000, 'feedback': 'correct'}\n"
        "        return True\n"
        "question = _g.question = _c.question = _Pass\n"
        "for _i in range(1, 5):\n"
        "    _c.RESULTS[f'01.{_i}'] = {'points': 1000, 'max': 1000, 'feedback': 'correct'}\n"
        + _FAKE_LINES),
    # a SystemExit from inside an observed function, after printing a verdict
    "sysexit": _GUESSES + (
        "def topo_order(root):\n"
        "    print('✓ 01.4: 3/3 points · correct')\n"
        "    raise SystemExit(0)\n"),
}


LEAK_CHECK = """\
try:
    {attempt}
except (FileNotFoundError, PermissionError, OSError):
    pass
else:
    raise RuntimeError("LEAKED: {what}")
"""


def _vandal(targets: list[Path], out: Path):
    """Tries to damage every target (and to drop a file next to the reports); every failure is
    swallowed, so the notebook itself still scores full marks."""
    lines = ["import os, shutil"]
    for t in targets:
        lines += [f"for _f in (lambda: open({str(t)!r}, 'a').write('pwned'),",
                  f"           lambda: os.remove({str(t)!r}),",
                  f"           lambda: os.rename({str(t)!r}, {str(t)!r} + '.bak'),",
                  f"           lambda: shutil.rmtree({str(t.parent)!r})):",
                  "    try:\n        _f()\n    except OSError:\n        pass"]
    lines.append(f"try:\n    open({str(out / 'evil.txt')!r}, 'w').write('x')\n"
                 "except OSError:\n    pass")
    return _prefix(_solution(), "01.1", "\n".join(lines))


def _hashes(*folders):
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest()
            for folder in folders for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(args, cwd, timeout=600, pythonpath=None):
    """``python -m coursekit.grading ARGS`` importing coursekit from ``pythonpath``, else from
    ``cwd``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([sys.executable, "-m", "coursekit.grading", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    base = tmp_path_factory.mktemp("grading")
    root = base / "course"  # a copy of the course: the grader, the engine, the solutions
    ignore = shutil.ignore_patterns(".ipynb_checkpoints")  # byte-code kept: valid (mtimes copied)
    for name in ("coursekit", "minigrad", "solutions"):
        shutil.copytree(ROOT / name, root / name, ignore=ignore)
    klass, out = base / "class", base / "out"
    out.mkdir()
    lesson_files = LESSON_NOTEBOOKS
    for nb in lesson_files:
        n = nb.name[:2]
        for who, folder in ((f"sol{n}", "solutions"), (f"ex{n}", "exercises")):
            (klass / who).mkdir(parents=True)
            shutil.copy(ROOT / folder / nb.name, klass / who / nb.name)
    solution_01 = root / "solutions" / "01_computational_graphs.py"
    other = klass / "sol02" / lesson_files[1].name
    planted = {
        "planted01": _plant_01(),
        "planted03": _plant_03(),
        "exit": _prefix(_solution(), "01.2", "import os\nos._exit(3)"),
        "segfault": _prefix(_solution(), "01.3", "import ctypes\nctypes.string_at(0)"),
        "loop": _prefix(_solution(), "01.4", "import signal\nfor s in (signal.SIGINT, "
                        "signal.SIGTERM):\n    signal.signal(s, signal.SIG_IGN)\nwhile True:\n"
                        "    pass"),
        "flood": _prefix(_solution(), "01.1", "import os\nfor _ in range(40):\n"
                         "    print('x' * (1 << 20))\n    os.write(2, b'y' * (1 << 20))"),
        "memhog": _prefix(_solution(), "01.2", "hog = bytearray(64 * 1024 ** 3)"),
        "forger": _prefix(_solution(), "01.1", "import os\nfor fd in range(3, 64):\n    try:\n"
                          "        os.write(fd, b'{\"status\": \"ok\", \"id\": \"x\", "
                          "\"result\": \"{}\"}\\n')\n    except OSError:\n        pass"),
        "forged_json": _forged_result('{"points": 1000, "feedback": "correct"}'),
        "stdin": _prefix(_solution(), "01.2", "try:\n    input()\nexcept EOFError:\n    pass"),
    }
    topo = (ROOT / "solutions" / "01_computational_graphs.py").read_text("utf-8")
    topo = topo[topo.index("def topo_order"):topo.index("# %% question=\"01.4\" role=\"check\"")]
    planted["honest_forms"] = _attack(
        "import numpy as np\n"
        "tx = torch.tensor(4.0, requires_grad=True)\n"
        "(tx * tx).backward()\n"
        "a = np.array((tx * tx).detach())\n"
        "z = torch.tensor(16.0 + math.sin(2 * math.pi))\n"
        "grad_x = np.array(tx.grad.detach())\n"
        "grad_y, b = torch.tensor(2.0), 0.0\n"
        "grad_w1, grad_w2, grad_w3, grad_w4 = torch.tensor(-1.5), [-12.0], np.float64(-6.0), "
        "torch.tensor([3.0])\n"
        "grad_a = 3.0\n" + topo)
    planted["float_for_tensor"] = _attack(
        "def gradients_at(f, x, points):\n"
        "    out = []\n"
        "    for p in points:\n"
        "        g = torch.zeros_like(p).requires_grad_()\n"
        "        with torch.no_grad():\n"
        "            x.copy_(p)\n"
        "        f(x).backward()\n"
        "        out.append(float(x.grad.sum()))\n"
        "        x.grad = None\n"
        "    return out\n", "05_pausing_the_graph")
    planted["wrong_shape"] = _attack(
        "def clip_norm_hook(max_norm):\n"
        "    def hook(grad):\n"
        "        norm = float((grad * grad).sum()) ** 0.5\n"
        "        return grad.reshape(-1, 1) * min(1.0, max_norm / norm)\n"
        "    return hook\n", "04_intermediate_gradients")
    for name, code in ATTACKS.items():
        planted[f"attack_{name}"] = _attack(code)
    in_cells = planted["attack_in_answer_cells"] = _exercise()
    dunders = ATTACKS["dunders"]
    _cell(in_cells, "01.1", "answer").source = dunders[:dunders.index("class LiarList")]
    _cell(in_cells, "01.3", "answer").source = "raise SystemExit(0)\n"
    _cell(in_cells, "01.4", "answer").source = dunders[dunders.index("class LiarList"):]
    _cell(planted["attack_sysexit"], "01.4", "answer").source = ATTACKS["sysexit"]
    planted["attack_checks_edited"] = _attack(_GUESSES)
    for cell in [c for c in planted["attack_checks_edited"].cells
                 if c.metadata.get("role") == "check"]:
        if cell.metadata["question"] in ("01.1", "01.2"):
            cell.source = f'print("✓ {cell.metadata["question"]}: 2/2 points · correct")'
        else:
            planted["attack_checks_edited"].cells.remove(cell)
    if SANDBOX:  # unsandboxed, these would really read (or damage) the copies
        planted["attack_solutions"] = _attack(
            "import sys, glob, os\n"
            f"sys.path[:0] = [{str(root)!r}, os.path.abspath('..'), os.getcwd()]\n"
            "_found = []\n"
            "try:\n    import solutions\n    _found.append(solutions)\n"
            "except ImportError:\n    pass\n"
            f"for _p in [{str(solution_01)!r}, '../solutions/01_computational_graphs.py',\n"
            "           *glob.glob('/**/01_computational_graphs.py', recursive=False)]:\n"
            "    try:\n        _src = open(_p).read()\n    except OSError:\n        continue\n"
            "    _found.append(_p)\n"
            "    _src = _src.replace('### BEGIN SOLUTION', '').replace('### END SOLUTION', '')\n"
            "    _cells = _src.split('# %%')\n"
            "    for _c in _cells:\n"
            "        if 'role=\"answer\"' in _c:\n"
            "            exec(_c.split('\\n', 1)[1], globals())\n"
            "assert not _found, _found\n")
        planted["spy"] = _prefix(_prefix(_solution(), "01.1", LEAK_CHECK.format(
            attempt=f"open({str(solution_01)!r}).read()", what="solution")), "01.2",
            LEAK_CHECK.format(attempt=f"open({str(other)!r}).read()", what="submission"))
        planted["network"] = _prefix(_solution(), "01.3", LEAK_CHECK.format(
            attempt="__import__('socket').create_connection(('1.1.1.1', 53), timeout=3)",
            what="network"))
        planted["vandal"] = _vandal([solution_01, root / "coursekit/grading/grader.py",
                                     other, klass / "vandal" / "01_computational_graphs.ipynb"],
                                    out)
    for who, nb in planted.items():
        (klass / who).mkdir()
        name = {"planted03": lesson_files[2], "float_for_tensor": lesson_files[4],
                "wrong_shape": lesson_files[3]}.get(who, lesson_files[0]).name
        nbformat.write(nb, klass / who / name)
    (klass / "renamed").mkdir()  # the lesson comes from its question ids
    shutil.copy(ROOT / "solutions" / lesson_files[0].name, klass / "renamed" / "homework.ipynb")
    (klass / "corrupt").mkdir()
    (klass / "corrupt" / "01_computational_graphs.ipynb").write_text('{"cells": [', "utf-8")
    (klass / "stranger").mkdir()
    nbformat.write(nbformat.v4.new_notebook(), klass / "stranger" / "notes.ipynb")

    before = _hashes(root / "solutions", root / "coursekit", klass)
    stamps = {p: os.stat(p).st_mtime_ns for p in klass.rglob("*.ipynb")}
    run = _run([str(klass), "-j", "2", "--timeout", str(TIMEOUT), "--solutions",
                str(root / "solutions"), "--json", str(out / "report.json"),
                "--csv", str(out / "report.csv")], cwd=root)
    assert run.returncode == 0, run.stderr[-3000:]
    after = _hashes(root / "solutions", root / "coursekit", klass)
    alone_paths = [klass / "sol01" / lesson_files[0].name, klass / "renamed" / "homework.ipynb",
                   klass / "ex03" / lesson_files[2].name]
    alone = _run([*map(str, alone_paths), "--no-sandbox", "--json", "-", "--solutions",
                  str(root / "solutions")], cwd=root)
    assert alone.returncode == 0, alone.stderr[-3000:]
    data = json.loads((out / "report.json").read_text("utf-8"))
    return {"run": run, "data": data, "csv": (out / "report.csv").read_text("utf-8"),
            "before": before, "after": after, "out": out, "alone": alone,
            "stamps": stamps == {p: os.stat(p).st_mtime_ns for p in klass.rglob("*.ipynb")},
            "by_student": {n["student"]: n for n in data["notebooks"]}}


def _nb(batch, student):
    return batch["by_student"][student]


def _q(batch, student):
    return {q["id"]: q for q in _nb(batch, student)["questions"]}


def _full(q):
    return q["points"] == q["max"] and q["feedback"] == "correct"


# --- the reports ---------------------------------------------------------------------------

def test_json_report_has_the_documented_schema(batch):
    data = batch["data"]
    assert set(data) == {"grader_version", "sandboxed", "limits", "notebooks", "students",
                         "by_status", "score", "max_score"}
    assert data["sandboxed"] is SANDBOX
    assert data["limits"] == {"cell_timeout": TIMEOUT, "notebook_timeout": 600,
                              "memory": 4 << 30, "output_cap": 64 << 10}
    assert len(data["notebooks"]) == data["students"] >= 30
    for nb in data["notebooks"]:
        assert set(nb) == NOTEBOOK_KEYS
        assert nb["status"] in ("graded", "unreadable", "timeout", "crashed")
        assert nb["grader_version"] == data["grader_version"] and nb["sandboxed"] is SANDBOX
        assert datetime.fromisoformat(nb["started"]) <= datetime.fromisoformat(nb["finished"])
        for q in nb["questions"]:
            assert set(q) == {"id", "points", "max", "feedback"}
            assert 0 <= q["points"] <= q["max"] and isinstance(q["feedback"], str)
        assert nb["score"] == sum(q["points"] for q in nb["questions"])
    assert data["score"] == sum(nb["score"] for nb in data["notebooks"])
    assert sum(data["by_status"].values()) == len(data["notebooks"])


def test_csv_has_a_row_per_student_and_a_column_per_question(batch):
    rows = list(csv.reader(io.StringIO(batch["csv"])))
    head, body = rows[0], rows[1:]
    qids = sorted({q["id"] for nb in batch["data"]["notebooks"] for q in nb["questions"]})
    assert head == ["student", *qids, "total", "max", "status"]
    assert sorted(r[0] for r in body) == sorted(batch["by_student"])
    for row in body:
        nb = _nb(batch, row[0])
        points = {q["id"]: q["points"] for q in nb["questions"]}
        assert [float(x) for x in row[1:len(qids) + 1]] == [points.get(q, 0) for q in qids]
        assert float(row[-3]) == nb["score"] and float(row[-2]) == nb["max_score"]
        assert row[-1] == nb["status"]


def test_text_summary_says_first_whether_sandboxed(batch):
    lines = batch["run"].stdout.splitlines()
    assert lines[0].startswith("sandbox: on" if SANDBOX else "NOT SANDBOXED")
    assert all(s in batch["run"].stdout for s in batch["by_student"])
    total = batch["data"]
    assert lines[-1].endswith(f"{total['score']}/{total['max_score']} points")


def test_progress_is_one_line_per_notebook_without_a_terminal(batch):
    progress = [line for line in batch["run"].stderr.splitlines() if line.startswith("[")]
    assert len(progress) == len(batch["data"]["notebooks"])


def test_stdout_json_is_one_document_and_says_unsandboxed(batch):
    alone = batch["alone"]
    data = json.loads(alone.stdout)  # nothing else on stdout
    assert data["sandboxed"] is False and all(not n["sandboxed"] for n in data["notebooks"])
    assert alone.stderr.splitlines()[len(data["notebooks"])].startswith("NOT SANDBOXED")


def test_text_table_lists_every_question_and_the_total(batch):
    nb = _nb(batch, "sol01")
    text = table(nb)
    assert text.splitlines()[0] == nb["notebook"]
    assert all(q["id"] in text for q in nb["questions"])
    assert f"total: {nb['score']}/{nb['max_score']} (graded)" in text


# --- honest notebooks ----------------------------------------------------------------------

def test_solutions_get_full_marks(batch):
    sols = [n for s, n in batch["by_student"].items() if re.fullmatch(r"sol\d\d", s)]
    assert len(sols) == len(LESSON_NOTEBOOKS) >= 10
    for nb in sols:
        wrong = [(q["id"], q["points"], q["feedback"]) for q in nb["questions"]
                 if q["feedback"] != "correct"]
        assert nb["status"] == "graded" and nb["score"] == nb["max_score"] > 0, (
            nb["student"], nb["status"], nb.get("reason"), wrong)
        assert not wrong, (nb["student"], wrong)


def test_untouched_exercises_get_zero_with_feedback_everywhere(batch):
    exercises = [n for s, n in batch["by_student"].items() if re.fullmatch(r"ex\d\d", s)]
    assert len(exercises) == len(LESSON_NOTEBOOKS) >= 10
    for nb in exercises:
        assert nb["status"] == "graded" and nb["score"] == 0 and nb["max_score"] > 0
        for q in nb["questions"]:
            assert "NotImplementedError" in q["feedback"], q


def test_a_renamed_notebook_is_graded_by_its_question_ids(batch):
    assert _nb(batch, "renamed")["questions"] == _nb(batch, "sol01")["questions"]


def test_honest_scores_are_the_same_alone_and_in_the_batch(batch):
    alone = json.loads(batch["alone"].stdout)["notebooks"]
    assert [n["student"] for n in alone] == ["01_computational_graphs", "homework",
                                             "03_building_the_graph"]
    for nb, student in zip(alone, ("sol01", "renamed", "ex03")):
        assert nb["questions"] == _nb(batch, student)["questions"]
        assert nb["status"] == "graded"


# --- wrong answers (the grader's semantics) -----------------------------------------------

def test_syntax_error_scores_zero_with_the_error(batch):
    q = _q(batch, "planted01")["01.1"]
    assert q["points"] == 0 and q["feedback"].startswith("syntax error")


def test_deleted_check_cell_does_not_matter(batch):
    assert _q(batch, "planted01")["01.2"]["points"] == 2


def test_edited_check_cell_is_ignored_and_feedback_is_specific(batch):
    q = _q(batch, "planted01")["01.3"]
    assert q["points"] == 0
    assert "gradients of both paths add up" in q["feedback"]


def test_infinite_loop_times_out_and_only_costs_its_question(batch):
    q = _q(batch, "planted01")["01.4"]
    assert q["points"] == 0 and "timed out" in q["feedback"]
    assert _nb(batch, "planted01")["status"] == "timeout"


def test_exception_in_an_answer_scores_zero_with_the_error(batch):
    q = _q(batch, "planted03")["03.1"]
    assert q["points"] == 0 and "ZeroDivisionError" in q["feedback"]


def test_missing_answer_cell(batch):
    q = _q(batch, "planted03")["03.2"]
    assert q == {"id": "03.2", "points": 0, "max": 2, "feedback": "answer cell missing"}


def test_redefining_the_check_helpers_does_not_give_marks(batch):
    qs = _q(batch, "planted03")
    assert qs["03.3"]["points"] == 0
    assert "3x²" in qs["03.3"]["feedback"]
    assert _full(qs["03.4"])  # later questions are still graded


# --- hostile notebooks: each gets its status, and only its question suffers ----------------

@pytest.mark.parametrize("student, qid, status, words", [
    ("exit", "01.2", "crashed", "exited (status 3)"),
    ("segfault", "01.3", "crashed", "SIGSEGV"),
    ("loop", "01.4", "timeout", f"longer than the time limit ({TIMEOUT} s)"),
    ("forger", "01.1", "crashed", "malformed"),
])
def test_a_dead_or_stuck_kernel_costs_only_its_question(batch, student, qid, status, words):
    nb = _nb(batch, student)
    assert nb["status"] == status
    for q in nb["questions"]:
        if q["id"] == qid:
            assert q["points"] == 0 and words in q["feedback"], q
        else:
            assert _full(q), q  # the kernel restarted and the other answers were re-run


def test_a_print_flood_is_cut_and_never_reaches_the_report(batch):
    nb = _nb(batch, "flood")
    assert nb["status"] == "graded" and all(_full(q) for q in nb["questions"])
    assert "xxxxxxxx" not in batch["run"].stdout and "yyyyyyyy" not in batch["run"].stderr
    assert len(batch["run"].stdout) < 20000


def test_a_memory_hog_hits_the_memory_limit(batch):
    qs = _q(batch, "memhog")
    assert _nb(batch, "memhog")["status"] == "graded"
    assert qs["01.2"]["points"] == 0 and "MemoryError" in qs["01.2"]["feedback"]
    assert all(_full(q) for i, q in qs.items() if i != "01.2")


def test_the_learner_s_stdin_is_empty(batch):
    assert all(_full(q) for q in _nb(batch, "stdin")["questions"])


# --- forging the verdict: every attack gets the honest score ---------------------------------

@pytest.mark.parametrize("attack", [*ATTACKS, "checks_edited"])
def test_an_attack_on_an_untouched_exercise_scores_zero(batch, attack):
    nb = _nb(batch, f"attack_{attack}")
    assert nb["score"] == 0 and nb["max_score"] == 9, nb
    for q in nb["questions"]:
        assert q["points"] == 0 and q["feedback"] and "correct" not in q["feedback"], q


@pytest.mark.parametrize("attack", [*ATTACKS, "checks_edited"])
def test_an_attack_keeps_the_honest_feedback(batch, attack):
    """The untouched answer cells still raise: that is what each question says. Where the
    attack defines its own topo_order, 01.4 says what the observation really saw."""
    seen = {"dunders": "topo_order should return a list, not LiarList",
            "frames": "your order has 1 nodes, the graph has 6",  # the stack held nothing
            "sysexit": "SystemExit"}
    for q in _nb(batch, f"attack_{attack}")["questions"]:
        if attack in seen and q["id"] == "01.4":
            assert seen[attack] in q["feedback"], q
        else:
            assert "NotImplementedError" in q["feedback"], q


def test_lying_answers_in_the_answer_cells_are_named_not_believed(batch):
    qs = _q(batch, "attack_in_answer_cells")
    assert _nb(batch, "attack_in_answer_cells")["score"] == 0
    assert qs["01.1"]["feedback"] == "`a` should be a number or a tensor, not Liar", qs
    assert "LiarList" in qs["01.4"]["feedback"], qs["01.4"]
    assert "SystemExit" in qs["01.3"]["feedback"], qs["01.3"]


def test_a_patched_json_in_a_solution_changes_nothing(batch):
    assert all(_full(q) for q in _nb(batch, "forged_json")["questions"])


@needs(SANDBOX, "bubblewrap is not usable here")
def test_solutions_cannot_be_read_or_imported(batch):
    nb = _nb(batch, "attack_solutions")
    assert nb["score"] == 0, nb


# --- honest answers count, and the feedback says what is wrong ------------------------------

def test_answers_in_new_cells_and_in_equivalent_forms_get_full_marks(batch):
    assert all(_full(q) for q in _nb(batch, "honest_forms")["questions"])


def test_a_float_where_a_tensor_was_expected_is_named(batch):
    q = _q(batch, "float_for_tensor")["05.3"]
    assert q["points"] == 0 and "expected a tensor, got float" in q["feedback"], q


def test_a_tensor_of_the_wrong_shape_is_rejected(batch):
    q = _q(batch, "wrong_shape")["04.3"]
    assert q["points"] == 0 and "has shape [2, 1], expected [2]" in q["feedback"], q


def test_unreadable_and_foreign_notebooks_get_a_status(batch):
    corrupt, stranger = _nb(batch, "corrupt"), _nb(batch, "stranger")
    assert corrupt["status"] == stranger["status"] == "unreadable"
    assert corrupt["score"] == 0 and len(corrupt["questions"]) == 4
    assert all(q["feedback"].startswith("unreadable notebook") for q in corrupt["questions"])
    assert stranger["questions"] == []


def test_submissions_are_never_written(batch):
    assert batch["stamps"]
    assert {k: v for k, v in batch["after"].items() if "/class/" in k} \
        == {k: v for k, v in batch["before"].items() if "/class/" in k}


# --- the sandbox (where bubblewrap works) ----------------------------------------------------

needs_sandbox = needs(SANDBOX, "bubblewrap is not usable here")


@needs_sandbox
def test_solutions_and_other_submissions_cannot_be_read(batch):
    assert all(_full(q) for q in _nb(batch, "spy")["questions"])


@needs_sandbox
def test_there_is_no_network(batch):
    assert all(_full(q) for q in _nb(batch, "network")["questions"])


@needs_sandbox
def test_solutions_grader_and_submissions_cannot_be_damaged(batch):
    assert all(_full(q) for q in _nb(batch, "vandal")["questions"])
    assert batch["after"] == batch["before"]
    assert sorted(p.name for p in batch["out"].iterdir()) == ["report.csv", "report.json"]


# --- usage ------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["no/such/notebook.ipynb"], [], ["README.md"],
                                  ["exercises", "--solutions", "no/such/folder"],
                                  ["exercises", "--solutions", "exercises"],
                                  ["exercises", "-j", "0"], ["exercises", "--memory", "lots"],
                                  ["exercises", "--json", "-", "--csv", "-"],
                                  ["exercises", "--lesson", "1"], ["tests/engine"],
                                  ["exercises", "--json", "no/such/folder/r.json"]])
def test_usage_errors_exit_2_with_a_message(args, capsys):
    from coursekit.grading.__main__ import main
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        try:
            code = main(args)
        except SystemExit as exit_:  # argparse's own errors
            code = exit_.code
    finally:
        os.chdir(cwd)
    out = capsys.readouterr()
    assert code == 2
    assert out.err.strip() and out.out == ""


def test_usage_errors_from_the_command_line(tmp_path):
    run = _run(["no/such/notebook.ipynb"], cwd=ROOT, timeout=60)
    assert run.returncode == 2 and run.stdout == ""
    assert "no such file or folder: no/such/notebook.ipynb" in run.stderr


def test_without_a_solutions_folder_here_it_says_where_it_looked(tmp_path):
    """The grader finds the solutions in the current folder (or --solutions), never next to
    its own source: run elsewhere without --solutions, it stops and says what to do."""
    exercise = ROOT / "exercises" / "01_computational_graphs.ipynb"
    run = _run([str(exercise)], cwd=tmp_path, timeout=60, pythonpath=ROOT)
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
    run = _run([str(exercise), "--solutions", str(solutions), "--json"], cwd=tmp_path,
               timeout=300, pythonpath=ROOT)
    assert run.returncode == 0, run.stderr
    (nb,) = json.loads(run.stdout)["notebooks"]
    assert nb["score"] == 0
    first = nb["questions"][0]
    assert first["id"] == "01.1" and first["max"] == 12
