"""``python -m coursekit.grading PATH... [-j N] [--json FILE] [--csv FILE] [limits...]``

Grades a whole class at once. Each PATH is a notebook, a flat folder of notebooks (student id:
the file's stem) or a class folder with one subfolder per student (student id: the subfolder's
name; every notebook under it is graded). A notebook is graded with the checks (hidden tests
included) of the solution with the same lesson number in ``--solutions DIR`` (default:
``solutions`` in the current folder), the number read from the file name (``01_*.ipynb``) or
else from its question ids or ``--lesson NN``.

Notebooks run in parallel (``-j``), each in its own grading child (sandboxed with bubblewrap
where it works), and grading never aborts: every notebook gets a status (graded, unreadable,
timeout, crashed) and its points. Prints a summary table (its first line says whether the
notebooks ran sandboxed); ``--json FILE`` (``-`` for stdout) and ``--csv FILE`` write the report.
Exits 0 whenever grading ran, whatever the scores; 2 for usage errors.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coursekit.grading.grader import (
    DEFAULT_TIMEOUT,
    GRADER_VERSION,
    Result,
    grade,
    printable,
)
from coursekit.grading.runner import (
    DEFAULT_MEMORY,
    DEFAULT_NOTEBOOK_TIMEOUT,
    DEFAULT_OUTPUT_CAP,
    Limits,
    sandbox_available,
)

PROG = "python -m coursekit.grading"
DEFAULT_SOLUTIONS = "solutions"
SKIPPED = (".ipynb_checkpoints",)
STATUSES = ("graded", "unreadable", "timeout", "crashed")


class UsageError(Exception):
    """A bad command line: the message is printed and the exit status is 2."""


def solutions_folder(path: str) -> Path:
    """The solutions folder; raises ``UsageError`` with a clear message."""
    folder = Path(path)
    if not folder.is_dir():
        hint = (" (run this from the course's root folder, or pass --solutions DIR)"
                if path == DEFAULT_SOLUTIONS else "")
        raise UsageError(f"no solutions folder at {folder.resolve()}{hint}")
    if not any(folder.glob("[0-9][0-9]_*.py")):
        raise UsageError(f"no solution sources (NN_*.py) in {folder.resolve()}")
    return folder


def _notebooks_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.ipynb")
                  if p.is_file() and not any(part in SKIPPED for part in p.parts))


def submissions(paths: list[str]) -> list[tuple[str, Path]]:
    """(student id, notebook) pairs for the PATHs; raises ``UsageError``."""
    found = []
    for p in map(Path, paths):
        if p.is_dir():
            inside = [(nb.stem, nb) for nb in sorted(p.glob("*.ipynb")) if nb.is_file()]
            for sub in sorted(p.iterdir()):
                if sub.is_dir() and not sub.name.startswith(".") and sub.name not in SKIPPED:
                    inside += [(sub.name, nb) for nb in _notebooks_under(sub)]
            if not inside:
                raise UsageError(f"no notebooks (*.ipynb) in {p}")
            found += inside
        elif p.is_file():
            if p.suffix != ".ipynb":
                raise UsageError(f"{p} is not a notebook (*.ipynb)")
            found.append((p.stem, p))
        else:
            raise UsageError(f"no such file or folder: {p}")
    seen, unique = set(), []
    for student, nb in found:  # a notebook named twice (a file and its folder) is graded once
        key = nb.parent.resolve() / nb.name  # not through a symlinked file: a student's link to
        if key not in seen:                  # another's notebook must not hide theirs
            seen.add(key)
            unique.append((student, nb))
    return unique


def size(text: str) -> int:
    """``4G``, ``512M``, ``64K`` or a number of bytes."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 4G, 512M, 65536)")
    power = " KMGT".index(match.group(2).upper() or " ")
    return int(float(match.group(1)) * 1024 ** power)


def positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1
    if not value > 0:
        raise argparse.ArgumentTypeError(f"not a positive number: {text!r}")
    return value


def jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    return int(text)


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def table(result: dict) -> str:
    """One notebook's questions: points, max and feedback, then its total."""
    rows = [(q["id"], _num(q["points"]), _num(q["max"]), q["feedback"])
            for q in result["questions"]]
    head = ("question", "points", "max", "feedback")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(3)]
    lines = [printable(result["notebook"])]
    for row in [head, *rows]:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(row[:3], widths))
                     + "  " + row[3])
    lines.append(f"  total: {_num(result['score'])}/{_num(result['max_score'])}"
                 f" ({result['status']})")
    return "\n".join(lines)


def sandbox_line(sandboxed: bool) -> str:
    if sandboxed:
        return ("sandbox: on (bubblewrap: only the system and Python visible, read-only; "
                "no network; solutions and submissions out of sight)")
    return ("NOT SANDBOXED: bubblewrap is missing or refused here, so the notebooks ran in "
            "separate processes on temporary copies, with the learner's full file access")


def summary(report: dict) -> str:
    """The terminal summary: one line per notebook, then the totals."""
    rows = [(printable(n["student"]), printable(Path(n["notebook"]).name), n["status"],
             f"{_num(n['score'])}/{_num(n['max_score'])}") for n in report["notebooks"]]
    head = ("student", "notebook", "status", "points")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
              for row in [head, *rows]]
    counts = ", ".join(f"{report['by_status'][s]} {s}" for s in STATUSES
                       if report["by_status"][s])
    lines.append(f"{len(rows)} notebooks ({counts}): "
                 f"{_num(report['score'])}/{_num(report['max_score'])} points")
    return "\n".join(lines)


def _qkey(qid: str):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", qid)]


def _cell_text(text: str) -> str:
    """A text cell a spreadsheet shows as text: a student id (a file or folder name the student
    may choose) starting with ``=``, ``+``, ``-`` or ``@`` would be run as a formula when the
    teacher opens the CSV, so it gets a leading apostrophe."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def to_csv(report: dict) -> str:
    """One row per student: a column per question id, then total, max and status.

    A student with two notebooks answering the same question (``01_graphs.ipynb`` and
    ``01_graphs (1).ipynb``) is never paid twice: that question counts once, with the better
    of the two scores, and the row's status says ``duplicate`` so the teacher looks."""
    students: dict[str, dict] = {}
    for nb in report["notebooks"]:
        row = students.setdefault(nb["student"], {"points": {}, "max": {}, "status": []})
        for q in nb["questions"]:
            if q["id"] in row["points"]:
                row["status"].append("duplicate")
            row["points"][q["id"]] = max(row["points"].get(q["id"], 0), q["points"])
            row["max"][q["id"]] = max(row["max"].get(q["id"], 0), q["max"])
        row["status"].append(nb["status"])
    qids = sorted({q for row in students.values() for q in row["points"]}, key=_qkey)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", *qids, "total", "max", "status"])
    for student, row in students.items():
        bad = sorted(set(row["status"]) - {"graded"})
        writer.writerow([_cell_text(student), *(_num(row["points"].get(q, 0)) for q in qids),
                         _num(sum(row["points"].values())), _num(sum(row["max"].values())),
                         " ".join(bad) or "graded"])
    return out.getvalue()


class Progress:
    """A bar on stderr when it is a terminal, else one line per finished notebook."""

    def __init__(self, total: int):
        self.total, self.done, self.lock = total, 0, threading.Lock()
        self.tty = sys.stderr.isatty()
        if self.tty:
            self._bar("")

    def _bar(self, last: str) -> None:
        filled = 30 * self.done // max(self.total, 1)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} "
                         f"{last[:40]:<40}")
        sys.stderr.flush()

    def finished(self, result: dict) -> None:
        with self.lock:
            self.done += 1
            if self.tty:
                self._bar(printable(result["student"]))
                if self.done == self.total:
                    sys.stderr.write("\n")
            else:
                print(f"[{self.done}/{self.total}] {printable(result['student'])} "
                      f"{printable(Path(result['notebook']).name)}: {result['status']} "
                      f"{_num(result['score'])}/{_num(result['max_score'])}",
                      file=sys.stderr, flush=True)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Grade exercise notebooks.")
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a notebook, a folder of notebooks, or a class folder "
                             "(one subfolder per student)")
    parser.add_argument("-j", "--jobs", type=jobs, default=os.cpu_count() or 1, metavar="N",
                        help="notebooks graded at once (default: the number of cores)")
    parser.add_argument("--json", nargs="?", const="-", metavar="FILE",
                        help="write the report as JSON to FILE (- or nothing: stdout)")
    parser.add_argument("--csv", metavar="FILE", help="write one row per student to FILE "
                                                      "(- for stdout)")
    parser.add_argument("--timeout", type=positive, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"time limit per cell (default {DEFAULT_TIMEOUT})")
    parser.add_argument("--notebook-timeout", type=positive, default=DEFAULT_NOTEBOOK_TIMEOUT,
                        metavar="SECONDS", help="time limit per notebook, restarts included "
                                                f"(default {DEFAULT_NOTEBOOK_TIMEOUT:g})")
    parser.add_argument("--memory", type=size, default=DEFAULT_MEMORY, metavar="SIZE",
                        help="address-space limit of each kernel, e.g. 4G; 0: none "
                             f"(default {DEFAULT_MEMORY >> 30}G)")
    parser.add_argument("--output-cap", type=size, default=DEFAULT_OUTPUT_CAP, metavar="SIZE",
                        help="learner output kept per kernel, the rest is dropped "
                             f"(default {DEFAULT_OUTPUT_CAP >> 10}K)")
    parser.add_argument("--solutions", default=DEFAULT_SOLUTIONS, metavar="DIR",
                        help="the reference solutions (NN_slug.py, hidden tests included) "
                             f"(default: ./{DEFAULT_SOLUTIONS})")
    parser.add_argument("--lesson", metavar="NN", help="the lesson of notebooks whose name "
                        "and questions do not say it (e.g. 01)")
    parser.add_argument("--details", action="store_true",
                        help="also print every notebook's questions and feedback")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="do not use bubblewrap even where it works")
    return parser


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        solutions = solutions_folder(args.solutions)
        found = submissions(args.paths)
        if args.json == "-" and args.csv == "-":
            raise UsageError("--json and --csv cannot both write to stdout")
        if args.lesson is not None and not re.fullmatch(r"\d\d", args.lesson):
            raise UsageError(f"--lesson takes a two-digit lesson number, not {args.lesson!r}")
        outputs = [Path(f) for f in (args.json, args.csv) if f not in (None, "-")]
        for out in outputs:
            if not out.resolve().parent.is_dir():
                raise UsageError(f"cannot write {out}: no folder {out.resolve().parent}")
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    limits = Limits(args.timeout, args.notebook_timeout, args.memory, args.output_cap)
    sandbox = False if args.no_sandbox else sandbox_available()
    hidden = [Path(p).resolve() if Path(p).is_dir() else Path(p).resolve().parent
              for p in args.paths] + [out.resolve().parent for out in outputs]
    progress = Progress(len(found))

    def one(item):
        student, path = item
        try:
            result = grade(path, solutions, limits=limits, hidden=hidden, student=student,
                           sandbox=sandbox, lesson=args.lesson).as_dict()
        except Exception as error:  # noqa: BLE001 - a grader bug costs one notebook, not all
            result = Result(student, str(path), "crashed", sandboxed=sandbox).as_dict()
            result["questions"] = [{"id": "grader", "points": 0, "max": 0,
                                    "feedback": f"the grader failed: {error!r}"[:1000]}]
        progress.finished(result)
        return result

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, found))
    by_status = {s: sum(r["status"] == s for r in results) for s in STATUSES}
    report = {"grader_version": GRADER_VERSION, "sandboxed": sandbox,
              "limits": {"cell_timeout": limits.cell_timeout,
                         "notebook_timeout": limits.notebook_timeout,
                         "memory": limits.memory, "output_cap": limits.output_cap},
              "notebooks": results, "students": len({r["student"] for r in results}),
              "by_status": by_status, "score": sum(r["score"] for r in results),
              "max_score": sum(r["max_score"] for r in results)}
    text = summary(report)
    if args.details or len(results) == 1:
        text = "\n\n".join([*(table(r) for r in results), text])
    text = sandbox_line(sandbox) + "\n\n" + text
    if args.json is not None:
        document = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        _write(args.json, document)
    if args.csv is not None:
        _write(args.csv, to_csv(report))
    print(text, file=sys.stderr if "-" in (args.json, args.csv) else sys.stdout)
    return 0


def _write(target: str, text: str) -> None:
    if target == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        Path(target).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
