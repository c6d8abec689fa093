"""Fixtures of the browser tests: one Chromium and one real `streamlit run` per test module.

Under pytest-xdist (scripts/test.sh runs on every core) each module runs whole on one worker, in
order, sharing that worker's server as in one process (see ``pytest_xdist_make_scheduler`` in
tests/conftest.py)."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.e2e.harness import CHROMIUM_ARGS

    with sync_api.sync_playwright() as playwright:
        chromium = shutil.which("chromium")
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def server(request, browser):
    """The dashboard on a free port; its output goes to artifacts/e2e/<module>-server.log."""
    from tests.e2e.harness import ARTIFACTS, open_home_once, start_server

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    running = start_server(ARTIFACTS / f"{name}-server.log")
    open_home_once(browser, running)
    yield running
    running.stop()
