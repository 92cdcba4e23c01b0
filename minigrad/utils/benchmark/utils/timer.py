"""``torch.utils.benchmark.utils.timer``: ``Timer``, timeit's Timer with torch's additions:
a warm-up, the thread count set while it runs, replicates (``blocked_autorange``,
``adaptive_autorange``) and a ``Measurement`` that prints its statistics.

The statement runs with ``torch`` in its globals, as on torch: here that name is minigrad,
so a statement written for torch (``"torch.relu(x)"``) times minigrad's. minigrad has no
accelerator to wait for, so the default ``timer`` is ``timeit.default_timer``. Left out:
timing C++ snippets (``language="c++"``) and ``collect_callgrind`` (Valgrind's instruction
counts of torch's C++): minigrad runs Python only.
"""

from __future__ import annotations

import enum
import textwrap
import timeit

import minigrad
from minigrad._creation import tensor
from minigrad.utils.benchmark.utils import common

__all__ = ["Timer", "timer", "Language"]

_PYTHON_ONLY = "minigrad runs Python only; time C++ code with torch"


def timer() -> float:
    """The clock Timer reads by default (torch's first waits for an accelerator: minigrad has
    none)."""
    return timeit.default_timer()


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


def _strip(code: str) -> str:
    """Dedented, without the first newline of a block string or trailing whitespace."""
    code = textwrap.dedent(code)
    return (code[1:] if code.startswith("\n") else code).rstrip()


class Timer:
    """Measures how long a statement takes (torch.utils.benchmark.Timer).

    ``stmt`` runs after ``setup``, with ``globals`` (and ``torch``) as its globals;
    ``label``, ``sub_label``, ``description`` and ``env`` name the measurement in its
    printout and in ``Compare``'s table; ``num_threads`` is the thread count set while it
    runs (minigrad's computations use one thread whatever it is).
    """

    _timer_cls = timeit.Timer

    def __init__(self, stmt: str = "pass", setup: str = "pass", global_setup: str = "",
                 timer=timer, globals: dict | None = None, label: str | None = None,  # noqa: A002
                 sub_label: str | None = None, description: str | None = None,
                 env: str | None = None, num_threads: int = 1,
                 language: Language | str = Language.PYTHON) -> None:
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        self._globals = dict(globals or {})  # a copy: running adds __builtins__
        if language in (Language.PYTHON, "py", "python"):
            self._globals.setdefault("torch", minigrad)
            self._language = Language.PYTHON
            if global_setup:
                raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most "
                                 "likely this code can simply be moved to `setup`.")
        elif language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError(
                f"minigrad does not implement C++ timing in torch.utils.benchmark.Timer "
                f"(language={language!r}): {_PYTHON_ONLY}")
        else:
            raise ValueError(f"Invalid language `{language}`.")

        stmt, setup = _strip(stmt), _strip(setup)
        self._timer = self._timer_cls(stmt=stmt, setup=setup, timer=timer,
                                      globals=dict(self._globals))
        self._task_spec = common.TaskSpec(
            stmt=stmt, setup=setup, global_setup=global_setup, label=label,
            sub_label=sub_label, description=description, env=env, num_threads=num_threads)

    def _timeit(self, number: int) -> float:
        # at least 1 ns: no real statement is faster, and it keeps the ratios finite
        return max(self._timer.timeit(number), 1e-9)

    def timeit(self, number: int = 1000000) -> common.Measurement:
        """Runs the statement ``number`` times (after a warm-up of a hundredth as many, at
        least 2): one measurement of ``number`` runs."""
        with common.set_torch_threads(self._task_spec.num_threads):
            self._timeit(number=max(int(number // 100), 2))
            return common.Measurement(number_per_run=number,
                                      raw_times=[self._timeit(number=number)],
                                      task_spec=self._task_spec)

    def repeat(self, repeat: int = -1, number: int = -1) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _threaded_measurement_loop(self, number: int, time_hook, stop_hook,
                                   min_run_time: float, max_run_time: float | None = None,
                                   callback=None) -> list[float]:
        """Blocks of ``number`` runs until ``min_run_time`` has passed and ``stop_hook``
        agrees, or ``max_run_time`` has passed."""
        total_time, can_stop, times = 0.0, False, []
        with common.set_torch_threads(self._task_spec.num_threads):
            while total_time < min_run_time or not can_stop:
                time_spent = time_hook()
                times.append(time_spent)
                total_time += time_spent
                if callback:
                    callback(number, time_spent)
                can_stop = stop_hook(times)
                if max_run_time and total_time > max_run_time:
                    break
        return times

    def _estimate_block_size(self, min_run_time: float) -> int:
        """How many runs a block needs for the clock's own cost (the median of 5 empty
        timings, in float32 as torch's) to be negligible: powers of 10 until it is at most
        1e-4 of the block and the block takes a thousandth of ``min_run_time``, or the block
        alone exceeds ``min_run_time``. This is the warm-up too."""
        with common.set_torch_threads(self._task_spec.num_threads):
            overhead = tensor([self._timeit(0) for _ in range(5)]).median().item()
            number = 1
            while True:
                time_taken = self._timeit(number)
                if overhead / time_taken <= 1e-4 and time_taken >= min_run_time / 1000:
                    break
                if time_taken > min_run_time or number * 10 > 2147483647:
                    break
                number *= 10
        return number

    def blocked_autorange(self, callback=None, min_run_time: float = 0.2) -> common.Measurement:
        """Blocks of runs (their size from ``_estimate_block_size``) until ``min_run_time``
        seconds have passed: one measurement per block."""
        number = self._estimate_block_size(min_run_time)
        times = self._threaded_measurement_loop(
            number, lambda: self._timeit(number), lambda times: True,
            min_run_time=min_run_time, callback=callback)
        return common.Measurement(number_per_run=number, raw_times=times,
                                  task_spec=self._task_spec)

    def adaptive_autorange(self, threshold: float = 0.1, *, min_run_time: float = 0.01,
                           max_run_time: float = 10.0, callback=None) -> common.Measurement:
        """As ``blocked_autorange``, but it goes on until there are more than 3 blocks whose
        interquartile range is below ``threshold`` times their median (or ``max_run_time``
        seconds have passed)."""
        number = self._estimate_block_size(min_run_time=0.05)

        def stop_hook(times: list[float]) -> bool:
            return len(times) > 3 and common.Measurement(
                number_per_run=number, raw_times=times,
                task_spec=self._task_spec).meets_confidence(threshold=threshold)

        times = self._threaded_measurement_loop(
            number, lambda: self._timeit(number), stop_hook, min_run_time, max_run_time,
            callback=callback)
        return common.Measurement(number_per_run=number, raw_times=times,
                                  task_spec=self._task_spec)

    def collect_callgrind(self, number: int = 100, *, repeats: int | None = None,
                          collect_baseline: bool = True, retain_out_file: bool = False):
        raise NotImplementedError(
            "minigrad does not implement torch.utils.benchmark.Timer.collect_callgrind "
            f"(Valgrind's instruction counts of torch's C++): {_PYTHON_ONLY}")
