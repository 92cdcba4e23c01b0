"""Generate the learner's exercise notebooks from their solutions (``./course exercises``).

    python tools/make_exercises.py            # writes exercises/NN_slug.ipynb for every solution
    python tools/make_exercises.py --check    # exit 1 if exercises/ differs from generation

``solutions/NN_slug.py`` (jupytext py:percent, nbgrader's markers) is the single source. Each
exercise is the solution with solution regions replaced by ``raise NotImplementedError()``
stubs, hidden tests removed, no outputs, and a header telling the learner how to work and how
to grade. Cell metadata (``question``, ``role``) is kept: the grader finds cells by it. The
generation is ``coursekit.notebooks.exercise``; the marker semantics live in
``coursekit.grading.markers``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coursekit.notebooks import render_exercise

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare exercises/ with what generation gives")
    args = parser.parse_args(argv)
    stale = []
    for solution in sorted(SOLUTIONS.glob("[0-9][0-9]_*.py")):
        target = EXERCISES / solution.with_suffix(".ipynb").name
        text = render_exercise(solution)
        if target.exists() and target.read_text(encoding="utf-8") == text:
            continue
        stale.append(target)
        if not args.check:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)}")
    if args.check and stale:
        print("out of date: " + ", ".join(str(p.relative_to(ROOT)) for p in stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
