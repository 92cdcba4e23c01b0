"""The class folder walk and the report writers, attacked.

A submission is what the student wrote: nothing below the class folder the teacher names is
followed through a symbolic link (a student folder that links to ``solutions/`` or to a
classmate's folder is refused, ``unreadable``, and the classmate still appears, with their own
marks); a name that is not UTF-8 is reported escaped (``\\xff``), ``unreadable``, and never
crashes a writer; two students never merge into one row; every learner-controlled string is
bounded in the feedback, the reports and the terminal; CSV cells are one line each and never a
formula; and a report is replaced only by a complete one (an old report survives a failed run).

Each mechanism is attacked once end to end with the real grader (sandboxed where bubblewrap
works), then fuzzed (hypothesis) through the real command line with the grading of a single
notebook replaced by a fake that still reads the submission with the real ``read_submission``
(so the fuzzers are fast and what they check is the walk, the refusal and the writers).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coursekit.grading import __main__ as cli
from coursekit.grading.grader import (
    CUT,
    MAX_FEEDBACK,
    MAX_NAME,
    MAX_PATH,
    NotANotebook,
    Result,
    grade,
    printable,
    read_submission,
)
from coursekit.grading.runner import sandbox_available
from tests.setup_guarantees import needs

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
LESSON = "01_computational_graphs"
FULL = 9  # the points of lesson 01 (2 + 2 + 2 + 3)
FORMULA = tuple("=+-@\t\r\n")
NEWLINES = 450_000


# --- helpers -----------------------------------------------------------------------------------

def _main(args: list[str]) -> tuple[int, str, str]:
    """``python -m coursekit.grading ARGS`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(args)
    return code, out.getvalue(), err.getvalue()


def _reports(klass: Path, out: Path, *extra: str) -> dict:
    """Grade ``klass`` writing both reports to ``out``; the reports read back strictly."""
    code, stdout, stderr = _main([str(klass), "--solutions", str(SOLUTIONS), "--json",
                                  str(out / "r.json"), "--csv", str(out / "r.csv"), *extra])
    assert code == 0, stderr
    raw_json, raw_csv = (out / "r.json").read_bytes(), (out / "r.csv").read_bytes()
    text = raw_csv.decode("utf-8")  # strictly: a raw 0xff byte fails here
    return {"json": json.loads(raw_json.decode("utf-8")), "raw_json": raw_json,
            "csv": list(csv.reader(io.StringIO(text, newline=""))), "raw_csv": text,
            "stdout": stdout, "stderr": stderr}


def _rows(report) -> dict[str, list[str]]:
    """The CSV's rows by student id (a formula-guard apostrophe removed); every id once."""
    head, *body = report["csv"]
    assert all(len(row) == len(head) for row in body), report["raw_csv"]
    ids = [row[0][1:] if row[0].startswith("'") else row[0] for row in body]
    assert len(set(ids)) == len(ids), ids
    return dict(zip(ids, body, strict=True))


def _no_formula_and_one_line(report) -> None:
    for row in report["csv"]:
        for cell in row:
            assert "\r" not in cell and "\n" not in cell, cell
            assert cell.lstrip(" ")[:1] not in FORMULA, cell
    assert report["raw_csv"].count("\r\n") == len(report["csv"])  # RFC 4180 line ends


def _notebook(owner: str) -> bytes:
    """A small, valid, notebook-looking file saying who wrote it (the fake grader's mark)."""
    return json.dumps({"owner": owner}).encode()


def _fake_grade(path, solutions, *args, student=None, **kwargs) -> dict:
    """The grading of one notebook (``grade_in_worker``), replaced: the submission is read
    with the real
    ``read_submission`` (a refusal is ``unreadable``), the feedback quotes what was read and
    then half a megabyte of newlines (to be bounded by every writer)."""
    result = Result(student, str(path))
    try:
        data = read_submission(Path(path))
    except (NotANotebook, OSError) as error:
        result.status = "unreadable"
        result.questions = [{"id": "01.1", "points": 0, "max": 1, "feedback": str(error)}]
        return result.as_dict()
    result.questions = [{"id": "01.1", "points": 1, "max": 1,
                         "feedback": data.decode("utf-8", "replace") + "\n" * NEWLINES}]
    return {**result.as_dict(), "questions": result.questions}  # unbounded: the writers bound


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(cli, "grade_in_worker", _fake_grade)


def _shows(shown: str, name: bytes) -> bool:
    """Whether the escaped id ``shown`` stands for exactly the bytes ``name``: an independent
    reading of the escapes (``\\xNN`` a control character or, from 0x80, a byte that is not
    UTF-8; ``\\uNNNN`` and ``\\UNNNNNNNN`` a control or format character)."""
    pattern = b""
    for token in re.findall(r"\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\U[0-9a-f]{8}|.", shown, re.S):
        if token.startswith("\\x"):
            code = int(token[2:], 16)
            alternatives = [bytes([code])] + ([chr(code).encode()] if code >= 0x80 else [])
        elif token[:2] in ("\\u", "\\U"):
            alternatives = [chr(int(token[2:], 16)).encode("utf-8", "surrogatepass")]
        else:
            alternatives = [token.encode("utf-8")]
        pattern += b"(?:" + b"|".join(map(re.escape, alternatives)) + b")"
    return re.fullmatch(pattern, name, re.S) is not None


# --- end to end, with the real grader ------------------------------------------------------------

NOT_UTF8_FOLDER = b"ca\xffrl"
NOT_UTF8_NOTEBOOK = b"01_\xfe\xff.ipynb"
FORMULA_FOLDER = "eve\r=cmd|' -C calc'!A0"


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """One real run (sandboxed where bubblewrap works) over a class planted with every attack
    on the walk and the writers, beside an honest student; an old JSON report is replaced."""
    base = tmp_path_factory.mktemp("reports")
    klass, out = base / "class", base / "out"
    klass.mkdir()
    out.mkdir()
    solution = SOLUTIONS / f"{LESSON}.ipynb"
    exercise = ROOT / "exercises" / f"{LESSON}.ipynb"
    (klass / "alice").mkdir()
    shutil.copy(solution, klass / "alice" / solution.name)  # honest: full marks
    (klass / "aaron").symlink_to("alice")  # grade theft (attack 5)
    (klass / "bob").symlink_to(SOLUTIONS)  # full marks with no work (attack 4)
    (klass / "carl").mkdir()  # a link in the notebook's own name
    (klass / "carl" / solution.name).symlink_to(solution)
    (klass / "dana" / "work").mkdir(parents=True)  # a link to a folder, deeper down
    (klass / "dana" / "work" / "answers").symlink_to(SOLUTIONS)
    folder = os.path.join(os.fsencode(klass), NOT_UTF8_FOLDER)  # attack 9
    os.mkdir(folder)
    shutil.copy(solution, os.path.join(folder, os.fsencode(solution.name)))
    (klass / "erin").mkdir()  # attack 10
    shutil.copy(solution, os.path.join(os.fsencode(klass / "erin"), NOT_UTF8_NOTEBOOK))
    (klass / FORMULA_FOLDER).mkdir()  # attack 11
    shutil.copy(exercise, klass / FORMULA_FOLDER / exercise.name)
    newlines = nbformat.read(solution, as_version=4)  # attack 8
    answer = next(c for c in newlines.cells if c.metadata.get("question") == "01.1"
                  and c.metadata.get("role") == "answer")
    answer.source = f"raise type('\\n' * {NEWLINES}, (Exception,), {{}})('\\n' * {NEWLINES})"
    (klass / "newlines").mkdir()
    nbformat.write(newlines, klass / "newlines" / solution.name)
    (out / "r.json").write_text("an old report\n")
    report = _reports(klass, out, "-j", "2", "--details", "--timeout", "60")
    report["by_student"] = {}
    for nb in report["json"]["notebooks"]:
        report["by_student"].setdefault(nb["student"], []).append(nb)
    report["out"], report["klass"] = out, klass
    return report


def test_the_honest_student_keeps_full_marks_and_the_graded_run_is_real(attacked):
    (alice,) = attacked["by_student"]["alice"]
    assert alice["status"] == "graded" and alice["score"] == FULL, alice
    assert attacked["json"]["sandboxed"] is sandbox_available()
    assert _rows(attacked)["alice"][-3:] == [str(FULL), str(FULL), "graded"]


def test_a_student_folder_linking_to_the_solutions_scores_nothing(attacked):
    """Attack 4: ``bob -> solutions`` was graded 9/9 (``read_submission`` refused a link only
    in the file name); a link to a folder anywhere below the class folder is not followed."""
    for who in ("bob", "carl", "dana"):
        (entry,) = attacked["by_student"][who]
        assert entry["status"] == "unreadable" and entry["score"] == 0, entry
        assert _rows(attacked)[who][-1] == "unreadable"
    assert "a symbolic link" in attacked["stdout"]
    (carl,) = attacked["by_student"]["carl"]  # its name says its lesson: 0 on each question
    assert [q["feedback"] for q in carl["questions"]] == [
        "unreadable notebook: NotANotebook (a symbolic link, not a file)"] * 4


def test_a_link_to_a_classmate_steals_nothing_and_hides_no_one(attacked):
    """Attack 5: ``aaron -> alice`` got alice's 9/9 and alice vanished from both reports."""
    (aaron,) = attacked["by_student"]["aaron"]
    assert aaron["status"] == "unreadable" and aaron["score"] == 0
    assert aaron["notebook"].endswith("aaron")
    rows = _rows(attacked)
    assert {"aaron", "alice"} <= set(rows) and rows["aaron"][-3] == "0"
    assert attacked["json"]["students"] == len(rows) == 9


def test_an_exception_named_with_newlines_gives_bounded_reports(attacked):
    """Attack 8: 450,000 newlines in an exception's class name gave 1.8 MB of feedback per
    question, a 9 MB JSON and a 7 MB terminal summary."""
    (nb,) = attacked["by_student"]["newlines"]
    assert nb["status"] == "graded" and nb["score"] == FULL - 2  # only 01.1 is lost
    feedback = {q["id"]: q["feedback"] for q in nb["questions"]}["01.1"]
    assert feedback.startswith("your answer cell raised") and len(feedback) <= MAX_FEEDBACK
    assert len(attacked["raw_json"]) < 60_000, len(attacked["raw_json"])
    assert len(attacked["stdout"]) < 30_000 and len(attacked["stderr"]) < 10_000
    assert "\n\n\n" not in attacked["stdout"]


def test_a_folder_name_that_is_not_utf8_is_reported_escaped(attacked):
    """Attack 9: the run died of UnicodeEncodeError, grades.csv was empty and an old --json
    report truncated; now the student is ``unreadable`` under an escaped id, the run ends
    and the old report is replaced by the new one."""
    (carl,) = attacked["by_student"]["ca\\xffrl"]
    assert carl["status"] == "unreadable" and carl["score"] == 0
    assert "not UTF-8" in carl["questions"][0]["feedback"]
    assert _rows(attacked)["ca\\xffrl"][-1] == "unreadable"
    assert sorted(p.name for p in attacked["out"].iterdir()) == ["r.csv", "r.json"]


def test_a_notebook_name_that_is_not_utf8_leaves_the_json_utf8(attacked):
    """Attack 10: a raw 0xff byte in the JSON."""
    (erin,) = attacked["by_student"]["erin"]
    assert erin["status"] == "unreadable" and erin["notebook"].endswith("01_\\xfe\\xff.ipynb")
    attacked["raw_json"].decode("utf-8")  # strict
    assert b"\xff" not in attacked["raw_json"] and b"\xff" not in attacked["raw_csv"].encode()


def test_a_carriage_return_in_a_folder_name_stays_in_one_cell(attacked):
    """Attack 11: one student became two CSV rows, one a live formula."""
    _no_formula_and_one_line(attacked)
    shown = printable(FORMULA_FOLDER)
    (eve,) = attacked["by_student"][shown]
    assert eve["status"] == "graded" and eve["score"] == 0  # the untouched exercise
    assert _rows(attacked)[shown][0] == shown
    assert len(attacked["csv"]) == 1 + attacked["json"]["students"]


# --- the walk: symbolic links ----------------------------------------------------------------

def _class(tmp_path: Path, students=("alice", "bob")) -> Path:
    klass = tmp_path / "class"
    for who in students:
        (klass / who).mkdir(parents=True)
        (klass / who / f"{LESSON}.ipynb").write_bytes(_notebook(who))
    return klass


def test_the_teacher_s_own_links_are_followed_once(tmp_path, fake):
    """A class folder reached through a link the teacher made is graded (the PATH is resolved
    once); a notebook PATH that is itself a link (a shell glob of students' names) is not."""
    klass = _class(tmp_path)
    (tmp_path / "current").symlink_to(klass)
    out = tmp_path / "out"
    out.mkdir()
    report = _reports(tmp_path / "current", out, "--no-sandbox")
    assert {k: row[-1] for k, row in _rows(report).items()} == {"alice": "graded",
                                                                "bob": "graded"}
    (tmp_path / "flat").mkdir()
    (tmp_path / "flat" / "mallory.ipynb").symlink_to(SOLUTIONS / f"{LESSON}.ipynb")
    code, stdout, _ = _main([str(tmp_path / "flat" / "mallory.ipynb"), "--solutions",
                             str(SOLUTIONS)])
    assert code == 0 and "unreadable" in stdout and "a symbolic link, not a file" in stdout


def test_a_folder_swapped_for_a_link_after_the_walk_is_refused(tmp_path):
    """``read_submission`` opens every folder with O_NOFOLLOW: what the walk listed as a real
    folder, replaced by a link before grading, is refused (no kernel starts)."""
    klass = _class(tmp_path)
    entries = cli.walk([str(klass)])
    (klass / "alice").rename(tmp_path / "elsewhere")
    (klass / "alice").symlink_to(SOLUTIONS)
    (entry,) = [e for e in entries if e.student == "alice"]
    with pytest.raises(NotANotebook, match=r"in a symbolic link to a folder \(alice\)"):
        read_submission(entry.path)
    result = grade(entry.path, SOLUTIONS, sandbox=False)
    assert result.status == "unreadable" and result.score == 0
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:  # a relative path is walked from the current folder the same way
        with pytest.raises(NotANotebook):
            read_submission(Path("class") / "alice" / f"{LESSON}.ipynb")
        assert read_submission(Path("class") / "bob" / f"{LESSON}.ipynb") == _notebook("bob")
    finally:
        os.chdir(cwd)


def test_a_deep_folder_and_a_loop_link_do_not_stop_the_walk(tmp_path):
    klass = _class(tmp_path, ["alice"])
    deep = klass / "alice"
    for _ in range(1200):  # deeper than Python's recursion limit
        deep = deep / "d"
        os.mkdir(deep)
    (deep / "02_deep.ipynb").write_bytes(_notebook("alice"))
    (klass / "alice" / "loop").symlink_to(klass)
    try:
        entries = cli.walk([str(klass)])
        assert sorted((e.student, e.path.name, e.refused) for e in entries) == [
            ("alice", "01_computational_graphs.ipynb", ""), ("alice", "02_deep.ipynb", ""),
            ("alice", "loop", cli.LINK_FOLDER)]
    finally:  # shutil.rmtree (pytest's clean-up) is recursive: unmake the tower here
        (deep / "02_deep.ipynb").unlink()
        while deep != klass / "alice":
            deep.rmdir()
            deep = deep.parent


@st.composite
def _link_layouts(draw):
    """Real students, each with a notebook marked with their name, and links of every kind at
    every depth: to the solutions, to a classmate's folder or notebook, to the class itself,
    dangling; named like a notebook or not."""
    students = draw(st.lists(st.sampled_from(["ann", "bob", "cat", "dan", "eve"]), min_size=1,
                             max_size=4, unique=True))
    targets = st.sampled_from(["solutions", "solution", "class", "dangling", "parent"]
                              + [f"folder:{s}" for s in students]
                              + [f"notebook:{s}" for s in students])
    places = st.sampled_from(["top", *students, *(f"{s}/sub" for s in students)])
    names = st.sampled_from(["zed", "zed.ipynb", "01_computational_graphs.ipynb", "02_x.ipynb",
                             "sub", "ann", "amy"])
    links = draw(st.lists(st.tuples(places, names, targets), max_size=6))
    return students, links


def _plant(tmp_path: Path, students, links) -> tuple[Path, set[str]]:
    klass = _class(tmp_path, students)
    for s in students:
        (klass / s / "sub").mkdir()
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    (solutions / f"{LESSON}.ipynb").write_bytes(_notebook("SOLUTION"))
    target_of = {"solutions": solutions, "solution": solutions / f"{LESSON}.ipynb",
                 "class": klass, "dangling": tmp_path / "nowhere", "parent": tmp_path,
                 **{f"folder:{s}": klass / s for s in students},
                 **{f"notebook:{s}": klass / s / f"{LESSON}.ipynb" for s in students}}
    planted = set()
    for place, name, target in links:
        link = (klass if place == "top" else klass / place) / name
        if not os.path.lexists(link):
            link.symlink_to(target_of[target])
            planted.add(place)
    return klass, planted


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_link_layouts())
def test_fuzz_no_link_is_graded_and_no_student_disappears(layout):
    """Whatever links students plant: a graded notebook is always one lying, without any link,
    in its student's own folder; each real student appears once, with their own mark."""
    students, links = layout
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "grade_in_worker", _fake_grade)
        tmp = Path(folder).resolve()
        klass, _ = _plant(tmp, students, links)
        out = tmp / "out"
        out.mkdir()
        report = _reports(klass, out, "--no-sandbox", "-j", "1")
        rows = _rows(report)
        for nb in report["json"]["notebooks"]:
            if nb["status"] == "graded":
                owner = Path(nb["notebook"]).relative_to(klass).parts[0]
                marked = json.loads(nb["questions"][0]["feedback"].split("\n")[0].split("\\x0a")
                                    [0])["owner"]
                assert marked == owner == nb["student"], nb
        for s in students:  # each real student: one row, their own notebook's point
            assert rows[s][-3] != "0" and rows[s][1] == "1", (s, rows[s])
        top = {name for place, name, target in links if place == "top"}
        reachable = {n for n in top if n.endswith(".ipynb") or os.path.isdir(klass / n)}
        expected = list(students) + [n[:-6] if n.endswith(".ipynb") else n
                                     for n in reachable if n not in students]
        assert sorted(re.sub(r" \(\d+\)$", "", i) for i in rows) == sorted(expected), \
            (rows.keys(), links)
        assert "SOLUTION" not in report["raw_json"].decode()


# --- the walk and the writers: names ----------------------------------------------------------

def test_two_students_never_share_a_row(tmp_path, fake):
    """A folder and a notebook of the same name, names that escape alike (a raw 0x80 byte and
    U+0080; a carriage return and a literal backslash-x0d), and long names cut alike: each
    stays its own student, with its own row."""
    klass = _class(tmp_path, ["alice", "a\\x0d", "a\r", "a\u0080", "x" * 240 + "1",
                              "x" * 240 + "2"])
    (klass / "alice.ipynb").write_bytes(_notebook("flat alice"))
    os.mkdir(os.fsencode(klass) + b"/a\x80")
    (Path(os.fsdecode(os.fsencode(klass) + b"/a\x80")) / "01_x.ipynb").write_bytes(b"{}")
    out = tmp_path / "out"
    out.mkdir()
    report = _reports(klass, out, "--no-sandbox")
    rows = _rows(report)
    assert len(rows) == report["json"]["students"] == 8
    assert {"alice", "alice (2)", "a\\x0d", "a\\x0d (2)", "a\\x80", "a\\x80 (2)"} <= set(rows)
    assert rows["alice"][1] == rows["alice (2)"][1] == "1"  # both graded, neither lost
    assert all(len(s) <= MAX_NAME for s in rows)
    _no_formula_and_one_line(report)


_SPECIAL = [b"=cmd|' /C calc'!A0", b"+1+1", b"-2", b"@SUM(1)", b"\tx", b"\rx", b"a\r=1+1",
            b"a\nb", b"\xff", b"caf\xe9", "日本語".encode(), b"\xed\xa0\x80", b"\xe2\x80\xaeevil",
            b'"quoted"', b"a,b", b" =1", b"\x1b[2J", b"x.ipynb", b".hidden",
            b".ipynb_checkpoints", "\U000e0001\U0001f600".encode()]


def _name_ok(name: bytes) -> bool:
    return b"/" not in name and b"\0" not in name and b"\\" not in name \
        and name not in (b".", b"..")


_names = st.one_of(st.sampled_from(_SPECIAL),
                   st.binary(min_size=1, max_size=24),
                   st.text(min_size=1, max_size=12).map(lambda t: t.encode("utf-8",
                                                                              "surrogatepass")),
                   ).filter(_name_ok)


@st.composite
def _named_classes(draw):
    folders = draw(st.lists(_names, min_size=1, max_size=5, unique=True))
    notebooks = {f: draw(st.lists(_names, min_size=0, max_size=2, unique=True)) for f in folders}
    nested = {f: draw(st.booleans()) for f in folders}
    flat = draw(st.lists(_names, max_size=3, unique=True))
    return folders, notebooks, nested, flat


def _is_utf8(name: bytes) -> bool:
    try:
        name.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _build(klass: bytes, folders, notebooks, nested, flat) -> tuple[dict, dict]:
    """Plant the class; (name by student, whether each of its notebooks' names is UTF-8 by
    student), as the walk must find them: hidden top-level folders and checkpoints skipped,
    empty folders absent."""
    os.mkdir(klass)
    students, counts = {}, {}
    for folder in folders:
        where = os.path.join(klass, folder)
        os.mkdir(where)
        inner = os.path.join(where, b"sub") if nested[folder] else where
        if nested[folder]:
            os.mkdir(inner)
        for name in notebooks[folder]:
            with open(os.path.join(inner, name + b".ipynb"), "wb") as file:
                file.write(_notebook("x"))
        if notebooks[folder] and not folder.startswith(b".") \
                and folder != b".ipynb_checkpoints":
            students[("folder", folder)] = folder
            counts[("folder", folder)] = [_is_utf8(folder) and _is_utf8(n)
                                          for n in notebooks[folder]]
    for name in flat:
        path = os.path.join(klass, name + b".ipynb")
        if not os.path.exists(path):
            with open(path, "wb") as file:
                file.write(_notebook("flat"))
            students[("file", name)] = name
            counts[("file", name)] = [_is_utf8(name)]
    return students, counts


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_named_classes())
def test_fuzz_names_every_student_once_in_valid_bounded_reports(shape):
    """Arbitrary bytes as folder and notebook names (not UTF-8, CR/LF, formula prefixes, bidi
    overrides, long...): every student appears exactly once, the CSV parses back into one row
    per student under an id that reads back as the name, no cell is a formula or spans lines,
    the JSON is UTF-8, and every size is bounded however large the feedback was."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "grade_in_worker", _fake_grade)
        base = os.fsencode(Path(folder).resolve())
        klass = os.path.join(base, b"class")
        students, counts = _build(klass, *shape)
        out = Path(os.fsdecode(base)) / "out"
        out.mkdir()
        if not students:
            code, _, err = _main([os.fsdecode(klass), "--solutions", str(SOLUTIONS)])
            assert code == 2 and "no notebooks" in err
            return
        report = _reports(Path(os.fsdecode(klass)), out, "--no-sandbox", "-j", "1",
                          "--details")
        rows = _rows(report)
        _no_formula_and_one_line(report)
        assert len(rows) == len(students) == report["json"]["students"]
        for key, name in students.items():
            found = [i for i in rows if _shows(re.sub(r" \(\d+\)$", "", i), name)]
            assert found, (name, list(rows))
            if len(found) == 1:  # its row says which of its notebooks were refused
                status = rows[found[0]][-1]  # "duplicate": two notebooks answer 01.1
                assert status in ("graded", "duplicate") if all(counts[key]) else \
                    "unreadable" in status.split(), (name, status)
        for i in rows:
            assert any(_shows(re.sub(r" \(\d+\)$", "", i), n) for n in students.values()), i
        notebooks = report["json"]["notebooks"]
        assert len(notebooks) == sum(map(len, counts.values()))
        for nb in notebooks:
            assert len(nb["student"]) <= MAX_NAME and len(nb["notebook"]) <= MAX_PATH
            assert all(len(q["feedback"]) <= MAX_FEEDBACK for q in nb["questions"])
        n = len(notebooks)
        assert len(report["raw_json"]) <= 2000 + n * 2 * (MAX_NAME + MAX_PATH + MAX_FEEDBACK + 400)
        assert len(report["raw_csv"]) <= 200 + len(rows) * (MAX_NAME + 80)
        terminal = report["stdout"]
        assert len(terminal) <= 1000 + n * (3 * cli.SHOWN_NAME + 2 * MAX_PATH
                                            + cli.SHOWN_FEEDBACK + 600)
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202e]", terminal)


# --- the writers --------------------------------------------------------------------------------

def _refused_class(tmp_path: Path) -> Path:
    """A class whose notebooks are all refused before grading (no kernel starts)."""
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "aaron").symlink_to(SOLUTIONS)
    os.mkdir(os.fsencode(klass) + b"/\xffnn")
    with open(os.fsencode(klass) + b"/\xffnn/" + LESSON.encode() + b".ipynb", "wb") as file:
        file.write(b"{}")
    return klass


def test_a_failed_run_leaves_the_old_reports_whole(tmp_path, monkeypatch):
    """The reports are made before either is written, each written to a temporary file in its
    folder and renamed: a failure at any point leaves the old reports as they were."""
    klass, out = _refused_class(tmp_path), tmp_path / "out"
    out.mkdir()
    (out / "r.json").write_text("old json\n")
    (out / "r.csv").write_text("old csv\n")
    args = [str(klass), "--solutions", str(SOLUTIONS), "--json", str(out / "r.json"),
            "--csv", str(out / "r.csv")]

    def broken(*_):
        raise OSError(28, "No space left on device")

    for target, name in ((cli, "to_csv"), (os, "fsync"), (os, "replace")):
        with monkeypatch.context() as patch:
            patch.setattr(target, name, broken)
            with pytest.raises(OSError):
                _main(args)
        assert (out / "r.json").read_text() == "old json\n", name
        assert (out / "r.csv").read_text() == "old csv\n"
        assert sorted(p.name for p in out.iterdir()) == ["r.csv", "r.json"]  # no leftovers
    os.chmod(out / "r.json", 0o600)
    assert _main(args)[0] == 0
    assert json.loads((out / "r.json").read_text("utf-8"))["by_status"]["unreadable"] == 2
    assert stat.S_IMODE(os.stat(out / "r.json").st_mode) == 0o600  # its mode is kept
    assert sorted(p.name for p in out.iterdir()) == ["r.csv", "r.json"]


def test_a_report_to_a_device_is_written_in_place(tmp_path):
    klass = _refused_class(tmp_path)
    assert _main([str(klass), "--solutions", str(SOLUTIONS), "--json", os.devnull])[0] == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_stdout_json_is_utf8_whatever_the_terminal_s_encoding(tmp_path):
    """``--json -`` with an ASCII stdout and names that are not UTF-8: one UTF-8 document on
    stdout, the summary on stderr with what ASCII cannot show escaped, exit 0."""
    klass = _refused_class(tmp_path)
    (klass / "zoë").mkdir()
    (klass / "zoë" / "notes.ipynb").write_text("{")
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "coursekit.grading", str(klass), "--json",
                          "--no-sandbox", "--solutions", str(SOLUTIONS)], capture_output=True,
                         env=env, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    data = json.loads(run.stdout.decode("utf-8"))
    assert {nb["student"] for nb in data["notebooks"]} == {"aaron", "\\xffnn", "zoë"}
    run.stderr.decode("ascii")
    assert "zo\\xeb" in run.stderr.decode("ascii") and "Traceback" not in run.stderr.decode()


def test_every_writer_bounds_whatever_comes_in():
    """Writers take report entries from anywhere (a grader's fallback, an older version):
    strings escaped and bounded, statuses known, points finite, in every output."""
    huge = "\n" * NEWLINES
    entry = {"student": "=" + huge, "notebook": "\udcff" + huge, "status": huge,
             "started": huge, "finished": "", "questions": [
                 {"id": huge, "points": float("nan"), "max": True, "feedback": huge}]}
    clean = cli._clean(entry)
    assert clean["status"] == "crashed" and clean["score"] == 0 and clean["max_score"] == 0
    assert len(json.dumps(clean)) < 2 * (MAX_NAME * 2 + MAX_PATH + MAX_FEEDBACK + 200)
    assert clean["notebook"].startswith("\\xff") and clean["student"].endswith(CUT)
    report = {"notebooks": [clean], "by_status": {s: 0 for s in cli.STATUSES},
              "score": 0, "max_score": 0}
    text = cli.summary(report) + cli.table(clean)
    assert len(text) < 3 * MAX_PATH + cli.SHOWN_FEEDBACK + 6 * cli.SHOWN_NAME
    (row,) = list(csv.reader(io.StringIO(cli.to_csv({"notebooks": [entry]}), newline="")))[1:]
    assert row[0].startswith("'=") and len(row[0]) <= MAX_NAME + 1 and "\n" not in row[0]


@settings(max_examples=300, deadline=None)
@given(st.text(), st.integers(min_value=len(CUT), max_value=300))
def test_fuzz_printable_is_bounded_utf8_and_one_line(text, limit):
    shown = printable(text, limit)
    assert len(shown) <= limit
    shown.encode("utf-8")  # strict: no lone surrogate left
    assert not any(c in shown for c in "\r\n\x1b\u202e\x00")
    whole = printable(text)
    assert shown == whole if len(whole) <= limit else \
        shown.endswith(CUT) and whole.startswith(shown[:-len(CUT)])


@needs(sandbox_available(), "bubblewrap is not usable here")
def test_the_attacked_run_was_sandboxed(attacked):
    assert attacked["json"]["sandboxed"] is True
    assert attacked["stdout"].startswith("sandbox: on")
