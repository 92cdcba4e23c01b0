"""nbval's kernels, forked from a warm zygote (``tests/nbval_zygote.py``), are still what nbval's
own kernels are: a fresh process per notebook, in the notebook's folder, with the environment
of the pytest run (so the forced CPU kernels of ``test_notebooks_cpu.py`` reach torch), and
interrupted, killed and cleaned up as nbval expects.

Each test runs pytest with ``--nbval`` in a subprocess on small notebooks written here; every
notebook also checks that its kernel really is a fork of the zygote, so the saving cannot
quietly fall back to the slow path while these tests pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.notebook

# The first cell of every notebook: the kernel is a fork of the zygote, in its own session.
FROM_ZYGOTE = ("import os\n"
               "_parent = open(f'/proc/{os.getppid()}/cmdline', 'rb').read().split(b'\\0')\n"
               "assert b'serve' in _parent and any(p.endswith(b'nbval_zygote.py') for p in "
               "_parent), _parent\n"
               "assert os.getsid(0) == os.getpid()\n")


def _notebook(folder: Path, name: str, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(FROM_ZYGOTE)]
    nb.cells += [nbformat.v4.new_code_cell(s) for s in sources]
    path = folder / name
    nbformat.write(nb, path)
    return path


# Set in the environment of the runs started here, and so of their zygotes and kernels: the
# suite's own nbval runs (its workers' zygotes) are running beside these tests.
MARKER = f"COURSE_ZYGOTE_TEST={os.getpid()}"


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["COURSE_ZYGOTE_TEST"] = str(os.getpid())
    return env


def _nbval(*paths: Path, env_extra=None, options=()) -> subprocess.CompletedProcess:
    env = _env()
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-p",
         "no:cacheprovider", "-p", "no:xdist", "-q", "--rootdir", str(ROOT), "-c",
         str(ROOT / "pyproject.toml"), *options, *map(str, paths)],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)


def _zygote_processes() -> list[str]:
    """The zygotes, kernels and clients of the runs these tests started."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes()
                environ = (proc / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"nbval_zygote.py" in cmdline and MARKER.encode() in environ:
                found.append(proc.name + ": " + cmdline.replace(b"\0", b" ").decode())
    return found


def test_each_notebook_gets_a_fresh_kernel_in_its_folder_with_the_run_s_environment(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _notebook(
        tmp_path / "a", "first.ipynb",
        f"assert os.getcwd() == {str(tmp_path / 'a')!r}, os.getcwd()\n"
        "assert os.environ['COURSE_ZYGOTE_PROBE'] == 'seen'\n"
        "import torch\n"
        "assert torch.backends.cpu.get_cpu_capability() == 'DEFAULT'\n"
        "import sys\n"
        "assert not hasattr(sys, 'left_by_first')\n"
        "sys.left_by_first = True\n"
        f"open({str(tmp_path / 'pids')!r}, 'a').write(f'{{os.getpid()}}\\n')\n")
    second = _notebook(
        tmp_path / "b", "second.ipynb",
        f"assert os.getcwd() == {str(tmp_path / 'b')!r}, os.getcwd()\n"
        "import sys\n"
        "assert not hasattr(sys, 'left_by_first'), 'state leaked from another notebook'\n"
        f"open({str(tmp_path / 'pids')!r}, 'a').write(f'{{os.getpid()}}\\n')\n")
    run = _nbval(first, second, env_extra={"COURSE_ZYGOTE_PROBE": "seen",
                                           "ATEN_CPU_CAPABILITY": "default"})
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "4 passed" in run.stdout, run.stdout[-2000:]
    pids = (tmp_path / "pids").read_text().split()
    assert len(pids) == 2 and pids[0] != pids[1], pids


def test_interrupts_crashes_and_the_end_of_the_run_behave_as_with_nbval_s_own_kernel(tmp_path):
    """A cell past its time limit is interrupted (KeyboardInterrupt in the kernel, so nbval
    shows its traceback); a kernel that dies fails its cell; nothing is left running after."""
    slow = _notebook(tmp_path, "slow.ipynb", "import time\ntime.sleep(120)", "print('after')")
    dead = _notebook(tmp_path, "dead.ipynb", "os._exit(3)")
    start = time.monotonic()
    run = _nbval(slow, dead, options=("--nbval-cell-timeout=5",))
    assert time.monotonic() - start < 120, "the interrupt did not reach the kernel"
    assert run.returncode == 1, run.stdout[-3000:]
    assert "KeyboardInterrupt" in run.stdout, run.stdout[-3000:]
    assert "2 failed" in run.stdout, run.stdout[-3000:]
    time.sleep(1)
    assert not _zygote_processes()


def test_a_killed_pytest_leaves_no_zygote_and_no_kernel(tmp_path):
    """The zygote and the kernel's client watch the process that started them, as an
    ipykernel watches its parent: a pytest killed mid-notebook takes them along."""
    _notebook(tmp_path, "long.ipynb", "import time\ntime.sleep(300)")
    env = _env()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-p",
         "no:cacheprovider", "-p", "no:xdist", "-q", "--rootdir", str(ROOT), "-c",
         str(ROOT / "pyproject.toml"), str(tmp_path / "long.ipynb")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 120
        while not any(" kernel " in p for p in _zygote_processes()):
            assert time.monotonic() < deadline, "no kernel started"
            time.sleep(0.2)
        time.sleep(1)  # (the zygote may still be importing torch: it must go too)
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 15
    while _zygote_processes():
        assert time.monotonic() < deadline, _zygote_processes()
        time.sleep(0.2)
