"""Process-wide switches torch has and tutorials set: threads, deterministic algorithms, the
float32 matmul precision.

minigrad computes with NumPy on one thread and is deterministic already, so these switches
change nothing it computes; they keep their values and answer as torch's do (the setters'
checks and messages included), so the reproducibility boilerplate at the top of a learner's
script runs and prints as on torch.
"""

from __future__ import annotations

import os
import warnings

_state = {"threads": None, "deterministic": False, "warn_only": False,
          "matmul_precision": "highest"}
_PRECISIONS = ("highest", "high", "medium")


def _default_threads() -> int:
    """What torch's intra-op pool starts with: OMP_NUM_THREADS if set, else the CPUs this
    process may use."""
    value = os.environ.get("OMP_NUM_THREADS", "")
    if value.isdigit() and int(value) > 0:
        return int(value)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def set_num_threads(n) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuntimeError(f"set_num_threads expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _state["threads"] = n


def get_num_threads() -> int:
    return _state["threads"] or _default_threads()


def get_num_interop_threads() -> int:
    return _default_threads()


def use_deterministic_algorithms(mode, *, warn_only=False) -> None:
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must "
                        f"be bool, not {type(mode).__name__}")
    _state["deterministic"], _state["warn_only"] = mode, bool(warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _state["warn_only"]


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in _PRECISIONS:
        # torch warns from C++ called by torch/__init__.py: at that line, its own
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=1)
        return
    _state["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    return _state["matmul_precision"]
