"""The first minutes of a learner (issue 8, "First run").

* ``./course lab`` opens JupyterLab on lesson 00 (its ``default_url``; the browser test
  ``test_lab_opens_on_the_welcome_lesson`` checks it in a real JupyterLab);
* every lesson stores its widget state, so its widgets render when the notebook is reopened;
* a ``%%both`` cell or a ``NameError`` before the set-up cell (first open, kernel restart,
  cells out of order) gives a short hint, not IPython's "Cell magic `%%both` not found." or a
  traceback: every kernel of the course's environment loads ``coursekit.compare_hints``
  (written there by ``./course``'s set-up).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coursekit import compare_hints

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _lab_target(*args, lang_env="C.UTF-8"):
    out = subprocess.run(["bash", str(ROOT / "course"), "lab-target", *args],
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, LANG=lang_env))
    assert out.returncode == 0, out.stderr
    return tuple(out.stdout.split())


def test_course_lab_opens_the_welcome_lesson():
    script = (ROOT / "course").read_text(encoding="utf-8")
    assert '--LabApp.default_url="/lab/tree/$target"' in script
    assert 'target="$(lab_target "$lang")"' in script
    assert _lab_target() == ("en", "notebooks/00_welcome.ipynb")
    assert (ROOT / "notebooks" / "00_welcome.ipynb").is_file()


@pytest.mark.parametrize("lang", ["ru", "zh", "ja"])
def test_course_lab_opens_the_language_asked_for(lang):
    """--lang wins over LANG; LANG (ru_RU.UTF-8...) gives the default; lesson 00 of that
    language is opened when it is published, else the English one (with a note)."""
    translated = ROOT / "notebooks" / lang / "00_welcome.ipynb"
    want = (lang, f"notebooks/{lang}/00_welcome.ipynb" if translated.exists()
            else "notebooks/00_welcome.ipynb")
    assert _lab_target("--lang", lang) == want
    assert _lab_target(f"--lang={lang}", lang_env="de_DE.UTF-8") == want
    assert _lab_target(lang_env={"ru": "ru_RU.UTF-8", "zh": "zh_CN.UTF-8",
                                 "ja": "ja_JP.UTF-8"}[lang]) == want
    assert _lab_target("--lang", "en", lang_env=f"{lang}_XX.UTF-8")[0] == "en"


def test_course_lab_refuses_an_unknown_language():
    out = subprocess.run(["bash", str(ROOT / "course"), "lab-target", "--lang", "fr"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "unknown language 'fr'" in out.stderr


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_lesson_stores_its_widget_state(notebook):
    """Every widget shown in a stored output has its state in the notebook's metadata."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    shown = {out["data"][WIDGET_VIEW]["model_id"]
             for cell in nb["cells"] if cell["cell_type"] == "code"
             for out in cell.get("outputs", []) if WIDGET_VIEW in out.get("data", {})}
    assert shown, f"{notebook.name} shows no widget"
    state = nb["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    missing = shown - set(state)
    assert not missing, (f"{notebook.name}: no saved state for {len(missing)} widget(s); "
                         f"run ./course execute {notebook.relative_to(ROOT).with_suffix('.py')}")


def test_setup_installs_the_kernel_hints():
    """The course's environment makes every kernel load coursekit.compare_hints."""
    path = compare_hints.config_path()
    assert path.is_file() and path.read_text(encoding="utf-8") == compare_hints.KERNEL_CONFIG, (
        f"{path} is missing or outdated: run ./course setup "
        f"(or {sys.executable} -m coursekit.compare_hints install)")
    assert "ensure_kernel_hints" in (ROOT / "course").read_text(encoding="utf-8")


def test_install_replaces_an_earlier_course_config_and_respects_others(tmp_path, monkeypatch):
    path = tmp_path / "etc" / "ipython" / "ipython_kernel_config.py"
    monkeypatch.setattr(compare_hints, "config_path", lambda: path)
    assert compare_hints.install() and path.read_text() == compare_hints.KERNEL_CONFIG
    assert not compare_hints.install()  # nothing to do the second time
    # A config an earlier set-up wrote (another extension name, say) is ours to replace.
    path.write_text(compare_hints.WRITTEN_BY + ": old\nc.InteractiveShellApp.extensions = []\n")
    assert compare_hints.install() and path.read_text() == compare_hints.KERNEL_CONFIG
    # Someone else's config: left alone if it loads the hints, else a clear message.
    line = compare_hints.KERNEL_CONFIG.splitlines()[-1]
    path.write_text(f"c.Foo = 1\n{line}\n")
    assert not compare_hints.install() and path.read_text() == f"c.Foo = 1\n{line}\n"
    path.write_text("c.Foo = 1\n")
    with pytest.raises(SystemExit, match="was not written by the course"):
        compare_hints.install()
    assert path.read_text() == "c.Foo = 1\n"


def _first_cell(notebook: Path, start: str) -> str:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "code" and source.startswith(start):
            return source
    raise AssertionError(f"{notebook.name} has no code cell starting with {start!r}")


def _text(outputs) -> str:
    parts = []
    for out in outputs:
        parts.append(out.get("text", "") if isinstance(out.get("text", ""), str)
                     else "".join(out["text"]))
        parts.append("\n".join(out.get("traceback", [])))
        parts.append(out.get("data", {}).get("text/plain", ""))
    return ANSI.sub("", "\n".join(parts))


@pytest.mark.notebook
def test_cells_before_the_setup_cell_give_a_hint():
    """In a fresh kernel: %%both and a name from the set-up cell, before that cell has run."""
    import nbclient
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    if not compare_hints.config_path().is_file():
        pytest.fail(f"{compare_hints.config_path()} is missing: run ./course setup",
                    pytrace=False)
    lesson = ROOT / "notebooks" / "00_welcome.ipynb"
    both_cell = _first_cell(lesson, "%%both")
    setup_cell = _first_cell(lesson, "# Run this cell first")
    nb = new_notebook(cells=[
        new_code_cell(both_cell),  # the learner's first click: a %%both cell
        new_code_cell("viz.show"),  # a name the set-up cell makes
        new_code_cell(setup_cell),
        new_code_cell(both_cell),  # now it works
        new_code_cell("print(undefined_tensor)"),  # a cell above was skipped
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    client = nbclient.NotebookClient(nb, kernel_name="python3", allow_errors=True, timeout=120,
                                     resources={"metadata": {"path": str(lesson.parent)}})
    client.execute()
    outs = [cell.outputs for cell in nb.cells]

    both_before = _text(outs[0])
    assert "not found" not in both_before, both_before
    assert "run this lesson's set-up cell first" in both_before, both_before
    assert "Traceback" not in both_before, both_before
    assert [o["output_type"] for o in outs[0]] == ["stream"], outs[0]

    name_before = _text(outs[1])
    assert "NameError: name 'viz' is not defined" in name_before, name_before
    assert "set-up cell has not run in this kernel" in name_before, name_before

    assert not any(o["output_type"] == "error" for o in outs[2]), _text(outs[2])
    assert "✓ minigrad matches torch" in _text(outs[3]), _text(outs[3])

    skipped = _text(outs[4])
    assert "NameError: name 'undefined_tensor' is not defined" in skipped, skipped
    assert "if `undefined_tensor` is made by a cell above, run that cell first" in skipped
    nbformat.validate(nb)
