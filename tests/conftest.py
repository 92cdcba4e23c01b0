"""Test-wide settings.

Hypothesis explores new random examples on every developer run, which is how it finds bugs.
Under CI (``CI`` set, as ``.ci/run`` has it) the examples are derandomized: the same ones every
run, so a green CI run is reproducible and a red one points at a real change.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
