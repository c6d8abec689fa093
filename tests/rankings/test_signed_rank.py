"""rankings.signed_rank against scipy itself: the Wilcoxon p-value of every branch (exact, normal
approximation with zeros and ties, the permutation test handed to scipy) and the normal
distribution the rankings combine p-values with."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm, wilcoxon

from mteval_core.rankings.signed_rank import ndtr, ndtri, wilcoxon_p

SIDES = ("two-sided", "greater", "less")


def scipy_p(d: np.ndarray, alternative: str) -> float:
    try:
        return float(wilcoxon(d.tolist(), alternative=alternative).pvalue)
    except ValueError:
        return math.nan


def assert_same(d: np.ndarray) -> None:
    for alternative in SIDES:
        ours, theirs = wilcoxon_p(d, alternative), scipy_p(d, alternative)
        if math.isnan(theirs):
            assert math.isnan(ours), (d, alternative)
        else:
            assert ours == pytest.approx(theirs, abs=1e-14), (d.tolist(), alternative)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(-6, 6), min_size=14, max_size=120),  # zeros and ties: normal approx.
)
def test_ties_and_zeros_equal_scipys_normal_approximation(values):
    assert_same(np.array(values, dtype=float))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.floats(-50, 50, allow_nan=False), min_size=1, max_size=50, unique=True))
def test_distinct_differences_equal_scipys_exact_distribution(values):
    assert_same(np.array([v for v in values if v != 0] or [1.0]))


@pytest.mark.parametrize(
    "values",
    [[1.0, -2.0, 2.0, 3.0, 0.0], [0.0, 0.0], [5.0] * 60, [1.0, -1.0] * 30, list(range(-20, 40))],
)
def test_small_tied_samples_and_edges_equal_scipy(values):
    """Five differences with a tie and a zero (scipy's permutation test, handed to it), all
    zeros, all equal, and larger samples past the exact limit."""
    assert_same(np.array(values))


def test_the_normal_distribution_equals_scipys():
    xs = np.linspace(-38, 38, 4001)
    assert max(abs(ndtr(x) - norm.cdf(x)) for x in xs) < 1e-15
    ps = np.concatenate([np.linspace(1e-12, 1 - 1e-12, 4001), [1e-300, 1e-20]])
    assert max(abs(ndtri(p) - norm.ppf(p)) for p in ps) < 1e-12
    assert (ndtri(0.0), ndtri(1.0)) == (-math.inf, math.inf)
    assert math.isnan(ndtri(math.nan)) and math.isnan(ndtr(math.nan))
