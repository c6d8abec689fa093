"""Metric ranking: mt-metrics-eval's permutation tests and AssignRanks, ported cases and
hand-checked ones."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

from mteval_core.stats.ranking import (
    PermutationParams,
    assign_ranks,
    pairwise_permutation_test,
    permutation_test,
    rank_metrics,
    statistic_function,
)
from mteval_core.stats.segment_level import (
    SegmentLevelParams,
    grouped_statistics,
    segment_level_statistics,
)

# PermutationSigDiffTest's data: 4 systems x 2 segments, packed system by system
GOLD = np.array([1, 2, 3, 4, 5, 5, 7, 8], dtype=float).reshape(4, 2)
METRIC_1 = np.array([1, 2, 3, 3, 7, 3, 5, 5], dtype=float).reshape(4, 2)
METRIC_2 = np.array([2, 1, 2, 6, 8, 8, 7, 6], dtype=float).reshape(4, 2)


def test_pearson_no_averaging_no_early_stop():
    function = statistic_function("pearson", "none", GOLD)
    result = permutation_test(METRIC_1, METRIC_2, GOLD, function, np.random.default_rng(0))
    delta = (
        scipy_stats.pearsonr(METRIC_2.ravel(), GOLD.ravel()).statistic
        - scipy_stats.pearsonr(METRIC_1.ravel(), GOLD.ravel()).statistic
    )
    assert result.delta == pytest.approx(delta)
    assert result.p_value > 0 and result.n_permutations == 1000 and len(result.draws) == 1000
    draws_b, draws_a = result.draws.T
    assert np.mean(draws_b - draws_a >= result.delta) == result.p_value


def test_pearson_with_early_stop():
    function = statistic_function("pearson", "none", GOLD)
    params = PermutationParams(block_size=50, early_max=0.2)
    result = permutation_test(METRIC_1, METRIC_2, GOLD, function, np.random.default_rng(0), params)
    assert result.n_permutations < 1000 and result.n_permutations % 50 == 0
    assert len(result.draws) == result.n_permutations
    draws_b, draws_a = result.draws.T
    assert np.mean(draws_b - draws_a >= result.delta) == result.p_value


@pytest.mark.parametrize(
    ("name", "grouping"),
    [("pearson", "system"), ("pearson", "item"), ("kendall_b", "item"), ("kendall_c", "item")],
)
def test_delta_is_the_difference_of_the_statistics(name, grouping):
    """The permutation test z-normalises each metric; these statistics do not change."""
    ones = np.ones((1, 2))
    params = SegmentLevelParams(n_resamples=0)
    first = getattr(grouped_statistics(METRIC_1, GOLD, grouping, ones, params), name).value
    second = getattr(grouped_statistics(METRIC_2, GOLD, grouping, ones, params), name).value
    function = statistic_function(name, grouping, GOLD)
    params = PermutationParams(n_permutations=10, block_size=10)
    result = permutation_test(METRIC_1, METRIC_2, GOLD, function, np.random.default_rng(1), params)
    assert result.delta == pytest.approx(second - first)
    assert result.n_permutations == 10


def test_pairwise_permutation_test_for_acc_eq():
    """PairwisePermutationSigDiffTest: item grouping, k = 10."""
    gold = np.array([1, 3, 3, 3, 1, 2, 1, 2], dtype=float).reshape(4, 2)
    first = np.array([2, 4, 6, 6, 2, 6, 3, 7], dtype=float).reshape(4, 2)
    second = np.array([1, 5, 4, 4, 4, 3, 2, 1], dtype=float).reshape(4, 2)
    params = PermutationParams(n_permutations=10)
    result = pairwise_permutation_test(
        first, second, gold, "item", np.random.default_rng(2), params
    )
    # mt-metrics-eval's KendallWithTiesOpt values: 0.6666666666666666 and 0.5833333333333334
    assert result.delta == pytest.approx(0.5833333333333334 - 0.6666666666666666)
    assert result.n_permutations == 10 and len(result.draws) == 10
    draws_b, draws_a = result.draws.T
    assert np.mean(draws_b - draws_a >= result.delta) == result.p_value
    # a swap moves accuracy from one side to the other: the sum is the same in every draw
    np.testing.assert_allclose(draws_b + draws_a, 0.5833333333333334 + 0.6666666666666666)


def test_identical_metrics_never_differ():
    function = statistic_function("pearson", "none", GOLD)
    result = permutation_test(METRIC_1, METRIC_1, GOLD, function, np.random.default_rng(0))
    assert result.delta == 0 and result.p_value == 1.0


def test_seeded():
    function = statistic_function("kendall_b", "item", GOLD)
    runs = [
        permutation_test(METRIC_1, METRIC_2, GOLD, function, np.random.default_rng(9))
        for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0].draws, runs[1].draws)


def test_assign_ranks():
    """mt-metrics-eval's AssignRanks: a metric starts a new rank when one of the metrics from
    the current rank's first one down to it is significantly better."""
    p = np.ones((4, 4))
    assert assign_ranks(p) == [1, 1, 1, 1]
    p[0, 1] = 0.01  # metric 1 is worse than metric 0
    assert assign_ranks(p) == [1, 2, 2, 2]
    p[0, 3] = 0.01  # metric 0 beats metric 3, but metric 0 is no longer in rank 2
    assert assign_ranks(p) == [1, 2, 2, 2]
    p[1, 3] = 0.05  # p <= 0.05 counts
    assert assign_ranks(p) == [1, 2, 2, 3]


def test_rank_metrics_orders_clusters_and_intervals():
    rng = np.random.default_rng(3)
    human = rng.normal(size=(4, 60))
    close = human + rng.normal(scale=0.3, size=human.shape)
    metrics = {
        "close": close,
        "near": 2 * close + 1,  # the same Pearson: never significantly different
        "noise": rng.normal(size=human.shape),
        "flat": np.zeros_like(human),
    }
    result = segment_level_statistics(
        metrics, human, np.random.default_rng(4), SegmentLevelParams(n_resamples=100)
    )
    ranking = rank_metrics(
        metrics, human, "pearson", "none", np.random.default_rng(5), result=result
    )
    names = [metric.name for metric in ranking.metrics]
    assert names == ["close", "near", "noise", "flat"]
    ranks = {metric.name: metric.rank for metric in ranking.metrics}
    assert ranks["close"] == ranks["near"] == 1 and ranks["noise"] == 2
    flat = ranking.metrics[-1]
    assert flat.value is None and flat.interval is None  # undefined: last, not tested
    assert flat.rank is None and flat.undefined == "constant metric scores"  # nor ranked
    assert ranking.defined == ("close", "near", "noise")
    close = ranking.metrics[0]
    assert close.interval == result.metric("close").grouping("none").pearson.interval
    accuracy = rank_metrics(metrics, human, "acc_eq", "item", np.random.default_rng(6))
    assert accuracy.metrics[-1].name in ("noise", "flat")


@pytest.mark.parametrize(
    ("statistic", "grouping", "reason"),
    [
        ("pearson", "item", "constant human scores in every group"),
        ("spa", "none", "fewer than two systems"),
        ("pairwise_accuracy", "none", "fewer than 3 systems with human scores"),
    ],
)
def test_no_metric_is_ranked_when_the_statistic_is_undefined_for_all(statistic, grouping, reason):
    """Constant human scores (or a single rated system) left every metric "rank 1"."""
    rng = np.random.default_rng(8)
    human = (
        np.tile([[1.0, 2.0, 3.0]], (4, 1)) if statistic == "pearson" else rng.normal(size=(1, 9))
    )
    metrics = {"a": rng.normal(size=human.shape), "b": rng.normal(size=human.shape)}
    ranking = rank_metrics(metrics, human, statistic, grouping, np.random.default_rng(1))
    assert [(m.name, m.value, m.rank, m.undefined) for m in ranking.metrics] == [
        ("a", None, None, reason),
        ("b", None, None, reason),
    ]
    assert ranking.defined == ()


def test_pairwise_permutation_p_value_matches_the_exact_permutation_distribution():
    """Every one of the 2^6 ways to swap the 6 pairs' outcomes, enumerated: the binomial draws
    give the same distribution as a coin per pair."""
    from itertools import product

    from mteval_core.stats.tie_calibration import scored_pairs, tie_calibration

    gold = np.array([1, 3, 2, 3, 3, 1], dtype=float).reshape(3, 2)
    first = np.array([2, 4, 6, 6, 2, 6], dtype=float).reshape(3, 2)
    second = np.array([1, 5, 4, 4, 4, 3], dtype=float).reshape(3, 2)
    cells = np.ones(gold.shape, bool)
    outcomes = []
    for metric in (first, second):
        threshold = tie_calibration(metric, gold, "item").threshold
        right = []
        for _, dx, dy in scored_pairs(metric, gold, cells, "item"):
            concordant = ((dx > 0) & (dy > 0)) | ((dx < 0) & (dy < 0))
            right.append(np.where(np.abs(dx) <= threshold, dy == 0, concordant).ravel())
        outcomes.append(np.concatenate(right).astype(float))
    weight = np.full(len(outcomes[0]), 1 / len(outcomes[0]))  # 3 pairs in each of 2 items
    delta = weight @ (outcomes[1] - outcomes[0])
    change = weight * (outcomes[0] - outcomes[1])
    exact = np.mean(
        [
            delta + 2 * (np.array(swaps) @ change) >= delta - 1e-12  # side b - side a
            for swaps in product((0, 1), repeat=len(change))
        ]
    )
    params = PermutationParams(n_permutations=40_000, block_size=40_000)
    found = pairwise_permutation_test(first, second, gold, "item", np.random.default_rng(3), params)
    assert found.delta == pytest.approx(delta)
    assert 0 < exact < 1 and found.p_value == pytest.approx(exact, abs=0.01)
