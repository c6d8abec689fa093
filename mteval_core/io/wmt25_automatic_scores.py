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
