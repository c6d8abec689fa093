"""The one shape every ranking takes, and its JSON and text layouts.

A ranking of one language pair lists its systems best first, each with its score (the human
score or the mean metric score the procedure ranks by), its rank range ``[first, last]`` (the
best and worst rank the system's significance tests allow; equal ends when every other system is
significantly better or worse), its cluster (1 is the top group: the systems no other system
beats significantly) and, where computed, its AutoRank. The JSON layout is documented in the
README and is what scripts rely on:

    {"language_pairs": {"en-de": {"protocol": "wmt24", "notes": [...],
                                  "systems": [{"system": "A", "score": 81.2,
                                               "autorank": 1.0, "rank": [1, 2],
                                               "cluster": 1, "extra": {...}}, ...]}}}

``extra`` holds what a procedure adds (per-domain scores, each metric's mean, the number of
annotations); ``autorank`` and ``cluster`` are null where the procedure does not give them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RankedSystem:
    """One system's place in one language pair's ranking."""

    system: str
    score: float
    rank: tuple[int, int]  # [first, last], 1-based, first <= last
    cluster: int | None = None
    autorank: float | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LanguagePairRanking:
    """The systems of one language pair, best first, and how they were ranked."""

    language_pair: str
    protocol: str  # e.g. "wmt24" or "autorank-wmt25": what made the numbers
    systems: tuple[RankedSystem, ...]
    notes: tuple[str, ...] = ()  # what the readers' filters dropped, what could not be tested


def rankings_json(rankings: Sequence[LanguagePairRanking]) -> str:
    """The documented JSON layout (see the module's docstring); NaN and infinity are refused
    (a ranking never holds one silently)."""
    document = {
        "language_pairs": {
            ranking.language_pair: {
                "protocol": ranking.protocol,
                "notes": list(ranking.notes),
                "systems": [
                    {
                        "system": entry.system,
                        "score": entry.score,
                        "autorank": entry.autorank,
                        "rank": list(entry.rank),
                        "cluster": entry.cluster,
                        "extra": dict(entry.extra),
                    }
                    for entry in ranking.systems
                ],
            }
            for ranking in rankings
        }
    }
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def rankings_text(rankings: Sequence[LanguagePairRanking]) -> str:
    """One table per language pair: rank range, cluster, system, score (and AutoRank)."""
    blocks = []
    for ranking in rankings:
        with_autorank = any(entry.autorank is not None for entry in ranking.systems)
        lines = [f"{ranking.language_pair} ({ranking.protocol})"]
        header = ["rank", "cluster", "system", "score", *(["AutoRank"] if with_autorank else [])]
        rows = [header]
        for entry in ranking.systems:
            first, last = entry.rank
            row = [
                str(first) if first == last else f"{first}-{last}",
                "" if entry.cluster is None else str(entry.cluster),
                entry.system,
                _number(entry.score),
            ]
            if with_autorank:
                row.append("" if entry.autorank is None else _number(entry.autorank))
            rows.append(row)
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
        lines += [f"note: {note}" for note in ranking.notes]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _number(value: float) -> str:
    return "undefined" if not math.isfinite(value) else f"{value:.4f}"
