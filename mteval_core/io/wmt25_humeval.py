"""WMT25's human-evaluation JSON Lines (wmt-conference/wmt25-general-mt,
``data/wmt25-genmt-humeval.jsonl`` and its ``-noyoutube`` copy), and the annotation records
every raw human-annotation reader of the WMT25 protocol gives (Pearmut's reader gives them too).

One line per segment (a paragraph of a document), as ``humeval/05-collect_humeval.py`` writes it
and ``humeval/08-compute_clusters.py`` (@ e0cb47f2b289b1615f2eec0d790befac681443e9) reads it:

    {"doc_id": "en-cs_CZ_#_news_#_<document>_#_<paragraph>",   # pair, domain, document, index
     "src_text": "...", "tgt_text": {"<system>": "...", ...},
     "scores": {"<system>": [{"score": 78.0, "errors": [...], "annotator": "...",
                              "times": [start, end]},          # wave 1
                             {"score": NaN, ...}]}}             # wave 2 (NaN: not annotated)

Each ``errors`` entry is an Appraise ESA error span ``{"start_i": 8, "end_i": 11, "severity":
"minor"}`` (character offsets into the system's text as Appraise counts them; the collector pops
Appraise's ``error_type``; a ``category`` or ``error_type`` still present is kept). The earlier
layout of the same file (05-collect_humeval.py @ 65c721c, read by 07-compute_clusters.py @
06b531a) writes each system's waves as keys instead: ``{"human1": 78.0, "errors1": [...],
"annotator1": "...", "times1": [...], "human2": ...}``, a wave without its key not annotated.
Both are read, a system's entries in either shape.

What the reader drops, counted in one note per file: lines with no scores (the organisers'
``11-tab_domain_difficulty.py`` drops them too) and wave entries whose score is NaN or null (not
annotated: the organisers' code skips NaN). Everything else that is not as above is refused with
the file, the line and what is wrong.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.io.decoding import read_text, split_lines
from mteval_core.model.spans import ErrorSpan

DOC_ID_SEPARATOR = "_#_"
LAYOUT_HINT = (
    "Give WMT25's data/wmt25-genmt-humeval.jsonl as the organisers wrote it: one object per line "
    'with "doc_id" (pair_#_domain_#_document_#_paragraph) and "scores" '
    '({system: [wave 1, wave 2]}, each wave {"score": ..., "errors": [...], "annotator": ...}).'
)


@dataclass(frozen=True)
class HumanAnnotation:
    """One annotator's score of one system's segment in one wave (1-based), with its spans."""

    language_pair: str
    domain: str
    item: str  # the segment's id (WMT25's doc_id): the same segment in every system and wave
    system: str
    wave: int
    score: float
    annotator: str
    spans: tuple[ErrorSpan, ...]
    origin: str
    line: int


@dataclass(frozen=True)
class HumanAnnotations:
    annotations: tuple[HumanAnnotation, ...]
    notes: tuple[str, ...]  # what the readers' filters dropped, one per file


def read_wmt25_humeval(paths: list[Path]) -> HumanAnnotations:
    """Every annotated wave entry of ``paths`` (WMT25 humeval JSON Lines), in file order."""
    return humeval_of_bytes([(path.read_bytes(), str(path)) for path in paths])


def humeval_of_bytes(files: Sequence[tuple[bytes, str]]) -> HumanAnnotations:
    """The same from (data, origin) pairs, as the Rankings page holds its uploads; each note
    names the file by the last part of its origin."""
    annotations: list[HumanAnnotation] = []
    notes = []
    for data, origin in files:
        kept, dropped = read_humeval_lines(data, origin)
        annotations += kept
        if dropped:
            said = ", ".join(f"{count:,} {why}" for why, count in dropped.items())
            notes.append(f"{Path(origin).name}: the reader dropped {said}")
    return HumanAnnotations(tuple(annotations), tuple(notes))


def json_lines(data: bytes, origin: str, hint: str) -> list[tuple[int, dict]]:
    """Each non-blank line's JSON object with its 1-based number (``NaN`` is read, as Python's
    json module writes it)."""
    objects = []
    for number, line in enumerate(split_lines(read_text(data, origin)), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as error:  # ValueError: an integer of 4,300+ digits
            reason = (
                error.msg
                if isinstance(error, json.JSONDecodeError)
                else "nested too deeply"
                if isinstance(error, RecursionError)
                else "a number with too many digits"
            )
            raise InputError(
                f"this line is not valid JSON ({reason})", origin=origin, line=number, hint=hint
            ) from None
        if not isinstance(value, dict):
            raise InputError(
                "this line is JSON but not an object ({...})",
                origin=origin,
                line=number,
                hint=hint,
            )
        objects.append((number, value))
    return objects


def read_humeval_lines(data: bytes, origin: str) -> tuple[list[HumanAnnotation], Counter]:
    annotations: list[HumanAnnotation] = []
    dropped: Counter = Counter()
    for number, record in json_lines(data, origin, LAYOUT_HINT):
        pair, domain = _pair_and_domain(record.get("doc_id"), origin, number)
        scores = record.get("scores")
        if not isinstance(scores, dict):
            raise InputError(
                'this line has no "scores" object', origin=origin, line=number, hint=LAYOUT_HINT
            )
        if not scores:
            dropped["lines with no scores"] += 1
            continue
        for system, entries in scores.items():
            for wave, entry in _waves(entries, system, origin, number):
                score = _score(entry.get("score"), system, wave, origin, number)
                if score is None:
                    dropped["wave entries not annotated (score NaN or null)"] += 1
                    continue
                annotations.append(
                    HumanAnnotation(
                        pair,
                        domain,
                        record["doc_id"],
                        system,
                        wave,
                        score,
                        _annotator(entry.get("annotator"), origin, number),
                        error_spans(entry.get("errors"), origin, number),
                        origin,
                        number,
                    )
                )
    return annotations, dropped


def _pair_and_domain(doc_id: object, origin: str, line: int) -> tuple[str, str]:
    parts = doc_id.split(DOC_ID_SEPARATOR) if isinstance(doc_id, str) else []
    if len(parts) < 2 or not parts[0] or not parts[1]:
        raise InputError(
            f"the doc_id {doc_id!r} is not pair_#_domain_#_document_#_paragraph",
            origin=origin,
            line=line,
            column="doc_id",
            hint=LAYOUT_HINT,
        )
    return parts[0], parts[1]


def _waves(entries: object, system: str, origin: str, line: int) -> list[tuple[int, dict]]:
    """(1-based wave, entry) of one system: a list of waves (08-compute_clusters.py's layout) or
    one object with ``human1``, ``human2``... (05-collect_humeval.py's)."""
    if isinstance(entries, list) and all(isinstance(e, dict) for e in entries):
        return [(wave, entry) for wave, entry in enumerate(entries, start=1)]
    if isinstance(entries, dict):
        waves = sorted(
            int(key[5:]) for key in entries if key.startswith("human") and key[5:].isdigit()
        )
        return [
            (
                wave,
                {
                    "score": entries[f"human{wave}"],
                    "errors": entries.get(f"errors{wave}", []),
                    "annotator": entries.get(f"annotator{wave}", "unknown"),
                },
            )
            for wave in waves
        ]
    raise InputError(
        f"the scores of {system!r} are neither a list of waves nor an object with human1, "
        "human2...",
        origin=origin,
        line=line,
        column="scores",
        hint=LAYOUT_HINT,
    )


def _score(value: object, system: str, wave: int, origin: str, line: int) -> float | None:
    """The score, or None where the wave was not annotated (NaN or null)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isinf(value):
        raise InputError(
            f"the score of {system!r} in wave {wave} is {value!r}, not a number",
            origin=origin,
            line=line,
            column="scores",
            hint="ESA scores are numbers from 0 to 100 (NaN or null where not annotated).",
        )
    return float(value)


def _annotator(value: object, origin: str, line: int) -> str:
    if value is None:
        return "unknown"
    if not isinstance(value, str):
        raise InputError(
            f"the annotator {value!r} is not a string", origin=origin, line=line, hint=LAYOUT_HINT
        )
    return value


def error_spans(value: object, origin: str, line: int) -> tuple[ErrorSpan, ...]:
    """The spans of one annotation, as Appraise and Pearmut write them: ``start_i``, ``end_i``
    (whole numbers), ``severity``, and ``category`` or ``error_type`` where present."""
    if value is None:
        return ()
    hint = 'Each error span is {"start_i": 8, "end_i": 11, "severity": "minor"}.'
    if not isinstance(value, list):
        raise InputError(
            f"the error spans {value!r} are not a list", origin=origin, line=line, hint=hint
        )
    spans = []
    for span in value:
        offsets = (span.get("start_i"), span.get("end_i")) if isinstance(span, dict) else ()
        if len(offsets) != 2 or not all(
            isinstance(o, int) and not isinstance(o, bool) for o in offsets
        ):
            raise InputError(
                f"the error span {span!r} has no whole-number start_i and end_i",
                origin=origin,
                line=line,
                hint=hint,
            )
        category = span.get("category", span.get("error_type"))
        spans.append(
            ErrorSpan(
                offsets[0],
                offsets[1],
                str(span.get("severity")),
                None if category is None else str(category),
            )
        )
    return tuple(spans)
