"""Fixtures of the browser tests: one Chromium and one real `streamlit run` per test process,
shared by every module of browser tests that process runs.

One server for all of them, as a deployed dashboard serves its users one after another: each
test opens sessions of its own (a new page is a new session), and the server's process-wide
cache then holds what earlier tests computed, as it does for real users. Starting a server and
importing what its pages need costs 10-30 s on two busy cores; per module, that was a sixth
of the test command's time. Under pytest-xdist (scripts/test.sh runs on every core) each worker
has its own, and a module runs whole on one worker, in order (see
``pytest_xdist_make_scheduler`` in tests/conftest.py)."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.e2e.harness import CHROMIUM_ARGS

    with sync_api.sync_playwright() as playwright:
        chromium = shutil.which("chromium")
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def server(browser, worker_id):
    """The dashboard on a free port; its output goes to artifacts/e2e/server-<worker>.log."""
    from tests.e2e.harness import ARTIFACTS, open_home_once, start_server

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    running = start_server(ARTIFACTS / f"server-{worker_id}.log")
    open_home_once(browser, running)
    yield running
    running.stop()
