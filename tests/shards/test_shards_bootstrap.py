"""The streaming Poisson bootstrap: weights that depend on (seed, segment, resample) only, so any
sharding resamples alike; and intervals that agree with the in-memory multinomial bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mteval_core.metrics import get_metric
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.shards.cluster import Cluster, score_shards
from mteval_core.shards.coverage import check_coverage
from mteval_core.shards.partition import PartitionTask
from mteval_core.shards.poisson_bootstrap import poisson_sums, poisson_weights
from mteval_core.shards.reading import find_shards
from mteval_core.shards.results import corpus_scores, poisson_bootstrap
from mteval_core.stats.bootstrap import BootstrapOptions, percentile_interval
from mteval_core.stats.significance import ONE_SEGMENT, bootstrap_scores, why_no_paired_test
from tests.shards.conftest import sliced

METRICS = ("bleu", "chrf", "f1", "ter")


def sharded_bootstrap(folder, options: BootstrapOptions, metrics=METRICS):
    """The sharded path's scores and bootstrap result, scored in this process."""
    tasks = [
        PartitionTask(str(path), metrics, Options(), options) for path in find_shards([str(folder)])
    ]
    corpus = score_shards(tasks, Cluster(workers=0))
    scores = corpus_scores(corpus.sums, metrics, Options(), corpus.n_references)
    n_segments = check_coverage(corpus.indexes)
    return corpus.sums, poisson_bootstrap(corpus.sums, scores, options, n_segments)


# ------------------------------------------------------------------------------ the weights
def test_a_weight_depends_on_seed_segment_and_resample_only():
    segments = np.array([17, 3, 250_000, 5, 1])
    resamples = np.array([0, 7, 999])
    together = poisson_weights(42, segments, resamples)
    for row, resample in enumerate(resamples):
        for column, segment in enumerate(segments):
            alone = poisson_weights(42, np.array([segment]), np.array([resample]))
            assert alone[0, 0] == together[row, column]
    order = np.argsort(segments)  # another order of the same segments: the same weights
    np.testing.assert_array_equal(
        poisson_weights(42, segments[order], resamples), together[:, order]
    )
    other_seed = poisson_weights(43, np.arange(1, 1001), resamples)
    assert not np.array_equal(other_seed, poisson_weights(42, np.arange(1, 1001), resamples))


def test_the_weights_are_poisson_1_and_independent():
    """On a million weights: the Poisson(1) frequencies (a chi-square test at p = 0.001, fixed
    seed, so never flaky), and no correlation between neighbouring segments or resamples."""
    weights = poisson_weights(7, np.arange(1, 10_001), np.arange(100))
    counts = np.bincount(weights.astype(int).ravel())
    expected = [math.exp(-1) / math.factorial(k) * weights.size for k in range(6)]
    observed = [*counts[:5], counts[5:].sum()]
    expected[5] = weights.size - sum(expected[:5])
    chi_square = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    assert chi_square < 20.5  # 5 degrees of freedom, p = 0.001
    assert weights.mean() == pytest.approx(1.0, abs=0.005)
    assert weights.var() == pytest.approx(1.0, abs=0.01)
    across_segments = np.corrcoef(weights[:, :-1].ravel(), weights[:, 1:].ravel())[0, 1]
    across_resamples = np.corrcoef(weights[:-1].ravel(), weights[1:].ravel())[0, 1]
    assert abs(across_segments) < 0.005 and abs(across_resamples) < 0.005


def test_the_sums_do_not_depend_on_the_block_size(monkeypatch):
    statistics = np.random.default_rng(0).integers(0, 50, size=(300, 4)).astype(float)
    segments = np.arange(1, 301)
    whole = poisson_sums(statistics, segments, seed=5, n_resamples=50)
    monkeypatch.setattr(
        "mteval_core.shards.poisson_bootstrap.WEIGHTS_BUDGET_BYTES", 32 * 300 * 3
    )  # 3 resamples a block
    np.testing.assert_array_equal(poisson_sums(statistics, segments, 5, 50), whole)
    np.testing.assert_array_equal(whole, poisson_weights(5, segments, np.arange(50)) @ statistics)


# ------------------------------------------------------------------------ shards and seeds
def test_one_shard_resamples_the_in_memory_statistics_with_these_weights(sample, write_shards):
    """Checked by seed on a single partition: the sharded resamples are the in-memory
    statistics under the weights of (seed, segment, resample), and so are the intervals."""
    options = BootstrapOptions(n_resamples=300, seed=2024)
    sums, result = sharded_bootstrap(write_shards(sample, "parquet", 1), options)
    in_memory = score_test_set(sample, METRICS, Options()).statistics
    weights = poisson_weights(2024, np.arange(1, sample.n_segments + 1), np.arange(300))
    for name in METRICS:
        metric = get_metric(name, Options())
        for system, statistics in in_memory[name].items():
            np.testing.assert_array_equal(sums.resampled[name][system], weights @ statistics)
            resampled = metric.score_from_totals(weights @ statistics)
            assert result.ci[system][name] == percentile_interval(resampled)


@pytest.mark.parametrize(("n_shards", "how"), [(3, "stride"), (4, "blocks"), (5, "segments")])
def test_any_sharding_gives_the_same_intervals_and_paired_tests(
    sample, write_shards, n_shards, how
):
    options = BootstrapOptions(n_resamples=200, seed=99)
    _, one = sharded_bootstrap(write_shards(sample, "tsv", 1), options)
    _, several = sharded_bootstrap(write_shards(sample, "jsonl", n_shards, how), options)
    assert several.ci == one.ci
    assert several.pairs == one.pairs
    _, reseeded = sharded_bootstrap(
        write_shards(sample, "csv", 1), BootstrapOptions(n_resamples=200, seed=100)
    )
    assert reseeded.ci != one.ci  # the seed matters: the test above can fail


def test_poisson_intervals_are_close_to_the_multinomial_ones_on_wmt17(wmt17, write_shards):
    """Equal in distribution: on 3,004 segments the Poisson and the multinomial bootstrap give
    intervals of nearly the same width, around the same score.

    Why 15 %: with 1,000 resamples a 95 % percentile interval's width has a Monte Carlo error of
    about 3 % (the 2.5 % and 97.5 % quantiles of 1,000 draws are each off by about 0.085
    standard deviations, against a width of 3.92), so two independent bootstraps differ by about
    4.3 % in width; 15 % is 3.5 of those errors. The two bootstraps themselves differ by
    O(1 / n_segments), far less. Measured: within 7 % with this seed, within 12 % with
    seeds 1 and 2."""
    test_set = sliced(wmt17, 3004, 4)
    options = BootstrapOptions(n_resamples=1000, seed=12345)
    multinomial = bootstrap_scores(score_test_set(test_set, ["bleu", "chrf"], Options()), options)
    _, poisson = sharded_bootstrap(write_shards(test_set, "parquet", 3), options, ("bleu", "chrf"))
    for system in test_set.system_names:
        for metric in ("bleu", "chrf"):
            (low_m, high_m), (low_p, high_p) = (
                multinomial.ci[system][metric],
                poisson.ci[system][metric],
            )
            assert (high_p - low_p) == pytest.approx(high_m - low_m, rel=0.15), (system, metric)
            middle = (low_m + high_m) / 2
            assert (low_p + high_p) / 2 == pytest.approx(middle, abs=0.1 * (high_m - low_m))


@pytest.mark.parametrize("n_segments", [1, 5])
def test_too_few_segments_in_the_shards_have_no_p_value(sample, write_shards, n_segments):
    """As in memory (tests/stats/test_too_few_segments.py): on fewer than 6 segments of every
    shard together the pairs have no p-value, on one no interval either, with the reasons."""
    folder = write_shards(sliced(sample, n_segments, 3), "tsv", 1)
    _, result = sharded_bootstrap(folder, BootstrapOptions(n_resamples=200, seed=1))
    assert result.pairs and all(pair.p is None for pair in result.pairs)
    assert {pair.undefined["p"] for pair in result.pairs} == {why_no_paired_test(n_segments)}
    if n_segments == 1:
        assert result.undefined == dict.fromkeys(METRICS, ONE_SEGMENT) and not result.samples
    else:
        assert not result.undefined and set(result.samples) == set(METRICS)
