"""The Rankings page in Chromium on a WMT-sized upload: WMT25's automatic scores as the organisers
ship them (automatic_scores.tar.xz: 31 language pairs, 59 systems, 45 MB unpacked) and its
systems metadata, uploaded in the page's own inputs; a pair chosen; its table and its figure of
rank ranges drawn. The times from the upload to the first table and to the chosen pair's are
printed and recorded in artifacts/e2e/rankings.json, never asserted; a screenshot goes to the
test's temporary folder (and to artifacts/e2e/).

Skips where Chromium, Playwright or ../shared/data's wmt-rankings are missing.
"""

from __future__ import annotations

import lzma
import shutil
import time

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
if shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.e2e.harness import (  # noqa: E402  (after the skips)
    ARTIFACTS,
    assert_no_error,
    main_text,
    new_page,
    open_options,
    open_page,
    payload,
    record,
    shot,
    wait_for_figure,
    wait_for_text,
    wait_until_idle,
)
from tests.helpers import shared_dataset  # noqa: E402

READY = "Upload WMT's files"
PAIR = "en-cs_CZ"


@pytest.fixture(scope="module")
def wmt25() -> tuple[bytes, bytes]:
    source = shared_dataset("wmt-rankings") / "wmt25-general-mt" / "data"
    metadata = lzma.decompress((source / "systems_metadata_updated3.json.xz").read_bytes())
    return (source / "automatic_scores.tar.xz").read_bytes(), metadata


def test_the_wmt25_tarball_ranks_every_pair_and_draws_the_chosen_one(
    wmt25, browser, server, tmp_path
):
    tarball, metadata = wmt25
    page = new_page(browser)
    try:
        open_page(page, server.url, "Rankings", READY)
        inputs = page.locator("[data-testid=stFileUploader] input[type=file]")
        page.wait_for_function(
            "() => document.querySelectorAll("
            "'[data-testid=stFileUploader] input[type=file]').length >= 4"
        )
        start = time.perf_counter()
        inputs.nth(0).set_input_files(
            [payload("automatic_scores.tar.xz", tarball, "application/x-xz")]
        )
        inputs.nth(1).set_input_files([payload("meta.json", metadata, "application/json")])
        wait_for_text(page, server.url, "Language pair (31)", timeout_ms=300_000)
        wait_for_figure(page, "rank ranges")  # the first pair's, cs-de_DE
        first_table = time.perf_counter() - start
        box = page.locator("[data-testid=stSelectbox]").filter(has_text="Language pair")
        open_options(page, box).filter(has_text=PAIR).first.click()
        chosen = time.perf_counter()
        drawn = wait_for_figure(page, f"{PAIR}: rank ranges")
        wait_until_idle(page)
        pair_table = time.perf_counter() - chosen
        assert_no_error(page)
        text = main_text(page)
        ticks = drawn["layout"]["yaxis"]["ticktext"]
        assert len(ticks) >= 20 and ticks[0] in text  # the best system, in the table too
        assert "CometKiwi-XL" in text  # a metric's column
        shot(page, "rankings-wmt25")
        picture = tmp_path / "rankings-wmt25.png"
        shutil.copy(ARTIFACTS / "rankings-wmt25.png", picture)
        print(
            f"\nupload to the first table: {first_table:.1f} s; {PAIR} chosen to its figure: "
            f"{pair_table:.1f} s; screenshot {picture}"
        )
        record(
            "rankings",
            {"upload_to_first_table_s": round(first_table, 1), "pair_s": round(pair_table, 1)},
        )
    finally:
        page.close()
