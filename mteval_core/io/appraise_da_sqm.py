"""Appraise's DA+SQM export as WMT23 ships it (wmt-conference/wmt23-news-systems @ 107cdca,
``humaneval/DA+SQM/WMT23.scores_all.csv``), with the organisers' quality filters.

The layout is the repository's ``humaneval/DA+SQM/CSV-format.md``: no header, one rating a line,
11 fields separated by commas (never quoted: the organisers' ``scripts/rm_bad_docs.py`` splits on
``,`` and stops at a line with another number of fields):

    UserID, SystemID, SegmentID (1-based within its document), Type, SourceLanguage,
    TargetLanguage (ISO 639-3), Score (an integer 0-100), DocumentID, IsDocument? (True for a
    document-level score), StartTime, EndTime

e.g. ``engdeu0391,ONLINE-B,3,TGT,eng,deu,78,doc012,False,1690000035.000,1690000050.000``.

The filters are the ones WMT23.results.txt was computed after (``humaneval/DA+SQM/README.md``:
``cat scores_all.csv | python3 scripts/rm_bad_docs.py | grep -v ",True,"``, then Appraise's
``ComputeWMT23Results --csv-file``, AppraiseDev/Appraise @ 12103f1), in their order:

1. ``rm_bad_docs.py``: the rows come in runs, one per annotator, system and document (a run
   also ends after a document-level row); a run holding a ``BAD`` item (a quality-control
   translation the annotator should have scored low) is dropped whole;
2. ``grep -v ",True,"``: every line with a field ``True`` (the document-level scores);
3. ``ComputeWMT23Results``: the annotators given to ``--exclude-ids`` (compared in lower case),
   and items whose type is neither ``TGT`` nor ``CHK`` (``REF`` items; ``CHK`` repeats are kept
   and scored, as the command does).

Each dropped group is counted in the export's one note. A row with another number of fields, a
score that is not an integer or a segment id that is not a whole number is refused with its
file, line and field; so is a score outside 0-100 (the command would average it).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.io.decoding import read_text

FIELDS = (
    "annotator",
    "system",
    "segment",
    "item_type",
    "source_language",
    "target_language",
    "score",
    "document",
    "is_document",
    "start_time",
    "end_time",
)
SCORED_TYPES = ("TGT", "CHK")  # what ComputeWMT23Results keeps
INTEGER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: int() also takes other scripts'
WHOLE_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class DASQMRating:
    """One kept rating; ``languages`` is the pair as the file writes it, e.g. ('eng', 'deu')."""

    annotator: str
    system: str
    segment: str
    document: str
    languages: tuple[str, str]
    score: int
    item_type: str
    line: int


@dataclass(frozen=True)
class DASQMExport:
    ratings: tuple[DASQMRating, ...]
    notes: tuple[str, ...]  # what the quality filters dropped, one note per file


def read_da_sqm_exports(
    paths: Sequence[Path], excluded_annotators: Collection[str] = ()
) -> DASQMExport:
    """Every kept rating of ``paths``, in file order, and a note per file of what was dropped."""
    return da_sqm_of_bytes([(path.read_bytes(), str(path)) for path in paths], excluded_annotators)


def da_sqm_of_bytes(
    files: Sequence[tuple[bytes, str]], excluded_annotators: Collection[str] = ()
) -> DASQMExport:
    """The same from (data, origin) pairs, as the Rankings page holds its uploads."""
    excluded = {name.lower() for name in excluded_annotators}
    ratings: list[DASQMRating] = []
    notes = []
    for data, origin in files:
        kept, dropped = read_da_sqm_text(read_text(data, origin), origin, excluded)
        ratings += kept
        if dropped:
            said = ", ".join(f"{count:,} {why}" for why, count in dropped.items())
            notes.append(f"{Path(origin).name}: the quality filters dropped {said}")
    return DASQMExport(tuple(ratings), tuple(notes))


def read_da_sqm_text(
    text: str, origin: str, excluded: Collection[str] = ()
) -> tuple[list[DASQMRating], Counter]:
    """The kept ratings of one export's text and the count of rows each filter dropped."""
    dropped: Counter = Counter()
    kept: list[DASQMRating] = []
    for run in _runs(_rows(text, origin)):
        if any(fields["item_type"] == "BAD" for _, fields, _ in run):
            dropped["rows of documents with a BAD quality-control item"] += len(run)
            continue
        for number, fields, line in run:
            why = _filtered(fields, line, excluded)
            if why:
                dropped[why] += 1
            else:
                kept.append(_rating(fields, origin, number))
    return kept, dropped


def _rows(text: str, origin: str):
    """(line number, fields, line) of every non-empty line; a line of another width is refused."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        parts = line.split(",")
        if len(parts) != len(FIELDS):
            raise InputError(
                f"this row has {len(parts)} comma-separated fields, a WMT23 DA+SQM export "
                f"has {len(FIELDS)}",
                origin=origin,
                line=number,
                hint="The fields are: " + ", ".join(FIELDS) + " (no header line, no quoting).",
            )
        yield number, dict(zip(FIELDS, parts)), line


def _runs(rows):
    """rm_bad_docs.py's runs: consecutive rows of one annotator, system and document, a run
    also ending after a document-level row."""
    run: list = []
    for row in rows:
        _, fields, _ = row
        if run:
            previous = run[-1][1]
            if previous["is_document"] == "True" or _task(fields) != _task(previous):
                yield run
                run = []
        run.append(row)
    if run:
        yield run


def _task(fields: dict[str, str]) -> tuple[str, str, str]:
    return fields["annotator"], fields["system"], fields["document"]


def _filtered(fields: dict[str, str], line: str, excluded: Collection[str]) -> str | None:
    """Why the organisers' later filters drop this row (None: kept)."""
    if ",True," in line:  # grep -v ",True,", on the line as written
        return "document-level scores"
    if fields["annotator"].lower() in excluded:
        return "ratings of excluded annotators"
    if fields["item_type"] not in SCORED_TYPES:
        return "items neither TGT nor CHK (e.g. REF)"
    return None


def _rating(fields: dict[str, str], origin: str, line: int) -> DASQMRating:
    text = fields["score"]
    if not INTEGER.fullmatch(text.strip()) or not 0 <= int(text) <= 100:
        raise InputError(
            f"the score {text!r} is not an integer from 0 to 100",
            origin=origin,
            line=line,
            column="Score (7th field)",
            hint="DA+SQM scores are integers from 0 to 100 (the slider's positions).",
        )
    if not WHOLE_NUMBER.fullmatch(fields["segment"]):
        raise InputError(
            f"the segment id {fields['segment']!r} is not a whole number",
            origin=origin,
            line=line,
            column="SegmentID (3rd field)",
            hint="Give the export as Appraise writes it.",
        )
    return DASQMRating(
        fields["annotator"],
        fields["system"],
        fields["segment"],
        fields["document"],
        (fields["source_language"], fields["target_language"]),
        int(text),
        fields["item_type"],
        line,
    )
