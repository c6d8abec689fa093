"""Peak memory of the dashboard's server under the largest uploads: a measurement, not a test.

    .venv/bin/python -m tests.e2e.measure_memory

Two fresh servers, each a real `streamlit run` driven by Chromium as the browser tests do:

1. accepted: the largest upload the limits accept (mteval_core.settings.limits: MAX_UPLOAD_SEGMENTS
   segments, one reference and as many systems as MAX_UPLOAD_TEXTS allows; distinct sentences
   built from a 5,000-word vocabulary) is loaded on the Data page, then every page is opened;
2. refused: a 200,000-segment upload (two files of about 17 MB) is refused on the Data page.

``--segments 100000 --systems 1`` gives the upload that the first limits (100,000 segments)
accepted. The servers inherit the environment, so ``MALLOC_MMAP_THRESHOLD_=131072`` in front of
the command shows what glibc's fixed mmap threshold (large arrays given back when freed) does.

After each step the server's peak resident memory (VmHWM of /proc/PID/status, the most it has
held at once since it started) is printed and written to artifacts/e2e/memory.json; after each
page also what it holds then (VmRSS), the sessions' data and the cached results.
"""

from __future__ import annotations

import argparse
import shutil
import time

import numpy as np
from playwright.sync_api import sync_playwright

from mteval_core.settings.limits import MAX_UPLOAD_SEGMENTS, MAX_UPLOAD_TEXTS
from tests.e2e.harness import (
    ARTIFACTS,
    CHROMIUM_ARGS,
    PAGES,
    assert_no_error,
    go_to,
    new_page,
    open_page,
    payload,
    peak_rss_mb,
    record,
    start_server,
    upload,
    wait_until_idle,
)

EVERY_PAGE = ["Home", "Scores", "Correlation", "Bitext grid", "Loss", "Data"]


def sentences(n: int, seed: int, words_per_line: int = 14) -> list[str]:
    """``n`` distinct sentences of a 5,000-word vocabulary (each ends with its number)."""
    rng = np.random.default_rng(seed)
    vocabulary = np.array([f"w{k:04d}" for k in range(5000)])
    picks = vocabulary[rng.integers(0, len(vocabulary), (n, words_per_line))]
    return [" ".join(row) + f" {k} ." for k, row in enumerate(picks.tolist())]


def system_of(reference: list[str], seed: int) -> list[str]:
    """A system output: each sentence with about a third of its words replaced."""
    rng = np.random.default_rng(seed)
    out = []
    for line in reference:
        words = line.split()
        for k in rng.integers(0, len(words), len(words) // 3):
            words[k] = f"v{rng.integers(0, 5000):04d}"
        out.append(" ".join(words))
    return out


def text(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def accepted(browser, segments: int, systems: int, results: dict) -> None:
    reference = sentences(segments, 1)
    files = {
        "references": [payload("big-ref.txt", text(reference))],
        "systems": [
            payload(f"big-sys{k}.txt", text(system_of(reference, 2 + k))) for k in range(systems)
        ],
    }
    sizes = sum(len(f["buffer"]) for group in files.values() for f in group)
    server = start_server(ARTIFACTS / "memory-accepted-server.log")
    page = new_page(browser)
    page.set_default_timeout(30 * 60_000)
    try:
        step = f"accepted {segments:,} segments x {systems} systems ({sizes / 2**20:.1f} MB)"
        results[f"{step}: server started"] = peak_rss_mb(server.pid)
        open_page(page, server.url, "Data", "Use this test set")
        start = time.perf_counter()
        upload(page, files)
        page.wait_for_selector("text=Loaded.")
        wait_until_idle(page)
        results[f"{step}: loaded"] = peak_rss_mb(server.pid)
        for link in EVERY_PAGE:
            go_to(page, link)
            if link == "Scores":
                page.wait_for_selector("text=Download CSV")
            wait_until_idle(page)
            assert_no_error(page)
            results[f"{step}: {link} page"] = peak_rss_mb(server.pid)
            results[f"{step}: {link} page, resident now"] = peak_rss_mb(server.pid, "VmRSS")
            print(f"{link}: {time.perf_counter() - start:.0f} s", flush=True)
    finally:
        page.close()
        server.stop()


def refused(browser, segments: int, results: dict) -> None:
    lines = sentences(segments, 3, words_per_line=13)
    files = {
        "references": [payload("huge-ref.txt", text(lines))],
        "systems": [payload("huge-sys.txt", text(lines))],
    }
    size = len(files["references"][0]["buffer"])
    server = start_server(ARTIFACTS / "memory-refused-server.log")
    page = new_page(browser)
    try:
        step = f"refused {segments:,} segments ({size / 2**20:.1f} MB per file, 2 files)"
        open_page(page, server.url, "Data", PAGES["Data"])
        upload(page, files)
        page.wait_for_selector("text=the dashboard takes test sets of up to")
        wait_until_idle(page)
        results[step] = peak_rss_mb(server.pid)
    finally:
        page.close()
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--segments", type=int, default=MAX_UPLOAD_SEGMENTS)
    parser.add_argument("--systems", type=int, help="default: as many as the limits accept")
    parser.add_argument("--refused-segments", type=int, default=200_000)
    arguments = parser.parse_args()
    results: dict[str, float] = {}
    with sync_playwright() as playwright:
        chromium = shutil.which("chromium")
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            refused(browser, arguments.refused_segments, results)
            systems = arguments.systems or MAX_UPLOAD_TEXTS // arguments.segments - 1
            accepted(browser, arguments.segments, systems, results)
        finally:
            browser.close()
            results = {step: round(mb, 1) for step, mb in results.items()}
            record("memory", {"peak RSS of the server (MB, VmHWM)": results})
            for step, mb in results.items():
                print(f"{mb:8.1f} MB  {step}")


if __name__ == "__main__":
    main()
