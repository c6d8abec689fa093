"""acc_eq's tie calibration for groupings with many pairs, without sorting every pair.

acc23 at a tie threshold epsilon is base + sum over (group size, sign) classes of change x (pairs
of the class within epsilon): pairs people tie become right (+), concordant pairs become wrong
(-) once their |metric difference| is at most epsilon (see ``tie_calibration.tie_calibration``,
which enumerates and sorts the pairs of every group). Here those counts are read, for any
epsilon, from cumulative counts per group: cells sorted by metric score, and for each position
the cells before it at each human level. The best epsilon is found by branch and bound over
intervals of epsilon: an interval whose best possible accuracy (its + counts at its right end,
its - counts at its left end) is below the best accuracy seen is dropped; the rest are split at
metric differences of a sample of their pairs until few enough pairs fall in them, and those
pairs are enumerated and sorted. The result is the enumeration's, candidate for candidate: the
same accuracies (the same sums, in the same order) at the same candidates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mteval_core.stats.pairs import CellGroups, cell_groups, monotone_end

BAND_PAIRS = 20_000  # enumerate an interval of epsilon with at most this many pairs of runs
# ... or with at most this many pairs per run that has one there, per split point
ENUMERATE_PER_RUN = 0.5
FLAT_PAIRS = 100_000  # ... or at most this many when it is about as good as the best seen
MAX_TABLE_CELLS = 20_000_000  # positions x levels of the count tables (int64 each)
TOLERANCE = 1e-12  # between accuracies this close the smaller epsilon wins, as in tie_calibration
SPLITS = 32  # at most this many points split an interval
SAMPLE_PAIRS = 100_000  # pairs sampled to place them


@dataclass(frozen=True)
class Calibration:
    threshold: float
    accuracy: float
    base: float  # acc23 at epsilon 0
    accuracy_at: Callable[[np.ndarray], np.ndarray]  # acc23 at any epsilons


def calibrate(metric: np.ndarray, human: np.ndarray, grouping: str) -> Calibration | None:
    """The epsilon that maximises acc23 under ``grouping`` ("system" or "none") and its
    accuracy, or None where the count tables would not fit (the caller enumerates instead).
    The grouping must have at least one pair."""
    cells = np.isfinite(metric) & np.isfinite(human)
    groups = cell_groups(cells, human, grouping)
    sizes = np.diff(groups.starts)
    levels = np.diff(groups.level_starts)
    if int(((sizes + 1) * levels).sum()) > MAX_TABLE_CELLS:
        return None
    counter = _PairCounter(groups, metric[groups.row, groups.segment])
    search = _Search(counter)
    threshold, accuracy = search.best()
    return Calibration(threshold, accuracy, counter.base, counter.accuracy)


class _PairCounter:
    """Counts of the pairs within epsilon, per class, for any epsilons. Cells with the same
    metric and human score in a group are interchangeable: the counter works on runs of them
    (sorted by metric score), each run counting as many cells as it holds."""

    def __init__(self, groups: CellGroups, x: np.ndarray) -> None:
        sizes = np.diff(groups.starts)
        pairs = sizes * (sizes - 1) // 2
        self.n_groups_with_pairs = int((pairs > 0).sum())
        order = np.lexsort((groups.level, x, groups.cell_group))
        group, xs = groups.cell_group[order], x[order]
        level = (groups.level - groups.level_starts[groups.cell_group])[order]
        new_run = np.ones(len(order), bool)
        new_run[1:] = (group[1:] != group[:-1]) | (xs[1:] != xs[:-1]) | (level[1:] != level[:-1])
        first = np.flatnonzero(new_run)
        self.x, self.group, self.level = xs[first], group[first], level[first]
        self.count = np.diff(np.append(first, len(order)))  # cells in each run
        n_groups = groups.n_groups
        self.starts = np.searchsorted(self.group, np.arange(n_groups + 1))
        # runs below each run's metric score in its group
        new_x = np.ones(len(self.x), bool)
        new_x[1:] = (self.group[1:] != self.group[:-1]) | (self.x[1:] != self.x[:-1])
        x_start = np.maximum.accumulate(np.where(new_x, np.arange(len(self.x)), 0))
        self.below = x_start - self.starts[self.group]
        # one sorted key for all groups, to guess positions: groups apart by more than any
        # score difference (the guess is checked with the scores themselves)
        span = 4.0 * (float(np.abs(self.x).max(initial=0.0)) + 1.0)
        self.key = self.group * span + self.x
        runs = np.diff(self.starts)
        self.height = np.diff(groups.level_starts)
        self.same, self.lower = self._count_tables(runs)
        self.row_step = self.height[self.group]
        self.cell_offset = self.table_start[self.group] + self.level
        within_same, within_lower = self._read(self.below)
        self.same_within = self.count * within_same  # every pair: ties, concordant
        self.lower_within = self.count * within_lower
        self.nonempty = np.flatnonzero(runs > 0)
        run_starts = self.starts[self.nonempty]
        self.same_total = np.add.reduceat(self.same_within, run_starts)
        self.lower_total = np.add.reduceat(self.lower_within, run_starts)
        self._classes(pairs)
        self.base = self._base(n_groups)
        self.largest = max(
            (float(self.x[self.starts[g + 1] - 1] - self.x[self.starts[g]])
             for g in range(n_groups) if runs[g] > 0),
            default=0.0,
        )  # fmt: skip

    def _count_tables(self, runs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per group, flattened: same[p, l] the cells of level l in the first p runs, lower[p, l]
        those below level l."""
        self.table_start = np.concatenate([[0], np.cumsum((runs + 1) * self.height)])
        same = np.zeros(int(self.table_start[-1]), np.int64)
        lower = np.zeros_like(same)
        for g in np.flatnonzero(runs):
            span_runs = slice(self.starts[g], self.starts[g + 1])
            table = np.zeros((runs[g] + 1, self.height[g]), np.int64)
            table[np.arange(1, runs[g] + 1), self.level[span_runs]] = self.count[span_runs]
            np.cumsum(table, axis=0, out=table)
            below_level = np.cumsum(table, axis=1) - table
            span = slice(self.table_start[g], self.table_start[g + 1])
            same[span], lower[span] = table.ravel(), below_level.ravel()
        return same, lower

    def _classes(self, pairs: np.ndarray) -> None:
        """Classes: group size (pairs) then sign, as tie_calibration sorts them, and the change
        of acc23 a pair of each class makes."""
        self.pairs = pairs
        self.sizes = sorted({int(p) for p in pairs if p > 0})
        self.size_of = np.minimum(np.searchsorted(self.sizes, pairs), max(len(self.sizes) - 1, 0))
        self.class_of_group = np.zeros((len(self.nonempty), len(self.sizes)))
        with_pairs = pairs[self.nonempty] > 0
        self.class_of_group[np.flatnonzero(with_pairs), self.size_of[self.nonempty][with_pairs]] = 1
        ng = self.n_groups_with_pairs
        self.changes = [(-1 / size / ng, 1 / size / ng) for size in self.sizes]

    def _read(self, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per run (and per row of k), the same-level and lower-level cells among the first k
        runs of its group."""
        index = k * self.row_step + self.cell_offset
        return self.same[index], self.lower[index]

    def _base(self, n_groups: int) -> float:
        """acc23 at epsilon 0: concordant pairs and pairs tied in both scores, per group."""
        concordant = np.bincount(self.group, self.lower_within, minlength=n_groups)
        tied = np.bincount(self.group, self.count * (self.count - 1) // 2, minlength=n_groups)
        base = 0.0
        for g in range(n_groups):
            if self.pairs[g] > 0:
                base += int(concordant[g] + tied[g]) / int(self.pairs[g]) / self.n_groups_with_pairs
        return base

    def far_below(self, epsilons: np.ndarray, runs: np.ndarray | None = None) -> np.ndarray:
        """(len(epsilons), runs): per run (all, or those given), the runs of its group with
        x_r - x_q > epsilon as floats compute it; they come first in the group's order, and
        are below the run's score. All groups at once: a guess from one sorted key (group,
        score), then the floats' own comparison, which a bisection settles where it differs."""
        epsilons = np.asarray(epsilons, dtype=np.float64)[:, None]
        runs = np.arange(len(self.x)) if runs is None else runs
        xq, below, start = self.x[runs], self.below[runs], self.starts[self.group[runs]]
        guess = np.searchsorted(self.key, (self.key[runs] - epsilons).ravel())
        k = np.clip(guess.reshape(len(epsilons), len(runs)) - start, 0, below)
        last = len(self.x) - 1
        wrong = (k > 0) & ~(xq - self.x[np.maximum(start + k - 1, 0)] > epsilons)
        wrong |= (k < below) & (xq - self.x[np.minimum(start + k, last)] > epsilons)
        if wrong.any():
            rows, columns = np.nonzero(wrong)
            fix_x, fix_eps, fix_start = xq[columns], epsilons[rows, 0], start[columns]
            k[rows, columns] = monotone_end(
                np.zeros(len(rows), np.int64),
                below[columns],
                lambda m: fix_x - self.x[np.minimum(fix_start + m, last)] > fix_eps,
            )
        return k

    def counts(self, epsilons: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(epsilons, classes) pairs within each epsilon: concordant (-) and human ties (+)."""
        return self.counts_at(self.far_below(epsilons))

    def counts_moved(
        self, runs: np.ndarray, far_from: np.ndarray, far_to: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rows of far_to, classes) how the class counts change when the ``far_below`` of
        ``runs`` goes from ``far_from`` to each row of ``far_to`` (the other runs stay)."""
        same_from, lower_from = self._read_runs(runs, far_from)
        same_to, lower_to = self._read_runs(runs, far_to)
        weight = self.count[runs]
        group_class = np.zeros((len(self.starts) - 1, len(self.sizes)))
        group_class[self.nonempty] = self.class_of_group
        run_class = group_class[self.group[runs]]  # (runs, classes)
        plus = ((same_from - same_to) * weight) @ run_class
        minus = ((lower_from - lower_to) * weight) @ run_class
        return minus, plus

    def _read_runs(self, runs: np.ndarray, far: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        index = far * self.row_step[runs] + self.cell_offset[runs]
        return self.same[index], self.lower[index]

    def counts_at(self, far: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The class counts at epsilons whose ``far_below`` is ``far`` (epsilons, runs)."""
        index = far * self.row_step + self.cell_offset
        starts = self.starts[self.nonempty]
        same = np.add.reduceat(self.same[index] * self.count, starts, axis=1)
        lower = np.add.reduceat(self.lower[index] * self.count, starts, axis=1)
        plus = (self.same_total - same) @ self.class_of_group
        minus = (self.lower_total - lower) @ self.class_of_group
        return minus, plus

    def combine(self, minus: np.ndarray, plus: np.ndarray) -> np.ndarray:
        """acc23 from the class counts, summed as tie_calibration's accuracy_at sums them."""
        accuracy = np.full(len(minus), self.base)
        for c, (down, up) in enumerate(self.changes):
            accuracy = accuracy + down * minus[:, c]
            accuracy = accuracy + up * plus[:, c]
        return accuracy

    def accuracy(self, epsilons: np.ndarray) -> np.ndarray:
        flat = np.asarray(epsilons, dtype=np.float64).ravel()
        return self.combine(*self.counts(flat)).reshape(np.shape(epsilons))

    def sample_distances(self, size: int) -> np.ndarray:
        """Sorted |dx| of the pairs of every how-many-th cell (about ``size`` pairs)."""
        lengths = self.below
        step = max(1, int(np.ceil(lengths.sum() / size)))
        cells = np.arange(0, len(self.x), step)
        lengths = lengths[cells]
        total = int(lengths.sum())
        c = np.repeat(cells, lengths)
        d = (
            np.repeat(self.starts[self.group[cells]], lengths)
            + np.arange(total)
            - np.repeat(np.cumsum(lengths) - lengths, lengths)
        )
        return np.sort(self.x[c] - self.x[d])

    def band(self, k_low: np.ndarray, k_high: np.ndarray) -> tuple[np.ndarray, ...]:
        """The pairs of runs with low < |dx| <= high, given ``far_below`` at low and at high:
        their |dx|, whether people tie them (else they are concordant; other pairs are left
        out), their class and how many pairs of cells they stand for."""
        cells = np.flatnonzero(k_low > k_high)
        lengths = (k_low - k_high)[cells]
        starts = self.starts[self.group[cells]] + k_high[cells]
        total = int(lengths.sum())
        c = np.repeat(cells, lengths)
        offset = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        d = np.repeat(starts, lengths) + offset
        distance = np.abs(self.x[c] - self.x[d])
        tie = self.level[d] == self.level[c]
        keep = tie | (self.level[d] < self.level[c])
        c, d = c[keep], d[keep]
        return distance[keep], tie[keep], self.size_of[self.group[c]], self.count[c] * self.count[d]


class _Search:
    """Branch and bound over intervals (a, b] of epsilon for the best candidate: 0 or the |dx|
    of a pair people tie. In an interval, accuracy is at most that of its + counts at b with its
    - counts at a; every accuracy is at most that of the best candidate at or below it. Rounds
    split the intervals whose bound reaches the best accuracy seen (at metric differences of
    sampled pairs, and just below the end, where many pairs may share one difference), counting
    only the runs with a pair inside; intervals with few pairs are enumerated, the most
    promising first."""

    def __init__(self, counter: _PairCounter) -> None:
        self.counter = counter
        self.candidates: list[np.ndarray] = []  # candidates and their accuracies, in blocks
        self.accuracies: list[np.ndarray] = []
        self._best_found = -np.inf
        self.points = np.array([0.0, counter.largest])
        far = counter.far_below(self.points)
        self.far = {float(e): row for e, row in zip(self.points, far)}  # point -> far_below
        self.minus, self.plus = counter.counts_at(far)
        self.accuracy = counter.combine(self.minus, self.plus)
        self._found(self.points[:1], self.accuracy[:1])
        self.sample = counter.sample_distances(SAMPLE_PAIRS)

    def best(self) -> tuple[float, float]:
        counter = self.counter
        done: set[float] = set()  # left ends of intervals enumerated
        while True:
            best_seen = max(float(self.accuracy.max()), self._best_found)
            gains = self.plus[1:] - self.plus[:-1]
            bounds = counter.combine(self.minus[:-1], self.plus[1:])
            open_ = (gains.sum(1) > 0) & (bounds >= best_seen - TOLERANCE)
            if done:
                open_ &= ~np.isin(self.points[:-1], list(done))
            if not open_.any():
                break
            k = int(np.flatnonzero(open_)[np.argmax(bounds[open_])])
            low, high = float(self.points[k]), float(self.points[k + 1])
            width = self.far[low] - self.far[high]  # pairs of runs inside, per run
            run_pairs, active = int(width.sum()), int(np.count_nonzero(width))
            if np.nextafter(low, np.inf) >= high:  # every pair there is at its end
                self._found(np.array([high]), self.accuracy[k + 1 : k + 2])
                done.add(low)
                continue
            # parts enough to bring each part's bound under the best seen, were the ties spread
            # evenly: the bound's rise over the interval, over the room left below the best
            rise = float(bounds[k]) - float(self.accuracy[k])
            room = best_seen - TOLERANCE - float(self.accuracy[k])
            parts = SPLITS if room <= 0 else int(np.clip(np.ceil(2 * rise / room), 2, SPLITS))
            # enumerating costs about as much per pair of runs as splitting per point and run;
            # an interval this near the best (as many parts as allowed) rarely drops out
            limit = max(BAND_PAIRS, ENUMERATE_PER_RUN * parts * active)
            if parts == SPLITS:
                limit = max(limit, FLAT_PAIRS)
            if run_pairs <= limit:
                self._enumerate(k)
                done.add(low)
            else:
                self._split(k, np.flatnonzero(width), parts)
        candidates = np.concatenate(self.candidates)
        accuracies = np.concatenate(self.accuracies)
        good = accuracies >= accuracies.max() - TOLERANCE
        best = int(np.flatnonzero(good)[np.argmin(candidates[good])])
        return float(candidates[best]), float(accuracies[best])

    def _found(self, candidates: np.ndarray, accuracies: np.ndarray) -> None:
        self.candidates.append(np.asarray(candidates, dtype=np.float64))
        self.accuracies.append(np.asarray(accuracies, dtype=np.float64))
        if len(accuracies):
            self._best_found = max(self._best_found, float(np.max(accuracies)))

    def _split(self, k: int, active: np.ndarray, parts: int) -> None:
        """Count the points that split interval k into ``parts``, from the runs with a pair
        inside."""
        counter = self.counter
        low, high = float(self.points[k]), float(self.points[k + 1])
        points = self._split_points(low, high, parts)
        far_low = self.far[low]
        moved = counter.far_below(points, active)
        minus, plus = counter.counts_moved(active, far_low[active], moved)
        for point, row in zip(points, moved):
            far = far_low.copy()
            far[active] = row
            self.far[float(point)] = far
        minus, plus = self.minus[k] + minus, self.plus[k] + plus
        at = k + 1
        self.points = np.insert(self.points, at, points)
        self.minus = np.insert(self.minus, at, minus, axis=0)
        self.plus = np.insert(self.plus, at, plus, axis=0)
        self.accuracy = np.insert(self.accuracy, at, counter.combine(minus, plus))

    def _split_points(self, low: float, high: float, n_parts: int) -> np.ndarray:
        """Points inside (low, high): metric differences of the sampled pairs there at even
        ranks (evenly spaced if too few were sampled), and the float just below high."""
        sample = self.sample
        inside = sample[
            np.searchsorted(sample, low, "right") : np.searchsorted(sample, high, "left")
        ]
        if len(inside) >= n_parts:
            points = inside[(np.arange(1, n_parts) * len(inside)) // n_parts]
        else:
            points = low + (high - low) * np.arange(1, n_parts) / n_parts
        points = np.append(points, np.nextafter(high, -np.inf))
        points = np.unique(points[(points > low) & (points < high)])
        return points

    def _enumerate(self, k: int) -> float:
        """Every candidate in (points[k], points[k + 1]] with its accuracy, from the pairs
        there; returns the best of them (or -inf)."""
        counter = self.counter
        distance, tie, klass, weight = counter.band(
            self.far[float(self.points[k])], self.far[float(self.points[k + 1])]
        )
        if not tie.any():
            return -np.inf
        candidates = np.unique(distance[tie])
        slot = np.searchsorted(candidates, distance)  # the first candidate each pair is within
        n = len(candidates)
        minus = np.tile(self.minus[k], (n, 1))
        plus = np.tile(self.plus[k], (n, 1))
        for c in range(len(counter.sizes)):
            members = np.ones(len(slot), bool) if len(counter.sizes) == 1 else klass == c
            for is_tie, target in ((False, minus), (True, plus)):
                chosen = members & (tie == is_tie)
                counts = np.bincount(slot[chosen], weight[chosen], minlength=n + 1)[:n]
                target[:, c] += np.cumsum(counts)
        accuracies = counter.combine(minus, plus)
        self._found(candidates, accuracies)
        return float(accuracies.max())
