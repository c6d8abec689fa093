"""The Compare page in Chromium with error spans: an MQM file of two raters (one of them
named with hostile text) uploaded on the Spans page, then Compare in the same session drawing
both raters' spans in each listed translation, each error on its severity's colour, the
hostile name shown as text. A screenshot goes to artifacts/e2e/ and /tmp.

Skips where Chromium or Playwright is missing.
"""

from __future__ import annotations

import shutil

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
if shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.app.test_compare_spans import HOSTILE_RATER, mqm_file  # noqa: E402
from tests.e2e.harness import (  # noqa: E402
    ARTIFACTS,
    assert_no_error,
    go_to,
    new_page,
    open_page,
    payload,
    shot,
    wait_until_idle,
)

DRAWN = "[data-testid=stMain] .sentence-spans"


def drawn_sentences(page) -> list[dict]:
    """Each drawn sentence: its rows' names and the severities and colours of their errors."""
    return page.locator(DRAWN).evaluate_all(
        "blocks => blocks.map(block => [...block.querySelectorAll('tr')].map(row => ({"
        " name: row.querySelector('th').textContent,"
        " errors: [...row.querySelectorAll('.span-error')].map(e =>"
        "   [e.className, getComputedStyle(e).backgroundColor])})))"
    )


def test_two_raters_of_one_segment_drawn_on_compare(browser, server):
    page = new_page(browser)
    try:
        open_page(page, server.url, "Spans", "Error spans")
        uploader = page.locator("[data-testid=stFileUploader] input[type=file]").first
        uploader.set_input_files([payload("mqm.tsv", mqm_file())])
        page.wait_for_selector("[data-testid=stMain] .span-annotation", timeout=120_000)
        wait_until_idle(page)
        go_to(page, "Compare")
        page.get_by_text("error spans", exact=True).click()
        page.wait_for_selector(DRAWN, timeout=120_000)
        wait_until_idle(page)
        assert_no_error(page)
        shown = drawn_sentences(page)
        assert shown
        for rows in shown:
            names = [row["name"] for row in rows]
            annotated = [row for row in rows if "mqm.tsv" in row["name"]]
            assert len(annotated) == 4, names  # two raters of each of the two systems
            assert sum(f"mqm.tsv: {HOSTILE_RATER}" in name for name in names) == 2
            for row in annotated:
                ((_kind, colour),) = row["errors"]
                assert colour != "rgba(0, 0, 0, 0)"
            kinds = {row["errors"][0][0] for row in annotated}
            assert {k.split()[1] for k in kinds} == {"severity-minor", "severity-major"}
        assert page.locator("[data-testid=stMain] .sentence-spans script").count() == 0
        shot(page, "compare-spans")
        shutil.copy(ARTIFACTS / "compare-spans.png", "/tmp/compare-spans.png")
    finally:
        page.close()
