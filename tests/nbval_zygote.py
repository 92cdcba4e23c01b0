"""nbval's kernels forked from a warm parent, so that no notebook pays torch's import again.

``./course test`` runs every lesson and solution under nbval, each in a fresh kernel, some
ninety kernels in all; each first cell imports torch, which with the kernel's own start-up is
about 3 s of a worker's time on these machines, over four minutes of the suite. This pytest
plugin (``-p tests.nbval_zygote`` in pyproject's ``addopts``) makes each of them cheap: the
first kernel a pytest process needs starts a "zygote", a process that imports ipykernel,
NumPy and torch once and then only ever forks; each kernel nbval asks for is a fork of it,
which becomes an ordinary ipykernel (its connection file, working folder and environment
those nbval gave), runs one notebook and exits. Nothing a notebook does reaches the next:
every kernel is its own process, forked from the same untouched parent (as the grader's
workers are, ``coursekit/grading/worker.py``).

What the zygote imports is only what every kernel imports anyway, and nothing that looks for
a running kernel when imported (ipywidgets, matplotlib's pyplot and the course's own packages
are imported by the notebook, in the kernel, as before). One more import is torch's own:
``torch._dynamo``, which torch imports on the first call of an optimizer, ``torch.func.grad``
or ``checkpoint`` (its ``_disable_dynamo`` wrapper), 1.3 s on these machines, in about a third
of the notebooks. The zygote is started with the
pytest process's environment, which is what its kernels would get, so
``test_notebooks_cpu.py``'s forced CPU kernels, set in the environment of its pytest
subprocess, reach torch and NumPy as before (that subprocess starts a zygote of its own).

The kernel nbval starts is this file run as a script (``kernel -f CONNECTION_FILE``): a small
client that hands its stdin, stdout, stderr, working folder and environment to the zygote
(``socket.send_fds``) and stays alive as long as the forked kernel does, so jupyter_client
manages it as it manages any kernel process: an interrupt (SIGINT) is passed on to the kernel,
SIGTERM too, and when the client dies (even by SIGKILL) the kernel sees its lifeline close and
exits; when the process that started the client dies, the client ends too (the watch an
ipykernel keeps on its parent), and so does the zygote. Without the zygote
(``COURSE_KERNEL_ZYGOTE=0``, no ``--nbval``, or a zygote that cannot be reached) the client
simply becomes ``python -m ipykernel_launcher``, as nbval's own kernel.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading

_SOCKET_VAR = "COURSE_KERNEL_ZYGOTE_SOCKET"
_MESSAGE_MAX = 1 << 20  # bytes: one request (an environment and a few paths)


# --- the pytest side ----------------------------------------------------------------------------

def pytest_configure(config):
    if not (getattr(config.option, "nbval", False) or getattr(config.option, "nbval_lax", False)):
        return
    if os.environ.get("COURSE_KERNEL_ZYGOTE", "1") == "0":
        return
    from nbval import kernel as nbval_kernel

    original = nbval_kernel.NbvalKernelspecManager.get_kernel_spec
    zygote = _Zygote()
    config.add_cleanup(zygote.stop)

    def get_kernel_spec(self, kernel_name):
        spec = original(self, kernel_name)
        if kernel_name != nbval_kernel.CURRENT_ENV_KERNEL_NAME:
            return spec
        path = zygote.start()
        spec.argv = [sys.executable, os.path.abspath(__file__), "kernel", path,
                     *spec.argv[spec.argv.index("-f"):]]
        return spec

    nbval_kernel.NbvalKernelspecManager.get_kernel_spec = get_kernel_spec


class _Zygote:
    """The zygote of one pytest process: started at the first kernel, stopped at the end."""

    def __init__(self):
        self.process = None
        self.folder = None
        self.lock = threading.Lock()

    def start(self) -> str:
        with self.lock:
            if self.process is None:
                self.folder = tempfile.mkdtemp(prefix="course-zygote-")
                path = os.path.join(self.folder, "socket")
                self.process = subprocess.Popen(
                    [sys.executable, os.path.abspath(__file__), "serve", path],
                    stdin=subprocess.DEVNULL, start_new_session=True)
            return os.path.join(self.folder, "socket")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.folder is not None:
            for name in os.listdir(self.folder):
                os.unlink(os.path.join(self.folder, name))
            os.rmdir(self.folder)


# --- the zygote ---------------------------------------------------------------------------------

def serve(path: str) -> None:
    """Import what every kernel imports, then fork a kernel for each request on ``path``."""
    parent = os.getppid()  # before the slow imports: the pytest process may die during them
    import ipykernel.kernelapp  # noqa: F401  (the warm part: what each kernel would import)
    import numpy  # noqa: F401
    import torch  # noqa: F401
    import torch._dynamo  # noqa: F401  (see below)

    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # kernels are reaped by the system
    path_entries = sys.path[1:]  # without this script's folder, as ipykernel_launcher has it
    server = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    server.bind(path + ".new")
    server.listen(16)
    os.rename(path + ".new", path)  # clients connect only once the zygote listens
    server.settimeout(1.0)
    while True:
        try:
            conn, _ = server.accept()
        except TimeoutError:
            if os.getppid() != parent:  # the pytest process has gone (even killed): so do we
                os.unlink(path)
                os.rmdir(os.path.dirname(path))
                os._exit(0)
            continue
        conn.settimeout(None)
        try:
            data, fds, _, _ = socket.recv_fds(conn, _MESSAGE_MAX, 5)
            request = json.loads(data)
        except (OSError, ValueError):
            conn.close()
            continue
        pid = os.fork()
        if pid == 0:
            server.close()
            _become_kernel(request, fds, conn, path_entries)  # never returns
        for fd in fds:
            os.close(fd)
        try:
            conn.send(json.dumps({"pid": pid}).encode())
        except OSError:
            pass
        conn.close()


def _become_kernel(request: dict, fds: list, conn, path_entries: list) -> None:
    """In the forked child: take the client's stdio, folder and environment, and run ipykernel
    until it shuts down; exit when the client's lifeline closes."""
    code = 1
    try:
        conn.close()
        stdin, stdout, stderr, lifeline, done = fds
        for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
            os.dup2(fd, target)
            os.close(fd)
        for fd in (lifeline, done):  # not for the kernel's own subprocesses
            os.set_inheritable(fd, False)
        for signum in (signal.SIGTERM, signal.SIGCHLD):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setsid()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.path[:] = path_entries
        sys.argv = ["ipykernel_launcher", *request["argv"]]

        def watch_lifeline():
            os.read(lifeline, 1)  # returns when the client has gone
            os._exit(1)

        threading.Thread(target=watch_lifeline, daemon=True).start()
        from ipykernel import kernelapp

        # The kernel's parent is the zygote, not the process that asked for it: ipykernel's own
        # watch on its parent (JPY_PARENT_PID, read when ipykernel was imported) is left off;
        # the lifeline does that job (1: "no parent to watch", and no note about Ctrl-C).
        kernelapp.IPKernelApp.parent_handle.default_value = 1
        kernelapp.launch_new_instance()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0
    except BaseException:  # noqa: BLE001 - shown on the kernel's stderr, as a kernel would
        import traceback

        traceback.print_exc()
    finally:
        import atexit

        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


# --- the client (the process jupyter_client starts and manages) ----------------------------------

def kernel(path: str, argv: list) -> None:
    """Ask the zygote at ``path`` for a kernel and live as long as it does; without a zygote,
    become ``python -m ipykernel_launcher ARGV``."""
    parent = os.getppid()  # before waiting on the zygote, which may outlive its start
    lifeline_read, lifeline_write = os.pipe()
    done_read, done_write = os.pipe()
    try:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        conn.settimeout(120)  # a zygote that is still importing torch answers within this
        _connect(conn, path, parent)
        request = {"cwd": os.getcwd(), "env": dict(os.environ), "argv": argv}
        socket.send_fds(conn, [json.dumps(request).encode()],
                        [0, 1, 2, lifeline_read, done_write])
        pid = json.loads(conn.recv(_MESSAGE_MAX))["pid"]
        conn.close()
    except (OSError, ValueError, KeyError):
        os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])
    os.close(lifeline_read)
    os.close(done_write)

    def forward(signum, _frame):
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass
        if signum == signal.SIGTERM:
            os._exit(0)  # the lifeline closes: the kernel exits even if it ignored SIGTERM

    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    while True:  # until the kernel's copy of ``done`` closes (it exited)
        ready, _, _ = select.select([done_read], [], [], 1.0)
        if ready and not os.read(done_read, 1):
            break
        if os.getppid() != parent:  # whoever started the kernel has gone: so does the kernel
            forward(signal.SIGTERM, None)
    os._exit(0)


def _connect(conn, path: str, parent: int) -> None:
    """Connect to the zygote, waiting while it starts (its socket appears once it listens);
    give up if the process that started the client has gone meanwhile."""
    import time

    deadline = time.monotonic() + 120
    while True:
        try:
            conn.connect(path)
            return
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                raise
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.05)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        kernel(sys.argv[2], sys.argv[3:])
