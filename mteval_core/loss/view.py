"""Everything the dashboard's loss view shows, split by what depends on the costs.

Whatever does not depend on the costs (the rates, the exact map of rankings, the bootstrap
resamples) is prepared once per data set by :func:`analyse_loss`; what does (losses, rankings,
intervals) is one matrix product per cost setting, so the view can follow a slider live.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from mteval_core.loss.average import (
    Costs,
    category_reversals,
    check_costs,
    loss_coefficients,
    losses,
    ranking,
)
from mteval_core.loss.inputs import (
    LossInput,
    Rates,
    Shape,
    case_matrix,
    grouped_counts,
    grouped_rates,
)
from mteval_core.loss.reversal import (
    AffineLosses,
    Boundary,
    RankingRegion,
    Reversal,
    boundaries,
    nearest_first_place_change,
    ranking_regions,
    simplex_losses,
    simplex_point,
)
from mteval_core.loss.uncertainty import (
    BootstrapLosses,
    Method,
    PairVerdict,
    bootstrap_cases,
    bootstrap_counts,
    pair_verdicts,
)

# The cost triples (c1, c2, c3) of the paper's tables.
PAPER_PRESETS: dict[str, Costs] = {
    "Tables 5 and 9: (5, 2, 1)": (5.0, 2.0, 1.0),
    "Table 6: (1, 2, 2)": (1.0, 2.0, 2.0),
    "Table 7: (1, 5, 2)": (1.0, 5.0, 2.0),
    "Table 10: (5, 5, 5.5)": (5.0, 5.0, 5.5),
}
PAPER_PRESET_POINTS: dict[str, np.ndarray] = {  # where they lie on the map, by a short name
    name.partition(":")[0]: simplex_point(costs) for name, costs in PAPER_PRESETS.items()
}
RESAMPLES = 2000  # enough for stable 95% percentile intervals, cheap for a few systems
SEED = 2006  # fixed, so that a shared link shows the same intervals to everybody
LEVEL = 0.95

POOLED = "pooled counts"
MEAN_OF_GROUPS = "mean over categories"


@dataclass(frozen=True)
class GroupMap:
    """One group's rates and its exact map of rankings over the cost shares: they depend on the
    data only, so they are computed once and reused at every cost setting."""

    rates: dict[str, Rates]
    plane: AffineLosses
    regions: list[RankingRegion]
    boundaries: list[Boundary]


def group_map(rates_by_system: Mapping[str, Rates]) -> GroupMap:
    plane = simplex_losses(rates_by_system)
    return GroupMap(dict(rates_by_system), plane, ranking_regions(plane), boundaries(plane))


@dataclass(frozen=True)
class LossView:
    loss: dict[str, float]
    ranking: list[str]
    point: np.ndarray  # the costs as (share of c2, share of c3)
    regions: list[RankingRegion]
    boundaries: list[Boundary]
    first_place_change: Reversal | None  # None: the best system stays best at every cost


def view_at(group: GroupMap, costs: Costs) -> LossView:
    """The group's losses and ranking at ``costs`` on its precomputed map."""
    costs = check_costs(costs)
    point = simplex_point(costs)
    loss = losses(group.rates, costs)
    return LossView(
        loss=loss,
        ranking=ranking(loss),
        point=point,
        regions=group.regions,
        boundaries=group.boundaries,
        first_place_change=nearest_first_place_change(group.plane, point),
    )


def loss_view(rates_by_system: Mapping[str, Rates], costs: Costs) -> LossView:
    """One-off view (map included); the dashboard keeps the map with :func:`group_map`."""
    return view_at(group_map(rates_by_system), costs)


@dataclass(frozen=True)
class LossAnalysis:
    """A loss table, grouped by one category column (or not), prepared for any costs."""

    origin: str
    shape: Shape
    by: str | None
    groups: dict[str, GroupMap]
    systems: tuple[str, ...]
    overall: np.ndarray  # (systems, 3) loss coefficients over all groups together
    overall_method: str  # POOLED, or MEAN_OF_GROUPS when only rates per category are known
    bootstraps: dict[str, BootstrapLosses] | None  # per group; None for rates (nothing to resample)


def breakdown_choices(data: LossInput) -> list[str | None]:
    """What a table can be broken down by: None (all rows together), then its category columns;
    nothing to choose without categories. Rates per category cannot be pooled without the counts
    behind them, so a table of rates offers no None."""
    if not data.category_columns:
        return []
    return [*([None] if data.shape != "rates" else []), *data.category_columns]


def analyse_loss(
    data: LossInput, by: str | None, *, resamples: int = RESAMPLES, seed: int = SEED
) -> LossAnalysis:
    """Group the table, map every group, and bootstrap it when counts or cases allow.

    The overall loss pools the counts. Rates per category cannot be pooled without the numbers
    of cases behind them, so there the overall loss is the plain mean of the category losses:
    the pooled loss when every category has as many cases (as in Tate & Voss's design, six
    documents per wh-type).
    """
    groups = {group: group_map(rates) for group, rates in grouped_rates(data, by).items()}
    systems = tuple(data.systems())
    if data.shape != "rates":
        pooled = grouped_rates(data, None)["all"]
        overall = np.array([loss_coefficients(pooled[system]) for system in systems])
        method = POOLED
    else:
        per_group = [
            [loss_coefficients(group.rates[system]) for system in systems]
            for group in groups.values()
        ]
        overall = np.mean(per_group, axis=0)
        method = POOLED if len(groups) == 1 else MEAN_OF_GROUPS
    return LossAnalysis(
        origin=data.origin,
        shape=data.shape,
        by=by,
        groups=groups,
        systems=systems,
        overall=overall,
        overall_method=method,
        bootstraps=_bootstraps(data, by, resamples, seed),
    )


def _bootstraps(
    data: LossInput, by: str | None, resamples: int, seed: int
) -> dict[str, BootstrapLosses] | None:
    """One seeded generator per group, so that a group's resamples do not depend on the others."""
    if data.shape == "rates":
        return None
    if data.shape == "cases":
        cases = case_matrix(data, by)
        return {
            group: bootstrap_cases(per_system, resamples, np.random.default_rng([seed, index]))
            for index, (group, per_system) in enumerate(cases.items())
        }
    counts = grouped_counts(data, by)
    return {
        group: bootstrap_counts(per_system, resamples, np.random.default_rng([seed, index]))
        for index, (group, per_system) in enumerate(counts.items())
    }


@dataclass(frozen=True)
class Uncertainty:
    """Every system's loss interval and every pair's verdict at one cost setting."""

    method: Method
    level: float
    intervals: dict[str, tuple[float, float]]
    verdicts: list[PairVerdict]


def uncertainty_at(
    boot: BootstrapLosses, loss: Mapping[str, float], costs: Costs, level: float = LEVEL
) -> Uncertainty:
    """``loss``: the point estimates at ``costs``, which decide who is called the better one."""
    return Uncertainty(
        method=boot.method,
        level=level,
        intervals=boot.intervals(costs, level),
        verdicts=pair_verdicts(boot, loss, costs, level),
    )


def uncertainty_of(
    analysis: LossAnalysis, group: str, loss: Mapping[str, float], costs: Costs
) -> Uncertainty | None:
    """The group's intervals and pair verdicts at ``costs``; None for rates, which carry no counts
    to resample."""
    if analysis.bootstraps is None:
        return None
    return uncertainty_at(analysis.bootstraps[group], loss, costs)


@dataclass(frozen=True)
class CategoryBreakdown:
    """Every system's loss per group and overall at one cost setting, and the groups that rank
    some pair opposite to the overall ranking (as Who does in the paper's Table 10)."""

    overall: dict[str, float]
    ranking: list[str]  # overall, best first
    by_group: dict[str, dict[str, float]]
    differing: dict[str, list[tuple[str, str]]]  # group -> (winner, loser) pairs; only reversals


def category_breakdown(analysis: LossAnalysis, costs: Costs) -> CategoryBreakdown:
    costs = check_costs(costs)
    values = analysis.overall @ np.asarray(costs, dtype=float)
    overall = {system: float(value) for system, value in zip(analysis.systems, values)}
    overall_ranking = ranking(overall)
    by_group = {group: losses(mapped.rates, costs) for group, mapped in analysis.groups.items()}
    reversals = category_reversals(
        {group: ranking(loss) for group, loss in by_group.items()}, overall_ranking
    )
    return CategoryBreakdown(
        overall=overall,
        ranking=overall_ranking,
        by_group=by_group,
        differing={group: pairs for group, pairs in reversals.items() if pairs},
    )


def setting_from_link(text: str | None, default: float, maximum: float) -> float:
    """A cost or weight from a shared link, within [0, maximum]; ``default`` where the link has
    none or no finite number (a link may carry anything: 'nan' would break a slider)."""
    try:
        value = float(text) if text is not None else default
    except ValueError:
        return default
    return min(max(value, 0.0), maximum) if math.isfinite(value) else default
