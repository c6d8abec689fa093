"""The Compare page and the report download in Chromium on WMT21 en-de news (20 systems, three
references, uploaded through the Data page as a user does): the page opens on the two best
systems with its charts, an n-gram and a clicked bar list their sentences with the words marked,
a pair can be switched, a cell of the Scores page's heat map opens Compare on its pair (on the
sample, in a second session), and the report downloads and opens offline.

Skips where Chromium, Playwright or ../shared/data's WMT21 en-de folder is missing. One server
(the conftest's) and one session for the module. Screenshots and timings (first view, another
pair) go to artifacts/e2e/; timings are reported, never asserted.
"""

from __future__ import annotations

import shutil
import time

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
if shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.e2e.harness import (  # noqa: E402  (after the skips)
    ARTIFACTS,
    assert_no_error,
    figure,
    go_to,
    new_page,
    open_options,
    open_page,
    payload,
    press_and_wait,
    record,
    shot,
    upload,
    wait_for_figure,
    wait_until_idle,
)
from tests.helpers import shared_dataset  # noqa: E402

ENDE = "wmt21-newstest2021-ende"
TIMINGS = "compare_page-timings"


@pytest.fixture(scope="module")
def ende():
    return shared_dataset(ENDE)


@pytest.fixture(scope="module")
def session(ende, browser, server):
    """One session with the three references, the 20 systems and the source uploaded."""
    page = new_page(browser)
    open_page(page, server.url, "Data", "Use this test set")
    upload(
        page,
        {
            "references": [
                payload(p.name, p.read_bytes()) for p in sorted((ende / "ref").iterdir())
            ],
            "systems": [payload(p.name, p.read_bytes()) for p in sorted((ende / "sys").iterdir())],
            "source": [payload("src.en", (ende / "src.en").read_bytes())],
        },
        submit=False,
    )
    press_and_wait(page, server.url, "Use this test set", "Loaded.")
    wait_until_idle(page)
    go_to(page, "Home")  # the scores of every system, as a user meets them first
    yield page
    page.close()


def selected(page, label: str) -> str:
    box = page.locator("[data-testid=stSelectbox]").filter(
        has=page.locator("[data-testid=stWidgetLabel]").get_by_text(label, exact=True)
    )
    shown = box.locator("input").input_value()  # a searchable box shows its value here
    return (shown or box.locator("[data-baseweb=select]").inner_text()).strip()


def test_compare_opens_on_the_two_best_and_lists_an_ngrams_sentences(session, ende):
    page = session
    start = time.perf_counter()
    go_to(page, "Compare")
    wait_for_figure(page, "Salient n-grams")
    first_view = round(time.perf_counter() - start, 2)
    assert_no_error(page)
    a, b = selected(page, "System a (baseline)"), selected(page, "System b")
    systems = {p.stem for p in (ende / "sys").iterdir()}
    assert a in systems and b in systems and a != b
    text = page.inner_text("[data-testid=stMain]")
    assert "The analyses read the reference “ref-A” alone (one of 3; Scores' BLEU reads" in text
    assert "tokenized with 13a as the scores read it" in text  # Scores' BLEU, by default
    assert page.locator(".js-plotly-plot").count() == 2  # the bucket analyses in one; n-grams
    shot(page, "compare-wmt21-first-view")

    # a click on an n-gram's bar (b's widest: one of b's n-grams) lists that n-gram's sentences
    b_bars = figure(page, "Salient n-grams")["data"][1]
    widest = b_bars["x"].index(max(b_bars["x"]))
    ngram = b_bars["y"][widest]
    plot = page.locator(".js-plotly-plot").filter(has_text="Salient n-grams").first
    plot.locator(".subplot.xy g.trace.bars").nth(1).locator("path").nth(widest).click(force=True)
    wait_until_idle(page)
    assert_no_error(page)
    by_ngram = page.locator("[data-testid=stRadio] label").filter(has_text="an n-gram")
    assert by_ngram.locator("input").is_checked()
    assert selected(page, "n-gram") == f"{ngram}  (more matches in b)"
    assert page.locator(".sentence").count() > 0
    marked = page.locator(".sentence span.improving, .sentence span.worsening")
    assert marked.count() > 0  # words one system gets right and the other misses
    shot(page, "compare-wmt21-ngram-sentences")

    # another system b, from the select box
    box = page.locator("[data-testid=stSelectbox]").filter(
        has=page.locator("[data-testid=stWidgetLabel]").get_by_text("System b", exact=True)
    )
    option = open_options(page, box).nth(2)
    chosen = option.inner_text().strip()
    start = time.perf_counter()
    option.click()
    wait_until_idle(page)
    wait_for_figure(page, "Salient n-grams")
    switch = round(time.perf_counter() - start, 2)
    assert selected(page, "System b") == chosen
    assert_no_error(page)
    record(TIMINGS, {"Compare first view (s)": first_view, "Compare: another b (s)": switch})


def test_a_clicked_bar_lists_its_bucket(session):
    """A bar of the sentence-BLEU chart, clicked: its bucket's sentences are listed."""
    page = session
    page.get_by_text("a bucket", exact=True).click()
    wait_until_idle(page)
    plot = page.locator(".js-plotly-plot").filter(has_text="sentences by sentence BLEU").first
    # the fourth chart (axes x4, y4): its second trace is b's bars
    third = plot.locator("g.x4tick text").nth(2).text_content()
    bars = plot.locator(".subplot.x4y4 g.trace.bars").nth(1).locator("path")
    bars.nth(2).click(force=True)  # b's third bucket, a tall bar
    wait_until_idle(page)
    assert_no_error(page)
    assert selected(page, "Analysis") == "sentences by sentence BLEU"
    assert selected(page, "Bucket") == third
    b_side = page.locator("[data-testid=stRadio] label").filter(has_text="b: ")
    assert b_side.locator("input").is_checked()  # the clicked bar was b's
    assert page.locator(".sentence").count() > 0
    shot(page, "compare-wmt21-clicked-bucket")

    # then a bar of the first chart, word accuracy (axes x, y): a's tallest
    plot = page.locator(".js-plotly-plot").filter(has_text="sentences by sentence BLEU").first
    bars = plot.locator(".subplot.xy g.trace.bars").nth(0).locator("path")
    heights = [bars.nth(k).bounding_box()["height"] for k in range(bars.count())]
    tallest = heights.index(max(heights))
    bars.nth(tallest).click(force=True)
    wait_until_idle(page)
    assert_no_error(page)
    assert selected(page, "Analysis") == "word accuracy by frequency in the reference"
    assert page.locator(".sentence").count() > 0


def test_a_heat_map_cell_opens_its_pair_on_compare(browser, server):
    """On the sample's Scores page (its few systems show the heat map at once), a click in the
    cell of row 2, column 1 opens Compare on that pair: a = the second best, b = the best."""
    page = new_page(browser)
    open_page(page, server.url, "Scores", "Download CSV")
    heat_map = page.locator(".js-plotly-plot").filter(has=page.locator(".heatmaplayer")).first
    heat_map.scroll_into_view_if_needed()
    names = heat_map.evaluate("plot => plot.data[0].y")  # best first, top to bottom
    box = heat_map.locator(".nsewdrag").first.bounding_box()
    n = len(names)
    page.mouse.click(box["x"] + 0.5 * box["width"] / n, box["y"] + 1.5 * box["height"] / n)
    page.wait_for_selector("text=Compare two systems")
    wait_until_idle(page)
    assert_no_error(page)
    chosen = selected(page, "System a (baseline)"), selected(page, "System b")
    assert chosen == (names[1], names[0]), (chosen, names)
    page.close()


def test_the_report_downloads_and_opens_offline(session, browser):
    page = session
    go_to(page, "Home")
    with page.expect_download(timeout=180_000) as download:
        page.get_by_role("button", name="Download the report (HTML)").click()
    path = ARTIFACTS / "mteval-report-wmt21.html"
    download.value.save_as(path)
    html = path.read_text(encoding="utf-8")
    assert "<h2>Significance clusters</h2>" in html and "<h2>Signatures</h2>" in html
    context = browser.new_context(offline=True)
    requests: list[str] = []
    report = context.new_page()
    report.on("request", lambda request: requests.append(request.url))
    report.goto(path.as_uri())
    assert report.locator("h1").inner_text() == "Evaluation of uploaded test set"
    assert report.locator("svg").count() >= 3  # the comparison's charts, inline
    assert requests == [path.as_uri()]  # nothing fetched from elsewhere
    report.screenshot(path=str(ARTIFACTS / "report-wmt21.png"), full_page=True)
    context.close()
