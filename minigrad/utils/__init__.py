"""``minigrad.utils``: helpers around the engine (datasets and loaders in ``data``,
activation checkpointing in ``checkpoint``, hook handles in ``hooks``, timing in
``benchmark``)."""

from minigrad import _left_out
from minigrad.utils import benchmark, checkpoint, data, hooks

__all__ = ["benchmark", "checkpoint", "data", "hooks"]


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
