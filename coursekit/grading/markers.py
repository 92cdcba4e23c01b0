"""nbgrader's cell markers, implemented in a few lines (so nbgrader is not a dependency).

* ``### BEGIN SOLUTION`` / ``### END SOLUTION``: the region a learner writes. In an exercise it
  becomes a stub that raises ``NotImplementedError``; when the region only assigns names
  (``grad_x = 8.0``), the stub keeps those lines as ``grad_x = ...`` so the learner sees what to
  fill in. In a markdown cell the region becomes ``YOUR ANSWER HERE``.
* ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS``: checks only the grader runs; the
  region is removed from exercises and replaced by ``q.more_when_graded()`` (at the region's
  indentation), so the exercise's inline check says "passes the visible checks; grading runs
  more" instead of a plain ✓ that grading could contradict.
"""

from __future__ import annotations

import ast
import textwrap

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
STUB = "raise NotImplementedError()"
MARKDOWN_STUB = "YOUR ANSWER HERE"
HIDDEN_STUB = "q.more_when_graded()"


class MarkerError(ValueError):
    """Markers that do not pair up (a BEGIN without its END, or nested regions)."""


def regions(source: str, begin: str, end: str):
    """Split ``source`` into (lines before, region lines, marker indent, lines after) pieces.

    Yields ``("text", lines)`` and ``("region", indent, lines)`` items in order.
    """
    out, inside, indent, current = [], False, "", []
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped == begin:
            if inside:
                raise MarkerError(f"{begin!r} inside another region")
            out.append(("text", current))
            inside, indent, current = True, line[: len(line) - len(line.lstrip())], []
        elif stripped == end:
            if not inside:
                raise MarkerError(f"{end!r} without {begin!r}")
            out.append(("region", indent, current))
            inside, current = False, []
        else:
            current.append(line)
    if inside:
        raise MarkerError(f"{begin!r} without {end!r}")
    out.append(("text", current))
    return out


def has_marker(source: str) -> bool:
    return any(m in source for m in (BEGIN_SOLUTION, BEGIN_HIDDEN))


def remove_hidden_tests(source: str) -> str:
    """The source with each hidden-test region (markers included) replaced by one line,
    ``q.more_when_graded()``, at the region's indentation."""
    kept = []
    for item in regions(source, BEGIN_HIDDEN, END_HIDDEN):
        kept += item[1] if item[0] == "text" else [f"{item[1]}{HIDDEN_STUB}"]
    return "\n".join(kept)


def _assigned_names(region: list[str]) -> list[str] | None:
    """``["grad_x = ...", "a, b = ..., ..."]`` when the region only assigns names, else None."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(region)))
    except SyntaxError:
        return None
    names = []
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            return None
        target = stmt.targets[0]
        if not isinstance(target, ast.Name | ast.Tuple):
            return None
        if isinstance(target, ast.Tuple):
            names.append(", ".join(ast.unparse(e) for e in target.elts) + " = "
                         + ", ".join(["..."] * len(target.elts)))
        else:
            names.append(f"{target.id} = ...")
    return names or None


def stub_code(source: str) -> str:
    """A code cell's source with each solution region replaced by its stub."""
    lines = []
    for item in regions(source, BEGIN_SOLUTION, END_SOLUTION):
        if item[0] == "text":
            lines += item[1]
            continue
        _, indent, region = item
        for line in _assigned_names(region) or []:
            lines.append(f"{indent}{line}")
        lines.append(f"{indent}{STUB}")
    return "\n".join(lines)


def stub_markdown(source: str) -> str:
    lines = []
    for item in regions(source, BEGIN_SOLUTION, END_SOLUTION):
        lines += item[1] if item[0] == "text" else [MARKDOWN_STUB]
    return "\n".join(lines)


def to_exercise(source: str, cell_type: str) -> str:
    """A solution cell's source as the learner gets it."""
    if cell_type == "markdown":
        return stub_markdown(source)
    return stub_code(remove_hidden_tests(source))
