"""Solution notebooks with some answers replaced, graded by the real grader: how the shortcut
tests (``test_grading_shortcuts*.py``) see what a variant scores."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

from coursekit.grading.grader import grade
from coursekit.grading.runner import Limits, sandbox_available

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def grade_variants(folder: Path, variants: dict) -> dict:
    """``variants`` maps a name to ``(lesson, {question: answer cell})``; each is written as a
    copy of that lesson's solution notebook with those answers, and graded (two at a time).
    Returns ``{name: {question: {"points", "max", "feedback", ...}}}``."""
    paths = {}
    for i, (name, (lesson, answers)) in enumerate(variants.items()):
        nb = nbformat.read(SOLUTIONS / f"{lesson}.ipynb", as_version=4)
        for qid, answer in answers.items():
            cell = next(c for c in nb.cells if c.metadata.get("question") == qid
                        and c.metadata.get("role") == "answer")
            cell.source = f"# Answer {qid}\n" + answer
        (folder / str(i)).mkdir()
        paths[name] = folder / str(i) / f"{lesson}.ipynb"
        nbformat.write(nb, paths[name])
    limits = Limits(cell_timeout=60, notebook_timeout=300)
    with ThreadPoolExecutor(2) as pool:
        results = dict(zip(paths, pool.map(lambda name: grade(
            paths[name], SOLUTIONS, sandbox=sandbox_available(), student=str(name),
            limits=limits), paths)))
    return {name: {q["id"]: q for q in r.questions} for name, r in results.items()}
