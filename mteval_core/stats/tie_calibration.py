"""acc_eq's tie calibration (Deutsch et al. 2023): the metric tie threshold epsilon that maximises
the group-averaged acc23, as mt-metrics-eval's tau_optimization finds it.

A pair of cells is right when the metric orders it as people do, or when both tie; the metric ties
a pair when its scores differ by at most epsilon. Small problems enumerate every pair (as
mt-metrics-eval does, without its Python objects); the system and none groupings of large ones
count pairs from sorted cells instead (``segment_calibration``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from mteval_core.stats.segment_calibration import calibrate

# The exact tie calibration holds and sorts the differences of all pairs (8 bytes each, a few
# copies): above this many pairs it refuses rather than exhaust memory.
MAX_CALIBRATION_PAIRS = 50_000_000
# Above this many pairs the system and none groupings count pairs from sorted cells instead of
# enumerating them (segment_calibration; the same result, far less memory and time).
ENUMERATED_PAIRS = 200_000


@dataclass(frozen=True, eq=False)
class TieCalibration:
    """acc23 as a function of the metric's tie threshold epsilon, and its best point.

    The function is a step function: ``accuracy_at`` evaluates it anywhere, from ``base`` (the
    accuracy at epsilon = 0) and ``steps``: for each size of change, the sorted |metric
    differences| of the pairs whose turning into a tie changes the accuracy by it. ``threshold``
    is the smallest epsilon that reaches the highest accuracy, ``accuracy`` that accuracy; None,
    with the reason in ``undefined``, when no group has a pair."""

    threshold: float | None
    accuracy: float | None
    base: float | None = None
    steps: tuple[tuple[float, np.ndarray], ...] = ()
    undefined: str | None = None
    curve: Callable[[np.ndarray], np.ndarray] | None = None  # the counting search's steps

    def accuracy_at(self, epsilons: np.ndarray) -> np.ndarray:
        """acc23 at each epsilon (mt-metrics-eval's ``taus`` at its ``thresholds``)."""
        if self.curve is not None:
            return self.curve(np.asarray(epsilons, dtype=np.float64))
        if self.base is None:
            return np.full(np.shape(epsilons), np.nan)
        accuracy = np.full(np.shape(epsilons), self.base)
        for change, distances in self.steps:
            accuracy = accuracy + change * np.searchsorted(distances, epsilons, side="right")
        return accuracy


def tie_calibration(  # long: the exact search and its counting variant, one contract
    metric: np.ndarray, human: np.ndarray, grouping: str = "item"
) -> TieCalibration:
    """acc_eq (Deutsch et al. 2023): the epsilon that maximises the group-averaged acc23.

    As mt-metrics-eval's tau_optimization: turn the pairs into metric ties in the order of their
    |metric difference|; a pair people tie then becomes right, a pair the metric ordered as
    people did becomes wrong, the others do not change. A change weighs 1 / (pairs in its group x
    groups), so the pairs fall into a few classes of equal change (at most two per group size)
    and the curve is a sum of counts: one sort per class (all pairs of a group are enumerated, as
    in mt-metrics-eval, without its Python objects). The best epsilon is 0 or the difference of a
    pair that becomes right; between equal accuracies the smaller epsilon wins, up to a rounding
    tolerance of 1e-12."""
    metric = np.asarray(metric, dtype=np.float64)
    human = np.asarray(human, dtype=np.float64)
    cells = np.isfinite(metric) & np.isfinite(human)
    sizes = {"item": cells.sum(0), "system": cells.sum(1), "none": np.array([cells.sum()])}
    pairs_per_group = sizes[grouping].astype(np.int64) * (sizes[grouping] - 1) // 2
    n_pairs = int(pairs_per_group.sum())
    if n_pairs == 0:
        return TieCalibration(None, None, undefined="no group has two scored cells")
    if n_pairs > MAX_CALIBRATION_PAIRS:
        return TieCalibration(
            None,
            None,
            undefined=f"{n_pairs:,} pairs, more than the {MAX_CALIBRATION_PAIRS:,} the exact "
            "search sorts in memory (the item grouping, WMT's, has far fewer)",
        )
    if grouping != "item" and n_pairs > ENUMERATED_PAIRS:
        counted = calibrate(metric, human, grouping)
        if counted is not None:
            return TieCalibration(
                counted.threshold, counted.accuracy, counted.base, curve=counted.accuracy_at
            )
    n_groups = int((pairs_per_group > 0).sum())
    base = 0.0
    distances: dict[tuple[int, int], list[np.ndarray]] = {}  # (group pairs, +1 or -1) -> ...
    for group_pairs, dx, dy in scored_pairs(metric, human, cells, grouping):
        if dx.size == 0:
            continue
        concordant = ((dx > 0) & (dy > 0)) | ((dx < 0) & (dy < 0))
        human_ties = dy == 0
        right = concordant | (human_ties & (dx == 0))
        becomes_right = human_ties & (dx != 0)
        for size in np.unique(group_pairs):
            members = group_pairs == size if group_pairs.ndim else True  # one group: all
            base += np.count_nonzero(right & members) / size / n_groups
            for sign, moved in ((1, becomes_right), (-1, concordant)):
                distances.setdefault((int(size), sign), []).append(np.abs(dx[moved & members]))
    steps = tuple(
        (sign / size / n_groups, np.sort(np.concatenate(parts)))
        for (size, sign), parts in sorted(distances.items())
    )
    calibration = TieCalibration(None, None, base, steps)
    right_turns = [d for change, d in steps if change > 0]
    candidates = np.concatenate([[0.0], *right_turns])
    if len(right_turns) > 1:
        candidates.sort()
    candidates = candidates[np.concatenate([[True], candidates[1:] != candidates[:-1]])]
    accuracies = calibration.accuracy_at(candidates)
    best = int(np.argmax(accuracies >= accuracies.max() - 1e-12))
    return TieCalibration(float(candidates[best]), float(accuracies[best]), base, steps)


def scored_pairs(
    metric: np.ndarray, human: np.ndarray, cells: np.ndarray, grouping: str
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every pair of scored cells of one group, in chunks: (pairs in the pair's group, metric
    difference, human difference); the first is a single number for a chunk of one group."""
    if grouping == "item":
        first, second = np.triu_indices(metric.shape[0], k=1)
        both = cells[first] & cells[second]
        group_pairs = np.broadcast_to(both.sum(0), both.shape)
        yield (
            group_pairs[both],
            (metric[first] - metric[second])[both],
            (human[first] - human[second])[both],
        )
        return
    scored = [np.flatnonzero(row) for row in cells]
    if grouping == "system":
        for a, index in enumerate(scored):
            first, second = np.triu_indices(len(index), k=1)
            x, y = metric[a, index], human[a, index]
            yield np.array(len(first)), x[first] - x[second], y[first] - y[second]
        return
    all_pairs = np.array(int(cells.sum()) * (int(cells.sum()) - 1) // 2)
    for a, index_a in enumerate(scored):
        xa, ya = metric[a, index_a], human[a, index_a]
        first, second = np.triu_indices(len(index_a), k=1)
        yield all_pairs, xa[first] - xa[second], ya[first] - ya[second]
        for b in range(a + 1, len(scored)):
            xb, yb = metric[b, scored[b]], human[b, scored[b]]
            yield all_pairs, xa[:, None] - xb[None, :], ya[:, None] - yb[None, :]
