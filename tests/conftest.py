"""Test-wide settings, for both halves of the tests.

``tests/engine/`` tests minigrad itself (unit tests and differential tests against torch);
``tests/course/`` tests everything around it (coursekit, lessons, exercises, grading,
the browser, the project's set-up). Shared helpers stay here in ``tests/``: ``torch_compare``
is imported as ``tests.torch_compare`` (pyproject's ``pythonpath`` puts the repository root on
``sys.path``) or as ``torch_compare`` (pytest puts this folder, the one holding this conftest,
on ``sys.path``).

Hypothesis explores new random examples on every developer run, which is how it finds bugs.
Under CI (``CI`` set, as ``.ci/run`` has it) the examples are derandomized: the same ones every
run, so a green CI run is reproducible and a red one points at a real change.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
