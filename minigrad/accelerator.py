"""``torch.accelerator`` as a CPU-only torch has it: no accelerator, and torch's error when one
is asked for.

PyTorch's newer tutorials start with
``device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available()
else "cpu"``; with minigrad, as with a CPU-only torch, that line picks ``"cpu"``.
"""

from __future__ import annotations

NONE_AVAILABLE = "Cannot access accelerator device when none is available."  # torch's words


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False):
    """The accelerator's device type, or None: there is none."""
    return None


def device_count() -> int:
    return 0


def _unavailable(*args, **kwargs):
    raise RuntimeError(NONE_AVAILABLE)


current_device_index = current_device_idx = set_device_index = set_device_idx = _unavailable
synchronize = current_stream = set_stream = _unavailable
