"""Melamed et al.'s reliability experiment: correlation against pseudo-document size."""

from __future__ import annotations

import time

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.metrics import get_metric
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.judgment_matrices import segment_matrix
from mteval_core.settings.options import Options
from mteval_core.stats.reliability import (
    ReliabilityCurve,
    ReliabilityOptions,
    compare_curves,
    reliability_by_references,
    reliability_curve,
    reliability_of_test_set,
    reliability_summary,
)
from tests.helpers import load_sample


def synthetic(noise: float, rng: np.random.Generator):
    """Four systems of different quality; a metric that sees each segment's human score through
    noise (as a precision). Larger pseudo-documents average the noise away, not the quality."""
    quality = np.array([0.3, 0.45, 0.6, 0.75])[:, None]
    human = (quality + rng.normal(0, 0.2, size=(4, 200))).clip(0.01, 1)
    matches = (human + rng.normal(0, noise, human.shape)).clip(0, 1) * 20
    stats = np.stack([matches, np.full(human.shape, 20.0), np.full(human.shape, 20.0)], axis=-1)
    return get_metric("precision", Options()), stats, human


def test_larger_pseudo_documents_correlate_better_and_noise_hurts():
    rng = np.random.default_rng(0)
    options = ReliabilityOptions(sizes=(1, 5, 25), n_documents=200, repetitions=5, seed=1)
    metric, stats, human = synthetic(0.3, rng)
    noisy = reliability_curve(metric, stats, human, options)
    metric, stats_clean, _ = synthetic(0.05, np.random.default_rng(0))
    clean = reliability_curve(metric, stats_clean, human, options)
    means = noisy.pearson.mean(axis=1)
    assert means[0] < means[1] < means[2]
    assert (clean.pearson.mean(axis=1) > means).all()
    assert compare_curves(clean, noisy) < 0.01
    again = reliability_curve(metric, stats_clean, human, options)
    assert np.array_equal(again.pearson, clean.pearson)  # seeded


def test_unrated_segments_are_never_drawn():
    rng = np.random.default_rng(3)
    metric, stats, human = synthetic(0.1, rng)
    human[:, 100:] = np.nan
    curve = reliability_curve(metric, stats, human, ReliabilityOptions(sizes=(10,), repetitions=2))
    assert np.isfinite(curve.pearson).all()


def test_every_reference_combination_on_the_sample():
    test_set = load_sample().test_set
    scores = score_test_set(test_set, ["fmean"], Options())
    human = segment_matrix(test_set.human, scores.systems, test_set.n_segments, "adequacy")
    options = ReliabilityOptions(sizes=(1, 5), n_documents=100, repetitions=3)
    start = time.perf_counter()
    curves = reliability_by_references(test_set, "fmean", human, Options(), options)
    assert time.perf_counter() - start < 10
    assert [c.references for c in curves] == [("ref-A",), ("ref-B",), ("ref-A", "ref-B")]
    for curve in curves:
        assert curve.pearson.shape == (2, 3)
        assert curve.as_dict()["pearson_mean"][1] > 0.5  # the four systems differ a lot


def test_reliability_of_a_test_set_uses_its_rated_systems_and_criterion():
    test_set = load_sample().test_set
    options = ReliabilityOptions(sizes=(1, 10), n_documents=50, repetitions=2, seed=3)
    shares = []
    curves = reliability_of_test_set(
        test_set, "fmean", "adequacy", Options(), options, ["word-by-word"], shares.append
    )
    assert shares == pytest.approx([1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1])  # 3 curves x 2 sizes
    kept = test_set.with_human(None).with_systems(
        [c for c in test_set.systems if c.name != "word-by-word"]
    )
    human = segment_matrix(test_set.human, kept.system_names, test_set.n_segments, "adequacy")
    expected = reliability_by_references(kept, "fmean", human, Options(), options)
    assert [c.references for c in curves] == [("ref-A",), ("ref-B",), ("ref-A", "ref-B")]
    for got, want in zip(curves, expected):
        np.testing.assert_array_equal(got.pearson, want.pearson)


def test_reliability_needs_segment_judgments():
    test_set = load_sample().test_set.with_human(None)
    with pytest.raises(InputError, match="segment-level human judgments"):
        reliability_of_test_set(test_set, "bleu", "adequacy", Options(), ReliabilityOptions())


def test_a_summary_gives_each_sizes_mean_and_range_without_the_missing_repetitions():
    curve = ReliabilityCurve(
        sizes=[1, 5],
        pearson=np.array([[0.2, 0.4, np.nan], [0.7, 0.9, 0.8]]),
        spearman=np.array([[0.1, 0.1, 0.4], [np.nan, 1.0, 0.5]]),
    )
    pearson = reliability_summary(curve)
    assert pearson.sizes == [1, 5]
    assert pearson.mean == pytest.approx([0.3, 0.8])  # (0.2 + 0.4) / 2: NaN left out
    assert pearson.low == pytest.approx([0.2, 0.7]) and pearson.high == pytest.approx([0.4, 0.9])
    spearman = reliability_summary(curve, "spearman")
    assert spearman.mean == pytest.approx([0.2, 0.75])
    assert spearman.low == pytest.approx([0.1, 0.5]) and spearman.high == pytest.approx([0.4, 1.0])
    exported = curve.as_dict()
    assert exported["pearson_mean"] == pytest.approx([0.3, 0.8])
    assert exported["spearman_mean"] == pytest.approx([0.2, 0.75])


def test_a_corpus_with_fewer_references_gives_the_statistics_of_scoring_them_alone():
    """The reliability experiment encodes the text once for every combination of references."""
    from dataclasses import replace

    from mteval_core.engine.ngrams import EncodedCorpus
    from mteval_core.metrics import REGISTRY, get_metric
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.settings.options import Options
    from tests.helpers import load_sample

    test_set = load_sample().test_set.with_human(None)
    options = Options.from_flags(gtm_exponent=2.0)
    corpus = EncodedCorpus(test_set, options)
    for subset in ((0,), (1,), (1, 0)):
        alone = replace(test_set, references=tuple(test_set.references[i] for i in subset))
        expected = score_test_set(alone, list(REGISTRY), options)
        reduced = corpus.with_references(subset)
        for name in REGISTRY:
            metric = get_metric(name, options)
            for system in test_set.system_names:
                found = metric.statistics(reduced, system)
                wanted = expected.statistics[name][system]
                if name == "nist":  # information weights summed in n-gram id order: last bits
                    np.testing.assert_allclose(found, wanted, rtol=1e-14, err_msg=name)
                else:
                    np.testing.assert_array_equal(found, wanted, name)


def test_the_experiment_runs_unasked_only_where_it_is_quick():
    from mteval_core.stats.reliability import is_quick

    sample = load_sample().test_set  # 2 references x 4 systems x 40 segments
    assert is_quick(sample)
    assert not is_quick(sample.with_human(None))
    import pandas as pd

    from mteval_core.model.testset import HumanScores
    from tests.helpers import make_test_set

    systems = {f"s{i}": ["a"] * 1000 for i in range(5)}
    wmt_like = make_test_set([["a"] * 1000] * 3, systems)  # 3 references: 7 combinations
    rows = [{"system": s, "segment": k, "score": 1.0} for s in systems for k in range(1, 1001)]
    judged = wmt_like.with_human(HumanScores(segment_rows=pd.DataFrame(rows)))
    assert not is_quick(judged)  # 7 x 5,000 cells


def test_an_error_rate_is_turned_round_as_in_every_correlation():
    """TER's curve on edits that grow as people's scores fall is positive, as its correlations
    are (mt-metrics-eval's orientation)."""
    rng = np.random.default_rng(5)
    human = rng.uniform(0.1, 1.0, size=(4, 100))
    edits = (1.0 - human) * 20 + rng.normal(0, 0.5, human.shape).clip(-1, 1)
    stats = np.stack([edits.clip(0), np.full(human.shape, 20.0)], axis=-1)
    ter = get_metric("ter", Options())
    assert not ter.higher_is_better
    curve = reliability_curve(ter, stats, human, ReliabilityOptions(sizes=(5,), repetitions=2))
    assert (curve.pearson > 0.5).all()
