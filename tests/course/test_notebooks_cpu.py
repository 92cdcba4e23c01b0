"""The lessons' stored outputs do not depend on the CPU's kernels.

nbval (``./course test``) re-executes every lesson and compares each output with the stored
one, on whatever kernels this machine gives torch and NumPy. Here the lessons run again the
same way (nbval, strict, the same options as ``./course test``, and a kernel start-up limit
of 300 s instead of 60 for a loaded machine), with the kernels forced down to older paths:
``ATEN_CPU_CAPABILITY=default`` (torch without AVX2/AVX512: the C library's functions, no
fused multiply-adds), every NumPy SIMD dispatch target this CPU has disabled, OpenBLAS forced
to a Nehalem core and MKL to its compatible code path (matrix products in other summation
orders). A lesson that printed a digit only one CPU's kernels give would fail.
A fresh process first proves that these variables take effect (``tests/cpu_kernels.py``).

The same run also gives minigrad the other rounding: ``tests/cpu_neighbour/sitecustomize.py``
(on that subprocess's ``PYTHONPATH`` only) makes minigrad's float32 exp, log, sin, cos, tanh
and pow return the float32 neighbour of the exact value that correct rounding did not pick,
wherever the exact value is not a float32 number. That is what a faithful (1 ulp) kernel, like
torch's on some other CPU, may return. ``%%both`` compares minigrad's printed text with
torch's (and the values it names, within 1e-5), so a lesson that printed a digit one rounding
away from changing, or compared a value that one last bit can move further, fails here.
Another fresh process first proves the swap takes effect.

All eighteen lessons run (every stored output is a promise to a learner on some CPU), in
their Russian translation: the same code as the English lessons (``test_translations`` checks
it), which ``./course test`` runs on this machine's own kernels; the Russian ones it leaves to
this test (``--ignore=notebooks/ru`` in ``course``), so every lesson's code runs once on each
kind of kernel and every stored output of the four languages is checked by one strict run.
70 to 95 s on two cores when alone. The solutions are left to ``./course test``: they print
the same kinds of values, in another 14 notebooks (run once by hand the same way, forced
kernels and the other rounding, all their cells passed).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

import minigrad._ops.pointwise as pointwise
from tests.cpu_kernels import check_forced, forcing_env

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks" / "ru").glob("*.ipynb"))
NEIGHBOUR = ROOT / "tests" / "cpu_neighbour"  # holds the sitecustomize.py described above

FORCED = {
    "ATEN_CPU_CAPABILITY": "default",
    "NPY_DISABLE_CPU_FEATURES": " ".join(t for t in __cpu_dispatch__ if __cpu_features__.get(t)),
    "OPENBLAS_CORETYPE": "Nehalem",
    "MKL_CBWR": "COMPATIBLE",
}


# exp(1), log(3), sin(2), cos(2), tanh(0.5), 2 ** 1.7 in float32: none is exact, so each must
# come out one float32 step from the correctly rounded value (NumPy's float64, rounded once).
PROBE = r"""
import numpy as np
import minigrad
import minigrad._ops.inplace as inplace
import minigrad._ops.nn_ops as nn_ops
import minigrad._ops.pointwise as pointwise
assert pointwise.np_exp is inplace.np_exp is nn_ops.np_exp, "a module kept the old kernel"
x = minigrad.tensor([1.0, 3.0, 2.0, 2.0, 0.5, 2.0])
ours = np.array([minigrad.exp(x[0]).item(), minigrad.log(x[1]).item(), minigrad.sin(x[2]).item(),
                 minigrad.cos(x[3]).item(), minigrad.tanh(x[4]).item(), (x[5] ** 1.7).item()],
                dtype=np.float32)
exact = np.array([np.exp(1.0), np.log(3.0), np.sin(2.0), np.cos(2.0), np.tanh(0.5), 2 ** 1.7])
near = exact.astype(np.float32)
steps = np.abs(ours.view(np.int32) - near.view(np.int32))
assert (steps == 1).all(), (ours, near)
assert ((ours.astype(np.float64) > exact) != (near.astype(np.float64) > exact)).all(), ours
print("swapped")
"""


def neighbour_env(env: dict) -> dict:
    """``env`` with ``NEIGHBOUR`` first on ``PYTHONPATH``."""
    path = [str(NEIGHBOUR), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    return {**env, "PYTHONPATH": os.pathsep.join(path)}


def check_neighbour(env: dict) -> None:
    """In a fresh process with ``env``, minigrad's kernels give the other neighbour."""
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env=env)
    assert proc.returncode == 0 and proc.stdout.split() == ["swapped"], proc.stdout + proc.stderr


def test_finds_the_lessons():
    english = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert len(LESSONS) >= 16 and [Path(p).name for p in LESSONS] == english, LESSONS


def test_the_swap_stays_in_its_subprocess():
    """This process (and so every other test) keeps minigrad's own kernels."""
    assert not hasattr(pointwise.np_exp, "other_neighbour")
    assert str(NEIGHBOUR) not in sys.path
    assert str(NEIGHBOUR) not in os.environ.get("PYTHONPATH", "")


@pytest.mark.slow
def test_lessons_reproduce_their_outputs_under_forced_kernels():
    check_forced(FORCED)
    env = neighbour_env(forcing_env(FORCED))
    check_neighbour(env)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env",
         "--nbval-cell-timeout=300", "--nbval-kernel-startup-timeout=300",
         "-p", "no:cacheprovider", "-p", "no:xdist", "-q", *LESSONS],
        capture_output=True, text=True, timeout=1200, cwd=ROOT, env=env)
    tail = proc.stdout[-6000:]
    assert proc.returncode == 0, tail
    assert not re.search(r"\d+ (failed|errors?)\b", tail), tail
    cells = re.search(r"(\d+) passed", tail)
    assert cells and int(cells[1]) > 3 * len(LESSONS), tail  # every cell is one test
