"""The Spans page's parts: where its span files come from (pages.ui.session_spans), the
translation picked, its annotations drawn side by side (mteval_core.spans.span_html, which
escapes every piece of text), the filters, and one annotation's scores against another's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

import pandas as pd
import streamlit as st

from mteval_core.model.spans import SEVERITIES, SpanAnnotation, SpanAnnotations
from mteval_core.model.testset import TestSet
from mteval_core.spans.agreement import GroupScores
from mteval_core.spans.span_evaluation import SpanEvaluation, evaluate_spans
from mteval_core.spans.span_files import FORMATS
from mteval_core.spans.span_html import NO_CATEGORY, annotation_html, filtered, legend_html
from pages.ui.caching import cache_key, cached
from pages.ui.markdown_escape import escape_markdown
from pages.ui.session import session_mqm
from pages.ui.session_spans import (
    MQM_UPLOAD,
    SPAN_FILES,
    SpanFile,
    session_metric_spans,
    session_span_files,
)
from pages.ui.table_display import static_table

COLUMNS_PER_ROW = 3  # annotations side by side
POSITIONS = ("#1", "#2", "#3")  # an item's first, second, third annotation
UPLOAD_HINT = (
    f"Upload span files here: {FORMATS}. Two files, or one file with two annotators per "
    "translation (raters of Google's MQM), can be compared."
)
UPLOADER = "spans_uploader"


def _keep_uploads() -> None:
    """The uploader's callback: its files become the session's span files, so that Compare and
    the Bitext grid draw them too and they outlast the widget, which forgets them on leaving
    the page."""
    uploads = st.session_state.get(UPLOADER) or []
    st.session_state[SPAN_FILES] = {upload.name: upload.getvalue() for upload in uploads}


def span_sources(test_set: TestSet) -> dict[str, SpanFile]:
    """File name -> its annotations: the Data page's MQM file where the session keeps its
    bytes, the files uploaded here, and what a metric's own output marked (xCOMET)."""
    if st.session_state.get(MQM_UPLOAD) is None and session_mqm() is not None:
        st.caption(
            "The MQM file loaded on the Data page is read there for its scores; upload it here "
            "as well to see its spans."
        )
    st.file_uploader(
        "Span files",
        type=["tsv", "csv", "txt", "jsonl", "gz", "tgz", "zip", "tar"],
        accept_multiple_files=True,
        help=UPLOAD_HINT,
        key=UPLOADER,
        on_change=_keep_uploads,
    )
    kept = st.session_state.get(SPAN_FILES, {})
    if kept and not st.session_state.get(UPLOADER):
        named = ", ".join(escape_markdown(name) for name in kept)
        st.caption(f"Span files given earlier, drawn on every page: {named}.")
        if st.button("Forget them", key="spans_forget"):
            st.session_state[SPAN_FILES] = {}
            st.rerun()
    return session_span_files() | session_metric_spans(test_set)


def picked_translation(sources: dict[str, SpanFile]) -> list[tuple[str, SpanAnnotation]]:
    """The (file, annotation) pairs of the translation the user picks: a system, a segment."""
    items: dict[tuple[str, str], list[tuple[str, SpanAnnotation]]] = {}
    for name, source in sources.items():
        for annotation in source.read.annotations:
            items.setdefault(annotation.item, []).append((name, annotation))
    systems = sorted({system for system, _ in items})
    left, right = st.columns(2)
    system = left.selectbox("System", systems, key="spans_system")
    segments = [segment for s, segment in items if s == system]
    segment = right.selectbox(
        "Segment (the most annotated first)",
        sorted(segments, key=lambda seg: -len(items[(system, seg)])),
        key="spans_segment",
    )
    return items[(system, segment)]


def chosen_filters(annotations: Sequence[SpanAnnotation]) -> tuple[list[str], list[str]]:
    """The severities and categories to draw, all at first."""
    spans = [span for annotation in annotations for span in annotation.spans]
    severities = [s for s in SEVERITIES if any(span.severity == s for span in spans)]
    categories = sorted({span.category or NO_CATEGORY for span in spans})
    left, right = st.columns(2)
    chosen_severities = left.multiselect("Severities", severities, default=severities)
    chosen_categories = right.multiselect("Categories", categories, default=categories)
    return chosen_severities, chosen_categories


def show_side_by_side(
    annotations: Sequence[tuple[str, SpanAnnotation]],
    severities: Sequence[str],
    categories: Sequence[str],
) -> None:
    """Each annotation of the translation in a column of its own, its spans drawn."""
    st.html(f"<div style='font-size:0.9em'>{legend_html()}</div>")
    for start in range(0, len(annotations), COLUMNS_PER_ROW):
        row = annotations[start : start + COLUMNS_PER_ROW]
        for column, (name, annotation) in zip(st.columns(COLUMNS_PER_ROW), row):
            shown = filtered(annotation.spans, set(severities), set(categories))
            column.caption(escape_markdown(name))
            column.html(annotation_html(annotation, shown))


def _annotator_choice(label: str, read: SpanAnnotations, start: int, key: str) -> str:
    offered = [*POSITIONS, *read.annotators]
    return st.selectbox(label, offered, index=min(start, len(offered) - 1), key=key)


def chosen_comparison(sources: dict[str, SpanFile]) -> tuple[str, str, str, str]:
    """(gold file, gold annotator, predicted file, predicted annotator) as the user picks
    them: by default the first file's #1 against the last file's #1, or its own #2."""
    names = list(sources)
    columns = st.columns(4)
    with columns[0]:
        gold = st.selectbox("Gold file", names, key="spans_gold_file")
    with columns[1]:
        gold_choice = _annotator_choice("Gold annotation", sources[gold].read, 0, "spans_gold_who")
    with columns[2]:
        predicted = st.selectbox(
            "Predicted file", names, index=len(names) - 1, key="spans_predicted_file"
        )
    with columns[3]:
        start = 1 if predicted == gold else 0
        predicted_choice = _annotator_choice(
            "Predicted annotation", sources[predicted].read, start, "spans_predicted_who"
        )
    return gold, gold_choice, predicted, predicted_choice


def evaluation_of(
    sources: dict[str, SpanFile], gold: str, gold_choice: str, predicted: str, choice: str
) -> SpanEvaluation:
    """The scores of the choice, once per pair of files' contents and choices."""
    first, second = sources[gold], sources[predicted]
    return cached(
        cache_key(
            "span-scores",
            gold,
            gold_choice,
            predicted,
            choice,
            content=(first.digest, second.digest),
        ),
        lambda _: evaluate_spans(first.read, second.read, gold_choice, choice),
        "Scoring the spans",
    )


def _rows(group: GroupScores) -> dict[str, dict[str, float]]:
    return {
        "characters, micro (WMT25)": asdict(group.characters),
        "characters, macro": asdict(group.characters_macro),
        "spans exact, micro": asdict(group.exact),
        "spans exact, macro": asdict(group.exact_macro),
        "spans overlapping, micro": asdict(group.overlap),
        "spans overlapping, macro": asdict(group.overlap_macro),
    }


def show_scores(evaluation: SpanEvaluation, shown_notes: Sequence[str] = ()) -> None:
    """The scores per language pair, WMT25's mean, MQM and the detections, as tables; the
    notes of the pairing (those of the files, ``shown_notes``, are on the page already)."""
    spans = evaluation.spans
    groups = spans.groups if len(spans.groups) == 1 else (*spans.groups, spans.pooled)
    for group in groups:
        st.markdown(f"**{escape_markdown(group.name)}** ({group.items:,} translations)")
        frame = pd.DataFrame(_rows(group)).T.map(lambda value: f"{value:.4f}")
        static_table(st, frame)
    average = spans.wmt25_average
    st.markdown(
        "WMT25 task 2's figure, the mean over language pairs: "
        f"precision {average.precision:.4f}, recall {average.recall:.4f}, F1 {average.f1:.4f} "
        "(its scoring script prints this precision as avg\\_rec and this recall as avg\\_prec)."
    )
    mqm = pd.DataFrame(
        {
            side: {"Google": f"{m.google:.4f}", "GEMBA-MQM": f"{m.gemba:.4f}"}
            for side, m in evaluation.mqm.items()
        }
    ).T
    st.markdown("**MQM score from the spans** (minus the error points, mean per translation)")
    static_table(st, mqm)
    if (found := evaluation.error_free) is not None:
        st.markdown(
            f"**Error-free detection** (WMT26): precision {found.precision:.4f}, recall "
            f"{found.recall:.4f}, F1 {found.f1:.4f}, MCC {found.mcc:.4f}"
        )
    if evaluation.critical_f1 is not None:
        said = ", ".join(
            f"{escape_markdown(name)} {value:.4f}" for name, value in evaluation.critical_f1.items()
        )
        st.markdown(f"**Critical-error F1** (WMT25) of {evaluation.critical_from}: {said}")
    for note in spans.notes:
        if note not in shown_notes:
            st.caption(escape_markdown(note))
