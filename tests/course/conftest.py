"""Fixtures shared by the browser tests (``test_browser.py``, ``test_browser_languages.py``).

One JupyterLab server and one Chromium per test process: defined here, not in a test module,
so that the two modules share them (Playwright's sync API runs once per thread, and a second
server would only cost time). What they do is in ``test_browser.py``.
"""

from __future__ import annotations

import pytest
from test_browser import CHROMIUM_ARGS, Lab, find_chromium


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    server = Lab(tmp_path_factory.mktemp("jupyterlab"))
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser():
    executable = find_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: run ./course test (it installs the test tools).",
                    pytrace=False)
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()
