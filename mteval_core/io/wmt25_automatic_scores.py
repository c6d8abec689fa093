"""WMT25's automatic scores as the organisers ship them (wmt-conference/wmt25-general-mt,
``data/automatic_scores/<SYSTEM>.jsonl``) and its systems metadata
(``data/systems_metadata_updated3.json``).

One file per system, named by the system; one JSON object per line and per document:
``{"language_pair": "en-ar_EG", "domain": "news", "document_id": "...", "metric_scores":
{"CometKiwi-XL": [one score per paragraph], ...}}``. A score may be ``null`` (20 of
GEMBA-ESA-CMDA's are): it is kept as NaN and skipped by the means, as the organisers skip it.
Every system of a language pair must score the same documents with the same paragraphs and
metrics; a file that does not is refused with its name and line, so that no system is ranked
on other segments than the rest.

As an external metric (``joined_metric``) one metric of a system's file is placed on a test set
by its document ids, the files holding no texts.

The metadata's ``supported_lps`` of a system lists the pairs it took part in; AutoRank counts a
system for a pair when it has scores for the pair and the metadata lists the pair (whatever its
value: "supported", "unsupported", "unknown").
"""

from __future__ import annotations

import gc
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.jsonl import json_records
from mteval_core.io.wmt25_humeval import DOC_ID_SEPARATOR
from mteval_core.model.metric_segments import MetricSegments, SegmentKey

SUFFIX = ".jsonl"


@dataclass(frozen=True)
class _Document:
    key: tuple[str, str]  # domain, document id
    scores: dict[str, list[float | int | None]]  # metric -> one per paragraph, type-checked
    line: int


@dataclass(frozen=True)
class _SystemPair:
    """One system's scores of one pair, ready to align: its documents' layout (sorted by key)
    and a row of floats per metric over them."""

    layout: dict[tuple[str, str], tuple[int, tuple[str, ...]]]
    rows: dict[str, np.ndarray]


# What a score may be in the parsed JSON: checked by type with set(map(type, ...)), which runs
# in C (isinstance on each of WMT25's 2.4 million scores took most of the reading time); bool is
# its own type, so true/false are refused.
_SCORE_TYPES = frozenset({float, int, type(None)})


def read_automatic_scores(paths: Sequence[Path]) -> dict[str, MetricSegments]:
    """The scores of every language pair in ``paths`` (``<SYSTEM>.jsonl`` files, or folders of
    them), by language pair."""
    return automatic_scores_of(
        [(path.name, str(path), path.read_bytes()) for path in _score_files(paths)]
    )


def automatic_scores_of(files: Sequence[tuple[str, str, bytes]]) -> dict[str, MetricSegments]:
    """The same from files already read (the dashboard's uploads): (file name, how a message
    names the file, its bytes), each file named ``<SYSTEM>.jsonl``."""
    by_pair: dict[str, dict[str, _SystemPair]] = {}
    origins: dict[tuple[str, str], str] = {}
    with _collector_paused():
        for name, origin, data in files:
            _add_system(by_pair, origins, name, origin, data)
    return {pair: _aligned(pair, systems, origins) for pair, systems in sorted(by_pair.items())}


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the files are parsed: the millions of score
    objects they make (none of them in a cycle) set it off again and again, each time walking
    every object alive, which took 30-40% of the reading time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _add_system(
    by_pair: dict[str, dict[str, _SystemPair]],
    origins: dict[tuple[str, str], str],
    name: str,
    origin: str,
    data: bytes,
) -> None:
    """One file's system, pair by pair, into ``by_pair`` (a system given twice is refused)."""
    if not name.endswith(SUFFIX) or name == SUFFIX:
        raise InputError(
            f"is not named SYSTEM{SUFFIX}",
            origin=origin,
            hint="WMT25's score files are named after their system, e.g. AMI.jsonl.",
        )
    system = name[: -len(SUFFIX)]
    for pair, documents in _read_system(data, origin).items():
        if system in by_pair.setdefault(pair, {}):
            raise InputError(
                f"a second file for system {system!r}",
                origin=origin,
                hint=f"{origins[pair, system]} already holds it; give each system once.",
            )
        by_pair[pair][system] = _system_pair(documents, pair, origin)
        origins[pair, system] = origin


def read_systems_metadata(path: Path) -> dict[str, frozenset[str]]:
    """Each system's language pairs (the keys of its ``supported_lps``)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(
            f"cannot be read: {error}", origin=str(path), hint="Check the path."
        ) from None
    return systems_metadata_of(data, str(path))


def systems_metadata_of(data: bytes, origin: str) -> dict[str, frozenset[str]]:
    """The same from the file's bytes (``origin`` names it in messages)."""
    try:
        document = json.loads(data)
    except ValueError as error:
        raise InputError(
            f"cannot be read as JSON: {error}",
            origin=origin,
            hint="Give WMT25's data/systems_metadata_updated3.json (or a file of its layout).",
        ) from None
    if not isinstance(document, dict):
        raise InputError("is not a JSON object of systems", origin=origin, hint=_METADATA_LAYOUT)
    pairs = {}
    for system, entry in document.items():
        supported = entry.get("supported_lps") if isinstance(entry, dict) else None
        if not isinstance(supported, dict):
            raise InputError(
                f"system {system!r} has no supported_lps object",
                origin=origin,
                hint=_METADATA_LAYOUT,
            )
        pairs[system] = frozenset(supported)
    return pairs


_METADATA_LAYOUT = (
    'The layout is {"SYSTEM": {"supported_lps": {"en-de_DE": "supported", ...}, ...}, ...}.'
)


def _score_files(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.name.endswith(SUFFIX))
            if not found:
                raise InputError(
                    f"holds no {SUFFIX} files",
                    origin=str(path),
                    hint="Give WMT25's data/automatic_scores/ folder: one SYSTEM.jsonl per system.",
                )
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise InputError("does not exist", origin=str(path), hint="Check the path.")
    return files


def _read_system(data: bytes, origin: str) -> dict[str, list[_Document]]:
    """One system's documents, by language pair, each line checked."""
    _, records = json_records(data, origin)
    pairs: dict[str, list[_Document]] = {}
    for record in records:
        value = record.fields
        missing = [
            k for k in ("language_pair", "domain", "document_id", "metric_scores") if k not in value
        ]
        if missing:
            raise InputError(
                f"this line has no {', '.join(missing)}",
                origin=origin,
                line=record.line,
                hint='Each line is {"language_pair", "domain", "document_id", "metric_scores"}.',
            )
        scores = _metric_scores(value["metric_scores"], origin, record.line)
        key = (str(value["domain"]), str(value["document_id"]))
        pairs.setdefault(str(value["language_pair"]), []).append(
            _Document(key, scores, record.line)
        )
    return pairs


def _metric_scores(value: object, origin: str, line: int) -> dict[str, list[float | int | None]]:
    if not isinstance(value, dict) or not value:
        raise InputError(
            "metric_scores is not an object of metrics",
            origin=origin,
            line=line,
            hint='It is {"METRIC": [one score per paragraph], ...}.',
        )
    for metric, values in value.items():
        if not isinstance(values, list):
            _not_numbers(metric, origin, line)
    scores = value  # their items are checked, and made floats, a system at a time (_scores_row)
    if len({len(v) for v in scores.values()}) > 1:
        raise InputError(
            "the metrics of this document score different numbers of paragraphs",
            origin=origin,
            line=line,
            hint="Every metric scores every paragraph of the document.",
        )
    return scores


def _not_numbers(metric: str, origin: str, line: int) -> NoReturn:
    raise InputError(
        f"metric {metric!r}'s scores are not a list of numbers (or null)",
        origin=origin,
        line=line,
        hint="Give one number per paragraph; null where a metric gave none.",
    )


def _system_pair(documents: list[_Document], pair: str, origin: str) -> _SystemPair:
    """One system's documents of ``pair`` checked (``_layout``) and made rows of floats, so
    that the parsed lists can go before the next file is parsed."""
    layout = _layout(documents, pair, origin)
    in_order = sorted(documents, key=lambda d: d.key)
    metrics = next(iter(layout.values()))[1]
    return _SystemPair(layout, {m: _scores_row(in_order, m, origin) for m in metrics})


def _aligned(
    pair: str, systems: Mapping[str, _SystemPair], origins: Mapping[tuple[str, str], str]
) -> MetricSegments:
    """One language pair's documents of every system, checked to be the same segments."""
    names = sorted(systems)
    first = names[0]
    layout = systems[first].layout
    for system in names[1:]:
        if systems[system].layout != layout:
            raise InputError(
                f"{pair}: system {system!r} scores other documents, paragraphs or metrics than "
                f"{first!r}",
                origin=origins[pair, system],
                hint="Every system of a language pair is scored on the same segments with the "
                "same metrics.",
            )
    metrics = tuple(next(iter(layout.values()))[1])
    segments = tuple(
        SegmentKey(domain, document, index)
        for (domain, document), (count, _) in layout.items()
        for index in range(count)
    )
    scores = {metric: np.stack([systems[s].rows[metric] for s in names]) for metric in metrics}
    return MetricSegments(pair, tuple(names), metrics, segments, scores)


def _scores_row(documents: list[_Document], metric: str, origin: str) -> np.ndarray:
    """One system's scores of ``metric`` over the pair's segments, null as NaN: checked and
    converted for the whole row at once (item by item, the checks took most of the reading
    time); a score that is not a number, or is infinite (or an integer beyond a float's range),
    is refused with its document's line."""
    values = [v for document in documents for v in document.scores[metric]]
    if not set(map(type, values)) <= _SCORE_TYPES:
        line = next(
            d.line for d in documents if not set(map(type, d.scores[metric])) <= _SCORE_TYPES
        )
        _not_numbers(metric, origin, line)
    try:
        row = np.array(values, dtype=float)
    except OverflowError:
        row = np.array([math.inf])
    if np.isinf(row).any():
        line = next(d.line for d in documents if _has_infinite(d.scores[metric]))
        raise InputError(
            f"metric {metric!r} has an infinite score",
            origin=origin,
            line=line,
            hint="Give finite numbers, or null where a metric gave none.",
        )
    return row


def _has_infinite(values: list[float | int | None]) -> bool:
    try:
        return bool(np.isinf(np.array(values, dtype=float)).any())
    except OverflowError:
        return True


def _layout(
    documents: list[_Document], pair: str, origin: str
) -> dict[tuple[str, str], tuple[int, tuple[str, ...]]]:
    layout: dict[tuple[str, str], tuple[int, tuple[str, ...]]] = {}
    for document in sorted(documents, key=lambda d: d.key):
        if document.key in layout:
            raise InputError(
                f"{pair}: document {document.key[1]!r} ({document.key[0]}) a second time",
                origin=origin,
                line=document.line,
                hint="Give each document once per system.",
            )
        count = len(next(iter(document.scores.values())))
        layout[document.key] = (count, tuple(sorted(document.scores)))
    metric_sets = {metrics for _, metrics in layout.values()}
    if len(metric_sets) > 1:
        raise InputError(
            f"{pair}: the documents are scored by different metrics",
            origin=origin,
            hint="Every document of a language pair is scored by the same metrics.",
        )
    return layout


# ---------------------------------------------------------------------- as an external metric
# The files hold no texts, no segment ids and no system name (the file's name is the system):
# only (pair, domain, document id) and one score per paragraph. They join a test set whose
# segments carry WMT25's document ids, each document's segments its paragraphs in order.
SCALES = {  # as shipped: MetricX-24 negated, so that every metric is higher-is-better
    "CometKiwi-XL": "0-1",
    "XCOMET-XL": "0-1",
    "MetricX-24-Hybrid-XL": "-25..0",
    "GEMBA-ESA-CMDA": "0-100",
    "GEMBA-ESA-GPT4.1": "0-100",
    "chrF++": "0-100",
}
DOCUMENT_IDS_FOR_TEXT = "a segment-id map's doc column gives plain-text files their document ids"
JOIN_HINT = (
    "WMT25's automatic scores hold no texts, only each document's scores per paragraph: the "
    "test set must carry WMT25's document ids, pair_#_domain_#_document (or the document id "
    "alone where one language pair of the files has it), its segments of a document being the "
    "document's paragraphs in order, or each numbered pair_#_domain_#_document_#_paragraph "
    f"(from 0), as in WMT25's humeval ({DOCUMENT_IDS_FOR_TEXT})."
)


@dataclass(frozen=True)
class JoinedScores:
    """One metric of one system's file on the test set: (system, value, line, 1-based
    segment) for every paragraph scored, the language pair joined, and notes."""

    scores: list[tuple[str, float, int, int]]
    metric: str  # as the file names it
    language_pair: str
    notes: tuple[str, ...]


def is_automatic_scores_line(line: str) -> bool:
    """Whether a JSON line is one of WMT25's automatic score files' (a document's scores)."""
    try:
        value = json.loads(line)
    except ValueError:
        return False
    return isinstance(value, dict) and {"document_id", "metric_scores"} <= value.keys()


def joined_metric(
    text: str, origin: str, documents: Sequence[str] | None, system: str, metric: str
) -> JoinedScores:
    """``metric``'s paragraph scores in ``text`` (a file ``SYSTEM.jsonl``) placed on the test
    set's segments by their ``documents`` ids: a segment is the paragraph its id numbers, else
    the next of its document's (and then every paragraph must be in the test set)."""
    if documents is None:
        raise InputError(
            "cannot be joined to a test set without document ids", origin=origin, hint=JOIN_HINT
        )
    by_pair = _read_system(text.encode("utf-8"), origin)
    wanted = [_document_key(doc) for doc in documents]
    pair = _joined_pair(by_pair, wanted, origin)
    found = {d.key: d for d in by_pair[pair]}
    name = _metric_named(metric, next(iter(found.values())).scores, origin)
    counted: dict[tuple[str, str], int] = {}  # document -> its segments taken in order
    scores, unscored = [], 0
    for segment, (_, domain, document, paragraph) in enumerate(wanted, start=1):
        entry = _entry(found, domain, document, origin)
        values = entry.scores[name]
        index = counted[entry.key] = counted.get(entry.key, -1) + 1
        index = index if paragraph is None else paragraph
        if index >= len(values):
            raise InputError(
                f"segment {segment:,} is paragraph {index:,} (from 0) of document {document!r}, "
                f"which has {len(values):,} paragraphs here",
                origin=origin,
                line=entry.line,
                hint=JOIN_HINT,
            )
        if math.isnan(values[index]):
            unscored += 1
        else:
            scores.append((system, values[index], entry.line, segment))
    if all(paragraph is None for *_, paragraph in wanted):
        _check_every_paragraph(found, counted, name, origin)
    notes = _join_notes(origin, pair, name, len(found), len(counted), unscored)
    return JoinedScores(scores, name, pair, tuple(notes))


def _check_every_paragraph(
    found: Mapping[tuple[str, str], _Document],
    counted: Mapping[tuple[str, str], int],
    name: str,
    origin: str,
) -> None:
    """Segments taken in order must be all of a document's paragraphs, or they are others."""
    for key, taken in counted.items():
        paragraphs = len(found[key].scores[name])
        if taken + 1 != paragraphs:
            raise InputError(
                f"document {key[1]!r} has {paragraphs:,} paragraphs here and {taken + 1:,} "
                "segments in the test set",
                origin=origin,
                line=found[key].line,
                hint=JOIN_HINT,
            )


_Key = tuple[str | None, str | None, str, int | None]  # pair, domain, document, paragraph


def _document_key(doc: str) -> _Key:
    """A test set's document id as WMT25 writes it, pair_#_domain_#_document with an optional
    _#_paragraph (from 0), or a document id alone."""
    parts = doc.split(DOC_ID_SEPARATOR)
    if len(parts) == 4 and parts[3].isdigit():
        return parts[0], parts[1], parts[2], int(parts[3])
    if len(parts) == 3:
        return parts[0], parts[1], parts[2], None
    return None, None, doc, None


def _joined_pair(
    by_pair: Mapping[str, list[_Document]], wanted: Sequence[_Key], origin: str
) -> str:
    """The one language pair of the file that the test set's documents name or all lie in."""
    named = {pair for pair, *_ in wanted if pair is not None}
    if named:
        candidates = sorted(named & by_pair.keys())
        if len(named) > 1 or not candidates:
            raise InputError(
                f"the test set's document ids name the language pairs {', '.join(sorted(named))}, "
                f"and the file has {', '.join(sorted(by_pair)) or 'none'}",
                origin=origin,
                hint="A test set is one language pair, which the file must score.",
            )
        return candidates[0]
    documents = {document for _, _, document, _ in wanted}
    candidates = sorted(
        pair for pair, docs in by_pair.items() if documents <= {d.key[1] for d in docs}
    )
    if len(candidates) != 1:
        said = ", ".join(candidates[:5]) + (", ..." if len(candidates) > 5 else "")
        raise InputError(
            f"the test set's documents are in {len(candidates):,} of the file's language pairs"
            + (f" ({said})" if candidates else ""),
            origin=origin,
            hint=JOIN_HINT,
        )
    return candidates[0]


def _metric_named(metric: str, scores: Mapping[str, list[float]], origin: str) -> str:
    """The file's metric that ``metric`` names: its name in any case, or with -ext (chrF++ is
    a built-in metric's name, so its scores are named chrF++-ext)."""
    lowered = {name.lower(): name for name in scores}
    named = lowered.get(metric.lower()) or lowered.get(metric.lower().removesuffix("-ext"))
    if named is not None:
        return named
    raise InputError(
        f"the file has no metric {metric!r}",
        origin=origin,
        hint=f"Name the metric as the file does: {', '.join(scores)} (chrF++ as chrF++-ext).",
    )


def _entry(
    found: Mapping[tuple[str, str], _Document], domain: str | None, document: str, origin: str
) -> _Document:
    matches = [d for key, d in found.items() if key[1] == document and domain in (None, key[0])]
    if len(matches) != 1:
        raise InputError(
            f"the test set's document {document!r} is "
            + ("not in the file" if not matches else "in several domains of the file"),
            origin=origin,
            hint="Give each system's file for the test set's language pair, as WMT25 ships it; "
            + JOIN_HINT,
        )
    return matches[0]


def _join_notes(
    origin: str, pair: str, name: str, in_file: int, joined: int, unscored: int
) -> list[str]:
    notes = [f"{origin}: {name} of WMT25's automatic scores, {pair}, joined by document ids"]
    if in_file > joined:
        notes.append(
            f"{origin}: {in_file - joined:,} of its {in_file:,} {pair} documents are not in "
            "the test set"
        )
    if unscored:
        notes.append(
            f"{origin}: {unscored:,} paragraphs have no {name} score (null) and are unscored"
        )
    return notes
