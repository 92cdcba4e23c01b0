"""The grading child and its parent side, up close: the protocol, the output cap, the strict
parsing of replies, the sanitising of points, and the sandbox's mount order.

One kernel is started for the whole module (a few seconds); the rest runs no kernel.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import time
from pathlib import Path

import nbformat
import pytest

from coursekit.grading import grader, plain, runner
from coursekit.grading.__main__ import size, submissions, to_csv
from coursekit.grading.grader import clean_points, grade
from coursekit.grading.runner import (
    MAX_TASKS,
    Kernel,
    KernelDied,
    Limits,
    _essential_paths,
    _inside,
    bwrap_command,
    cgroup_parents,
    package_folders,
    parse_reply,
    pids_cgroup,
    sandbox_available,
)
from tests.setup_guarantees import needs

ROOT = Path(__file__).resolve().parents[2]
CAP = 4096


@pytest.fixture(scope="module")
def kernel():
    scratch = Path(tempfile.mkdtemp(prefix="minigrad-grade-test-"))
    k = Kernel(scratch, [], Limits(cell_timeout=30, output_cap=CAP), sandbox_available())
    k.start()
    k.cell("pass", 60)  # the first request waits for IPython's import
    yield k
    k.kill()
    shutil.rmtree(scratch, ignore_errors=True)


def test_cells_share_a_namespace_and_errors_come_back_by_name(kernel):
    assert kernel.cell("x = 41", 30)["status"] == "ok"
    assert kernel.cell("%time y = x + 1", 30)["status"] == "ok"  # magics work
    reply = kernel.cell("y / 0", 30)
    assert (reply["status"], reply["ename"]) == ("error", "ZeroDivisionError")
    assert kernel.cell("x = (", 30)["ename"] == "SyntaxError"


def test_an_observation_runs_in_a_copy_of_the_namespace(kernel):
    kernel.cell("z = 5", 30)
    source = "def bump(k):\n    global z\n    z = z + k\n    return z\n"
    reply = kernel.observe({"source": source, "call": "bump", "args": [2], "kwargs": {}}, 30)
    assert json.loads(reply["result"]) == {"returned": 7}
    again = kernel.observe({"names": ["z"]}, 30)
    assert json.loads(again["result"]) == {"z": 5}  # the assignment stayed in the copy


def test_observations_come_back_as_plain_data(kernel):
    kernel.cell("import torch\nw = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                "def double(t):\n    return t * 2", 30)
    reply = kernel.observe({"names": ["w", "nothing"]}, 30)
    values = json.loads(reply["result"])
    assert values["nothing"] == {"$": "missing"}
    assert plain.decode(values["w"]).requires_grad
    source = "def _probe(v):\n    y = double(torch.tensor(v, requires_grad=True))\n    return y\n"
    reply = kernel.observe({"source": source, "call": "_probe", "args": [[3.0]], "kwargs": {}}, 30)
    returned = json.loads(reply["result"])["returned"]
    assert returned["grad_fn"] == "MulBackward0" and returned["data"] == [6.0]
    reply = kernel.observe({"source": "def _boom():\n    raise SystemExit(3)\n", "call": "_boom",
                            "args": [], "kwargs": {}}, 30)
    raised = json.loads(reply["result"])["raised"]
    assert raised["type"] == "SystemExit" and raised["builtin"] is True
    assert kernel.cell("x_after = 1", 30)["status"] == "ok"  # the kernel lives on


def test_output_is_capped_and_display_output_dropped(kernel):
    before = kernel.output.dropped
    kernel.cell("1 + 1\nfrom IPython.display import display\ndisplay('shown?')", 30)
    kernel.cell("import os\nprint('a' * 100000)\nos.write(2, b'b' * 100000)", 30)
    deadline = time.monotonic() + 10  # the drain thread reads on its own, a little later
    while kernel.output.dropped < before + 200000 - CAP and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(kernel.output.data) <= CAP
    assert kernel.output.dropped >= before + 200000 - CAP
    assert "shown?" not in kernel.output.text() and "Out[" not in kernel.output.text()


def test_a_time_limit_kills_the_kernel(tmp_path):
    k = Kernel(tmp_path, [], Limits(), sandbox_available())
    k.start()
    k.cell("pass", 60)
    with pytest.raises(KernelDied) as died:
        k.cell("import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True: pass",
               1.5)
    assert died.value.kind == "timeout" and k.process is None


@pytest.mark.parametrize("line", [b"", b"not json", b"[1, 2]", b'{"id": "other", "status": "ok"}',
                                  b'{"id": "A", "status": "maybe"}',
                                  b'{"id": "A", "status": "ok", "result": 3}',
                                  b'{"id": "A", "status": "error", "ename": 1, "evalue": ""}',
                                  b"\xff\xfe", b"[" * 100000])
def test_malformed_replies_are_rejected(line):
    assert parse_reply(line, "A") is None


def test_a_probe_reply_must_carry_its_result():
    assert parse_reply(b'{"id": "A", "status": "ok"}', "A", observation=True) is None
    assert parse_reply(b'{"id": "A", "status": "ok", "result": "1"}', "A", observation=True)


def test_well_formed_replies_are_accepted():
    assert parse_reply(b'{"id": "A", "status": "ok"}', "A") == {"id": "A", "status": "ok"}
    error = b'{"id": "A", "status": "error", "ename": "E", "evalue": "v"}'
    assert parse_reply(error, "A")["ename"] == "E"


@pytest.mark.parametrize("value, want", [(2, 2), (1.5, 1.5), (7, 3), (-1, 0), (True, None),
                                         ("3", None), (math.nan, None), (math.inf, None),
                                         (10 ** 400, None), (None, None), ([1], None)])
def test_points_are_numbers_capped_at_the_max(value, want):
    assert clean_points(value, 3) == want


@pytest.mark.parametrize("text, want", [("4G", 4 << 30), ("512M", 512 << 20), ("64K", 65536),
                                        ("1000", 1000), ("2GiB", 2 << 30), ("0", 0)])
def test_sizes(text, want):
    assert size(text) == want


def test_csv_report_merges_a_student_s_notebooks():
    nb = {"student": "ann", "status": "graded", "score": 2, "max_score": 5,
          "questions": [{"id": "01.10", "points": 2, "max": 3, "feedback": ""},
                        {"id": "01.2", "points": 0, "max": 2, "feedback": ""}]}
    other = {**nb, "status": "timeout", "score": 1.5, "max_score": 2,
             "questions": [{"id": "02.1", "points": 1.5, "max": 2, "feedback": ""}]}
    assert to_csv({"notebooks": [nb, other]}).splitlines() == [
        "student,01.2,01.10,02.1,total,max,status", "ann,0,2,1.5,3.5,7,timeout"]


def test_csv_never_pays_a_question_twice():
    """Two notebooks of one student answering the same questions: each counts once (the
    better score), and the row says duplicate."""
    first = {"student": "ann", "status": "graded", "score": 3, "max_score": 5,
             "questions": [{"id": "01.1", "points": 3, "max": 3, "feedback": ""},
                           {"id": "01.2", "points": 0, "max": 2, "feedback": ""}]}
    again = {**first, "score": 2, "questions": [
        {"id": "01.1", "points": 0, "max": 3, "feedback": ""},
        {"id": "01.2", "points": 2, "max": 2, "feedback": ""}]}
    assert to_csv({"notebooks": [first, again]}).splitlines() == [
        "student,01.1,01.2,total,max,status", "ann,3,2,5,5,duplicate"]


def test_a_notebook_named_twice_is_graded_once(tmp_path):
    nb = tmp_path / "01_computational_graphs.ipynb"
    nb.write_text("{}")
    assert submissions([str(nb), str(tmp_path), str(nb)]) == [(nb.stem, nb)]


def test_hidden_folders_are_mounted_after_the_python_installation(tmp_path):
    """A hidden folder inside a bound folder (here a package's subfolder) becomes an empty
    tmpfs after the bind; packages under a hidden folder are bound again after it; a hidden
    folder outside everything bound is not mounted at all (an empty ``.git`` or
    ``solutions`` folder would only appear)."""
    coursekit_folder = package_folders()[0]
    root = coursekit_folder.parent
    site_packages = next(p for p in _essential_paths() if p.name == "site-packages")
    lib = site_packages.parent  # holds site-packages, and lies inside the bound installation
    inner = coursekit_folder / "grading"
    cmd = bwrap_command(tmp_path, [root / "solutions", root, root / ".git", inner, lib])
    mounts = [(cmd[i], cmd[i + 1]) for i in range(len(cmd) - 1)
              if cmd[i] in ("--tmpfs", "--ro-bind", "--bind")]
    hide_inner = mounts.index(("--tmpfs", str(inner)))
    bind_package = mounts.index(("--ro-bind", str(coursekit_folder)))
    assert bind_package < hide_inner
    hide_lib = mounts.index(("--tmpfs", str(lib)))
    rebind = max(i for i, m in enumerate(mounts) if m == ("--ro-bind", str(site_packages)))
    assert rebind > hide_lib
    for outside in (root, root / "solutions", root / ".git"):
        assert all(path != str(outside) for _kind, path in mounts), outside
    assert mounts[-1] == ("--tmpfs", str(tmp_path))  # the scratch folder, size-limited
    at = next(i for i in range(len(cmd) - 1) if cmd[i:i + 2] == ["--tmpfs", str(inner)])
    assert cmd[at - 2] == "--size"  # a hidden folder's tmpfs is tiny


def test_the_sandbox_shows_only_the_system_python_and_packages(tmp_path):
    """An allow-list, not a deny-list: the machine's root is never bound, so a copy of the
    solutions (another checkout, a git history, a backup) anywhere else is out of sight."""
    cmd = bwrap_command(tmp_path, [])
    bound = {cmd[i + 1] for i in range(len(cmd) - 1) if cmd[i] in ("--ro-bind", "--bind")}
    assert "/" not in bound and "/home" not in bound and "/root" not in bound
    assert str(ROOT) not in bound and str(ROOT / "solutions") not in bound
    assert {str(p) for p in package_folders()} <= bound
    assert not any(_inside(ROOT / "solutions", Path(p)) for p in bound)


def _answers_prefixed(tmp_path, code, first=1):
    """Solution 01 with ``code`` run first in its answer cells, from the ``first``-th on."""
    nb = nbformat.read(ROOT / "solutions" / "01_computational_graphs.ipynb", as_version=4)
    answers = [cell for cell in nb.cells if cell.metadata.get("role") == "answer"]
    for cell in answers[first - 1:]:
        cell.source = code + "\n" + cell.source
    path = tmp_path / "01_computational_graphs.ipynb"
    nbformat.write(nb, path)
    return path


def test_the_notebook_time_limit_stops_grading(tmp_path):
    """The cells stop at the notebook's limit less the share kept for the checks; the first
    answer is still checked in it, and the whole grading ends by the limit."""
    path = _answers_prefixed(tmp_path, "import time\ntime.sleep(60)", first=2)
    start = time.monotonic()
    result = grade(path, ROOT / "solutions", limits=Limits(cell_timeout=50, notebook_timeout=30))
    assert time.monotonic() - start < 30 + 5
    assert result.status == "timeout"
    first, *rest = result.questions
    assert first["points"] == first["max"], first
    assert rest[0]["feedback"] == "timed out: the notebook ran longer than its time limit (30 s)"
    assert all(q["feedback"] == "not graded: the notebook ran longer than its time limit (30 s)"
               for q in rest[1:])


def test_restarts_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(grader, "MAX_RESTARTS", 1)
    path = _answers_prefixed(tmp_path, "import os\nos._exit(1)")
    result = grade(path, ROOT / "solutions")
    assert result.status == "crashed"
    assert [q["feedback"] for q in result.questions] == [
        "your answer cell crashed the kernel: the kernel exited (status 1)"] * 2 + [
        "not graded: the kernel exited (status 1)"] * 2


def test_the_grader_process_is_not_dumpable_once_a_kernel_started(kernel):
    """Unsandboxed, a learner's process of the same user could otherwise write into the
    grader's stdout through /proc/PPID/fd/1 or patch its memory (/proc/PPID/mem, ptrace)."""
    import ctypes
    pr_get_dumpable = 3
    assert ctypes.CDLL(None).prctl(pr_get_dumpable, 0, 0, 0, 0) == 0


needs_cgroup = needs(pids_cgroup() is not None, "no writable cgroup-v1 pids hierarchy here")


def _processes_with(mark: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if mark.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
        except OSError:
            pass
    return found


@needs_cgroup
@pytest.mark.parametrize("sandbox", [False, True] if sandbox_available() else [False])
def test_forks_are_capped_and_daemons_die_with_the_kernel(tmp_path, sandbox):
    """A (bounded) fork bomb stops at MAX_TASKS, and a daemon in a session of its own, which
    the process group kill misses unsandboxed, is killed with the kernel all the same."""
    mark = f"4242.{int(sandbox)}5"
    k = Kernel(tmp_path, [], Limits(), sandbox)
    k.start()
    k.cell("pass", 60)
    reply = k.cell(
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execvp('sleep', ['sleep', '{mark}'])\n"
        "    os._exit(0)\n"
        "os.wait()\n"
        "forked = 0\n"
        f"for _ in range({MAX_TASKS + 100}):\n"
        "    try:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(120)\n"
        "            os._exit(0)\n"
        "    except OSError:\n"
        "        break\n"
        "    forked += 1\n"
        f"assert forked < {MAX_TASKS}, forked\n", 60)
    assert reply["status"] == "ok", reply
    assert _processes_with(mark)
    cgroups = dict(k.cgroups)
    assert cgroups["pids"].parent == pids_cgroup()
    k.kill()
    assert _processes_with(mark) == []
    assert not any(folder.exists() for folder in cgroups.values())


@needs("memory" in cgroup_parents(), "no writable memory cgroup here")
def test_the_memory_limit_holds_for_all_the_kernel_s_processes_together(tmp_path):
    """Three children of 1.2 GB each, every one within the 3 GB address-space limit: together
    they pass the kernel's memory cgroup limit, and the kernel's own OOM killer stops them."""
    k = Kernel(tmp_path, [], Limits(memory=3 << 30), False)
    k.start()
    k.cell("pass", 60)
    try:
        reply = k.cell(
            "import os, time\n"
            "kids = []\n"
            "for _ in range(3):\n"
            "    pid = os.fork()\n"
            "    if pid == 0:\n"
            "        block = b'x' * (1200 << 20)\n"
            "        time.sleep(10)\n"
            "        os._exit(0)\n"
            "    kids.append(pid)\n"
            "killed = sum(os.WIFSIGNALED(s) for s in (os.waitpid(p, 0)[1] for p in kids))\n"
            "assert killed, 'all three children lived'\n", 60)
        assert reply["status"] == "ok", reply
    except KernelDied as died:  # the OOM killer chose the kernel itself
        assert died.reason.startswith("the kernel ran out of memory"), died.reason
    finally:
        k.kill()


def test_a_module_written_to_the_scratch_folder_cannot_replace_the_kernel(tmp_path):
    """Unsandboxed, the scratch folder outlives a restart: a planted coursekit package there
    must not be what the next kernel imports."""
    k = Kernel(tmp_path, [], Limits(), False)
    k.start()
    k.cell("pass", 60)
    k.cell("import os\nos.makedirs('coursekit/grading', exist_ok=True)\n"
           "for f in ('coursekit/__init__.py', 'coursekit/grading/__init__.py'):\n"
           "    open(f, 'w').close()\n"
           "open('coursekit/grading/kernel.py', 'w').write('import os\\nos._exit(7)')\n", 60)
    k.kill()
    k.start()
    try:
        assert k.cell("import sys\nassert '' not in sys.path", 60)["status"] == "ok"
    finally:
        k.kill()


@needs(sandbox_available(), "bubblewrap is not usable here")
def test_the_sandboxed_kernel_has_no_capabilities(tmp_path):
    """bwrap started by root keeps every capability unless told otherwise: with them the
    learner's code remounted a read-only bind writable and wrote into the grader's package."""
    target = package_folders()[0] / "g14-escaped"
    k = Kernel(tmp_path, [], Limits(), True)
    k.start()
    try:
        k.cell("pass", 60)
        reply = k.cell(
            "import subprocess\n"
            "assert open('/proc/self/status').read().split('CapEff:')[1].split()[0] == "
            "'0' * 16\n"
            f"subprocess.run(['mount', '-o', 'remount,rw,bind', {str(target.parent)!r}])\n"
            "try:\n"
            f"    open({str(target)!r}, 'x').close()\n"
            "except OSError:\n"
            "    pass\n", 60)
        assert reply["status"] == "ok", reply
        assert not target.exists()
    finally:
        k.kill()
        target.unlink(missing_ok=True)


def test_a_student_id_is_never_a_spreadsheet_formula():
    nb = {"student": "=HYPERLINK(\"http://x\",\"9/9\")", "status": "graded", "score": 0,
          "max_score": 2, "questions": [{"id": "01.1", "points": 0, "max": 2, "feedback": ""}]}
    rows = to_csv({"notebooks": [nb, {**nb, "student": "@SUM(1)"}, {**nb, "student": "ann"}]})
    assert [line.split(",")[0] for line in rows.splitlines()[1:]] == [
        '"\'=HYPERLINK(""http://x""', "'@SUM(1)", "ann"]


@pytest.mark.parametrize("sandbox", [False, True] if sandbox_available() else [False])
def test_a_forked_copy_of_the_kernel_never_answers_the_grader(tmp_path, sandbox):
    """``os.fork()`` in a cell: both copies go on running the kernel's loop. Only the real one
    may read the grader's requests and answer them, or grading would follow whichever copy
    answered first (a fork bomb's scores changed from run to run)."""
    k = Kernel(tmp_path, [], Limits(), sandbox)
    k.start()
    try:
        k.cell("pass", 60)
        assert k.cell("import os\nparent = os.getpid()\nos.fork()", 60)["status"] == "ok"
        for i in range(5):
            k.cell(f"x{i} = {i}", 60)
            reply = k.observe({"source": "def _pid():\n    return os.getpid() == parent\n",
                               "call": "_pid", "args": [], "kwargs": {}}, 60)
            assert json.loads(reply["result"]) == {"returned": True}
    finally:
        k.kill()


def test_a_checkout_under_tmp_is_read_only_on_the_way_to_its_packages(tmp_path, monkeypatch):
    """The sandbox's /tmp is private and writable; bwrap makes the folders leading to the
    bound packages there, and they are made read-only (writing beside the packages of a
    checkout in /tmp fails as it does elsewhere), but not the bound folders themselves nor
    /tmp."""
    bound = [Path("/tmp/class/repo/minigrad"), Path("/tmp/class/repo/.venv"),
             Path("/tmp/class/repo/.venv/bin")]
    monkeypatch.setattr(runner, "_essential_paths", lambda: bound)
    cmd = bwrap_command(tmp_path, [])
    chmods = [cmd[i + 2] for i in range(len(cmd) - 2) if cmd[i:i + 2] == ["--chmod", "0555"]]
    assert chmods == ["/tmp/class", "/tmp/class/repo"]
    assert cmd.index("--chmod") > cmd.index(str(tmp_path))  # after the scratch folder exists
