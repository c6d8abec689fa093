"""Benchmark: N users at once on one dashboard server (issue #26, "under load").

Each of N browser contexts (own cookies and websocket, as separate users) opens the Data page and
puts WMT21 news en-de (20 systems x 1,002 segments, 3 references, the source and the MQM segment
scores) into the file inputs; then every session presses "Use this test set" within a moment,
then every session opens Home, then Scores, then Correlation, and then Scores and Correlation
again (every result is cached by then: what each session still does itself). A session's step
runs from its own click until its page shows what the step should and has been idle (script not
running, no spinner or progress bar) for one second.

Printed per step: the median (p50), p95 and slowest session time, the CPU seconds the server
process spent on the step (all sessions: what the step cost the server, whatever the browsers
took of the machine) and the load average. On a 2-core machine the N browsers drawing the pages
take much of the CPU too: compare runs of the same N, and read the server's CPU beside the times.

    .venv/bin/python bench/bench_sessions.py [--sessions 10] [--json PATH]

Skips (exit 0) when ../shared/data is absent; needs Debian's chromium and Playwright.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.harness import (  # noqa: E402  (after the path)
    CHROMIUM_ARGS,
    Server,
    new_user,
    open_home_once,
    open_page,
    payload,
    start_server,
    upload,
)

DATA = ROOT.parent / "shared" / "data" / "wmt21-newstest2021-ende"
STATE = """(ready) => {
  const app = document.querySelector('[data-testid=stApp]');
  const busy = !app || app.getAttribute('data-test-script-state') !== 'notRunning'
    || document.querySelector('[data-testid=stSpinner], [data-testid=stProgress]') !== null;
  return busy ? 'busy' : (document.body.innerText.includes(ready) ? 'ready' : 'idle');
}"""
QUIET_SECONDS = 1.0  # idle this long with the step's text on the page: settled


def files(paths) -> list[dict]:
    return [payload(path.name, path.read_bytes()) for path in sorted(paths)]


def uploads() -> dict[str, list[dict]]:
    return {
        "references": files((DATA / "ref").iterdir()),
        "systems": files((DATA / "sys").iterdir()),
        "source": files([DATA / "src.en"]),
        "human": files([DATA / "human" / "mqm_seg.tsv"]),
    }


def server_cpu_seconds(pid: int) -> float:
    """User and system CPU time the server process has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sidebar(link: str) -> Callable:
    return lambda page: (
        page.locator("[data-testid=stSidebarNav]")
        .get_by_role("link", name=link, exact=True)
        .click()
    )


STEPS = [  # name, what each session does, the text its page shows once the step is done
    (
        "upload",
        lambda page: page.get_by_role("button", name="Use this test set").click(),
        "Loaded.",
    ),
    ("home", sidebar("Home"), "The first segments"),
    ("scores", sidebar("Scores"), "Download CSV"),
    ("correlation", sidebar("Correlation"), "Pearson"),
    ("scores again", sidebar("Scores"), "Download CSV"),
    ("correlation again", sidebar("Correlation"), "Pearson"),
]


def together(pages: list, act: Callable, ready: str) -> list[float]:
    """Every session does ``act`` (one after another, within a moment); each is timed from its
    own click until settled, watching all of them in turn every 0.1 s."""
    starts = []
    for page in pages:
        starts.append(time.perf_counter())
        act(page)
    ends: list[float | None] = [None] * len(pages)
    quiet: list[float | None] = [None] * len(pages)
    while any(end is None for end in ends):
        for k, page in enumerate(pages):
            if ends[k] is not None:
                continue
            now = time.perf_counter()
            if page.evaluate(STATE, ready) != "ready" or now - starts[k] < QUIET_SECONDS:
                quiet[k] = None
            elif quiet[k] is None:
                quiet[k] = now
            elif now - quiet[k] >= QUIET_SECONDS:
                ends[k] = quiet[k]
        time.sleep(0.1)
    return [end - start for end, start in zip(ends, starts)]


def measure(browser, server: Server, n_sessions: int) -> dict[str, dict]:
    pages = [new_user(browser) for _ in range(n_sessions)]
    files_of_the_set = uploads()
    for page in pages:
        page.set_default_timeout(900_000)
        open_page(page, server.url, "Data", "Use this test set")
        upload(page, files_of_the_set, submit=False)
    result = {}
    for name, act, ready in STEPS:
        cpu = server_cpu_seconds(server.pid)
        times = sorted(together(pages, act, ready))
        result[name] = {
            "p50": round(statistics.median(times), 2),
            "p95": round(times[round(0.95 * (len(times) - 1))], 2),
            "slowest": round(times[-1], 2),
            "server_cpu_s": round(server_cpu_seconds(server.pid) - cpu, 1),
            "load": round(os.getloadavg()[0], 2),
        }
        print(f"{name:18} " + "  ".join(f"{k} {v}" for k, v in result[name].items()), flush=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write the numbers here")
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is absent")
        return 0
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = shutil.which("chromium")
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        server = start_server()
        try:
            open_home_once(browser, server)
            print(f"{args.sessions} sessions, WMT21 en-de news; {os.cpu_count()} cores")
            result = measure(browser, server, args.sessions)
        finally:
            server.stop()
            browser.close()
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
