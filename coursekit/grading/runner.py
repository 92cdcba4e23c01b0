"""The grader's side of a grading child (``coursekit.grading.kernel``): start, limit, talk, kill.

Each ``Kernel`` is one child process running a learner's cells. The grader:

* sends JSON requests on the child's stdin and reads JSON replies on a dedicated pipe (not the
  child's stdout), parsed strictly: anything malformed, oversized or with the wrong id is
  "no verdict" (``KernelDied("malformed", ...)``) and the child is killed;
* drains the child's fd 1 and 2 (the learner's output, C-level writes included) in a thread,
  keeping at most ``output_cap`` bytes and dropping the rest;
* enforces the time limits itself (a learner can block signals): a request is written without
  blocking and its reply read within the same deadline; when either does not happen in time
  (a child that stops reading its stdin included), the child's whole process group gets SIGKILL;
* never runs the learner's code as root: a grader running as root starts each child as a
  fresh unprivileged uid of its own (``learner_uid``), with no groups, in a private mount
  namespace where the Python installation and the packages are reachable by that uid even
  when they sit in a private folder (``/root/.pyenv``); the rest of such a folder is hidden;
* limits the child's address space (RLIMIT_AS) and the size of a file it writes
  (RLIMIT_FSIZE) before it starts, and makes the grader's own process non-dumpable
  (``protect_grader``) so a child of the same user cannot read or write it through ``/proc``;
* where it may (``cgroup_parents``), puts each child in cgroups of its own that cap its tasks
  (a fork bomb stops there) and the memory of all its processes together, and through which
  every process it started is killed with it;
* runs the child inside bubblewrap when it works (``sandbox_available()``): an empty root with
  only the system folders, the Python installation and the two packages bound read-only (no
  view of the solutions, the course's other files, other submissions, reports or home folders,
  wherever they are), no network, its own process namespace (it cannot signal the grader), a
  size-limited private /tmp, and a size-limited private scratch folder, holding a copy of the
  notebook, as the only writable place.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import os
import resource
import secrets
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
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


# A grader running as root runs each kernel as a uid of this range, picked at random (no two
# kernels share one, so unsandboxed they cannot signal or trace each other either): no account
# owns them, so no file of the machine belongs to them and they are in no group.
LEARNER_UIDS = range(0x70000000, 0x71000000)


def learner_uid() -> int | None:
    """The uid a new kernel runs as: a fresh one of ``LEARNER_UIDS`` when the grader is root
    (the learner's code never runs as root, sandboxed or not), None (the grader's own) else."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    return LEARNER_UIDS[secrets.randbelow(len(LEARNER_UIDS))]


@cache
def sandbox_available() -> bool:
    """Whether bubblewrap is installed and allowed to make namespaces here (probed once, as the
    kernels will run it: the real mounts, and as an unprivileged uid when the grader is root)."""
    if not sys.platform.startswith("linux") or shutil.which("bwrap") is None:
        return False
    scratch = Path(tempfile.mkdtemp(prefix="minigrad-probe-"))
    uid = learner_uid()
    try:
        cmd = [*bwrap_command(scratch, []), sys.executable, "-I", "-c", "pass"]
        probe = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                               preexec_fn=_child_limits(0, {}, uid, _reach_plan(uid, [])))
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
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


def _essential_paths() -> list[Path]:
    """What the child must see read-only inside the sandbox: the Python installation,
    site-packages (torch...) and the coursekit and minigrad package folders; not the course's
    root, which may hold the solutions, nor the folders on the grader's own import path."""
    prefixes = _python_paths()
    return sorted(prefixes | set(package_folders()) | {
        Path(p).resolve() for p in sys.path
        if p and Path(p).is_dir() and any(_inside(Path(p).resolve(), x) for x in prefixes)},
        key=lambda p: len(p.parts))


# The system folders the sandbox shows (read-only): programs, shared libraries and their
# configuration. Nothing else of the machine is mounted (no /home, /root, /srv, /work, /opt...):
# a copy of the solutions, a git history or another submission anywhere else stays invisible.
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys")
SANDBOX_TMP_SIZE = 64 << 20  # bytes: the sandbox's private /tmp and /dev/shm (tmpfs: memory)
SCRATCH_SIZE = 256 << 20  # bytes: the sandbox's private scratch folder (a tmpfs too)
MAX_FILE_SIZE = 256 << 20  # bytes: RLIMIT_FSIZE, so an unsandboxed learner cannot fill a disk


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _system_mounts() -> list[str]:
    """The system folders as they are here: a symlink (``/bin -> usr/bin`` on merged-/usr
    systems) stays a symlink, a folder is bound read-only."""
    cmd = []
    for name in SYSTEM_FOLDERS:
        path = Path(name)
        if path.is_symlink():
            cmd += ["--symlink", os.readlink(path), name]
        elif path.is_dir():
            cmd += ["--ro-bind", name, name]
    return cmd


def bwrap_command(scratch: Path, hidden: list[Path], files: dict[str, int] | None = None) \
        -> list[str]:
    """bubblewrap's arguments, in mount order. The sandbox's root is empty: only the system
    folders, the Python installation, site-packages and the two packages are bound (read-only),
    so nothing else of the machine is visible. Then the ``hidden`` folders become empty tmpfs
    (over anything bound before: solutions inside a bound folder stay hidden), and the Python
    installation and the packages are bound again where a hidden folder held them; then the
    hidden folders are made read-only. (A hidden folder outside everything bound is left
    alone: it is not there to hide.) Last, the scratch folder: a size-limited tmpfs at the
    scratch folder's path holding copies of ``files`` (name -> an open file descriptor to copy
    from). It is the only writable place, with the size-limited private /tmp and /dev/shm:
    bwrap's own root and /dev are made read-only (tmpfs there would fill the memory)."""
    cmd = [shutil.which("bwrap") or "bwrap", *_system_mounts(), "--dev", "/dev",
           "--size", str(SANDBOX_TMP_SIZE), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
           "--proc", "/proc", "--size", str(SANDBOX_TMP_SIZE), "--tmpfs", "/tmp"]
    hidden = sorted({Path(h).resolve() for h in hidden} - {Path("/")}, key=lambda p: len(p.parts))
    # A hidden folder outside everything bound is not in the sandbox at all: mounting a tmpfs
    # there would only make an empty folder appear (a ``.git`` beside the packages).
    bound = [*_essential_paths(), *(Path(name) for name in SYSTEM_FOLDERS)]
    hidden = [folder for folder in hidden if any(_inside(folder, path) for path in bound)]
    for path in _essential_paths():
        cmd += ["--ro-bind", str(path), str(path)]
    for folder in hidden:  # tiny: only mount points are made there
        if folder.is_dir():
            cmd += ["--size", str(1 << 20), "--tmpfs", str(folder)]
    for path in _essential_paths():
        if any(_inside(path, folder) for folder in hidden) \
                and not any(_inside(folder, path) for folder in hidden):
            cmd += ["--ro-bind", str(path), str(path)]
    for folder in hidden:  # empty and read-only: writing there fails as it would outside
        if folder.is_dir() and not _inside(Path(scratch).resolve(), folder):
            cmd += ["--remount-ro", str(folder)]
    cmd += ["--size", str(SCRATCH_SIZE), "--tmpfs", str(scratch)]
    for name, fd in (files or {}).items():
        cmd += ["--file", str(fd), str(scratch / name)]
    # A checkout under /tmp: bwrap made the folders leading to its packages inside the
    # private, writable /tmp. Read-only like the rest, so writing beside the packages fails
    # as it would outside (it would only have reached the private /tmp, but it must not look
    # like it reached the course).
    tmp, essential = Path("/tmp"), _essential_paths()
    for folder in sorted({parent for path in essential for parent in path.parents
                          if _inside(parent, tmp) and parent != tmp
                          and not any(_inside(parent, bound) for bound in essential)
                          and not _inside(Path(scratch).resolve(), parent)}):
        cmd += ["--chmod", "0555", str(folder)]
    # --cap-drop ALL: bwrap started by root keeps every capability inside its namespaces, and
    # with CAP_SYS_ADMIN there the learner's code could remount the read-only binds writable
    # and write to the host (the grader's own code, the Python installation)
    cmd += ["--remount-ro", "/", "--unshare-all", "--cap-drop", "ALL", "--die-with-parent",
            "--new-session", "--chdir", str(scratch), "--setenv", "HOME", str(scratch)]
    return cmd


_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_NO_NEW_PRIVS = 38


def protect_grader() -> None:
    """Make the grader's own process non-dumpable (Linux): its ``/proc/PID/mem``, ``fd/``,
    ``environ`` then belong to root and no process of the same user may ptrace it. Unsandboxed,
    the learner's code runs as the grader's user and could otherwise write forged lines into
    the grader's stdout (``/proc/PPID/fd/1``), into another kernel's request pipe, or patch the
    grader's memory. (The learner's child is dumpable again: ``execve`` resets the flag.)"""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


MAX_TASKS = 512  # processes and threads of one kernel, where a pids cgroup can be made
# cgroup-v1 controllers a kernel gets a cgroup of, and the file holding each one's limit
CGROUP_LIMITS = {"pids": "pids.max", "memory": "memory.limit_in_bytes"}


@cache
def cgroup_parents() -> dict[str, Path]:
    """For each controller of ``CGROUP_LIMITS``, the grader's own folder in that cgroup-v1
    hierarchy, when it may make cgroups there (usually as root). Each kernel then gets a cgroup
    of its own in each: ``pids`` caps its tasks at ``MAX_TASKS`` (a fork bomb stops there
    instead of taking every process id of the machine; RLIMIT_NPROC would not, the kernel
    ignores it for root) and lists every process the learner's code started, a daemon in its
    own session included, to kill it; ``memory`` caps the memory of all its processes together
    (and its tmpfs) at the memory limit, where RLIMIT_AS caps each process alone."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return {}
    found = {}
    for line in lines:
        parts = line.split(":", 2)
        for controller in CGROUP_LIMITS:
            if len(parts) == 3 and controller in parts[1].split(","):
                folder = Path("/sys/fs/cgroup", controller, parts[2].lstrip("/"))
                if (folder / "cgroup.procs").is_file() and os.access(folder, os.W_OK):
                    found[controller] = folder
    return found


def pids_cgroup() -> Path | None:
    return cgroup_parents().get("pids")


_CLONE_NEWNS = 0x00020000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = (
    1, 2, 4, 32, 4096, 16384, 1 << 18)


@dataclass
class ReachPlan:
    """How a kernel running as an unprivileged uid reaches what it needs (``_reach_plan``):
    each ``folders`` entry is a folder that uid cannot search, mounted over with an empty
    tmpfs in the kernel's private mount namespace, and the needed paths below it (each with
    whether it stays writable) are bound back."""
    folders: dict[Path, list[tuple[Path, bool]]] = field(default_factory=dict)


def _searchable(folder: Path, uid: int) -> bool:
    info = os.stat(folder)
    if info.st_uid == uid:
        return bool(info.st_mode & stat.S_IXUSR)
    if info.st_gid == uid:  # the kernel's gid is its uid, and it has no other group
        return bool(info.st_mode & stat.S_IXGRP)
    return bool(info.st_mode & stat.S_IXOTH)


def _reach_plan(uid: int | None, writable: list[Path]) -> ReachPlan:
    """For a kernel run as ``uid`` (None: the grader's own, nothing to do): the folders on the
    way to the Python installation and the packages (``_essential_paths``, bound read-only) and
    to the ``writable`` folders (unsandboxed, the scratch folder) that ``uid`` cannot search,
    e.g. a Python installation under ``/root``."""
    plan = ReachPlan()
    if uid is None:
        return plan
    needed = [(path, False) for path in _essential_paths()] + [
        (Path(path).resolve(), True) for path in writable]
    kept: list[Path] = []
    for path, writable_path in sorted(needed, key=lambda item: len(item[0].parts)):
        if any(_inside(path, other) for other in kept):
            continue  # inside a path bound already
        for folder in reversed(path.parents):
            if folder != Path("/") and not _searchable(folder, uid):
                plan.folders.setdefault(folder, []).append((path, writable_path))
                kept.append(path)
                break
    return plan


def _mount(libc, source, target, fstype, flags: int, data=None) -> None:
    arguments = [None if x is None else str(x).encode() for x in (source, target, fstype, data)]
    if libc.mount(arguments[0], arguments[1], arguments[2], flags, arguments[3]) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {target}: {os.strerror(errno)}")


def _reach(libc, plan: ReachPlan) -> None:
    """In the forked child, as root: a private mount namespace carrying out ``plan`` (each
    needed path is opened before its folder is covered, then bound back from that descriptor:
    a bind's source must be a mount of the new namespace)."""
    if libc.unshare(_CLONE_NEWNS) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"unshare: {os.strerror(errno)}")
    _mount(libc, "none", "/", None, _MS_REC | _MS_PRIVATE)
    for folder, paths in plan.folders.items():
        fds = [os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC) for path, _ in paths]
        _mount(libc, "tmpfs", folder, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=1m,mode=0755")
        for (path, writable), fd in zip(paths, fds):
            os.makedirs(path, mode=0o755, exist_ok=True)
            _mount(libc, f"/proc/self/fd/{fd}", path, None, _MS_BIND | _MS_REC)
            if not writable:
                _mount(libc, None, path, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY)
            os.close(fd)
        _mount(libc, None, folder, None, _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)


def _child_limits(memory: int, cgroups: dict[str, Path], uid: int | None = None,
                  plan: ReachPlan | None = None):
    """The child's set-up between fork and exec: join its cgroups, the resource limits, then
    (a grader running as root) the private mount namespace of ``plan`` and the drop to the
    unprivileged ``uid`` with no groups, and last: die with the grader (a change of uid clears
    that setting, so it comes after)."""
    libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
    procs = [str(folder / "cgroup.procs") for folder in cgroups.values()]

    def preexec():
        for path in procs:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, str(os.getpid()).encode())
            finally:
                os.close(fd)
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_FILE_SIZE, MAX_FILE_SIZE))
        if uid is not None:
            if plan is not None and plan.folders:
                _reach(libc, plan)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            if os.getresuid() != (uid, uid, uid) or os.getgroups():
                raise OSError("the kernel could not drop to an unprivileged uid")
        if libc is not None:  # unsandboxed too, the child dies with the grader
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if uid is not None:  # and no set-uid program (su, sudo...) gives root back
                libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    return preexec


def _give(scratch: Path, uid: int) -> None:
    """Unsandboxed, the scratch folder and the files the grader put there belong to the
    learner's uid (nothing the learner's code made there is followed: no symlink)."""
    os.chown(scratch, uid, uid)
    for path in Path(scratch).iterdir():
        if path.is_file() and not path.is_symlink():
            os.chown(path, uid, uid, follow_symlinks=False)


def _new_cgroups(memory: int) -> dict[str, Path]:
    """A cgroup of the kernel's own under each of ``cgroup_parents()``, with its limit."""
    _remove_left()
    made = {}
    name = f"{CGROUP_PREFIX}{secrets.token_hex(6)}"
    limits = {"pids": MAX_TASKS, "memory": memory}
    for controller, parent in cgroup_parents().items():
        if not limits[controller]:
            continue
        folder = parent / name
        try:
            folder.mkdir()
            made[controller] = folder
            (folder / CGROUP_LIMITS[controller]).write_text(str(limits[controller]))
        except OSError:
            _empty_cgroups(made)
            return {}
    return made


def _out_of_memory(cgroups: dict[str, Path]) -> bool:
    """Whether the kernel's memory cgroup had a process killed for memory."""
    folder = cgroups.get("memory")
    try:
        lines = (folder / "memory.oom_control").read_text().splitlines() if folder else []
    except OSError:
        return False
    return any(line.split()[0] == "oom_kill" and int(line.split()[1]) > 0 for line in lines)


_LEFT: list[Path] = []  # cgroups that were still busy when their kernel was killed
# The start of every kernel cgroup's name; a grading worker process makes it its own, so that
# the class CLI can empty and remove what a worker it killed left (``remove_cgroups``).
CGROUP_PREFIX = "minigrad-grade-"


def remove_cgroups(prefix: str, wait: float = 5.0) -> None:
    """Kill every process in the kernel cgroups whose name starts with ``prefix`` and remove
    them (those of a grading worker that was killed)."""
    for parent in cgroup_parents().values():
        for folder in parent.glob(f"{prefix}*"):
            _empty_cgroups({"": folder}, wait)


def _empty_cgroups(cgroups: dict[str, Path], wait: float = 20.0) -> None:
    """SIGKILL every process left in the kernel's cgroups, then remove them. Hundreds of dying
    processes (a fork bomb) can take seconds; a cgroup still busy after ``wait`` seconds is
    removed later (at the next kernel's start, or when the grader exits)."""
    deadline = time.monotonic() + wait
    for folder in cgroups.values():
        while True:
            try:
                pids = (folder / "cgroup.procs").read_text().split()
            except OSError:
                break
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, PermissionError, ValueError):
                    pass
            try:
                folder.rmdir()
                break
            except OSError:
                if time.monotonic() > deadline:
                    _LEFT.append(folder)
                    break
                time.sleep(0.05)


def _remove_left() -> None:
    for folder in list(_LEFT):
        try:
            folder.rmdir()
            _LEFT.remove(folder)
        except FileNotFoundError:
            _LEFT.remove(folder)
        except OSError:
            pass


atexit.register(_remove_left)


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
        self.cgroups: dict[str, Path] = {}
        self.output = Output(limits.output_cap)
        self.uid = learner_uid()  # one per kernel (kept across restarts); None: not root

    def start(self) -> None:
        protect_grader()
        reply_r, reply_w = os.pipe()
        out_r, out_w = os.pipe()
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.scratch),
               "PYTHONPATH": os.pathsep.join(map(str, import_roots())),
               # PYTHONSAFEPATH: the scratch folder (the cwd) is not on the import path, so a
               # module the learner's code wrote there cannot replace the kernel on a restart
               "PYTHONSAFEPATH": "1",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1", "MPLBACKEND": "Agg",
               "IPYTHONDIR": str(self.scratch / ".ipython"), "OMP_NUM_THREADS": "1",
               "MKL_NUM_THREADS": "1", "LANG": "C.UTF-8", "TMPDIR": str(self.scratch)}
        cmd = [sys.executable, "-m", "coursekit.grading.kernel", str(reply_w)]
        self.cgroups = _new_cgroups(self.limits.memory)
        files = {}  # sandboxed: the scratch folder's files, copied into the sandbox's own
        if self.sandbox:
            files = {p.name: os.open(p, os.O_RDONLY) for p in sorted(self.scratch.iterdir())
                     if p.is_file() and not p.is_symlink()}
            cmd = [*bwrap_command(self.scratch, self.hidden, files), *cmd]
        elif self.uid is not None:  # unsandboxed, the learner's uid works in the scratch folder
            _give(self.scratch, self.uid)
        try:
            plan = _reach_plan(self.uid, [] if self.sandbox else [self.scratch])
            self.process = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=out_w, stderr=out_w,
                pass_fds=(reply_w, *files.values()), cwd=self.scratch, env=env,
                start_new_session=True,
                preexec_fn=_child_limits(self.limits.memory, self.cgroups, self.uid, plan))
        except BaseException as error:
            _empty_cgroups(self.cgroups)
            self.cgroups = {}
            os.close(reply_r)
            os.close(out_r)
            if isinstance(error, OSError | subprocess.SubprocessError):
                raise KernelDied("crashed", f"the kernel could not start ({error})") from None
            raise
        finally:
            for fd in (reply_w, out_w, *files.values()):
                os.close(fd)
        os.set_blocking(self.process.stdin.fileno(), False)
        self.reply_fd, self.buffer = reply_r, b""
        self.drainer = threading.Thread(target=self.output.drain, args=(out_r,), daemon=True)
        self.drainer.start()

    def _send(self, data: bytes, deadline: float, timeout: float) -> None:
        """Write ``data`` to the child's stdin (non-blocking) by ``deadline``: a child that
        stops reading (the learner's code took over the kernel's loop) cannot hold the grader."""
        fd, view = self.process.stdin.fileno(), memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._died("timeout", f"ran longer than the time limit ({timeout:g} s)")
            _, ready, _ = select.select([], [fd], [], min(left, 1.0))
            if not ready:
                continue
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                continue
            except OSError:
                raise self._died("crashed", "the kernel died") from None

    def _request(self, request: dict, timeout: float, observation: bool = False) -> dict:
        request["id"] = secrets.token_hex(8)
        deadline = time.monotonic() + timeout
        self._send((json.dumps(request) + "\n").encode(), deadline, timeout)
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
            if _out_of_memory(self.cgroups):
                reason = f"the kernel ran out of memory ({reason.removeprefix('the kernel ')})"
        self.kill()
        return KernelDied(kind, reason)

    def kill(self) -> None:
        """SIGKILL the child's process group (bwrap's --die-with-parent takes the rest) and
        every process left in its cgroup."""
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
        _empty_cgroups(self.cgroups)  # whatever the learner's code started, daemons included
        self.cgroups = {}
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
