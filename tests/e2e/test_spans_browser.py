"""The Spans page in Chromium: Google's WMT23 zh-en MQM release uploaded on the page, and the
raters of one translation drawn side by side in its text, each error on its severity's colour;
a file with hostile text shows it as text. A screenshot of each goes to artifacts/e2e/.

Skips where Chromium, Playwright or ../shared/data's WMT23 zh-en MQM folder is missing.
"""

from __future__ import annotations

import shutil
import tarfile

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
if shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.e2e.harness import (  # noqa: E402
    assert_no_error,
    new_page,
    open_page,
    payload,
    shot,
    wait_for_text,
    wait_until_idle,
)
from tests.helpers import shared_dataset  # noqa: E402

READY = "Error spans"
DRAWN = "[data-testid=stMain] .span-annotation"


def upload_spans(page, files: list[dict]) -> None:
    page.locator("[data-testid=stFileUploader] input[type=file]").first.set_input_files(files)
    page.wait_for_selector(DRAWN, timeout=120_000)
    wait_until_idle(page)


def drawn_annotations(page) -> list[dict]:
    """Each drawn annotation: its annotator, its errors' severities and colours, its text."""
    return page.locator(DRAWN).evaluate_all(
        "blocks => blocks.map(block => ({"
        " annotator: block.querySelector('.span-annotator bdi').textContent,"
        " errors: [...block.querySelectorAll('.span-error')].map(e =>"
        "   [e.className, getComputedStyle(e).backgroundColor]),"
        " text: block.querySelector('.span-target').textContent}))"
    )


def test_two_raters_of_one_translation_are_drawn_side_by_side(browser, server):
    with tarfile.open(next(shared_dataset("wmt23-zhen-mqm").glob("*.tar.gz"))) as tar:
        member = next(m for m in tar if m.isfile())
        data = tar.extractfile(member).read()
    page = new_page(browser)
    try:
        open_page(page, server.url, "Spans", READY)
        upload_spans(page, [payload(member.name, data)])
        assert_no_error(page)
        shown = drawn_annotations(page)
        assert len(shown) >= 2  # the most annotated segment first: its raters side by side
        assert len({block["annotator"] for block in shown}) == len(shown)
        assert all(block["text"] == shown[0]["text"] for block in shown)  # one translation
        assert sum(len(block["errors"]) for block in shown) >= 2
        colours = {colour for block in shown for _, colour in block["errors"]}
        assert "rgba(0, 0, 0, 0)" not in colours  # every error drawn on a colour
        boxes = page.locator(DRAWN).evaluate_all(
            "blocks => blocks.map(b => b.getBoundingClientRect().left)"
        )
        assert len(set(boxes[:2])) == 2  # side by side, not one under the other
        # the scores come after the drawing, as a table that may be drawn a moment later
        wait_for_text(page, server.url, "characters, micro (WMT25)")
        assert "F1 0.2457" in page.inner_text("[data-testid=stMain]")
        shot(page, "spans-two-raters")
    finally:
        page.close()


HOSTILE = (
    "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\n"
    "S\td\t1\t1\t<b>r1</b>\tsrc\t<script>window.hit=1</script> <v><img src=x onerror=window.hit=2>"
    "</v> 😀 done\tAccuracy/<i>x</i>\tMajor\n"
    "S\td\t1\t1\t[r2](javascript:x)\tsrc\t<script>window.hit=1</script> <img src=x "
    "onerror=window.hit=2> 😀 <v>done</v>\tFluency\tMinor\n"
)


def test_hostile_text_in_spans_is_shown_as_text(browser, server):
    page = new_page(browser)
    try:
        open_page(page, server.url, "Spans", READY)
        upload_spans(page, [payload("hostile.tsv", HOSTILE)])
        assert_no_error(page)
        shown = drawn_annotations(page)
        assert [block["annotator"] for block in shown] == ["<b>r1</b>", "[r2](javascript:x)"]
        target = "<script>window.hit=1</script> <img src=x onerror=window.hit=2> 😀 done"
        assert all(block["text"] == target for block in shown)
        assert page.evaluate("window.hit") is None  # nothing of the text ran
        assert page.locator("[data-testid=stMain] .span-target img").count() == 0
        titles = page.locator(f"{DRAWN} .span-error").evaluate_all("es => es.map(e => e.title)")
        assert titles == ["major: Accuracy/<i>x</i>", "minor: Fluency"]
        shot(page, "spans-hostile")
    finally:
        page.close()
