"""The dashboard in a real browser: Debian's Chromium, driven by Playwright, against a real
`streamlit run` on 127.0.0.1. Skips where Chromium or Playwright is missing (.ci/run installs
both). Screenshots and timings go to artifacts/e2e/; timings are reported, never asserted.

The tests of a module share one server and one browser page and run in file order: the WMT21
TED tests continue from the upload of the first one, as a user's session would.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import time

import pytest

from mteval_core.gtm.grid import bitext_grid
from mteval_core.io import read_directory
from mteval_core.loss.mqm_loss import GOOGLE_WEIGHTS, system_error_points
from mteval_core.metrics.meteor.segment_view import meteor_segment_view
from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.figures.meteor_grid import summary
from mteval_core.settings.options import Options
from mteval_core.text.tokenizers import tokenize_13a
from tests.e2e.harness import (
    ARTIFACTS,
    UPLOADS,
    assert_no_error,
    main_text,
    new_page,
    open_page,
    press_and_wait,
    shot,
    upload,
    wait_for_figure,
    wait_until_idle,
)
from tests.helpers import SAMPLE_DATA as SAMPLE
from tests.helpers import load_sample, shared_dataset

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

TED = "wmt21-ted-mqm-ende"
TIMINGS: dict[str, float] = {}


@pytest.fixture(scope="module")
def server(server):
    """The shared dashboard's address (tests/e2e/conftest.py); the timings of this module are
    written when it ends."""
    yield server.url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "timings.json").write_text(json.dumps(TIMINGS, indent=2))


@pytest.fixture(scope="module")
def page(browser):
    page = new_page(browser)
    yield page
    page.close()


def move_slider(page, label: str, presses: int) -> None:
    """Keyboard steps on the slider with this label: right for presses > 0, else left."""
    slider = page.get_by_role("slider", name=label)
    slider.focus()
    key = "ArrowRight" if presses > 0 else "ArrowLeft"
    for _ in range(abs(presses)):
        slider.press(key)


def choose(page, label: str, option: str) -> None:
    """Pick an option of a select box as a person does: type, open the list, click."""
    box = page.locator("[data-testid=stSelectbox]").filter(has_text=label).locator("input")
    if box.input_value() == option:
        return
    box.fill(option)
    box.press("ArrowDown")
    page.get_by_role("option", name=option, exact=True).click()


# ------------------------------------------------------------------------- the sample data
def test_home_opens_on_the_sample(page, server):
    open_page(page, server, "", "Current test set: sample_data")
    assert page.get_by_text("neural-large, neural-small, phrase-based, word-by-word").count()
    page.wait_for_selector("text=Scores at a glance")
    assert_no_error(page)
    shot(page, "sample-home")


@pytest.mark.parametrize(
    ("path", "ready", "chart"),
    [
        ("Data", "Options for every page", None),
        ("Scores", "Download CSV", "BLEU: paired bootstrap significance"),
        ("Correlation", "Every metric against the human scores", "Reliability of BLEU"),
        ("Bitext_grid", "Search segments", "neural-large, segment 1"),
        ("Loss", "Ranking: MT2 > MT3 > MT1", "Ranking by cost"),
    ],
)
def test_every_view_works_on_the_sample(page, server, path, ready, chart):
    open_page(page, server, path, ready)
    if chart:
        wait_for_figure(page, chart)
    assert_no_error(page)
    shot(page, f"sample-{path.lower()}")


def test_meteors_alignment_of_a_segment_in_the_bitext_grid(page, server):
    """Segment 20 of neural-large: METEOR's grid beside GTM's, beam then exact, its numbers."""
    pytest.importorskip("pycocoevalcap")
    open_page(page, server, "Bitext_grid?segment=20", "Search segments")
    radio = page.locator("[data-testid=stRadio]")
    radio.filter(has_text="GTM runs").get_by_text("both", exact=True).click()
    meteor = wait_for_figure(page, "neural-large, segment 20: METEOR")
    test_set = load_sample().test_set
    references = [r.segments[19] for r in test_set.references]
    view = meteor_segment_view(test_set.system("neural-large")[19], references, Options())
    chunks = [s for s in meteor["layout"]["shapes"] if s["name"].startswith("chunk")]
    assert len(chunks) == view.beam.chunks
    assert f"<sup>{summary(view.beam)}</sup>" in meteor["layout"]["title"]["text"]
    wait_for_figure(page, "neural-large, segment 20<br>")  # GTM's grid is still there
    page.wait_for_function(  # the table's cells reach the page's text once it is drawn
        "() => document.querySelector('[data-testid=stMain]').textContent.includes('fragmentation')"
    )
    text = main_text(page)
    assert "METEOR keeps ref-B" in text and "Beam and exact differ for this segment" in text
    assert "fragmentation" in text and f"{view.exact.score:.4f}" in text  # beam and exact numbers
    radio.filter(has_text="beam (the jar's)").get_by_text("exact", exact=True).click()
    wait_for_figure(page, f"<sup>{summary(view.exact)}</sup>")
    radio.filter(has_text="all 2").get_by_text("ref-A", exact=True).click()  # beside each other
    page.get_by_text("The GTM grid shows ref-A, which METEOR does not keep").wait_for()
    wait_for_figure(page, "neural-large, segment 20, ref-A only<br>")
    assert_no_error(page)
    shot(page, "sample-bitext-meteor")
    # back to GTM's grid alone: the later tests of this session open the page on TED segments,
    # and must not be kept waiting by METEOR's exact search there
    radio.filter(has_text="beam (the jar's)").get_by_text("beam (the jar's)").click()
    wait_until_idle(page)
    radio.filter(has_text="GTM runs").get_by_text("GTM runs", exact=True).click()
    wait_until_idle(page)


C3 = "c3: cost of an incorrect response"


def test_a_loss_slider_changes_the_ranking_and_the_url(page, server):
    open_page(page, server, "Loss", "Ranking: MT2 > MT3 > MT1")
    move_slider(page, "c1: value of a correct response", -1)  # 5 -> 4.5
    page.wait_for_function("() => location.search.includes('c1=4.5')")
    # a link with costs opens on them: c1 = 1, c3 = 1.5 (eight and one slider steps away)
    open_page(page, server, "Loss?c1=1&c3=1.5", "Ranking: MT2 > MT3 > MT1")
    for label, value in (("c1: value of a correct response", 1), (C3, 1.5)):
        shown = page.get_by_role("slider", name=label).get_attribute("aria-valuetext")
        assert float(shown) == value, label
    start = time.perf_counter()
    move_slider(page, C3, 1)  # 1.5 -> 2: Table 6's (1, 2, 2)
    page.wait_for_selector("text=Ranking: MT2 > MT1 > MT3")
    TIMINGS["loss: one slider step to updated ranking, paper's table (s)"] = round(
        time.perf_counter() - start, 3
    )
    page.wait_for_function("() => location.search.includes('c3=2')")
    shot(page, "sample-loss-table6")
    page.goto(page.url)  # the URL carries the costs: a shared link shows the same ranking
    page.wait_for_selector("text=Ranking: MT2 > MT1 > MT3")


def test_a_bad_upload_is_named_and_the_loaded_set_stays(page, server, tmp_path):
    reference = tmp_path / "ref.en"
    reference.write_text("one line\ntwo lines\nthree lines\n", encoding="utf-8")
    short = tmp_path / "short-system.en"
    short.write_text("one line\n", encoding="utf-8")
    huge = tmp_path / "huge-system.en"
    huge.write_bytes(b"x\n" * (26 * 2**20))  # 52 MB: over the 50 MB limit
    open_page(page, server, "Data", "Use this test set")
    upload(page, {"references": [reference], "systems": [short]})
    page.wait_for_selector("text=short-system.en, line 2")  # which file, which line
    page.wait_for_selector("text=What to do")
    assert page.get_by_text("Current test set: sample_data").count() == 1  # nothing lost
    shot(page, "sample-data-bad-upload")
    wait_until_idle(page)
    page.locator("input[type=file]").nth(UPLOADS["systems"]).set_input_files([str(huge)])
    page.wait_for_selector("text=/must be 50(\\.0)? ?MB or smaller/i")  # refused in the browser
    assert_no_error(page)


def sgml(kind: str, sysid: str, segments: list[str]) -> str:
    """A NIST mteval SGML set with one document."""
    lines = "".join(f'<seg id="{n}">{text}</seg>\n' for n, text in enumerate(segments, 1))
    return (
        f'<{kind} setid="sample" srclang="de" trglang="en">\n'
        f'<doc docid="all" sysid="{sysid}">\n{lines}</doc>\n</{kind}>\n'
    )


def test_sgml_and_json_lines_uploads_are_read(page, server, tmp_path):
    """Formats are recognised by content: a refset in SGML, one system in an SGML tstset and
    two in a JSON Lines long-format file."""
    text = {
        path.stem: path.read_text(encoding="utf-8").splitlines()
        for path in [*(SAMPLE / "ref").iterdir(), *(SAMPLE / "sys").iterdir()]
    }
    references = tmp_path / "refs.sgm"
    references.write_text(
        sgml("refset", "ref-A", text["ref-A"]).replace("</refset>\n", "")
        + sgml("refset", "ref-B", text["ref-B"]).split("\n", 1)[1],
        encoding="utf-8",
    )
    tested = tmp_path / "neural-large.sgm"
    tested.write_text(sgml("tstset", "neural-large", text["neural-large"]), encoding="utf-8")
    long_format = tmp_path / "others.jsonl"
    long_format.write_text(
        "".join(
            json.dumps({"system": name, "segment": n, "hypothesis": line}) + "\n"
            for name in ("phrase-based", "word-by-word")
            for n, line in enumerate(text[name], 1)
        ),
        encoding="utf-8",
    )
    open_page(page, server, "Data", "Use this test set")
    upload(page, {"references": [references], "systems": [tested, long_format]}, submit=False)
    press_and_wait(page, server, "Use this test set", "Loaded.")
    page.wait_for_selector("text=neural-large, phrase-based, word-by-word")
    assert page.get_by_text("ref-A, ref-B").count() == 1
    page.get_by_role("link", name="Scores").first.click()
    page.wait_for_selector("text=Download CSV")
    bleu = score_test_set(load_sample().test_set, ["bleu"], Options()).corpus()["neural-large"]
    # the grid draws on a canvas; its accessible cells hold the full numbers
    page.wait_for_selector(f"text={bleu['bleu']!r}", state="attached")  # same text, same BLEU
    assert_no_error(page)
    shot(page, "sample-formats-scores")


def test_judgments_as_wmt_ships_them_and_an_external_metric(page, server, tmp_path):
    """Issue #11 through the file inputs: judgments with rows for a system without text (set
    aside with a note), then metric scores from a file, shown on Correlation at both levels."""
    human = tmp_path / "judgments.tsv"
    rows = (SAMPLE / "human" / "judgments.tsv").read_text(encoding="utf-8").splitlines()
    extra = [f"ref-B\t{n}\tadequacy\tjudge1\t9" for n in (1, 2)]  # a reference rated as a system
    human.write_text("\n".join([*rows, *extra]) + "\n")
    names = sorted(p.name.rsplit(".", 1)[0] for p in (SAMPLE / "sys").iterdir())
    comet = tmp_path / "comet.tsv"
    comet.write_text(
        "system\tsegment_id\tscore\n"
        + "".join(f"{s}\t{n}\t{k + n / 100}\n" for k, s in enumerate(names) for n in range(1, 41))
    )
    open_page(page, server, "Data", "Use this test set")
    upload(
        page,
        {
            "references": sorted((SAMPLE / "ref").iterdir()),
            "systems": sorted((SAMPLE / "sys").iterdir()),
            "human": [human],
        },
        submit=False,
    )
    press_and_wait(page, server, "Use this test set", "Loaded.")
    page.wait_for_selector("text=ref-B")  # the note names the rows set aside
    wait_until_idle(page)  # a file chosen while the page is still drawn can be lost
    upload(page, {"metric_scores": [comet]}, submit=False)
    page.get_by_label("Metric name").fill("comet")
    page.get_by_text("higher", exact=True).click()
    page.get_by_role("button", name="Add this metric").click()
    page.wait_for_selector("text=Added comet")
    page.get_by_role("link", name="Correlation").first.click()
    page.wait_for_selector("text=Segment level")
    choose(page, "Metric for the density", "comet")
    density = wait_for_figure(page, "comet against")
    assert sum(map(sum, density["data"][0]["customdata"])) == 4 * 40
    ranking = wait_for_figure(page, "Metrics by acc_eq")
    assert "comet" in ranking["data"][0]["y"]
    assert_no_error(page)
    shot(page, "external-metric-correlation")


# --------------------------------------------------------------- WMT21 TED en-de, uploaded
@pytest.fixture(scope="module")
def ted_folder_and_set():
    """The TED folder and its test set as the core reads it (the oracle for what the pages
    show)."""
    folder = shared_dataset(TED)
    return folder, read_directory(folder).test_set


def test_ted_upload_gives_a_scatter_with_13_points(page, server, ted_folder_and_set):
    folder, test_set = ted_folder_and_set
    open_page(page, server, "Data", "Use this test set")
    upload(
        page,
        {
            "references": [folder / "ref" / "ref-A.de"],
            "systems": sorted((folder / "sys").iterdir()),
            "human": [folder / "human" / "mqm_seg_rater.tsv"],
            "segment_ids": [folder / "segment_ids.tsv"],
            "mqm": [folder / "human" / "original" / "mqm_ted_ende.tsv"],
        },
        submit=False,
    )
    start = time.perf_counter()
    press_and_wait(page, server, "Use this test set", "Loaded.")
    page.get_by_role("link", name="Correlation").first.click()
    scatter = wait_for_figure(page, "BLEU against MQM")
    TIMINGS["upload to scatter, TED en-de, 13 systems x 529 segments, 7 metrics (s)"] = round(
        time.perf_counter() - start, 2
    )
    assert len(scatter["data"][0]["x"]) == 13
    assert sorted(scatter["data"][0]["text"]) == sorted(test_set.system_names)
    assert re.search(r"Pearson r = 0\.620 \[0\.\d+, 0\.\d+\]", scatter["layout"]["title"]["text"])
    wait_for_figure(page, "Reliability of BLEU")
    assert_no_error(page)
    shot(page, "ted-correlation")


def test_ted_a_system_leads_to_its_bitext_grid(page, server, ted_folder_and_set):
    _, test_set = ted_folder_and_set
    system = "Online-W"
    choose(page, "Segments of", system)  # the Correlation page's system chooser
    page.get_by_role("link", name=f"Open {system}'s segments in the bitext grid").click()
    page.wait_for_function(f"() => location.search.includes('system={system}')")
    wait_for_figure(page, f"{system}, segment 1")
    # a segment of about 60 tokens, as the timing asks
    lengths = [len(tokenize_13a(s)) for s in test_set.system(system)]
    segment = min(range(len(lengths)), key=lambda k: abs(lengths[k] - 60)) + 1
    number = page.get_by_label("Segment", exact=True)
    number.fill(str(segment))
    start = time.perf_counter()
    number.press("Enter")
    grid = wait_for_figure(page, f"{system}, segment {segment}")
    TIMINGS[f"bitext grid of a {lengths[segment - 1]}-token segment (s)"] = round(
        time.perf_counter() - start, 3
    )
    expected = bitext_grid(test_set, system, segment, Options(), exact=True)
    blocks = [s for s in grid["layout"]["shapes"] if s["type"] == "rect"]
    assert len(blocks) == len(expected.greedy.blocks) >= 1
    assert f"F {expected.greedy.f:.3f}" in grid["layout"]["title"]["text"]
    assert_no_error(page)
    shot(page, "ted-bitext-grid")


def test_ted_scores_heat_map_and_csv_download(page, server, ted_folder_and_set, tmp_path):
    _, test_set = ted_folder_and_set
    page.get_by_role("link", name="Scores").first.click()
    heat_map = wait_for_figure(page, "BLEU: paired bootstrap significance")
    assert len(heat_map["data"][0]["z"]) == 13
    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    path = tmp_path / "scores.csv"
    download.value.save_as(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert sorted(row["system"] for row in rows) == sorted(test_set.system_names)
    assert rows[0]["signature"].startswith("nrefs:1|") and "BLEU low" in rows[0]
    assert_no_error(page)
    shot(page, "ted-scores")


def test_ted_mqm_weights_rank_the_systems(page, server):
    from mteval_core.io.mqm_tsv import read_mqm

    annotations_path = shared_dataset(TED) / "human" / "original" / "mqm_ted_ende.tsv"
    annotations = read_mqm(annotations_path.read_bytes(), annotations_path.name)

    def ranking_under(weights: dict[str, float]) -> str:
        points = system_error_points(annotations, weights)
        return " > ".join(sorted(points, key=points.__getitem__))

    expected = ranking_under(GOOGLE_WEIGHTS)
    page.get_by_role("link", name="Loss").first.click()
    page.wait_for_selector(f"text=MQM ranking: {expected}")  # Google's weights, as computed
    start = time.perf_counter()
    page.get_by_role("slider", name="Minor (other than punctuation)").press("End")  # 1 -> 5
    page.wait_for_selector(f"text=MQM ranking: {ranking_under(GOOGLE_WEIGHTS | {'Minor': 5.0})}")
    TIMINGS["loss: MQM weight slider to updated ranking, TED (s)"] = round(
        time.perf_counter() - start, 3
    )
    assert "w_minor=5" in page.url
    assert_no_error(page)
    shot(page, "ted-loss-mqm")


def test_another_session_still_sees_the_sample(browser, server, page):
    """The upload above lives in that page's session only."""
    other = new_page(browser)
    open_page(other, server, "", "Current test set: sample_data")
    assert other.get_by_text("Facebook-AI").count() == 0
    other.close()
