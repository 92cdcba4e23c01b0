"""``torch.utils.benchmark.utils``: where the benchmark's classes live (``common``: TaskSpec,
Measurement; ``timer``: Timer; ``compare``: Compare), under torch's module names, so a
Measurement prints as torch's does."""

from minigrad import _left_out
from minigrad.utils.benchmark.utils import common, compare, timer

__all__ = ["common", "compare", "timer"]


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
