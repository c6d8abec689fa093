"""Home's logic (app.py declares the pages and draws this one): what each page does, the
current test set and its scores at a glance, and the evaluation report's download."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from mteval_core.metrics import REGISTRY
from mteval_core.metrics.scoring import Scores
from mteval_core.model.testset import TestSet
from mteval_core.report.evaluation_html import evaluation_html
from mteval_core.report.evaluation_report import (
    REPORT_RESAMPLES,
    REPORT_TRIALS,
    ReportRequest,
    evaluation_report,
)
from mteval_core.report.frames import (
    files_summary,
    repeated_scores,
    scores_frame,
    segment_preview,
)
from mteval_core.stats.approximate_randomization import RandomizationOptions
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.meta import criterion_choices
from pages.ui.caching import cache_key, cached, deferred
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.overview import show_overview
from pages.ui.sample import load_sample
from pages.ui.session import session_metrics, session_options, session_test_set
from pages.ui.session_scores import complete_scores, glance_scores
from pages.ui.upload_state import archive_criterion, show_refused_upload

PAGES = {  # file -> what it is for, as the home page lists it
    "pages/0_Data.py": "**Data**: upload your own test set, choose the metrics and options",
    "pages/1_Scores.py": "**Scores**: every system under every metric, with confidence",
    "pages/2_Correlation.py": "**Correlation**: which metric agrees with people",
    "pages/3_Bitext_grid.py": "**Bitext grid**: GTM's matching and METEOR's alignment of a "
    "segment, drawn",
    "pages/4_Loss.py": "**Loss**: which system is best when errors cost differently (Tate & "
    "Voss's costs, MQM's error weights)",
    "pages/5_Compare.py": "**Compare**: why one system beats another, sentence by sentence",
    "pages/6_Rankings.py": "**Rankings**: WMT's human rankings and AutoRank, with rank ranges "
    "and clusters",
    "pages/7_Spans.py": "**Spans**: error spans drawn in the text, and scored as WMT25 scores them",
}
INTRODUCTION = (
    "Evaluate machine translation with exact metrics: BLEU and NIST as sacreBLEU and mteval-v13a "
    "compute them; chrF, chrF++ and TER as sacreBLEU computes them; METEOR as meteor-1.5.jar "
    "computes it; unigram precision, recall, F1 and Fmean as Lavie et al. 2004 define them; GTM "
    "as GTM 1.4 computes it, or with the true maximum matching. Score with and without "
    "stemming, see which differences are significant, and how well each metric agrees with "
    "human judgments."
)
# The scores table shows every system without scrolling up to this many (WMT news: 20-23 systems;
# WMT25's largest language pair: 43, which scroll within 30 rows' height)
HOME_TABLE_ROWS = 30
ROW_PIXELS = 35  # Streamlit's own row height, set so that the height below fits it
HOME_TABLE_PIXELS = (HOME_TABLE_ROWS + 1) * ROW_PIXELS + 3  # the header, the rows, the border
SAMPLE_CAPTION = (
    "The dashboard opens on the project's own sample: German to English, with illustrative "
    "TIDES-style adequacy and fluency judgments (see sample_data/README.md). Upload your own on "
    "the Data page."
)


def home() -> None:
    """The home page: what each page does, the current test set and its scores at a glance."""
    st.set_page_config(page_title="mteval", layout="wide")
    show_refused_upload()  # as every page does, while the last upload is refused
    test_set = session_test_set()  # an upload from the Data page, or the sample
    st.title("mteval")
    st.markdown(INTRODUCTION)
    for page, label in PAGES.items():
        st.page_link(page, label=label)
    show_test_set(test_set)
    show_scores(test_set)
    st.markdown("**The first segments**")
    st.dataframe(
        cached(cache_key("segment preview", 10), lambda _: segment_preview(test_set, rows=10)),
        width="stretch",
    )


def show_test_set(test_set: TestSet) -> None:
    """Where the test set comes from (the sample, with its notes, or the files read)."""
    loaded = load_sample()
    st.subheader(f"Current test set: {escape_markdown(test_set.name)}")
    if test_set is loaded.test_set:
        st.caption(SAMPLE_CAPTION)
        for note in loaded.notes:
            st.info(escape_markdown(note))
    else:
        st.caption(f"Read from {escape_markdown(files_summary(test_set))}")
    show_overview(test_set)


def show_scores(test_set: TestSet) -> None:
    """The Scores page's table without resamples (one cached table for both pages, where it
    shows every metric), its notes and the report's download. The slow metrics not scored yet
    are scored in the background for the other pages (``glance_scores``), and said so."""
    with friendly_errors():
        scores, later = glance_scores(test_set, session_options())
        shown = tuple(name for name in session_metrics() if name not in later)
        table = cached(
            cache_key("scores table", BootstrapOptions(n_resamples=0), metrics=shown),
            lambda _: scores_frame(scores),
        )
    st.markdown(
        "**Scores at a glance** (best first by the first metric; options from the Data page; "
        "intervals on the Scores page)"
    )
    st.dataframe(
        table,
        width="stretch",
        height="content" if len(table) <= HOME_TABLE_ROWS else HOME_TABLE_PIXELS,
        row_height=ROW_PIXELS,
        column_config={column: st.column_config.NumberColumn(format="%.3f") for column in table},
    )
    for line in repeated_scores(scores):  # GTM beside F1 at its default exponent
        st.caption(escape_markdown(line))
    for note in scores.notes:  # e.g. GTM segments too large for the grid, left out
        st.warning(escape_markdown(note))
    if later:
        labels = ", ".join(REGISTRY[name].label for name in later)
        st.caption(
            f"{labels}: scored in the background for the Scores, Correlation and other pages, "
            "which show them; this table shows them when Home is next opened."
        )
    report_download(test_set, complete_scores(test_set, session_options()))


def report_download(test_set: TestSet, scores: Callable[[], Scores]) -> None:
    """The evaluation as one HTML page that opens offline, as `mteval report` writes it; made
    on the click, once for every session with this content and options. Its correlations are
    under the criterion chosen here when the judgments have several (every mt-metrics-eval set
    since WMT22): made on the click, a report that needs one would fail where nobody sees it."""
    randomization = RandomizationOptions(REPORT_TRIALS)
    bootstrap = BootstrapOptions(REPORT_RESAMPLES)
    options = session_options()
    criterion = report_criterion(test_set)

    def build() -> str:
        request = ReportRequest(randomization, None, bootstrap, criterion)
        report = evaluation_report(test_set, scores(), options, request)
        return evaluation_html(report)

    st.download_button(
        "Download the report (HTML)",
        deferred(cache_key("evaluation report", randomization, bootstrap, criterion), build),
        file_name="mteval-report.html",
        mime="text/html",
        on_click="ignore",
        help="Scores, significance clusters (approximate randomization, "
        f"{REPORT_TRIALS:,} trials), correlations with the human scores when there are some, "
        "the comparison of the two best systems and the signatures: one file that opens "
        "offline, as `mteval report` writes it.",
    )


def report_criterion(test_set: TestSet) -> str | None:
    """The human criterion of the report: the only one, or the one chosen here among several,
    starting at the archive's standard one (else the default, else the first); None without
    judgments."""
    if test_set.human is None or not len(test_set.human):
        return None
    choices = cached(cache_key("criteria"), lambda _: tuple(criterion_choices(test_set.human)))
    if len(choices) == 1:
        return choices[0]
    standard = archive_criterion()
    return st.selectbox(
        "Human criterion of the report",
        choices,
        index=choices.index(standard) if standard in choices else 0,
        help="The judgments have several criteria; the report's correlations use this one.",
    )
