"""Correlations against scipy (the oracle) and hand-checked values; Holm; the bootstrap's seed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from mteval_core.stats.bootstrap import (
    percentile_interval,
    resample_counts,
    resampled_means,
    resampled_sums,
)
from mteval_core.stats.correlation import (
    average_ranks,
    differential_correlation,
    kendall,
    kendall_rows,
    pairwise_accuracy,
    pairwise_differentials,
    pearson,
    pearson_rows,
    spearman,
    spearman_rows,
    williams_test,
)
from mteval_core.stats.significance import holm, paired_p_values

VECTORS = st.lists(st.floats(-100, 100, allow_nan=False), min_size=3, max_size=12)


@settings(max_examples=200, deadline=None)
@given(VECTORS, st.randoms())
def test_single_correlations_equal_scipy(x, random):
    y = [v + random.uniform(-50, 50) for v in x]
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return
    assert pearson(x, y) == pytest.approx(scipy_stats.pearsonr(x, y).statistic, abs=1e-12)
    assert spearman(x, y) == pytest.approx(scipy_stats.spearmanr(x, y).statistic, abs=1e-12)
    assert kendall(x, y, "b") == pytest.approx(scipy_stats.kendalltau(x, y).statistic, abs=1e-12)


TIED_VECTORS = st.lists(st.integers(0, 4), min_size=3, max_size=12)


@settings(max_examples=300, deadline=None)
@given(TIED_VECTORS, st.randoms())
def test_kendall_b_and_c_equal_scipy_with_ties(x, random):
    y = [v + random.choice([0, 0, 1, -1, 2]) for v in x]
    for variant in ("b", "c"):
        expected = scipy_stats.kendalltau(x, y, variant=variant).statistic
        assert kendall(x, y, variant) == pytest.approx(expected, abs=1e-12, nan_ok=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), min_size=0, max_size=9), min_size=1, max_size=4))
def test_average_ranks_equal_scipys_rankdata_with_ties(rows):
    """Our ranks (so that a correlation page need not import scipy.stats) against scipy's,
    exactly: ties share their mean rank; a row with a NaN is all NaN."""
    width = max(len(row) for row in rows)
    values = np.array([row + [0] * (width - len(row)) for row in rows], float) / 2
    np.testing.assert_array_equal(average_ranks(values), scipy_stats.rankdata(values, axis=-1))
    if width:
        values[0, 0] = np.nan
        np.testing.assert_array_equal(average_ranks(values), scipy_stats.rankdata(values, axis=-1))


def test_row_wise_versions_equal_the_single_ones():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(50, 9)), rng.normal(size=(50, 9))
    np.testing.assert_allclose(pearson_rows(x, y), [pearson(a, b) for a, b in zip(x, y)])
    np.testing.assert_allclose(spearman_rows(x, y), [spearman(a, b) for a, b in zip(x, y)])
    ties = np.round(x * 2)
    for variant in ("b", "c", "like"):
        expected = [scipy_kendall_or_like(a, b, variant) for a, b in zip(ties, y)]
        np.testing.assert_allclose(kendall_rows(ties, y, variant), expected, atol=1e-12)


def scipy_kendall_or_like(x, y, variant):
    """scipy for tau-b and tau-c; tau-like counted pair by pair, as WMT defines it."""
    if variant != "like":
        return scipy_stats.kendalltau(x, y, variant=variant).statistic
    concordant = discordant = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            if y[i] == y[j]:
                continue
            if np.sign(x[i] - x[j]) == np.sign(y[i] - y[j]):
                concordant += 1
            else:
                discordant += 1
    return (concordant - discordant) / (concordant + discordant)


def test_pairwise_views_by_hand():
    metric, human = np.array([3.0, 1.0, 2.0]), np.array([10.0, 8.0, 8.0])
    dx, dy = pairwise_differentials(metric, human)
    assert dx.tolist() == [2.0, 1.0, -1.0] and dy.tolist() == [2.0, 2.0, 0.0]
    assert pairwise_accuracy(metric, human) == 1.0  # the tie in the human scores is skipped
    assert kendall(metric, human, "like") == 1.0
    # metric [2, 2, 1]: it ties the pair people order (discordant), agrees on the other
    assert kendall(np.array([2.0, 2.0, 1.0]), human, "like") == 0.0
    assert differential_correlation(metric, human) == pytest.approx(pearson(dx, dy))


def test_holm_by_hand():
    # sorted 0.01, 0.02, 0.04 -> 3 * 0.01, 2 * 0.02, 1 * 0.04, made monotone
    np.testing.assert_allclose(holm(np.array([0.04, 0.01, 0.02])), [0.04, 0.03, 0.04])
    np.testing.assert_allclose(holm(np.array([0.5, 0.9])), [1.0, 1.0])


def test_bootstrap_is_reproducible_under_a_seed():
    first = resample_counts(100, 50, np.random.default_rng(7))
    second = resample_counts(100, 50, np.random.default_rng(7))
    assert (first == second).all() and (first.sum(axis=1) == 100).all()
    assert not (first == resample_counts(100, 50, np.random.default_rng(8))).all()


def test_resampled_means_skip_unrated_segments():
    counts = np.array([[1, 1, 1], [3, 0, 0], [0, 0, 3], [0, 3, 0]], dtype=float)
    values = np.array([1.0, np.nan, 3.0])
    rated = np.isfinite(values)
    means = resampled_means(counts @ np.where(rated, values, 0.0), counts @ rated)
    np.testing.assert_allclose(means, [2.0, 1.0, 3.0, np.nan])  # the last drew no rated segment


@pytest.mark.parametrize("budget_bytes", [1, 16 * 30 * 7, 16 * 30 * 64, 2**30])
def test_resampled_sums_equal_the_whole_count_matrix(budget_bytes):
    """Blocks of 1, 7, 64 or all resamples: the same counts, so the same sums, bit for bit on
    whole numbers and to rounding on floats."""
    rng = np.random.default_rng(3)
    whole = rng.integers(0, 9, (30, 4)).astype(float)
    real = rng.random((30, 2))
    counts = resample_counts(30, 200, np.random.default_rng(11))
    sums = resampled_sums([whole, real], 200, np.random.default_rng(11), budget_bytes)
    assert np.array_equal(sums[0], counts @ whole)
    np.testing.assert_allclose(sums[1], counts @ real, rtol=1e-13)


def test_paired_p_values_separate_clear_differences():
    rng = np.random.default_rng(1)
    counts = resample_counts(300, 1000, rng)
    a, b = rng.normal(0.6, 0.1, 300), rng.normal(0.3, 0.1, 300)
    c = a + rng.normal(0, 0.1, 300)
    c += a.mean() - c.mean()  # the same mean as a: no real difference
    samples = np.column_stack([counts @ v / 300 for v in (a, b, c)])
    p = paired_p_values(samples, np.array([a.mean(), b.mean(), c.mean()]))
    assert p[0, 1] < 0.01 and p[0, 2] > 0.05 and np.allclose(p, p.T)


def test_percentile_interval_coverage_on_synthetic_data():
    """A 95% interval for a mean covers the true mean about 95% of the time."""
    rng = np.random.default_rng(2024)
    covered = 0
    trials = 400
    for _ in range(trials):
        sample = rng.exponential(1.0, size=200)  # true mean 1
        counts = resample_counts(200, 500, rng)
        low, high = percentile_interval(counts @ sample / 200, 0.95)
        covered += low <= 1.0 <= high
    assert 0.91 <= covered / trials <= 0.98


def test_williams_test_by_hand():
    # r12 = 0.5, r13 = 0.3, r23 = 0.4, n = 20: K = 1 - .25 - .09 - .16 + 2 * .5 * .3 * .4 = 0.62,
    # t = 0.2 * sqrt(19 * 1.4) / sqrt(2 * 0.62 * 19 / 17 + (0.8 ** 2 / 4) * 0.6 ** 3) = 0.86548
    t = 0.2 * (19 * 1.4) ** 0.5 / (2 * 0.62 * 19 / 17 + 0.16 * 0.216) ** 0.5
    assert t == pytest.approx(0.86548, abs=1e-5)
    assert williams_test(0.5, 0.3, 0.4, 20) == pytest.approx(scipy_stats.t.sf(t, 17))
    assert williams_test(0.3, 0.5, 0.4, 20) == pytest.approx(1 - scipy_stats.t.sf(t, 17))
    for r12, r13, r23, n in [(0.9, 0.2, 0.1, 4), (0.5, 0.3, 0.4, 20), (0.1, 0.8, -0.3, 7)]:
        k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
        denominator = (2 * k * (n - 1) / (n - 3) + ((r12 + r13) ** 2 / 4) * (1 - r23) ** 3) ** 0.5
        t = (r12 - r13) * ((n - 1) * (1 + r23)) ** 0.5 / denominator
        assert williams_test(r12, r13, r23, n) == scipy_stats.t.sf(t, n - 3)  # the same bits
