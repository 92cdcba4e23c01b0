"""Time ``python -m coursekit.grading`` on a generated class: 30 submissions of exercise 01.

Each student folder holds a copy of ``exercises/01_computational_graphs.ipynb`` with some of
the answer cells taken from the solution (student k answers the first k % 5 questions), so the
class mixes zero, partial and full marks. Run from the repository's root::

    .venv/bin/python benchmarks/grade_class.py [-j 2] [--students 30]

It prints the wall time of the whole run and the score distribution; README.md ("Grading a
class") quotes the figure.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NAME = "01_computational_graphs.ipynb"


def make_class(folder: Path, students: int) -> None:
    exercise = nbformat.read(ROOT / "exercises" / NAME, as_version=4)
    solution = nbformat.read(ROOT / "solutions" / NAME, as_version=4)
    answers = {c.metadata["question"]: c.source for c in solution.cells
               if c.metadata.get("role") == "answer"}
    order = sorted(answers)
    for k in range(students):
        nb = nbformat.from_dict(json.loads(nbformat.writes(exercise)))
        solved = set(order[:k % (len(order) + 1)])
        for cell in nb.cells:
            if cell.metadata.get("role") == "answer" and cell.metadata["question"] in solved:
                cell.source = answers[cell.metadata["question"]]
        (folder / f"student{k:02d}").mkdir(parents=True)
        nbformat.write(nb, folder / f"student{k:02d}" / NAME)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-j", "--jobs", default="2")
    parser.add_argument("--students", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        klass = Path(tmp) / "class"
        make_class(klass, args.students)
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "coursekit.grading", str(klass), "-j",
                              args.jobs, "--json", "-"], cwd=ROOT, capture_output=True,
                             text=True, check=True)
        elapsed = time.perf_counter() - start
    report = json.loads(run.stdout)
    scores = sorted(n["score"] for n in report["notebooks"])
    print(f"{len(scores)} notebooks, -j {args.jobs}, sandboxed={report['sandboxed']}: "
          f"{elapsed:.1f} s ({elapsed / len(scores):.2f} s per notebook)")
    print(f"statuses: {report['by_status']}; scores: {scores}")


if __name__ == "__main__":
    main()
