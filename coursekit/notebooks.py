"""Build the course's notebooks from their reviewable sources (jupytext and nbformat helpers).

Every lesson and solution is written as a jupytext ``py:percent`` file, ``NN_name.py``, paired
with ``NN_name.ipynb``:

* :func:`sync` writes the ``.ipynb`` from its source, keeping the stored outputs of unchanged
  cells; :func:`execute` runs it in a fresh kernel and stores real outputs (and widget state,
  so sliders still render when the notebook is reopened);
* :func:`exercise` makes a learner's exercise notebook from a solution source: solution regions
  become stubs, hidden tests go (``coursekit.grading.markers``), outputs are left out.

Both give every cell a stable id and the same kernelspec, so rebuilding never churns a diff.
The command-line front ends are ``tools/notebooks.py`` and ``tools/make_exercises.py``
(``./course execute`` and ``./course exercises``).
"""

from __future__ import annotations

import os
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

from coursekit.grading.markers import has_marker, to_exercise
from coursekit.i18n import N_, _

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
TIMEOUT = 300  # seconds per cell
EXERCISE_HEADER = N_("""\
> **Exercise notebook.** Replace each `raise NotImplementedError()` (and each `...`) with your
> answer, then run the check cell below it for instant feedback. To grade the whole notebook
> from a terminal (in a fresh kernel, hidden tests included):
>
> ```bash
> .venv/bin/python -m coursekit.grading exercises/{name}
> ```
>
> Generated from `solutions/{source}` by `./course exercises`: edit the solution, not this
> file.""")
KEEP_METADATA = ("question", "role", "points")  # the grader finds cells by these


def number_cells(nb) -> None:
    """Stable cell ids (``cell-000``, ...): rebuilding a notebook is byte-for-byte repeatable."""
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:03d}"


def sync(py: Path) -> Path:
    """Write the .ipynb from the .py source, keeping stored outputs of unchanged cells."""
    py = Path(py)
    ipynb = py.with_suffix(".ipynb")
    nb = jupytext.read(py)
    if ipynb.exists():
        old = nbformat.read(ipynb, as_version=4)
        # Stored outputs follow their cell's source; two cells with the same source keep
        # their own outputs, in order.
        stored = {}
        for c in old.cells:
            if c.cell_type == "code":
                stored.setdefault(c.source, []).append(c)
        for cell in nb.cells:
            if cell.cell_type == "code" and stored.get(cell.source):
                match = stored[cell.source].pop(0)
                cell.outputs = match.get("outputs", [])
                cell.execution_count = match.get("execution_count")
        nb.metadata.setdefault("widgets", old.metadata.get("widgets", {}))
    number_cells(nb)
    nb.metadata["jupytext"] = {"formats": "ipynb,py:percent"}
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata.setdefault("language_info", {"name": "python"})
    nbformat.write(nb, ipynb)
    # Give the source the same header, so JupyterLab's jupytext sees one notebook, not two
    # that disagree; and keep the source the newer file of the pair.
    jupytext.write(nb, py, fmt="py:percent")
    return ipynb


def execute(ipynb: Path, timeout: float = TIMEOUT) -> None:
    """Run ``ipynb`` top to bottom in a fresh kernel and store its outputs and widget state."""
    ipynb = Path(ipynb)
    nb = nbformat.read(ipynb, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(ipynb.parent)}},
                            store_widget_state=True,
                            record_timing=False)  # no timestamps: re-running churns no diff
    language_info = nb.metadata.get("language_info")
    client.execute()
    if language_info is not None:  # not the kernel's, which names this machine's Python version
        nb.metadata["language_info"] = language_info
    nbformat.write(nb, ipynb)
    py = ipynb.with_suffix(".py")
    if py.exists():
        os.utime(py)  # the source stays newer than the notebook it built


def exercise(solution: Path, header: str | None = None) -> nbformat.NotebookNode:
    """The exercise notebook for one solution source (``solutions/NN_slug.py``)."""
    solution = Path(solution)
    name = solution.with_suffix(".ipynb").name
    return exercise_from(jupytext.read(solution), name, solution.name, header)


def exercise_from(nb, name: str, source: str, header: str | None = None):
    """The exercise notebook for a solution notebook ``nb`` (English or translated).

    ``name`` is the exercise's path under ``exercises/`` and ``source`` the solution's file
    name, both shown in the header (in the current language, ``coursekit.i18n``)."""
    header = _(EXERCISE_HEADER) if header is None else header
    cells = [nbformat.v4.new_markdown_cell(header.format(name=name, source=source))]
    for cell in nb.cells:
        source_text = to_exercise(cell.source, cell.cell_type) if has_marker(cell.source) else \
            cell.source
        meta = {k: cell.metadata[k] for k in KEEP_METADATA if k in cell.metadata}
        if cell.cell_type == "code":
            new = nbformat.v4.new_code_cell(source_text, metadata=meta)
        else:
            new = nbformat.v4.new_markdown_cell(source_text, metadata=meta)
        cells.append(new)
    out = nbformat.v4.new_notebook(cells=cells)
    number_cells(out)
    out.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
    return out


def render_exercise(solution: Path) -> str:
    """The exercise notebook's file text, exactly as ``./course exercises`` writes it."""
    return nbformat.writes(exercise(solution)) + "\n"
