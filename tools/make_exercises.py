"""Generate the learner's exercise notebooks from their solutions.

    python tools/make_exercises.py            # writes exercises/NN_slug.ipynb for every solution
    python tools/make_exercises.py --check    # exit 1 if exercises/ differs from generation

``solutions/NN_slug.py`` (jupytext py:percent, nbgrader's markers) is the single source. Each
exercise is the solution with solution regions replaced by ``raise NotImplementedError()``
stubs, hidden tests removed, no outputs, and a header telling the learner how to work and how
to grade. Cell metadata (``question``, ``role``) is kept: the grader finds cells by it. The
marker semantics live in ``minigrad.grading.markers``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jupytext
import nbformat

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"
sys.path.insert(0, str(ROOT))
from minigrad.grading.markers import has_marker, to_exercise  # noqa: E402

HEADER = """\
> **Exercise notebook.** Replace each `raise NotImplementedError()` (and each `...`) with your
> answer, then run the check cell below it for instant feedback. To grade the whole notebook
> from a terminal (in a fresh kernel, hidden tests included):
>
> ```bash
> .venv/bin/python -m minigrad.grading exercises/{name}
> ```
>
> Generated from `solutions/{source}` by `./course exercises`: edit the solution, not this
> file."""

KEEP_METADATA = ("question", "role", "points")


def exercise(solution: Path) -> nbformat.NotebookNode:
    """The exercise notebook for one solution source."""
    nb = jupytext.read(solution)
    name = solution.with_suffix(".ipynb").name
    cells = [nbformat.v4.new_markdown_cell(HEADER.format(name=name, source=solution.name))]
    for cell in nb.cells:
        source = to_exercise(cell.source, cell.cell_type) if has_marker(cell.source) else \
            cell.source
        meta = {k: cell.metadata[k] for k in KEEP_METADATA if k in cell.metadata}
        if cell.cell_type == "code":
            new = nbformat.v4.new_code_cell(source, metadata=meta)
        else:
            new = nbformat.v4.new_markdown_cell(source, metadata=meta)
        cells.append(new)
    for i, cell in enumerate(cells):  # stable ids: generation is byte-for-byte repeatable
        cell.id = f"cell-{i:03d}"
    out = nbformat.v4.new_notebook(cells=cells)
    out.metadata = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                   "name": "python3"},
                    "language_info": {"name": "python"}}
    return out


def render(solution: Path) -> str:
    return nbformat.writes(exercise(solution)) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare exercises/ with what generation gives")
    args = parser.parse_args(argv)
    stale = []
    for solution in sorted(SOLUTIONS.glob("[0-9][0-9]_*.py")):
        target = EXERCISES / solution.with_suffix(".ipynb").name
        text = render(solution)
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
