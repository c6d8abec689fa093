"""Issue #26, in Chromium: metric scores with system scores only (``system, score`` rows) added
through the Data page's "Metric scores computed elsewhere" form. The Scores page shows the
metric's scores with its intervals and paired tests undefined and why, not "Something went
wrong"; its downloads (made when clicked) hold it; Home and Correlation work with it loaded.

Skips where Chromium or Playwright is missing. Screenshots go to artifacts/e2e/.
"""

from __future__ import annotations

import csv
import io
import json
import shutil

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
if shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.e2e.harness import (  # noqa: E402  (after the skips)
    assert_no_error,
    go_to,
    main_text,
    new_page,
    open_page,
    payload,
    shot,
    upload,
    wait_until_idle,
)
from tests.helpers import load_sample  # noqa: E402

METRIC = "cometsys"


def system_scores() -> str:
    """One score per system of the sample (the test set every session opens with)."""
    systems = load_sample().test_set.system_names
    return "system,score\n" + "".join(f"{s},{0.3 + k / 10}\n" for k, s in enumerate(systems))


def downloaded(page, button: str, tmp_path) -> str:
    with page.expect_download() as download:
        page.get_by_role("button", name=button).click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    wait_until_idle(page)
    return path.read_text(encoding="utf-8")


def test_a_system_level_metric_uploaded_on_the_data_page_shows_on_scores(browser, server, tmp_path):
    page = new_page(browser)
    try:
        open_page(page, server.url, "Data", "Add this metric")
        form = page.locator("[data-testid=stForm]").filter(has_text="Add this metric")
        upload(page, {"metric_scores": [payload("comet-sys.csv", system_scores())]}, submit=False)
        form.get_by_label("Metric name").fill(METRIC)
        form.get_by_text("higher", exact=True).click()
        form.get_by_role("button", name="Add this metric").click()
        page.wait_for_selector(f"text=Added {METRIC}")
        wait_until_idle(page)

        go_to(page, "Scores")
        assert_no_error(page)
        text = main_text(page)
        assert f"{METRIC}: intervals and paired tests undefined ({METRIC} has system-level " in (
            text
        )
        assert "Significant differences" in text  # BLEU's, as before
        shot(page, "external-metric-scores")

        rows = list(csv.DictReader(io.StringIO(downloaded(page, "Download CSV", tmp_path))))
        assert {row[f"{METRIC} low"] for row in rows} == {""}  # undefined: no number
        assert all(float(row["BLEU low"]) <= float(row["BLEU"]) for row in rows)
        document = json.loads(downloaded(page, "Download JSON", tmp_path))
        assert "system-level scores only" in document["undefined"][METRIC]
        assert "undefined" in downloaded(page, "Download LaTeX", tmp_path)
        assert_no_error(page)

        for link in ("Home", "Correlation"):
            go_to(page, link)
            assert_no_error(page)
            assert METRIC in main_text(page)
    finally:
        page.close()
