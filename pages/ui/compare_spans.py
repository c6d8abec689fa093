"""The Compare page's error spans and comet-compare: the listed sentences' translations drawn
with the session's span annotations (pages.ui.session_spans; the annotations, severities and
categories chosen here), and comet-compare's win/tie shares and paired t-test of the pair
under one segment-level metric (mteval_core.stats.comet_compare, `mteval score
--comet-compare`'s numbers)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from mteval_core.metrics.external import ExternalMetric
from mteval_core.metrics.scoring import Scores
from mteval_core.model.spans import SEVERITIES, ErrorSpan
from mteval_core.model.testset import TestSet
from mteval_core.spans.span_html import (
    NO_CATEGORY,
    DrawnAnnotation,
    filtered,
    legend_html,
    sentence_spans_html,
)
from mteval_core.spans.span_lookup import SegmentSpans
from mteval_core.stats.comet_compare import NUM_SPLITS, SAMPLE_RATIO, SEED, comet_compare
from pages.ui.caching import cache_key, cached
from pages.ui.markdown_escape import escape_markdown
from pages.ui.session_spans import session_segment_spans
from pages.ui.table_display import static_table

WORDS, SPANS = "the words matched against the reference", "error spans"


@dataclass(frozen=True)
class SpanDrawing:
    """What the listed sentences draw: the annotations (by label), severities and categories."""

    lookup: SegmentSpans
    labels: Sequence[str]
    severities: Sequence[str]
    categories: Sequence[str]

    def drawn(self, system: str, line: int) -> list[DrawnAnnotation]:
        """The chosen annotations of ``system``'s translation of ``line``, their spans
        filtered."""
        return [
            (placed.label, placed.annotation, self._shown(placed.annotation.spans))
            for placed in self.lookup.of(system, line)
            if placed.label in self.labels
        ]

    def _shown(self, spans: Sequence[ErrorSpan]) -> list[ErrorSpan]:
        return filtered(spans, set(self.severities), set(self.categories))

    def sentence(
        self,
        line: int,
        systems: Sequence[str],
        reference: str,
        outputs: Sequence[str],
        source: str | None,
    ) -> str:
        """Line ``line`` (1-based) with each system's translation drawn with its spans."""
        shown = [
            (f"{name} ({side})", text, self.drawn(name, line))
            for name, side, text in zip(systems, "ab", outputs)
        ]
        return sentence_spans_html(line, reference, shown, source)


def chosen_drawing(test_set: TestSet, pair: Sequence[str]) -> SpanDrawing | None:
    """How the listed outputs are drawn: the words matched (None) or, where the session has
    span annotations of either system, their spans as chosen here."""
    lookup = session_segment_spans(test_set)
    for note in lookup.notes:
        st.caption(escape_markdown(note))
    labels = lookup.labels(pair)
    if not labels:
        return None
    how = st.radio("Draw the outputs with", [WORDS, SPANS], horizontal=True, key="compare_draw")
    if how == WORDS:
        return None
    columns = st.columns(3)
    chosen = columns[0].multiselect(
        "Annotations", labels, default=labels, key="compare_span_labels"
    )
    spans = [
        span
        for (system, _), found in lookup.placed.items()
        if system in pair
        for placed in found
        if placed.label in chosen
        for span in placed.annotation.spans
    ]
    severities = [s for s in SEVERITIES if any(span.severity == s for span in spans)]
    categories = sorted({span.category or NO_CATEGORY for span in spans})
    chosen_severities = columns[1].multiselect(
        "Severities", severities, default=severities, key="compare_span_severities"
    )
    chosen_categories = columns[2].multiselect(
        "Categories", categories, default=categories, key="compare_span_categories"
    )
    return SpanDrawing(lookup, chosen, chosen_severities, chosen_categories)


def spans_legend_and_note(drawing: SpanDrawing, pair: Sequence[str], lines: Sequence[int]) -> None:
    """The severities' colours and how many of the listed sentences have spans."""
    st.html(f"<div style='font-size:0.9em'>{legend_html()}</div>")
    with_spans = drawing.lookup.lines_with_spans(pair, lines)
    st.caption(
        f"{with_spans:,} of the {len(lines):,} listed sentences have span annotations of a or "
        "b; the others' translations are shown as plain text."
    )


def segment_level_metrics(scores: Scores) -> list[str]:
    """The metrics with a score per segment: every built-in one, an external one with them."""
    return [
        metric.name
        for metric in scores.metrics
        if not isinstance(metric, ExternalMetric) or metric.segment_level
    ]


def show_comet_compare(scores: Scores, pair: tuple[str, str]) -> None:
    """comet-compare's bootstrap and paired t-test of the pair under a chosen metric."""
    st.subheader("comet-compare: wins, ties and a paired t-test")
    metrics = segment_level_metrics(scores)
    if not metrics:
        st.info("No metric here scores single segments.")
        return
    metric = st.selectbox("Segment-level metric", metrics, key="compare_comet_metric")
    a, b = pair
    result = cached(
        cache_key("comet compare", a, b, metric),
        lambda _: comet_compare(
            {a: scores.segment_scores(a, metric), b: scores.segment_scores(b, metric)}
        )[0],
    )
    st.caption(
        f"As unbabel-comet's comet-compare: {NUM_SPLITS} splits of {SAMPLE_RATIO:.0%} of the "
        f"segments drawn with replacement (seed {SEED}); a split is a tie where the two means "
        "differ by less than 0.001; the t-test is scipy's paired ttest_rel of all segments."
    )
    frame = pd.DataFrame(
        {
            "x (a)": [result.x],
            "y (b)": [result.y],
            "x mean": [f"{result.x_mean:.4f}"],
            "y mean": [f"{result.y_mean:.4f}"],
            "ties": [f"{result.ties:.4f}"],
            "x wins": [f"{result.x_wins:.4f}"],
            "y wins": [f"{result.y_wins:.4f}"],
            "t": [f"{result.t_statistic:.4f}"],
            "p value": [f"{result.p_value:.4f}"],
        }
    )
    static_table(st, frame)
