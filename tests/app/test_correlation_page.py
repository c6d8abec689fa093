"""The Correlation page in both of its modes (issue #12): judgments of segments (resampled
segments, the segments of a system, the segment-level view) and judgments of systems only, as WMT
ships DA (resampled systems, as `mteval correlate` does; the segment views left out with one
line); the rated-segments-only switch; one metric against the others; the ranking's p-values."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.io.human_judgments import read_human_for
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.testset import HumanScores, TestSet, TextColumn
from mteval_core.report.comparison_frames import metric_comparison_frame, ranking_p_value_frame
from mteval_core.report.figures.correlation import HIGHLIGHT_COLOUR
from mteval_core.report.writers import metric_labels
from mteval_core.settings.options import Options
from mteval_core.stats import segment_meta
from mteval_core.stats.bootstrap import DEFAULT_SEED
from mteval_core.stats.meta import evaluate, evaluate_and_compare
from pages.ui.markdown_escape import escape_markdown
from pages.ui.session import DASHBOARD_METRICS
from pages.ui.table_display import as_plain_text
from tests.helpers import load_sample, read_lines, shared_dataset

ROOT = Path(__file__).resolve().parents[2]
DA = b"system\tscore\nneural-large\t0.4\nneural-small\t0.1\nphrase-based\t0.2\nword-by-word\t-0.6\n"
SEGMENT_VIEWS = "need segment-level judgments"


def open_page(test_set: TestSet | None = None) -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    if test_set is not None:
        app.session_state["test_set"] = test_set
    app.switch_page("pages/2_Correlation.py").run()
    assert_fine(app)
    return app


def assert_fine(app: AppTest) -> None:
    assert not app.exception, [e.message for e in app.exception]
    assert not app.error, [e.value for e in app.error]


def with_da(test_set: TestSet, table: bytes = DA, name: str = "da_sys.tsv") -> TestSet:
    return test_set.with_human(read_human_for(test_set, table, name).scores)


def labels(app: AppTest, kind: str) -> list[str]:
    return [widget.label for widget in getattr(app, kind)]


def captions(app: AppTest) -> str:
    return " ".join(caption.value for caption in app.caption)


def charts(app: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]


# --------------------------------------------------------------- system-level judgments only
def test_system_level_judgments_get_system_resamples_and_no_segment_views():
    app = open_page(with_da(load_sample().test_set))
    table = app.dataframe[0].value
    assert table.loc["BLEU", "Pearson 95% CI (unstemmed)"].startswith("[")
    assert "bootstrap resamples of the systems" in captions(app)
    assert "`mteval correlate`" in captions(app)
    (note,) = [info.value for info in app.info]  # one line for everything left out
    assert SEGMENT_VIEWS in note and "system-level only" in note
    headers = [header.value for header in app.subheader]
    assert headers == ["Every metric against the human scores"]  # no segment level, reliability
    assert len(app.get("plotly_chart")) == 2 and len(app.dataframe) == 1
    # every widget does something here: none for segments
    assert labels(app, "toggle") == []
    assert labels(app, "select_slider") == ["Bootstrap resamples"]
    assert "Segments of" not in labels(app, "selectbox")
    assert "Highlight system" in labels(app, "selectbox")
    assert "Systems" in app.select_slider[0].help
    scatter = charts(app)[0]
    assert "[" in scatter["layout"]["title"]["text"]  # r with its interval


def test_system_level_intervals_and_comparisons_follow_the_resamples():
    app = open_page(with_da(load_sample().test_set))
    (comparisons,) = app.table
    assert list(comparisons.value.index) == ["NIST", "P", "R", "F1", "Fmean", "GTM"]
    assert comparisons.value.iloc[0, 3].endswith("%")  # the share of resamples
    app.select_slider[0].set_value(0).run()
    assert_fine(app)
    assert "No intervals" in captions(app)
    assert not any("CI" in column for column in app.dataframe[0].value.columns)
    share = app.table[0].value.iloc[0, 3]
    assert share == "undefined (no resamples were drawn)"
    assert re.fullmatch(r"(\\< )?\d\\?\.\d{3}", app.table[0].value.iloc[0, 1])  # Williams' p


def test_the_highlighted_system_is_marked_in_both_plots():
    app = open_page(with_da(load_sample().test_set))
    highlight = next(s for s in app.selectbox if s.label == "Highlight system")
    highlight.set_value("phrase-based").run()
    assert_fine(app)
    scatter, differences = charts(app)
    colours = scatter["data"][0]["marker"]["color"]
    assert colours[2] == HIGHLIGHT_COLOUR and colours.count(HIGHLIGHT_COLOUR) == 1
    every, marked = differences["data"]
    assert len(every["x"]) == 6 and len(marked["x"]) == 3  # phrase-based's three pairs
    assert all("phrase-based" in label for label in marked["text"])
    link = app.get("page_link")[0].proto
    assert link.query_string == "system=phrase-based"


def test_wmt21_zh_en_with_da_per_system():
    """Issue #12: WMT21 zh-en with the official DA, one score per system (23 systems)."""
    folder = shared_dataset("wmt21-newstest2021-zhen")
    test_set = TestSet(
        references=[TextColumn("ref-A", tuple(read_lines(folder / "ref" / "ref-A.en")), "ref")],
        systems=[
            TextColumn(path.stem, tuple(read_lines(path)), str(path))
            for path in sorted((folder / "sys").iterdir())
        ],
    )
    test_set = with_da(test_set, (folder / "human" / "da_sys.tsv").read_bytes())
    app = open_page(test_set)
    table = app.dataframe[0].value
    assert set(table["n"]) == {23}
    assert all(cell.startswith("[") for cell in table["Pearson 95% CI (stemmed)"])
    assert SEGMENT_VIEWS in app.info[0].value
    scatter = charts(app)[0]["data"][0]
    assert len(scatter["x"]) == 23 and len(scatter["hovertext"]) == 23
    assert 0 < sum(bool(text) for text in scatter["text"]) <= 9  # extremes and the highlight


# ------------------------------------------------------------------ segment-level judgments
def partly_rated() -> TestSet:
    """The sample with judgments of its first 20 segments only."""
    test_set = load_sample().test_set
    rows = test_set.human.segment_rows
    return test_set.with_human(HumanScores(rows[rows["segment"] <= 20], rows.iloc[:0]))


def test_the_rated_segments_only_switch():
    test_set = partly_rated()
    app = open_page(test_set)
    app.select_slider[0].set_value(0).run()  # point estimates are enough here
    before = app.dataframe[0].value["Pearson (unstemmed)"]
    (switch,) = [t for t in app.toggle if t.label == "Rated segments only"]
    switch.set_value(True).run()
    assert_fine(app)
    after = app.dataframe[0].value["Pearson (unstemmed)"]
    scores = score_test_set(test_set, DASHBOARD_METRICS, Options())
    expected = evaluate(test_set, scores, "adequacy+fluency", rated_only=True).correlations
    labels = metric_labels(scores.metrics)
    assert after.to_dict() == {labels[m]: round(r.pearson, 3) for m, r in expected.items()}
    assert (after != before).any()
    assert "rated segments only" in captions(app)


def test_one_metric_against_every_other():
    test_set = load_sample().test_set
    app = open_page()
    (table,) = app.table
    scores = score_test_set(test_set, DASHBOARD_METRICS, Options())
    from mteval_core.stats.bootstrap import BootstrapOptions

    result = evaluate_and_compare(
        test_set, scores, "adequacy+fluency", (), False, BootstrapOptions()
    )
    labels = metric_labels(scores.metrics)
    expected = as_plain_text(metric_comparison_frame(result.compared_with("bleu"), labels))
    pd.testing.assert_frame_equal(table.value, expected, check_names=False)
    next(s for s in app.selectbox if s.label == "Metric").set_value("gtm").run()
    assert_fine(app)
    assert "GTM" not in app.table[0].value.index and "BLEU" in app.table[0].value.index
    assert "GTM (selected) against every other metric" in captions(app)


def test_the_ranking_gives_a_metrics_p_values_and_its_permutations():
    test_set = load_sample().test_set
    app = open_page()
    caption = next(c.value for c in app.caption if c.value.startswith("Rank 1"))
    assert "1,000 permutations per pair" in caption
    (permutations,) = [s for s in app.select_slider if s.label == "Permutations per pair"]
    assert max(int(n) for n in permutations.options) == 1000  # the command line's default
    chosen = next(s for s in app.selectbox if s.label == "p-values of")
    chosen.set_value("gtm").run()
    assert_fine(app)
    frame = next(f.value for f in app.dataframe if "p-value" in f.value.columns)
    assert "GTM" not in frame.index and len(frame) == 6
    scores = score_test_set(test_set, DASHBOARD_METRICS, Options())
    matrices = segment_meta.segment_matrices(test_set, scores, "adequacy+fluency")
    result = segment_meta.segment_statistics(matrices, 1000, DEFAULT_SEED)
    ranking = segment_meta.rank_oriented_metrics(
        matrices, "acc_eq", "item", 1000, DEFAULT_SEED, result
    )
    expected = ranking_p_value_frame(ranking, "gtm", metric_labels(scores.metrics))
    pd.testing.assert_frame_equal(frame, expected, check_names=False)
    bars = next(c for c in charts(app) if c["data"][0].get("orientation") == "h")["data"][0]
    outlined = [y for y, w in zip(bars["y"], bars["marker"]["line"]["width"]) if w]
    assert outlined == ["GTM"]
    permutations.set_value(500).run()
    assert_fine(app)
    caption = next(c.value for c in app.caption if c.value.startswith("Rank 1"))
    assert "500 permutations per pair" in caption


# ----------------------------------------------------------------------------- escaping
def test_static_tables_escape_every_cell_index_and_header():
    frame = pd.DataFrame({"**r**": ["[x](javascript:alert(1))"]}, index=["<img src=x>"])
    frame.index.name = "_m_"
    plain = as_plain_text(frame)
    assert plain.iloc[0, 0] == escape_markdown("[x](javascript:alert(1))") != frame.iloc[0, 0]
    assert list(plain.index) == [escape_markdown("<img src=x>")]
    assert plain.index.name == escape_markdown("_m_") == r"\_m\_"
    assert list(plain.columns) == [r"\*\*r\*\*"]


@pytest.mark.parametrize("hostile", ["[x](javascript:alert(1))", "**bold**"])
def test_hostile_system_names_with_system_level_judgments(hostile):
    from mteval_core.io.uploads import test_set_from_uploads

    reference = b"the cat sat\na dog barked\nit rains\n"
    systems = [
        (f"{hostile}.txt", b"the cat\na dog\nit\n"),
        ("b.txt", b"the cat sat\na dog\nit rains\n"),
        ("c.txt", reference),
        ("d.txt", b"cat\ndog\nrain\n"),
    ]
    human = f"system\tscore\n{hostile}\t1\nb\t2\nc\t3\nd\t0.5\n".encode()
    test_set = test_set_from_uploads([("ref.txt", reference)], systems, human=("da.tsv", human))
    app = open_page(test_set)
    texts = [c.value for c in app.caption] + [i.value for i in app.info]
    texts += [link.proto.label for link in app.get("page_link")]
    for text in texts:
        assert hostile not in re.sub(r"\\.", "\0", text)


def test_stemming_defaults_to_the_target_languages_snowball():
    """German output (every reference and system file .de) is stemmed with Snowball's German
    stemmer unless the Data page chose a stemmer; the sample's English with Porter."""
    sample = load_sample().test_set

    def as_german(column: TextColumn) -> TextColumn:
        return TextColumn(column.name, column.segments, column.name + ".de")

    german = TestSet(
        references=[as_german(c) for c in sample.references],
        systems=[as_german(c) for c in sample.systems],
        human=sample.human,
    )
    stemmer = next(s for s in open_page(german).selectbox if s.label == "Stemmed columns use")
    assert stemmer.value == "snowball-german"
    stemmer = next(s for s in open_page().selectbox if s.label == "Stemmed columns use")
    assert stemmer.value == "porter"
