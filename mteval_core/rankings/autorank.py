"""AutoRank: WMT's official ranking from automatic metrics, for every system not ranked by
people, as WMT24 and WMT25 compute it; and what the organisers do not publish: its bootstrap
intervals, rank ranges, and how it moves when one metric is left out.

Both recipes map system-level metric scores (systems x metrics, every metric higher-is-better)
to one number per system, 1 for the best and N (the number of systems) for the worst:

- **WMT24** (wmt-conference/wmt24-news-systems, ``humeval/AutoRank.xlsx`` and the findings
  paper): each metric scaled linearly to [1, N] (best 1, worst N), the mean of the scaled
  metrics. The organisers used MetricX-23-XL and CometKiwi-DA-XL. The mean is not rescaled, so
  the best system reads 1 only when it is best on every metric. (The organisers' sheets reach
  N + 1 for the N systems they list, in all 11 pairs: one system more entered their scaling;
  on the [0, 1] scale every value agrees, ``tests/rankings/test_autorank_published.py``.)
- **WMT25** (wmt-conference/wmt25-general-mt @ ebae873, ``preliminary_ranking/latex_source/
  main.tex`` "From system-level scores to AutoRank", reproduced on all 1,066 published values):
  each metric made a robust z-score, ``(x - median) / (P100 - P25)`` over the pair's systems
  (numpy's linear percentiles; a scale of 0 counts as 1), the unweighted mean of the z over the
  pair's metrics, then the linear map of that mean to [1, N]: ``1 + (N - 1) (max - z) / (max -
  min)`` (all 1 when the means are all equal).

The WMT25 protocol also fixes which metrics count for a pair (``wmt25_metrics``) and which
systems (``wmt25_systems``); a system-level score is the flat mean over the pair's segments,
pooled across documents and domains, skipping missing scores.

The bootstrap resamples the pair's segments (the same draw for every system and metric, seeded
generator passed in), recomputes each system's means and AutoRank, and reports each system's
AutoRank interval and its rank range: the 2.5th and 97.5th percentiles (95%) of its rank over
the resamples, rounded outward to whole ranks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.model.metric_segments import MetricSegments
from mteval_core.rankings.table import LanguagePairRanking, RankedSystem
from mteval_core.settings.limits import MAX_RANKED_SYSTEMS, MAX_RESAMPLED_CELLS

# The WMT25 protocol's metrics, by kind of pair (PROVENANCE of wmt-rankings: each choice below
# was checked by changing it and counting the published values that then differ).
WMT25_REFERENCE_METRICS = (
    "CometKiwi-XL",
    "GEMBA-ESA-CMDA",
    "GEMBA-ESA-GPT4.1",
    "MetricX-24-Hybrid-XL",
    "XCOMET-XL",
)
# Pairs without a human reference drop CometKiwi-XL (MetricX and XCOMET run as QE there).
WMT25_NO_REFERENCE_METRICS = tuple(m for m in WMT25_REFERENCE_METRICS if m != "CometKiwi-XL")
WMT25_CHRF_ONLY_PAIRS = ("en-bho_IN", "en-mas_KE")  # ranked by chrF++ alone
WMT25_REFERENCE_PAIRS = (
    "cs-de_DE",
    "cs-uk_UA",
    "en-ar_EG",
    "en-cs_CZ",
    "en-et_EE",
    "en-is_IS",
    "en-ja_JP",
    "en-ko_KR",
    "en-ru_RU",
    "en-sr_Cyrl_RS",
    "en-uk_UA",
    "en-zh_CN",
    "ja-zh_CN",
)
RANK_RANGE_LEVEL = 0.95


def wmt25_metrics(language_pair: str) -> tuple[str, ...]:
    """The metrics WMT25's AutoRank averages for ``language_pair``."""
    if language_pair in WMT25_CHRF_ONLY_PAIRS:
        return ("chrF++",)
    if language_pair in WMT25_REFERENCE_PAIRS:
        return WMT25_REFERENCE_METRICS
    return WMT25_NO_REFERENCE_METRICS


def wmt25_systems(
    scores: MetricSegments, supported: Mapping[str, frozenset[str]]
) -> tuple[str, ...]:
    """The systems WMT25 ranks for the pair: scored, and listed for the pair by the metadata."""
    return tuple(s for s in scores.systems if scores.language_pair in supported.get(s, ()))


# ------------------------------------------------------------------------------ the two recipes
def linear_ranks(values: np.ndarray) -> np.ndarray:
    """``values`` (higher is better) mapped linearly to [1, N]: the best 1, the worst N; all 1
    when they are all equal. Works along the last axis."""
    values = np.asarray(values, dtype=float)
    n = values.shape[-1]
    best = values.max(axis=-1, keepdims=True)
    spread = best - values.min(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        scaled = np.where(spread > 0, (best - values) / np.where(spread > 0, spread, 1), 0.0)
    return 1 + (n - 1) * scaled


def robust_z(values: np.ndarray) -> np.ndarray:
    """``(x - median) / (P100 - P25)`` along the last axis (a scale of 0 counts as 1)."""
    values = np.asarray(values, dtype=float)
    median = np.median(values, axis=-1, keepdims=True)
    scale = np.max(values, axis=-1, keepdims=True) - np.percentile(
        values, 25, axis=-1, keepdims=True
    )
    return (values - median) / np.where(scale == 0, 1.0, scale)


def autorank_wmt25(means: np.ndarray) -> np.ndarray:
    """WMT25's AutoRank of systems x metrics means (or resamples x systems x metrics)."""
    means = np.asarray(means, dtype=float)
    z = robust_z(np.moveaxis(means, -1, -2))  # per metric, over the systems
    average = z.mean(axis=-2)
    return _linear_map(average)


def autorank_wmt24(means: np.ndarray) -> np.ndarray:
    """WMT24's AutoRank: each metric scaled to [1, N] over the systems, then their mean."""
    means = np.asarray(means, dtype=float)
    return linear_ranks(np.moveaxis(means, -1, -2)).mean(axis=-2)


def _linear_map(average: np.ndarray) -> np.ndarray:
    n = average.shape[-1]
    best = average.max(axis=-1, keepdims=True)
    spread = best - average.min(axis=-1, keepdims=True)
    close = np.isclose(spread, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mapped = 1 + (n - 1) * (best - average) / np.where(close, 1, spread)
    return np.where(close, 1.0, mapped)


RECIPES = {"wmt24": autorank_wmt24, "wmt25": autorank_wmt25}


# ------------------------------------------------------------------------------ one pair ranked
@dataclass(frozen=True)
class AutoRank:
    """One language pair's AutoRank: the systems in the given order, their metric means and
    AutoRank, and (with resamples) each one's interval and rank range."""

    language_pair: str
    recipe: str
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    means: np.ndarray  # systems x metrics
    autorank: np.ndarray  # systems
    interval: np.ndarray | None = None  # systems x 2 (low, high) AutoRank
    rank_range: np.ndarray | None = None  # systems x 2 (first, last), whole ranks
    resamples: int = 0
    leave_one_out: Mapping[str, np.ndarray] | None = None  # metric left out -> AutoRank

    def order(self) -> np.ndarray:
        """Best first: by AutoRank, ties in the given order."""
        return np.argsort(self.autorank, kind="stable")


def autorank(
    scores: MetricSegments,
    recipe: str,
    resamples: int = 0,
    rng: np.random.Generator | None = None,
    leave_one_out: bool = False,
) -> AutoRank:
    """AutoRank of every system and metric of ``scores`` (select them first with
    ``MetricSegments.only``); with ``resamples``, the bootstrap over segments drawn by ``rng``."""
    draws = None
    if resamples:
        if rng is None:
            raise ValueError("resamples need a seeded generator")
        draws = bootstrap_means(scores, resamples, rng)
    return autorank_of_means(
        (scores.language_pair, recipe, scores.systems, scores.metrics),
        scores.system_means(),
        draws,
        leave_one_out,
    )


def autorank_of_means(
    about: tuple[str, str, tuple[str, ...], tuple[str, ...]],
    means: np.ndarray,
    draws: np.ndarray | None = None,
    leave_one_out: bool = False,
) -> AutoRank:
    """AutoRank of systems x metrics ``means`` (every metric higher-is-better), ``about`` naming
    them: (language pair, recipe, systems, metrics); with ``draws`` (resamples x systems x
    metrics, every system and metric on the same resample), its intervals and rank ranges.
    Whoever computes the system-level scores otherwise (corpus scores from statistics) ranks
    through here."""
    language_pair, recipe, systems, metrics = about
    compute = RECIPES[recipe]
    interval = rank_range = None
    if draws is not None:
        ranked = compute(draws)
        tail = 100 * (1 - RANK_RANGE_LEVEL) / 2
        interval = np.percentile(ranked, [tail, 100 - tail], axis=0).T
        low, high = np.percentile(_ranks_of(ranked), [tail, 100 - tail], axis=0)
        rank_range = np.column_stack([np.floor(low), np.ceil(high)]).astype(int)
    dropped = None
    if leave_one_out and len(metrics) > 1:
        dropped = {metric: compute(np.delete(means, i, axis=1)) for i, metric in enumerate(metrics)}
    resamples = 0 if draws is None else len(draws)
    return AutoRank(
        language_pair,
        recipe,
        systems,
        metrics,
        means,
        compute(means),
        interval,
        rank_range,
        resamples,
        dropped,
    )


def bootstrap_means(scores: MetricSegments, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Resamples x systems x metrics means, each resample the same draw of segments for every
    system and metric (so that the systems stay paired)."""
    n_segments = len(scores.segments)
    draws = rng.integers(0, n_segments, size=(resamples, n_segments))
    counts = np.stack([np.bincount(row, minlength=n_segments) for row in draws])  # R x S
    means = np.empty((resamples, len(scores.systems), len(scores.metrics)))
    for j, metric in enumerate(scores.metrics):
        matrix = scores.scores[metric]
        present = ~np.isnan(matrix)
        sums = counts @ np.where(present, matrix, 0.0).T  # R x systems
        weights = counts @ present.T.astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            means[:, :, j] = sums / weights
    return means


def _ranks_of(draws: np.ndarray) -> np.ndarray:
    """Each system's rank (1 = best) in each resample; equal AutoRanks share the better rank."""
    return 1 + np.sum(draws[:, None, :] < draws[:, :, None], axis=2)


def moved(result: AutoRank) -> dict[str, list[tuple[str, int, int]]]:
    """For each metric left out, the systems whose place changes: (system, place with every
    metric, place without this one), 1-based, the largest move first."""
    if not result.leave_one_out:
        return {}
    places = _places(result.autorank)
    changes = {}
    for metric, values in result.leave_one_out.items():
        other = _places(values)
        changed = [
            (system, int(a), int(b))
            for system, a, b in zip(result.systems, places, other)
            if a != b
        ]
        changes[metric] = sorted(changed, key=lambda c: -abs(c[1] - c[2]))
    return changes


def _places(values: np.ndarray) -> np.ndarray:
    places = np.empty(len(values), dtype=int)
    places[np.argsort(values, kind="stable")] = np.arange(1, len(values) + 1)
    return places


# ------------------------------------------------------------------------------ as a table
def autorank_table(result: AutoRank, notes: tuple[str, ...] = ()) -> LanguagePairRanking:
    """The AutoRank in the shape every ranking takes (``rankings.table``): ``score`` and
    ``autorank`` both the AutoRank; ``extra`` each metric's mean, the interval and, left out,
    each metric's AutoRank without it; the moves and the resamples in the notes."""
    order = result.order()
    moves = moved(result)
    systems = []
    for place, i in enumerate(order, start=1):
        extra: dict[str, object] = {
            "metrics": {m: float(result.means[i, j]) for j, m in enumerate(result.metrics)}
        }
        rank = (place, place)
        if result.interval is not None and result.rank_range is not None:
            extra["autorank_interval"] = [float(v) for v in result.interval[i]]
            rank = (int(result.rank_range[i, 0]), int(result.rank_range[i, 1]))
        if result.leave_one_out is not None:
            extra["left_out"] = {m: float(v[i]) for m, v in result.leave_one_out.items()}
        value = float(result.autorank[i])
        systems.append(RankedSystem(result.systems[i], value, rank, None, value, extra))
    notes = (*notes, *(_move_note(metric, changes) for metric, changes in moves.items()))
    if result.resamples:
        notes = (*notes, f"rank ranges: 95% of {result.resamples:,} resamples of the segments")
    return LanguagePairRanking(
        result.language_pair, f"autorank-{result.recipe}", tuple(systems), notes
    )


def _move_note(metric: str, changes: list[tuple[str, int, int]]) -> str:
    if not changes:
        return f"without {metric}: no system changes place"
    system, before, after = changes[0]
    return (
        f"without {metric}: {len(changes)} system(s) change place; the most, {system}, "
        f"from {before} to {after}"
    )


# ------------------------------------------------------------------------------ WMT25's protocol
def wmt25_ranking(
    scores: MetricSegments,
    supported: Mapping[str, frozenset[str]] | None,
    resamples: int,
    seed: int,
) -> LanguagePairRanking:
    """One pair's AutoRank by WMT25's protocol (its systems and metrics), with intervals from
    ``resamples`` seeded by ``seed`` and the ranking without each metric: what ``mteval rank
    --autorank wmt25 --bootstrap N --seed S --leave-one-out`` gives for the pair."""
    pair = scores.language_pair
    systems = wmt25_systems(scores, supported) if supported is not None else scores.systems
    metrics = wmt25_metrics(pair)
    missing = [m for m in metrics if m not in scores.metrics]
    if missing:
        raise InputError(
            f"{pair}: no scores of {', '.join(missing)}",
            hint=f"WMT25's protocol averages {', '.join(metrics)} for this pair; its scores "
            f"have {', '.join(scores.metrics)}.",
        )
    if len(systems) < 2:
        raise InputError(
            f"{pair}: {len(systems)} system(s) to rank",
            hint="AutoRank ranks two or more: check that the systems metadata lists the pair.",
        )
    if len(systems) > MAX_RANKED_SYSTEMS:
        raise InputError(
            f"{pair}: {len(systems):,} systems; a ranking here takes up to {MAX_RANKED_SYSTEMS}",
            hint="Rank the pair with the command line, which has no such limit.",
        )
    cells = resamples * len(scores.segments)
    if cells > MAX_RESAMPLED_CELLS:
        raise InputError(
            f"{pair}: {resamples:,} resamples x {len(scores.segments):,} segments are {cells:,} "
            f"cells, over the limit of {MAX_RESAMPLED_CELLS:,}",
            hint="Choose fewer resamples.",
        )
    chosen = scores.only(tuple(systems), metrics)
    result = autorank(chosen, "wmt25", resamples, np.random.default_rng(seed), leave_one_out=True)
    notes = () if supported is not None else (NO_METADATA,)
    return autorank_table(result, notes)


NO_METADATA = "no systems metadata given: every system with scores for the pair is ranked"
