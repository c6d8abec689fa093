"""The dashboard as a person uses it, through Streamlit's AppTest."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.settings.options import Options
from pages.ui.markdown_escape import escape_markdown
from tests.helpers import SAMPLE_DATA, load_sample, make_test_set

ROOT = Path(__file__).resolve().parents[2]


def run(page: str) -> AppTest:
    app = AppTest.from_file(str(ROOT / page), default_timeout=60).run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def test_home_shows_the_sample_test_set():
    app = run("app.py")
    text = " ".join(m.value for m in app.markdown)
    assert "**Segments**  \n40" in text
    assert "neural-large, neural-small, phrase-based, word-by-word" in text
    assert "adequacy\\: 4 systems, 40 segments rated (320 rows)" in text
    assert "**Languages**  \nGerman → English" in text
    glance, preview = (frame.value for frame in app.dataframe)
    assert list(glance.index) == ["neural-large", "neural-small", "phrase-based", "word-by-word"]
    assert glance["BLEU"].is_monotonic_decreasing and "GTM" in glance.columns
    assert list(preview.columns[:4]) == ["document", "source", "ref-A", "ref-B"]
    assert len(preview) == 10


def page_via_home(page: str) -> AppTest:
    """A page opened from the home page, as a user does: links to other pages then resolve."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.switch_page(page).run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def test_correlation_page_scatter_and_table():
    app = page_via_home("pages/2_Correlation.py")
    table = app.dataframe[0].value
    assert list(table.index) == ["BLEU", "NIST", "P", "R", "F1", "Fmean", "GTM"]
    assert {"Pearson (unstemmed)", "Pearson (stemmed)", "Pearson 95% CI (stemmed)"} <= set(
        table.columns
    )
    charts = [json.loads(c.proto.spec) for c in app.get("plotly_chart")]
    scatter, differences, reliability = charts[0], charts[1], charts[-1]
    assert len(scatter["data"][0]["x"]) == 4  # one point per system
    assert scatter["layout"]["title"]["text"].startswith("BLEU against adequacy+fluency")
    assert len(differences["data"][0]["x"]) == 6  # one point per pair of systems
    lines = [t["name"] for t in reliability["data"] if t.get("mode") == "lines+markers"]
    assert lines == ["ref-A", "ref-B", "ref-A + ref-B"]  # every set of the two references
    app.multiselect[0].set_value(["word-by-word"]).run()
    assert app.dataframe[0].value.loc["BLEU", "n"] == 3


def test_correlation_page_puts_stemmed_and_unstemmed_side_by_side():
    from mteval_core.metrics import DEFAULT_METRICS
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.report.writers import metric_labels
    from mteval_core.stats.meta import evaluate
    from tests.helpers import load_sample

    app = page_via_home("pages/2_Correlation.py")
    app.select_slider[0].set_value(0).run()  # no resamples: point estimates only
    table = app.dataframe[0].value
    test_set = load_sample().test_set
    for stem, column in (("none", "Pearson (unstemmed)"), ("porter", "Pearson (stemmed)")):
        scores = score_test_set(test_set, (*DEFAULT_METRICS, "gtm"), Options(stem=stem))
        expected = evaluate(test_set, scores, "adequacy+fluency").correlations
        labels = metric_labels(scores.metrics)
        assert table[column].to_dict() == {
            labels[m]: round(r.pearson, 3) for m, r in expected.items()
        }
    assert (table["Pearson (stemmed)"] != table["Pearson (unstemmed)"]).any()


def test_correlation_page_leads_from_a_system_to_its_segments():
    app = page_via_home("pages/2_Correlation.py")
    next(s for s in app.selectbox if s.label == "Segments of").set_value("phrase-based").run()
    segments = app.dataframe[1].value
    assert segments.columns[3] == "phrase-based" and len(segments) == 40
    assert segments["rank disagreement"].is_monotonic_decreasing
    link = app.get("page_link")[0].proto
    assert link.page == "Bitext_grid" and link.query_string == "system=phrase-based"


def test_data_page_shows_the_sample_and_sets_options_for_every_page():
    app = run("pages/0_Data.py")
    assert "**Segments**  \n40" in " ".join(m.value for m in app.markdown)
    app.selectbox[1].set_value("porter").run()  # stemming
    assert app.session_state["options"].stem == "porter"
    assert "stem:porter-nltk" in app.caption[-1].value
    next(n for n in app.number_input if n.label == "GTM exponent").set_value(0.5).run()
    next(s for s in app.selectbox if s.label == "GTM matching").set_value("exact").run()
    assert "at least 1" in app.error[0].value  # refused in plain words; options kept


def test_data_page_summarises_loaded_mqm_annotations():
    from mteval_core.io.mqm_tsv import read_mqm

    tsv = (
        "system\tseg_id\trater\tcategory\tseverity\n"
        "sysA\t1\tr1\tAccuracy/Mistranslation\tMajor\n"
        "sysA\t1\tr1\tFluency/Punctuation\tMinor\n"
        "sysB\t1\tr2\tNo-error\tNo-error\n"
    )
    app = AppTest.from_file(str(ROOT / "pages/0_Data.py"), default_timeout=60)
    app.session_state["mqm"] = read_mqm(tsv.encode(), "mqm.tsv")
    app.run()
    assert not app.exception
    summary = [m.value for m in app.markdown if m.value.startswith("**MQM annotations:**")]
    assert summary == [
        "**MQM annotations:** 2 ratings of 2 systems by 2 raters, 2 errors of 2 kinds (mqm.tsv)"
    ]


def test_an_uploaded_test_set_reaches_the_other_pages():
    from mteval_core.io.uploads import test_set_from_uploads

    def upload(path):
        return (path.name, path.read_bytes())

    test_set = test_set_from_uploads(
        [upload(SAMPLE_DATA / "ref" / "ref-A.en")],
        [upload(p) for p in sorted((SAMPLE_DATA / "sys").iterdir())[:3]],
    )
    app = AppTest.from_file(str(ROOT / "pages/1_Scores.py"), default_timeout=60)
    app.session_state["test_set"] = test_set
    app.run()
    assert len(app.dataframe[0].value) == 3 and "nrefs:1" in app.caption[-1].value
    app = AppTest.from_file(str(ROOT / "pages/2_Correlation.py"), default_timeout=60)
    app.session_state["test_set"] = test_set
    app.run()
    assert "no human judgments" in app.info[0].value


def test_a_corrected_file_under_the_same_name_is_scored_anew():
    """The cache is keyed by content: same file names, other bytes, other numbers."""
    from mteval_core.io.uploads import test_set_from_uploads

    reference = ("ref.en", b"the cat sat on the mat\na dog barked\n")
    first = test_set_from_uploads([reference], [("mt.en", b"the cat sat\na dog\n")])
    second = test_set_from_uploads([reference], [("mt.en", b"the cat sat on the mat\na dog\n")])
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.session_state["test_set"] = first
    app.run()
    before = app.dataframe[0].value.loc["mt", "R"]
    app.session_state["test_set"] = second
    app.run()
    after = app.dataframe[0].value.loc["mt", "R"]
    assert (before, after) == (5 / 9, 8 / 9)  # matched words / reference words


def test_one_sessions_upload_never_reaches_another_session():
    from mteval_core.io.uploads import test_set_from_uploads

    mine = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    mine.session_state["test_set"] = test_set_from_uploads(
        [("ref.en", b"a b\n")], [("private-system.en", b"a b\n")]
    )
    mine.run()
    theirs = run("app.py")
    assert "private-system" in " ".join(m.value for m in mine.markdown)
    assert "private-system" not in " ".join(m.value for m in theirs.markdown)
    assert theirs.dataframe[0].value.index[0] == "neural-large"


def test_correlation_page_segment_level_view():
    """Issue #11: every metric by grouping with intervals and the constant baseline, a density
    of the rated cells and the metrics ranked in significance clusters."""
    app = page_via_home("pages/2_Correlation.py")
    app.select_slider[0].set_value(100).run()
    tables = [frame.value for frame in app.dataframe]
    table = next(t for t in tables if list(t.columns) == ["none", "item", "system"])
    assert table.index[-1] == "constant baseline"
    assert set(table.index[:-1]) == {"BLEU", "NIST", "P", "R", "F1", "Fmean", "GTM"}
    assert table.loc["BLEU", "item"].count("[") == 1  # the value and its interval
    charts = [json.loads(c.proto.spec) for c in app.get("plotly_chart")]
    density = next(c for c in charts if c["data"][0]["type"] == "heatmap")
    assert sum(map(sum, density["data"][0]["customdata"])) == 4 * 40  # every rated cell once
    ranking = next(c for c in charts if c["data"][0].get("orientation") == "h")
    assert all(text.startswith("rank ") for text in ranking["data"][0]["text"])
    assert not app.exception and not app.error


def test_an_external_metric_appears_on_scores_and_correlation():
    """Issue #11: a metric from a file shows wherever a built-in one does."""
    from mteval_core.io.uploads import read_uploaded_metric
    from tests.helpers import load_sample

    test_set = load_sample().test_set
    rows = ["system,segment_id,score"]
    for rank, system in enumerate(test_set.system_names):
        rows += [f"{system},{line},{rank + line / 100}" for line in range(1, 41)]
    data = "\n".join(rows).encode()
    external = read_uploaded_metric(("comet.csv", data), "comet", "higher", test_set, {})
    for page in ("pages/1_Scores.py", "pages/2_Correlation.py"):
        app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        app.session_state["external_metrics"] = external
        app.switch_page(page).run()
        assert not app.exception and not app.error, page
        tables = [frame.value for frame in app.dataframe]
        shown = {
            *(str(i) for t in tables for i in t.index),
            *(str(c) for t in tables for c in t.columns),
        }
        assert any("comet" in name for name in shown), page


def test_home_introduces_every_metric_and_page():
    app = run("app.py")
    introduction = app.markdown[0].value
    for metric in ("BLEU", "NIST", "chrF", "chrF++", "TER", "METEOR", "F1", "Fmean", "GTM"):
        assert metric in introduction, metric
    links = " ".join(link.proto.label for link in app.get("page_link"))
    assert "METEOR's alignment" in links and "MQM's error weights" in links


def test_home_ranks_every_system_best_first_and_says_when_gtm_repeats_f1():
    """15 systems (Home showed them alphabetically, 10 in view) against one reference, where
    GTM at its default exponent gives F1's scores: the table is ranked by BLEU, the first
    metric, as the Scores page ranks it, and a line under it (on both pages) says why two
    columns are equal."""
    reference = load_sample().test_set.references[0].segments
    systems = {
        f"sys-{chr(ord('a') + k)}": [
            " ".join(line.split()[: 3 + (k * 7) % 15]) for line in reference
        ]
        for k in range(15)
    }
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.session_state["test_set"] = make_test_set(list(reference), systems)
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    glance = app.dataframe[0].value
    assert len(glance) == 15 and glance["BLEU"].is_monotonic_decreasing
    assert list(glance.index) != sorted(glance.index)
    assert (glance["GTM"] == glance["F1"]).all()
    repeats = [c.value for c in app.caption if "GTM repeats F1" in c.value]
    assert repeats == [
        escape_markdown(
            "GTM repeats F1: every system has the same score under both, since at GTM's "
            "exponent 1 (GTM 1.4's default) and with one reference, GTM's matching counts the "
            "same matched words as the unigram metrics; an exponent above 1 rewards longer runs "
            "of matching words."
        )
    ]
    app.switch_page("pages/1_Scores.py").run()
    assert list(app.dataframe[0].value.index) == list(glance.index)
    assert [c.value for c in app.caption if "GTM repeats F1" in c.value] == repeats
