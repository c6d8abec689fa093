"""Segment-level statistics against mt-metrics-eval (@68a481a) and scipy.

Three kinds of expected values: the cases of mt-metrics-eval's own unit tests (stats_test.py,
tau_optimization_test.py, pce_test.py), where a test there gives a value to three places the
exact value its code computes is pinned here too; the numbers of issue #11 on WMT21 TED en-de;
and, for the intervals, the same statistic computed by scipy on the explicitly resampled data.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats as scipy_stats

from mteval_core.io import read_directory
from mteval_core.metrics import get_metric
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.judgment_matrices import criterion_matrix
from mteval_core.settings.options import Options
from mteval_core.stats.segment_level import (
    SegmentLevelParams,
    batched_statistic,
    grouped_statistics,
    resampled_statistics,
    segment_level_statistics,
)
from mteval_core.stats.system_agreement import (
    pairwise_agreement,
    pairwise_p_values,
    permutation_signs,
    soft_pairwise_accuracy,
)
from mteval_core.stats.tie_calibration import tie_calibration
from tests.helpers import shared_dataset

NONE = np.nan  # mt-metrics-eval's None: a cell without a gold score
NO_RESAMPLES = SegmentLevelParams(n_resamples=0)


def packed(n_systems: int, values: list) -> np.ndarray:
    """mt-metrics-eval's packed vector (systems one after another) as a (systems, items) matrix."""
    return np.array(values, dtype=np.float64).reshape(n_systems, -1)


def statistic(metric, human, grouping, name, params=NO_RESAMPLES):
    ones = np.ones((1, human.shape[1]))
    return getattr(grouped_statistics(metric, human, grouping, ones, params), name).value


# ---------------------------------------------------------------------- stats_test.py
GOLD = packed(2, [1, 2, 3, 4, 5, 6])
METRIC = packed(2, [2, 1, 4, 3, 3, 7])


@pytest.mark.parametrize(
    ("name", "grouping", "places_3", "exact"),
    [
        ("pearson", "none", 0.776, 0.7763237542601484),
        ("pearson", "system", 0.760, 0.7603395372462078),
        ("pearson", "item", 1.00, 1.0),
        ("kendall_b", "none", 0.552, 0.5520524474738833),
        ("kendall_b", "system", 0.575, 0.5749149571305296),
        ("kendall_b", "item", 1.00, 1.0),
        ("kendall_c", "none", 0.556, 0.5555555555555556),
        ("kendall_c", "system", 0.611, 0.611111111111111),
        ("kendall_c", "item", 1.00, 1.0),
        ("spearman", "none", 0.754, 0.753702346348183),
        ("spearman", "system", 0.683, 0.6830127018922194),
    ],
)
def test_correlation_test_cases(name, grouping, places_3, exact):
    value = statistic(METRIC, GOLD, grouping, name)
    assert round(value, 3) == places_3
    assert value == pytest.approx(exact, abs=1e-12)


def test_kendall_like_cases():
    one = packed(1, [10, NONE, 100, 150])
    metric = packed(1, [2, 1, 4, 3])
    params = SegmentLevelParams(kendall_like_threshold=1, n_resamples=0)
    assert statistic(metric, one, "none", "kendall_like", params) == pytest.approx(1 / 3)
    two = packed(2, [10, 11, 100, 150])
    assert statistic(packed(2, [2, 1, 4, 3]), two, "item", "kendall_like", params) == 1
    two = packed(2, [10, NONE, 100, 150])
    assert statistic(packed(2, [2, 1, 4, 3]), two, "item", "kendall_like", params) == 1
    # CorrelationFunctionsTest.testKendallLike: 4 concordant, 1 discordant at threshold 25; at
    # threshold 1 the (10, 11) pair counts too, and the metric orders it the other way.
    gold, metric = packed(1, [10, 11, 100, 150]), packed(1, [2, 1, 4, 3])
    assert statistic(metric, gold, "none", "kendall_like") == pytest.approx(3 / 5)
    assert statistic(metric, gold, "none", "kendall_like", params) == pytest.approx(2 / 6)


def test_kendall_variants_cases():
    gold, metric = packed(1, [1, 2, 2, 3, 4]), packed(1, [2, 1, 1.5, 5, 3])
    assert statistic(metric, gold, "none", "kendall_b") == pytest.approx(0.316227766)
    assert statistic(metric, gold, "none", "kendall_c") == pytest.approx(0.32, abs=1e-15)
    assert statistic(metric, gold, "none", "acc23") == pytest.approx(0.6, abs=1e-15)
    wide = SegmentLevelParams(epsilon=2, n_resamples=0)
    assert statistic(metric, gold, "none", "acc23", wide) == pytest.approx(0.4, abs=1e-15)
    assert statistic(metric, gold, "none", "acc_eq") == pytest.approx(0.7, abs=1e-15)
    # testKendallVariants_23: 13 concordant, 1 pair tied on both sides, of 21
    gold, metric = packed(1, [1, 1, 1, 2, 2, 3, 4]), packed(1, [1, 1, 2, 2, 4, 3, 3])
    assert statistic(metric, gold, "none", "acc23") == pytest.approx(14 / 21, abs=1e-15)
    # testKendallVariantsWithPositiveEpsilon: at epsilon 1, 7 concordant and 3 tied on both
    one = SegmentLevelParams(epsilon=1, n_resamples=0)
    assert statistic(metric, gold, "none", "acc23", one) == pytest.approx(10 / 21, abs=1e-15)


def test_kendall_b_and_c_equal_scipy_with_ties():
    gold, metric = packed(1, [7, 1, 2, 7, 4, 3, 2]), packed(1, [4, 1, 3, 6, 1, 5, 6])
    for variant in ("b", "c"):
        expected = scipy_stats.kendalltau(gold[0], metric[0], variant=variant).statistic
        assert statistic(metric, gold, "none", f"kendall_{variant}") == pytest.approx(expected)


def test_average_correlation_cases():
    # missing entries are left out; a group with a constant vector does not count
    gold, metric = packed(1, [1, NONE, 3, 4, 5, 6]), packed(1, [2, 1, 4, 3, 5, 6])
    expected = scipy_stats.pearsonr([1, 3, 4, 5, 6], [2, 4, 3, 5, 6]).statistic
    assert statistic(metric, gold, "none", "pearson") == pytest.approx(expected, abs=1e-15)
    gold, metric = packed(2, [1, 2, 3, 4, 5, 6]), packed(2, [2, 1, 8, 3, 5, 6])
    by_system = np.mean([scipy_stats.pearsonr(g, m).statistic for g, m in zip(gold, metric)])
    assert statistic(metric, gold, "system", "pearson") == pytest.approx(by_system)
    by_item = np.mean([scipy_stats.pearsonr(g, m).statistic for g, m in zip(gold.T, metric.T)])
    assert statistic(metric, gold, "item", "pearson") == pytest.approx(by_item)
    gold, metric = packed(2, [1, NONE, 3, 4, 5, 6]), packed(2, [2, 1, 8, 3, 5, 6])
    assert statistic(metric, gold, "item", "pearson") == pytest.approx(0.0, abs=1e-15)
    # testNaNHandling: the first system's metric scores are constant
    gold, metric = packed(2, [1, 2, 3, 4, 5, 6]), packed(2, [2, 2, 2, 4, 5, 6])
    assert statistic(metric, gold, "system", "pearson") == pytest.approx(1.0)


def test_acc_eq_is_acc23_at_the_calibrated_threshold():
    """testKendallWithTiesOpt (the function): none, sys and item groupings."""
    gold, metric = packed(1, [1, 2, 2, 3, 3, 4]), packed(1, [2, 1, 1.5, 5, 3, 2])
    expected = {"none": (0.5333333333333333, 0.0), "system": (1 / 3, 2.0), "item": (1.0, 0.0)}
    for grouping, (accuracy, threshold) in expected.items():
        shape = (1, 6) if grouping == "none" else (2, 3)
        g, m = gold.reshape(shape), metric.reshape(shape)
        result = grouped_statistics(m, g, grouping, np.ones((1, shape[1])), NO_RESAMPLES)
        assert result.acc_eq.value == pytest.approx(accuracy, abs=1e-15)
        assert result.acc_eq_threshold == threshold
        at = SegmentLevelParams(epsilon=threshold, n_resamples=0)
        assert statistic(m, g, grouping, "acc23", at) == pytest.approx(accuracy, abs=1e-15)
    # AverageCorrelationTest.testKendallWithTiesOpt, with a missing gold score: (2/3 + 1) / 2
    gold, metric = packed(2, [1, 2, 3, 4, NONE, 6]), packed(2, [2, 1, 8, 3, 5, 6])
    calibration = tie_calibration(metric, gold, "system")
    assert calibration.accuracy == pytest.approx(5 / 6, abs=1e-15)
    assert calibration.threshold == 0.0


def test_system_pairwise_accuracy_counts_human_ties():
    """testAgreement: 5 of 10 pairs; a pair people tie is right only if the metric ties it."""
    assert pairwise_agreement([1, 1, 2, 1, 2], [1, 2, 3, 3, 4]) == 0.5


# ---------------------------------------------------------------------- tau_optimization_test.py
def test_zero_threshold_is_best():
    calibration = tie_calibration(packed(1, [0, 2, 6, 8]), packed(1, [1, 2, 3, 4]), "system")
    accuracies = calibration.accuracy_at(np.array([0, 2, 4, 6, 8]))
    np.testing.assert_allclose(accuracies, [6 / 6, 4 / 6, 3 / 6, 1 / 6, 0 / 6], atol=1e-15)
    assert (calibration.threshold, calibration.accuracy) == (0.0, 1.0)


def test_nonzero_threshold_is_best():
    calibration = tie_calibration(packed(1, [0, 2, 6, 8]), packed(1, [1, 1, 1, 4]), "system")
    accuracies = calibration.accuracy_at(np.array([0, 2, 4, 6, 8]))
    np.testing.assert_allclose(accuracies, [3 / 6, 3 / 6, 4 / 6, 4 / 6, 3 / 6], atol=1e-15)
    assert calibration.threshold == 4
    assert calibration.accuracy == pytest.approx(4 / 6, abs=1e-15)


def test_tau_optimization_regression_example():
    """Rows are groups; None in either matrix leaves the cell out."""
    metric = packed(5, [0, 5, 2, 3, 2, NONE, 2, 1, 5, 3, 9, 1, 5, 3, 8, 9, 3, 4, 4, 1, *[NONE] * 5])
    human = packed(5, [1, 5, 2, 1, 1, 4, 2, 2, 1, 4, 5, 9, 2, 8, 7, 7, 6, NONE, 3, 2, *[NONE] * 5])
    calibration = tie_calibration(metric, human, "system")
    expected = [0.4666666666666667, 0.4916666666666668, 0.38333333333333347, 0.29166666666666674,
                0.2666666666666667, 0.2, 0.15833333333333335, 0.15833333333333335,
                0.1166666666666667]  # fmt: skip
    np.testing.assert_allclose(calibration.accuracy_at(np.arange(9.0)), expected, atol=1e-14)
    assert calibration.threshold == 1
    assert calibration.accuracy == pytest.approx(0.4916666666666668, abs=1e-14)


# ---------------------------------------------------------------------- pce_test.py and SPA
def test_pairwise_p_values_are_deterministic():
    scores = np.random.default_rng(0).random((10, 100))
    first = pairwise_p_values(scores, permutation_signs(100, 1000, np.random.default_rng(4)))
    again = pairwise_p_values(scores, permutation_signs(100, 1000, np.random.default_rng(4)))
    np.testing.assert_array_equal(first, again)


def test_soft_pairwise_accuracy_cases():
    """testPairwiseConfidenceError (0.872), and with missing gold scores: the segments every
    system was scored on (mt-metrics-eval's value, 0.529)."""
    signs = permutation_signs(3, 1000, np.random.default_rng(4))
    spa = soft_pairwise_accuracy(
        packed(2, [2, 2, 4, 1, 3, 5]), packed(2, [1, 2, 3, 2, 3, 4]), signs
    )
    assert spa == pytest.approx(0.872, abs=1e-12)
    signs = permutation_signs(2, 1000, np.random.default_rng(4))
    gold, metric = packed(2, [1, NONE, 3, 4, NONE, 6]), packed(2, [2, 1, 8, 3, 5, 6])
    assert soft_pairwise_accuracy(metric, gold, signs) == pytest.approx(0.529, abs=1e-12)
    assert soft_pairwise_accuracy(metric[:1], gold[:1], signs) is None


def test_permutation_signs_are_mt_metrics_eval_draws():
    signs = permutation_signs(5, 3, np.random.default_rng(4))
    uniform = np.random.default_rng(4).random((3, 5), dtype=np.float32)
    np.testing.assert_array_equal(signs, np.where(uniform >= 0.5, 1.0, -1.0))
    assert signs.dtype == np.float32


# ---------------------------------------------------------------------- intervals
SCIPY = {
    "pearson": lambda g, m: scipy_stats.pearsonr(g, m).statistic,
    "spearman": lambda g, m: scipy_stats.spearmanr(g, m).statistic,
    "kendall_b": lambda g, m: scipy_stats.kendalltau(g, m).statistic,
    "kendall_c": lambda g, m: scipy_stats.kendalltau(g, m, variant="c").statistic,
}


def scipy_grouped(name, metric, human, grouping):
    """mt-metrics-eval's rule with scipy: drop unscored cells, average defined groups."""
    groups = {"none": [(human.ravel(), metric.ravel())], "system": list(zip(human, metric))}
    groups["item"] = list(zip(human.T, metric.T))
    values = []
    for g, m in groups[grouping]:
        scored = np.isfinite(g)
        g, m = g[scored], m[scored]
        if len(g) >= 2 and np.ptp(g) > 0 and np.ptp(m) > 0:
            values.append(SCIPY[name](g, m))
    return np.mean(values) if values else np.nan


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_resamples_equal_the_statistic_of_the_resampled_data(grouping, seed):
    """Every resample's value is the statistic of the test set in which each segment occurs as
    often as it was drawn: scipy on the replicated data for the correlations, and our own
    direct computation on it for the rest (no weights, pairs enumerated one by one)."""
    rng = np.random.default_rng(seed)
    human = rng.integers(0, 4, size=(4, 7)).astype(float)
    human[rng.random(human.shape) < 0.15] = np.nan
    metric = rng.integers(0, 5, size=(4, 7)) + (rng.random((4, 7)) < 0.5) * rng.random((4, 7))
    counts = rng.multinomial(7, np.full(7, 1 / 7), size=6)
    weights = np.vstack([np.ones((1, 7)), counts]).astype(int)
    params = SegmentLevelParams(n_resamples=0, kendall_like_threshold=1.0, epsilon=0.5)
    rows = resampled_statistics(metric, human, grouping, weights, params)
    threshold = tie_calibration(metric, human, grouping).threshold
    for r, counts_row in enumerate(weights):
        m, h = np.repeat(metric, counts_row, axis=1), np.repeat(human, counts_row, axis=1)
        for name in SCIPY:
            expected = scipy_grouped(name, m, h, grouping)
            np.testing.assert_allclose(rows[name][r], expected, atol=1e-12, equal_nan=True)
        for name in ("kendall_like", "acc23"):
            expected = statistic(m, h, grouping, name, params)
            assert rows[name][r] == pytest.approx(expected, abs=1e-12, nan_ok=True), name
        at_threshold = SegmentLevelParams(epsilon=threshold, n_resamples=0)
        expected = statistic(m, h, grouping, "acc23", at_threshold)
        assert rows["acc_eq"][r] == pytest.approx(expected, abs=1e-12), "acc_eq"


def test_intervals_cover_the_value_and_share_the_resamples():
    rng = np.random.default_rng(5)
    human = rng.normal(size=(5, 40))
    good = human + rng.normal(scale=0.5, size=human.shape)
    params = SegmentLevelParams(n_resamples=200, kendall_like_threshold=0.5)
    result = segment_level_statistics(
        {"good": good, "noise": rng.normal(size=human.shape)},
        human,
        np.random.default_rng(7),
        params,
    )
    again = segment_level_statistics({"good": good}, human, np.random.default_rng(7), params)
    for grouping in ("none", "item", "system"):
        estimates = result.metric("good").grouping(grouping).estimates()
        for name, estimate in estimates.items():
            low, high = estimate.interval
            assert low <= estimate.value <= high, (grouping, name)
        # the same seed gives the same resamples, whatever the other metrics
        assert again.metric("good").grouping(grouping) == result.metric("good").grouping(grouping)
    assert result.metric("good").grouping("none").pearson.value > 0.8
    assert result.metric("good").pairwise_accuracy.interval is not None


# ---------------------------------------------------------------------- undefined and baseline
def test_constant_metric_baseline_and_undefined_values():
    human = packed(3, [1, 1, 2, 3, 1, 0, 2, 2, 2])
    result = segment_level_statistics(
        {"flat": np.zeros((3, 3))},
        human,
        np.random.default_rng(0),
        SegmentLevelParams(n_resamples=20),
    )
    flat, constant = result.metric("flat"), result.constant_baseline
    none = flat.grouping("none")
    assert none.pearson.value is None and none.pearson.undefined == "constant metric scores"
    assert none.pearson.interval_undefined == "constant metric scores"
    # acc23 of a constant metric: the share of pairs people tie (9 cells: 1,1,2,3,1,0,2,2,2)
    tied = (3 + 6) / 36  # three 1s, four 2s
    assert none.acc23.value == pytest.approx(tied) and none.acc_eq.value == pytest.approx(tied)
    assert constant.grouping("none") == none
    assert flat.grouping("system").pearson.undefined == "constant metric scores in every group"
    item = flat.grouping("item").kendall_like
    assert item.undefined == "no two human scores in a group differ by at least 25"
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))  # never NaN
    none = data["metrics"]["flat"]["groupings"]["none"]
    assert none["pearson"] is None and none["undefined"]["pearson"] == "constant metric scores"
    assert none["acc23"] == pytest.approx(tied) and none["acc23_ci"] is not None
    system_level = data["constant"]["system_level"]
    assert system_level["spa_ci"] is None and "spa_ci" in system_level["undefined"]


def test_no_group_with_two_cells():
    human = packed(2, [1, NONE, NONE, 2])
    result = grouped_statistics(np.ones((2, 2)), human, "item", np.ones((1, 2)), NO_RESAMPLES)
    assert result.n_groups == 0
    assert result.pearson.undefined == "no group has two scored cells"
    assert result.acc_eq.undefined == "no group has two scored cells"
    # a system nobody scored is no group; the other system still counts
    human = packed(2, [NONE, NONE, NONE, 1, 2, 3])
    result = grouped_statistics(packed(2, [1, 2, 3, 3, 1, 2]), human, "system", np.ones((1, 3)))
    assert result.n_groups == 1 and result.pearson.value == pytest.approx(-0.5)


def test_batched_statistic_equals_one_at_a_time():
    rng = np.random.default_rng(2)
    human = rng.integers(0, 3, size=(4, 9)).astype(float)
    human[0, 3] = np.nan
    batch = rng.normal(size=(3, 4, 9))
    params = SegmentLevelParams(n_resamples=0, kendall_like_threshold=1.0)
    for grouping in ("none", "item", "system"):
        for name in ("pearson", "spearman", "kendall_b", "kendall_c", "kendall_like", "acc23"):
            expected = [statistic(m, human, grouping, name, params) for m in batch]
            np.testing.assert_allclose(
                batched_statistic(name, grouping, batch, human, params), expected, atol=1e-12
            )
    signs = permutation_signs(8, 1000, np.random.default_rng(4))
    spa = [soft_pairwise_accuracy(m, human, signs) for m in batch]
    np.testing.assert_allclose(batched_statistic("spa", "none", batch, human), spa)


def test_tie_calibration_on_20_systems_and_2000_segments_runs():
    """The scale of the issue (20 x 2,000, item grouping: 380,000 pairs). Not timed here."""
    rng = np.random.default_rng(0)
    human = -rng.poisson(1.0, size=(20, 2000)).astype(float)
    metric = human + rng.normal(scale=2.0, size=human.shape)
    calibration = tie_calibration(metric, human, "item")
    at_threshold = SegmentLevelParams(epsilon=calibration.threshold, n_resamples=0)
    assert calibration.threshold > 0 and 0 < calibration.accuracy < 1
    assert calibration.accuracy == pytest.approx(
        statistic(metric, human, "item", "acc23", at_threshold),
        abs=1e-12,
    )


# ---------------------------------------------------------------------- the fast paths
def tied_scores(seed: int, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Metric and human scores with many ties (and some NaNs), like rounded metric scores and
    MQM's few levels."""
    rng = np.random.default_rng(seed)
    human = -rng.poisson(1.0, size=shape).astype(float)
    metric = np.round(human + rng.normal(scale=1.5, size=shape), 1)
    human[rng.random(shape) < 0.1] = np.nan
    metric[rng.random(shape) < 0.05] = np.nan
    return metric, human


@pytest.mark.parametrize("path", ["float64 unpacked counted chunked", "cumulative sums"])
@pytest.mark.parametrize("grouping", ["none", "system"])
def test_pair_sums_agree_on_every_path(grouping, path, monkeypatch):
    """The system and none groupings' pair sums are built several ways depending on size (pairs
    enumerated or counted over a tree of levels, float32 or float64 products, fields packed
    into one product or not, in chunks or not, products or cumulative sums for large systems):
    forcing the other ways changes no value; and a few resamples equal the statistic of the
    replicated data."""
    from mteval_core.stats.pairs import cumulative_counts, none_forms, system_forms
    from mteval_core.stats.pairs import weights as products

    metric, human = tied_scores(3, (6, 40))
    counts = np.random.default_rng(4).multinomial(40, np.full(40, 1 / 40), size=30)
    weights = np.vstack([np.ones((1, 40)), counts])
    params = SegmentLevelParams(n_resamples=0, kendall_like_threshold=1.0, epsilon=0.3)
    fast = resampled_statistics(metric, human, grouping, weights, params)
    if path == "cumulative sums":
        monkeypatch.setattr(system_forms, "CUMULATING_COST", 0)
    else:
        monkeypatch.setattr(none_forms, "DIRECT_PAIRS", 0)
        monkeypatch.setattr(cumulative_counts, "TABLE_BLOCK", 4)
        monkeypatch.setattr(none_forms, "CHUNK_ENTRIES", 100)  # a few rows at a time
        for module in (products, system_forms, none_forms):  # each imports it by name
            monkeypatch.setattr(module, "FLOAT32_EXACT", 0.0)
        monkeypatch.setattr(products, "FLOAT64_EXACT", 0.0)
    slow = resampled_statistics(metric, human, grouping, weights, params)
    for name, values in fast.items():
        np.testing.assert_allclose(slow[name], values, rtol=1e-12, atol=1e-14, err_msg=name)
    at_threshold = SegmentLevelParams(
        epsilon=tie_calibration(metric, human, grouping).threshold,
        n_resamples=0,
        kendall_like_threshold=1.0,
    )
    for r in (1, 2):
        drawn = weights[r].astype(int)
        m, h = np.repeat(metric, drawn, 1), np.repeat(human, drawn, 1)
        for name in ("pearson", "spearman", "kendall_b", "kendall_c", "kendall_like", "acc23"):
            expected = statistic(m, h, grouping, name, params)
            assert fast[name][r] == pytest.approx(expected, abs=1e-12, nan_ok=True), name
        expected = statistic(m, h, grouping, "acc23", at_threshold)
        assert fast["acc_eq"][r] == pytest.approx(expected, abs=1e-12), "acc_eq"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("grouping", ["none", "system"])
def test_counted_tie_calibration_equals_the_enumeration(seed, grouping, monkeypatch):
    """Above ENUMERATED_PAIRS the calibration counts pairs from sorted cells and searches
    intervals of epsilon: the same threshold and the same accuracies as sorting every pair,
    also when it has to split the intervals down to a few pairs each."""
    from mteval_core.stats import segment_calibration
    from mteval_core.stats import tie_calibration as module

    metric, human = tied_scores(seed, (5, 30))
    monkeypatch.setattr(module, "ENUMERATED_PAIRS", 10**12)
    enumerated = tie_calibration(metric, human, grouping)
    monkeypatch.setattr(module, "ENUMERATED_PAIRS", 0)
    monkeypatch.setattr(segment_calibration, "BAND_PAIRS", 3)
    monkeypatch.setattr(segment_calibration, "FLAT_PAIRS", 10)
    counted = tie_calibration(metric, human, grouping)
    assert counted.curve is not None  # the counting search ran
    assert counted.threshold == enumerated.threshold
    assert counted.accuracy == pytest.approx(enumerated.accuracy, rel=1e-12)
    assert counted.base == pytest.approx(enumerated.base, rel=1e-12)
    epsilons = np.array([0.0, 0.05, 0.1, 0.3, enumerated.threshold, 1.0, 2.5, 100.0])
    np.testing.assert_allclose(
        counted.accuracy_at(epsilons), enumerated.accuracy_at(epsilons), rtol=1e-12
    )


@pytest.mark.parametrize("grouping", ["none", "system"])
def test_constant_metric_closed_form_equals_the_pair_sums(grouping, monkeypatch):
    """A metric with one score per group (the constant baseline) takes a closed form: the
    values the general pair sums give."""
    from mteval_core.stats.pairs import grouped

    _, human = tied_scores(5, (4, 12))
    metric = np.repeat(np.arange(4.0)[:, None], 12, axis=1) if grouping == "system" else None
    metric = np.full((4, 12), 0.5) if metric is None else metric
    counts = np.random.default_rng(6).multinomial(12, np.full(12, 1 / 12), size=5)
    weights = np.vstack([np.ones((1, 12)), counts])
    params = SegmentLevelParams(n_resamples=0, kendall_like_threshold=1.0)
    closed = resampled_statistics(metric, human, grouping, weights, params)
    monkeypatch.setattr(grouped, "_constant_in_groups", lambda groups, x: False)
    general = resampled_statistics(metric, human, grouping, weights, params)
    for name, values in closed.items():
        np.testing.assert_allclose(values, general[name], rtol=1e-12, atol=1e-14, err_msg=name)


# ---------------------------------------------------------------------- issue #11, WMT21 TED en-de
TED_EXPECTED = {  # mt-metrics-eval @68a481a, from the issue
    "bleu": {"pearson none": 0.173514, "pearson item": 0.082639, "pearson system": 0.172076,
             "kendall_b none": 0.140609, "acc23 item": 0.392007, "acc_eq item": 0.480297,
             "spa": 0.668923},
    "chrf": {"pearson none": 0.158307, "pearson item": 0.095274, "pearson system": 0.157138,
             "kendall_b none": 0.146778, "acc23 item": 0.379235, "acc_eq item": 0.480297,
             "spa": 0.668705},
}  # fmt: skip


@pytest.fixture(scope="module")
def ted_matrices():
    """Sentence BLEU and chrF (sacreBLEU's) and the MQM matrix of the 13 systems. The human
    file's ids are the data set's seg_id: segment_ids.tsv maps them to lines (line 141 is
    seg_id 218); scores are already negated MQM points. ref-A's ratings are left out."""
    test_set = read_directory(shared_dataset("wmt21-ted-mqm-ende")).test_set
    assert len(test_set.system_names) == 13 and "ref-A" not in test_set.system_names
    human = criterion_matrix(test_set.human, test_set.system_names, test_set.n_segments, "MQM")
    bleu = score_test_set(test_set, ["bleu"], Options())
    chrf = get_metric("chrf", Options())
    matrices = {
        "bleu": np.array([bleu.segment_scores(s, "bleu") for s in test_set.system_names]),
        "chrf": np.array(
            [chrf.segment_scores(chrf.text_statistics(test_set, s)) for s in test_set.system_names]
        ),
    }
    return matrices, human


def test_ted_human_scores_map_onto_the_lines(ted_matrices):
    _, human = ted_matrices
    assert human.shape == (13, 529) and np.isfinite(human).all()
    assert (human <= 0).all()  # negated error points: 0 is a perfect segment
    assert human.mean() == pytest.approx(-1.8, abs=0.5)


def test_ted_numbers_of_the_issue(ted_matrices):
    matrices, human = ted_matrices
    result = segment_level_statistics(matrices, human, np.random.default_rng(0), NO_RESAMPLES)
    for name, expected in TED_EXPECTED.items():
        metric = result.metric(name)
        for key, value in expected.items():
            if key == "spa":
                ours = metric.soft_pairwise_accuracy.value
            else:
                statistic_name, grouping = key.split()
                ours = getattr(metric.grouping(grouping), statistic_name).value
            assert ours == pytest.approx(value, abs=1e-6), (name, key)
    # acc_eq item is the constant metric's score: calibrated so wide that every pair ties
    assert result.metric("bleu").grouping("item").acc_eq.value == pytest.approx(
        result.constant_baseline.grouping("item").acc23.value, abs=1e-12
    )


def test_each_statistic_says_how_many_systems_it_needs():
    """One or two rated systems no longer stop the run: each statistic is defined or says why.
    SPA needs two (one pair's p-values), pairwise accuracy with ties three (one pair's is 0 or
    1, as for the system-level pairwise accuracy), the item grouping two (a segment's group),
    the system and none groupings one."""
    rng = np.random.default_rng(2)
    for n_systems in (1, 2, 3):
        human = rng.normal(size=(n_systems, 12))
        metric = human + rng.normal(scale=0.5, size=human.shape)
        result = segment_level_statistics(
            {"m": metric}, human, np.random.default_rng(0), SegmentLevelParams(n_resamples=20)
        )
        m = result.metric("m")
        assert (m.soft_pairwise_accuracy.value is not None) == (n_systems >= 2)
        assert (m.pairwise_accuracy.value is not None) == (n_systems >= 3)
        assert (m.grouping("item").pearson.value is not None) == (n_systems >= 2)
        assert m.grouping("system").pearson.value is not None
        assert m.grouping("none").pearson.value is not None
        if n_systems < 3:
            assert m.pairwise_accuracy.undefined == "fewer than 3 systems with human scores"
            assert m.pairwise_accuracy.interval_undefined == m.pairwise_accuracy.undefined
        if n_systems < 2:
            assert m.soft_pairwise_accuracy.undefined == "fewer than two systems"
            assert m.grouping("item").pearson.undefined == "no group has two scored cells"


def test_spa_without_a_segment_rated_for_every_system_is_undefined_not_one():
    """Every p-value over no segment is 1, for people and metric alike: SPA came out 1.0."""
    human = np.array([[1.0, np.nan, 3.0], [np.nan, 2.0, 1.0], [2.0, 1.0, np.nan]])
    metric = np.arange(9.0).reshape(3, 3)
    result = segment_level_statistics({"m": metric}, human, np.random.default_rng(0))
    spa = result.metric("m").soft_pairwise_accuracy
    assert spa.value is None and spa.undefined == "no segment has human scores for every system"
