"""``python -m coursekit.grading PATH... [--json] [--timeout SECONDS] [--solutions DIR]``

Grades each notebook given, or every ``NN_*.ipynb`` in a folder given, with the checks (hidden
tests included) of the solution with the same lesson number in ``--solutions DIR`` (default:
``solutions`` in the current folder, i.e. run it from the course's root folder). Prints a table
per notebook (question, points, max, feedback) and the total, or with ``--json`` one JSON
object. Exits 0 whenever grading ran, whatever the score; 2 for usage errors (no such path, no
solutions folder).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from coursekit.grading.grader import DEFAULT_TIMEOUT, grade, solution_for

PROG = "python -m coursekit.grading"
DEFAULT_SOLUTIONS = "solutions"


def solutions_folder(path: str) -> Path:
    """The solutions folder; raises ``FileNotFoundError`` with a clear message."""
    folder = Path(path)
    if not folder.is_dir():
        hint = (" (run this from the course's root folder, or pass --solutions DIR)"
                if path == DEFAULT_SOLUTIONS else "")
        raise FileNotFoundError(f"no solutions folder at {folder.resolve()}{hint}")
    if not any(folder.glob("[0-9][0-9]_*.py")):
        raise FileNotFoundError(f"no solution sources (NN_*.py) in {folder.resolve()}")
    return folder


def notebooks(paths: list[str], solutions: Path) -> list[Path]:
    """The notebooks named by ``paths``; raises ``FileNotFoundError`` with a clear message."""
    found = []
    for p in map(Path, paths):
        if p.is_dir():
            inside = sorted(p.glob("[0-9][0-9]_*.ipynb"))
            if not inside:
                raise FileNotFoundError(f"no exercise notebooks (NN_*.ipynb) in {p}")
            found += inside
        elif p.is_file():
            found.append(p)
        else:
            raise FileNotFoundError(f"no such file or folder: {p}")
    for nb in found:
        if solution_for(nb, solutions) is None:
            raise FileNotFoundError(f"{nb} is not a course exercise (no solution in "
                                    f"{solutions} has its lesson number)")
    return found


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def table(result: dict) -> str:
    rows = [(q["id"], _num(q["points"]), _num(q["max"]), q["feedback"])
            for q in result["questions"]]
    head = ("question", "points", "max", "feedback")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(3)]
    lines = [result["path"]]
    for row in [head, *rows]:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(row[:3], widths))
                     + "  " + row[3])
    lines.append(f"  total: {_num(result['score'])}/{_num(result['max_score'])}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description="Grade exercise notebooks.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a notebook or a folder")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help=f"time limit per cell in seconds (default {DEFAULT_TIMEOUT})")
    parser.add_argument("--solutions", default=DEFAULT_SOLUTIONS, metavar="DIR",
                        help="the reference solutions (NN_slug.py, hidden tests included) "
                             f"(default: ./{DEFAULT_SOLUTIONS})")
    args = parser.parse_args(argv)
    try:
        solutions = solutions_folder(args.solutions)
        paths = notebooks(args.paths, solutions)
    except FileNotFoundError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    results = [grade(p, solutions, timeout=args.timeout).as_dict() for p in paths]
    report = {"notebooks": results, "score": sum(r["score"] for r in results),
              "max_score": sum(r["max_score"] for r in results)}
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print("\n\n".join(table(r) for r in results))
        if len(results) > 1:
            print(f"\nall notebooks: {_num(report['score'])}/{_num(report['max_score'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
