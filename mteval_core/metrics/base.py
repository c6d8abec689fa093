"""The small interface every metric implements.

A metric extracts per-segment sufficient statistics once, as a float array of shape
(n_segments, n_stats). Everything else is arithmetic on those arrays: the corpus score is the score
of their column sums, a bootstrap resample is the score of a weighted sum (W @ stats), a segment
score is the score of one row. Nothing downstream re-tokenizes or re-scores text.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

import numpy as np

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.settings.options import Options


class Metric(ABC):
    """A lexical metric under fixed options."""

    name: ClassVar[str]  # registry key, e.g. "bleu"
    label: ClassVar[str]  # how tables print it, e.g. "BLEU"
    scale: ClassVar[str]  # what the numbers mean, for help texts
    stat_names: ClassVar[tuple[str, ...]]
    # Error rates (TER) are lower-is-better; correlations and rankings negate them, as
    # mt-metrics-eval does, so that every statistic reads "higher is better".
    higher_is_better: ClassVar[bool] = True
    # Metrics of one kind (P, R, F1 and Fmean; GTM and its P and R) compute the same statistics
    # under the same options: a scorer computes them once and shares the array, read-only.
    statistics_kind: ClassVar[str | None] = None
    # How many decimals a table for people shows (text, LaTeX, the dashboard); JSON and CSV keep
    # every digit.
    decimals: ClassVar[int] = 4
    # Whether the statistics need the reference n-gram counts of the whole test set (NIST's
    # information weights): `mteval score --shards` then counts them in a first pass.
    needs_corpus_counts: ClassVar[bool] = False
    # False for a metric that reads the raw text (chrF, TER): tokenizer and stemmer change
    # nothing of it, and its signature leaves them out
    reads_tokens: ClassVar[bool] = True
    # The family of parameters the metric reads (Options' field: "bleu", "unigram", "gtm",
    # "ter", "meteor"), None for a metric with none: with the shared preprocessing, all that
    # changes its statistics (settings.options.scoring_options)
    family: ClassVar[str | None] = None

    def __init__(self, options: Options) -> None:
        self.options = options

    @abstractmethod
    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        """(n_segments, n_stats) sufficient statistics of one system."""

    def forget_test_set(self) -> None:  # noqa: B027 (most metrics keep nothing: nothing to drop)
        """Drop what was kept while one test set was scored (metrics that compute every system
        at once keep the test set, its statistics and prepared references until the last system
        is asked for). The scorer calls this when every system's statistics are out: a Scores
        keeps its metrics for their formulas, and a cached one would otherwise keep the text and
        those tables alive too (25 MB on WMT21 en-de with chrF, TER and METEOR)."""

    @abstractmethod
    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """Scores from summed statistics; ``totals`` is (..., n_stats), the result (...)."""

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self.score_from_totals(stats.sum(axis=0)))

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return self.score_from_totals(stats)

    def format(self, value: float) -> str:
        """A score as tables for people print it."""
        return f"{value:.{self.decimals}f}"

    def signature_options(self) -> dict[str, str]:
        """The metric's own options that change its numbers (beyond preprocessing)."""
        return {}

    def why_equal_to(self, other: Metric) -> str | None:
        """Why this metric, under its options, can give every system the same score as
        ``other`` (a table that shows both then repeats a column), or None. Said to readers only
        where the scores are equal."""
        return None

    @property
    def case_label(self) -> str | None:
        """How this metric treats case, for the ``case`` field of its signature: the shared
        preprocessing's, unless the metric reads case its own way (chrF and TER read the raw
        text, and TER is case-insensitive by default, as sacreBLEU's); None for a metric whose
        numbers come from elsewhere."""
        return self.options.case_label


def safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (an empty side scores 0, not NaN)."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros(np.broadcast_shapes(numerator.shape, denominator.shape))
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out
