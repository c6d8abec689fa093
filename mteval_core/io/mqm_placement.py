"""Google's MQM error annotations as human judgments: MQM scores placed on a test set's lines.

The scores are mt-metrics-eval's (mteval_core.loss.mqm_loss.mqm_segment_scores: minus the mean
over raters of their weighted errors, higher is better). A rated segment is placed on a line of
the test set in the first of three ways that applies:

1. by ``seg_id`` (the 2020-2021 layout), a line number, or an id of the test set's
   segment_ids.tsv when one is given (what human score files do today);
2. by ``doc`` and ``docSegId`` (the 2022-2024 layout), the docSegId-th segment of that document,
   when the test set has documents (WMT XML, SGML, or segment_ids.tsv with a doc column);
3. by the source text, with the ``<v>``/``</v>`` error-span markup removed and all whitespace
   ignored, against the test set's source: files of the 2022-2024 layout carry no line
   numbers, and a plain-text test set carries no documents. A text that occurs on several lines
   is given those lines in order, one per rated segment with that text, in file order.

A note counts the segments placed each way. A segment that none places is refused with its
file and line and what to give.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.human_judgments import HumanRead, keep_known_systems
from mteval_core.io.long_format import is_segment_number
from mteval_core.io.mqm_tsv import LAYOUT_2020
from mteval_core.io.system_names import file_name_aliases
from mteval_core.loss.annotations import MqmAnnotations, MqmSegment
from mteval_core.loss.mqm_loss import mqm_segment_scores
from mteval_core.model.testset import HumanScores, TestSet

CRITERION = "MQM"
SPAN_MARKUP = re.compile(r"</?v>")
WAYS = ("seg_id", "document and docSegId", "source text")


def comparable_source(text: str) -> str:
    """The source without error-span markup and without any whitespace."""
    return "".join(SPAN_MARKUP.sub("", text).split())


def mqm_human_for(
    test_set: TestSet,
    annotations: MqmAnnotations,
    *,
    segment_ids: Mapping[str, int] | None = None,
    lower_is_better: bool = False,
) -> HumanRead:
    """The MQM scores of ``annotations`` as segment judgments of ``test_set`` (criterion MQM),
    with the reader's notes, a note on how the segments were placed, and the rows of systems
    the test set has no text for set aside (:func:`keep_known_systems`)."""
    placer = _Placer(test_set, annotations.origin, segment_ids)
    lines = {
        segment.key: placer.place(segment, annotations.layout) for segment in annotations.segments
    }
    scores = mqm_segment_scores(annotations)
    first_line = {segment.key: segment.line for segment in annotations.segments}
    frame = _frame(scores, lines, first_line, annotations.origin)
    notes = [*annotations.notes, placer.note()]
    if lower_is_better:
        notes.append(
            f"{annotations.origin}: MQM scores from error annotations are already higher-is-"
            "better (minus the error points); the lower-is-better choice was not applied"
        )
    known: Collection[str] = [*test_set.system_names, *test_set.reference_names]
    aliases = file_name_aliases(test_set.systems)  # a system named by its whole file name too
    read = keep_known_systems(
        HumanScores(segment_rows=frame).renamed(aliases), known, annotations.origin
    )
    return HumanRead(read.scores, (*notes, *read.notes))


def _frame(
    scores: dict[tuple[str, str], float],
    lines: dict[str, int],
    first_line: dict[str, int],
    origin: str,
):  # -> pandas.DataFrame; pandas is imported here only, as in human_judgments
    import pandas as pd

    pairs = list(scores)
    return pd.DataFrame(
        {
            "system": [system for system, _key in pairs],
            "segment": np.array([lines[key] for _system, key in pairs], dtype=np.int64),
            "score": np.array([scores[pair] for pair in pairs], dtype=np.float64),
            "criterion": CRITERION,
            "origin": origin,
            "line": np.array([first_line[key] for _system, key in pairs], dtype=np.int64),
        }
    )


@dataclass
class _Placer:
    test_set: TestSet
    origin: str
    segment_ids: Mapping[str, int] | None

    def __post_init__(self) -> None:
        self.placed = dict.fromkeys(WAYS, 0)
        self.in_documents: dict[str, list[int]] = {}
        for number, doc in enumerate(self.test_set.documents or (), start=1):
            self.in_documents.setdefault(doc, []).append(number)
        self.by_source: dict[str, list[int]] = {}
        if self.test_set.source is not None:
            for number, text in enumerate(self.test_set.source.segments, start=1):
                self.by_source.setdefault(comparable_source(text), []).append(number)

    def place(self, segment: MqmSegment, layout: str) -> int:
        """The 1-based line of ``segment``, or an InputError that says what to give."""
        for way, line in (
            ("seg_id", self.by_seg_id(segment) if layout == LAYOUT_2020 else None),
            ("document and docSegId", self.by_document(segment)),
            ("source text", self.by_source_text(segment)),
        ):
            if line is not None:
                self.placed[way] += 1
                return line
        raise self.unplaceable(segment)

    def by_seg_id(self, segment: MqmSegment) -> int | None:
        if self.segment_ids is not None:
            return self.segment_ids.get(segment.seg_id)
        if is_segment_number(segment.seg_id) and int(segment.seg_id) <= self.test_set.n_segments:
            return int(segment.seg_id)
        return None

    def by_document(self, segment: MqmSegment) -> int | None:
        in_doc = self.in_documents.get(segment.doc)
        if in_doc is None or not is_segment_number(segment.doc_seg_id):
            return None
        position = int(segment.doc_seg_id)
        return in_doc[position - 1] if 1 <= position <= len(in_doc) else None

    def by_source_text(self, segment: MqmSegment) -> int | None:
        candidates = self.by_source.get(comparable_source(segment.source))
        return candidates.pop(0) if candidates else None

    def unplaceable(self, segment: MqmSegment) -> InputError:
        if self.test_set.source is None and self.test_set.documents is None:
            hint = (
                "Give the test set's source (mteval score --source FILE, or the Data page's "
                "source), so that rated segments are found by their source text, or WMT XML "
                "files, whose documents place them by doc and docSegId."
            )
        else:
            hint = (
                "Check that the annotations belong to this test set: its documents and source "
                "do not hold this segment (its source text, <v> markup and whitespace aside)."
            )
        where = (
            f"document {segment.doc!r}, docSegId {segment.doc_seg_id}"
            if segment.doc_seg_id
            else f"seg_id {segment.seg_id}"
        )
        return InputError(
            f"the rated segment ({where}) is not in the test set",
            origin=self.origin,
            line=segment.line,
            hint=hint,
        )

    def note(self) -> str:
        ways = ", ".join(f"{count:,} by {way}" for way, count in self.placed.items() if count)
        return f"{self.origin}: MQM segments placed on the test set's lines: {ways}"
