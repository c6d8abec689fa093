"""The paired bootstrap: ties count against significance, the smallest reachable p, and the
p-values of sacreBLEU's own test (Moses' bootstrap script on WMT17 en-de) reproduced."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import (
    _DistinctColumns,
    bootstrap_scores,
    holm,
    paired_p_values,
    smallest_reachable_p,
)
from tests.helpers import load_sample


def test_a_tie_with_the_observed_difference_counts_against_significance():
    # |differences| 0 and 2, mean 1: centred -1 and 1; the observed difference is 1.
    samples = np.array([[1.0, 1.0], [3.0, 1.0]])
    p = paired_p_values(samples, np.array([2.0, 1.0]))
    assert p[0, 1] == p[1, 0] == 2 / 3  # sacreBLEU's strict > would count 0: 1/3


def test_no_observed_difference_is_never_significant():
    identical = np.array([[40.0, 40.0], [42.5, 42.5], [38.0, 38.0]])
    assert paired_p_values(identical, np.array([40.0, 40.0]))[0, 1] == 1.0
    # different resamples, but the same corpus score: still no evidence of a difference
    varied = np.array([[1.0, 2.0], [3.0, 2.0], [2.0, 2.5]])
    assert paired_p_values(varied, np.array([2.0, 2.0]))[0, 1] == 1.0


def test_smallest_reachable_p_by_hand():
    assert smallest_reachable_p(1000) == 1 / 1001
    assert smallest_reachable_p(20, 6) == pytest.approx(
        6 / 21
    )  # 4 systems, 6 pairs: nothing below 0.05
    assert smallest_reachable_p(5000, 78) == pytest.approx(78 / 5001)  # 13 systems: 0.0156
    assert smallest_reachable_p(10, 50) == 1.0
    with pytest.raises(ValueError, match="n_resamples >= 1"):
        smallest_reachable_p(0, 3)


SAMPLES = arrays(
    np.float64,
    st.tuples(st.integers(1, 30), st.integers(2, 5)),
    elements=st.integers(0, 3).map(float),
)


@settings(max_examples=200, deadline=None)
@given(SAMPLES, st.data())
def test_no_p_value_falls_below_the_reachable_floor(samples, data):
    resamples, systems = samples.shape
    observed = np.array(data.draw(st.lists(st.integers(0, 3), min_size=systems, max_size=systems)))
    p = paired_p_values(samples, observed.astype(float))
    pairs = np.triu_indices(systems, k=1)
    assert (p[pairs] >= smallest_reachable_p(resamples)).all()
    assert (holm(p[pairs]) >= smallest_reachable_p(resamples, len(pairs[0]))).all()
    assert (p[pairs][observed[pairs[0]] == observed[pairs[1]]] == 1.0).all()


# sacreBLEU's test/test_significance.py: p-values of Moses' bootstrap-hypothesis-difference-
# significance.pl (2000 resamples, mean of 3 runs) against the baseline LIUM-NMT.4900, BLEU on the
# untokenized WMT17 en-de newstest (sacreBLEU's tokenize='none').
MOSES_P_VALUES = {
    "C-3MA.4959": 0.00000,
    "FBK.4870": 0.01267,
    "KIT.4950": 0.02233,
    "LMU-nmt-reranked.4934": 0.04383,
    "LMU-nmt-single.4893": 0.20783,
    "online-A.0": 0.00000,
    "online-B.0": 0.38100,
    "online-F.0": 0.00000,
    "online-G.0": 0.00000,
    "PROMT-Rule-based.4735": 0.00000,
    "RWTH-nmt-ensemble.4921": 0.01167,
    "SYSTRAN.4847": 0.20983,
    "TALP-UPC.4834": 0.00000,
    "uedin-nmt.4722": 0.00000,
    "xmu.4910": 0.25483,
}
# What sacreBLEU 2.6.0's PairedTest(test_type='bs', n_samples=2000, SACREBLEU_SEED=12345) gives on
# the same data, as c in p = (c + 1) / 2001: run once with sacreBLEU and its test's data file.
SACREBLEU_COUNTS = {
    "C-3MA.4959": 0,
    "FBK.4870": 36,
    "KIT.4950": 48,
    "LMU-nmt-reranked.4934": 101,
    "LMU-nmt-single.4893": 419,
    "online-A.0": 0,
    "online-B.0": 775,
    "online-F.0": 0,
    "online-G.0": 0,
    "PROMT-Rule-based.4735": 0,
    "RWTH-nmt-ensemble.4921": 19,
    "SYSTRAN.4847": 424,
    "TALP-UPC.4834": 0,
    "uedin-nmt.4722": 0,
    "xmu.4910": 519,
}


def test_paired_bootstrap_reproduces_sacrebleu_and_moses(wmt17):
    """On sacreBLEU's own resamples (numpy's default_rng(12345).choice, the same for every
    system) our p-values are sacreBLEU's exactly (the >= changes nothing where the observed
    difference is not 0), and within sacreBLEU's tolerance of 0.01 of Moses'. (The MultEval
    numbers in the same test are approximate randomization, which mteval does not implement.)"""
    scores = score_test_set(wmt17, ["bleu"], Options(tokenize="none"))
    n_segments, resamples = wmt17.n_segments, 2000
    picks = np.random.default_rng(12345).choice(n_segments, size=(resamples, n_segments))
    rows = np.repeat(np.arange(resamples), n_segments)
    counts = np.zeros((resamples, n_segments))
    np.add.at(counts, (rows, picks.ravel()), 1)
    metric = scores.metrics[0]
    samples = np.column_stack(
        [metric.score_from_totals(counts @ scores.statistics["bleu"][s]) for s in scores.systems]
    )
    corpus = scores.corpus()
    p = paired_p_values(samples, np.array([corpus[s]["bleu"] for s in scores.systems]))
    baseline = scores.systems.index("LIUM-NMT.4900")
    for system, moses in MOSES_P_VALUES.items():
        ours = p[baseline, scores.systems.index(system)]
        assert ours == (SACREBLEU_COUNTS[system] + 1) / (resamples + 1), system
        assert abs(ours - moses) < 1e-2, system


def test_columns_shared_by_metrics_are_summed_once_with_the_same_numbers():
    """chrF++'s character counts are chrF's, P's and R's statistics are one set, BLEU's length is
    its unigram total: the bootstrap sums each distinct whole-number column once, and every
    metric's resampled scores are those it gets resampled alone, to the bit."""
    test_set = load_sample().test_set
    names = ["bleu", "precision", "recall", "chrf", "chrf++", "nist", "ter"]
    together = score_test_set(test_set, names, Options())
    options = BootstrapOptions(n_resamples=300)
    samples = bootstrap_scores(together, options).samples
    for name in names:
        alone = bootstrap_scores(score_test_set(test_set, [name], Options()), options).samples
        assert np.array_equal(samples[name], alone[name], equal_nan=True), name

    columns = _DistinctColumns()
    first = columns.add(np.array([[1, 2, 1], [3, 4, 3]], dtype=np.int32))
    second = columns.add(np.array([[2.0, 5.0], [4.0, 6.0]]))  # int32 and float64 alike
    assert first.tolist() == [0, 1, 0] and second.tolist() == [1, 2]
    assert columns.matrix().tolist() == [[1.0, 2.0, 5.0], [3.0, 4.0, 6.0]]
