"""Significance clusters of systems, as WMT reports rankings: ordered by score, grouped where
the paired tests cannot tell them apart.

With 20 or more systems the all-pairs matrix (190+ cells) is hard to read; a ranking in clusters
says the same in one column. The rule is mt-metrics-eval's AssignRanks
(``stats.ranking.assign_ranks``), the one WMT's metrics task uses for its significance clusters,
applied to systems and to the Holm-corrected p-values of the paired bootstrap
(``stats.significance``):

1. Order the systems best first by score (highest, or lowest for a lower-is-better metric);
   systems with equal scores keep their given order.
2. System i is *significantly better* than system j when its score is better and the corrected
   p-value of the pair is below the level (0.05).
3. Walk down the order: the first system opens cluster 1; every later system j joins the
   current cluster unless some system of that cluster (from its first system to j - 1) is
   significantly better than j, in which case j opens the next cluster.

So no two systems of one cluster differ significantly, and the first system of each cluster
after the first is significantly worse than at least one system of the cluster above it (not
necessarily all of them). A system's *rank range* says more than its cluster: from 1 + the
number of systems significantly better than it to n - the number significantly worse; it spans
every rank the significant pairs leave open to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

from mteval_core.stats.ranking import assign_ranks
from mteval_core.stats.significance import SIGNIFICANCE_LEVEL

if TYPE_CHECKING:  # only named in a type hint
    from mteval_core.stats.significance import PairedTest


@dataclass(frozen=True, eq=False)  # it holds arrays
class SystemClusters:
    """Systems best first, with their clusters and rank ranges. Every array is in ``order``:
    position k describes system ``order[k]`` of the input."""

    order: np.ndarray  # (n,) indices into the input scores, best first
    cluster: np.ndarray  # (n,) 1 = best
    rank_range: np.ndarray  # (n, 2) best and worst rank the significant pairs allow
    better: np.ndarray  # (n, n) bool: [k, m] the k-th system is significantly better than the m-th


def significance_clusters(
    scores: np.ndarray,
    p_values: np.ndarray,
    level: float = SIGNIFICANCE_LEVEL,
    higher_is_better: bool = True,
) -> SystemClusters:
    """Order systems by ``scores`` and group them with ``p_values`` (n x n, symmetric, corrected
    for multiple comparisons; NaN or a missing test counts as not significant), by the rule in
    the module's docstring."""
    scores = np.asarray(scores, dtype=np.float64)
    p_values = np.asarray(p_values, dtype=np.float64)
    n = len(scores)
    if p_values.shape != (n, n):
        raise ValueError(f"need an {n} x {n} matrix of p-values, got {p_values.shape}")
    oriented = scores if higher_is_better else -scores
    order = np.argsort(-oriented, kind="stable")  # best first, ties in the given order
    ranked = oriented[order]
    with np.errstate(invalid="ignore"):  # NaN compares False: not significant
        better = (p_values[np.ix_(order, order)] < level) & (ranked[:, None] > ranked[None, :])
    # assign_ranks reads p <= its significance: 0 marks a significant pair, 1 the others
    cluster = np.array(assign_ranks(np.where(better, 0.0, 1.0), 0.0), dtype=np.int64)
    rank_range = np.column_stack([1 + better.sum(axis=0), n - better.sum(axis=1)])
    return SystemClusters(order, cluster, rank_range.astype(np.int64), better)


def pair_matrix(systems: Sequence[str], pairs: Sequence[PairedTest], metric: str) -> np.ndarray:
    """The Holm-corrected p-values of ``metric``'s pairs as an n x n matrix in the order of
    ``systems``; 1 on the diagonal and for any pair not tested or without a p-value."""
    position = {system: index for index, system in enumerate(systems)}
    p = np.ones((len(systems), len(systems)))
    for pair in pairs:
        tested = pair.metric == metric and pair.p_holm is not None
        if tested and pair.a in position and pair.b in position:
            p[position[pair.a], position[pair.b]] = p[position[pair.b], position[pair.a]] = (
                pair.p_holm
            )
    return p


@dataclass(frozen=True)
class ClusteredSystem:
    """One system in a ranking by clusters."""

    system: str
    score: float
    rank: int  # position best first, 1 = best
    cluster: int  # 1 = best
    rank_range: tuple[int, int]  # best and worst rank the significant pairs allow
    significantly_better: int  # systems significantly better than this one
    significantly_worse: int  # systems significantly worse than this one
    interval: tuple[float, float] | None = None  # of the score, from the bootstrap

    def to_dict(self) -> dict:
        return asdict(self)

    def to_row(self) -> dict[str, object]:
        """Flat, for a table: the rank range as WMT prints it ("1-3", or "4" when it is one
        rank), the interval as two columns."""
        low, high = self.interval if self.interval is not None else (None, None)
        first, last = self.rank_range
        return {
            "rank": f"{first}" if first == last else f"{first}–{last}",
            "cluster": self.cluster,
            "system": self.system,
            "score": self.score,
            "low": low,
            "high": high,
            "significantly better": self.significantly_better,
            "significantly worse": self.significantly_worse,
        }


def cluster_systems(
    scores: Mapping[str, float],
    pairs: Sequence[PairedTest],
    metric: str,
    higher_is_better: bool = True,
    intervals: Mapping[str, Sequence[float]] | None = None,
    level: float = SIGNIFICANCE_LEVEL,
) -> tuple[ClusteredSystem, ...]:
    """``significance_clusters`` of named systems: ``scores`` is system -> corpus score under
    ``metric``, ``pairs`` are ``bootstrap_scores(...).pairs`` (any metrics), ``intervals``
    system -> (low, high). Best first."""
    systems = list(scores)
    clusters = significance_clusters(
        np.array([scores[s] for s in systems], dtype=np.float64),
        pair_matrix(systems, pairs, metric),
        level,
        higher_is_better,
    )
    result = []
    for rank, index in enumerate(clusters.order):
        system = systems[index]
        interval = intervals.get(system) if intervals else None
        result.append(
            ClusteredSystem(
                system=system,
                score=float(scores[system]),
                rank=rank + 1,
                cluster=int(clusters.cluster[rank]),
                rank_range=(int(clusters.rank_range[rank, 0]), int(clusters.rank_range[rank, 1])),
                significantly_better=int(clusters.better[:, rank].sum()),
                significantly_worse=int(clusters.better[rank].sum()),
                interval=None if interval is None else (float(interval[0]), float(interval[1])),
            )
        )
    return tuple(result)
