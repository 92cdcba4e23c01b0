"""Grade a learner's exercise notebook against its reference solution.

How it stays fair:

* The learner's notebook is only read. Its code cells run, one by one, in a fresh kernel (a
  subprocess), each with a time limit; a cell that runs too long is interrupted and only its
  question loses its points.
* The learner's copies of check cells are skipped (found by cell metadata, or by their
  ``question(`` call): the checks come from the solution source with the same lesson number in
  the solutions folder the caller names (``solutions/NN_slug.py``), hidden tests included, so
  exercises and grading cannot drift apart.
* Right after a question's answer cell, its checks run in a new namespace: the learner's
  variables, but ``question``, ``torch``, ``np`` and ``minigrad`` bound afresh, with
  ``coursekit.grading`` re-imported. The result comes back tagged with a random token.
"""

from __future__ import annotations

import ast
import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, DeadKernelError

DEFAULT_TIMEOUT = 60  # seconds per cell
ANSWER_COMMENT = re.compile(r"^#\s*Answer\s+(\d\d\.\d+)\b", re.IGNORECASE)
CHECK_CALL = re.compile(r"\bquestion\(\s*[\"'](\d\d\.\d+)[\"']")


@dataclass
class Check:
    id: str
    points: float
    source: str


@dataclass
class Result:
    path: str
    questions: list[dict] = field(default_factory=list)

    @property
    def score(self):
        return sum(q["points"] for q in self.questions)

    @property
    def max_score(self):
        return sum(q["max"] for q in self.questions)

    def as_dict(self) -> dict:
        return {"path": self.path, "questions": self.questions, "score": self.score,
                "max_score": self.max_score}


def solution_for(notebook: Path, solutions: Path) -> Path | None:
    """The solution source in ``solutions`` with the same lesson number (``01_*.py`` for
    ``01_foo.ipynb``), or None."""
    match = re.match(r"(\d\d)_", notebook.name)
    if not match:
        return None
    found = sorted(Path(solutions).glob(f"{match.group(1)}_*.py"))
    return found[0] if found else None


def load_checks(solution: Path) -> list[Check]:
    """The check cells of a solution, in order, hidden tests included."""
    checks = []
    for cell in jupytext.read(solution).cells:
        meta = cell.metadata
        if cell.cell_type == "code" and meta.get("role") == "check":
            checks.append(Check(meta["question"], meta.get("points", 1), cell.source))
    return checks


def role(cell) -> tuple[str | None, str | None]:
    """("answer" or "check" or None, question id) for a learner's cell."""
    meta = cell.get("metadata", {})
    if meta.get("role") in ("answer", "check") and meta.get("question"):
        return meta["role"], meta["question"]
    source = cell.source
    if CHECK_CALL.search(source):
        return "check", CHECK_CALL.search(source).group(1)
    first = source.lstrip().split("\n", 1)[0]
    if ANSWER_COMMENT.match(first):
        return "answer", ANSWER_COMMENT.match(first).group(1)
    return None, None


_RUNNER = '''\
def _grade_{token}(source, qid):
    import builtins, importlib, json, sys
    for name in [m for m in sys.modules if m.startswith("coursekit.grading")]:
        del sys.modules[name]
    checks = importlib.import_module("coursekit.grading.checks")
    import minigrad, numpy, torch
    ns = builtins.dict(builtins.globals())
    ns.update(question=checks.question, compare=checks.compare, torch=torch, np=numpy,
              minigrad=minigrad, __builtins__=builtins)
    builtins.exec(builtins.compile(source, "<check " + qid + ">", "exec"), ns)
    return "{token}" + json.dumps(checks.RESULTS.get(qid))
'''


def feedback_for_error(ename: str, evalue: str, where: str) -> str:
    if ename == "NotImplementedError":
        return "not answered yet: your answer cell still raises NotImplementedError"
    if ename == "SyntaxError" or ename == "IndentationError":
        return f"syntax error in {where}: {evalue}"
    if ename == "TimeoutError":
        return f"timed out: {where} ran longer than the time limit (an infinite loop?)"
    return f"{where} raised {ename}: {evalue}"


class Grader:
    """Runs one notebook in one kernel; ``grade()`` returns a ``Result``."""

    def __init__(self, path: Path, solution: Path, timeout: float = DEFAULT_TIMEOUT):
        self.path, self.solution, self.timeout = Path(path), Path(solution), timeout
        self.token = "GRADE" + secrets.token_hex(8)
        self.work = nbformat.v4.new_notebook()
        self.client = None

    def run(self, source: str):
        """Execute ``source`` in the kernel: (outputs, (ename, evalue) or None)."""
        cell = nbformat.v4.new_code_cell(source)
        self.work.cells.append(cell)
        try:
            self.client.execute_cell(cell, len(self.work.cells) - 1)
        except CellExecutionError as error:
            return cell.outputs, (error.ename, error.evalue)
        except DeadKernelError:
            return cell.outputs, ("DeadKernelError", "the kernel died")
        return cell.outputs, None

    def check(self, check: Check) -> dict:
        call = f"_grade_{self.token}({check.source!r}, {check.id!r})"
        outputs, error = self.run(call)
        if error:
            feedback = feedback_for_error(*error, "checking your answer")
            return {"points": 0, "feedback": feedback}
        for out in outputs:
            if out.get("output_type") == "execute_result":
                text = ast.literal_eval(out["data"]["text/plain"])
                if text.startswith(self.token):
                    found = json.loads(text[len(self.token):])
                    if found:
                        return {"points": found["points"], "feedback": found["feedback"]}
        return {"points": 0, "feedback": "the checks gave no result"}

    def grade(self) -> Result:
        learner = nbformat.read(self.path, as_version=4)
        checks = {c.id: c for c in load_checks(self.solution)}
        results: dict[str, dict] = {}
        self.client = NotebookClient(
            self.work, timeout=self.timeout, kernel_name="python3", interrupt_on_timeout=True,
            error_on_timeout={"ename": "TimeoutError", "evalue": "timed out", "traceback": []},
            resources={"metadata": {"path": str(self.path.parent.resolve())}})
        with self.client.setup_kernel():
            self.run(_RUNNER.format(token=self.token))
            for cell in learner.cells:
                if cell.cell_type != "code":
                    continue
                kind, qid = role(cell)
                if kind == "check":
                    continue  # the grader runs its own copy of the checks
                _, error = self.run(cell.source)
                if kind != "answer" or qid not in checks:
                    continue
                if error:
                    results[qid] = {"points": 0,
                                    "feedback": feedback_for_error(*error, "your answer cell")}
                else:
                    results[qid] = self.check(checks[qid])
        questions = []
        for qid, check in checks.items():
            found = results.get(qid, {"points": 0, "feedback": "answer cell missing"})
            questions.append({"id": qid, "points": found["points"], "max": check.points,
                              "feedback": found["feedback"]})
        return Result(str(self.path), questions)


def grade(path, solutions, timeout: float = DEFAULT_TIMEOUT) -> Result:
    """Grade the notebook ``path`` with the checks of its solution in the folder ``solutions``."""
    path = Path(path)
    solution = solution_for(path, solutions)
    if solution is None:
        raise FileNotFoundError(f"no solution in {solutions} matches {path.name}")
    return Grader(path, solution, timeout).grade()
