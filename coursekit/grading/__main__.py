"""``python -m coursekit.grading PATH... [-j N] [--json FILE] [--csv FILE] [limits...]``

Grades a whole class at once. Each PATH is a notebook, a flat folder of notebooks (student id:
the file's stem) or a class folder with one subfolder per student (student id: the subfolder's
name; every notebook under it is graded). A notebook is graded with the checks (hidden tests
included) of the solution with the same lesson number in ``--solutions DIR`` (default:
``solutions`` in the current folder), the number read from the file name (``01_*.ipynb``) or
else from its question ids or ``--lesson NN``.

Notebooks run in parallel (``-j``), each graded in a worker process of its own
(``coursekit.grading.worker``) whose kernel is a grading child sandboxed with bubblewrap where
it works, and grading never aborts: every notebook gets a status (graded, unreadable,
timeout, crashed) and its points. Prints a summary table (its first line says whether the
notebooks ran sandboxed); ``--json FILE`` (``-`` for stdout) and ``--csv FILE`` write the report.
Exits 0 whenever grading ran, whatever the scores; 2 for usage errors.

A submission is what the student wrote (``walk``): each PATH is resolved once (the teacher's
own links), nothing below it is followed through a symbolic link (a link named ``*.ipynb`` or to
a folder is listed as ``unreadable``, and ``read_submission`` opens every folder again with
``O_NOFOLLOW``), a name that is not UTF-8 is ``unreadable`` under its escaped name, and each
student folder has an id of its own (two never share a row). The writers escape and bound every
string (``_clean``) and replace a report only by a complete one (``_write``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import math
import os
import re
import stat
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from coursekit.grading.grader import (
    DEFAULT_TIMEOUT,
    GRADER_VERSION,
    MAX_NAME,
    MAX_PATH,
    Result,
    bounded,
    load_checks,
    printable,
    solution_for,
)
from coursekit.grading.runner import (
    DEFAULT_MEMORY,
    DEFAULT_NOTEBOOK_TIMEOUT,
    DEFAULT_OUTPUT_CAP,
    Limits,
    sandbox_available,
)
from coursekit.grading.worker import grade_in_worker

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


# Why an entry of a class folder is not graded (the feedback reads "unreadable notebook:
# NotANotebook (...)", as for the same refusal in ``read_submission``).
LINK_FILE = "a symbolic link, not a file"
LINK_FOLDER = "a symbolic link to a folder, not followed"
NOT_REGULAR = "not a regular file"
NOT_UTF8 = "its name, or a folder's above it, is not UTF-8"
MAX_ID = MAX_NAME - 20  # room for the " (2)" that keeps two students apart


class Entry(NamedTuple):
    """A notebook to grade, or one refused without grading (``refused`` says why)."""
    student: str  # the id in the reports: unique per student folder, escaped, bounded
    path: Path
    refused: str = ""


def _not_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # Python decoded the name's bytes with surrogateescape
        return True
    return False


def _scan(folder: Path) -> list[os.DirEntry]:
    with os.scandir(folder) as entries:
        return sorted(entries, key=lambda e: e.name)


def _link(entry: os.DirEntry) -> str:
    """Why a symbolic link in a class folder is refused; "" for a link to something that is
    neither a notebook nor a folder (a link to a data file is not a submission)."""
    if entry.name.endswith(".ipynb"):
        return LINK_FILE
    return LINK_FOLDER if os.path.isdir(entry.path) else ""


def _notebooks_in(folder: Path) -> list[tuple[Path, str]]:
    """The notebooks under a student's folder, with why each is refused ("" when it is not).
    No link is followed: a link named ``*.ipynb`` or to a folder is listed, refused."""
    found, todo = [], [folder]
    while todo:  # not recursive: a student may nest folders deeper than Python's stack
        current = todo.pop()
        try:
            entries = _scan(current)
        except OSError as error:
            found.append((current, f"a folder the grader cannot list ({error.strerror})"))
            continue
        for entry in entries:
            if entry.name in SKIPPED:
                continue
            path = Path(entry.path)
            if entry.is_symlink():
                if _link(entry):
                    found.append((path, _link(entry)))
            elif entry.is_dir(follow_symlinks=False):
                todo.append(path)
            elif entry.name.endswith(".ipynb"):
                found.append((path, "" if entry.is_file(follow_symlinks=False) else NOT_REGULAR))
    return sorted(found)


def _root(path: Path) -> Path:
    """The folder as typed when no link is on it, else its real path: the links in the path a
    teacher types are followed here, once; below it none is (``read_submission``)."""
    real = Path(os.path.realpath(path))
    return path if real == Path(os.path.abspath(path)) else real


def _walk_folder(root: Path) -> list[tuple[tuple, str, Path, str]]:
    """(student key, name, notebook, refused) for a folder PATH: its notebooks (student: the
    file's stem) and its subfolders (student: the subfolder's name; a link to a folder is one
    refused entry, so the student it names still appears)."""
    real, found = os.path.realpath(root), []
    for entry in _scan(root):
        path, name = root / entry.name, entry.name
        if entry.is_symlink():
            if _link(entry) == LINK_FILE:
                found.append((("file", real, name), path.stem, path, LINK_FILE))
            elif _link(entry) and not name.startswith("."):
                found.append((("folder", real, name), name, path, LINK_FOLDER))
        elif entry.is_dir(follow_symlinks=False):
            if not name.startswith(".") and name not in SKIPPED:
                found += [(("folder", real, name), name, nb, why)
                          for nb, why in _notebooks_in(path)]
        elif name.endswith(".ipynb"):
            why = "" if entry.is_file(follow_symlinks=False) else NOT_REGULAR
            found.append((("file", real, name), path.stem, path, why))
    found = [(key, name, nb, why or _utf8(nb.relative_to(root))) for key, name, nb, why in found]
    return sorted(found, key=lambda f: (f[0][0] != "file", f[2]))  # notebooks, then folders


def _utf8(below: Path) -> str:
    """``NOT_UTF8`` when a name below the PATH is not UTF-8, else "": such a name is reported
    escaped (``\\xff``), never graded under a name the reports could not write."""
    return NOT_UTF8 if any(map(_not_utf8, below.parts)) else ""


def _ids(found) -> dict[tuple, str]:
    """A student id per student key: the name escaped and bounded; two students whose ids
    would be the same (escaped or cut alike, or a folder and a notebook of the same name) get
    " (2)", " (3)"... in the order folders first, so they never merge into one row."""
    ids, used, nth = {}, set(), {}
    students = dict.fromkeys((key, name) for key, name, _, _ in found)  # in order, once each
    for key, name in sorted(students, key=lambda student: student[0][0] != "folder"):
        base = printable(name, MAX_ID)
        student = base
        while student in used:
            nth[base] = nth.get(base, 1) + 1
            student = f"{base} ({nth[base]})"
        ids[key] = student
        used.add(student)
    return ids


def walk(paths: list[str]) -> list[Entry]:
    """The entries for the PATHs (``submissions``, with why some are not graded); raises
    ``UsageError``. Nothing below a PATH that is a link is followed, a name that is not UTF-8
    is refused, and a notebook named twice (a file and its folder) is listed once."""
    found = []
    for p in map(Path, paths):
        if p.is_dir():
            inside = _walk_folder(_root(p))
            if not inside:
                raise UsageError(f"no notebooks (*.ipynb) in {p}")
            found += inside
        elif p.suffix == ".ipynb" and (p.is_file() or p.is_symlink()):
            path = _root(p.parent) / p.name  # typed, or a glob of students' names: no link
            key = ("file", os.path.realpath(path.parent), p.name)
            found.append((key, p.stem, path,
                          LINK_FILE if p.is_symlink() else _utf8(Path(p.name))))
        elif p.is_file():
            raise UsageError(f"{p} is not a notebook (*.ipynb)")
        else:
            raise UsageError(f"no such file or folder: {p}")
    ids, seen, entries = _ids(found), set(), []
    for key, _, nb, why in found:
        place = (os.path.realpath(nb.parent), nb.name)  # no link below the PATHs is followed
        if place not in seen:
            seen.add(place)
            entries.append(Entry(ids[key], nb, why))
    return entries


def submissions(paths: list[str]) -> list[tuple[str, Path]]:
    """(student id, notebook) pairs for the PATHs, refused ones included; raises
    ``UsageError``."""
    return [(e.student, e.path) for e in walk(paths)]


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


SHOWN_NAME = 80  # characters of a student id or notebook name in the terminal summary
SHOWN_FEEDBACK = 500  # characters of a question's feedback in the terminal table


def table(result: dict) -> str:
    """One notebook's questions: points, max and feedback, then its total."""
    rows = [(printable(str(q["id"]), SHOWN_NAME), _num(q["points"]), _num(q["max"]),
             printable(str(q["feedback"]), SHOWN_FEEDBACK)) for q in result["questions"]]
    head = ("question", "points", "max", "feedback")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(3)]
    lines = [printable(str(result["notebook"]), MAX_PATH)]
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
    rows = [(printable(str(n["student"]), SHOWN_NAME),
             printable(Path(str(n["notebook"])).name, SHOWN_NAME), printable(str(n["status"]), 20),
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


FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n")


def _cell_text(text: str, limit: int = MAX_NAME) -> str:
    """A text cell a spreadsheet shows as text, on one line: a student id (a file or folder
    name the student may choose) is escaped (``printable``: a carriage return or a newline in it
    would start a row of its own) and bounded, and one starting with ``=``, ``+``, ``-`` or
    ``@`` (after spaces) would be run as a formula when the teacher opens the CSV, so it gets a
    leading apostrophe, which spreadsheets hide; so does one starting with an apostrophe, so
    the cell shows the id as it is (``'=1`` and ``''=1`` are two students)."""
    text = printable(str(text), limit)
    return "'" + text if text.lstrip(" ")[:1] in FORMULA or text[:1] in ("'", *FORMULA) \
        else text


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
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)  # RFC 4180
    writer.writerow(["student", *map(_cell_text, qids), "total", "max", "status"])
    for student, row in students.items():
        bad = sorted(set(row["status"]) - {"graded"})
        writer.writerow([_cell_text(student), *(_num(row["points"].get(q, 0)) for q in qids),
                         _num(sum(row["points"].values())), _num(sum(row["max"].values())),
                         _cell_text(" ".join(bad) or "graded")])
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
                self._bar(printable(str(result["student"]), SHOWN_NAME))
                if self.done == self.total:
                    sys.stderr.write("\n")
            else:
                print(f"[{self.done}/{self.total}] "
                      f"{printable(str(result['student']), SHOWN_NAME)} "
                      f"{printable(Path(str(result['notebook'])).name, SHOWN_NAME)}: "
                      f"{printable(str(result['status']), 20)} "
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
        entries = walk(args.paths)
        found = [(e.student, e.path) for e in entries if not e.refused]  # the rest: refused()
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
    progress = Progress(len(entries))  # the refused ones count at the end

    def one(item):
        student, path = item
        try:
            result = grade_in_worker(path, solutions, limits=limits, hidden=hidden,
                                     student=student, sandbox=sandbox, lesson=args.lesson)
        except Exception as error:  # noqa: BLE001 - a grader bug costs one notebook, not all
            result = Result(student, str(path), "crashed", sandboxed=sandbox).as_dict()
            result["questions"] = [{"id": "grader", "points": 0, "max": 0,
                                    "feedback": f"the grader failed: {error!r}"[:1000]}]
        progress.finished(result)
        return result

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, found))
    results = _in_order(entries, results, solutions, args.lesson, sandbox, progress)
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
    text = sandbox_line(sandbox) + "\n\n" + text + _refusals(entries)
    documents = []  # both made before either is written: a failure leaves both old reports
    if args.json is not None:
        documents.append((args.json, json.dumps(report, indent=2, ensure_ascii=False,
                                                allow_nan=False) + "\n"))
    if args.csv is not None:
        documents.append((args.csv, to_csv(report)))
    for target, document in documents:
        _write(target, document)
    _say(text, sys.stderr if "-" in (args.json, args.csv) else sys.stdout)
    return 0


def refused(entry: Entry, solutions: Path, lesson: str | None, sandbox: bool) -> dict:
    """The report entry of a notebook refused without grading: ``unreadable``, 0 points for
    each question of its lesson when its name or ``--lesson`` says which (else none)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    result = Result(entry.student, str(entry.path), "unreadable", started=now,
                    finished=now, sandboxed=sandbox)
    solution = solution_for(entry.path, solutions, lesson)
    result.questions = [{"id": c.id, "points": 0, "max": c.points,
                         "feedback": f"unreadable notebook: NotANotebook ({entry.refused})"}
                        for c in (load_checks(solution) if solution else [])]
    return result.as_dict()


def _in_order(entries, results, solutions, lesson, sandbox, progress) -> list[dict]:
    """The graded results and the refused entries' in the walk's order, each ``_clean``."""
    graded, done = iter(results), []
    for entry in entries:
        if entry.refused:
            done.append(refused(entry, solutions, lesson, sandbox))
            progress.finished(done[-1])
        else:
            done.append(next(graded))
    return [_clean(result) for result in done]


def _finite(x):
    number = isinstance(x, int | float) and not isinstance(x, bool)
    return x if number and math.isfinite(x) else 0


def _clean(nb: dict) -> dict:
    """A notebook's report entry as the writers take it, whatever made it (``Result.as_dict``
    or a fallback): every string escaped and bounded, the status one of ``STATUSES``, points
    finite numbers, so no entry can crash a writer or grow a report without bound."""
    questions = [{**bounded(q), "points": _finite(q.get("points")), "max": _finite(q.get("max"))}
                 for q in nb.get("questions", [])]
    return {**nb, "student": printable(str(nb.get("student", "")), MAX_NAME),
            "notebook": printable(str(nb.get("notebook", "")), MAX_PATH),
            "status": nb.get("status") if nb.get("status") in STATUSES else "crashed",
            **{k: printable(str(nb.get(k, "")), 40) for k in ("started", "finished")},
            "questions": questions, "score": sum(q["points"] for q in questions),
            "max_score": sum(q["max"] for q in questions)}


def _refusals(entries) -> str:
    """Lines saying why each refused notebook was not graded (the JSON has its status)."""
    lines = [f"  {printable(e.student, SHOWN_NAME)}: {printable(str(e.path), MAX_PATH)}: "
             f"{e.refused}" for e in entries if e.refused]
    return "\n\nnot graded (unreadable):\n" + "\n".join(lines) if lines else ""


def _say(text: str, stream) -> None:
    """Print ``text`` on ``stream`` whatever its encoding (what it cannot show, escaped)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    print(text.encode(encoding, "backslashreplace").decode(encoding), file=stream)


def _write(target: str, text: str) -> None:
    """Write a report as UTF-8 (what cannot be, escaped): to stdout for ``-``; else to a
    temporary file in the target's folder, renamed over the target once complete, so a run
    that fails leaves the previous report whole. A target that exists and is not a regular
    file (``/dev/null``, a pipe) is written in place."""
    data = text.encode("utf-8", "backslashreplace")
    if target == "-":
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        if out is None:
            sys.stdout.write(data.decode("utf-8"))
        else:
            out.write(data)
            out.flush()
        return
    path = os.path.realpath(target)  # a report the teacher links elsewhere is written there
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "wb") as file:
            file.write(data)
        return
    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path),
                                     prefix=f".{os.path.basename(path)}.", suffix=".partial")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


if __name__ == "__main__":
    sys.exit(main())
