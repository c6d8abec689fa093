"""The Compare page as a person uses it, through AppTest: the two best systems by default, a
pair from the URL (checked, and named as text when wrong), a bucket or an n-gram listing its
sentences with the words marked, and hostile names and texts shown only as text. On WMT23 en-zh,
en-ja and zh-en as released (issue 42): the page's BLEU is the Scores page's, and compare-mt's
reading, chosen by name, says when the text is not split into words."""

from __future__ import annotations

import re
from html import escape, unescape
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.compare.readings import TokenizedReading
from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.comparison_text import value_cell
from mteval_core.report.evaluation_report import compare_systems, ranked_systems
from mteval_core.report.figures import ngram_figure, shown_ngrams
from mteval_core.report.figures.plotly_escape import escape_plotly
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from pages.ui import compare as compare_ui
from pages.ui.compare import CHART, NGRAM_CHART, clicked_bucket
from pages.ui.session import DASHBOARD_METRICS
from tests.app.test_hostile_pages import IMAGE, TAG, assert_escaped, hostile_test_set
from tests.helpers import load_sample
from tests.wmt23_general import SYSTEMS, TOKENIZERS, wmt23_pair

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/5_Compare.py"
SAMPLE = load_sample().test_set
READING = TokenizedReading(Options())  # the page's by default: as Scores reads the sample


def open_compare(query: dict[str, str] | None = None, **state) -> AppTest:
    """The page as the sidebar opens it (its links to the Bitext grid need the navigation)."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in state.items():
        app.session_state[key] = value
    app.switch_page(PAGE)
    app.query_params.update(query or {})
    return rerun(app)


def rerun(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def widget(app: AppTest, kind: str, label: str):
    return next(w for w in getattr(app, kind) if w.label == label)


def listed_lines(app: AppTest) -> list[int]:
    """The line numbers of the sentences the page lists."""
    bodies = [element.proto.body for element in app.get("html")]
    return [int(n) for body in bodies for n in re.findall(r">Line (\d+)</div>", body)]


def test_the_page_opens_on_the_two_best_systems_with_every_chart():
    app = open_compare()
    ranked = ranked_systems(score_test_set(SAMPLE, DASHBOARD_METRICS, Options()))
    assert widget(app, "selectbox", "System a (baseline)").value == ranked[0]
    assert widget(app, "selectbox", "System b").value == ranked[1]
    assert len(app.get("plotly_chart")) == 2  # the four bucket analyses in one, the n-grams
    assert app.query_params["a"] == ranked[0]  # a link to this view
    corpus = compare_systems(SAMPLE, (ranked[0], ranked[1]), READING, 0, BootstrapOptions(1000))
    bleu = corpus.analysis("scores")
    assert [m.value for m in app.metric] == [value_cell(bleu, 0, 0, 0), value_cell(bleu, 1, 0, 0)]
    assert 0 < bleu.values[0, 0, 0] < 100  # sacreBLEU's BLEU, 0-100


def test_a_bucket_lists_its_sentences_with_the_marked_words_and_bitext_links():
    app = open_compare({"a": "phrase-based", "b": "neural-large"})
    widget(app, "selectbox", "Analysis").set_value("sentence_bleu_buckets")
    rerun(app)
    widget(app, "radio", "As which system's bucket").set_value(1)
    rerun(app)
    comparison = compare_systems(SAMPLE, ("phrase-based", "neural-large"), READING)
    # the bucket with most of b's sentences, to see more than one
    analysis = comparison.analysis("sentence_bleu_buckets")
    bucket = max(
        range(len(analysis.labels)), key=lambda k: len(comparison.lines_in(analysis.key, k, 1))
    )
    widget(app, "selectbox", "Bucket").set_value(bucket)
    rerun(app)
    expected = comparison.lines_in("sentence_bleu_buckets", bucket, 1)
    assert len(expected) > 1
    assert listed_lines(app) == expected[:10]
    body = next(
        e.proto.body for e in app.get("html") if f">Line {expected[0]}</div>" in e.proto.body
    )
    assert 'class="improving"' in body or 'class="worsening"' in body or 'class="confirmed"' in body
    links = [link.proto.query_string for link in app.get("page_link")]
    assert f"system=phrase-based&segment={expected[0]}" in links


def test_a_clicked_word_accuracy_bar_lists_the_sentences_with_its_words_underlined(monkeypatch):
    """A bar of word accuracy by frequency (trace 0: a's, bucket k) lists the sentences whose
    reference has words of that bucket, the words underlined in reference and outputs."""
    app = open_compare({"a": "phrase-based", "b": "neural-large"})
    comparison = compare_systems(SAMPLE, ("phrase-based", "neural-large"), READING)
    words = comparison.words
    bucket = int(np.argmax(words.reference.sum(axis=0)))  # the bucket with most words
    analyses = tuple(a.key for a in comparison.analyses[1:])
    assert clicked_bucket({"curve_number": 1, "point_index": bucket}, analyses) == (
        "word_accuracy",
        bucket,
        1,
    )
    app.session_state[CHART] = {
        "selection": {"points": [{"curve_number": 1, "point_index": bucket}]}
    }
    select_in(app, analyses, monkeypatch)
    rerun(app)
    assert widget(app, "selectbox", "Analysis").value == "word_accuracy"
    assert widget(app, "selectbox", "Bucket").value == bucket
    expected = comparison.lines_with_word_bucket(bucket)
    assert expected and listed_lines(app) == expected[:10]
    body = " ".join(e.proto.body for e in app.get("html"))
    underlined = re.findall(r'<u class="bucket-word"[^>]*>([^<]*)</u>', body)
    assert underlined and all(comparison.word_bucket(unescape(w)) == bucket for w in underlined)
    first = READING.split(SAMPLE.references[0].segments[expected[0] - 1])
    assert any(comparison.word_bucket(w) == bucket for w in first)


def select_in(app: AppTest, analyses: tuple[str, ...], monkeypatch) -> None:
    """The chart's on_select callback run on the selection (AppTest cannot click a Plotly bar),
    and what it chose given to the app's session."""
    state = {CHART: {"selection": app.session_state[CHART]["selection"]}}
    monkeypatch.setattr(compare_ui.st, "session_state", state)
    compare_ui.select_clicked_bar(analyses, CHART)
    monkeypatch.undo()
    for key, value in state.items():
        if key != CHART:
            app.session_state[key] = value


def test_a_click_outside_the_bars_selects_nothing():
    analyses = ("word_accuracy", "length_buckets")
    assert clicked_bucket({"curve_number": 4, "point_index": 0}, analyses) is None
    assert clicked_bucket({"point_index": 0}, analyses) is None
    assert clicked_bucket({"curve_number": 3, "point_index": 2}, analyses) == (
        "length_buckets",
        2,
        1,
    )


def test_an_ngram_lists_the_sentences_where_either_system_matches_it():
    app = open_compare()
    widget(app, "radio", "List the sentences of").set_value("an n-gram")
    rerun(app)
    choice = widget(app, "selectbox", "n-gram")
    a, b = (widget(app, "selectbox", label).value for label in ("System a (baseline)", "System b"))
    comparison = compare_systems(SAMPLE, (a, b), READING)
    assert (
        listed_lines(app) == [line for line, _, _ in comparison.lines_with_ngram(choice.value)][:10]
    )


def test_a_clicked_ngram_bar_lists_that_ngrams_sentences(monkeypatch):
    """A bar of the n-gram figure (point k: the k-th n-gram it draws, either system's trace)
    switches the listing to that n-gram; a click beside the bars changes nothing."""
    pair = ("phrase-based", "neural-large")
    app = open_compare({"a": pair[0], "b": pair[1]})
    comparison = compare_systems(SAMPLE, pair, READING)
    drawn = shown_ngrams(comparison.ngrams)
    assert len(drawn) > 3
    figure = ngram_figure(comparison.ngrams, pair)
    assert list(figure.data[0].y) == [escape_plotly(d.ngram) for d in drawn]
    clicked = drawn[-1]  # b's last drawn n-gram, its bar in a's trace
    point = {"curve_number": 0, "point_index": len(drawn) - 1}
    state = {NGRAM_CHART: {"selection": {"points": [point]}}}
    monkeypatch.setattr(compare_ui.st, "session_state", state)
    compare_ui.select_clicked_ngram(comparison, NGRAM_CHART)
    outside = {NGRAM_CHART: {"selection": {"points": [{"curve_number": 0}]}}}
    monkeypatch.setattr(compare_ui.st, "session_state", outside)
    compare_ui.select_clicked_ngram(comparison, NGRAM_CHART)
    monkeypatch.undo()
    assert outside == {NGRAM_CHART: {"selection": {"points": [{"curve_number": 0}]}}}
    assert state["compare_list"] == "an n-gram" and state["compare_ngram"] == clicked.ngram
    for key in ("compare_list", "compare_ngram"):
        app.session_state[key] = state[key]
    rerun(app)
    assert widget(app, "selectbox", "n-gram").value == clicked.ngram
    expected = [line for line, _, _ in comparison.lines_with_ngram(clicked.ngram)]
    assert expected and listed_lines(app) == expected[:10]


def test_a_pair_the_test_set_lacks_is_named_as_text_and_the_best_two_open():
    app = open_compare({"a": IMAGE, "b": "neural-small"})
    assert widget(app, "selectbox", "System b").value == "neural-small"
    shown = assert_escaped(app)
    assert "which this test set does not have" in shown


def test_hostile_names_and_texts_are_only_text():
    app = open_compare(test_set=hostile_test_set())
    assert_escaped(app)
    widget(app, "radio", "List the sentences of").set_value("an n-gram")
    rerun(app)
    assert listed_lines(app)
    bodies = " ".join(element.proto.body for element in app.get("html"))
    assert "<img" not in bodies and escape(TAG) in bodies.replace("&#x27;", "'")


def test_the_scores_page_opens_compare_on_the_chosen_pair():
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.run()
    app.switch_page("pages/1_Scores.py")
    rerun(app)
    widget(app, "selectbox", "Compare").set_value("word-by-word")
    rerun(app)
    second = widget(app, "selectbox", "with").value
    next(button for button in app.button if button.label == "Open on the Compare page").click()
    rerun(app)
    assert app.title[0].value == "Compare two systems"
    assert widget(app, "selectbox", "System a (baseline)").value == "word-by-word"
    assert widget(app, "selectbox", "System b").value == second


def test_a_clicked_cell_of_the_heat_map_opens_compare_on_its_pair(monkeypatch):
    """The significance heat map's cells are clickable (an invisible marker on each tested
    cell); the selection of the cell in row x and column y opens Compare on (x, y)."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.run()
    app.switch_page("pages/1_Scores.py")
    rerun(app)
    figures = [plotly_figure(chart) for chart in app.get("plotly_chart")]
    cells, markers = next(f["data"] for f in figures if f["data"][0]["type"] == "heatmap")
    assert markers["type"] == "scatter" and cells.get("hoverinfo") == "skip"
    n = len(cells["x"])
    assert len(markers["x"]) == n * (n - 1)  # every cell but the diagonal
    row, column = markers["y"][1], markers["x"][1]
    assert row != column
    systems = SAMPLE.system_names
    assert compare_ui.pair_of_cell({"x": column, "y": row}, systems) == (row, column)
    assert compare_ui.pair_of_cell({"x": row, "y": row}, systems) is None
    assert compare_ui.pair_of_cell({"x": "<b>nobody</b>", "y": row}, systems) is None
    state = {compare_ui.HEAT_MAP: {"selection": {"points": [{"x": column, "y": row}]}}}
    monkeypatch.setattr(compare_ui.st, "session_state", state)
    compare_ui.remember_clicked_pair(systems)  # the chart's on_select callback
    monkeypatch.undo()
    app.session_state[compare_ui.CLICKED_PAIR] = state[compare_ui.CLICKED_PAIR]
    rerun(app)
    assert app.title[0].value == "Compare two systems"
    assert widget(app, "selectbox", "System a (baseline)").value == row
    assert widget(app, "selectbox", "System b").value == column


def plotly_figure(chart) -> dict:
    import json

    return json.loads(chart.proto.spec)


@pytest.mark.parametrize("pair", sorted(TOKENIZERS))
def test_the_bleu_of_compare_is_the_bleu_of_scores_on_wmt23(pair):
    """The session's options as the Data page leaves them for the pair (zh for Chinese; char,
    as WMT23 scored Japanese); Scores first, then Compare in the same session: one BLEU, and
    with 1,000 resamples on both pages one interval too."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.session_state["test_set"] = wmt23_pair(pair).test_set(SYSTEMS[pair])
    app.session_state["options"] = Options(tokenize=TOKENIZERS[pair])
    app.session_state["metrics"] = ("bleu",)
    app.switch_page("pages/1_Scores.py")
    rerun(app)
    widget(app, "select_slider", "Bootstrap resamples").set_value(1000)
    table = rerun(app).dataframe[0].value
    app.switch_page(PAGE)
    rerun(app)
    assert not app.warning, [w.value for w in app.warning]
    a, b = (widget(app, "selectbox", label).value for label in ("System a (baseline)", "System b"))
    official = wmt23_pair(pair).official_bleu
    for metric, system in zip(app.metric, (a, b)):
        assert metric.label == f"BLEU of {'ab'[(a, b).index(system)]}"
        row = table.loc[system]
        assert row["BLEU"] == official[system]  # Scores' BLEU, the organisers'
        assert metric.value == f"{row['BLEU']:.4f} [{row['BLEU low']:.4f}, {row['BLEU high']:.4f}]"
    reading = TokenizedReading(Options(tokenize=TOKENIZERS[pair]))
    comparison = compare_systems(app.session_state["test_set"], (a, b), reading)
    assert comparison.analysis("scores").values[:, 0, 0].tolist() == [official[a], official[b]]
    caption = next(c.value for c in app.caption if c.value.startswith("Systems best first"))
    assert f"tokenized with {TOKENIZERS[pair]} as the scores read it" in caption
    widget(app, "radio", "Read the text").set_value("compare-mt")
    rerun(app)
    assert [m.label for m in app.metric] == ["compare-mt BLEU of a", "compare-mt BLEU of b"]
    warnings = [w.value for w in app.warning]
    if pair == "zh-en":  # English split on spaces is words: compare-mt's own number, no warning
        assert not warnings
    else:
        (warning,) = warnings
        assert "not split into words" in warning and "near zero" in warning
