"""Every statistic of the system and none groupings, per resample, from the shared sums.

``grouped_values`` is what ``segment_level`` calls. For the scored cells it takes their human
side (once per set of weights), the metric's tie runs and its pair forms (``system_forms`` or
``none_forms``; a closed form for a metric with one score in each group), and combines them
into Pearson, Spearman, Kendall's b and c, acc23, acc_eq and Kendall-like.
"""

from __future__ import annotations

import numpy as np

from mteval_core.stats.pairs.cells import (
    CellGroups,
    HumanSums,
    PairForms,
    RunSums,
    cell_groups,
    human_sums,
    level_cuts,
    run_sums,
    separated_pairs,
)
from mteval_core.stats.pairs.none_forms import none_forms
from mteval_core.stats.pairs.system_forms import system_forms
from mteval_core.stats.pairs.weights import Weights, group_sums


def grouped_values(  # long: every statistic of one grouping from shared sums, in order
    metric: np.ndarray,
    human: np.ndarray,
    grouping: str,
    weights: Weights,
    epsilons: tuple[float, float],
    threshold: float,
) -> dict[str, np.ndarray]:
    """Every statistic of every group of the system or none grouping, per row of ``weights``
    ((rows, groups) arrays, NaN where undefined), as ``segment_level`` averages them: Pearson,
    Spearman, Kendall b and c, acc23 at ``epsilons[0]``, acc_eq (acc23 at ``epsilons[1]``), and
    Kendall-like's concordant-minus-discordant and pairs, with the flags the reasons need."""
    cells = np.isfinite(metric) & np.isfinite(human)
    groups, human_side = _human_side(cells, human, grouping, weights)
    x = metric[groups.row, groups.segment]
    separated = separated_pairs(groups, human_side, threshold)
    wanted = tuple(sorted({e for e in epsilons if e > 0}))
    if _constant_in_groups(groups, x):  # e.g. the baseline: every pair a metric tie
        runs, forms = _constant_sums(groups, weights, human_side, wanted)
    else:
        runs = run_sums(groups, x, weights)
        concordant_threshold = threshold if _separates(groups, threshold) else None
        forms_of = system_forms if grouping == "system" else none_forms
        forms = forms_of(groups, x, weights, human_side, wanted, concordant_threshold)
    n = human_side.n
    pairs = n * (n - 1) / 2
    x_distinct, y_distinct = runs.distinct, human_side.distinct
    constant = (x_distinct < 2) | (y_distinct < 2)
    classes = np.minimum(x_distinct, y_distinct)
    agree = forms.agree
    concordant = (agree + pairs - runs.ties - human_side.tied_pairs + runs.joint_ties) / 2
    if threshold <= 0:
        separated_concordant = concordant
    elif forms.separated_concordant is None:
        separated_concordant = np.zeros_like(n)
    else:
        separated_concordant = forms.separated_concordant

    def correct(epsilon: float) -> np.ndarray:
        if epsilon > 0:
            return human_side.tied_pairs + forms.far[epsilon]
        return runs.joint_ties + concordant

    with np.errstate(invalid="ignore", divide="ignore"):
        tau_b = agree / np.sqrt(pairs - runs.ties) / np.sqrt(pairs - human_side.tied_pairs)
        tau_c = 2 * agree / (n**2 * (classes - 1) / classes)
        acc23 = correct(epsilons[0]) / pairs
        acc_eq = correct(epsilons[1]) / pairs
        mean_rank = (n + 1) / 2
        rank_covariance = forms.rank_products - n * mean_rank**2
        x_variance = (n**3 - runs.cubes) / 12
        y_variance = (n**3 - human_side.cubes) / 12
        spearman = rank_covariance / np.sqrt(x_variance * y_variance)
    return {
        "pearson": _pearson(groups, x, weights, n, constant),
        "spearman": np.where(constant, np.nan, np.clip(spearman, -1.0, 1.0)),
        "kendall_b": np.where(constant, np.nan, tau_b),
        "kendall_c": np.where(constant, np.nan, tau_c),
        "acc23": np.where(n >= 2, acc23, np.nan),
        "acc_eq": np.where(n >= 2, acc_eq, np.nan),
        "like": 2 * separated_concordant - separated,
        "like_pairs": separated,
        "sized": n >= 2,
        "constant_metric": x_distinct < 2,
        "constant_human": y_distinct < 2,
    }


def _constant_in_groups(groups: CellGroups, x: np.ndarray) -> bool:
    """Whether the metric has one score in each group."""
    sizes = np.diff(groups.starts)
    first = x[groups.starts[:-1][sizes > 0]]
    return bool(np.all(x == np.repeat(first, sizes[sizes > 0])))


def _constant_sums(
    groups: CellGroups, weights: Weights, human_side: HumanSums, epsilons: tuple[float, ...]
) -> tuple[RunSums, PairForms]:
    """The run and pair sums of a metric with one score per group, in closed form: one run of
    all cells, every pair a metric tie (never concordant, never far), every mid-rank (n+1)/2."""
    n = human_side.n
    zero = np.zeros_like(n)
    runs = RunSums(
        ties=n * (n - 1) / 2,
        distinct=(n > 0) * 1.0,
        cubes=n * n * n,
        joint_ties=human_side.tied_pairs,
    )
    rank_sums = human_side.level_weight * human_side.level_rank
    ranks = group_sums(rank_sums.T, groups.level_starts).T * (n + 1) / 2
    forms = PairForms(zero, ranks, {e: zero for e in epsilons}, zero)
    return runs, forms


def _human_side(
    cells: np.ndarray, human: np.ndarray, grouping: str, weights: Weights
) -> tuple[CellGroups, HumanSums]:
    """The groups and human sums of these scored cells, computed once per set of weights."""
    key = (grouping, cells.tobytes())
    if key not in weights.human:
        groups = cell_groups(cells, human, grouping)
        weights.human[key] = (groups, human_sums(groups, weights))
    return weights.human[key]


def _separates(groups: CellGroups, threshold: float) -> bool:
    """Whether some group has two levels at least ``threshold`` apart (threshold > 0)."""
    if threshold <= 0 or groups.n_levels == 0:
        return False
    return bool(np.any(level_cuts(groups, threshold) > groups.level_first))


def _pearson(
    groups: CellGroups, x: np.ndarray, weights: Weights, n: np.ndarray, undefined: np.ndarray
) -> np.ndarray:
    """Pearson's r of each group, each cell counted as often as its segment: the scores are
    centred on the group's mean (r does not change; the sums stay small), then the weighted sums
    of x, y, x^2, y^2 and xy are one product of the weights with per-segment sums. The first row
    (the data) is summed cell by cell in the cells' original order, the floats segment_level
    has always produced for it (rank ties between metrics depend on them)."""
    order = np.lexsort((groups.row * groups.n_segments + groups.segment, groups.cell_group))
    x, y = x[order], groups.human[order]
    group, segment = groups.cell_group[order], groups.segment[order]
    n_groups = groups.n_groups
    columns = np.empty((len(x), 5))
    for g in range(n_groups):
        cells = slice(groups.starts[g], groups.starts[g + 1])
        if cells.stop > cells.start:
            xc, yc = x[cells] - x[cells].mean(), y[cells] - y[cells].mean()
            columns[cells] = np.column_stack([xc, yc, xc * xc, yc * yc, xc * yc])
    by_segment = np.zeros((weights.matrix.shape[1] * n_groups, 5))
    np.add.at(by_segment, segment * n_groups + group, columns)
    by_segment = by_segment.reshape(-1, 5 * n_groups)
    sums = (weights.matrix @ by_segment).reshape(-1, n_groups, 5)
    for g in range(n_groups):
        cells = slice(groups.starts[g], groups.starts[g + 1])
        sums[0, g] = weights.matrix[:1, segment[cells]] @ columns[cells]
    sx, sy, sxx, syy, sxy = sums.transpose(2, 0, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        covariance, x_variance, y_variance = sxy - sx * sy / n, sxx - sx**2 / n, syy - sy**2 / n
        r = covariance / np.sqrt(x_variance * y_variance)
    return np.where(undefined, np.nan, np.clip(r, -1.0, 1.0))
