"""The Data page's file chips show each file's whole name, in Chromium: Streamlit cuts a name to
20 characters in the middle (WMT's ``newstest2021.en-de.hyp.Facebook-AI.de`` showed as
``newstes...book-AI.de``), and the part that tells system files apart was lost.

Skips where Chromium, Playwright or ../shared/data's WMT21 en-de folder is missing.
"""

from __future__ import annotations

import shutil

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
if shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.e2e.harness import new_page, open_page, payload, shot, upload  # noqa: E402
from tests.helpers import shared_dataset  # noqa: E402


def test_every_chip_shows_its_files_whole_name(browser, server):
    """Six of WMT21 en-de's system files under the names WMT's repository gives them."""
    outputs = sorted((shared_dataset("wmt21-newstest2021-ende") / "sys").iterdir())[:6]
    names = [f"newstest2021.en-de.hyp.{path.name}" for path in outputs]
    page = new_page(browser)
    try:
        open_page(page, server.url, "Data", "Use this test set")
        upload(
            page, {"systems": [payload(n, p.read_bytes()) for n, p in zip(names, outputs)]}, False
        )
        chips = page.locator("[data-testid=stFileChipName]")
        shown = chips.evaluate_all(
            "chips => chips.map(chip => [chip.title, getComputedStyle(chip, '::after').content,"
            " chip.innerText, chip.scrollWidth <= chip.clientWidth])"
        )
        assert [title for title, *_ in shown] == names
        for title, drawn, cut, fits in shown:
            assert drawn == f'"{title}"' and fits, (title, drawn, fits)  # whole, and not clipped
            assert "..." in cut  # Streamlit's own text, which the style hides
        widths = chips.evaluate_all(
            "chips => chips.map(chip => chip.getBoundingClientRect().width)"
        )
        assert min(widths) > 150  # "newstes...book-AI.de" took about 124 pixels
        shot(page, "data-upload-chips")
    finally:
        page.close()
