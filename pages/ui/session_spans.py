"""Every span annotation the user gave this session, in one place: the Data page's MQM file
(its ``<v>`` marks), the span files uploaded on the Spans page, and the errors a metric's own
output marked (xCOMET's in comet-score's JSON, kept on the Data page's external metrics).

The Spans page lists them by file; Compare and the Bitext grid ask for the annotations of one
system's translation of one line (mteval_core.spans.span_lookup, which places them)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from mteval_core.errors import InputError
from mteval_core.io.uploads import single_file
from mteval_core.model.spans import SpanAnnotations
from mteval_core.model.testset import TestSet
from mteval_core.spans.span_files import read_span_file
from mteval_core.spans.span_lookup import SegmentSpans, metric_annotations, mqm_lines, segment_spans
from pages.ui.caching import cache_key, cached
from pages.ui.session import session_external_metrics

MQM_UPLOAD = "mqm_upload"  # session state: (name, bytes) of the Data page's MQM file, if kept
SPAN_FILES = "span_files"  # session state: name -> bytes of the files the Spans page was given


@dataclass(frozen=True)
class SpanFile:
    digest: str  # of its bytes (or of what a metric marked): the key of every result from it
    read: SpanAnnotations


def _unpacked_and_read(name: str, data: bytes) -> SpanAnnotations:
    shown_name, text = single_file((name, data))
    return read_span_file(text, shown_name)


def read_span_upload(name: str, data: bytes) -> SpanFile:
    """The file's spans, once per content; a .zip or .tar.gz of one file (as Google ships its
    MQM ratings) is read as that file, within the dashboard's upload limits."""
    digest = hashlib.sha256(data).hexdigest()
    read = cached(
        cache_key("span-file", name, content=digest),
        lambda _: _unpacked_and_read(name, data),
        "Reading the spans",
    )
    return SpanFile(digest, read)


def uploaded_span_files() -> dict[str, bytes]:
    """name -> bytes: the Data page's MQM file (if kept) and the Spans page's files."""
    files = {}
    if (kept := st.session_state.get(MQM_UPLOAD)) is not None:
        files[kept[0]] = kept[1]
    return files | st.session_state.get(SPAN_FILES, {})


def session_span_files() -> dict[str, SpanFile]:
    """name -> its annotations, for every span file of the session (the Spans page's list): a
    file given there that cannot be read is refused with its message."""
    found, refused = _read_span_files()
    if refused:
        raise refused[0]
    return found


def _read_span_files() -> tuple[dict[str, SpanFile], list[InputError]]:
    """The span files that can be read, and why the others cannot. The Data page's MQM file was
    given for its scores: one without spans to read (no target with <v> marks, which Google's
    files have) is simply not among them."""
    kept = st.session_state.get(MQM_UPLOAD)
    found, refused = {}, []
    for name, data in uploaded_span_files().items():
        try:
            found[name] = read_span_upload(name, data)
        except InputError as error:
            if kept is None or (name, data) != (kept[0], kept[1]):
                refused.append(error)
    return found, refused


def session_metric_spans(test_set: TestSet) -> dict[str, SpanFile]:
    """metric name -> what its own output marked, as annotations keyed by line."""
    found = {}
    for key, metric in session_external_metrics().items():  # keyed by what it was read from
        if metric.spans:
            name = metric.name
            found[name] = SpanFile(key, metric_annotations(name, metric.spans, test_set))
    return found


def session_segment_spans(test_set: TestSet) -> SegmentSpans:
    """Every annotation of the session on the test set's lines, once per content."""
    files, refused = _read_span_files()  # a file the Spans page refused: a note here
    metrics = session_metric_spans(test_set)
    digests = tuple(f"{name}:{file.digest}" for name, file in (files | metrics).items())
    mqm = st.session_state.get(MQM_UPLOAD)
    placed = cached(
        cache_key("segment spans", *digests),
        lambda _: _placed(test_set, files, metrics, mqm),
        "Placing the error spans",
    )
    unread = tuple(f"not drawn: {error}" for error in refused)
    return SegmentSpans(placed.placed, (*unread, *placed.notes)) if unread else placed


def _placed(
    test_set: TestSet,
    files: dict[str, SpanFile],
    metrics: dict[str, SpanFile],
    mqm: tuple[str, bytes] | None,
) -> SegmentSpans:
    """The lookup; the MQM file (name, bytes) is placed as its scores are, and where its
    placement refuses its segments it is drawn nowhere, with a note that says why."""
    own_lines, notes = {}, []
    if mqm is not None and mqm[0] in files:
        name, data = single_file(mqm)
        try:
            own_lines[mqm[0]] = mqm_lines(test_set, data, name)
        except InputError as error:
            files = {key: file for key, file in files.items() if key != mqm[0]}
            notes.append(f"{mqm[0]}: its spans are not drawn beside the sentences: {error}")
    every = {name: file.read for name, file in (files | metrics).items()}
    placed = segment_spans(test_set, every, own_lines)
    return SegmentSpans(placed.placed, (*notes, *placed.notes))
