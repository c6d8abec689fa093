"""Appraise's ESA exports as WMT24 ships them (wmt-conference/wmt24-news-systems,
``humeval/esa_generalMT2024_wave*.csv``), and the ``txt/documents/<LP>.docs`` files that give
each segment's domain.

An export is a CSV file without a header, one row per rating, twelve fields: annotator, system,
segment id, item type, source and target language (ISO 639-3), score, document id, a flag,
error spans, start and end time. The WMT24 organisers' quality filters (``humeval/tools.py``
``load_data`` at bfa937e) are applied and counted in a note: only ``TGT`` items (the others are
attention checks), no tutorial systems, no ``#incomplete`` or ``#dup`` documents (fillers of an
annotator's account), no canary; where one annotator rated one item again, the latest rating (by
end time) is the one kept, and the re-ratings dropped are counted too. Error spans are kept as
the file writes them (a JSON-like list) for the span views.

A ``.docs`` file has one line per segment, ``domain<TAB>document``, its first line the canary:
segment ``i`` of the export is the file's line ``i`` counted from 0 (the organisers' code
subtracts one for the canary and ``attach_resources`` adds it back); a rating whose document is
not the one the line names is refused.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
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
    "flag",
    "error_spans",
    "start_time",
    "end_time",
)
# Appraise's ISO 639-3 codes -> the codes WMT24 names its pairs with (tools.py's table).
LANGUAGE_CODES = {
    "eng": "en",
    "ces": "cs",
    "hin": "hi",
    "zho": "zh",
    "jpn": "ja",
    "rus": "ru",
    "ukr": "uk",
    "deu": "de",
    "isl": "is",
    "spa": "es",
}


@dataclass(frozen=True)
class ESARating:
    """One kept rating: ``wave`` is the file it came from (ratings of two waves stay apart)."""

    annotator: str
    system: str
    segment: str
    language_pair: str
    score: float
    document: str
    error_spans: str
    end_time: str
    wave: str
    line: int


@dataclass(frozen=True)
class ESAExport:
    ratings: tuple[ESARating, ...]
    notes: tuple[str, ...]  # what the quality filters dropped, per file


def read_esa_exports(paths: list[Path]) -> ESAExport:
    """Every kept rating of ``paths`` (Appraise ESA CSV exports), in file order."""
    return esa_exports_of([(path.name, str(path), path.read_bytes()) for path in paths])


def esa_exports_of(files: Sequence[tuple[str, str, bytes]]) -> ESAExport:
    """The same from files already read (the dashboard's uploads): (file name, how a message
    names the file, its bytes)."""
    ratings: list[ESARating] = []
    notes = []
    for name, origin, data in files:
        kept, dropped = _read_export(data, origin, name)
        ratings += kept
        if dropped:
            said = ", ".join(f"{count:,} {why}" for why, count in dropped.items())
            notes.append(f"{name}: the quality filters dropped {said}")
    return ESAExport(tuple(ratings), tuple(notes))


def read_esa_export(data: bytes, origin: str) -> ESAExport:
    """One export given as bytes (an upload), filtered as ``read_esa_exports`` filters."""
    kept, dropped = _read_export(data, origin, origin)
    said = ", ".join(f"{count:,} {why}" for why, count in dropped.items())
    return ESAExport(
        tuple(kept), (f"{origin}: the quality filters dropped {said}",) if said else ()
    )


def _read_export(data: bytes, origin: str, wave: str) -> tuple[list[ESARating], Counter]:
    dropped: Counter = Counter()
    latest: dict[tuple[str, ...], ESARating] = {}
    reader = csv.reader(io.StringIO(read_text(data, origin), newline=""))
    for number, row in enumerate(reader, start=1):
        if not row:
            continue
        if len(row) != len(FIELDS):
            raise InputError(
                f"this row has {len(row)} fields, an Appraise ESA export has {len(FIELDS)}",
                origin=origin,
                line=number,
                hint="The fields are: " + ", ".join(FIELDS) + " (no header line).",
            )
        fields = dict(zip(FIELDS, row))
        why = _filtered(fields)
        if why:
            dropped[why] += 1
            continue
        rating = _rating(fields, origin, number, wave)
        key = (
            rating.annotator,
            rating.system,
            rating.document,
            rating.segment,
            rating.language_pair,
        )
        if key in latest:
            dropped["earlier ratings of an item its annotator rated again"] += 1
            if rating.end_time < latest[key].end_time:  # times compared as written, as pandas did
                continue
        latest[key] = rating
    return sorted(latest.values(), key=lambda r: r.line), dropped


def _filtered(fields: dict[str, str]) -> str | None:
    """Why the organisers' filters drop this row (None: kept)."""
    if fields["item_type"] != "TGT":
        return "attention-check items (not TGT)"
    if "tutorial" in fields["system"]:
        return "tutorial ratings"
    if "#incomplete" in fields["document"]:
        return "#incomplete documents"
    if "#dup" in fields["document"]:
        return "#dup documents"
    if fields["document"] == "canary":
        return "canary ratings"
    return None


def _rating(fields: dict[str, str], origin: str, line: int, wave: str) -> ESARating:
    try:
        score = float(fields["score"])
    except ValueError:
        raise InputError(
            f"the score {fields['score']!r} is not a number",
            origin=origin,
            line=line,
            column="score (7th field)",
            hint="ESA scores are numbers from 0 to 100.",
        ) from None
    if not fields["segment"].isdigit():
        raise InputError(
            f"the segment id {fields['segment']!r} is not a whole number",
            origin=origin,
            line=line,
            column="segment (3rd field)",
            hint="Give the export as Appraise writes it.",
        )
    source, target = (
        LANGUAGE_CODES.get(fields[k], fields[k]) for k in ("source_language", "target_language")
    )
    return ESARating(
        fields["annotator"],
        fields["system"],
        fields["segment"],
        f"{source}-{target}",
        score,
        fields["document"],
        fields["error_spans"],
        fields["end_time"],
        wave,
        line,
    )


def read_documents(path: Path) -> tuple[str, list[tuple[str, str]]]:
    """The language pair a ``<LP>.docs`` file is named after, and its (domain, document) lines."""
    return documents_of(path.name, str(path), path.read_bytes())


def documents_of(name: str, origin: str, data: bytes) -> tuple[str, list[tuple[str, str]]]:
    """The same from the file's bytes: ``name`` is the file's name (``<LP>.docs``)."""
    pair = name.removesuffix(".docs")
    lines = []
    for number, line in enumerate(read_text(data, origin).splitlines(), 1):
        parts = line.split("\t")
        if len(parts) != 2:
            raise InputError(
                "this line is not domain<TAB>document",
                origin=origin,
                line=number,
                hint="Give WMT24's txt/documents/<LP>.docs: one line per segment.",
            )
        lines.append((parts[0], parts[1]))
    return pair, lines
