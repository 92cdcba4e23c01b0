"""``minigrad.profiler`` (torch.profiler): the same events as ``minigrad.autograd.profiler``,
behind torch.profiler's interface (``activities``, ``start``/``stop``/``step``).

minigrad runs on the CPU only: ``ProfilerActivity.CPU`` is what there is to profile, and
other activities are accepted and have nothing to record. ``schedule``, ``on_trace_ready``
and the memory, stack, FLOP and module options are accepted and ignored.
"""

from __future__ import annotations

import enum

from minigrad.autograd import profiler as _autograd_profiler
from minigrad.autograd.profiler import record_function

__all__ = ["ProfilerActivity", "profile", "record_function"]


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 2
    XPU = 3
    MTIA = 4
    HPU = 5
    PrivateUse1 = 6


class profile(_autograd_profiler.profile):  # noqa: N801 - torch's name
    """Profile the block (or between ``start()`` and ``stop()``); ``key_averages()`` and
    ``events()`` once stopped."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False, with_flops=False,
                 with_modules=False, experimental_config=None, execution_trace_observer=None,
                 acc_events=False, use_cuda=None, custom_trace_id_callback=None):
        super().__init__(record_shapes=record_shapes)
        self.activities = set(activities) if activities else {ProfilerActivity.CPU}
        self.enabled = ProfilerActivity.CPU in self.activities
        self.step_num = 0

    def start(self) -> None:
        self.__enter__()

    def stop(self) -> None:
        self.__exit__(None, None, None)

    def step(self) -> None:
        """The end of one training step: counted; minigrad has no schedule to advance."""
        self.step_num += 1
