"""The float32 and BLAS-dependent tests pass whichever kernels the CPU makes torch and NumPy use.

A suite written on one machine can assert what only that machine's kernels give: a fraction of
bit-identical results, a tolerance that one BLAS summation order happens to meet. The bounds in
``test_float32_bits.py``, the linear-layer test of ``test_ops.py``, the bit-for-bit mixed-dtype
and float16 arithmetic of ``test_common_dtype_values.py``, the random draws of
``test_random.py`` and the fused ``arange``/``linspace``/``lerp`` of ``test_ops_math.py`` are
meant to hold on every CPU; this re-runs them in subprocesses with the kernels forced down to
older paths, as far as this CPU allows (the lowest configuration runs them all, AVX2 the first
two, to stay near a minute and a half):

* ``ATEN_CPU_CAPABILITY`` (default, avx2): torch's vectorised kernels -- SLEEF or the C
  library, and fused multiply-adds in backward kernels or not;
* ``NPY_DISABLE_CPU_FEATURES``: NumPy's SIMD loops (only dispatch targets this CPU has: NumPy
  refuses to disable others);
* ``OPENBLAS_CORETYPE`` (Nehalem, Haswell): NumPy's OpenBLAS kernels, so its matmul sums in
  another order;
* ``MKL_CBWR=COMPATIBLE``: torch's MKL code path for its matrix products (MKL ignores the
  other modes on AMD processors: it reports AUTO).

Each run first proves that the variables took effect (torch's capability, NumPy's features,
OpenBLAS's core name, MKL's reproducibility mode as MKL_VERBOSE reports it), so the test cannot
pass by running the usual kernels twice. (MKL's vector math, behind torch's float32 exp, log,
sin, cos, tanh and sqrt, ignores MKL_ENABLE_INSTRUCTIONS on AMD processors; the bounds cover it
by its documented 1 ulp.)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

from tests.cpu_kernels import check_forced, forcing_env

ROOT = Path(__file__).resolve().parents[2]
TESTS = ["tests/engine/test_float32_bits.py", "tests/engine/test_sum_order.py",
         "tests/engine/test_ops.py::test_linear_layer_products_have_torchs_values_and_layout",
         "tests/engine/test_common_dtype_values.py"]
FUSED_TESTS = ["tests/engine/test_random.py", "tests/engine/test_ops_math.py", "-k",
               "random or normal or uniform or init or draws or lerp or arange or linspace"]


def _configs():
    """The forced configurations this CPU can run: each below what it runs by default."""
    here = torch.backends.cpu.get_cpu_capability()
    targets = [t for t in __cpu_dispatch__ if __cpu_features__.get(t)]
    low = {"ATEN_CPU_CAPABILITY": "default", "OPENBLAS_CORETYPE": "Nehalem",
           "MKL_CBWR": "COMPATIBLE", "NPY_DISABLE_CPU_FEATURES": " ".join(targets)}
    configs = {"default": low}
    if here == "AVX512":
        configs["avx2"] = {"ATEN_CPU_CAPABILITY": "avx2", "OPENBLAS_CORETYPE": "Haswell",
                           "NPY_DISABLE_CPU_FEATURES": " ".join(
                               t for t in targets if t not in ("X86_V3", "AVX2", "FMA3"))}
    return configs


CONFIGS = _configs()


def _pytest(args, config):
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *args, "-q", "-p", "no:cacheprovider", "-p",
         "no:xdist", "-W", "ignore::DeprecationWarning"],
        capture_output=True, text=True, timeout=600, cwd=ROOT, env=forcing_env(config))
    tail = proc.stdout[-3000:]
    assert proc.returncode == 0, tail
    passed = re.search(r"(\d+) passed", tail)
    assert passed and not re.search(r"\d+ (failed|errors?)\b", tail), tail
    return int(passed[1])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_float32_and_blas_tests_pass_under_forced_kernels(name):
    config = CONFIGS[name]
    check_forced(config)
    assert _pytest(TESTS, config) >= 20
    if name == "default":
        assert _pytest(FUSED_TESTS, config) >= 20
