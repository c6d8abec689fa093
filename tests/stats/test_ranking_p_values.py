"""A ranking's p-values, one metric against every other: the test of each pair read in the right
direction, the pairs that were never tested, and how many permutations were asked."""

from __future__ import annotations

import numpy as np

from mteval_core.stats.ranking import (
    MetricRanking,
    PairwiseP,
    PermutationParams,
    RankedMetric,
    rank_metrics,
)


def test_p_values_of_one_metric_read_each_pair_once_in_its_direction():
    p_values = np.ones((3, 3))
    p_values[0, 1], p_values[0, 2], p_values[1, 2] = 0.2, 0.001, 0.05
    ranking = MetricRanking(
        "pearson",
        "none",
        (RankedMetric("a", 0.9, 1), RankedMetric("b", 0.8, 1), RankedMetric("c", 0.1, 2)),
        p_values,
    )
    assert ranking.p_values_of("b") == [
        PairwiseP("b", "a", "a", 0.2, False),
        PairwiseP("b", "c", "b", 0.05, True),  # at the level counts, as in AssignRanks
    ]
    assert [pair.p_value for pair in ranking.p_values_of("a")] == [0.2, 0.001]
    assert ranking.defined == ("a", "b", "c")


def test_a_metric_without_a_value_is_not_tested():
    ranking = MetricRanking(
        "pearson",
        "none",
        (RankedMetric("a", 0.9, 1), RankedMetric("x", None, 2)),
        np.ones((2, 2)),
    )
    assert ranking.defined == ("a",)
    assert ranking.p_values_of("a") == [PairwiseP("a", "x", "a", None, False)]


def test_rank_metrics_says_how_many_permutations_it_asked_and_its_p_values_are_the_tests():
    rng = np.random.default_rng(3)
    human = rng.normal(size=(4, 30))
    metrics = {
        "close": human + rng.normal(scale=0.3, size=human.shape),
        "far": human + rng.normal(scale=3.0, size=human.shape),
        "noise": rng.normal(size=human.shape),
    }
    ranking = rank_metrics(
        metrics, human, "pearson", "none", np.random.default_rng(0), PermutationParams(200)
    )
    assert ranking.n_permutations == 200
    assert ranking.defined[0] == "close"
    pairs = {pair.other: pair for pair in ranking.p_values_of("close")}
    names = [m.name for m in ranking.metrics]
    for other, pair in pairs.items():
        assert pair.p_value == ranking.p_values[0, names.index(other)]
        assert pair.higher == "close"
