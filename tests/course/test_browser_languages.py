"""The translated course in a real JupyterLab (issue 24): lesson 01 and exercise 01 of each
language, with JupyterLab's own menus in that language (its language packs).

A module of its own, so that pytest-xdist (``--dist loadscope``) runs it beside
``test_browser.py`` rather than after it; it shares that module's checks, and the server and
browser of tests/course/conftest.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from test_browser import (
    JS_CELLS,
    JS_IDLE,
    ROOT,
    RUN_ALL_TIMEOUT,
    TRANSLATED_EXERCISES,
    TRANSLATED_LESSONS,
    _lang_of,
    _open,
    _screenshot,
    check_lesson_in_jupyterlab,
)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("notebook", TRANSLATED_LESSONS, ids=lambda p: _lang_of(p))
def test_translated_lesson_runs_in_jupyterlab(notebook: Path, lab, browser):
    """Run All, graphs, widgets and the main slider, as for the English lessons, with the menus
    in the lesson's language."""
    check_lesson_in_jupyterlab(notebook, lab, browser)


# Every cell, one at a time, whatever the previous one raised: an exercise's stubs raise
# NotImplementedError, and the check cell below each one must still run and answer.
JS_RUN_EACH = """async () => {
  const app = window.jupyterapp;
  const notebook = app.shell.currentWidget.content;
  for (let i = 0; i < notebook.widgets.length; i++) {
    if (notebook.widgets[i].model.type !== 'code') continue;
    notebook.activeCellIndex = i;
    await app.commands.execute('notebook:run-cell');
  }
}"""
SCRIPTS = {"ru": re.compile(r"[А-Яа-яЁё]"), "zh": re.compile(r"[\u4e00-\u9fff]"),
           "ja": re.compile(r"[\u3040-\u30ff]")}


@pytest.mark.parametrize("notebook", TRANSLATED_EXERCISES, ids=lambda p: _lang_of(p))
def test_translated_exercise_answers_in_its_language(notebook, lab, browser):
    """A learner opens exercise 01 in their language and runs it untouched: each stub raises
    NotImplementedError, and each check cell says so in that language."""
    assert notebook.exists(), f"{notebook.relative_to(ROOT)} is missing (tools/translations.py)"
    lang = _lang_of(notebook)
    rel = notebook.relative_to(ROOT).as_posix()
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        _open(page, lab, notebook)
        page.evaluate(JS_RUN_EACH)
        page.wait_for_function(JS_IDLE, timeout=RUN_ALL_TIMEOUT * 1000, polling=250)
        cells = page.evaluate(JS_CELLS)
        stored = nbformat.read(notebook, as_version=4)
        roles = {i: c.metadata.get("role") for i, c in enumerate(stored.cells)}
        checks = 0
        for cell in cells:
            assert cell["count"], f"cell {cell['index']} did not run"
            errors = [o for o in cell["outputs"] if o.get("output_type") == "error"]
            if roles.get(cell["index"]) == "answer":
                assert all(o.get("ename") == "NotImplementedError" for o in errors), errors
                continue
            assert not errors, f"cell {cell['index']} raised: {errors}"
            if roles.get(cell["index"]) == "check":
                checks += 1
                text = "".join("".join(o.get("text", "")) for o in cell["outputs"])
                assert text.startswith("✗") and SCRIPTS[lang].search(text), text
        assert checks >= 3
        path = _screenshot(page, f"{lang}-exercises-{notebook.stem}")
        print(f"screenshot: {path.relative_to(ROOT)}")
    finally:
        page.close()
        lab.shut_down_sessions(rel)
        lab.set_language("default")
