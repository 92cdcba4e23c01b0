"""Every lesson in a real JupyterLab, driven by headless Chromium through Playwright (issue 8).

One JupyterLab server (127.0.0.1, its own free port and token) and one Chromium are shared by
the whole session. Each lesson ``notebooks/NN_slug.ipynb`` is opened as a learner opens a file,
in a page kept open from lesson to lesson (one per language: JupyterLab loads once), runs
"Run All Cells", and is checked for what a learner would see:

* every code cell ran (an execution count, no ``[*]``) and no cell shows an error;
* the graph drawings (Graphviz SVGs, ``class="graph"``) and the widgets are visible;
* moving the lesson's main slider with the keyboard (ArrowRight on its handle) changes the
  graph or plot it drives.

Screenshots go to ``test-artifacts/browser/``: ``NN_slug.png`` for every lesson after
"Run All" and the slider move (scrolled to its main widget), ``00_start_page.png`` (what
``./course lab`` shows first, before anything runs), and ``NN_slug-FAILED.png`` when a check
fails; each path is printed in the test output (``-rA`` shows it for passing tests too).

The browser is Debian's ``chromium`` package (``./course test`` installs it as root when
missing), started through Playwright's ``executable_path``: Playwright's own browser downloads
are never used. Set ``COURSE_CHROMIUM=/path/to/chromium`` to use another Chromium or Chrome.
Without a browser the tests fail (they are part of the README's test command).

Only the processes started here are stopped: the server runs in its own process group, and
the kernels it started (its child processes) are shut down through its REST API, then killed
if still alive.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# The translations (issue 24): lesson 01 and exercise 01 of each language, opened with
# JupyterLab's own menus in that language (its language packs, pinned in pyproject.toml).
LOCALES = {"ru": "ru_RU", "zh": "zh_CN", "ja": "ja_JP"}
TRANSLATED_LESSONS = [ROOT / "notebooks" / lang / "01_computational_graphs.ipynb"
                      for lang in LOCALES]
TRANSLATED_EXERCISES = [ROOT / "exercises" / lang / "01_computational_graphs.ipynb"
                        for lang in LOCALES]
ARTIFACTS = ROOT / "test-artifacts" / "browser"

# Headless Chromium on a closed network: no sandbox (root, containers), no GPU, and no
# background connections (without these flags Chromium's own connections are refused and
# slow everything down).
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
CHROMIUM_CANDIDATES = [
    "chromium", "chromium-browser",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
]
# JupyterLab user settings for the test server (its own settings folder, so a learner's
# settings neither leak in nor get changed):
LAB_SETTINGS = {
    # Never write the lessons back: "Run All" makes the notebooks dirty.
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    # Keep every cell in the page, so every output can be checked.
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    # No news, no update checks (also off on the command line).
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                     "checkForUpdates": False},
}
WELCOME_URL = "/lab/tree/notebooks/00_welcome.ipynb"  # what `./course lab` opens
# `./course lab`'s listing filter (the jupytext twins hidden), read from the script itself
LAB_HIDE = re.findall(r'"(--ContentsManager\.hide_globs=[^"]+)"',
                      (ROOT / "course").read_text(encoding="utf-8"))
SERVER_START_TIMEOUT = 90  # seconds
RUN_ALL_TIMEOUT = 180  # seconds for one lesson's "Run All"
SLIDER_TIMEOUT = 30  # seconds for the kernel to redraw after a slider move


# --- the JupyterLab server --------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """A JupyterLab server started by this test session."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.port = _free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / "jupyterlab.log"
        settings = tmp / "user-settings"
        for name, values in LAB_SETTINGS.items():
            path = settings / f"{name}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values), encoding="utf-8")
        cmd = [
            sys.executable, "-m", "jupyterlab",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0", f"--IdentityProvider.token={self.token}",
            "--ServerApp.open_browser=False", f"--ServerApp.root_dir={ROOT}",
            # The same start page and news/update flags as `./course lab`.
            f"--LabApp.default_url={WELCOME_URL}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            # window.jupyterapp: run JupyterLab commands and read the notebook model.
            "--LabApp.expose_app_in_browser=True",
            f"--LabApp.user_settings_dir={settings}",
            f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
            *LAB_HIDE,
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        # Its own runtime and data folders: connection files and notebook signatures stay here.
        env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
                   JUPYTER_DATA_DIR=str(tmp / "data"))
        # Trust the lessons, as `./course lab` does: JupyterLab shows the stored SVG graphs and
        # widgets of trusted notebooks only.
        books = [*LESSONS, *(p for p in TRANSLATED_LESSONS if p.exists())]
        subprocess.run([sys.executable, "-m", "nbformat.sign", *map(str, books)], env=env,
                       check=True, stdout=subprocess.DEVNULL)
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        # Own process group (start_new_session): stop() signals exactly this group.
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.kernel_pids: set[int] = set()

    def api(self, method: str, path: str, timeout: float = 10, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.url}{path}", method=method, data=data,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def wait_ready(self) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"JupyterLab exited with code {self.proc.returncode}:\n"
                            f"{self.log_tail()}", pytrace=False)
            try:
                self.api("GET", "/api/status", timeout=2)
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        pytest.fail(f"JupyterLab did not answer within {SERVER_START_TIMEOUT} s:\n"
                    f"{self.log_tail()}", pytrace=False)

    def set_language(self, locale: str) -> None:
        """JupyterLab's menus in ``locale`` (``ru_RU``...; ``default`` is English) for the
        pages opened from now on: the setting `./course lab --lang` gives."""
        raw = json.dumps({"locale": locale})
        self.api("PUT", "/lab/api/settings/@jupyterlab/translation-extension:plugin",
                 body={"raw": raw})

    def log_tail(self, lines: int = 30) -> str:
        self.log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:]) + f"\n(full log: {self.log_path})"

    def remember_kernels(self) -> None:
        """Note the server's child processes (its kernels), to be sure they end with it."""
        for status in Path("/proc").glob("[0-9]*/status"):
            try:
                text = status.read_text()
            except OSError:
                continue
            if re.search(rf"^PPid:\s*{self.proc.pid}$", text, re.M):
                self.kernel_pids.add(int(status.parent.name))

    def shut_down_sessions(self, path: str | None = None) -> None:
        """Shut down the kernel sessions (of one notebook, or all) through the REST API."""
        self.remember_kernels()
        for session in self.api("GET", "/api/sessions"):
            if path is None or session.get("path") == path:
                self.api("DELETE", f"/api/sessions/{session['id']}", timeout=30)
        if path is None:
            for kernel in self.api("GET", "/api/kernels"):
                self.api("DELETE", f"/api/kernels/{kernel['id']}", timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.shut_down_sessions()
            except (urllib.error.URLError, OSError):
                pass
            self.remember_kernels()
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        for pid in self.kernel_pids:  # kernels run in their own process groups
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.log.close()


def find_chromium() -> str:
    for candidate in [os.environ.get("COURSE_CHROMIUM", "")] + CHROMIUM_CANDIDATES:
        if candidate and (path := shutil.which(candidate) or (
                os.access(candidate, os.X_OK) and candidate)):
            return path
    pytest.fail(
        "Chromium was not found, so the course cannot be tested in a browser.\n"
        "  `./course test` installs it when run as root on Debian/Ubuntu; otherwise install it:\n"
        "    Debian:  sudo apt-get install chromium      Ubuntu: sudo snap install chromium\n"
        "    macOS:   install Google Chrome or Chromium\n"
        "  or point COURSE_CHROMIUM at a Chromium/Chrome executable.\n"
        "  (Playwright's own browser download, `playwright install`, is not used.)",
        pytrace=False)


# The fixtures `lab` (the server) and `browser` (Chromium) live in tests/course/conftest.py:
# one of each per test process, shared by this module and test_browser_languages.py.


# --- JavaScript run in the page (window.jupyterapp is the JupyterLab application) ------------
# True when the notebook is open with an idle kernel; the text of a dialog if one appeared
# instead (such as jupytext's "File Load Error"), so the test fails at once with it.
JS_NOTEBOOK_READY = """path => {
  const dialog = document.querySelector('.jp-Dialog');
  if (dialog) return 'dialog: ' + dialog.innerText;
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path || !panel.content.model) return false;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle' && panel.content.widgets.length > 0;
}"""
JS_RUN_ALL = """async () => {
  const app = window.jupyterapp;
  await app.commands.execute('notebook:run-all-cells');
}"""
# The kernel is idle and no cell is waiting ([*]) any more.
JS_IDLE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  if (panel.sessionContext.session.kernel.status !== 'idle') return false;
  const prompts = panel.node.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt');
  return [...prompts].every(p => !p.textContent.includes('*'));
}"""
# "Run All" is over: idle, and every code cell has run or one stopped the run with an error.
JS_RUN_FINISHED = """() => {
  if (!(JS_IDLE)()) return false;
  const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
  let all_ran = true;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    if (cell.type !== 'code') continue;
    if (cell.outputs.toJSON().some(o => o.output_type === 'error')) return true;
    if (!cell.executionCount) all_ran = false;
  }
  return all_ran;
}""".replace("JS_IDLE", JS_IDLE)
# What each code cell shows: its execution count and its outputs.
JS_CELLS = """() => {
  const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
  const result = [];
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    if (cell.type !== 'code') continue;
    result.push({index: i, source: cell.sharedModel.getSource(),
                 count: cell.executionCount, outputs: cell.outputs.toJSON()});
  }
  return result;
}"""
# The innerHTML of the output that holds the first slider, without the sliders themselves
# (their readouts change with the value): what the slider drives.
JS_DRIVEN_VIEW = """() => {
  const slider = window.jupyterapp.shell.currentWidget.node.querySelector('.widget-slider');
  const area = slider && slider.closest('.jp-OutputArea-output');
  if (!area) return null;
  const copy = area.cloneNode(true);
  copy.querySelectorAll('.widget-slider, .widget-readout').forEach(e => e.remove());
  return copy.innerHTML;
}"""
JS_SLIDER_READOUT = """() => {
  const r = window.jupyterapp.shell.currentWidget.node.querySelector(
    '.widget-slider .widget-readout');
  return r ? (r.value !== undefined && r.value !== '' ? r.value : r.textContent) : null;
}"""

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _problems_in_outputs(cells) -> list[str]:
    problems = []
    for cell in cells:
        first_line = cell["source"].splitlines()[0][:60] if cell["source"] else ""
        where = f"cell {cell['index']} ({first_line!r})"
        if not cell["count"]:
            problems.append(f"{where} did not run (no execution count)")
        for out in cell["outputs"]:
            kind = out.get("output_type")
            if kind == "error":
                tb = ANSI.sub("", "\n".join(out.get("traceback", [])))
                problems.append(f"{where} raised {out.get('ename')}: {out.get('evalue')}\n{tb}")
            elif kind == "stream" and out.get("name") == "stderr":
                text = "".join(out.get("text", ""))
                if "Traceback" in text or "Error" in text:
                    problems.append(f"{where} wrote an error to stderr:\n{text}")
    return problems


def _screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def _current_notebook(page):
    """The notebook in the current tab (other tabs may be open, hidden)."""
    panel_id = page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
    return page.locator(f"[id='{panel_id}'] .jp-Notebook")


def test_lessons_are_found():
    assert LESSONS, "no lesson notebooks (notebooks/NN_slug.ipynb) to test in the browser"


def test_file_browser_lists_each_lesson_and_exercise_once(lab):
    """The jupytext twins (``NN_slug.py``) are hidden from the listings `./course lab` serves,
    yet still there for jupytext, which pairs them with the notebooks."""
    assert "--ContentsManager.hide_globs=[0-9][0-9]_*.py" in LAB_HIDE
    for folder in ("notebooks", "solutions", "exercises"):
        names = [c["name"] for c in lab.api("GET", f"/api/contents/{folder}")["content"]]
        stems = [n.split(".")[0] for n in names if n[:2].isdigit()]
        assert stems and len(stems) == len(set(stems)), (folder, names)
        assert all(n.endswith(".ipynb") for n in names if n[:2].isdigit()), (folder, names)
    twin = lab.api("GET", "/api/contents/notebooks/01_computational_graphs.py?content=0")
    assert twin["type"] == "notebook"  # jupytext still reads it as the lesson's twin


def test_lab_opens_on_the_welcome_lesson(lab, browser):
    """`./course lab`'s start page is lesson 00, whose stored widgets show before any run."""
    from playwright.sync_api import expect

    script = (ROOT / "course").read_text(encoding="utf-8")
    assert '--LabApp.default_url="/lab/tree/$target"' in script
    assert 'target="$(lab_target "$lang")"' in script  # its choice: test_first_run.py
    rel = WELCOME_URL.removeprefix("/lab/tree/")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{lab.url}/?token={lab.token}")  # the link JupyterLab prints
        ready = page.wait_for_function(JS_NOTEBOOK_READY, arg=rel, timeout=90_000).json_value()
        assert ready is True, f"JupyterLab did not open {rel}: a {ready}"
        # Nothing has run: the widgets come from the state stored in the notebook.
        slider = _current_notebook(page).locator(".widget-slider").first
        slider.scroll_into_view_if_needed()
        expect(slider).to_be_visible()
        expect(page.get_by_text("Error displaying widget")).to_have_count(0)
        expect(page.get_by_text("<IPython.core.display.SVG object>")).to_have_count(0)
        path = _screenshot(page, "00_start_page")
        print(f"screenshot of the start page: {path.relative_to(ROOT)}")
    except BaseException as error:
        path = _screenshot(page, "00_start_page-FAILED")
        print(f"screenshot of the failure: {path.relative_to(ROOT)}")
        error.add_note(f"screenshot of the failure: {path.relative_to(ROOT)}")
        raise
    finally:
        page.close()
        lab.shut_down_sessions(rel)


def _lang_of(notebook: Path) -> str:
    return notebook.parent.name if notebook.parent.name in LOCALES else "en"


def _shot_name(notebook: Path) -> str:
    lang = _lang_of(notebook)
    folder = notebook.parent.parent.name
    return notebook.stem if lang == "en" else f"{lang}-{folder}-{notebook.stem}"


def _pack_word(lang: str, english: str) -> str:
    """``english`` as JupyterLab's language pack for ``lang`` translates it (its own catalog)."""
    import importlib.util

    locale = LOCALES[lang]
    spec = importlib.util.find_spec(f"jupyterlab_language_pack_{locale}")
    package = f"jupyterlab-language-pack-{locale.replace('_', '-')}"
    assert spec is not None, f"the language pack {package} is missing (./course setup installs it)"
    catalog = Path(spec.origin).parent / "locale" / locale / "LC_MESSAGES" / "jupyterlab.json"
    return json.loads(catalog.read_text(encoding="utf-8"))[english][0]


def _open(page, lab, notebook: Path) -> str:
    """Open ``notebook`` in a fresh page, JupyterLab's menus in its language; its path."""
    rel = notebook.relative_to(ROOT).as_posix()
    lang = _lang_of(notebook)
    lab.set_language(LOCALES.get(lang, "default"))
    page.goto(f"{lab.url}/lab/tree/{rel}?reset&token={lab.token}")
    _wait_open(page, rel, lang)
    return rel


def _wait_open(page, rel: str, lang: str) -> None:
    """Wait until ``rel`` is the current tab with an idle kernel; its menus in ``lang``."""
    ready = page.wait_for_function(JS_NOTEBOOK_READY, arg=rel, timeout=90_000).json_value()
    if ready is not True:
        pytest.fail(f"JupyterLab did not open {rel}: a {ready}", pytrace=False)
    if lang != "en":
        menus = page.locator(".lm-MenuBar-content").first.inner_text()
        assert _pack_word(lang, "Edit") in menus, f"JupyterLab's menus are not in {lang}: {menus}"


# One page per language is kept open from lesson to lesson: loading JupyterLab itself (about 3 s
# of Chromium's time) is then paid once, not per lesson. Each lesson opens in it as a learner
# opens a file (the "open" command), runs, and its tab is closed unsaved; a failure closes the
# page, so the next lesson starts in a new one.
_SHARED_PAGES: dict = {}  # lang -> (browser, page)
JS_OPEN = "path => window.jupyterapp.commands.execute('docmanager:open', {path})"
# Close every tab of the main area without saving (Run All made the notebook dirty).
JS_CLOSE_ALL = """() => {
  for (const widget of [...window.jupyterapp.shell.widgets('main')]) {
    if (widget.context) widget.context.model.dirty = false;
    widget.dispose();
  }
}"""


def _drop_shared_page(lang: str) -> None:
    _, page = _SHARED_PAGES.pop(lang, (None, None))
    if page is not None and not page.is_closed():
        page.close()


def _open_shared(browser, lab, notebook: Path):
    """(page, path): ``notebook`` opened in the page kept for its language."""
    rel = notebook.relative_to(ROOT).as_posix()
    lang = _lang_of(notebook)
    owner, page = _SHARED_PAGES.get(lang, (None, None))
    if owner is browser and page is not None and not page.is_closed():
        page.evaluate(JS_OPEN, rel)
        _wait_open(page, rel, lang)
        return page, rel
    for other in list(_SHARED_PAGES):
        _drop_shared_page(other)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _SHARED_PAGES[lang] = (browser, page)
    _open(page, lab, notebook)
    return page, rel


@pytest.mark.parametrize("notebook", LESSONS, ids=lambda p: p.stem)
def test_lesson_runs_in_jupyterlab(notebook, lab, browser):
    check_lesson_in_jupyterlab(notebook, lab, browser)


def check_lesson_in_jupyterlab(notebook: Path, lab, browser) -> None:
    """Open ``notebook`` (menus in its language), Run All, check what is on the page, move the
    main slider (also used by ``test_browser_languages.py`` for the translated lessons)."""
    from playwright.sync_api import expect

    assert notebook.exists(), f"{notebook.relative_to(ROOT)} is missing (tools/translations.py)"
    (ARTIFACTS / f"{_shot_name(notebook)}-FAILED.png").unlink(missing_ok=True)
    step = "opening the notebook"
    rel = notebook.relative_to(ROOT).as_posix()
    page = None
    failed = True
    try:
        page, rel = _open_shared(browser, lab, notebook)
        # Close the file browser: more room for the lesson in the screenshots.
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")

        step = "Run All Cells"
        page.evaluate(JS_RUN_ALL)
        page.wait_for_function(JS_RUN_FINISHED, timeout=RUN_ALL_TIMEOUT * 1000, polling=250)
        cells = page.evaluate(JS_CELLS)
        problems = _problems_in_outputs(cells)
        assert not problems, "\n".join(problems)

        step = "checking what is on the page"
        notebook_node = _current_notebook(page)
        expect(notebook_node.locator(".jp-InputArea-prompt", has_text="*")).to_have_count(0)
        for text in ("Error displaying widget", "Error rendering output"):
            expect(notebook_node.get_by_text(text)).to_have_count(0)
        widgets = notebook_node.locator(".jupyter-widgets")
        expect(widgets.first).to_be_visible()
        # Graphviz drawings: inline SVG (widgets) or SVG outputs (shown as <img>).
        graphs = notebook_node.locator(
            "svg g.graph, .jp-RenderedSVG img[src*='class%3D%22graph%22']")
        assert graphs.count() > 0, "no graph drawing (Graphviz SVG) on the page"
        for i in range(graphs.count()):
            graph = graphs.nth(i)
            graph.scroll_into_view_if_needed()
            expect(graph).to_be_visible()
            if graph.evaluate("e => e.tagName") == "IMG":
                assert graph.evaluate("e => e.complete && e.naturalWidth > 0"), \
                    f"graph picture {i} did not load"

        step = "moving the main slider"
        slider = notebook_node.locator(".widget-slider").first
        expect(slider).to_be_visible()
        handle = slider.locator(".noUi-handle").first
        handle.scroll_into_view_if_needed()
        before_view, before_value = page.evaluate(JS_DRIVEN_VIEW), page.evaluate(
            JS_SLIDER_READOUT)
        handle.focus()
        for _ in range(3):
            handle.press("ArrowRight")
        if page.evaluate(JS_SLIDER_READOUT) == before_value:  # it was at its maximum
            for _ in range(3):
                handle.press("ArrowLeft")
        after_value = page.evaluate(JS_SLIDER_READOUT)
        assert after_value != before_value, f"the slider did not move ({before_value})"
        try:
            page.wait_for_function(f"() => ({JS_DRIVEN_VIEW})() !== {json.dumps(before_view)}",
                                   timeout=SLIDER_TIMEOUT * 1000, polling=250)
        except Exception as error:  # playwright's TimeoutError
            raise AssertionError(
                f"moving the main slider from {before_value} to {after_value} did not change "
                "the graph or plot it drives") from error
        page.wait_for_function(JS_IDLE, timeout=SLIDER_TIMEOUT * 1000, polling=250)
        # The screenshot a reader looks at: the main widget after the move.
        slider.evaluate("e => e.closest('.jp-Cell').scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        path = _screenshot(page, _shot_name(notebook))
        print(f"screenshot after Run All: {path.relative_to(ROOT)}")
        page.evaluate(JS_CLOSE_ALL)
        failed = False
    except BaseException as error:
        try:
            if page is None:
                raise RuntimeError("no page") from None
            path = _screenshot(page, f"{_shot_name(notebook)}-FAILED")
            note = f"screenshot of the failure ({step}): {path.relative_to(ROOT)}"
        except Exception as shot_error:  # noqa: BLE001 - report the original failure
            note = f"(no screenshot: {shot_error})"
        print(note)
        error.add_note(note)
        raise
    finally:
        if failed:
            _drop_shared_page(_lang_of(notebook))
        lab.shut_down_sessions(rel)


