"""Significance clusters of systems (WMT's view of a ranking): hand-checked cases of the rule,
its guarantees on random matrices, the resamples a pair needs to reach significance after
Holm, and the bootstrap's one-product resampling giving the numbers it gave one system at a
time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions, resample_counts
from mteval_core.stats.ranking import assign_ranks
from mteval_core.stats.significance import (
    PairedTest,
    bootstrap_scores,
    holm,
    paired_p_values,
    resamples_needed,
    smallest_reachable_p,
)
from mteval_core.stats.system_clusters import (
    ClusteredSystem,
    cluster_systems,
    pair_matrix,
    significance_clusters,
)
from tests.helpers import load_sample, shared_dataset


def p_matrix(n: int, significant: dict[tuple[int, int], float]) -> np.ndarray:
    """n x n p-values, 1 everywhere but the given pairs (both halves)."""
    p = np.ones((n, n))
    for (a, b), value in significant.items():
        p[a, b] = p[b, a] = value
    return p


# ----------------------------------------------------------------------- the rule, by hand
def test_nothing_significant_is_one_cluster_with_every_rank_open():
    result = significance_clusters(np.array([3.0, 2.0, 1.0]), np.ones((3, 3)))
    assert result.order.tolist() == [0, 1, 2]
    assert result.cluster.tolist() == [1, 1, 1]
    assert result.rank_range.tolist() == [[1, 3], [1, 3], [1, 3]]
    assert not result.better.any()


def test_everything_significant_is_one_cluster_per_system():
    result = significance_clusters(
        np.array([1.0, 3.0, 2.0]), p_matrix(3, {(0, 1): 0.001, (0, 2): 0.01, (1, 2): 0.02})
    )
    assert result.order.tolist() == [1, 2, 0]  # best first
    assert result.cluster.tolist() == [1, 2, 3]
    assert result.rank_range.tolist() == [[1, 1], [2, 2], [3, 3]]


def test_a_system_joins_the_cluster_whose_members_it_does_not_differ_from():
    """A > B > C, only A and C differ: B stays with A (it differs from neither), C opens
    cluster 2 because A, of the current cluster, is significantly better. B's rank range spans
    all three ranks: nothing places it."""
    result = significance_clusters(np.array([30.0, 20.0, 10.0]), p_matrix(3, {(0, 2): 0.01}))
    assert result.cluster.tolist() == [1, 1, 2]
    assert result.rank_range.tolist() == [[1, 2], [1, 3], [2, 3]]


def test_only_the_current_cluster_can_push_a_system_down():
    """A > B > C > D; A beats B and D. B opens cluster 2; C and D join it: nobody in cluster 2
    (B, C) is significantly better than D, and A is no longer in the current cluster. So a
    system of a lower cluster need not be significantly worse than every system above it."""
    p = p_matrix(4, {(0, 1): 0.01, (0, 3): 0.001})
    result = significance_clusters(np.array([4.0, 3.0, 2.0, 1.0]), p)
    assert result.cluster.tolist() == [1, 2, 2, 2]
    assert result.rank_range.tolist() == [[1, 2], [2, 4], [1, 4], [2, 4]]


def test_the_same_as_mt_metrics_eval_assign_ranks_on_its_own_test():
    """tests/stats/test_ranking.py's AssignRanks case, p <= 0.05 there: here p < 0.05, so the
    pair at exactly 0.05 counts only once it is lowered."""
    scores = np.array([4.0, 3.0, 2.0, 1.0])
    p = p_matrix(4, {(0, 1): 0.01, (0, 3): 0.01, (1, 3): 0.05})
    assert assign_ranks(np.triu(p, 1) + np.tril(np.ones((4, 4)))) == [1, 2, 2, 3]
    assert significance_clusters(scores, p).cluster.tolist() == [1, 2, 2, 2]  # 0.05 is not < 0.05
    p[1, 3] = p[3, 1] = 0.0499
    assert significance_clusters(scores, p).cluster.tolist() == [1, 2, 2, 3]


def test_lower_is_better_orders_the_lowest_first():
    """TER-like scores: 10 is best."""
    result = significance_clusters(
        np.array([10.0, 30.0, 20.0]), p_matrix(3, {(0, 1): 0.01}), higher_is_better=False
    )
    assert result.order.tolist() == [0, 2, 1]
    assert result.cluster.tolist() == [1, 1, 2]
    assert result.better[0, 2] and not result.better[2, 0]


def test_ties_keep_their_order_and_never_differ():
    """Equal scores: the given order, and not significant even if a p-value said so (a paired
    test gives p = 1 there anyway). A missing test (NaN) is not significant either."""
    p = p_matrix(4, {(0, 1): 0.001, (2, 3): np.nan, (0, 3): 0.001})
    result = significance_clusters(np.array([5.0, 5.0, 7.0, 1.0]), p)
    assert result.order.tolist() == [2, 0, 1, 3]
    assert result.cluster.tolist() == [1, 1, 1, 2]  # 0 and 1 tie; 2 vs 3 untested; 0 beats 3
    assert not result.better[1, 2] and not result.better[2, 1]


def test_the_level_is_strict_and_can_be_chosen():
    p = p_matrix(2, {(0, 1): 0.01})
    assert significance_clusters(np.array([2.0, 1.0]), p, level=0.01).cluster.tolist() == [1, 1]
    assert significance_clusters(np.array([2.0, 1.0]), p, level=0.011).cluster.tolist() == [1, 2]


def test_a_matrix_of_another_size_is_refused():
    with pytest.raises(ValueError, match="3 x 3"):
        significance_clusters(np.array([1.0, 2.0, 3.0]), np.ones((2, 2)))


def test_one_system_and_none():
    one = significance_clusters(np.array([0.5]), np.ones((1, 1)))
    assert one.cluster.tolist() == [1] and one.rank_range.tolist() == [[1, 1]]
    assert significance_clusters(np.array([]), np.ones((0, 0))).cluster.tolist() == []


# --------------------------------------------------------------- what the rule guarantees
@st.composite
def ranking_inputs(draw):
    n = draw(st.integers(1, 9))
    scores = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
    upper = draw(
        st.lists(st.sampled_from([0.001, 0.03, 0.05, 0.2, 1.0]), min_size=n * n, max_size=n * n)
    )
    p = np.triu(np.reshape(upper, (n, n)), 1)
    return scores, p + p.T + np.eye(n)


@settings(max_examples=300, deadline=None)
@given(ranking_inputs())
def test_clusters_hold_what_the_docstring_promises(inputs):
    scores, p = inputs
    result = significance_clusters(scores, p)
    n = len(scores)
    ranked = scores[result.order]
    assert (np.diff(ranked) <= 0).all()  # best first
    assert sorted(result.order.tolist()) == list(range(n))
    clusters = result.cluster
    assert clusters[0] == 1 and set(np.diff(clusters)) <= {0, 1}  # 1, 2, 3, ... in runs
    for k in range(n):
        for m in range(n):
            expected = p[result.order[k], result.order[m]] < 0.05 and ranked[k] > ranked[m]
            assert result.better[k, m] == expected
            if clusters[k] == clusters[m]:
                assert not result.better[k, m]  # no two systems of a cluster differ
    for m in range(1, n):
        if clusters[m] != clusters[m - 1]:  # opens a cluster: worse than one of the one above
            assert result.better[clusters == clusters[m - 1], m].any()
    low, high = result.rank_range.T
    assert (low >= 1).all() and (high <= n).all() and (low <= np.arange(1, n + 1)).all()
    assert (np.arange(1, n + 1) <= high).all()  # its own position is always in its range


# ----------------------------------------------------------------------- named systems
def pairs_of(metric: str, significant: dict[tuple[str, str], float], names: list[str]):
    return [
        PairedTest(a, b, metric, 0.0, significant.get((a, b), 1.0), significant.get((a, b), 1.0))
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]


def test_named_systems_take_their_pairs_intervals_and_direction():
    names = ["mid", "best", "worst"]
    scores = {"mid": 20.0, "best": 30.0, "worst": 10.0}
    pairs = [
        *pairs_of("bleu", {("mid", "worst"): 0.001}, names),
        *pairs_of("chrf", {("mid", "best"): 0.001}, names),  # another metric: ignored
    ]
    intervals = {"mid": (18.0, 22.0), "best": (27.0, 33.0), "worst": (9.0, 11.5)}
    ranking = cluster_systems(scores, pairs, "bleu", intervals=intervals)
    assert ranking == (
        ClusteredSystem("best", 30.0, 1, 1, (1, 3), 0, 0, (27.0, 33.0)),
        ClusteredSystem("mid", 20.0, 2, 1, (1, 2), 0, 1, (18.0, 22.0)),
        ClusteredSystem("worst", 10.0, 3, 2, (2, 3), 1, 0, (9.0, 11.5)),
    )
    assert ranking[2].to_row() == {
        "rank": "2–3",
        "cluster": 2,
        "system": "worst",
        "score": 10.0,
        "low": 9.0,
        "high": 11.5,
        "significantly better": 1,
        "significantly worse": 0,
    }
    errors = cluster_systems(scores, pairs, "bleu", higher_is_better=False)  # as for TER
    assert [entry.system for entry in errors] == ["worst", "mid", "best"]
    assert errors[0].interval is None and errors[0].to_row()["low"] is None


def test_pair_matrix_is_symmetric_with_ones_where_untested():
    names = ["a", "b", "c"]
    pairs = [PairedTest("a", "c", "bleu", 1.0, 0.01, 0.03), PairedTest("z", "a", "bleu", 1, 0, 0)]
    p = pair_matrix(names, pairs, "bleu")
    assert p.tolist() == [[1.0, 1.0, 0.03], [1.0, 1.0, 1.0], [0.03, 1.0, 1.0]]


# ----------------------------------------------------------- resamples needed after Holm
@pytest.mark.parametrize(
    ("pairs", "needed"),
    [(1, 20), (6, 120), (55, 1100), (78, 1560), (190, 3799), (253, 5060), (999, 19980)],
)
def test_resamples_needed_by_hand(pairs, needed):
    """n_pairs / (R + 1) < 0.05, i.e. R + 1 > 20 n_pairs: 1 pair needs 20 (1/21 = 0.048; 19
    give 1/20 = 0.05, not below); 23 systems (253 pairs) 5,060. 20 systems (190 pairs): 3,799,
    not 3,800, because Holm computes 190 x (1 / 3,800) = 0.049999999999999996 in floats, and
    that is what the paired tests would give."""
    assert resamples_needed(pairs) == needed
    assert smallest_reachable_p(needed, pairs) < 0.05 <= smallest_reachable_p(needed - 1, pairs)


@pytest.mark.parametrize("level", [0.05, 0.01, 0.1, 0.003, 1.0])
def test_resamples_needed_inverts_the_smallest_reachable_p(level):
    for pairs in range(1, 1200):
        needed = resamples_needed(pairs, level)
        assert smallest_reachable_p(needed, pairs) < level
        assert needed == 1 or smallest_reachable_p(needed - 1, pairs) >= level


def test_resamples_needed_refuses_nonsense():
    for pairs, level in [(0, 0.05), (3, 0.0), (3, 1.5), (-1, 0.05)]:
        with pytest.raises(ValueError, match="n_pairs >= 1"):
            resamples_needed(pairs, level)


def test_at_the_resamples_needed_the_clearest_pair_is_significant_after_holm():
    """Twenty columns far apart in every resample: each pair's p is the floor 1 / (R + 1),
    and Holm's first pair gets n_pairs / (R + 1): below 0.05 at resamples_needed, not one
    resample before."""
    pairs = 190
    for resamples, significant in [
        (resamples_needed(pairs), True),
        (resamples_needed(pairs) - 1, False),
    ]:
        rng = np.random.default_rng(7)
        observed = np.arange(20, dtype=float) * 10
        samples = observed + rng.normal(scale=0.01, size=(resamples, 20))
        p = paired_p_values(samples, observed)
        corrected = holm(p[np.triu_indices(20, 1)])
        assert bool(corrected.min() < 0.05) is significant


# ------------------------------------------------ the bootstrap's one product for all systems
def per_system_samples(scores, options: BootstrapOptions) -> dict[str, np.ndarray]:
    """What bootstrap_scores computed before: one product per system and metric."""
    first = scores.statistics[scores.metrics[0].name][scores.systems[0]]
    counts = resample_counts(
        first.shape[0], options.n_resamples, np.random.default_rng(options.seed)
    )
    return {
        metric.name: np.column_stack(
            [
                metric.score_from_totals(counts @ scores.statistics[metric.name][s])
                for s in scores.systems
            ]
        )
        for metric in scores.metrics
    }


def test_resampled_scores_are_those_of_one_product_per_system_on_the_sample():
    scores = score_test_set(load_sample().test_set, ["bleu", "nist", "fmean", "gtm"], Options())
    options = BootstrapOptions(n_resamples=300)
    resampled = bootstrap_scores(scores, options)
    for name, expected in per_system_samples(scores, options).items():
        assert np.array_equal(resampled.samples[name], expected), name


def test_resampled_scores_are_those_of_one_product_per_system_on_wmt21():
    from mteval_core.io import read_directory

    test_set = read_directory(shared_dataset("wmt21-newstest2021-ende")).test_set
    scores = score_test_set(test_set, ["bleu", "nist", "fmean"], Options())
    options = BootstrapOptions(n_resamples=5000)  # 190 pairs need 3,800 to reach p < 0.05
    resampled = bootstrap_scores(scores, options)  # 5,000 x 1,002 counts: in two blocks
    for name, expected in per_system_samples(scores, options).items():
        if name == "nist":  # float statistics: BLAS rounds a block of rows its own way
            np.testing.assert_allclose(resampled.samples[name], expected, rtol=1e-12)
        else:  # whole numbers: every sum exact, the same bits
            assert np.array_equal(resampled.samples[name], expected), name
    # and the clusters of its 20 systems keep the rule's promises on real p-values
    corpus = scores.corpus()
    bleu = {system: corpus[system]["bleu"] for system in scores.systems}
    ranking = cluster_systems(bleu, resampled.pairs, "bleu")
    assert [entry.rank for entry in ranking] == list(range(1, 21))
    assert [entry.score for entry in ranking] == sorted(bleu.values(), reverse=True)
    held = {(p.a, p.b): p for p in resampled.pairs if p.metric == "bleu"}
    for upper in ranking:
        for lower in ranking[upper.rank :]:
            pair = held.get((upper.system, lower.system)) or held[lower.system, upper.system]
            if upper.cluster == lower.cluster:
                assert pair.p_holm >= 0.05 or upper.score == lower.score
    assert ranking[-1].cluster > 1  # BLEU 20 points apart at the ends: they differ
