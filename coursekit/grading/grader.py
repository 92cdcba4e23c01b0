"""Grade a learner's exercise notebook against its reference solution.

How it stays fair:

* The submitted notebook is only read: a copy goes to a private scratch folder, and its code
  cells run, one by one, in a grading child (``coursekit.grading.kernel``, started and limited
  by ``coursekit.grading.runner``): sandboxed with bubblewrap where it works, with a time
  limit per cell and per notebook, a memory limit and a cap on the output kept.
* The learner's copies of check cells are skipped (found by cell metadata, or by their
  ``question(`` call): the checks come from the solution source with the same lesson number in
  the solutions folder the caller names (``solutions/NN_slug.py``), hidden tests included, so
  exercises and grading cannot drift apart.
* Every learner cell runs (an answer may sit in a cell of its own below the exercise's), then
  each question is checked. The check cell runs in the grader's own process
  (``coursekit.grading.trusted``), never in the learner's: it reads the learner's variables
  it names (``answers=``) and the results of its observation functions (``q.observe``) as
  plain data (``coursekit.grading.plain``), so expected values never enter the learner's
  process and nothing the learner's code does there can forge a verdict. The points are
  capped by the solution's metadata. A check reads no learner variable it does not name.
* A child that dies (a crash, a time limit) is restarted: the cells that ran well are run
  again, the question of the cell that killed it scores 0 with the reason, and grading goes
  on; the number of restarts is bounded.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import jupytext
import nbformat

from coursekit import translation
from coursekit.grading import trusted
from coursekit.grading.runner import Kernel, KernelDied, Limits, sandbox_available
from coursekit.grading.trusted import clean_points  # noqa: F401 - part of the API
from coursekit.i18n import N_, _, speaking

GRADER_VERSION = "3.0"  # 3: checks run in the grader, on plain data observed from the learner
DEFAULT_TIMEOUT = 60  # seconds per cell
MAX_RESTARTS = 3  # kernel restarts per notebook before the remaining questions score 0
START_TIMEOUT = 60.0  # seconds for a new child to import IPython and answer
# "# Answer 01.3", or its translation ("# Ответ 01.3", "# 答案 01.3")
ANSWER_COMMENT = re.compile(r"^#\s*\w+\s*(\d\d\.\d+)\b", re.IGNORECASE)
CHECK_CALL = re.compile(r"\bquestion\(\s*[\"'](\d\d\.\d+)[\"']")
CHECK_SHARE = 0.25  # of a notebook's time limit, kept for its checks (see ``grade``)
MAX_NOTEBOOK_BYTES = 32 << 20  # a larger submission is "unreadable" (the grader parses it whole)


@dataclass
class Check:
    id: str
    points: float
    source: str
    answers: tuple[str, ...] = ()  # the learner's variables the check reads


def read_solution(solution: Path, lang: str = "en"):
    """The solution's jupytext source as a notebook (jupytext parses cell metadata with
    ``ast.literal_eval``, so under ``trusted.LOCK``), in ``lang``: a Russian exercise is
    checked by the same code, with the hints of ``locale/ru`` (``coursekit.translation``)."""
    with trusted.LOCK:
        nb = jupytext.read(solution)
    if lang in translation.LANGUAGES:
        nb = translation.translated_source(nb, lang, "exercises", Path(solution).stem)
    return nb


def language_of(notebook, path: Path) -> str:
    """The language of a submitted exercise: its metadata (``course.lang``, written by
    ``tools/translations.py``), else its folder (``exercises/ru/``), else English."""
    meta = notebook.get("metadata", {}) if notebook is not None else {}
    course = meta.get("course") if isinstance(meta, dict) else None
    lang = course.get("lang") if isinstance(course, dict) else None
    if lang in translation.LANGUAGES:
        return lang
    return path.parent.name if path.parent.name in translation.LANGUAGES else "en"


def load_setup(solution: Path) -> list[str]:
    """The sources of the solution's code cells that are neither answers nor checks (its
    imports): the trusted check's namespace starts from them."""
    return [cell.source for cell in read_solution(solution).cells
            if cell.cell_type == "code" and cell.metadata.get("role") not in ("answer", "check")]


def solution_for(notebook: Path, solutions: Path, lesson: str | None = None) -> Path | None:
    """The solution source in ``solutions`` with the same lesson number (``01_*.py`` for
    ``01_foo.ipynb``, or for ``lesson="01"``), or None."""
    match = re.match(r"(\d\d)_", Path(notebook).name)
    lesson = match.group(1) if match else lesson
    if lesson is None:
        return None
    found = sorted(Path(solutions).glob(f"{lesson}_*.py"))
    return found[0] if found else None


def lesson_of(notebook) -> str | None:
    """The lesson number a notebook's answer and check cells name (``"01"`` for question
    ``01.3``), for submissions renamed after their student; None when they name none or many."""
    found = {role(cell)[1][:2] for cell in notebook.cells
             if cell.get("cell_type") == "code" and role(cell)[1]}
    return found.pop() if len(found) == 1 else None


def load_checks(solution: Path, lang: str = "en") -> list[Check]:
    """The check cells of a solution, in order, hidden tests included (hints in ``lang``)."""
    checks = []
    for cell in read_solution(solution, lang).cells:
        meta = cell.metadata
        if cell.cell_type == "code" and meta.get("role") == "check":
            checks.append(Check(meta["question"], meta.get("points", 1), cell.source,
                                trusted.answers_of(cell.source) or ()))
    return checks


def role(cell) -> tuple[str | None, str | None]:
    """("answer" or "check" or None, question id) for a learner's cell."""
    meta = cell.get("metadata", {})
    if not isinstance(meta, dict):
        meta = {}
    if meta.get("role") in ("answer", "check") and isinstance(meta.get("question"), str):
        return meta["role"], meta["question"]
    source = cell.source
    if CHECK_CALL.search(source):
        return "check", CHECK_CALL.search(source).group(1)
    first = source.lstrip().split("\n", 1)[0]
    if ANSWER_COMMENT.match(first):
        return "answer", ANSWER_COMMENT.match(first).group(1)
    return None, None


def feedback_for_error(ename: str, evalue: str, where: str) -> str:
    if ename == "NotImplementedError":
        return _("not answered yet: your answer cell still raises NotImplementedError")
    if ename == "SyntaxError" or ename == "IndentationError":
        return _("syntax error in {where}: {error}").format(where=_(where), error=evalue)
    if ename == "TimeoutError":
        return _("timed out: {where} ran longer than the time limit (an infinite loop?)").format(
            where=_(where))
    return _("{where} raised {name}: {error}").format(where=_(where), name=ename, error=evalue)




MAX_FEEDBACK = 2000  # characters of one question's feedback in the report, once escaped
MAX_NAME = 255  # characters of a student id or a question id in the report, once escaped
MAX_PATH = 1000  # characters of a notebook's path in the report, once escaped
CUT = "...(cut)"  # ends a string cut at its bound


def _escaped(c: str) -> str:
    if unicodedata.category(c)[0] != "C":
        return c
    code = ord(c)
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a name that is not UTF-8 (Python's surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code < 256:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"  # one reading only


def printable(text: str, limit: int | None = None) -> str:
    """``text`` without control or format characters (shown as ``\\x1b``, ``\\u202e``...):
    feedback quotes the learner's error messages and file names, and a terminal escape sequence
    or a right-to-left override in them could rewrite the teacher's summary on screen. The bytes
    of a file name that is not UTF-8 show as ``\\xff``, so the result always encodes as UTF-8.

    With ``limit``, at most ``limit`` characters come back: a longer text is cut (never inside
    an escape) and ends with ``CUT``. Every string the learner controls reaches the reports
    bounded this way: 450,000 newlines in an exception's name must not become megabytes."""
    if limit is None:
        return "".join(map(_escaped, text))
    parts, size = [], 0
    for c in text:  # stops after ``limit`` characters, however long ``text`` is
        shown = _escaped(c)
        size += len(shown)
        if size > limit:
            break
        parts.append(shown)
    else:
        return "".join(parts)
    size -= len(shown)
    while parts and size + len(CUT) > limit:
        size -= len(parts.pop())
    return "".join(parts) + CUT[:limit]


class NotANotebook(ValueError):
    """A submission refused before parsing; the message says why."""


def read_submission(path: Path) -> bytes:
    """The submitted file's bytes: a regular file of at most ``MAX_NOTEBOOK_BYTES``, reached
    without following any symbolic link, so a "submission" that is, or lies in a folder that is,
    a link to the solutions or to a classmate's work is not graded as one.

    Every component of ``path`` (from ``/`` when it is absolute, else from the current folder)
    is opened relative to the one before with ``O_NOFOLLOW``: a folder swapped for a link after
    the class folder was listed is refused too. Callers resolve first the part of the path they
    trust: the class command line resolves the folder the teacher names, once."""
    path = Path(path)
    names = path.parts[1:] if path.is_absolute() else path.parts
    if not names:
        raise NotANotebook("not a regular file")
    if os.open not in os.supports_dir_fd:  # no openat (not Linux or macOS): lstat each folder
        return _read_by_lstat(path)
    nofollow, handle = getattr(os, "O_NOFOLLOW", 0), getattr(os, "O_PATH", os.O_RDONLY)
    folder = os.open("/" if path.is_absolute() else ".", handle | os.O_DIRECTORY)
    try:
        for name in names[:-1]:
            try:
                below = os.open(name, handle | os.O_DIRECTORY | nofollow, dir_fd=folder)
            except OSError:
                if _is_link(name, folder):
                    raise NotANotebook(f"in a symbolic link to a folder "
                                       f"({printable(name, 100)}), not followed") from None
                raise
            os.close(folder)
            folder = below
        try:
            fd = os.open(names[-1], os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0),
                         dir_fd=folder)
        except OSError:
            if _is_link(names[-1], folder):
                raise NotANotebook("a symbolic link, not a file") from None
            raise
    finally:
        os.close(folder)
    return _read_regular(fd)


def _is_link(name: str, folder: int) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=folder).st_mode)
    except OSError:
        return False


def _read_by_lstat(path: Path) -> bytes:
    for above in [*reversed(path.parents[:-1]), path]:
        if above.is_symlink():
            raise NotANotebook("a symbolic link, not a file" if above == path else
                               f"in a symbolic link to a folder ({printable(above.name, 100)})"
                               ", not followed")
    return _read_regular(os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)))


def _read_regular(fd: int) -> bytes:
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a folder, a pipe, a device...
        os.close(fd)
        raise NotANotebook("not a regular file")
    with os.fdopen(fd, "rb") as file:
        data = file.read(MAX_NOTEBOOK_BYTES + 1)
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise NotANotebook(f"larger than {MAX_NOTEBOOK_BYTES >> 20} MB")
    return data


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Result:
    """One graded notebook: the JSON report's per-notebook object is ``as_dict()``."""
    student: str
    notebook: str
    status: str = "graded"  # graded | unreadable | timeout | crashed
    started: str = ""
    finished: str = ""
    sandboxed: bool = False
    questions: list[dict] = field(default_factory=list)
    output: str = ""  # the learner's output (capped); not in the report

    @property
    def score(self):
        return sum(q["points"] for q in self.questions)

    @property
    def max_score(self):
        return sum(q["max"] for q in self.questions)

    def as_dict(self) -> dict:
        """The report's object; every string in it escaped (``printable``) and bounded (names
        ``MAX_NAME``, the path ``MAX_PATH``, each feedback ``MAX_FEEDBACK`` characters), whatever
        grading put in, so one notebook's entry stays small and always encodes as UTF-8."""
        return {"student": printable(str(self.student), MAX_NAME),
                "notebook": printable(str(self.notebook), MAX_PATH), "status": self.status,
                "started": self.started, "finished": self.finished,
                "grader_version": GRADER_VERSION, "sandboxed": self.sandboxed,
                "questions": [bounded(q) for q in self.questions], "score": self.score,
                "max_score": self.max_score}


def bounded(question: dict) -> dict:
    """A question's report entry with its id and feedback escaped and bounded."""
    return {**question, "id": printable(str(question.get("id", "")), MAX_NAME),
            "feedback": printable(str(question.get("feedback", "")), MAX_FEEDBACK)}


def read_notebook(data: bytes):
    """The notebook parsed from the submitted file's bytes (read once: the copy the learner's
    code runs next to is the notebook graded)."""
    notebook = nbformat.reads(data.decode("utf-8"), as_version=4)
    for cell in notebook.cells:
        if not isinstance(cell.get("source"), str) or not isinstance(cell.get("cell_type"), str):
            raise ValueError("a cell has no source text")
    return notebook


class Session:
    """The cells of one notebook run in a grading child that is restarted when it dies.
    ``deadline`` (``time.monotonic()``) bounds every request; ``grade`` moves it."""

    def __init__(self, scratch: Path, hidden: list[Path], limits: Limits, sandbox: bool,
                 deadline: float | None = None):
        self.kernel = Kernel(scratch, hidden, limits, sandbox)
        self.limits = limits
        self.deadline = deadline or time.monotonic() + limits.notebook_timeout
        self.done: list[str] = []  # sources of the cells that ran without dying
        self.alive = False
        self.restarts = -1  # the first start is not a restart
        self.events: list[str] = []  # "crashed" / "timeout" for each death

    def _timeout(self, limit: float) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise KernelDied("timeout", "the notebook ran longer than its time limit "
                                        f"({self.limits.notebook_timeout:g} s)")
        return min(limit, left)

    def _ensure(self) -> None:
        while not self.alive:
            self.restarts += 1
            if self.restarts > MAX_RESTARTS:
                raise KernelDied("crashed", f"the kernel died {MAX_RESTARTS + 1} times")
            self.kernel.start()
            try:
                limit = self._timeout(START_TIMEOUT)
                try:
                    self.kernel.cell("pass", limit)
                except KernelDied as died:  # before any learner code: the set-up is broken,
                    if died.kind == "timeout" and limit < START_TIMEOUT:  # or time is up
                        raise KernelDied("timeout", "the notebook ran longer than its time "
                                         f"limit ({self.limits.notebook_timeout:g} s)") from None
                    tail = self.kernel.output.text()[-300:].strip()
                    raise KernelDied("crashed", f"the grading kernel could not start "
                                     f"({died.reason}): {tail}") from None
                for source in self.done:
                    self.kernel.cell(source, self._timeout(self.limits.cell_timeout))
                self.alive = True
            except KernelDied as died:
                self.kernel.kill()
                self.events.append(died.kind)
                if self.deadline <= time.monotonic() or not self.done and \
                        died.reason.startswith("the grading kernel could not start"):
                    raise

    def _call(self, method, *args) -> dict:
        self._ensure()
        try:
            limit = self._timeout(self.limits.cell_timeout)
            try:
                return method(*args, limit)
            except KernelDied as died:
                if died.kind == "timeout" and limit < self.limits.cell_timeout:
                    died.reason = ("the notebook ran longer than its time limit "
                                   f"({self.limits.notebook_timeout:g} s)")
                raise
        except KernelDied as died:
            self.kernel.kill()
            self.alive = False
            self.events.append(died.kind)
            if died.kind == "malformed":
                died.kind = "crashed"
            raise

    def cell(self, source: str) -> dict:
        reply = self._call(self.kernel.cell, source)
        self.done.append(source)
        return reply

    def probe(self, source: str, bindings: dict) -> dict:
        return self._call(self.kernel.probe, source, bindings)

    def observe(self, request: dict) -> dict:
        return self._call(self.kernel.observe, request)

    def close(self) -> str:
        self.kernel.kill()
        return self.kernel.output.text()


def _death_feedback(died: KernelDied, where: str) -> str:
    if died.reason.startswith("the grading kernel could not start"):
        return _("not graded: {why}").format(why=died.reason)
    if died.kind == "timeout":
        if died.reason.startswith("ran "):
            return _("timed out: {where} {why} (an infinite loop?)").format(
                where=_(where), why=died.reason)
        return _("timed out: {why}").format(why=died.reason)
    return _("{where} crashed the kernel: {why}").format(where=_(where), why=died.reason)


def grade(path, solutions, timeout: float = DEFAULT_TIMEOUT, *, limits: Limits | None = None,
          hidden=(), student: str | None = None, sandbox: bool | None = None,
          lesson: str | None = None, started: float | None = None,
          announce=None) -> Result:
    """Grade the notebook ``path`` with the checks of its solution in the folder ``solutions``.

    ``hidden`` folders (besides ``solutions``, the notebook's folder and home folders) are
    invisible to the learner's code when sandboxed; ``sandbox=None`` means "when bubblewrap
    works". Never raises for a bad notebook: the result's status says what happened.

    The notebook's whole grading (cells, restarts, checks) ends by ``started`` (a
    ``time.monotonic()``; default: now) plus ``limits.notebook_timeout``: its cells may use
    all of it but the last ``CHECK_SHARE`` of it, kept for the checks (so a notebook whose last
    cell loops forever still has its other answers checked). The rebuilding of observed data
    in between has no deadline here: the class CLI grades each notebook in a worker process of
    its own (``coursekit.grading.worker``) and kills it at the notebook's time limit;
    ``announce``, when given, is called with the questions (``[{"id", "max"}]``) before any
    learner code runs, so that a worker killed then still reports them.
    """
    started = time.monotonic() if started is None else started
    path = Path(path)
    limits = limits or Limits(cell_timeout=timeout)
    sandbox = sandbox_available() if sandbox is None else sandbox
    result = Result(student or path.stem, str(path), started=_now(), sandboxed=sandbox)
    unreadable = ""
    try:
        data = read_submission(path)
        learner = read_notebook(data)
    except Exception as error:  # noqa: BLE001 - any unreadable file is a status, not a crash
        why = f" ({error})" if isinstance(error, NotANotebook) else ""
        learner, data = None, b""
        unreadable = _("unreadable notebook: {name}{why}").format(name=type(error).__name__,
                                                                  why=why)
    solution = solution_for(path, solutions, lesson or (lesson_of(learner) if learner else None))
    lang = language_of(learner, path)
    with speaking(lang):  # the feedback in the notebook's language
        return _grade(path, solutions, limits, sandbox, result, learner, data, solution,
                      announce, started, hidden, unreadable, lang)


def _grade(path, solutions, limits, sandbox, result, learner, data, solution, announce,
           started, hidden, unreadable, lang) -> Result:
    """``grade``'s work once the notebook is read and its solution found."""
    if learner is None or solution is None:
        result.status = "unreadable"
        reason = unreadable if learner is None else _(
            "not an exercise of this course (no solution has its lesson number)")
        checks = load_checks(solution, lang) if solution else []
        result.questions = [{"id": c.id, "points": 0, "max": c.points, "feedback": reason}
                            for c in checks]
        result.finished = _now()
        return result
    checks = {c.id: c for c in load_checks(solution, lang)}
    if announce is not None:
        announce([{"id": c.id, "max": c.points} for c in checks.values()])
    results: dict[str, dict] = {}  # question id -> what its answer cell did, when it failed
    answered: set[str] = set()
    sources: dict[str, str] = {}  # question id -> the text of its answer cells (q.refuse)
    scratch = Path(tempfile.mkdtemp(prefix="minigrad-grade-"))
    (scratch / path.name).write_bytes(data)  # the learner works on a copy
    # the solutions, their repository's history, and every submission stay out of sight
    secret = [Path(solutions), Path(solutions).resolve().parent / ".git", path.parent, *hidden]
    end = started + limits.notebook_timeout
    session = Session(scratch, secret, limits, sandbox,
                      deadline=end - CHECK_SHARE * limits.notebook_timeout)
    gave_up = None
    try:
        # every learner cell runs (an answer may sit in a cell of its own below the exercise's),
        # except their copies of the check cells: the grader runs the solution's own
        for cell in learner.cells:
            if cell.cell_type != "code":
                continue
            kind, qid = role(cell)
            if kind == "check":
                continue
            answer = kind == "answer" and qid in checks
            if answer:
                answered.add(qid)
                sources[qid] = sources.get(qid, "") + cell.source + "\n"
            try:
                reply = session.cell(cell.source)
            except KernelDied as died:
                if answer:
                    results[qid] = {"points": 0,
                                    "feedback": _death_feedback(died, N_("your answer cell"))}
                if session.restarts >= MAX_RESTARTS or session.deadline <= time.monotonic():
                    gave_up = died
                    break
                continue
            if answer and reply["status"] == "error":
                results[qid] = {"points": 0, "feedback": feedback_for_error(
                    reply["ename"], reply["evalue"], N_("your answer cell"))}
        # then each question is observed and checked once all cells ran, by the notebook's
        # end; after the time limit stopped the cells, the questions whose answer cells ran
        # are still checked in the time kept for the checks (a kernel that keeps dying is not
        # started again)
        checking = gave_up is None or gave_up.kind == "timeout" and \
            session.restarts < MAX_RESTARTS
        session.deadline = end
        base = None
        for qid, check in checks.items() if checking else ():
            if gave_up is not None and (qid not in answered or qid in results):
                continue
            try:
                if base is None:
                    base = trusted.base_namespace(load_setup(solution))
                found = trusted.run_check(qid, check.points, check.source, base, session,
                                          sources.get(qid, ""))
            except trusted.Stop as stop:
                if stop.died is None:
                    found = {"points": 0, "feedback": _("no verdict: {why}").format(
                        why=stop.reason)}
                else:
                    found = {"points": 0, "feedback": _death_feedback(
                        stop.died, N_("checking your answer"))}
            except KernelDied as died:
                found = {"points": 0,
                         "feedback": _death_feedback(died, N_("checking your answer"))}
            except Exception as error:  # noqa: BLE001 - a check's own bug costs its question
                found = {"points": 0, "feedback": _(
                    "no verdict: the check itself failed ({name}: {error})").format(
                        name=type(error).__name__, error=error)[:300]}
            if found["points"] < check.points and qid in results:
                continue  # the answer cell's own error says more
            if found["points"] < check.points and qid not in answered:
                found = {"points": 0, "feedback": _("answer cell missing")}
            results[qid] = found
            if session.restarts >= MAX_RESTARTS or session.deadline <= time.monotonic():
                gave_up = gave_up or KernelDied("timeout", "the checks ran out of time")
                break
    finally:
        result.output = session.close()
        shutil.rmtree(scratch, ignore_errors=True)
    missing = _("answer cell missing")
    if gave_up is not None:
        missing = _("not graded: {why}").format(why=gave_up.reason)
    for qid, check in checks.items():
        found = results.get(qid, {"points": 0, "feedback": missing})
        result.questions.append({"id": qid, "points": found["points"], "max": check.points,
                                 "feedback": printable(found["feedback"])})
    if "crashed" in session.events or "malformed" in session.events:
        result.status = "crashed"
    elif "timeout" in session.events:
        result.status = "timeout"
    result.finished = _now()
    return result
