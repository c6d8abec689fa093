"""The checks only all shards together can make, on small per-shard indexes.

The in-memory long format refuses a segment twice for one system, references that disagree
between the rows of a segment, and segments missing for a system or from 1..n (see
``io.long_format``). Across shards, each shard keeps an index of what it holds: its segment ids,
a hash of each segment's shared values (source, references, document) and, per system, its
segment ids, each with the line (or row) it starts on. The driver compares the indexes once all
shards are scored: about 16 bytes per row and per shared value, not the text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.shards.reading import ShardRows


@dataclass(frozen=True, eq=False)
class ShardIndex:
    origin: str
    unit: str  # "line" or "row", as ShardRows
    shared_keys: tuple[str, ...]
    segments: np.ndarray  # sorted segment ids
    digests: np.ndarray  # (n_segments, n_shared) hash of each shared value, uint64
    positions: np.ndarray  # the line (or row) of each segment's first row
    systems: dict[str, tuple[np.ndarray, np.ndarray]]  # system -> (segment ids, positions)

    def where(self, position: int) -> str:
        return f"{self.origin}, {self.unit} {position}"


def index_of(rows: ShardRows) -> ShardIndex:
    """What ``check_coverage`` needs of one shard."""
    segments = np.array(sorted(rows.shared), np.int64)
    digests = np.array(
        [[_digest(value) for value in rows.shared[s][0]] for s in segments.tolist()], np.uint64
    ).reshape(len(segments), len(rows.shared_keys))
    first = np.array([rows.shared[s][1] for s in segments.tolist()], np.int64)
    systems = {}
    for system, hypotheses in rows.hypotheses.items():
        ids = sorted(hypotheses)
        systems[system] = (
            np.array(ids, np.int64),
            np.array([rows.positions[system, s] for s in ids], np.int64),
        )
    return ShardIndex(rows.origin, rows.unit, rows.shared_keys, segments, digests, first, systems)


def _digest(text: str) -> int:
    """64 bits of BLAKE2b: the same in every worker process (Python's hash() is salted)."""
    data = text.encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def check_coverage(indexes: Sequence[ShardIndex]) -> int:
    """Refuse what the in-memory path refuses, across shards; returns the number of segments."""
    _check_columns(indexes)
    shard = np.concatenate([np.full(len(i.segments), k) for k, i in enumerate(indexes)])
    segments = np.concatenate([i.segments for i in indexes])
    order = np.argsort(segments, kind="stable")
    segments, shard = segments[order], shard[order]
    digests = np.concatenate([i.digests for i in indexes])[order]
    positions = np.concatenate([i.positions for i in indexes])[order]
    repeated = np.flatnonzero(segments[1:] == segments[:-1]) + 1
    differs = repeated[np.any(digests[repeated] != digests[repeated - 1], axis=1)]
    if differs.size:
        at = int(differs[0])
        first, here = indexes[shard[at - 1]], indexes[shard[at]]
        column = int(np.argmax(digests[at] != digests[at - 1]))
        raise InputError(
            f"the {here.shared_keys[column]!r} of segment {segments[at]} differs from "
            f"{first.where(positions[at - 1])}",
            origin=here.origin,
            line=int(positions[at]),
            column=here.shared_keys[column],
            hint="All rows of one segment, in every shard, must repeat the same source, "
            "references and document.",
        )
    kept = np.ones(len(segments), bool)
    kept[repeated] = False
    unique = segments[kept]
    _check_numbering(unique)
    for system in dict.fromkeys(s for i in indexes for s in i.systems):
        _check_system(system, indexes, unique, shard[kept], positions[kept])
    return len(unique)


def _check_columns(indexes: Sequence[ShardIndex]) -> None:
    first = indexes[0]
    for index in indexes[1:]:
        if [k.strip().lower() for k in index.shared_keys] != [
            k.strip().lower() for k in first.shared_keys
        ]:
            raise InputError(
                f"the source, reference and document columns are {list(index.shared_keys)}, "
                f"but in {first.origin} they are {list(first.shared_keys)}",
                origin=index.origin,
                hint="Give every shard the same reference columns (and source and document, "
                "or neither), in the same order.",
            )


def _check_numbering(unique: np.ndarray) -> None:
    """Segments 1..n, as the long format numbers them: a gap is usually a missing shard."""
    expected = np.arange(1, len(unique) + 1)
    if not np.array_equal(unique, expected):
        missing = int(expected[np.argmax(unique != expected)])
        raise InputError(
            f"no shard has segment {missing}, but segments go up to {int(unique[-1])}",
            hint="Is a shard missing? Segments are numbered 1, 2, 3, ... without gaps, over "
            "all shards together.",
        )


def _check_system(
    system: str,
    indexes: Sequence[ShardIndex],
    unique: np.ndarray,
    holder: np.ndarray,
    positions: np.ndarray,
) -> None:
    """One row per segment for ``system``: none twice, none missing. ``holder`` and
    ``positions`` say where each of the ``unique`` segments first appears."""
    parts = [(k, i.systems[system]) for k, i in enumerate(indexes) if system in i.systems]
    shard = np.concatenate([np.full(len(ids), k) for k, (ids, _) in parts])
    ids = np.concatenate([ids for _, (ids, _) in parts])
    lines = np.concatenate([lines for _, (_, lines) in parts])
    order = np.argsort(ids, kind="stable")
    ids, shard, lines = ids[order], shard[order], lines[order]
    twice = np.flatnonzero(ids[1:] == ids[:-1])
    if twice.size:
        at = int(twice[0]) + 1
        first, here = indexes[shard[at - 1]], indexes[shard[at]]
        raise InputError(
            f"system {system!r} has segment {ids[at]} twice (first in "
            f"{first.where(lines[at - 1])})",
            origin=here.origin,
            line=int(lines[at]),
            hint="Keep one row per (segment, system) over all shards: is a shard given twice, "
            "or do two shards overlap?",
        )
    if len(ids) < len(unique):
        at = int(np.argmax(np.isin(unique, ids, invert=True)))
        raise InputError(
            f"system {system!r} has no row for segment {unique[at]}, which this shard has for "
            "other systems",
            origin=indexes[holder[at]].origin,
            line=int(positions[at]),
            hint="Every system needs one row per segment (an empty hypothesis is allowed): add "
            "the missing row, or leave the system out of every shard.",
        )
