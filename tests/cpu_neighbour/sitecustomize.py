"""minigrad's float32 exp, log, sin, cos, tanh and pow rounded the other way, in this process.

Loaded at start-up by every Python process whose ``PYTHONPATH`` holds this folder: only the
lessons' re-run in ``tests/course/test_notebooks_cpu.py`` puts it there (for that subprocess,
its kernels and nothing else).

minigrad computes these functions in float64 and rounds once to float32: the float32 number
nearest to the exact value. torch's kernels (SLEEF, MKL, the C library, by CPU) are faithful,
within 1 ulp: where the exact value is not a float32 number, they may return either of its
two float32 neighbours, and which one can change from one CPU to another. Here minigrad
returns the *other* neighbour wherever the exact result is inexact, the far end of what a
faithful kernel may give. A lesson whose stored output still matches printed only digits
every faithful kernel agrees on (``%%both`` compares minigrad's printed text with torch's, and
nbval compares it with the stored output).
"""

from __future__ import annotations

import sys

import numpy as np

import minigrad  # noqa: F401  (loads every module that imported the kernels by name)
import minigrad._ops.pointwise as pointwise

FUNCTIONS = {"np_exp": np.exp, "np_log": np.log, "np_sin": np.sin, "np_cos": np.cos,
             "np_tanh": np.tanh, "np_power": np.power}


def other_neighbour(kernel, np_fn):
    """``kernel`` (minigrad's), except that float32 results that are not exact come out as the
    float32 neighbour of the exact value that correct rounding did not pick."""
    def perturbed(x, *args):
        if getattr(x, "dtype", None) != np.float32:
            return kernel(x, *args)
        wide = np.asarray(np_fn(x.astype(np.float64), *args))
        near = wide.astype(np.float32)
        inexact = np.isfinite(wide) & (near.astype(np.float64) != wide)
        away = np.where(near.astype(np.float64) > wide, -np.inf, np.inf).astype(np.float32)
        return np.where(inexact, np.nextafter(near, away), near).astype(np.float32)

    perturbed.__name__ = kernel.__name__
    perturbed.other_neighbour = True  # the test's probe looks for this mark
    return perturbed


def install() -> None:
    """Swap the kernels in every minigrad module that holds them (some import them by name)."""
    originals = {name: getattr(pointwise, name) for name in FUNCTIONS}
    swapped = {id(k): other_neighbour(k, FUNCTIONS[name]) for name, k in originals.items()}
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith("minigrad"):
            continue
        for attr, value in list(vars(module).items()):
            if id(value) in swapped and any(value is k for k in originals.values()):
                setattr(module, attr, swapped[id(value)])


install()
