"""Build the course notebooks from their reviewable sources.

Every lesson (and solution) is written as a jupytext ``py:percent`` file, ``NN_name.py``, paired
with ``NN_name.ipynb``. This tool keeps the pair in sync and stores real outputs:

    python tools/notebooks.py execute [PATH...]   # sync, then run and save outputs
    python tools/notebooks.py sync [PATH...]      # only sync sources (no execution)

With no PATH it takes every ``notebooks/*.py`` and ``solutions/*.py``. Execution uses a fresh
kernel per notebook (so hidden state cannot leak between cells of different notebooks) and saves
widget state, so sliders still render when the notebook is reopened.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "solutions")
TIMEOUT = 300  # seconds per cell


def sources(paths) -> list[Path]:
    if paths:
        return [Path(p).with_suffix(".py").resolve() for p in paths]
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).glob("[0-9]*.py"))


def sync(py: Path) -> Path:
    """Write the .ipynb from the .py source, keeping stored outputs of unchanged cells."""
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
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:03d}"  # stable ids: re-syncing never churns the diff
    nb.metadata["jupytext"] = {"formats": "ipynb,py:percent"}
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    nb.metadata.setdefault("language_info", {"name": "python"})
    nbformat.write(nb, ipynb)
    # Give the source the same header, so JupyterLab's jupytext sees one notebook, not two
    # that disagree; and keep the source the newer file of the pair.
    jupytext.write(nb, py, fmt="py:percent")
    return ipynb


def execute(ipynb: Path) -> None:
    nb = nbformat.read(ipynb, as_version=4)
    client = NotebookClient(nb, timeout=TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(ipynb.parent)}},
                            store_widget_state=True)
    client.execute()
    nbformat.write(nb, ipynb)
    py = ipynb.with_suffix(".py")
    if py.exists():
        os.utime(py)  # the source stays newer than the notebook it built


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("sync", "execute"))
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    for py in sources(args.paths):
        if not py.exists():
            print(f"no such lesson source: {py}", file=sys.stderr)
            return 2
        ipynb = sync(py)
        if args.command == "execute":
            print(f"executing {ipynb.relative_to(ROOT)}", flush=True)
            execute(ipynb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
