"""Static checks on the course notebooks: sources in sync, outputs stored and deterministic.

nbval (run by ``./course test``) re-executes each notebook and compares every output; these
tests catch what nbval cannot see: a lesson whose ``.py`` source and ``.ipynb`` drifted apart,
a cell never executed, or output that would differ on the next run.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
UNSTABLE = [
    (re.compile(r"0x[0-9a-f]{6,}"), "a memory address"),
    (re.compile(r"/tmp/|/work/"), "a temporary or machine path"),
    (re.compile(r"\b\d+(\.\d+)?\s*(ms|µs|us)\b"), "a timing"),
]


def _code_sources(nb) -> list[str]:
    return [c["source"] if isinstance(c["source"], str) else "".join(c["source"])
            for c in nb["cells"] if c["cell_type"] == "code"]


def test_every_lesson_has_a_source_and_a_notebook():
    assert LESSONS, "no lessons found in notebooks/"
    assert [p.stem for p in LESSONS] == [p.stem for p in NOTEBOOKS]


@pytest.mark.parametrize("source", LESSONS, ids=lambda p: p.stem)
def test_notebook_is_in_sync_with_its_source(source):
    expected = jupytext.read(source)
    stored = json.loads(source.with_suffix(".ipynb").read_text(encoding="utf-8"))
    assert [c.source for c in expected.cells] == [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in stored["cells"]
    ], f"{source.name} and its .ipynb differ: run ./course execute {source.relative_to(ROOT)}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_executed_with_stable_outputs(notebook):
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "a lesson without code"
    assert all(c.get("execution_count") for c in code), "some cells were never executed"
    counts = [c["execution_count"] for c in code]
    assert counts == list(range(1, len(code) + 1)), "cells were not run top to bottom once"
    for cell in code:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"stored error in: {cell['source'][:80]}"
            text = json.dumps({k: v for k, v in out.get("data", {}).items()
                               if k in ("text/plain", "text/html")}) + "".join(out.get("text", ""))
            for pattern, what in UNSTABLE:
                match = pattern.search(text)
                assert match is None, f"{what} in a stored output: {match.group(0)!r}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_checks_against_torch_and_draws(notebook):
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    sources = "\n".join(_code_sources(nb))
    kinds = {k for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
             for k in o.get("data", {})}
    assert "%%both" in sources, "no cell is checked against torch"
    assert "image/svg+xml" in kinds, "no graph is drawn"


@pytest.mark.parametrize("notebook", [n for n in NOTEBOOKS if not n.stem.startswith("00_")],
                         ids=lambda p: p.stem)
def test_lesson_has_a_widget_and_exercises(notebook):
    """Lessons 01-10 (not the welcome page) drive a graph or plot and point to exercises."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    kinds = {k for o in outputs for k in o.get("data", {})}
    assert "application/vnd.jupyter.widget-view+json" in kinds, "no widget"
    assert nb["metadata"].get("widgets"), "widget state is not saved in the notebook"
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert re.search(r"exercises/\d\d_", text), "the lesson does not point to its exercises"


def _torch_object(dotted: str):
    """The object a torch docs page documents, ``torch.autograd.gradcheck.gradcheck`` included
    (the module ``torch.autograd.gradcheck``, shadowed on ``torch.autograd`` by its function)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):  # the longest importable module, then attributes
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(dotted)


DOCS_LINK = re.compile(r"https://(?:docs\.)?pytorch\.org/docs/[^\s)>\"'`]+")


def test_every_torch_docs_link_names_a_real_torch_api():
    """The lessons link each torch API to its docs page (``generated/torch.X.html`` or an
    anchor ``#torch.X``); with no network here, the page is checked by its name: ``torch.X``
    must exist in the pinned torch. All links use the docs' own host."""
    sources = [*LESSONS, *sorted((ROOT / "solutions").glob("[0-9][0-9]_*.py"))]
    links = {link for p in sources for link in DOCS_LINK.findall(p.read_text("utf-8"))}
    assert len(links) > 50
    for link in sorted(links):
        assert link.startswith("https://docs.pytorch.org/docs/stable/"), link
        named = re.findall(r"generated/(torch[\w.]+?)\.html|#(torch\.[\w.]+)$", link)
        for dotted in [a or b for a, b in named]:
            _torch_object(dotted)  # raises for a name torch does not have
