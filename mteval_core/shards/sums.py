"""What a shard adds to the corpus: per metric and system, its statistic sums and its
Poisson-bootstrap sums. Sums of shards add up to the sums of the corpus, whatever the sharding.

Whole-number statistics (every metric's with one reference, see ``exactly_summed``) add up
exactly in float64, so the corpus scores are the in-memory path's to the last bit; others are
exact up to the order of float additions, which the sharding changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

# metric -> system -> array: (n_stats,) sums, or (n_resamples, n_stats) resampled sums
Table = Mapping[str, Mapping[str, np.ndarray]]


@dataclass(frozen=True, eq=False)
class Sums:
    """Additive results; systems keep the order in which the shards first name them."""

    totals: Table = field(default_factory=dict)
    resampled: Table = field(default_factory=dict)  # empty without --bootstrap
    inexact: frozenset[str] = frozenset()  # metrics whose sums depend on the order of additions

    def ordered(self, systems: Sequence[str]) -> Sums:
        """The same sums with the systems in the order given."""
        return Sums(
            _reordered(self.totals, systems), _reordered(self.resampled, systems), self.inexact
        )

    def plus(self, other: Sums) -> Sums:
        return Sums(
            _added(self.totals, other.totals),
            _added(self.resampled, other.resampled),
            self.inexact | other.inexact,
        )


def _reordered(table: Table, systems: Sequence[str]) -> dict[str, dict[str, np.ndarray]]:
    return {metric: {s: by_system[s] for s in systems} for metric, by_system in table.items()}


def _added(a: Table, b: Table) -> dict[str, dict[str, np.ndarray]]:
    result = {metric: dict(by_system) for metric, by_system in a.items()}
    for metric, by_system in b.items():
        target = result.setdefault(metric, {})
        for system, values in by_system.items():
            target[system] = target[system] + values if system in target else values
    return result


def exactly_summed(statistics: np.ndarray) -> bool:
    """Whether float64 adds these statistics exactly in any order: whole numbers, halves and
    quarters (the mean reference lengths of TER and GTM with two or four references) are, as
    long as the totals stay below 2**50."""
    quarters = statistics * 4.0
    return bool(np.array_equal(quarters, np.round(quarters)))
