"""System-level agreement between a metric and people: correlations, pairwise views.

Pure functions over 1-D arrays (one value per system), and row-wise versions over 2-D arrays
(one row per bootstrap resample) so that intervals need no Python loop over resamples.
scipy is the reference for the single-vector functions and is used where it is already exact.

Some statistics have no value for some inputs: a correlation with a constant series is 0/0, and
pairwise accuracy over pairs that people all tie is a share of nothing. The numeric functions
return NaN there; ``why_undefined`` says why, in words a report can print, and ``correlations``
gathers every statistic of one metric into a ``SystemCorrelations``: a number, or None with its
reason (see ``stats.undefined``). Every statistic also
needs a minimum number of systems (``MIN_SYSTEMS``): with two systems every correlation is +1 or
-1 and pairwise accuracy is 0 or 1 from a single pair, so they need three; Williams' t has n - 3
degrees of freedom, so it needs four.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import combinations

import numpy as np

from mteval_core.stats.bootstrap import percentile_interval
from mteval_core.stats.undefined import NO_DEFINED_RESAMPLE, UNDEFINED

KENDALL_VARIANTS = ("b", "c", "like")
MIN_SYSTEMS = 3  # every system-level correlation and pairwise accuracy
WILLIAMS_MIN_SYSTEMS = 4  # Williams' t has n - 3 degrees of freedom
# |r| this close to 1 is a perfect correlation in floating point (rounding leaves ~1e-16).
PERFECT_CORRELATION_TOLERANCE = 1e-12


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Lavie et al.'s choice: it also weighs how far systems lie from the regression line."""
    return float(pearson_rows(np.asarray(x, float)[None], np.asarray(y, float)[None])[0])


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Melamed et al.'s choice: only the ranking of the systems counts."""
    return float(spearman_rows(np.asarray(x, float)[None], np.asarray(y, float)[None])[0])


def kendall(x: np.ndarray, y: np.ndarray, variant: str = "b") -> float:
    """Kendall's tau: 'b' (ties corrected; WMT's system level, scipy's default), 'c' (Stuart's,
    for tables), or 'like': WMT's segment-level tau-like, (concordant - discordant) / (concordant
    + discordant), where a pair the metric ties but people do not counts as discordant."""
    return float(kendall_rows(x, y, variant)[0])


def pairwise_differentials(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every pair of systems (i < j): x_i - x_j and y_i - y_j (Coughlin 2003)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    first, second = np.array(list(combinations(range(len(x)), 2))).reshape(-1, 2).T
    return x[first] - x[second], y[first] - y[second]


def differential_correlation(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson correlation of the pairwise differences: many more points than systems."""
    return pearson(*pairwise_differentials(x, y))


def pairwise_accuracy(x: np.ndarray, y: np.ndarray) -> float:
    """Share of system pairs people tell apart that the metric orders the same way (a pair the
    metric ties counts as wrong); NaN when people tie every pair: there is nothing to get right."""
    dx, dy = pairwise_differentials(x, y)
    judged = dy != 0
    if not judged.any():
        return float("nan")
    return float(np.mean(np.sign(dx[judged]) == np.sign(dy[judged])))


SYSTEM_STATISTICS = {
    "pearson": pearson,
    "spearman": spearman,
    "kendall": partial(kendall, variant="b"),
    "kendall_like": partial(kendall, variant="like"),
    "pairwise_accuracy": pairwise_accuracy,
    "differential_pearson": differential_correlation,
}
# Defined even when the metric ties every pair (each judged pair then counts as wrong).
_NEED_ONLY_HUMAN_VARIATION = {"kendall_like", "pairwise_accuracy"}


def why_undefined(statistic: str, metric: np.ndarray, human: np.ndarray) -> str | None:
    """Why ``statistic`` (a key of SYSTEM_STATISTICS) of ``metric`` against ``human`` has no
    value ("n < 3", "constant human scores", ...), or None when it has one."""
    metric, human = np.asarray(metric, float), np.asarray(human, float)
    if len(human) < MIN_SYSTEMS:
        return f"n < {MIN_SYSTEMS}"
    if not np.isfinite(human).all():
        return "missing human scores"
    if not np.isfinite(metric).all():
        return "missing metric scores"
    constant_human = human.min() == human.max()
    constant_metric = metric.min() == metric.max() and statistic not in _NEED_ONLY_HUMAN_VARIATION
    if constant_human and constant_metric:
        return "constant human and metric scores"
    if constant_human:
        return "constant human scores"
    if constant_metric:
        return "constant metric scores"
    return None


def williams_test(r12: float, r13: float, r23: float, n: int) -> float:
    """One-sided p-value that r12 > r13 when both share variable 1 (Williams 1959, in the form of
    Graham & Baldwin 2014 used by WMT): 1 = human, 2 = metric A, 3 = metric B, r23 = corr(A, B).
    NaN where ``why_williams_undefined`` gives a reason."""
    if why_williams_undefined(r12, r13, r23, n):
        return float("nan")
    # The determinant of the 3 x 3 correlation matrix: never negative, but rounding can push
    # it a hair below zero when two of the variables are (nearly) identical.
    k = max(1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23, 0.0)
    denominator = np.sqrt(2 * k * (n - 1) / (n - 3) + ((r12 + r13) ** 2 / 4) * (1 - r23) ** 3)
    with np.errstate(divide="ignore"):  # 0 when people are a combination of A and B: t = +-inf
        t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23)) / denominator
    # Student's t survival function, as scipy.stats.t.sf computes it (stdtr(df, -t)), without
    # importing scipy.stats (about 1 s, the first time a page shows a correlation)
    from scipy.special import stdtr

    return float(stdtr(n - 3, -t))


def why_williams_undefined(r12: float, r13: float, r23: float, n: int) -> str | None:
    """Why Williams' test has no p-value, or None. Two metrics that correlate perfectly (|r23| =
    1, e.g. BLEU and 100 x BLEU) have r12 = +-r13, and t is 0/0: rounding alone would decide it."""
    if n < WILLIAMS_MIN_SYSTEMS:
        return f"n < {WILLIAMS_MIN_SYSTEMS}"
    if abs(r23) > 1 - PERFECT_CORRELATION_TOLERANCE:
        return "the two metrics' scores correlate perfectly (|r| = 1)"
    return None


# ---------------------------------------------------------------------- row-wise (resamples)
def pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r of every row pair of two (rows, n) arrays; NaN where a row is constant.

    Constant rows are found by comparison, not by a zero variance: the mean of three 0.1s is not
    exactly 0.1, so the deviations of a constant row are tiny but not zero."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    dx = _unit_scale(x - x.mean(axis=-1, keepdims=True))
    dy = _unit_scale(y - y.mean(axis=-1, keepdims=True))
    denominator = np.sqrt((dx * dx).sum(axis=-1) * (dy * dy).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.clip((dx * dy).sum(axis=-1) / denominator, -1.0, 1.0)
    constant = (x.min(axis=-1) == x.max(axis=-1)) | (y.min(axis=-1) == y.max(axis=-1))
    return np.where(constant, np.nan, r)


def _unit_scale(deviations: np.ndarray) -> np.ndarray:
    """Divide each row by its largest |value| (r does not change) so squares cannot underflow."""
    largest = np.abs(deviations).max(axis=-1, keepdims=True)
    return deviations / np.where(largest > 0, largest, 1.0)


def spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's rho of every row pair: Pearson's r of their average ranks."""
    return pearson_rows(average_ranks(x), average_ranks(y))


def average_ranks(values: np.ndarray) -> np.ndarray:
    """The ranks (1 to n) of every row's values, tied values sharing their mean rank, and NaN
    for a row with a NaN: scipy.stats.rankdata(values, axis=-1), without importing scipy.stats.

    Each row is sorted; a run of equal values from sorted position a to b (0-based, b
    excluded) gets the mean of ranks a + 1 .. b, which is a + (b - a + 1) / 2."""
    values = np.atleast_2d(np.asarray(values, float))
    n_rows, n = values.shape
    order = np.argsort(values, axis=-1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=-1)
    starts_run = np.ones((n_rows, n), bool)
    starts_run[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    run_starts = np.flatnonzero(starts_run)  # positions in the flattened rows
    run_lengths = np.diff(np.append(run_starts, n_rows * n))
    mean_rank = run_starts % max(n, 1) + (run_lengths + 1) / 2
    ranks = np.empty((n_rows, n))
    run_of = np.cumsum(starts_run.ravel()) - 1
    np.put_along_axis(ranks, order, mean_rank[run_of].reshape(n_rows, n), axis=-1)
    return np.where(np.isnan(values).any(axis=-1, keepdims=True), np.nan, ranks)


def kendall_rows(x: np.ndarray, y: np.ndarray, variant: str = "b") -> np.ndarray:
    """Kendall's tau of every row pair, from the signs of all pairwise differences at once.

    With sx, sy the signs of x_i - x_j and y_i - y_j over the pairs i < j: tau-b is
    sum(sx sy) / sqrt(#(sx != 0) #(sy != 0)) (NaN when either side is constant), tau-c is
    2 sum(sx sy) / (n^2 (m - 1) / m) with m the smaller number of distinct values, and
    tau-like counts a pair the metric ties but people do not as discordant."""
    if variant not in KENDALL_VARIANTS:
        raise ValueError(f"Kendall variant must be one of {KENDALL_VARIANTS}, not {variant!r}")
    x, y = np.atleast_2d(np.asarray(x, float)), np.atleast_2d(np.asarray(y, float))
    first, second = np.triu_indices(x.shape[-1], k=1)
    sx = np.sign(x[:, first] - x[:, second])
    sy = np.sign(y[:, first] - y[:, second])
    agreement = (sx * sy).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            return agreement / np.sqrt((sx != 0).sum(axis=-1) * (sy != 0).sum(axis=-1))
        if variant == "c":
            n = x.shape[-1]
            classes = np.minimum(_distinct_per_row(x), _distinct_per_row(y))
            tau = 2 * agreement / (n**2 * (classes - 1) / classes)
            return np.where(classes > 1, tau, np.nan)
        judged = sy != 0
        concordant = (judged & (sx == sy)).sum(axis=-1)
        discordant = judged.sum(axis=-1) - concordant
        return (concordant - discordant) / (concordant + discordant)


def _distinct_per_row(values: np.ndarray) -> np.ndarray:
    ordered = np.sort(values, axis=-1)
    return 1 + (np.diff(ordered, axis=-1) != 0).sum(axis=-1)


# ------------------------------------------------------------------ every statistic of a metric
# The statistics that get bootstrap intervals, each by its row-wise version.
INTERVAL_STATISTICS = {"pearson": pearson_rows, "spearman": spearman_rows, "kendall": kendall_rows}


@dataclass(frozen=True)
class SystemCorrelations:
    """Every statistic of SYSTEM_STATISTICS of one metric against the human scores of ``n``
    systems: a number, or None with its reason in ``undefined``. When ``resampled``, also the
    intervals of INTERVAL_STATISTICS, each None (with its reason) where no resample defines it."""

    pearson: float | None
    spearman: float | None
    kendall: float | None
    kendall_like: float | None
    pairwise_accuracy: float | None
    differential_pearson: float | None
    n: int
    undefined: Mapping[str, str] = field(default_factory=dict)  # statistic -> why it is None
    resampled: bool = False  # whether the intervals below were computed
    pearson_ci: tuple[float, float] | None = None
    spearman_ci: tuple[float, float] | None = None
    kendall_ci: tuple[float, float] | None = None

    def reason(self, statistic: str) -> str | None:
        """Why ``statistic`` (e.g. 'pearson' or 'pearson_ci') has no value, or None."""
        return self.undefined.get(statistic)

    def to_dict(self) -> dict:
        """As the JSON reports have it: the statistics, n, the intervals when resampled (as
        lists), and last the reasons under "undefined"."""
        statistics = {name: getattr(self, name) for name in SYSTEM_STATISTICS}
        intervals = {}
        if self.resampled:
            for name in INTERVAL_STATISTICS:
                interval = getattr(self, f"{name}_ci")
                intervals[f"{name}_ci"] = None if interval is None else list(interval)
        return {**statistics, "n": self.n, **intervals, UNDEFINED: dict(self.undefined)}


def correlations(metric: np.ndarray, human: np.ndarray) -> SystemCorrelations:
    """Every system-level statistic of one metric against the human scores, one value per
    system in each array."""
    values: dict[str, float | None] = {}
    undefined: dict[str, str] = {}
    for name, statistic in SYSTEM_STATISTICS.items():
        reason = why_undefined(name, metric, human)
        values[name] = None if reason else statistic(metric, human)
        if reason:
            undefined[name] = reason
    return SystemCorrelations(**values, n=len(human), undefined=undefined)


def with_intervals(
    statistics: SystemCorrelations,
    metric_rows: np.ndarray,
    human_rows: np.ndarray,
    confidence: float,
) -> SystemCorrelations:
    """``statistics`` with the intervals of INTERVAL_STATISTICS from (resamples, systems) arrays.

    An interval is None where its statistic is undefined, or where it is undefined in every
    resample (resamples where it is undefined are left out of the others)."""
    intervals: dict[str, tuple[float, float] | None] = {}
    undefined = dict(statistics.undefined)
    for name, rows in INTERVAL_STATISTICS.items():
        reason = undefined.get(name)
        per_resample = None if reason else rows(metric_rows, human_rows)
        interval = None if per_resample is None else percentile_interval(per_resample, confidence)
        intervals[f"{name}_ci"] = interval
        if interval is None:
            undefined[f"{name}_ci"] = reason or NO_DEFINED_RESAMPLE
    return replace(statistics, **intervals, resampled=True, undefined=undefined)
