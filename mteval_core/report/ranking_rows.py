"""The rows a person reads of one language pair's ranking: the Rankings page's table, its figure
and ``mteval rank --format html`` all start here, so the three agree.

A human ranking and an AutoRank of the same pair are joined by system name: each row keeps the
human score, rank range and cluster, and takes the AutoRank and its rank range beside them. Where
the two rank ranges do not overlap, the two rankings disagree about the system beyond what their
own uncertainty allows, and the row says so (``disagrees``). A ranking alone (AutoRank only, or
human only) gives rows without the other side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mteval_core.rankings.table import LanguagePairRanking, RankedSystem


@dataclass(frozen=True)
class RankingRow:
    """One system of one pair, best first: its own ranking and, joined, the AutoRank."""

    system: str
    score: float
    rank: tuple[int, int]
    cluster: int | None
    autorank: float | None = None
    autorank_rank: tuple[int, int] | None = None
    columns: Mapping[str, float | None] = field(default_factory=dict)  # per domain or metric

    @property
    def disagrees(self) -> bool:
        """The human and the AutoRank rank ranges do not overlap."""
        if self.autorank_rank is None or self.cluster is None:
            return False
        return not ranges_overlap(self.rank, self.autorank_rank)


def ranges_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def ranking_rows(
    ranking: LanguagePairRanking, autorank: LanguagePairRanking | None = None
) -> list[RankingRow]:
    """``ranking``'s systems, best first, with ``autorank``'s value and rank range joined by
    system name (None where the AutoRank has no such system)."""
    joined = {entry.system: entry for entry in autorank.systems} if autorank is not None else {}
    rows = []
    for entry in ranking.systems:
        other = joined.get(entry.system)
        rows.append(
            RankingRow(
                entry.system,
                entry.score,
                entry.rank,
                entry.cluster,
                other.autorank if other is not None else entry.autorank,
                other.rank if other is not None else None,
                breakdown(entry),
            )
        )
    return rows


def breakdown(entry: RankedSystem) -> dict[str, float | None]:
    """The columns beside the score: a human ranking's domain scores, an AutoRank's metric
    means."""
    for key in ("domains", "metrics"):
        values = entry.extra.get(key)
        if isinstance(values, Mapping):
            return dict(values)
    return {}


def breakdown_kind(ranking: LanguagePairRanking) -> str:
    """What the breakdown columns are: "domain" or "metric" (or "" when there are none)."""
    extra = ranking.systems[0].extra if ranking.systems else {}
    return "domain" if "domains" in extra else "metric" if "metrics" in extra else ""


@dataclass(frozen=True)
class PairTest:
    """What the ranking says of two systems: the p-value of their test, and each one's wins and
    losses (None where the procedure gives none, as AutoRank's does not)."""

    a: str
    b: str
    p_value: float | None
    wins: tuple[int | None, int | None]
    losses: tuple[int | None, int | None]
    tested: bool  # the procedure tests pairs at all
    domains: Mapping[str, float | None] = field(default_factory=dict)  # each domain's p-value


def pair_test(ranking: LanguagePairRanking, a: str, b: str) -> PairTest:
    """The test of ``a`` against ``b`` as ``ranking``'s ``extra`` holds it."""
    by_name = {entry.system: entry for entry in ranking.systems}
    first, second = by_name[a].extra, by_name[b].extra
    p_values = first.get("p_values")
    tested = isinstance(p_values, Mapping)
    domains = first.get("domain_p_values", {}).get(b, {})
    return PairTest(
        a,
        b,
        p_values.get(b) if tested else None,
        (first.get("wins"), second.get("wins")),
        (first.get("losses"), second.get("losses")),
        tested,
        domains,
    )
