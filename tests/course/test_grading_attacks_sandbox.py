"""Attacks on the grader's sandbox and time limits, graded with the real grader (issue 21, part 2).

* ``staller``: learner code takes over the kernel's own loop, answers the grader's next request
  itself and stops reading its stdin; the request after it (a 300 kB cell) fills the pipe. The
  grader's write must not block: the batch ends within ``--notebook-timeout`` and the report is
  written.
* The learner never runs as root: inside the kernel (sandboxed or not) the uid is not 0, it
  maps to a host uid that is not 0 either (read from the host's side), ``/proc/sys`` knobs
  cannot be opened for writing and ``/etc/shadow`` cannot be read; ``peeker`` (the solution,
  each answer cell preceded by such a probe that raises if it succeeds) keeps full marks.
* ``hog``: its observed function sleeps in every observation, holding the grader for as long
  as it may; ``bob`` (the solution), graded beside it, keeps full marks and is not slowed.
* The notebook time limit covers everything: cells that use it up, then checks that observe
  slowly, still end by ``--notebook-timeout`` (plus a small slack).
* The same guarantees when the grader itself runs as an unprivileged user.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
import pytest

from coursekit.grading import plain, runner
from coursekit.grading.runner import (
    LEARNER_UIDS,
    Kernel,
    Limits,
    _child_limits,
    _reach_plan,
    sandbox_available,
)
from tests.setup_guarantees import needs

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
LESSON = "01_computational_graphs"
FULL = {"01.1": 2, "01.2": 2, "01.3": 2, "01.4": 3}
SLACK = 7.0  # seconds: a late worker is killed 5 s after its notebook's limit, and the
# report's times are whole seconds
IS_ROOT = os.geteuid() == 0
needs_sandbox = needs(sandbox_available(), "bubblewrap is not usable here")
SANDBOXES = [False, True] if sandbox_available() else [False]


def _solution():
    return nbformat.read(SOLUTIONS / f"{LESSON}.ipynb", as_version=4)


def _cell(nb, qid, role):
    return next(c for c in nb.cells if c.metadata.get("role") == role
                and c.metadata.get("question") == qid)


def _write(folder: Path, who: str, nb) -> Path:
    (folder / who).mkdir(parents=True, exist_ok=True)
    path = folder / who / f"{LESSON}.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def _grade_class(folder: Path, *options: str, timeout: float = 600, **popen) -> tuple[dict, float]:
    """``python -m coursekit.grading FOLDER --json REPORT``: the report and the wall time."""
    report = folder.parent / f"{folder.name}-report.json"
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "coursekit.grading", str(folder), "--json",
                          str(report), "--solutions", str(popen.pop("solutions", SOLUTIONS)),
                          *options], capture_output=True, text=True, timeout=timeout,
                         cwd=popen.pop("cwd", ROOT), **popen)
    elapsed = time.monotonic() - start
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(report.read_text(encoding="utf-8")), elapsed


def _by_student(report: dict) -> dict[str, dict]:
    return {nb["student"]: nb for nb in report["notebooks"]}


def _seconds(notebook: dict) -> float:
    """The notebook's grading time in the report: its worker's, from start to report (whole
    seconds, so up to 1 s more)."""
    start, end = (datetime.fromisoformat(notebook[k]) for k in ("started", "finished"))
    return (end - start).total_seconds()


def _full_marks(notebook: dict) -> bool:
    return {q["id"]: q["points"] for q in notebook["questions"]} == FULL


# --- every wait has a deadline ------------------------------------------------------------------

STALL = r"""
import gc, json, sys, time
_kernel = next(f.__globals__ for f in gc.get_objects()  # the kernel module's globals
               if callable(f) and getattr(f, '__name__', '') == 'run_observe'
               and hasattr(f, '__globals__'))
def _stall(shell, source):
    # answer the grader's request myself (from the kernel loop's frame), then never read
    # stdin again
    frame = sys._getframe(1)
    frame.f_locals['reply'].write(json.dumps({'id': frame.f_locals['request']['id'],
                                              'status': 'ok'}) + '\n')
    while True:
        time.sleep(3600)
_kernel['run_cell'] = _stall
"""


def test_a_kernel_that_stops_reading_cannot_hang_the_batch(tmp_path):
    """The staller's next cell is answered by its own code, the one after (300 kB) fills the
    pipe: the write is non-blocking, the kernel is killed at the cell's time limit, and the
    notebook ends by its own limit. Bob, graded beside it, keeps full marks."""
    nb = _solution()
    nb.cells[1:1] = [nbformat.v4.new_code_cell(STALL), nbformat.v4.new_code_cell("x = 1"),
                     nbformat.v4.new_code_cell("# " + "x" * 300_000 + "\ny = 2\n")]
    klass = tmp_path / "class"
    _write(klass, "staller", nb)
    _write(klass, "bob", _solution())
    report, _ = _grade_class(klass, "-j", "2", "--timeout", "10", "--notebook-timeout", "30",
                             timeout=30 + 120)
    found = _by_student(report)
    assert _seconds(found["staller"]) <= 30 + SLACK, found["staller"]
    assert found["staller"]["status"] in ("timeout", "crashed"), found["staller"]
    assert _full_marks(found["bob"]), found["bob"]


def test_a_request_write_that_cannot_complete_times_out(tmp_path):
    """The mechanism alone: a kernel whose loop no longer reads its stdin; a 1 MB request
    fails with "timeout" when its time limit passes, instead of blocking the grader."""
    k = Kernel(tmp_path, [], Limits(), sandbox_available())
    k.start()
    try:
        k.cell("pass", 60)
        k.cell(STALL, 60)
        assert k.cell("x = 1", 60)["status"] == "ok"  # answered by the learner's own code
        start = time.monotonic()
        with pytest.raises(runner.KernelDied) as died:
            k.cell("# " + "x" * (1 << 20), 3)
        assert died.value.kind == "timeout"
        assert time.monotonic() - start < 3 + 2
    finally:
        k.kill()


# --- the learner never runs as root ---------------------------------------------------------------

FACTS = r"""
import os
facts = {'uid': os.getuid(), 'gid': os.getgid(), 'euid': os.geteuid(),
         'groups': os.getgroups(), 'writable': [], 'readable': []}
for _knob in ('/proc/sys/kernel/core_pattern', '/proc/sys/vm/drop_caches',
              '/proc/sys/vm/overcommit_memory', '/proc/sys/fs/file-max',
              '/proc/sysrq-trigger', '/sys/kernel/mm/transparent_hugepage/enabled'):
    try:
        open(_knob, 'w').close()
        facts['writable'].append(_knob)
    except OSError:
        pass
for _secret in ('/etc/shadow', '/etc/gshadow', '/root/.bashrc', '/root/.pyenv/version'):
    try:
        open(_secret, 'rb').read(1)
        facts['readable'].append(_secret)
    except OSError:
        pass
try:
    os.listdir('/root/.ssh')
    facts['readable'].append('/root/.ssh')
except OSError:
    pass
try:
    os.setuid(0)
    facts['setuid0'] = True
except OSError:
    facts['setuid0'] = False
import subprocess
facts['sudo'] = subprocess.run(['sh', '-c', 'id -u; su -c "id -u" root </dev/null'],
                               capture_output=True, text=True).stdout.split()
import json
facts_json = json.dumps(facts)
open('/proc/self/comm', 'w').write(COMM)
"""


def _host_view(comm: str) -> list[dict]:
    """From the host's side: the uids and uid maps of the processes named ``comm``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() != comm:
                continue
            status = Path(f"/proc/{pid}/status").read_text()
            uid_map = Path(f"/proc/{pid}/uid_map").read_text().split()
        except OSError:
            continue
        uids = [int(u) for u in status.split("Uid:")[1].split("\n")[0].split()]
        found.append({"uids": uids, "map": [int(x) for x in uid_map]})
    return found


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_kernel_is_unprivileged_inside_and_on_the_host(tmp_path, sandbox):
    comm = f"g21-{int(sandbox)}-{os.getpid() % 10000}"
    k = Kernel(tmp_path, [], Limits(), sandbox)
    k.start()
    try:
        k.cell("pass", 60)
        reply = k.cell(f"COMM = {comm!r}\n" + FACTS, 60)
        assert reply["status"] == "ok", reply
        observed = json.loads(k.observe({"names": ["facts_json"]}, 60)["result"])
        host = _host_view(comm)
    finally:
        k.kill()
    facts = json.loads(plain.decode(observed["facts_json"]))
    assert facts["uid"] != 0 and facts["euid"] != 0 and facts["gid"] != 0, facts
    assert facts["writable"] == [] and facts["readable"] == [], facts
    assert facts["setuid0"] is False and "0" not in facts["sudo"], facts
    assert len(host) == 1, host
    assert all(uid != 0 for uid in host[0]["uids"]), host
    if IS_ROOT:
        assert all(uid in LEARNER_UIDS for uid in host[0]["uids"]), host
    if sandbox:  # its user namespace: (inside, outside on the host, count) lines, none of
        # which reaches the host's root
        lines = [host[0]["map"][i:i + 3] for i in range(0, len(host[0]["map"]), 3)]
        assert all(not outside <= 0 < outside + count for _, outside, count in lines), lines


def test_two_kernels_never_share_a_uid(tmp_path):
    """Root grading: each kernel has a uid of its own (unsandboxed, kernels of the same uid
    could signal or trace each other)."""
    uids = {runner.learner_uid() for _ in range(50)}
    if IS_ROOT:
        assert len(uids) == 50 and uids <= set(LEARNER_UIDS)
    else:
        assert uids == {None}


PROBES = {
    "01.1": "assert os.getuid() != 0 and os.geteuid() != 0, 'ESCAPED: root'\n",
    "01.2": "".join(f"try:\n    open({k!r}, 'w').close()\nexcept OSError:\n    pass\n"
                    f"else:\n    raise RuntimeError('ESCAPED: {k} writable')\n"
                    for k in ("/proc/sys/kernel/core_pattern", "/proc/sys/vm/drop_caches")),
    "01.3": "try:\n    open('/etc/shadow').read()\nexcept OSError:\n    pass\n"
            "else:\n    raise RuntimeError('ESCAPED: /etc/shadow read')\n",
    "01.4": "try:\n    os.setuid(0)\nexcept OSError:\n    pass\n"
            "else:\n    raise RuntimeError('ESCAPED: setuid(0)')\n",
}


def _peeker():
    nb = _solution()
    for qid, probe in PROBES.items():
        answer = _cell(nb, qid, "answer")
        answer.source = "import os\n" + probe + answer.source
    return nb


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_peeker_finds_no_privilege_and_keeps_full_marks(tmp_path, sandbox):
    klass = tmp_path / "class"
    _write(klass, "peeker", _peeker())
    report, _ = _grade_class(klass, *([] if sandbox else ["--no-sandbox"]))
    assert report["sandboxed"] is sandbox
    assert _full_marks(_by_student(report)["peeker"]), report["notebooks"]


# --- no shared lock: a classmate is never slowed ------------------------------------------------

HOG = """
import time
_topo_order = topo_order
def topo_order(root):
    time.sleep(HOLD)
    return _topo_order(root)
"""


def test_a_classmate_beside_a_slow_observer_keeps_full_marks_and_time(tmp_path):
    """The hog's four observations of 01.4 sleep 8 s each: its checks hold the grader for
    32 s. Bob, graded at the same time (-j 2), keeps full marks and is done well before
    (sharing the grader's check lock, he waited for all of it): nothing is shared."""
    hog = _solution()
    hog.cells.append(nbformat.v4.new_code_cell("HOLD = 8\n" + HOG))
    klass = tmp_path / "class"
    _write(klass, "a-hog", hog)  # first in order: it is observing when bob's checks run
    _write(klass, "bob", _solution())
    report, _ = _grade_class(klass, "-j", "2", "--timeout", "30", "--notebook-timeout", "60")
    found = _by_student(report)
    assert _full_marks(found["a-hog"]), found["a-hog"]  # slow, not wrong
    assert _seconds(found["a-hog"]) >= 4 * 8
    assert _full_marks(found["bob"]), found["bob"]
    assert _seconds(found["bob"]) < 24, found["bob"]


# --- the notebook time limit covers cells, restarts, rebuilds and checks -----------------------

def test_the_notebook_time_limit_covers_the_checks(tmp_path):
    """Cells that use up the notebook's limit (a last cell that sleeps), then checks whose
    observations sleep: the whole notebook still ends by --notebook-timeout (plus the CLI's
    start), not twice that."""
    slow = _solution()
    slow.cells.append(nbformat.v4.new_code_cell("HOLD = 8\n" + HOG))
    slow.cells.append(nbformat.v4.new_code_cell("import time\ntime.sleep(100)"))
    klass = tmp_path / "class"
    _write(klass, "slow", slow)
    report, _ = _grade_class(klass, "--timeout", "9", "--notebook-timeout", "20", timeout=200)
    notebook = _by_student(report)["slow"]
    assert _seconds(notebook) <= 20 + SLACK, notebook
    assert notebook["status"] == "timeout", notebook
    assert [q["id"] for q in notebook["questions"]] == list(FULL)


def _stuck_worker(job, out):
    """A worker that announces its questions, then neither finishes nor answers."""
    out.send_bytes(json.dumps({"questions": [{"id": "01.1", "max": 2}]}).encode())
    time.sleep(600)


def test_a_worker_stuck_past_the_limit_is_killed_and_reported(monkeypatch):
    """A worker that neither finishes nor answers (stuck in a rebuild, say) is killed at the
    limit plus ``KILL_GRACE``; its notebook is reported with its questions, 0 points each."""
    from coursekit.grading import worker
    monkeypatch.setattr(worker, "run", _stuck_worker)
    monkeypatch.setattr(worker, "KILL_GRACE", 1.0)
    worker.grade_in_worker(SOLUTIONS / f"{LESSON}.ipynb", SOLUTIONS,  # starts the fork server
                           limits=Limits(notebook_timeout=1), student="warm-up", sandbox=False)
    start = time.monotonic()
    result = worker.grade_in_worker(SOLUTIONS / f"{LESSON}.ipynb", SOLUTIONS,
                                    limits=Limits(notebook_timeout=3), student="stuck",
                                    sandbox=False)
    assert time.monotonic() - start < 3 + 1 + 3
    assert result["status"] == "timeout"
    assert result["questions"] == [{"id": "01.1", "points": 0, "max": 2, "feedback":
                                    "not graded: the notebook ran longer than its time limit "
                                    "(3 s)"}]


# --- the same guarantees when the grader is not root ----------------------------------------

NOBODY = 65534


def _as_nobody_copy(base: Path) -> Path:
    """A copy of the course's packages and solutions that uid 65534 can read."""
    course = base / "course"
    for name in ("coursekit", "minigrad", "solutions"):
        shutil.copytree(ROOT / name, course / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for folder in [base, *(p for p in base.rglob("*") if p.is_dir())]:
        folder.chmod(0o755)
    for path in base.rglob("*"):
        if path.is_file():
            path.chmod(0o644)
    return course


@needs(IS_ROOT, "only root can start a grading as another user")
def test_grading_as_an_unprivileged_user_keeps_every_guarantee(tmp_path_factory):
    """The grader started as uid 65534 (in a mount namespace where the Python installation is
    reachable, as the grader gives its kernels): the kernels run as that uid (no cgroups), the
    peeker still finds no privilege and keeps full marks, the staller cannot hang the batch,
    and the report is written."""
    base = tmp_path_factory.mktemp("nobody")  # reached through the mount namespace
    course = _as_nobody_copy(base)
    klass = base / "class"
    _write(klass, "peeker", _peeker())
    staller = _solution()
    staller.cells[1:1] = [nbformat.v4.new_code_cell(STALL), nbformat.v4.new_code_cell("x = 1"),
                          nbformat.v4.new_code_cell("# " + "x" * 300_000 + "\ny = 2\n")]
    _write(klass, "staller", staller)
    out = base / "out"
    out.mkdir()
    for path in [klass, out, *klass.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(out),
           "PYTHONPATH": str(course), "LANG": "C.UTF-8"}
    run = subprocess.run(
        [sys.executable, "-m", "coursekit.grading", str(klass), "--json", str(out / "r.json"),
         "--solutions", str(course / "solutions"), "-j", "2", "--timeout", "5",
         "--notebook-timeout", "25"],
        capture_output=True, text=True, timeout=300, cwd=course, env=env,
        preexec_fn=_child_limits(0, {}, NOBODY, _reach_plan(NOBODY, [base])))
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads((out / "r.json").read_text(encoding="utf-8"))
    assert report["sandboxed"] is sandbox_available()
    found = _by_student(report)
    assert _full_marks(found["peeker"]), found["peeker"]
    assert found["staller"]["status"] in ("timeout", "crashed"), found["staller"]
    assert _seconds(found["staller"]) <= 25 + SLACK, found["staller"]
