"""Whole-number statistics are kept as int32 (scoring.compact): half the memory, and every
score, sum and resample the same as from float64."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.metrics.scoring import compact, score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import resampled_sums

METRICS = ["bleu", "nist", "precision", "fmean", "gtm", "chrf", "ter"]


def test_compact_keeps_only_whole_numbers_as_int32():
    assert compact(np.array([[3.0, 0.0], [-2.0, 7.0]])).dtype == np.int32
    for kept in (
        np.array([[1.5, 2.0]]),  # a fraction
        np.array([[np.nan, 1.0]]),
        np.array([[np.inf, 1.0]]),
        np.array([[2.0**31, 1.0]]),  # past int32
        np.zeros((0, 3)),
    ):
        assert compact(kept) is kept


@pytest.mark.parametrize("exponent", [1.0, 2.0])
def test_scores_from_int32_statistics_equal_float64(ted, exponent):
    small = ted.with_systems(ted.systems[:3])
    scores = score_test_set(small, METRICS, Options.from_flags(gtm_exponent=exponent))
    for metric in scores.metrics:
        for system in scores.systems:
            stats = scores.statistics[metric.name][system]
            wide = stats.astype(np.float64)
            assert metric.corpus_score(stats) == metric.corpus_score(wide)
            assert np.array_equal(metric.segment_scores(stats), metric.segment_scores(wide))
    dtypes = {
        name: next(iter(by_system.values())).dtype for name, by_system in scores.statistics.items()
    }
    assert dtypes["bleu"] == dtypes["precision"] == dtypes["chrf"] == np.int32
    assert dtypes["nist"] == np.float64  # information weights are fractions
    assert dtypes["gtm"] == (np.int32 if exponent == 1.0 else np.float64)  # sqrt of a power sum


def test_resampled_sums_of_int32_equal_float64():
    statistics = np.random.default_rng(3).integers(0, 50, size=(400, 6)).astype(np.int32)
    narrow = resampled_sums([statistics], 300, np.random.default_rng(7), budget_bytes=10_000)
    wide = resampled_sums(
        [statistics.astype(np.float64)], 300, np.random.default_rng(7), budget_bytes=10_000
    )
    assert np.array_equal(narrow[0], wide[0])
