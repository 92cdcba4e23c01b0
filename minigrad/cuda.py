"""``torch.cuda`` as a CPU-only torch has it: no GPU, and torch's error when one is asked for.

minigrad computes with NumPy on the CPU only. Lesson code that checks
``torch.cuda.is_available()`` takes its CPU branch; code that insists on ``"cuda"`` gets the
error a CPU-only torch raises.
"""

from __future__ import annotations

NOT_COMPILED = "Torch not compiled with CUDA enabled"  # torch's words, kept verbatim


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def _lazy_init() -> None:
    """What torch calls before touching a GPU: here it always raises torch's error."""
    raise AssertionError(NOT_COMPILED)
