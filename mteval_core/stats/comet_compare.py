"""comet-compare's win and tie shares and paired t-tests (Unbabel/COMET ``comet/cli/compare.py``)
from segment scores computed anywhere, so that they equal the command's on the same seed.

comet-compare scores every system, casts the segment scores to float32, seeds NumPy's global
generator with 1 (``seed_everything(1)``), draws ``int(segments * sample_ratio)`` segment ids
with replacement for each of ``num_splits`` splits in one (sample size x splits) call of
``np.random.choice``, and takes each system's mean per split. For each pair of systems in their
order, a split is a tie where the two means differ by less than 0.001, a win for x where x's
mean exceeds y's by at least 0.001, and for y the other way; the shares are counts over the
splits. Its t-test is scipy's ``ttest_rel`` of the two systems' segment scores. NumPy's legacy
``RandomState(1)`` is the generator ``np.random.seed(1)`` seeds, so the draws are the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from itertools import combinations

import numpy as np
from scipy import stats

from mteval_core.errors import InputError
from mteval_core.settings.limits import COMET_COMPARE_MAX_CELLS

NUM_SPLITS = 300  # comet-compare's --num_splits default
SAMPLE_RATIO = 0.4  # its --sample_ratio default
SEED = 1  # its seed_everything(1)
EPS = 0.001  # its EPS: closer means are a tie


@dataclass(frozen=True)
class CometComparePair:
    """One pair as comet-compare prints it: bootstrap means, shares of splits, paired t-test."""

    x: str
    y: str
    x_mean: float
    y_mean: float
    ties: float
    x_wins: float
    y_wins: float
    t_statistic: float
    p_value: float

    def to_dict(self) -> dict:
        return asdict(self)


def comet_compare(
    segment_scores: Mapping[str, np.ndarray],
    num_splits: int = NUM_SPLITS,
    sample_ratio: float = SAMPLE_RATIO,
    seed: int = SEED,
) -> list[CometComparePair]:
    """Every pair of the systems (in their order) of ``segment_scores`` (system -> one score per
    segment, every segment scored)."""
    names = list(segment_scores)
    if len(names) < 2:
        raise InputError("comparing systems needs at least two systems")
    matrix = np.array([segment_scores[name] for name in names], dtype="float32")
    if not np.isfinite(matrix).all():
        raise InputError(
            "comet-compare's shares need a score for every segment of every system",
            hint="Give scores of every segment, or leave out the metric.",
        )
    population = matrix.shape[1]
    sample_size = max(int(population * sample_ratio), 1)
    cells = len(names) * sample_size * num_splits
    if cells > COMET_COMPARE_MAX_CELLS:
        raise InputError(
            f"comet-compare's bootstrap would hold {cells:,} scores at once, more than "
            f"COMET_COMPARE_MAX_CELLS ({COMET_COMPARE_MAX_CELLS:,})",
            hint="Compare fewer systems at once, or draw fewer splits.",
        )
    draws = np.random.RandomState(seed).choice(
        population, size=(sample_size, num_splits), replace=True
    )
    split_means = np.mean(np.take(matrix, draws, axis=1), axis=1)  # systems x splits
    pairs = []
    for i, j in combinations(range(len(names)), 2):
        delta = split_means[i] - split_means[j]
        test = stats.ttest_rel(matrix[i], matrix[j], alternative="two-sided")
        pairs.append(
            CometComparePair(
                x=names[i],
                y=names[j],
                x_mean=float(np.mean(split_means[i])),
                y_mean=float(np.mean(split_means[j])),
                ties=float(len(delta[np.absolute(delta) < EPS])) / num_splits,
                x_wins=float(len(delta[delta >= EPS])) / num_splits,
                y_wins=float(len(delta[delta <= -EPS])) / num_splits,
                t_statistic=float(test.statistic),
                p_value=float(test.pvalue),
            )
        )
    return pairs
