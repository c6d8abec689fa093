"""What the browser tests share: a real `streamlit run` on a free port of 127.0.0.1, Debian's
Chromium driven by Playwright, and the steps a user takes (open a page, upload files on the Data
page, move to another page within the same session).

A module imports this after its own skips (see tests/e2e/test_browser.py): Chromium and Playwright
may be missing, and then every browser test skips cleanly.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "e2e"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 1200}
TIMEOUT_MS = 120_000
UPLOADS = {  # the Data page's file inputs, in page order
    "references": 0,
    "systems": 1,
    "source": 2,
    "human": 3,
    "segment_ids": 4,
    "mqm": 5,
    "archive": 6,
    "metric_scores": 7,  # below the form: "Add this metric"
}
PAGES = {  # sidebar link name -> text shown once the page has run
    "Home": "Scores at a glance",
    "Data": "Options for every page",
    "Scores": "Download CSV",
    "Correlation": "Correlation with human judgments",
    "Bitext grid": "Search segments",
    "Loss": "Loss-function ranking",
    "Compare": "List the sentences of",
    "Spans": "Error spans",
}


@dataclass
class Server:
    """A dashboard server of this checkout; ``pid`` for its memory, ``url`` for the browser."""

    process: subprocess.Popen
    url: str
    log: Path | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        if self.process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=5):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# `streamlit run`, which writes every thread's stack to its output on SIGUSR1: what a server was
# doing when a test waited for it in vain (``server_report``).
SERVER_WITH_THREAD_DUMPS = (
    "import faulthandler, signal, sys; "
    "faulthandler.register(signal.SIGUSR1, all_threads=True); "
    "from streamlit.web.cli import main; "
    "sys.argv[0] = 'streamlit'; "
    "main()"
)
_SERVERS: dict[str, Server] = {}  # url -> the server this process started there


def server_report(url: str, lines: int = 150) -> str:
    """The last ``lines`` of the output of the server at ``url`` after it has written the
    stacks of its threads: for the message of a test that waited for it in vain."""
    server = _SERVERS.get("/".join(url.split("/", 3)[:3]))  # scheme://host:port
    if server is None or server.log is None or server.process.poll() is not None:
        return "(no report: the server is not one this process started, or it has ended)"
    os.kill(server.pid, signal.SIGUSR1)
    time.sleep(1)
    return "\n".join(server.log.read_text(errors="replace").splitlines()[-lines:])


def start_server(log: Path | None = None, startup_seconds: float = 90) -> Server:
    """`streamlit run app.py` on a free port; its output goes to ``log`` (or nowhere)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable,
        "-c",
        SERVER_WITH_THREAD_DUMPS,
        "run",
        str(ROOT / "app.py"),
        "--server.headless=true",
        # No file watcher: the tests never edit the app, and a watcher over this checkout (its
        # .venv, artifacts, caches) overflowed inotify under load, then reloaded modules while
        # an upload ran ("Loaded." never showed).
        "--server.fileWatcherType=none",
        f"--server.port={port}",
        "--server.address=127.0.0.1",
        "--browser.gatherUsageStats=false",
    ]
    output = log.open("wb") if log else subprocess.DEVNULL
    process = subprocess.Popen(command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
    server = Server(process, f"http://127.0.0.1:{port}", log)
    _SERVERS[server.url] = server
    deadline = time.monotonic() + startup_seconds
    while time.monotonic() < deadline:
        if server.alive():
            return server
        time.sleep(0.5)
    server.stop()
    raise RuntimeError(f"streamlit did not start within {startup_seconds:.0f} s")


def open_home_once(browser, server: Server) -> None:
    """Open a fresh server's home page once, as a user opening the dashboard does.

    Streamlit 1.67 treats an app with a pages/ folder as an old-style multipage app until the
    entry script has called st.navigation once in the server's life: the one session whose very
    first page of a fresh server is, say, /Data sees the entry page named "app" instead of "Home"
    in its sidebar (a known limitation, said in the README). Every later session is right."""
    first = browser.new_page()
    first.goto(server.url)
    first.wait_for_selector("text=Scores at a glance", timeout=120_000)
    first.close()


def peak_rss_mb(pid: int, field: str = "VmHWM") -> float:
    """The process's peak resident memory so far (VmHWM; VmRSS: now), Linux only, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/{pid}/status: not Linux?")


_CONTEXTS: dict[tuple[int, int, int], object] = {}  # (browser, width, height) -> its context


def new_page(browser, viewport: dict | None = None):
    """A page of a new session (a reload or another page is a new session too). The pages of
    a browser share one context, as the tabs of one user do: Streamlit's scripts, loaded and
    compiled once, open the next page a second sooner. Another user is ``new_user``."""
    size = viewport or VIEWPORT
    key = (id(browser), size["width"], size["height"])
    if key not in _CONTEXTS:
        _CONTEXTS[key] = browser.new_context(viewport=size)
    page = _CONTEXTS[key].new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def new_user(browser):
    """A page in a browser context of its own (own cookies, own websocket): another user."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def payload(name: str, data: bytes | str, mime: str = "text/plain") -> dict:
    """A file for set_input_files without touching the disk; any name, as a browser sends it."""
    return {
        "name": name,
        "mimeType": mime,
        "buffer": data.encode() if isinstance(data, str) else data,
    }


def open_page(page, url: str, path: str, ready: str) -> None:
    """A new session on ``path`` (a reload is a new session: uploads are gone)."""
    page.goto(f"{url}/{path}")
    page.wait_for_selector(f"text={ready}")
    wait_until_idle(page)  # a file chosen while the page is still drawn can be lost


def go_to(page, link: str) -> None:
    """Another page within the same session, through the sidebar, as a user does."""
    page.locator("[data-testid=stSidebarNav]").get_by_role("link", name=link, exact=True).click()
    page.wait_for_selector(f"text={PAGES[link]}")
    wait_until_idle(page)


def wait_until_idle(page, settle_ms: int = 300) -> None:
    """Until the page's script has finished (Streamlit marks its app element while it runs)."""
    page.wait_for_timeout(settle_ms)  # a click's rerun may not have started yet
    page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]")


def upload(page, files: dict[str, Sequence[dict | str | Path]], submit: bool = True) -> None:
    """Put ``files`` (input name -> payloads or paths) into the Data page's inputs, wait until
    every one has reached the server, and press "Use this test set" (``submit``).

    A chip shows its file's name at once and a spinner until the file has arrived; a form sent
    before then goes without that file (the server then names a file as missing, and the test
    waits in vain for what it expected)."""
    inputs = page.locator("[data-testid=stFileUploader] input[type=file]")
    # The inputs mount a moment after the page has run (Streamlit loads their code on demand),
    # not always in page order: under load the metric scores' input was once the only one, and
    # the references' files went to it ("Non-multiple file input can only accept single file").
    page.wait_for_function(
        "(count) => document.querySelectorAll("
        "'[data-testid=stFileUploader] input[type=file]').length >= count",
        arg=len(UPLOADS),
    )
    for name, chosen in files.items():
        inputs.nth(UPLOADS[name]).set_input_files(
            [f if isinstance(f, dict) else str(f) for f in chosen]
        )
    for chosen in files.values():
        for file in chosen:  # a chip shows a long name cut short; its title is the whole name
            page.wait_for_function(
                "(name) => [...document.querySelectorAll('[data-testid=stFileChipName]')]"
                ".some(chip => chip.title === name)",
                arg=file["name"] if isinstance(file, dict) else Path(file).name,
            )
    page.wait_for_function("() => !document.querySelector('[data-testid=stFileChipIconSpinner]')")
    if submit:
        page.get_by_role("button", name="Use this test set").click()


def press_and_wait(page, url: str, button: str, shown: str, first_ms: int = 30_000) -> None:
    """Click ``button``, then wait until ``shown`` is shown (see ``wait_for_text``).

    If it is not shown within ``first_ms`` while the page is idle with no error on it, the
    click is taken as lost and the button clicked once more, with a warning in the test report.
    CI once waited in vain for an upload's "Loaded." (cause not found; a lost click is one
    possibility, which the benchmark has also seen as "no rerun started"): a lost click is then
    counted and seen instead of failing the test two minutes later, and anything else fails with
    ``wait_for_text``'s report. A run still under way, or an error shown, is never clicked again."""
    target = page.get_by_role("button", name=button)
    target.click()
    try:
        page.wait_for_selector(f"text={shown}", timeout=first_ms)
        return
    except _playwright_timeout():
        state = page.evaluate(
            "() => { const app = document.querySelector('[data-testid=stApp]');"
            " return [app.dataset.testScriptState, app.dataset.testConnectionState]; }"
        )
        errors = page.locator("[data-testid=stException], [data-testid=stAlertContentError]")
        if state[0] == "notRunning" and errors.count() == 0:
            warnings.warn(
                f"{shown!r} not shown {first_ms / 1000:.0f} s after the click on {button!r}, "
                f"and the page idle (script state, connection state: {state}): clicked again",
                stacklevel=2,
            )
            target.click()
    wait_for_text(page, url, shown)


def wait_for_text(page, url: str, text: str, timeout_ms: int = TIMEOUT_MS) -> None:
    """Until ``text`` is shown; if it never is, fail with what the page shows and what the
    server at ``url`` was doing (the stacks of its threads), instead of Playwright's bare
    timeout."""
    try:
        page.wait_for_selector(f"text={text}", timeout=timeout_ms)
    except _playwright_timeout():
        shown = page.inner_text("body")[:2000]
        raise AssertionError(
            f"{text!r} was not shown within {timeout_ms / 1000:.0f} s.\n"
            f"--- the page shows:\n{shown}\n--- the server:\n{server_report(url)}"
        ) from None


def _playwright_timeout() -> type[Exception]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout


def open_options(page, box):
    """The options of select box ``box``, its list opened by a click. A rerun that ends just
    then (a chart's selection reruns the page) can close the list again: then click again."""
    options = page.locator("[role=option]")
    for _ in range(3):
        wait_until_idle(page)
        box.locator("input").click()
        try:
            options.first.wait_for(timeout=10_000)
            return options
        except _playwright_timeout():  # the list closed before it was drawn
            page.keyboard.press("Escape")
    options.first.wait_for()  # a list that never opens fails here, with Playwright's message
    return options


def clear_uploads(page) -> None:
    """Remove every file from the Data page's inputs, so the next upload starts afresh."""
    buttons = page.locator("[data-testid=stFileChipDeleteBtn] button")
    while buttons.count():
        before = buttons.count()
        buttons.first.click()
        page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=stFileChipDeleteBtn] button')"
            ".length < n",
            arg=before,
        )


def figure(page, title_part: str) -> dict | None:
    """The data and layout of the Plotly chart whose title holds ``title_part`` (Streamlit's
    theme wraps titles in <b>), None when there is none."""
    return page.evaluate(
        """(part) => {
            const plot = [...document.querySelectorAll('.js-plotly-plot')].find(p =>
                ((p.layout.title || {}).text || '').includes(part));
            return plot ? {data: plot.data, layout: plot.layout} : null;
        }""",
        title_part,
    )


def wait_for_figure(page, title_part: str) -> dict:
    """``figure`` once a chart with that title is drawn."""
    page.wait_for_function(
        """(part) => [...document.querySelectorAll('.js-plotly-plot')].some(p =>
            ((p.layout.title || {}).text || '').includes(part))""",
        arg=title_part,
    )
    return figure(page, title_part)


def assert_no_error(page) -> None:
    """No exception box, no traceback and no "Something went wrong": the page worked."""
    boxes = page.locator("[data-testid=stException]")
    assert boxes.count() == 0, [boxes.nth(k).inner_text() for k in range(boxes.count())]
    assert page.get_by_text("Something went wrong").count() == 0
    assert "Traceback" not in page.inner_text("body")


def main_text(page) -> str:
    """All text of the page's main area: Markdown, the cells of tables (drawn on a canvas, kept
    in the page for screen readers) and the text of figures; the invisible word joiners that
    break autolinks (pages/ui/markdown_escape.py) are taken out.

    A table's cells are there only once its grid has been drawn, which can come a moment after
    the script has finished (the grid's code is loaded when a page first shows one): so first
    wait until every table of the main area holds its cells."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stDataFrame]')]"
        ".every(frame => frame.querySelector('table'))"
    )
    return page.evaluate(
        "() => document.querySelector('[data-testid=stMain]').textContent.replaceAll('\\u2060', '')"
    )


def shot(page, name: str) -> None:
    """The whole page: Streamlit scrolls inside its main block, so the window is made as tall
    as the content for the picture."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or VIEWPORT
    height = page.evaluate(
        "document.querySelector('[data-testid=stMainBlockContainer]').scrollHeight"
    )
    page.set_viewport_size({"width": size["width"], "height": min(height + 150, 8000)})
    page.wait_for_timeout(300)  # let Plotly redraw at the new size
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.set_viewport_size(size)


def record(name: str, values: dict) -> None:
    """Add measurements to artifacts/e2e/<name>.json (reported, never asserted)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.json"
    old = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**old, **values}, indent=2))
