"""``torch.utils.benchmark``: time a statement (``Timer``: ``timeit``, ``blocked_autorange``,
``adaptive_autorange``), read and print the result (``Measurement``), and tabulate many
(``Compare``), as torch's, digit for digit in the printouts.

Left out: the fuzzers (``Fuzzer``, ``FuzzedTensor``...) and Callgrind's instruction counts
(``CallgrindStats``, ``Timer.collect_callgrind``), and timing C++ snippets.
"""

from minigrad import _left_out
from minigrad.utils.benchmark import utils
from minigrad.utils.benchmark.utils.common import (
    Measurement,
    TaskSpec,
    ordered_unique,
    select_unit,
    set_torch_threads,
    trim_sigfig,
    unit_to_english,
)
from minigrad.utils.benchmark.utils.compare import Colorize, Compare
from minigrad.utils.benchmark.utils.timer import Language, Timer, timer

__all__ = ["Colorize", "Compare", "Language", "Measurement", "TaskSpec", "Timer",
           "ordered_unique", "select_unit", "set_torch_threads", "timer", "trim_sigfig",
           "unit_to_english", "utils"]


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
