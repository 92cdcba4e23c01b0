"""Skip a test only where the machine cannot run it, and never under CI.

Some grading tests need what only a Linux machine set up by ``./course setup`` (as root) has:
a usable bubblewrap, and writable cgroup hierarchies to cap a kernel's processes and memory.
On a learner's laptop without them, those tests skip with the reason. Under CI (``CI`` set,
as ``.ci/run`` has it) the set-up guarantees them, so there the tests run regardless and fail
if the guarantee broke: a broken set-up cannot hide behind a skip.
"""

from __future__ import annotations

import os

import pytest

ON_CI = bool(os.environ.get("CI"))


def needs(available: bool, reason: str):
    """A mark: skip when ``available`` is false, except under CI."""
    return pytest.mark.skipif(not available and not ON_CI, reason=reason)


def skip_unless(available: bool, reason: str) -> None:
    """The same, inside a test or fixture."""
    if not available and not ON_CI:
        pytest.skip(reason)
