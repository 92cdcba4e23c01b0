"""Build the course notebooks from their reviewable sources (``./course execute``).

Every lesson (and solution) is written as a jupytext ``py:percent`` file, ``NN_name.py``, paired
with ``NN_name.ipynb``. This tool keeps the pair in sync and stores real outputs:

    python tools/notebooks.py execute [PATH...]   # sync, then run and save outputs
    python tools/notebooks.py sync [PATH...]      # only sync sources (no execution)

With no PATH it takes every ``notebooks/*.py`` and ``solutions/*.py``. Execution uses a fresh
kernel per notebook (so hidden state cannot leak between cells of different notebooks) and saves
widget state. The work is done by ``coursekit.notebooks``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coursekit import notebooks

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "solutions")


def sources(paths) -> list[Path]:
    if paths:
        return [Path(p).with_suffix(".py").resolve() for p in paths]
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).glob("[0-9]*.py"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("sync", "execute"))
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    for py in sources(args.paths):
        if not py.exists():
            print(f"no such lesson source: {py}", file=sys.stderr)
            return 2
        ipynb = notebooks.sync(py)
        if args.command == "execute":
            print(f"executing {ipynb.relative_to(ROOT)}", flush=True)
            notebooks.execute(ipynb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
