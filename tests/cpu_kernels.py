"""Which of torch's CPU kernels this machine runs, for the few comparisons that depend on it.

minigrad reproduces torch's vectorised x86 kernels (ATen capability AVX2 or AVX512), which the
compiler builds with fused multiply-adds (``a * b + c`` rounded once): ``uniform_``'s
``from + (to - from) * u``, ``arange``/``linspace``'s ``start + i * step``, ``lerp``, and the
AVX2 Box-Muller kernel behind float32 ``randn`` (``normal_fill_16_AVX2``: Cephes'
``log256_ps``/``sincos256_ps``). Without them (``ATEN_CPU_CAPABILITY=default``, x86 without
AVX2, other processors) torch runs its scalar kernels: the product rounds before the sum, and
normals come from the C library's logf/cosf. The values differ in the last bits only.

So those comparisons are bit for bit where torch runs the kernels minigrad reproduces, and
within a bound derived from the difference of the two roundings everywhere else:
fused ``fl(p + c)`` against unfused ``fl(fl(p) + c)`` differ by at most ``u |p| + 2 u |p + c|``
(``u``: the dtype's unit roundoff), since ``|fl(p) - p| <= u |p|`` and each result is
within ``u |p + c|`` of what it rounds.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

VECTOR_KERNELS = torch.backends.cpu.get_cpu_capability() in ("AVX2", "AVX512")

UNIT_ROUNDOFF = {np.dtype(np.float16): 2.0 ** -11, np.dtype(np.float32): 2.0 ** -24,
                 np.dtype(np.float64): 2.0 ** -53}


def assert_fused_or_within(ours: np.ndarray, theirs: np.ndarray, bound) -> None:
    """Bit for bit where torch runs its fused kernels (this machine: see VECTOR_KERNELS),
    otherwise within ``bound`` (an array or number, absolute), NaNs and infinities alike."""
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    if VECTOR_KERNELS:
        assert ours.tobytes() == theirs.tobytes(), (ours, theirs)
        return
    a, b = ours.astype(np.float64), theirs.astype(np.float64)
    special = ~np.isfinite(a) | ~np.isfinite(b)
    assert np.array_equal(a[special], b[special], equal_nan=True), (ours, theirs)
    bound = np.broadcast_to(np.asarray(bound, dtype=np.float64), a.shape)
    assert (np.abs(a - b)[~special] <= bound[~special]).all(), (ours, theirs)


def fma_bound(product, total, dtype) -> np.ndarray:
    """How far ``fl(p + c)`` and ``fl(fl(p) + c)`` can be apart: ``u |p| + 2 u |p + c|``, plus one
    step of the smallest subnormal."""
    u = UNIT_ROUNDOFF[np.dtype(dtype)]
    tiny = np.finfo(dtype).smallest_subnormal
    return u * np.abs(product) + 2 * u * np.abs(total) + float(tiny)


# --- forcing older kernels in a subprocess ---------------------------------------------------
FORCING = ("ATEN_CPU_CAPABILITY", "NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES",
           "OPENBLAS_CORETYPE", "MKL_CBWR", "MKL_VERBOSE")

PROBE = r"""
import ctypes, glob, json, os, numpy, torch
from numpy._core._multiarray_umath import __cpu_features__
lib = glob.glob(os.path.join(os.path.dirname(numpy.__file__) + ".libs", "libscipy_openblas*"))
corename = None
if lib:
    get = ctypes.CDLL(lib[0]).scipy_openblas_get_corename64_
    get.restype = ctypes.c_char_p
    corename = get().decode()
torch.ones(4, 4) @ torch.ones(4, 4)  # MKL_VERBOSE prints its mode on stderr
print(json.dumps({"aten": torch.backends.cpu.get_cpu_capability(), "corename": corename,
                  "numpy": [k for k, v in __cpu_features__.items() if v]}))
"""


def forcing_env(config: dict) -> dict:
    """This process's environment with only ``config``'s kernel-forcing variables set."""
    env = {k: v for k, v in os.environ.items() if k not in FORCING}
    env.update(config)
    return env


def check_forced(config: dict) -> None:
    """The variables of ``config`` take effect in a fresh process: torch's capability, NumPy's
    dispatch targets, OpenBLAS's core (its name as OpenBLAS reports it) and MKL's
    reproducibility mode (as MKL_VERBOSE reports it), so a forced run cannot silently run the
    usual kernels."""
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parents[1],
                          env={**forcing_env(config), "MKL_VERBOSE": "1"})
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["aten"] == config["ATEN_CPU_CAPABILITY"].upper(), seen
    for target in config["NPY_DISABLE_CPU_FEATURES"].split():
        assert target not in seen["numpy"], (target, seen["numpy"])
    if seen["corename"] is not None:  # NumPy built with its bundled OpenBLAS
        assert seen["corename"].lower() == config["OPENBLAS_CORETYPE"].lower(), seen
    mode = re.search(r"CNR:(\w+)", proc.stdout + proc.stderr)
    if mode and "MKL_CBWR" in config:  # torch built with MKL
        assert mode[1] == config["MKL_CBWR"], mode[0]
