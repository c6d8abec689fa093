"""Whole-number statistics are kept in the narrowest signed integer type that holds them
(scoring.compact): int16 for nearly every test set, an eighth of float64's memory, and every
score, sum and resample the same as from float64."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.metrics.scoring import compact, score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import resampled_sums

METRICS = ["bleu", "nist", "precision", "fmean", "gtm", "chrf", "ter"]


def test_compact_keeps_whole_numbers_in_the_narrowest_type():
    for values, dtype in (
        ([[3.0, 0.0], [-2.0, 7.0]], np.int8),
        ([[127.0, -128.0]], np.int8),
        ([[128.0, 0.0]], np.int16),  # just past int8
        ([[-129.0, 0.0]], np.int16),
        ([[32767.0, 1.0]], np.int16),
        ([[32768.0, 1.0]], np.int32),  # just past int16
        ([[2.0**31 - 1, 0.0]], np.int32),
    ):
        narrow = compact(np.array(values))
        assert narrow.dtype == dtype and np.array_equal(narrow, values)
    for kept in (
        np.array([[1.5, 2.0]]),  # a fraction
        np.array([[np.nan, 1.0]]),
        np.array([[np.inf, 1.0]]),
        np.array([[2.0**31, 1.0]]),  # past int32
        np.zeros((0, 3)),
    ):
        assert compact(kept) is kept


@pytest.mark.parametrize("exponent", [1.0, 2.0])
def test_scores_from_narrow_statistics_equal_float64(ted, exponent):
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
    for name in ("bleu", "precision", "chrf") + (("gtm",) if exponent == 1.0 else ()):
        for stats in scores.statistics[name].values():  # counts: the narrowest that holds them
            assert stats.dtype == narrowest(stats) and stats.dtype.itemsize <= 2
    assert dtypes["nist"] == np.float64  # information weights are fractions
    if exponent != 1.0:
        assert dtypes["gtm"] == np.float64  # the root of a power sum


def narrowest(stats: np.ndarray) -> np.dtype:
    """The first of int8, int16, int32 whose range holds every value of ``stats``."""
    for dtype in (np.int8, np.int16, np.int32):
        if np.iinfo(dtype).min <= stats.min() and stats.max() <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    raise AssertionError("no integer type holds them")


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32])
def test_resampled_sums_of_integers_equal_float64(dtype):
    high = np.iinfo(dtype).max  # sums far past the type's own range
    statistics = np.random.default_rng(3).integers(0, high, size=(400, 6)).astype(dtype)
    narrow = resampled_sums([statistics], 300, np.random.default_rng(7), budget_bytes=10_000)
    wide = resampled_sums(
        [statistics.astype(np.float64)], 300, np.random.default_rng(7), budget_bytes=10_000
    )
    assert np.array_equal(narrow[0], wide[0])
    assert statistics.sum(axis=0).tolist() == statistics.astype(np.int64).sum(axis=0).tolist()
