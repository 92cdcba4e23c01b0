"""``torch.utils.benchmark.utils.common``: ``TaskSpec`` (what a Timer runs, and its labels),
``Measurement`` (the times a run took, their statistics and torch's printout of them) and the
helpers that pick a time unit and trim digits.

torch computes the statistics with its own tensors, and so does this module: the quartiles of
float64 times (``quantile``), and a few steps in float32, torch's default dtype, which decide
where a unit starts (``select_unit``: 999.99997 ns is printed as 1.00 us, because it rounds to
1e-6 in float32). Those float32 logarithms are taken in float64 and rounded once, which is
what torch's scalar kernel gives at the unit boundaries (NumPy's own float32 ``log10`` is a
unit in the last place away more often).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import textwrap

import numpy as np

from minigrad import _dtype, _runtime
from minigrad._creation import tensor

__all__ = ["TaskSpec", "Measurement", "select_unit", "unit_to_english", "trim_sigfig",
           "ordered_unique", "set_torch_threads"]

_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9  # 25 ns
# a Measurement warns when its interquartile range is this large a part of its median
_IQR_WARN_THRESHOLD = 0.1
_IQR_GROSS_WARN_THRESHOLD = 0.25

_SCALES = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}
_ENGLISH = {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}


def _float32_log10(x) -> float:
    """``torch.tensor(x).log10().item()`` for a Python number: x rounded to float32, its
    logarithm rounded to float32 (-inf for 0 and NaN below, quietly, as torch)."""
    with np.errstate(all="ignore"):
        return float(np.float32(np.log10(np.float64(np.float32(x)))))


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec:
    """What a Timer measures (all but its globals): the statement, its setup and labels."""
    stmt: str
    setup: str
    global_setup: str = ""
    label: str | None = None
    sub_label: str | None = None
    description: str | None = None
    env: str | None = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        """The label (or the one-line statement), with the sub-label after a colon."""
        sub_label = f": {self.sub_label}" if self.sub_label else ""
        if self.label is not None:
            return self.label + sub_label
        if "\n" not in self.stmt:
            return self.stmt + sub_label
        sub_label = f" ({self.sub_label})" if self.sub_label else ""
        return f"stmt:{sub_label}\n{textwrap.indent(self.stmt, '  ')}"

    def setup_str(self) -> str:
        if self.setup in ("pass", ""):
            return ""
        if "\n" in self.setup:
            return f"setup:\n{textwrap.indent(self.setup, '  ')}"
        return f"setup: {self.setup}"

    def summarize(self) -> str:
        """The task's lines in a Measurement's printout: title, description, setup (a
        section of several lines is followed by an empty line)."""
        sections = [s for s in (self.title, self.description or "", self.setup_str()) if s]
        return "\n".join(s + "\n" if "\n" in s else s for s in sections)


_TASKSPEC_FIELDS = tuple(f.name for f in dataclasses.fields(TaskSpec))


@dataclasses.dataclass(init=True, repr=False)
class Measurement:
    """The result of a Timer: ``raw_times`` holds the time of each run of ``number_per_run``
    executions of the statement. ``times`` divides them by ``number_per_run``; ``median``,
    ``mean`` and ``iqr`` are statistics of ``times``. The TaskSpec's fields read through:
    ``m.label``, ``m.stmt``, ``m.num_threads``...
    """
    number_per_run: int
    raw_times: list[float]
    task_spec: TaskSpec
    metadata: dict | None = None  # the user's own payload

    def __post_init__(self) -> None:
        self._sorted_times: tuple[float, ...] = ()
        self._warnings: tuple[str, ...] = ()
        self._median = self._mean = self._p25 = self._p75 = -1.0

    def __getattr__(self, name: str):
        # only reached for names not found otherwise: the TaskSpec's fields
        if name in _TASKSPEC_FIELDS:
            return getattr(self.task_spec, name)
        return super().__getattribute__(name)

    @property
    def times(self) -> list[float]:
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self) -> float:
        self._lazy_init()
        return self._median

    @property
    def mean(self) -> float:
        self._lazy_init()
        return self._mean

    @property
    def iqr(self) -> float:
        self._lazy_init()
        return self._p75 - self._p25

    @property
    def significant_figures(self) -> int:
        """A rough count of the median's trustworthy digits (1 to 4), from the spread of the
        middle half of the times (z = 1.645); Compare's trim_significant_figures uses it."""
        self._lazy_init()
        n_total = len(self._sorted_times)
        middle = self._sorted_times[n_total // 4:math.ceil(np.float32(3 * n_total / 4))]
        # torch's float32 std over all elements: a float32 mean, squares summed in float64
        mean = tensor(list(middle)).mean().item() if middle else math.nan
        squares = 0.0
        for t in np.asarray(middle, dtype=np.float32).tolist():
            squares += (t - mean) * (t - mean)
        with np.errstate(all="ignore"):
            std = float(np.float32(math.sqrt(squares / len(middle)) if middle else np.nan))
            sqrt_n = float(np.sqrt(np.float32(len(middle))))
        confidence_interval = max(1.645 * std / sqrt_n, _MIN_CONFIDENCE_INTERVAL)
        figures = math.floor(_float32_log10(self._median / confidence_interval))
        return min(max(figures, 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def has_warnings(self) -> bool:
        self._lazy_init()
        return bool(self._warnings)

    def _lazy_init(self) -> None:
        if not self.raw_times or self._sorted_times:
            return
        self._sorted_times = tuple(sorted(self.times))
        times = tensor(self._sorted_times, dtype=_dtype.float64)
        self._median = times.quantile(.5).item()
        self._mean = times.mean().item()
        self._p25 = times.quantile(.25).item()
        self._p75 = times.quantile(.75).item()

        if not self.meets_confidence(_IQR_GROSS_WARN_THRESHOLD):
            advice = "This suggests significant environmental influence."
        elif not self.meets_confidence(_IQR_WARN_THRESHOLD):
            advice = "This could indicate system fluctuation."
        else:
            return
        self._warnings += (f"  WARNING: Interquartile range is "
                           f"{self.iqr / self.median * 100:.1f}% of the median measurement.\n"
                           f"           {advice}",)

    def meets_confidence(self, threshold: float = _IQR_WARN_THRESHOLD) -> bool:
        return self.iqr / self.median < threshold

    @property
    def title(self) -> str:
        return self.task_spec.title

    @property
    def env(self) -> str | None:
        # torch's property reads a misspelt ``self.taskspec``; the AttributeError sends Python
        # to __getattr__, which answers the TaskSpec's env, None included: so does this
        return self.task_spec.env

    @property
    def as_row_name(self) -> str:
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self) -> str:
        """torch's printout: the object, the task, the median (and the interquartile range
        from 4 runs on), the counts, and a warning when the runs spread widely."""
        self._lazy_init()
        n = len(self._sorted_times)
        unit, scale = select_unit(self._median)
        threads = self.num_threads
        lines = [object.__repr__(self), self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{self._median / scale:.2f} {unit}"]
        if n >= 4:
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} "
                         f"({self._p25 / scale:.2f} to {self._p75 / scale:.2f})")
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} "
                     f"{threads} thread{'s' if threads > 1 else ''}")
        lines.append("\n".join(self._warnings))
        return "\n".join("\n".join(lines).strip().splitlines())

    @staticmethod
    def merge(measurements) -> list[Measurement]:
        """One Measurement per TaskSpec, holding the times of all its replicates (per single
        execution: ``number_per_run=1``; metadata is dropped)."""
        groups: dict[TaskSpec, list[float]] = {}
        for m in measurements:
            groups.setdefault(m.task_spec, []).extend(m.times)
        return [Measurement(number_per_run=1, raw_times=times, task_spec=task_spec,
                            metadata=None) for task_spec, times in groups.items()]


def select_unit(t: float) -> tuple[str, float]:
    """The unit (ns, us, ms or s) that prints ``t`` seconds with 1 to 3 leading digits, and
    its size in seconds."""
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(_float32_log10(t) // 3), "s")
    return unit, _SCALES[unit]


def unit_to_english(u: str) -> str:
    return _ENGLISH[u]


def trim_sigfig(x: float, n: int) -> float:
    """``x`` rounded to ``n`` significant figures, in float32 as torch (3.14159, 2 ->
    3.0999999046325684)."""
    if n != int(n):
        raise AssertionError("Number of significant figures must be an integer")
    magnitude = int(np.ceil(np.float32(_float32_log10(abs(x)))))
    scale = 10 ** (magnitude - n)
    with np.errstate(all="ignore"):
        return float(np.rint(np.float32(x / scale)) * np.float32(scale))


def ordered_unique(elements) -> list:
    return list(dict.fromkeys(elements))


@contextlib.contextmanager
def set_torch_threads(n: int):
    """Runs the block with ``set_num_threads(n)``, and puts the former count back after."""
    prior = _runtime.get_num_threads()
    try:
        _runtime.set_num_threads(n)
        yield
    finally:
        _runtime.set_num_threads(prior)
