"""Google's MQM error annotations as human judgments: MQM scores placed on a test set's lines.

The scores are mt-metrics-eval's (mteval_core.loss.mqm_loss.mqm_segment_scores: minus the mean
over raters of their weighted errors, higher is better). A rated segment is placed on a line of
the test set in the first of three ways that applies:

1. by ``seg_id`` (the 2020-2021 layout), a line number, or an id of the test set's
   segment_ids.tsv when one is given (what human score files do today);
2. by ``doc`` and its position there (``docSegId`` in the 2022-2024 layout, ``doc_id`` in the
   2020-2021 one), the n-th segment of that document, when the test set has documents (WMT
   XML, SGML, or segment_ids.tsv with a doc column);
3. by the source text, with the ``<v>``/``</v>`` error-span markup removed and all whitespace
   ignored, against the test set's source: files of the 2022-2024 layout carry no line
   numbers, and a plain-text test set carries no documents. A text that occurs on several lines
   is given those lines in order, one per rated segment with that text, in file order.

The first two ways go first, for every segment; the source text then places the rest on the
lines that no segment holds yet, so that a segment of a document the test set lacks never lands
on a line another one was placed on by its ids. Two segments that the ids put on one line are
refused, as is a segment that no way places, with its file and line and what to give.
A note counts the segments placed each way.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.human_read import HumanRead, keep_known_systems
from mteval_core.io.long_format import is_segment_number
from mteval_core.io.mqm_tsv import LAYOUT_2020, LAYOUTS, Layout
from mteval_core.io.system_names import file_name_aliases
from mteval_core.loss.annotations import MqmAnnotations, MqmSegment
from mteval_core.loss.mqm_loss import mqm_segment_scores, unweighted_errors
from mteval_core.model.testset import HumanScores, TestSet

CRITERION = "MQM"


@dataclass(frozen=True)
class HowToGive:
    """How a refusal names what would place the rated segments: files, in neutral words, by
    default; the command line names its flags (cli/score_inputs.py) and the API its arguments."""

    source: str = "the source file"
    segment_ids: str = "a segment-id map"


SPAN_MARKUP = re.compile(r"</?v>")


def comparable_source(text: str) -> str:
    """The source without error-span markup and without any whitespace."""
    return "".join(SPAN_MARKUP.sub("", text).split())


def mqm_human_for(
    test_set: TestSet,
    annotations: MqmAnnotations,
    *,
    segment_ids: Mapping[str, int] | None = None,
    lower_is_better: bool = False,
    how_to_give: HowToGive = HowToGive(),
) -> HumanRead:
    """The MQM scores of ``annotations`` as segment judgments of ``test_set`` (criterion MQM),
    with the reader's notes, a note on how the segments were placed, and the rows of systems
    the test set has no text for set aside (:func:`keep_known_systems`)."""
    layout = LAYOUTS[annotations.layout]
    placer = _Placer(test_set, annotations.origin, layout, segment_ids, how_to_give)
    lines = placer.place(annotations.segments)
    scores = mqm_segment_scores(annotations)
    first_line = {segment.key: segment.line for segment in annotations.segments}
    frame = _frame(scores, lines, first_line, annotations.origin)
    notes = [*annotations.notes, *placer.notes(), *_unweighted_notes(annotations)]
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


def segment_lines(
    test_set: TestSet, annotations: MqmAnnotations, segment_ids: Mapping[str, int] | None = None
) -> dict[str, int]:
    """Segment key -> its 1-based line, placed as :func:`mqm_human_for` places the scores, so
    that the file's error spans are drawn on the lines its scores are on."""
    layout = LAYOUTS[annotations.layout]
    placer = _Placer(test_set, annotations.origin, layout, segment_ids, HowToGive())
    return placer.place(annotations.segments)


def _unweighted_notes(annotations: MqmAnnotations) -> list[str]:
    """One note per severity that weighs 0 in these scores (Critical, ...): a reader who
    expected Critical errors to cost the most would otherwise never know."""
    return [
        f"{annotations.origin}: {count:,} {severity} "
        f"{'errors weigh' if count != 1 else 'error weighs'} 0 in the MQM scores, as in "
        "mt-metrics-eval's score_mqm.py, whose (Google's) weights have no key for "
        f"{severity}: Major 5, Minor 1, Minor/Fluency/Punctuation 0.1, "
        "Major/Non-translation! 25, Neutral 0 (the dashboard's Loss page starts them at 0 too, "
        "and weighs them as you choose)"
        for severity, count in unweighted_errors(annotations).items()
    ]


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
    layout: Layout
    segment_ids: Mapping[str, int] | None
    how_to_give: HowToGive

    def __post_init__(self) -> None:
        self.ways = ("seg_id", f"document and {self.layout.position}", "source text")
        self.placed = dict.fromkeys(self.ways, 0)
        self.holder: dict[int, MqmSegment] = {}  # test set line -> the segment placed there
        self.repeated = 0  # segments placed by a source text that several lines have
        self.in_documents: dict[str, list[int]] = {}
        for number, doc in enumerate(self.test_set.documents or (), start=1):
            self.in_documents.setdefault(doc, []).append(number)
        self.by_source: dict[str, list[int]] = {}
        if self.test_set.source is not None:
            for number, text in enumerate(self.test_set.source.segments, start=1):
                self.by_source.setdefault(comparable_source(text), []).append(number)

    def place(self, segments: Sequence[MqmSegment]) -> dict[str, int]:
        """Segment key -> its 1-based line: by ids first, then by source text on the lines
        left free; an InputError that says what to give for a segment nothing places."""
        lines: dict[str, int] = {}
        unplaced = []
        for segment in segments:
            way, line = self.by_ids(segment)
            if line is None:
                unplaced.append(segment)
                continue
            self.hold(line, segment)
            self.placed[way] += 1
            lines[segment.key] = line
        for segment in unplaced:  # in file order, so repeated texts take their lines in order
            line = self.by_source_text(segment)
            self.hold(line, segment)
            self.placed["source text"] += 1
            lines[segment.key] = line
        return lines

    def by_ids(self, segment: MqmSegment) -> tuple[str, int | None]:
        """The line the segment's ids name (seg_id, then document), and which way named it."""
        if self.layout.name == LAYOUT_2020 and (line := self.by_seg_id(segment)) is not None:
            return "seg_id", line
        return self.ways[1], self.by_document(segment)

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

    def by_source_text(self, segment: MqmSegment) -> int:
        """The first line with the segment's source text that no segment holds yet."""
        candidates = self.by_source.get(comparable_source(segment.source), [])
        free = next((line for line in candidates if line not in self.holder), None)
        if free is None:
            raise self.unplaceable(segment, candidates)
        self.repeated += len(candidates) > 1
        return free

    def hold(self, line: int, segment: MqmSegment) -> None:
        """Give ``line`` to ``segment``, unless the ids of another one already put it there."""
        other = self.holder.setdefault(line, segment)
        if other is not segment:
            raise InputError(
                f"the rated segment ({self.where(segment)}) falls on line {line} of the test "
                f"set, which the rated segment of line {other.line} ({self.where(other)}) "
                "already holds",
                origin=self.origin,
                line=segment.line,
                hint="Two rated segments cannot be one line of the test set: check their ids "
                "against the test set's segment ids and documents.",
            )

    def where(self, segment: MqmSegment) -> str:
        """The segment as its layout's columns name it."""
        position = f"{self.layout.position} {segment.doc_seg_id}"
        in_document = f"document {segment.doc!r}, {position}" if segment.doc_seg_id else ""
        if self.layout.name != LAYOUT_2020:
            return in_document or f"{self.layout.global_id} {segment.seg_id}"
        return ", ".join(filter(None, [f"seg_id {segment.seg_id}", in_document]))

    def unplaceable(self, segment: MqmSegment, held: Sequence[int]) -> InputError:
        if held:
            listed = ", ".join(map(str, held))
            problem = (
                f"the source text of the rated segment ({self.where(segment)}) is on line(s) "
                f"{listed} of the test set, which other rated segments hold already"
            )
            hint = (
                "Each line takes one rated segment: check that the annotations belong to this "
                "test set, and give its documents so that the segments are placed by them."
            )
            return InputError(problem, origin=self.origin, line=segment.line, hint=hint)
        if self.test_set.source is None and self.test_set.documents is None:
            give = self.how_to_give
            ids = (
                f" or {give.segment_ids} whose segment_id column holds the file's seg_id values,"
                if self.layout.name == LAYOUT_2020
                else ""
            )
            hint = (
                f"Give {give.source} too, so that rated segments are found by their source "
                f"text,{ids} or the test set's documents (WMT XML or SGML files, or "
                f"{give.segment_ids} with a doc column), which place them by doc and "
                f"{self.layout.position}."
            )
        else:
            hint = (
                "Check that the annotations belong to this test set: its documents and source "
                "do not hold this segment (its source text, <v> markup and whitespace aside)."
            )
        return InputError(
            f"the rated segment ({self.where(segment)}) is not in the test set",
            origin=self.origin,
            line=segment.line,
            hint=hint,
        )

    def notes(self) -> list[str]:
        ways = ", ".join(f"{count:,} by {way}" for way, count in self.placed.items() if count)
        notes = [f"{self.origin}: MQM segments placed on the test set's lines: {ways}"]
        if self.repeated:
            notes.append(
                f"{self.origin}: {self.repeated:,} of the segments placed by source text have a "
                "source that several lines of the test set have; each took the first of those "
                "lines that no other segment holds, in file order (the test set's documents "
                f"would place them by doc and {self.layout.position})"
            )
        return notes
