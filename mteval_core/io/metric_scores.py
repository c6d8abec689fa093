"""Metric scores computed elsewhere (COMET, MetricX, ...), read as an :class:`ExternalMetric`.

Three layouts, told apart by content (a header line naming a ``system`` column) and, for the
headerless one, by the file name:

* CSV or TSV with the columns ``system, segment_id, score`` (or segment, seg_id, seg): segment
  scores. Segment ids are those of human judgments (see :mod:`mteval_core.io.human_judgments`):
  1-based line numbers, ``docid::n`` for the n-th segment of a document, or the test set's own
  ids from segment_ids.tsv. A segment without a row is unscored; a system's score is the mean
  over its scored segments.
* CSV or TSV with the columns ``system, score``: system scores only, so nothing that needs
  segments (bootstrap, segment-level correlation) is defined for the metric.
* mt-metrics-eval's score files, without a header: ``NAME-REF.seg.score`` has one
  ``system<TAB>score`` line per segment for every system, in segment order, and
  ``NAME-REF.sys.score`` one such line per system. Without either name, a file with one line per
  system is read as system scores, any other as segment scores.

The user names the metric and says which direction is better: neither can be guessed from the
numbers. Scores for systems that the test set lacks (references rated as systems, as
mt-metrics-eval ships them, or systems not loaded) are set aside with a note; a system of the test
set without scores is refused, and so is every score that is not a finite number.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePath

import numpy as np

from mteval_core.errors import InputError, listed_names
from mteval_core.io.decoding import decode, read_bytes, refuse_lone_cr, refuse_nul, split_lines
from mteval_core.io.delimited import Row, pick_column, read_table
from mteval_core.io.human_judgments import SegmentResolver
from mteval_core.io.long_format import SEGMENT_KEYS
from mteval_core.io.neural_outputs import read_tool_output
from mteval_core.io.numbers import meant_as_number, parse_number, read_number
from mteval_core.io.system_names import file_name_aliases
from mteval_core.metrics.external import ExternalMetric, check_metric_name
from mteval_core.model.metric_signature import MetricSignature
from mteval_core.model.testset import TestSet

# how read_score_lines splits a line, for every hint that describes one
SCORE_LINE = "the system, a tab and the score (or a space, in a line without a tab)"
LAYOUT_HINT = (
    "Give a CSV or TSV with a header (system, segment_id, score for segment scores; system, "
    "score for system scores), or mt-metrics-eval's NAME-REF.seg.score / NAME-REF.sys.score "
    f"with one line per score: {SCORE_LINE}; or a metric's own output (comet-score's JSON, "
    "MetricX's predictions, pymarian-eval's or gemba's scores or GEMBA-MQM's error lists of "
    "one system)."
)
SCORE_HINT = "Every score must be a finite number, e.g. 0.8125."
SEGMENT_FILE_HINT = (
    "A .seg.score file has one line per segment for every system, in the test set's segment "
    f"order: {SCORE_LINE}."
)
DIRECTIONS = {"higher": True, "lower": False}


@dataclass(frozen=True)
class ScoreLine:
    """One score of a file: mt-metrics-eval's human files say ``None`` for an unrated segment,
    which is kept as ``value=None`` (its place still counts), never as a number."""

    system: str
    value: float | None
    line: int
    segment: int | None  # 1-based position in the test set; None for a system score


def read_metric_scores_file(
    path: str | Path,
    test_set: TestSet,
    *,
    name: str,
    higher_is_better: bool | None,
    segment_ids: Mapping[str, int] | None = None,
    signature: MetricSignature | None = None,
) -> ExternalMetric:
    """:func:`read_metric_scores` of a file on disk."""
    return read_metric_files(
        [(read_bytes(path), str(path))],
        test_set,
        name=name,
        higher_is_better=higher_is_better,
        segment_ids=segment_ids,
        signature=signature,
    )


def read_metric_scores(
    data: bytes,
    origin: str,
    test_set: TestSet,
    *,
    name: str,
    higher_is_better: bool | None,
    segment_ids: Mapping[str, int] | None = None,
    signature: MetricSignature | None = None,
) -> ExternalMetric:
    """The scores in ``data`` as a metric named ``name`` over ``test_set``'s systems.

    ``higher_is_better`` must be given (None is refused, with what to do), unless the file is a
    tool's output that says it (:mod:`mteval_core.io.neural_outputs`). ``segment_ids`` maps
    the test set's own segment ids to 1-based line numbers (segment_ids.tsv); without it a
    numeric segment id is the line number. The metric's ``notes`` say what was set aside.
    """
    return read_metric_files(
        [(data, origin)],
        test_set,
        name=name,
        higher_is_better=higher_is_better,
        segment_ids=segment_ids,
        signature=signature,
    )


def read_metric_files(
    files: Sequence[tuple[bytes, str]],
    test_set: TestSet,
    *,
    name: str,
    higher_is_better: bool | None,
    segment_ids: Mapping[str, int] | None = None,
    signature: MetricSignature | None = None,
) -> ExternalMetric:
    """One metric from one or more files (data, origin), e.g. one tool output per system:
    their scores together, no (system, segment) scored twice. ``signature`` gives what the files
    do not say (model, version, ...); files of one metric that say different things are read,
    with a note naming each difference."""
    check_metric_name(name, files[0][1] if files else None)
    given = signature or MetricSignature()
    reads = [_read_file(data, origin, test_set, segment_ids, name) for data, origin in files]
    higher_is_better = _direction(higher_is_better, reads, name)
    scores = _joined_scores(reads, name)
    notes = [note for read in reads for note in read.notes]
    signatures = [read.signature.filled_from(given) for read in reads]
    notes += _signature_notes(name, reads, signatures, given)
    spans = {key: value for read in reads for key, value in read.spans.items()}
    about = {"signature": signatures[0], "spans": spans}
    origin = ", ".join(read.origin for read in reads)
    return _metric(scores, origin, test_set, name, higher_is_better, notes, about)


@dataclass(frozen=True)
class _FileRead:
    origin: str
    scores: list[ScoreLine]
    direction: str | None  # what the tool's file says, else None
    signature: MetricSignature
    spans: dict
    notes: tuple[str, ...]


def _read_file(
    data: bytes,
    origin: str,
    test_set: TestSet,
    segment_ids: Mapping[str, int] | None,
    name: str,
) -> _FileRead:
    text = decode(data, origin)
    tool = read_tool_output(text, origin, test_set, name)
    if tool is not None:
        scores = [ScoreLine(*score) for score in tool.scores]
        return _FileRead(
            origin, scores, tool.signature.direction, tool.signature, tool.spans, tool.notes
        )
    if _has_header(text, origin):
        scores = _read_table(text, origin, test_set, segment_ids)
    else:
        scores = read_score_lines(text, origin, test_set.n_segments)
    return _FileRead(origin, scores, None, MetricSignature(), {}, ())


def _joined_scores(reads: Sequence[_FileRead], name: str) -> list[ScoreLine]:
    """The scores of every file, refused where two give one (system, segment), or where some
    are segment scores and others system scores."""
    scores: list[ScoreLine] = []
    first_read: dict[tuple[str, int | None], int] = {}  # (system, segment) -> index of its file
    for index, read in enumerate(reads):
        for score in read.scores:
            key = (score.system, score.segment)
            if key in first_read:
                what = f"segment {score.segment:,}" if score.segment else "the system score"
                earlier = reads[first_read[key]].origin
                where = "earlier in this file" if first_read[key] == index else f"in {earlier}"
                raise InputError(
                    f"{what} of {score.system!r} is scored here and {where}",
                    origin=read.origin,
                    line=score.line,
                    hint="Give each system's scores of one metric once.",
                )
            first_read[key] = index
        scores += read.scores
    if len({score.segment is None for score in scores}) > 1:
        raise InputError(
            f"the files of metric {name!r} give segment scores and system scores",
            origin=", ".join(read.origin for read in reads),
            hint="Give one metric's scores at one level: segment scores for every system, or "
            "system scores for every system.",
        )
    return scores


def _direction(higher_is_better: bool | None, reads: Sequence[_FileRead], name: str) -> bool:
    """The direction given, else the one the files' tools say; refused where a file says the
    other, or where neither is known."""
    for read in reads:
        if read.direction is None:
            continue
        said = read.direction == "higher"
        if higher_is_better is not None and said != higher_is_better:
            given = "higher" if higher_is_better else "lower"
            raise InputError(
                f"{given} scores of metric {name!r} were said to be better, but this file's "
                f"tool gives scores where {read.direction} is better",
                origin=read.origin,
                hint=f"Give {read.direction}, or leave the direction out for this file.",
            )
        higher_is_better = said
    check_direction(higher_is_better, name, reads[0].origin if reads else None)
    assert higher_is_better is not None
    return higher_is_better


def _signature_notes(
    name: str,
    reads: Sequence[_FileRead],
    signatures: Sequence[MetricSignature],
    given: MetricSignature,
) -> list[str]:
    """A warning for every file whose signature differs from the first file's, and for every
    field a file states otherwise than the options did."""
    notes = []
    for read in reads:
        stated = read.signature.differences(given)
        if stated:
            notes.append(
                f"warning: {read.origin} says other than was given for metric {name}: "
                + "; ".join(stated)
                + " (the file's are kept)"
            )
    for read, signature in zip(reads[1:], signatures[1:], strict=True):
        differ = signatures[0].differences(signature)
        if differ:
            notes.append(
                f"warning: the files of metric {name} were not produced alike, so their "
                f"scores may not be comparable: {reads[0].origin} vs {read.origin}: "
                + "; ".join(differ)
            )
    return notes


def parse_direction(text: str | None, name: str) -> bool:
    """'higher' -> True, 'lower' -> False (also 'higher-is-better', any case), for the command
    line and the dashboard; anything else, or nothing, is refused."""
    word = (text or "").strip().lower().replace("_", "-").removesuffix("-is-better")
    if word not in DIRECTIONS:
        raise InputError(
            f"say whether higher or lower scores of metric {name!r} are better"
            + (f" ({text!r} is neither)" if text and text.strip() else ""),
            hint="Give 'higher' (COMET, chrF, BLEU) or 'lower' (MetricX, TER, error counts).",
        )
    return DIRECTIONS[word]


# the hint of a missing direction, which the command line and the pages phrase their own way
SAY_THE_DIRECTION = (
    "Say whether higher scores are better (COMET, chrF) or lower ones (MetricX, TER): the "
    "numbers cannot tell."
)


def check_direction(higher_is_better: bool | None, name: str, origin: str | None = None) -> None:
    """Refuse scores without a direction: the numbers cannot tell which way is better."""
    if not isinstance(higher_is_better, bool):
        raise InputError(
            f"the direction of metric {name!r} was not given",
            origin=origin,
            hint=SAY_THE_DIRECTION,
        )


# ---------------------------------------------------------------------- layouts
def _has_header(text: str, origin: str) -> bool:
    """A first line that names a 'system' column and holds no number (a system's line does)."""
    first = next((line for line in split_lines(text) if line.strip()), None)
    if first is None:
        raise InputError("the file is empty", origin=origin, hint=LAYOUT_HINT)
    if "\t" in first:
        cells = first.split("\t")
    else:
        try:
            cells = next(csv.reader([first]))
        except csv.Error:
            return False
    names = [cell.strip().lower() for cell in cells]
    return "system" in names and all(parse_number(cell) is None for cell in cells)


def _read_table(
    text: str, origin: str, test_set: TestSet, segment_ids: Mapping[str, int] | None
) -> list[ScoreLine]:
    table = read_table(text, origin)
    if not table.rows:
        raise InputError(
            "there are no scores, only a header", origin=origin, hint="Add one row per score."
        )
    columns = {column.lower(): column for column in table.header}
    if "score" not in columns:
        raise InputError(
            "there is no 'score' column",
            origin=origin,
            line=table.header_line,
            hint="Name the column with the metric's scores 'score'.",
        )
    system, score = columns["system"], columns["score"]
    segment = pick_column(columns, SEGMENT_KEYS, origin, table.header_line)
    resolve = SegmentResolver(test_set.documents, segment_ids, origin)
    scores, first_line = [], {}
    for row in table.rows:
        name = row.cells[system].strip()
        if not name:
            raise InputError(
                "the system name is empty", origin=origin, line=row.line, column=system
            )
        position = None
        if segment is not None:
            position = resolve(row, segment)
            _check_segment(position, test_set.n_segments, row, segment, origin)
        key = (name, position)
        if key in first_line:
            what = f"segment {row.cells[segment].strip()}" if segment else "the system"
            raise InputError(
                f"a second score of {name!r} for {what} (the first is on line {first_line[key]})",
                origin=origin,
                line=row.line,
                hint="Give one score per system"
                + (" and segment" if segment else "")
                + "; remove the duplicate row.",
            )
        first_line[key] = row.line
        value = read_number(
            row.cells[score], origin=origin, line=row.line, column=score, hint=SCORE_HINT
        )
        scores.append(ScoreLine(name, value, row.line, position))
    return scores


def _check_segment(position: int, n_segments: int, row: Row, column: str, origin: str) -> None:
    if not 1 <= position <= n_segments:
        raise InputError(
            f"segment {position} is not in the test set (it has {n_segments:,} segments, "
            "numbered from 1)",
            origin=origin,
            line=row.line,
            column=column,
            hint="Segment ids are 1-based line numbers, docid::n, or the ids of "
            "segment_ids.tsv; check that the scores belong to this test set.",
        )


def read_score_lines(
    text: str, origin: str, n_segments: int, *, unrated: bool = False
) -> list[ScoreLine]:
    """mt-metrics-eval's headerless 'system<TAB>score' lines (whitespace-separated, as it reads
    them, when a line has no tab), at the level the file name says (or the line counts suggest).

    ``unrated`` lets a score be ``None`` (mt-metrics-eval's human files mark unrated segments so;
    its metric files may not), which keeps its place in the system's block of segments.
    """
    refuse_nul(text, origin)
    refuse_lone_cr(text, origin)
    records: list[tuple[str, float | None, int]] = []
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        if len(fields) != 2:
            raise InputError(
                f"expected two values, a system and a score, but found {len(fields)}",
                origin=origin,
                line=number,
                hint=LAYOUT_HINT,
            )
        system = fields[0].strip()
        if not system:
            raise InputError("the system name is empty", origin=origin, line=number, column=1)
        if unrated and fields[1].strip() == "None":
            records.append((system, None, number))
            continue
        if not records and not meant_as_number(fields[1]):  # a header, but without 'system'
            raise InputError(
                "the first line is neither a header with a 'system' column nor a line of a "
                "system and its score",
                origin=origin,
                line=number,
                hint=LAYOUT_HINT,
            )
        value = read_number(fields[1], origin=origin, line=number, column=2, hint=SCORE_HINT)
        records.append((system, value, number))
    if not records:
        raise InputError("the file is empty", origin=origin, hint=LAYOUT_HINT)
    counts: dict[str, int] = {}
    for system, _, _ in records:
        counts[system] = counts.get(system, 0) + 1
    level = _level_from_name(origin)
    if level is None:
        one_each = all(count == 1 for count in counts.values())
        level = "system" if one_each and n_segments > 1 else "segment"
    if level == "system":
        return _system_lines(records, origin)
    return _segment_lines(records, counts, origin, n_segments)


def _level_from_name(origin: str) -> str | None:
    """'segment' or 'system' from mt-metrics-eval's NAME-REF.LEVEL.score, else None."""
    parts = PurePath(origin).name.lower().split(".")
    if len(parts) < 3 or parts[-1] != "score":
        return None
    level = parts[-2]
    if level in ("doc", "domain"):
        kind = {"doc": "document", "domain": "domain"}[level]
        raise InputError(
            f"{kind}-level scores cannot be read (only segment and system scores)",
            origin=origin,
            hint="Give the .seg.score or the .sys.score file of the metric.",
        )
    return {"seg": "segment", "sys": "system"}.get(level)


def _system_lines(records: list[tuple[str, float | None, int]], origin: str) -> list[ScoreLine]:
    first_line: dict[str, int] = {}
    for system, _, line in records:
        if system in first_line:
            raise InputError(
                f"a second score for system {system!r} (the first is on line {first_line[system]})",
                origin=origin,
                line=line,
                hint="A .sys.score file has one line per system; is it a .seg.score file?",
            )
        first_line[system] = line
    return [ScoreLine(system, value, line, None) for system, value, line in records]


def _segment_lines(
    records: list[tuple[str, float | None, int]],
    counts: dict[str, int],
    origin: str,
    n_segments: int,
) -> list[ScoreLine]:
    """The n-th line of a system scores its n-th segment; every system needs n_segments."""
    seen: dict[str, int] = {}
    scores = []
    for system, value, line in records:
        position = seen.get(system, 0) + 1
        if position > n_segments:
            raise InputError(
                f"system {system!r} has {_scores(counts[system])}, but the test set has "
                f"{n_segments:,} segments (this is its score number {position:,})",
                origin=origin,
                line=line,
                hint=SEGMENT_FILE_HINT,
            )
        seen[system] = position
        scores.append(ScoreLine(system, value, line, position))
    for system, count in seen.items():
        if count < n_segments:
            last = max(score.line for score in scores if score.system == system)
            raise InputError(
                f"system {system!r} has {_scores(count)}, but the test set has "
                f"{n_segments:,} segments (this is its last score)",
                origin=origin,
                line=last,
                hint=SEGMENT_FILE_HINT,
            )
    return scores


# ---------------------------------------------------------------------- the metric
def _metric(
    scores: list[ScoreLine],
    origin: str,
    test_set: TestSet,
    name: str,
    higher_is_better: bool,
    read_notes: Sequence[str] = (),
    about: Mapping[str, object] | None = None,
) -> ExternalMetric:
    """Keep the test set's systems (refusing one without scores), set the others aside. A
    system may be named by its whole file name too (:mod:`mteval_core.io.system_names`)."""
    scores = _renamed(scores, test_set)
    in_file = list(dict.fromkeys(score.system for score in scores))
    known = test_set.system_names
    missing = [system for system in known if system not in set(in_file)]
    if missing:
        raise InputError(
            f"there are no scores for {_systems(missing)} of the test set",
            origin=origin,
            hint=f"The file scores {_systems(in_file)}. Score every system of the test set "
            "(names must match exactly), or leave these systems out of the test set.",
        )
    notes = list(read_notes)
    extra = [system for system in in_file if system not in set(known)]
    if extra:
        notes.append(
            f"{origin}: the scores of {_systems(extra)}, which the test set does not have, "
            "were set aside"
        )
    kept = [score for score in scores if score.system in set(known)]
    n = test_set.n_segments
    common = {
        "higher_is_better": higher_is_better,
        "origin": origin,
        "n_segments": n,
        **(about or {}),
    }
    if scores[0].segment is None:
        system_scores = {score.system: score.value for score in kept}
        return ExternalMetric(
            name, system_scores={s: system_scores[s] for s in known}, notes=notes, **common
        )
    statistics = {system: np.zeros((n, 2)) for system in known}
    for score in kept:
        assert score.segment is not None
        statistics[score.system][score.segment - 1] = (score.value, 1.0)
    partial = [
        f"{system} ({int(stats[:, 1].sum()):,} scored)"
        for system, stats in statistics.items()
        if stats[:, 1].sum() < n
    ]
    if partial:
        notes.append(
            f"{origin}: {name} scores only some of the {n:,} segments of {listed_names(partial)}; "
            "a system's score is the mean over its scored segments, and an unscored segment has "
            "no score (null, or an empty cell) in segment and document tables"
        )
    return ExternalMetric(name, statistics=statistics, notes=notes, **common)


def _renamed(scores: list[ScoreLine], test_set: TestSet) -> list[ScoreLine]:
    """The scores with each system named as the test set names it (a score may name it by its
    whole file name); replace() only where a name changes: it is slow, and files hold millions."""
    aliases = file_name_aliases(test_set.systems)
    return [
        replace(score, system=aliases[score.system]) if score.system in aliases else score
        for score in scores
    ]


def _scores(count: int) -> str:
    """'1 score' / '2,000 scores'."""
    return f"{count:,} score" if count == 1 else f"{count:,} scores"


def _systems(names: Sequence[str]) -> str:
    """'system A' / 'systems A, B and 3 more'."""
    return f"{'system' if len(names) == 1 else 'systems'} {listed_names(names)}"
