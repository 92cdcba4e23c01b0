"""Anomaly detection: find the forward op behind a backward that fails or makes NaN.

While it is on, every node remembers the stack of the forward call that created it. When the
node's backward raises, a warning shows that stack before the error goes on; with
``check_nan`` (the default), a node whose backward returns NaN raises, naming itself. It
costs time, so it is for debugging only, as in torch.
"""

from __future__ import annotations

import os
import traceback
import warnings

import numpy as np

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _State:
    enabled = False
    check_nan = True


_state = _State()


def is_anomaly_enabled() -> bool:
    return _state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return _state.check_nan


class detect_anomaly:  # noqa: N801 - torch's spelling
    """Context manager that turns anomaly detection on, and back off on exit. (Not a
    decorator: torch's is not callable either.)"""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = _state.enabled, _state.check_nan
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        _state.enabled, _state.check_nan = True, self.check_nan

    def __exit__(self, *exc) -> bool:
        _state.enabled, _state.check_nan = self.prev, self.prev_check_nan
        return False


class set_detect_anomaly:  # noqa: N801 - torch's spelling
    """Turn anomaly detection on or off now; used as a context manager, restore on exit."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = _state.enabled, _state.check_nan
        _state.enabled, _state.check_nan = bool(mode), bool(check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> bool:
        _state.enabled, _state.check_nan = self.prev, self.prev_check_nan
        return False


def forward_trace() -> str:
    """The stack of the current forward call, without minigrad's own frames."""
    frames = [f for f in traceback.extract_stack() if not f.filename.startswith(_PACKAGE)]
    return "".join(traceback.format_list(frames))


def checked_apply(node, grads):
    """``node.apply(*grads)``, with the forward stack shown if it raises and NaN refused."""
    try:
        outputs = node.apply(*grads)
        if _state.check_nan:  # inside the try: a NaN also shows the forward trace, as in torch
            for i, g in enumerate(outputs):
                if g is not None and np.isnan(g._data).any():
                    raise RuntimeError(f"Function '{node.name()}' returned nan values in its "
                                       f"{i}th output.")
    except Exception:
        trace = getattr(node, "_anomaly_trace", None)
        if trace is not None:
            warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that "
                          f"caused the error:\n{trace}", UserWarning, stacklevel=2)
        raise
    return outputs
