"""Real WMT21 news sets uploaded through the Data page's file inputs, in Chromium, as a user
does: English-German (20 systems, three references, expert MQM of segments) and Chinese-English
(23 systems, WMT's crowd DA of systems only). Checks what the pages say about such sets: Home
names the set, Scores shows significance clusters for more than 15 systems, the Loss page names
the data it shows, and the Correlation page with system-level judgments resamples systems and
says the segment views need segment-level judgments.

Skips where Chromium, Playwright or ../shared/data's WMT21 folders are missing. One server (the
conftest's) for the module; each language pair has its own session (browser page), uploaded once.
Screenshots and timings go to artifacts/e2e/ (timings are reported, never asserted).
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
if shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from mteval_core.loss.sources import LossSources, describe_sources  # noqa: E402
from tests.e2e.harness import (  # noqa: E402  (after the skips)
    assert_no_error,
    figure,
    go_to,
    new_page,
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
ZHEN = "wmt21-newstest2021-zhen"
TIMINGS = "wmt_uploads-timings"


def files(paths) -> list[dict]:
    """The files as the browser sends them: their own names and bytes."""
    return [payload(path.name, path.read_bytes()) for path in sorted(paths)]


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def flat(text: str) -> str:
    """Text as read on screen: word joiners out, runs of white space as one space."""
    return " ".join(text.replace("\u2060", "").split())


def screen_text(page) -> str:
    """The main area's text as laid out (a line break between blocks), on one line."""
    return flat(page.inner_text("[data-testid=stMain]"))


def load(page, url: str, uploads: dict[str, list[dict]], name: str) -> float:
    """Upload ``uploads`` on the Data page of ``page``'s session; seconds from the button to
    "Loaded."."""
    open_page(page, url, "Data", "Use this test set")
    upload(page, uploads, submit=False)
    start = time.perf_counter()
    press_and_wait(page, url, "Use this test set", "Loaded.")
    wait_until_idle(page)
    seconds = round(time.perf_counter() - start, 2)
    record(TIMINGS, {f"{name}: upload to 'Loaded.' (s)": seconds})
    return seconds


# ----------------------------------------------------------------- WMT21 news en-de (MQM)
@pytest.fixture(scope="module")
def ende():
    return shared_dataset(ENDE)


@pytest.fixture(scope="module")
def ende_page(ende, browser, server):
    """A session with the whole en-de set uploaded: the three references, the 20 systems, the
    source and the segment-level MQM scores as human judgments (this folder has no per-error
    annotations for the MQM input: its public file holds each segment's average only)."""
    page = new_page(browser)
    load(
        page,
        server.url,
        {
            "references": files((ende / "ref").iterdir()),
            "systems": files((ende / "sys").iterdir()),
            "source": files([ende / "src.en"]),
            "human": files([ende / "human" / "mqm_seg.tsv"]),
        },
        "en-de",
    )
    yield page
    page.close()


def test_ende_upload_is_named_on_home(ende_page, ende):
    page = ende_page
    assert_no_error(page)  # the Data page after the upload
    text = screen_text(page)
    # MQM rows of references B and of metricsystem1-5, which have no text here, are set aside
    assert re.search(r"mqm_seg\.tsv: [\d,]+ rows for 6 systems without text", text), text
    assert "ref-B" in text and "metricsystem1" in text
    shot(page, "wmt21-ende-data")

    start = time.perf_counter()
    go_to(page, "Home")
    page.wait_for_selector("text=English → German")
    record(TIMINGS, {"en-de: Home with scores (s)": round(time.perf_counter() - start, 2)})
    text = screen_text(page)
    systems = sorted(p.stem for p in (ende / "sys").iterdir())
    segments = lines_of(ende / "src.en")
    assert "Current test set: uploaded test set" in text
    assert f"Languages English → German Segments {segments:,} " in text
    assert "References ref-A, ref-C, ref-D" in text
    assert f"Systems {len(systems)}: {', '.join(systems[:5])} and {len(systems) - 5} more" in text
    judged = (
        r"MQM: 11 systems \(8 outputs and the references ref-A, ref-C, ref-D, which correlations"
    )
    assert re.search(rf"Human judgments {judged} leave out\), 527 segments rated", text), text
    assert "Scores at a glance" in text
    assert_no_error(page)
    shot(page, "wmt21-ende-home")
    # every one of the 20 systems in view, without scrolling the table (Streamlit's default
    # showed 10 of 15)
    scroller = page.locator("[data-testid=stDataFrame]").first.locator(".dvn-scroller")
    room = scroller.evaluate("node => [node.scrollHeight, node.clientHeight]")
    assert room[0] <= room[1] and room[1] >= (len(systems) + 1) * 35, room


def test_ende_scores_show_significance_clusters(ende_page, ende):
    """More than 15 systems: the clusters, not the heat map, first; the page opens with the
    resamples a pair needs (issue #26), and the systems fall into several clusters."""
    page = ende_page
    start = time.perf_counter()
    go_to(page, "Scores")
    n_systems = len(list((ende / "sys").iterdir()))
    n_pairs = n_systems * (n_systems - 1) // 2
    page.wait_for_selector("text=Significant differences")
    caption = screen_text(page)
    needed = re.search(r"A pair can reach p < 0\.05 from ([\d,]+) resamples on", caption)
    assert needed, caption
    needed = int(needed[1].replace(",", ""))
    assert f"this metric's {n_pairs} system pairs" in caption
    slider = page.get_by_role("slider", name="Bootstrap resamples")
    chosen = int(slider.get_attribute("aria-valuetext").replace(",", ""))
    assert chosen >= needed  # the first choice that suffices, not 1,000
    page.wait_for_selector(f"text=with {chosen:,}, the smallest p is")
    wait_until_idle(page)  # no element of the run before is left
    clusters = wait_for_figure(page, "BLEU: systems in significance clusters")
    record(
        TIMINGS,
        {f"en-de: Scores at {chosen:,} resamples (s)": round(time.perf_counter() - start, 2)},
    )
    text = screen_text(page)
    assert "Holm's correction over" not in text  # no warning of too few resamples
    toggle = page.locator("[data-testid=stCheckbox]").filter(has_text="Every pair (heat map)")
    assert not toggle.locator("input").is_checked()  # clusters by default above 15 systems
    assert figure(page, "paired bootstrap significance") is None  # no heat map drawn

    points = clusters["data"][0]
    assert sorted(points["y"]) == sorted(p.stem for p in (ende / "sys").iterdir())
    cluster_of = [row[2] for row in points["customdata"]]
    assert cluster_of == sorted(cluster_of) and cluster_of[0] == 1  # best first, numbered
    assert 1 < len(set(cluster_of)) < n_systems  # several clusters, not one per system either
    dividers = [s for s in clusters["layout"].get("shapes", []) if s.get("type") == "line"]
    assert dividers, clusters["layout"].get("shapes")  # a dashed line between two clusters
    scores = points["x"]
    assert scores == sorted(scores, reverse=True)  # BLEU: higher is better
    assert_no_error(page)
    shot(page, "wmt21-ende-scores-clusters")


def test_ende_loss_page_names_its_data(ende_page, ende):
    """No per-error MQM annotations and no loss table: the top of the page says so, names the
    paper's example it shows instead and what to upload."""
    from pages.ui.loss import MQM_COLUMNS, SAMPLES, TABLE_HINT

    page = ende_page
    go_to(page, "Loss")
    systems = tuple(sorted(p.stem for p in (ende / "sys").iterdir()))
    expected = describe_sources(
        LossSources(
            table=next(iter(SAMPLES.values()))[0],
            table_uploaded=False,
            test_set_systems=systems,
        ),
        table_hint=TABLE_HINT,
        mqm_columns=MQM_COLUMNS,
    )
    assert expected.missing_loss_data
    note = page.locator("[data-testid=stAlert]").filter(has_text="has no loss data")
    assert note.count() == 1
    shown = flat(note.inner_text())
    assert shown == flat(expected.text)
    assert shown.startswith(
        f"Your test set ({len(systems)} systems: {', '.join(systems[:5])} and "
        f"{len(systems) - 5} more) has no loss data, so this page shows the paper's example"
    )
    # at the top: under the title, above the first section
    costs = page.get_by_role("heading", name="Costs")
    assert note.bounding_box()["y"] < costs.bounding_box()["y"]
    title = page.get_by_role("heading", name="Loss-function ranking")
    assert title.bounding_box()["y"] < note.bounding_box()["y"]
    assert "Upload Google-format MQM annotations on the Data page" in screen_text(page)
    assert_no_error(page)
    shot(page, "wmt21-ende-loss")


# ------------------------------------------------------- WMT21 news zh-en (system-level DA)
@pytest.fixture(scope="module")
def zhen():
    return shared_dataset(ZHEN)


def test_zhen_system_level_da_on_correlation(zhen, browser, server):
    """WMT's DA table (one score per system): intervals resample systems, and the segment
    views (a system's segments, segment-level statistics, reliability) give way to one line."""
    page = new_page(browser)
    try:
        load(
            page,
            server.url,
            {
                "references": files((zhen / "ref").iterdir()),
                "systems": files((zhen / "sys").iterdir()),
                "source": files([zhen / "src.zh"]),
                "human": files([zhen / "human" / "da_sys.tsv"]),
            },
            "zh-en",
        )
        assert_no_error(page)
        start = time.perf_counter()
        go_to(page, "Correlation")
        scatter = wait_for_figure(page, "BLEU against DA")
        record(
            TIMINGS,
            {"zh-en: Correlation, system-level DA (s)": round(time.perf_counter() - start, 2)},
        )
        wait_until_idle(page)
        text = screen_text(page)
        assert "Human criterion: DA, the only one judged." in text
        assert (
            "Intervals: 1,000 bootstrap resamples of the systems (95%, percentile), as mteval "
            "correlate draws them: the judgments are system-level only, so there are no "
            "segments to resample."
        ) in text
        line = page.locator("[data-testid=stAlert]").filter(has_text="need segment-level")
        assert line.count() == 1
        assert flat(line.inner_text()) == (
            "The judgments under DA are system-level only: a system's rated segments, the "
            "segment-level statistics and the reliability against test size need segment-level "
            "judgments."
        )
        # the reliability section and the segment-level views are not drawn
        assert "Reliability against test size" not in text
        assert page.get_by_text("Draw the reliability curves").count() == 0
        assert figure(page, "Reliability of") is None
        assert "Segment level" not in text
        assert "Rated segments only" not in text
        assert page.get_by_text("Highlight system", exact=True).count() == 1  # not "Segments of"

        systems = sorted(p.stem for p in (zhen / "sys").iterdir())
        points = scatter["data"][0]
        assert sorted(points["hovertext"]) == systems  # every system with text, one point each
        assert re.search(
            r"Pearson r = 0\.\d{3} \[-?0\.\d{3}, 0\.\d{3}\]", scatter["layout"]["title"]["text"]
        )
        assert_no_error(page)
        shot(page, "wmt21-zhen-correlation-da")
    finally:
        page.close()
