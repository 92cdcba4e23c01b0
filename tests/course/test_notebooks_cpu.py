"""The lessons' stored outputs do not depend on the CPU's kernels.

nbval (``./course test``) re-executes every lesson and compares each output with the stored
one, on whatever kernels this machine gives torch and NumPy. Here the lessons run again the
same way (nbval, strict, the same options as ``./course test``), with the kernels forced down
to older paths: ``ATEN_CPU_CAPABILITY=default`` (torch without AVX2/AVX512: the C library's
functions, no fused multiply-adds), every NumPy SIMD dispatch target this CPU has disabled,
OpenBLAS forced to a Nehalem core and MKL to its compatible code path (matrix products in
other summation orders). A lesson that printed a digit only one CPU's kernels give would fail.
A fresh process first proves that these variables take effect (``tests/cpu_kernels.py``).

All sixteen lessons run (every stored output is a promise to a learner on some CPU): about
95 s on two cores when alone, 38 s for the six whose printed numbers go most through the
CPU-dependent kernels (00, 01, 02, 12, 14, 15). The solutions are left to ``./course test``:
they print the same kinds of values, in another 14 notebooks.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

from tests.cpu_kernels import check_forced, forcing_env

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("*.ipynb"))

FORCED = {
    "ATEN_CPU_CAPABILITY": "default",
    "NPY_DISABLE_CPU_FEATURES": " ".join(t for t in __cpu_dispatch__ if __cpu_features__.get(t)),
    "OPENBLAS_CORETYPE": "Nehalem",
    "MKL_CBWR": "COMPATIBLE",
}


def test_finds_the_lessons():
    assert len(LESSONS) >= 16 and "notebooks/00_welcome.ipynb" in LESSONS, LESSONS


@pytest.mark.slow
def test_lessons_reproduce_their_outputs_under_forced_kernels():
    check_forced(FORCED)
    env = forcing_env(FORCED)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env",
         "--nbval-cell-timeout=300", "-p", "no:cacheprovider", "-p", "no:xdist", "-q",
         *LESSONS],
        capture_output=True, text=True, timeout=1200, cwd=ROOT, env=env)
    tail = proc.stdout[-6000:]
    assert proc.returncode == 0, tail
    assert not re.search(r"\d+ (failed|errors?)\b", tail), tail
    cells = re.search(r"(\d+) passed", tail)
    assert cells and int(cells[1]) > 3 * len(LESSONS), tail  # every cell is one test
