"""The dashboard in a real browser: Debian's Chromium, driven by Playwright, against a real
`streamlit run` on 127.0.0.1. Skips where Chromium or Playwright is missing (.ci/run installs
both). Screenshots and timings go to artifacts/e2e/; timings are reported, never asserted."""

from __future__ import annotations

import csv
import io
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import shared_dataset

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

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
TIMINGS: dict[str, float] = {}


@pytest.fixture(scope="module")
def server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(ROOT / "app.py"),
        "--server.headless=true",
        f"--server.port={port}",
        "--server.address=127.0.0.1",
        "--browser.gatherUsageStats=false",
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                break
        except OSError:
            time.sleep(0.5)
    else:
        process.kill()
        pytest.fail("streamlit did not start within 90 s")
    yield url
    process.terminate()
    process.wait(timeout=20)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "timings.json").write_text(json.dumps(TIMINGS, indent=2))


@pytest.fixture(scope="module")
def page(server):
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1200})
        page.set_default_timeout(120_000)
        yield page
        browser.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_home_opens_on_the_sample(page, server):
    page.goto(server)
    page.wait_for_selector("text=Current test set: sample_data")
    assert page.get_by_text("neural-large, neural-small, phrase-based, word-by-word").count()
    shot(page, "home")


def test_a_loss_slider_changes_the_ranking_and_the_url(page, server):
    page.goto(f"{server}/Loss")
    page.wait_for_selector("text=Ranking: MT2 > MT3 > MT1")
    c1 = page.get_by_role("slider").nth(0)
    c1.focus()
    for _ in range(8):  # 5 -> 1 in steps of 0.5
        c1.press("ArrowLeft")
    c3 = page.get_by_role("slider").nth(2)
    c3.focus()
    start = time.perf_counter()
    c3.press("ArrowRight")
    c3.press("ArrowRight")  # 1 -> 2: the paper's Table 6 costs (1, 2, 2)
    page.wait_for_selector("text=Ranking: MT2 > MT1 > MT3")
    TIMINGS["slider to updated ranking (s)"] = round(time.perf_counter() - start, 3)
    page.wait_for_function("() => location.search.includes('c3=2')")
    assert "c1=1" in page.url
    shot(page, "loss")


def test_ted_upload_scatter_grid_and_download(page, server, tmp_path):
    folder = shared_dataset("wmt21-ted-mqm-ende")
    page.goto(f"{server}/Data")
    page.wait_for_selector("text=Use this test set")
    uploads = page.locator("input[type=file]")
    uploads.nth(0).set_input_files([str(folder / "ref" / "ref-A.de")])
    uploads.nth(1).set_input_files(sorted(str(p) for p in (folder / "sys").iterdir()))
    uploads.nth(3).set_input_files([str(folder / "human" / "mqm_seg_rater.tsv")])
    uploads.nth(4).set_input_files([str(folder / "segment_ids.tsv")])
    page.wait_for_timeout(1000)  # let the uploads settle
    start = time.perf_counter()
    page.get_by_role("button", name="Use this test set").click()
    page.wait_for_selector("text=Loaded.")
    page.get_by_role("link", name="Correlation").first.click()
    page.wait_for_selector("text=bleu against MQM")
    TIMINGS["upload to scatter, TED en-de, 13 systems, all metrics (s)"] = round(
        time.perf_counter() - start, 2
    )
    points = page.evaluate("document.querySelectorAll('.js-plotly-plot')[0].data[0].x.length")
    assert points == 13
    shot(page, "correlation-ted")

    page.get_by_role("link", name="Bitext grid").first.click()
    page.wait_for_selector(".js-plotly-plot")
    page.wait_for_selector("text=greedy: sum of len^e")
    blocks = page.evaluate(
        "document.querySelector('.js-plotly-plot').layout.shapes"
        ".filter(s => s.type === 'rect').length"
    )
    assert blocks >= 1
    shot(page, "bitext-grid-ted")

    page.get_by_role("link", name="Scores").first.click()
    page.wait_for_selector("text=Download CSV")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    path = tmp_path / "scores.csv"
    download.value.save_as(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert len(rows) == 13 and rows[0]["signature"].startswith("nrefs:1|")
    shot(page, "scores-ted")
