"""The grader's side of a grading child (``coursekit.grading.kernel``): start, limit, talk, kill.

Each ``Kernel`` is one child process running a learner's cells. The grader:

* sends JSON requests on the child's stdin and reads JSON replies on a dedicated pipe (not the
  child's stdout), parsed strictly: anything malformed, oversized or with the wrong id is
  "no verdict" (``KernelDied("malformed", ...)``) and the child is killed;
* drains the child's fd 1 and 2 (the learner's output, C-level writes included) in a thread,
  keeping at most ``output_cap`` bytes and dropping the rest;
* enforces the time limits itself (a learner can block signals): when a reply does not come in
  time, the child's whole process group gets SIGKILL;
* limits the child's address space (RLIMIT_AS) before it starts;
* runs the child inside bubblewrap when it works (``sandbox_available()``): read-only root,
  no network, private /tmp, a scratch folder as the only writable place, and empty tmpfs over
  the folders the learner must not see (solutions, submissions, reports, home folders).
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import secrets
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from importlib.util import find_spec
from pathlib import Path

DEFAULT_CELL_TIMEOUT = 60.0  # seconds per cell
DEFAULT_NOTEBOOK_TIMEOUT = 600.0  # seconds per notebook, restarts included
DEFAULT_MEMORY = 4 << 30  # bytes of address space (RLIMIT_AS)
DEFAULT_OUTPUT_CAP = 64 << 10  # bytes of learner output kept per kernel
REPLY_CAP = 1 << 20  # bytes: a longer reply line is malformed
START_TIMEOUT = 60.0  # seconds for the child to import IPython and answer a first request


class KernelDied(Exception):
    """The child is gone: ``kind`` is "crashed", "timeout" or "malformed"."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind, self.reason = kind, reason


@dataclass
class Limits:
    cell_timeout: float = DEFAULT_CELL_TIMEOUT
    notebook_timeout: float = DEFAULT_NOTEBOOK_TIMEOUT
    memory: int = DEFAULT_MEMORY
    output_cap: int = DEFAULT_OUTPUT_CAP


@cache
def sandbox_available() -> bool:
    """Whether bubblewrap is installed and allowed to make namespaces here (probed once)."""
    if not sys.platform.startswith("linux"):
        return False
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    try:
        probe = subprocess.run([bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                                "--unshare-all", "--die-with-parent", "--new-session", "true"],
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


def package_folders() -> list[Path]:
    """The coursekit and minigrad package folders the grader itself would import (so a
    worktree grades with its own code), without importing minigrad here."""
    return [Path(find_spec(name).origin).resolve().parent for name in ("coursekit", "minigrad")]


def import_roots() -> list[Path]:
    """The folders the child needs on its import path: those holding the two packages."""
    return list(dict.fromkeys(folder.parent for folder in package_folders()))


def _python_paths() -> set[Path]:
    """The Python installation, resolved and as named (a virtual environment reached through a
    symlink is found from the path the interpreter was started with)."""
    named = [sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(sys.executable).parent)]
    return {Path(p).resolve() for p in named} | {Path(os.path.abspath(p)) for p in named}


def _readable_paths() -> list[Path]:
    """What the child must still see read-only inside the sandbox: the Python installation and
    site-packages (torch...), and the coursekit and minigrad package folders."""
    paths = _python_paths()
    paths |= {Path(p).resolve() for p in sys.path if p and Path(p).is_dir()}
    paths |= set(package_folders())
    return sorted(paths, key=lambda p: len(p.parts))


def _essential_paths() -> list[Path]:
    """The Python installation, site-packages and the coursekit and minigrad package folders
    (not the course's root, which may hold the solutions)."""
    prefixes = _python_paths()
    return sorted(prefixes | set(package_folders()) | {
        Path(p).resolve() for p in sys.path
        if p and Path(p).is_dir() and any(_inside(Path(p).resolve(), x) for x in prefixes)},
        key=lambda p: len(p.parts))


def home_folders() -> list[Path]:
    found = {Path(p) for p in ("/home", "/root", "/Users") if Path(p).is_dir()}
    try:
        found.add(Path.home().resolve())
    except RuntimeError:
        pass
    return sorted(found)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def bwrap_command(scratch: Path, hidden: list[Path]) -> list[str]:
    """bubblewrap's arguments, in mount order: home folders become empty tmpfs; the Python
    installation, site-packages and the packages are bound back read-only; then the ``hidden``
    folders become empty tmpfs (over anything bound before: solutions under the course's root
    stay hidden); then the Python installation and the packages are bound again where a hidden
    folder held them; last, the scratch folder, the only writable place."""
    cmd = [shutil.which("bwrap") or "bwrap", "--ro-bind", "/", "/", "--dev", "/dev",
           "--proc", "/proc", "--tmpfs", "/tmp"]
    hidden = sorted({Path(h).resolve() for h in hidden} - {Path("/")}, key=lambda p: len(p.parts))
    for folder in home_folders():
        cmd += ["--tmpfs", str(folder)]
    for path in _readable_paths():
        cmd += ["--ro-bind", str(path), str(path)]
    for folder in hidden:
        if folder.is_dir():
            cmd += ["--tmpfs", str(folder)]
    for path in _essential_paths():
        if any(_inside(path, folder) for folder in hidden) \
                and not any(_inside(folder, path) for folder in hidden):
            cmd += ["--ro-bind", str(path), str(path)]
    cmd += ["--bind", str(scratch), str(scratch), "--unshare-all", "--die-with-parent",
            "--new-session", "--chdir", str(scratch), "--setenv", "HOME", str(scratch)]
    return cmd


_PR_SET_PDEATHSIG = 1


def _limit_memory(memory: int):
    libc = ctypes.CDLL(None) if sys.platform.startswith("linux") else None

    def preexec():
        if libc is not None:  # unsandboxed too, the child dies with the grader
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return preexec


@dataclass
class Output:
    """The learner's output, at most ``cap`` bytes kept; ``dropped`` counts the rest."""
    cap: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def drain(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            room = self.cap - len(self.data)
            self.data += chunk[:max(room, 0)]
            self.dropped += max(len(chunk) - max(room, 0), 0)
        os.close(fd)

    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


class Kernel:
    """One grading child. ``cell()`` and ``observe()`` return the reply dict or raise
    ``KernelDied`` (after which the child is dead; ``start()`` a new one)."""

    def __init__(self, scratch: Path, hidden: list[Path], limits: Limits, sandbox: bool):
        self.scratch, self.hidden, self.limits, self.sandbox = scratch, hidden, limits, sandbox
        self.process = None
        self.output = Output(limits.output_cap)

    def start(self) -> None:
        reply_r, reply_w = os.pipe()
        out_r, out_w = os.pipe()
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.scratch),
               "PYTHONPATH": os.pathsep.join(map(str, import_roots())),
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1", "MPLBACKEND": "Agg",
               "IPYTHONDIR": str(self.scratch / ".ipython"), "OMP_NUM_THREADS": "1",
               "MKL_NUM_THREADS": "1", "LANG": "C.UTF-8", "TMPDIR": str(self.scratch)}
        cmd = [sys.executable, "-m", "coursekit.grading.kernel", str(reply_w)]
        if self.sandbox:
            cmd = [*bwrap_command(self.scratch, self.hidden), *cmd]
        try:
            self.process = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=out_w, stderr=out_w, pass_fds=(reply_w,),
                cwd=self.scratch, env=env, start_new_session=True,
                preexec_fn=_limit_memory(self.limits.memory))
        finally:
            os.close(reply_w)
            os.close(out_w)
        self.reply_fd, self.buffer = reply_r, b""
        self.drainer = threading.Thread(target=self.output.drain, args=(out_r,), daemon=True)
        self.drainer.start()

    def _request(self, request: dict, timeout: float, observation: bool = False) -> dict:
        request["id"] = secrets.token_hex(8)
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
        except OSError:
            raise self._died("crashed", "the kernel died") from None
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._died("timeout", f"ran longer than the time limit ({timeout:g} s)")
            ready, _, _ = select.select([self.reply_fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(self.reply_fd, 65536)
            if not chunk:
                raise self._died("crashed", "")
            self.buffer += chunk
            if len(self.buffer) > REPLY_CAP:
                raise self._died("malformed", "the kernel's reply was too long")
        line, self.buffer = self.buffer.split(b"\n", 1)
        reply = parse_reply(line, request["id"], observation)
        if reply is None or self.buffer:
            raise self._died("malformed", "the kernel's reply was malformed")
        return reply

    def cell(self, source: str, timeout: float) -> dict:
        return self._request({"op": "cell", "source": source}, timeout)

    def observe(self, request: dict, timeout: float) -> dict:
        return self._request({"op": "observe", **request}, timeout, observation=True)

    def _death_reason(self) -> str:
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "the kernel closed its reply pipe"
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else -code
            return f"the kernel died ({name})"
        return f"the kernel exited (status {code})"

    def _died(self, kind: str, reason: str) -> KernelDied:
        if kind == "crashed":
            reason = self._death_reason()
            # bwrap reports its child's death by signal as exit status 128+N
            code = self.process.returncode
            if self.sandbox and code is not None and code > 128:
                sig = code - 128
                name = signal.Signals(sig).name if sig in signal.valid_signals() else sig
                reason = f"the kernel died ({name})"
        self.kill()
        return KernelDied(kind, reason)

    def kill(self) -> None:
        """SIGKILL the child's process group (bwrap's --die-with-parent takes the rest)."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for closing in (self.process.stdin,):
            try:
                closing.close()
            except OSError:
                pass
        try:
            os.close(self.reply_fd)
        except OSError:
            pass
        self.drainer.join(timeout=5)
        self.process = None


def parse_reply(line: bytes, want_id: str, observation: bool = False) -> dict | None:
    """The reply as a dict with the documented schema (an observation's "ok" carries its "result"
    text), or None when anything is off."""
    try:
        reply = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(reply, dict) or reply.get("id") != want_id:
        return None
    status = reply.get("status")
    if status == "ok":
        if ("result" in reply or observation) and not isinstance(reply.get("result"), str):
            return None
        return reply
    if status == "error" and isinstance(reply.get("ename"), str) \
            and isinstance(reply.get("evalue"), str):
        return reply
    return None
