"""A metric whose scores were computed elsewhere (COMET, MetricX, ...) and read from a file.

It goes through the same arithmetic as every built-in metric, so that its numbers get the same
bootstrap intervals, paired tests and correlations. With segment scores, the statistics of a
segment are (score, 1), or (0, 0) for a segment the file does not score, and the score of summed
statistics is their sum over their count: a system's score is the mean of its segment scores, a
resample's score the mean over the segments it drew, a segment's score the file's number itself.
A segment the file does not score has no score (NaN in ``segment_scores``, null or an empty cell
in what the writers print), and neither has a document none of whose segments it scores; never 0,
which would pass for a score.

With both (mt-metrics-eval's ``METRIC.sys.score`` beside its ``METRIC.seg.score``, as it ships
BLEU and chrF: corpus scores beside sentence scores), a system's score is the file's own system
score, as mt-metrics-eval's GetCorrelations takes it, and its segments are the segment file's.
Where the system scores are not the means of the segment scores, resampling segments would give
intervals and paired tests of another number than the one shown, so those are undefined, with
the reason (``why_not_resampled``); segment scores and segment-level statistics stay defined.

With system scores only there is nothing per segment to resample or correlate. Such a metric keeps
its system scores (``system_score``), has statistics with no columns, and refuses any score of
statistics with an :class:`InputError` that says why (``why_no_segments``): a caller that needs
segments reports the statistic as undefined with that reason (see ``stats.undefined``), and one
that does not ask first gets the reason as an error, never a made-up number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.errors import InputError
from mteval_core.metrics.base import Metric, safe_divide
from mteval_core.model.metric_signature import MetricSignature
from mteval_core.model.spans import ErrorSpan
from mteval_core.model.testset import TestSet
from mteval_core.settings.options import Options

# Metric names end up in table headers, CSV columns and run signatures ("name:external").
METRIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
SEGMENT_STATISTICS = ("score_sum", "n_scored")


class ExternalMetric(Metric):
    """Scores from a file, per segment or per system, under a name and a direction the user gave.

    ``statistics`` (system -> (n_segments, 2) array of (score sum, number of scores)) for segment
    scores, ``system_scores`` (system -> score) for system scores, or both, the system scores then
    read from ``system_origin`` (see the module docstring). ``signature`` says what produced
    the scores (model, version, precision, ...; :mod:`mteval_core.model.metric_signature`), and
    ``spans`` holds the error spans the tool marked, per (system, 1-based segment).
    """

    def __init__(  # noqa: PLR0913 (keyword-only: what it is, where from, each level's scores)
        self,
        name: str,
        *,
        higher_is_better: bool,
        origin: str,
        n_segments: int,
        statistics: Mapping[str, np.ndarray] | None = None,
        system_scores: Mapping[str, float] | None = None,
        label: str | None = None,
        notes: Sequence[str] = (),
        system_origin: str | None = None,
        signature: MetricSignature | None = None,
        spans: Mapping[tuple[str, int], tuple[ErrorSpan, ...]] | None = None,
    ) -> None:
        super().__init__(Options())
        check_metric_name(name, origin)
        if statistics is None and system_scores is None:
            raise ValueError("give segment statistics, system scores or both")
        if not isinstance(higher_is_better, bool):
            raise ValueError(f"higher_is_better must be True or False, not {higher_is_better!r}")
        self.name = name
        self.label = label or name
        self.higher_is_better = higher_is_better
        self.origin = origin
        self.n_segments = n_segments
        self.notes = tuple(notes)
        direction = "higher" if higher_is_better else "lower"
        self.signature = (signature or MetricSignature()).filled_from(
            MetricSignature(direction=direction)
        )
        self.spans = dict(spans or {})
        self.scale = f"as in {origin} ({self.direction_and_scale})"
        self.system_origin = system_origin if statistics is not None else None
        self._means_differ: list[str] = []  # systems whose own score is not their segments' mean
        if statistics is not None:
            self.stat_names = SEGMENT_STATISTICS
            self._statistics = {
                system: _checked_statistics(stats, n_segments, system)
                for system, stats in statistics.items()
            }
            self._system_scores = {
                system: float(self.score_from_totals(stats.sum(axis=0)))
                for system, stats in self._statistics.items()
            }
            if system_scores is not None:
                self._take_system_scores(system_scores)
        else:
            assert system_scores is not None
            self.stat_names = ()
            self._statistics = {
                system: _read_only(np.zeros((n_segments, 0))) for system in system_scores
            }
            self._system_scores = {
                system: _finite(score, system) for system, score in system_scores.items()
            }

    def _take_system_scores(self, system_scores: Mapping[str, float]) -> None:
        """The file's system scores in place of the segments' means, for the same systems."""
        if set(system_scores) != set(self._statistics):
            raise ValueError("the system scores and the segment statistics name other systems")
        own = {system: _finite(system_scores[system], system) for system in self._statistics}
        self._means_differ = [
            system
            for system, score in own.items()
            if not math.isclose(score, self._system_scores[system], rel_tol=1e-6, abs_tol=1e-9)
        ]
        self._system_scores = own

    # ------------------------------------------------------------------ what there is
    @property
    def systems(self) -> list[str]:
        """The systems the file scores, in the file's order."""
        return list(self._system_scores)

    @property
    def segment_level(self) -> bool:
        """True when the file scores segments, False when it gives system scores only."""
        return bool(self.stat_names)

    @property
    def why_no_segments(self) -> str | None:
        """Why statistics over segments are undefined for this metric, or None if they are not."""
        if self.segment_level:
            return None
        return (
            f"{self.name} has system-level scores only ({self.origin}): there are no segment "
            "scores to resample or correlate"
        )

    @property
    def why_not_resampled(self) -> str | None:
        """Why bootstrap intervals and paired tests are undefined for this metric (system scores
        only, or system scores that are not the means of its segment scores), or None."""
        if not self.segment_level:
            return self.why_no_segments
        if not self._means_differ:
            return None
        return (
            f"{self.name}'s system scores are those of {self.system_origin}, not the means of "
            f"its segment scores ({self.origin}; {_names(self._means_differ)} differ), so "
            "resampling its segments cannot give their intervals"
        )

    def system_score(self, system: str) -> float:
        """The system's score: the file's, or the mean of the file's segment scores."""
        return self._system_scores[system]

    def statistics_of(self, system: str) -> np.ndarray:
        """(n_segments, n_stats) statistics of one system, without a tokenized corpus."""
        return self._statistics[system]

    def check_fits(self, test_set: TestSet) -> None:
        """Refuse a test set other than the one the scores were read for: another number of
        segments, or a system without scores."""
        self._check_segments(test_set.n_segments)
        missing = [s for s in test_set.system_names if s not in self._system_scores]
        if missing:
            raise InputError(
                f"metric {self.name!r} has no scores for {_names(missing)}",
                origin=self.origin,
                hint="Score every system of the test set, or leave these systems out.",
            )

    # ------------------------------------------------------------------ the Metric interface
    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        self._check_segments(corpus.n_segments)
        return self.statistics_of(system)

    def _check_segments(self, n_segments: int) -> None:
        if n_segments != self.n_segments:
            raise InputError(
                f"the scores of metric {self.name!r} are for {self.n_segments:,} segments, but "
                f"the test set has {n_segments:,}",
                origin=self.origin,
                hint="Read the metric scores again for this test set.",
            )

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        """Mean of the scores summed in ``totals``; 0 where no segment was scored."""
        if not self.segment_level:
            raise InputError(
                f"{self.why_no_segments}; bootstrap intervals, paired tests, document scores "
                "and segment-level statistics are undefined for it",
                hint="Give segment scores (system, segment_id, score) to get them.",
            )
        totals = np.asarray(totals, dtype=np.float64)
        return safe_divide(totals[..., 0], totals[..., 1])

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        """The file's score of each segment; NaN where it scores none."""
        return self.scored_means(stats)

    def scored_means(self, totals: np.ndarray) -> np.ndarray:
        """Scores of summed statistics (``score_from_totals``), NaN where no segment among them
        was scored: a segment or document without a score, rather than 0."""
        totals = np.asarray(totals, dtype=np.float64)
        means = self.score_from_totals(totals)
        return np.where(totals[..., 1] > 0, means, np.nan)

    def corpus_score(self, stats: np.ndarray) -> float:
        if not self.segment_level:
            self.score_from_totals(stats)  # raises, with the reason
        return super().corpus_score(stats)

    @property
    def case_label(self) -> None:
        """Computed elsewhere: how it treats case is not known here."""
        return None

    @property
    def direction_and_scale(self) -> str:
        """'lower is better, scale 0-25': what a reader of its numbers needs, which the
        signature line leaves out (the direction) or may not know (the scale)."""
        direction = "higher" if self.higher_is_better else "lower"
        scale = self.signature.scale
        return f"{direction} is better" + (f", scale {scale}" if scale else ", scale not known")

    def signature_options(self) -> dict[str, str]:
        """Its numbers come from outside: say so, since mteval cannot reproduce them, and what
        produced them (``comet-model:...``, ``comet-version:...``), as far as it is known; the
        direction is the metric's own attribute, in every layout already."""
        produced_by = {
            f"{self.name}-{key}": value
            for key, value in self.signature.items().items()
            if key != "direction"
        }
        return {self.name: "external", **produced_by}


def check_metric_name(name: str, origin: str | None = None) -> None:
    """A name that fits a table header, and is not a built-in metric's (whose numbers it would
    pass for)."""
    from mteval_core.metrics import REGISTRY  # here: the registry imports this module's peers

    if not METRIC_NAME.fullmatch(name or ""):
        raise InputError(
            f"{name!r} cannot name a metric",
            origin=origin,
            hint="Use letters, digits and _ . + - (starting with a letter or digit), "
            "e.g. comet-22.",
        )
    taken = {key.lower(): key for key in REGISTRY}
    if name.lower() in taken:
        builtin = REGISTRY[taken[name.lower()]]
        raise InputError(
            f"the metric name {name!r} is the built-in metric {builtin.label}'s",
            origin=origin,
            hint=f"Give the external scores another name, e.g. {name}-ext.",
        )


def _checked_statistics(stats: np.ndarray, n_segments: int, system: str) -> np.ndarray:
    stats = np.array(stats, dtype=np.float64)
    if stats.shape != (n_segments, len(SEGMENT_STATISTICS)):
        raise ValueError(
            f"statistics of {system!r} have shape {stats.shape}, not ({n_segments}, 2)"
        )
    if not np.isfinite(stats).all() or (stats[:, 1] < 0).any():
        raise ValueError(f"statistics of {system!r} must be finite, with counts of at least 0")
    if stats[:, 1].sum() == 0:  # its mean would be 0/0
        raise ValueError(f"{system!r} has no scored segment")
    return _read_only(stats)


def _finite(score: float, system: str) -> float:
    score = float(score)
    if not np.isfinite(score):
        raise ValueError(f"the score of {system!r} is {score}, not a finite number")
    return score


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _names(names: Sequence[str], shown: int = 5) -> str:
    """'system A' / 'systems A, B and 3 more'."""
    word = "system" if len(names) == 1 else "systems"
    listed = ", ".join(names[:shown])
    more = f" and {len(names) - shown:,} more" if len(names) > shown else ""
    return f"{word} {listed}{more}"
