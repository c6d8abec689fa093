"""Statistics without a value: None with a reason, never NaN and never a default of 1.0."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.io import read_human
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions, percentile_interval, resample_counts
from mteval_core.stats.correlation import (
    SYSTEM_STATISTICS,
    correlations,
    pairwise_accuracy,
    pearson,
    pearson_rows,
    spearman_rows,
    why_undefined,
    why_williams_undefined,
    williams_test,
)
from mteval_core.stats.meta import correlate_tables, evaluate
from mteval_core.stats.significance import compare_metrics
from mteval_core.stats.undefined import UNDEFINED, format_statistic
from tests.helpers import make_test_set

PAIR_COUNTING = ("kendall_like", "pairwise_accuracy")  # defined when only the metric is constant


def test_constant_human_scores_leave_every_statistic_undefined():
    result = correlations(np.array([1.0, 2.0, 3.0]), np.array([5.0, 5.0, 5.0]))
    assert all(getattr(result, name) is None for name in SYSTEM_STATISTICS)
    assert result.undefined == dict.fromkeys(SYSTEM_STATISTICS, "constant human scores")
    assert result.n == 3


def test_a_constant_metric_gets_every_pair_wrong_but_no_correlation():
    result = correlations(np.array([2.0, 2.0, 2.0]), np.array([1.0, 2.0, 3.0]))
    # three pairs people order, all tied by the metric: each counts as wrong
    assert result.pairwise_accuracy == 0.0 and result.kendall_like == -1.0
    for name in ("pearson", "spearman", "kendall", "differential_pearson"):
        assert getattr(result, name) is None
        assert result.undefined[name] == "constant metric scores"
    assert set(result.undefined).isdisjoint(PAIR_COUNTING)


def test_both_constant_and_too_few_systems():
    both = correlations(np.array([2.0, 2.0, 2.0]), np.array([4.0, 4.0, 4.0]))
    assert both.undefined["pearson"] == "constant human and metric scores"
    assert both.undefined["pairwise_accuracy"] == "constant human scores"
    two = correlations(np.array([1.0, 2.0]), np.array([1.0, 3.0]))
    assert two.undefined == dict.fromkeys(SYSTEM_STATISTICS, "n < 3")
    missing = correlations(np.array([1.0, 2.0, 3.0]), np.array([1.0, np.nan, 3.0]))
    assert missing.undefined["spearman"] == "missing human scores"


def test_pairwise_accuracy_is_nan_not_one_when_people_tie_every_pair():
    assert math.isnan(pairwise_accuracy(np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])))


def test_a_constant_row_is_found_although_its_mean_is_not_exact():
    # mean(0.1, 0.1, 0.1) = 0.10000000000000002: deviations of -1.4e-17, not 0
    assert math.isnan(pearson([0.1, 0.1, 0.1], [1.0, 2.0, 4.0]))
    rows = np.array([[0.1, 0.1, 0.1], [1.0, 2.0, 3.0]])
    r = pearson_rows(rows, np.array([[1.0, 2.0, 4.0], [1.0, 2.0, 4.0]]))
    assert math.isnan(r[0]) and r[1] == pytest.approx(pearson([1, 2, 3], [1, 2, 4]))
    assert math.isnan(spearman_rows(rows, rows[::-1])[0])


SMALL_TIED = st.lists(st.integers(0, 2), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(SMALL_TIED, SMALL_TIED)
def test_every_statistic_is_a_number_or_none_with_its_reason(metric, human):
    size = min(len(metric), len(human))
    x, y = np.array(metric[:size], float), np.array(human[:size], float)
    result = correlations(x, y)
    for name, statistic in SYSTEM_STATISTICS.items():
        reason = why_undefined(name, x, y)
        value = getattr(result, name)
        assert (value is None) == (reason is not None) == (name in result.undefined)
        if value is None:
            assert result.undefined[name] == reason
        else:
            assert isinstance(value, float) and math.isfinite(value)
            assert -1.0 <= value <= 1.0
            assert value == statistic(x, y)
        if size >= 3:  # the numbers are NaN exactly where a reason is given
            assert math.isnan(statistic(x, y)) == (reason is not None)


def test_williams_needs_four_systems_and_two_metrics_that_differ():
    assert why_williams_undefined(0.5, 0.3, 0.4, 3) == "n < 4"
    assert math.isnan(williams_test(0.5, 0.3, 0.4, 3))
    x = np.array([1.0, 2.0, 3.0, 5.0, 8.0])
    human = np.array([2.0, 1.0, 4.0, 3.0, 9.0])
    scaled = 100 * x + 5  # the same metric on another scale: r(x, scaled) is 1 up to rounding
    r_x, r_scaled = pearson(x, human), pearson(scaled, human)
    reason = why_williams_undefined(r_x, r_scaled, pearson(x, scaled), 5)
    assert reason == "the two metrics' scores correlate perfectly (|r| = 1)"
    assert why_williams_undefined(r_x, -r_x, -1.0, 5) == reason  # x against -x


def test_metric_comparisons_of_identical_and_constant_metrics():
    human = np.array([[1.0, 2.0], [2.0, 2.0], [3.0, 4.0], [5.0, 4.0]])  # 4 systems, 2 segments
    values = {
        "a": np.array([1.0, 2.0, 4.0, 3.0]),
        "same": np.array([1.0, 2.0, 4.0, 3.0]),
        "flat": np.array([7.0, 7.0, 7.0, 7.0]),
    }
    resampled = {
        "a": np.array([0.9, 0.8, np.nan]),
        "same": np.array([0.9, 0.8, np.nan]),
        "flat": np.full(3, np.nan),
    }
    same, flat, _ = compare_metrics(values, human, resampled)
    assert (same.a, same.b) == ("a", "same")
    assert (
        same.pearson_a == same.pearson_b == pytest.approx(pearson(values["a"], [1.5, 2, 3.5, 4.5]))
    )
    assert same.share_a_better == 0.5  # ties count half: no evidence either way
    assert same.williams_p_a_better is None
    assert same.undefined == {
        "williams_p_a_better": "the two metrics' scores correlate perfectly (|r| = 1)"
    }
    assert flat.pearson_b is None and flat.share_a_better is None
    assert flat.undefined == {
        "pearson_b": "constant metric scores",
        "share_a_better": "the Pearson correlation of flat is undefined (constant metric scores)",
        "williams_p_a_better": "the Pearson correlation of flat is undefined "
        "(constant metric scores)",
    }


def test_intervals_are_none_with_a_reason():
    assert percentile_interval(np.array([np.nan, np.nan])) is None
    assert percentile_interval(np.array([np.nan, 1.0, 1.0])) == (1.0, 1.0)
    human = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}
    bootstrap = BootstrapOptions(n_resamples=50, seed=1)
    results = correlate_tables(human, {"flat": dict.fromkeys(human, 0.5)}, bootstrap=bootstrap)
    flat = results["flat"]
    assert flat.pearson_ci is None
    assert flat.undefined["pearson_ci"] == "constant metric scores"
    assert list(flat.to_dict())[-1] == UNDEFINED  # the reasons come last, after the intervals


def test_format_statistic_says_why():
    statistics = {
        "pearson": None,
        "pearson_ci": None,
        "spearman": 0.91234,
        "spearman_ci": [0.5, 0.99],
        UNDEFINED: {"pearson": "constant human scores", "pearson_ci": "constant human scores"},
    }
    assert format_statistic(statistics, "pearson") == "undefined (constant human scores)"
    assert format_statistic(statistics, "pearson_ci") == "undefined (constant human scores)"
    assert format_statistic(statistics, "spearman") == "0.912"
    assert format_statistic(statistics, "spearman_ci", digits=2) == "[0.50, 0.99]"


def _judged_test_set(rows: str):
    """Four systems of ten one-word segments, with the given human judgment rows."""
    words = [f"w{i}" for i in range(10)]
    systems = {
        "a": words,
        "b": [*words[:5], *"xxxxx"],
        "c": [*words[:2], *"xxxxxxxx"],
        "d": list("xxxxxxxxxx"),
    }
    test_set = make_test_set(words, systems)
    human = read_human(("system,segment,criterion,score\n" + rows).encode(), "h.csv")
    return test_set.with_human(human), score_test_set(test_set, ["fmean"], Options())


def test_systems_without_judgments_under_the_criterion_are_left_out():
    rows = "".join(
        f"{s},{i},fluency,{score}\n" for s, score in zip("abc", (4, 3, 2)) for i in (1, 2)
    )
    test_set, scores = _judged_test_set(rows + "d,1,adequacy,1\n")
    result = evaluate(test_set, scores, "fluency")
    assert result.human.scores == {"a": 4.0, "b": 3.0, "c": 2.0}  # d: no fluency, not NaN
    assert result.correlations["fmean"].n == 3
    assert result.correlations["fmean"].pearson == pytest.approx(
        pearson([1.0, 0.5, 0.2], [4, 3, 2])
    )


def test_a_system_never_drawn_has_no_human_interval():
    """d is rated on segment 1 only, and none of the 3 resamples of the seed draws segment 1."""
    rows = "".join(
        f"{s},{i},MQM,{score}\n" for s, score in zip("abc", (4, 3, 2)) for i in range(1, 11)
    )
    test_set, scores = _judged_test_set(rows + "d,1,MQM,1\n")
    seed = next(  # about one seed in 25 (0.9 ** 30)
        seed
        for seed in range(10_000)
        if not resample_counts(test_set.n_segments, 3, np.random.default_rng(seed))[:, 0].any()
    )
    result = evaluate(test_set, scores, bootstrap=BootstrapOptions(n_resamples=3, seed=seed))
    assert result.human.ci["d"] is None
    assert result.human.undefined == {"d": "no rated segment in any resample"}
    fmean = result.correlations["fmean"]
    assert fmean.pearson is not None and fmean.pearson_ci is None
    assert fmean.undefined["pearson_ci"] == "undefined in every resample"
