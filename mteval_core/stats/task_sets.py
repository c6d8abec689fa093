"""mt-metrics-eval's WMT25 task set: per language pair a system-level SPA task and a segment-level
acc_eq task grouped by item, equal weights, ranks and significance clusters as it prints them.

Source: google-research/mt-metrics-eval @ 68a481a, ``tasks.py`` ``WMT25()`` (and WMT24's, the
same tasks): for each pair, in sorted order, ``Task(lp, level='sys', corr_fcn='pce')`` and
``Task(lp, level='seg', corr_fcn='KendallWithTiesOpt', avg_by='item', perm_test='pairs',
corr_fcn_args={'sample_rate': 1.0})``, weights 1 / (number of tasks); ``Task`` runs
``data.CompareMetricsWithPairwiseConfidenceError`` and ``data.CompareMetrics`` (metrics ordered
by value, then name; every pair tested; ``AssignRanks`` at p <= 0.05), and
``TaskSetResults.AverageCorrMatrix`` gives the average and its clusters from the same draws.

Its permutation tests draw from numpy's global generator, one call per permutation (and per item
for acc_eq), in task order and pair order. Here a ``numpy.random.RandomState(seed)`` is consumed
the same way, so with ``np.random.seed(seed)`` before its run every p-value, rank and cluster is
its own. The arithmetic that decides ties is its own too:

- SPA's p-values are float32 matrix products of each permuted matrix as it computes them
  (``system_agreement.pairwise_p_values``), the human p-values once;
- acc_eq is the value of its incremental search (``tau_optimization``): the running sum of the
  items' accuracies as each pair turns into a tie, in the same order and rounding, so that
  metrics whose acc_eq is the constant baseline's order as they do there (by the last bits);
- the permuted acc_eq of PairwisePermutationSigDiff is the mean of the items' acc23 at each
  metric's threshold, as it computes ``delta`` and the draws (not the running sum), and its early
  stop is checked only after a block whose last permutation counted, as its indentation has it.

Systems are in sorted order (mt-metrics-eval iterates a Python set, whose order changes with
PYTHONHASHSEED; SPA depends on the order through its ties, by 1e-5 on WMT21 TED).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.stats.ranking import assign_ranks
from mteval_core.stats.system_agreement import (
    SPA_SEED,
    complete_columns,
    pairwise_p_values,
    permutation_signs,
)

SPA_PERMUTATIONS = 1000  # PairwiseConfidenceError's num_permutations
SPA_TASK, ACC_EQ_TASK = "spa", "acc_eq_item"


@dataclass(frozen=True)
class TaskSetParams:
    """``Task``'s defaults (k as WMT25()'s caller sets it; 0: values and order only)."""

    n_permutations: int = 1000
    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.5
    significance: float = 0.05
    seed: int = 1


@dataclass(frozen=True)
class PairData:
    """One language pair: human and metric scores over the same systems (sorted) x segments,
    NaN where people gave no score; metrics keyed by their display name, higher is better."""

    systems: tuple[str, ...]
    human: np.ndarray
    metrics: Mapping[str, np.ndarray]


@dataclass(frozen=True, eq=False)
class TaskResult:
    lp: str
    statistic: str  # SPA_TASK or ACC_EQ_TASK
    metrics: tuple[str, ...]  # best first
    values: tuple[float, ...]
    ranks: tuple[int, ...]
    p_values: np.ndarray  # [i, j], i < j: p that metric j is at least as good as metric i
    draws: Mapping[tuple[int, int], np.ndarray]  # (i, j) -> (n, 2): i's side, j's side

    @property
    def level(self) -> str:
        return "sys" if self.statistic == SPA_TASK else "seg"

    def draws_of(self, first: str, second: str) -> np.ndarray:
        """The permuted values of ``first`` and ``second`` (mt-metrics-eval's Draws)."""
        i, j = self.metrics.index(first), self.metrics.index(second)
        if i < j:
            return self.draws[(i, j)]
        return self.draws[(j, i)][:, ::-1]


@dataclass(frozen=True, eq=False)
class TaskSetResult:
    tasks: tuple[TaskResult, ...]
    weights: tuple[float, ...]
    average: tuple[tuple[str, float, int], ...]  # (metric, weighted average, rank), best first
    average_p_values: np.ndarray | None  # None without permutations


def wmt25_task_set(pairs: Mapping[str, PairData], params: TaskSetParams) -> TaskSetResult:
    """Every task of WMT25() on ``pairs`` (language pair -> its scores), in its order."""
    rng = np.random.RandomState(params.seed)
    tasks = []
    for lp in sorted(pairs):
        tasks.append(_spa_task(lp, pairs[lp], params, rng))
        tasks.append(_acc_eq_task(lp, pairs[lp], params, rng))
    weights = tuple([1 / len(tasks)] * len(tasks))
    average, p_values = average_ranking(tasks, weights, params)
    return TaskSetResult(tuple(tasks), weights, average, p_values)


# ----------------------------------------------------------------------------- SPA
def _spa_task(
    lp: str, data: PairData, params: TaskSetParams, rng: np.random.RandomState
) -> TaskResult:
    columns = complete_columns(data.human)
    human = data.human[:, columns]
    signs = permutation_signs(int(columns.sum()), SPA_PERMUTATIONS, np.random.default_rng(SPA_SEED))
    p_human = pairwise_p_values(human, signs)

    def spa(metric: np.ndarray) -> float:
        return float(1.0 - np.mean(np.abs(p_human - pairwise_p_values(metric, signs))))

    metrics = {name: matrix[:, columns] for name, matrix in data.metrics.items()}
    values = {name: spa(matrix) for name, matrix in metrics.items()}

    def test(higher: str, lower: str) -> tuple[float, np.ndarray]:
        return _spa_permutation_test(metrics[lower], metrics[higher], spa, params, rng)

    return _ranked_task(lp, SPA_TASK, values, test, params)


def _spa_permutation_test(
    lower: np.ndarray, higher: np.ndarray, spa, params: TaskSetParams, rng
) -> tuple[float, np.ndarray]:
    """PermutationSigDiff(lower, higher) with PCE: z-scores over all cells, one coin per cell
    and permutation (``binomial(1, 0.5, cells)``), an early stop at every block."""
    shape = lower.shape
    z_lower, z_higher = _z_scores(lower.ravel()), _z_scores(higher.ravel())
    delta = spa(z_higher.reshape(shape)) - spa(z_lower.reshape(shape))
    draws, reached, done = [], 0, 0
    while done < params.n_permutations:
        block = min(params.block_size, params.n_permutations - done)
        for coin in coins(rng, (block, z_lower.size)):
            side_lower = np.where(coin, z_lower, z_higher).reshape(shape)
            side_higher = np.where(coin, z_higher, z_lower).reshape(shape)
            draws.append((spa(side_higher), spa(side_lower)))
            reached += draws[-1][0] - draws[-1][1] >= delta
        done += block
        if done % params.block_size == 0 and not (
            params.early_min <= reached / done <= params.early_max
        ):
            break
    return reached / done, np.array(draws)


def coins(rng: np.random.RandomState, shape: tuple[int, ...]) -> np.ndarray:
    """``rng.binomial(1, 0.5, shape)`` as booleans, drawn faster: the legacy binomial with n = 1
    takes one uniform per variate and gives 1 exactly when it exceeds 0.5, so the stream, and
    what follows from it, is the same (tests/stats/test_wmt25_task_set.py checks both)."""
    return rng.random_sample(shape) > 0.5


def _z_scores(values: np.ndarray) -> np.ndarray:
    """scipy.stats.zscore's arithmetic (ddof 0)."""
    return (values - values.mean()) / values.std()


# ----------------------------------------------------------------------------- acc_eq
@dataclass(frozen=True, eq=False)
class _Outcomes:
    """One metric's pairs within items at its calibrated threshold."""

    value: float  # acc_eq as the incremental search computes it
    right: np.ndarray  # per pair (items in order, i < j within an item, row-major)


def _acc_eq_task(
    lp: str, data: PairData, params: TaskSetParams, rng: np.random.RandomState
) -> TaskResult:
    items = _ItemPairs(data.human)
    outcomes = {name: items.outcomes(matrix) for name, matrix in data.metrics.items()}
    values = {name: outcome.value for name, outcome in outcomes.items()}

    def test(higher: str, lower: str) -> tuple[float, np.ndarray]:
        return items.permutation_test(outcomes[lower].right, outcomes[higher].right, params, rng)

    return _ranked_task(lp, ACC_EQ_TASK, values, test, params)


class _ItemPairs:
    """The pairs of cells within each segment (item) that people scored, in mt-metrics-eval's
    order: items in order, systems i < j in each, the cells without a human score left out."""

    def __init__(self, human: np.ndarray) -> None:
        cells = np.isfinite(human)
        self.items = np.flatnonzero(cells.any(axis=0))  # _ReshapeAndFilter keeps these
        sizes = cells[:, self.items].sum(axis=0)
        self.draw_sizes = sizes**2  # binomial(1, 0.5, (n, n)) per item and permutation
        offsets = np.concatenate([[0], np.cumsum(self.draw_sizes)[:-1]])
        first, second, picks, item_of = [], [], [], []
        for item, (column, n, offset) in enumerate(zip(self.items, sizes, offsets)):
            upper = np.triu_indices(int(n), k=1)
            rows = np.flatnonzero(cells[:, column])
            first.append(rows[upper[0]])
            second.append(rows[upper[1]])
            picks.append(offset + upper[0] * n + upper[1])  # B[i, j], i < j, of that item
            item_of.append(np.full(len(upper[0]), item))
        self.first, self.second = np.concatenate(first), np.concatenate(second)
        self.picks, self.item_of = np.concatenate(picks), np.concatenate(item_of)
        self.pairs = sizes * (sizes - 1) // 2
        self.column = self.items[self.item_of]
        self.dy = human[self.second, self.column] - human[self.first, self.column]

    def outcomes(self, metric: np.ndarray) -> _Outcomes:
        dx = metric[self.second, self.column] - metric[self.first, self.column]
        threshold, value = self._calibrate(dx)
        tie = np.abs(dx) <= threshold
        agree = ((dx > 0) & (self.dy > 0)) | ((dx < 0) & (self.dy < 0))
        return _Outcomes(value, np.where(tie, self.dy == 0, agree))

    def _calibrate(self, dx: np.ndarray) -> tuple[float, float]:
        """tau_optimization's search, operation for operation: pairs sorted by |dx| (stable),
        each turned into a tie in turn; the items' acc23 summed as it sums them."""
        right_untied = (
            ((dx > 0) & (self.dy > 0)) | ((dx < 0) & (self.dy < 0)) | ((dx == 0) & (self.dy == 0))
        )
        right_tied = self.dy == 0
        order = np.argsort(np.abs(dx), kind="stable")
        distance = np.abs(dx)[order]
        item = self.item_of[order]
        change = right_tied[order].astype(np.int64) - right_untied[order]
        n_pairs = self.pairs[item]
        before = np.bincount(self.item_of, weights=right_untied, minlength=len(self.pairs))
        before = before.astype(np.int64)
        # each item's count of right pairs after each of its pairs turns: cumulative by item
        running = _cumulative_by_group(change, item, len(self.pairs)) + before[item]
        old = (running - change) / n_pairs
        new = running / n_pairs
        rows = self._with_pairs  # the items with a pair, as tau_optimization's rows
        total = 0
        for accuracy in before[rows] / self.pairs[rows]:  # Python's sum, item by item
            total += accuracy
        steps = np.empty(2 * len(order) + 1)
        steps[0], steps[1::2], steps[2::2] = total, -old, new
        totals = np.add.accumulate(steps)[2::2]  # total -= old; total += new, pair by pair
        taus = np.concatenate([[total], totals]) / int(rows.sum())
        thresholds = np.concatenate([[0.0], distance])
        # a threshold's tau is the one after its last pair (the first threshold, 0.0, is
        # overwritten by the pairs at distance 0)
        candidates = np.flatnonzero(np.concatenate([thresholds[1:] != thresholds[:-1], [True]]))
        best = candidates[np.nanargmax(taus[candidates])]
        return float(thresholds[best]), float(taus[best])

    def permutation_test(
        self, lower: np.ndarray, higher: np.ndarray, params: TaskSetParams, rng
    ) -> tuple[float, np.ndarray]:
        """PairwisePermutationSigDiff(lower, higher): per permutation and item, binomial(1, 0.5,
        (n, n)) and its upper triangle chooses which metric's outcome each pair takes."""
        delta = self._mean_accuracy(higher[None]) - self._mean_accuracy(lower[None])
        draws, reached, done = [], 0, 0
        while done < params.n_permutations:
            block = min(params.block_size, params.n_permutations - done)
            chosen = coins(rng, (block, int(self.draw_sizes.sum())))[:, self.picks]
            side_lower = self._mean_accuracy(np.where(chosen, lower, higher))
            side_higher = self._mean_accuracy(np.where(chosen, higher, lower))
            counted = side_higher - side_lower >= delta[0]
            draws.append(np.column_stack([side_higher, side_lower]))
            reached += int(counted.sum())
            done += block
            checked = done % params.block_size == 0 and counted[-1]  # only after a counted one
            if checked and not params.early_min <= reached / done <= params.early_max:
                break
        return reached / done, np.concatenate(draws)

    def _mean_accuracy(self, right: np.ndarray) -> np.ndarray:
        """Per row of pair outcomes, the mean over items of (right pairs / pairs)."""
        counts = np.add.reduceat(right.astype(np.int64), self._starts, axis=1)
        return np.mean(counts / self.pairs[self._with_pairs], axis=1)

    @property
    def _with_pairs(self) -> np.ndarray:
        return self.pairs > 0

    @property
    def _starts(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(self.pairs)[:-1]])[self._with_pairs]


def _cumulative_by_group(values: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Running sum of ``values`` within each group, in the given order (integers: exact)."""
    order = np.argsort(groups, kind="stable")
    sums = np.cumsum(values[order])
    starts = np.searchsorted(groups[order], np.arange(n_groups))
    ends = np.concatenate([starts[1:], [len(values)]])
    before = np.concatenate([[0], sums])[starts]
    per_group = sums - np.repeat(before, ends - starts)
    result = np.empty_like(per_group)
    result[order] = per_group
    return result


# ----------------------------------------------------------------------------- ranking
def _ranked_task(lp, statistic, values: Mapping[str, float], test, params) -> TaskResult:
    """CompareMetrics: order by value then name, test every pair (i above j), AssignRanks."""
    metrics = tuple(sorted(values, key=lambda name: (-values[name], name)))
    p_values = np.zeros((len(metrics), len(metrics)))
    draws = {}
    if params.n_permutations:
        for i in range(len(metrics)):
            for j in range(i + 1, len(metrics)):
                p_values[i, j], draws[(i, j)] = test(metrics[i], metrics[j])
    ranks = assign_ranks(p_values, params.significance)
    return TaskResult(
        lp, statistic, metrics, tuple(values[m] for m in metrics), tuple(ranks), p_values, draws
    )


def average_ranking(
    tasks: Sequence[TaskResult], weights: Sequence[float], params: TaskSetParams
) -> tuple[tuple[tuple[str, float, int], ...], np.ndarray | None]:
    """AverageCorrs and AverageCorrMatrix: the weighted mean of each metric's values over the
    tasks that all have it (both statistics lie in [0, 1], so no rescaling), and its clusters
    from the tasks' draws, a shorter task's draws repeated to the longest's length."""
    sums: dict[str, list[float]] = {}
    for task, weight in zip(tasks, weights):
        for metric, value in zip(task.metrics, task.values):
            sums.setdefault(metric, []).append(value * weight)
    averages = {m: sum(parts) for m, parts in sums.items() if len(parts) == len(tasks)}
    metrics = sorted(averages, key=lambda m: -averages[m])
    if not params.n_permutations:
        ranks = list(range(1, len(metrics) + 1))  # AssignRanks on an all-zero matrix
        return tuple((m, averages[m], r) for m, r in zip(metrics, ranks)), None
    p_values = np.zeros((len(metrics), len(metrics)))
    for i, first in enumerate(metrics):
        for j in range(i + 1, len(metrics)):
            second = metrics[j]
            per_task = [task.draws_of(first, second) for task in tasks]
            longest = max(len(d) for d in per_task)
            null = np.zeros((len(tasks), longest))
            for k, (draws, weight) in enumerate(zip(per_task, weights)):
                scaled = weight * draws
                difference = scaled[:, 0] - scaled[:, 1]
                copies = int(np.ceil(longest / len(difference)))
                null[k] = np.tile(difference, copies)[:longest]
            observed = averages[first] - averages[second]
            p_values[i, j] = np.mean(np.sum(null, axis=0) >= observed)
    ranks = assign_ranks(p_values, params.significance)
    return tuple((m, averages[m], r) for m, r in zip(metrics, ranks)), p_values


def spa_intervals(
    data: PairData, n_resamples: int, rng: np.random.Generator, confidence: float = 0.95
) -> dict[str, tuple[float, float] | None]:
    """Our percentile intervals of each metric's SPA (mt-metrics-eval has none): the segments
    that every system has a human score for, resampled with replacement, the same resamples for
    every metric, SPA recomputed on each with the same permutation signs."""
    from mteval_core.stats.bootstrap import percentile_interval

    columns = np.flatnonzero(complete_columns(data.human))
    signs = permutation_signs(len(columns), SPA_PERMUTATIONS, np.random.default_rng(SPA_SEED))
    drawn = rng.integers(0, len(columns), size=(n_resamples, len(columns)))
    values = {name: np.empty(n_resamples) for name in data.metrics}
    for row, chosen in enumerate(columns[drawn]):
        p_human = pairwise_p_values(data.human[:, chosen], signs)
        for name, matrix in data.metrics.items():
            p_metric = pairwise_p_values(matrix[:, chosen], signs)
            values[name][row] = 1.0 - np.mean(np.abs(p_human - p_metric))
    return {name: percentile_interval(v, confidence) for name, v in values.items()}
