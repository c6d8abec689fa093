"""How sure are the losses and rankings? Bootstrap the loss coefficients, then ask at any costs.

The loss is linear in the costs, so a bootstrap resample only has to produce each system's loss
coefficients (a1, a2, a3); the loss at any costs is then one matrix product, and the same resamples
serve every point of the reversal map.

- With one row per case, resample cases with replacement, separately per system (each system was
  read in its own cases): a real bootstrap.
- With counts only, a *parametric* bootstrap: given the totals, (CR, NR, rest) ~ Multinomial(RTtot,
  (CRR, NRR, 1 - CRR - NRR)) and IR ~ Binomial(SubjMtot, IRR). The totals, and so E(RTtot) and
  E(SubjMtot), are held fixed: this is the sampling error of the rates only, and it is labelled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

import numpy as np

from mteval_core.loss.inputs import Counts

Method = Literal["bootstrap over cases", "parametric bootstrap of the counts"]
PICKS_PER_BLOCK = 1_000_000  # cases drawn at once by bootstrap_cases (each a row of 5 numbers)


@dataclass(frozen=True)
class BootstrapLosses:
    """Resampled loss coefficients: ``coefficients[r, s]`` is (a1, a2, a3) of system s in resample
    r, so that the loss at any costs is one matrix product."""

    systems: tuple[str, ...]
    coefficients: np.ndarray  # (resamples, systems, 3)
    method: Method

    def losses(self, costs: Sequence[float]) -> np.ndarray:
        """(resamples, systems) average losses at ``costs``."""
        return self.coefficients @ np.asarray(costs, dtype=float)

    def intervals(
        self, costs: Sequence[float], level: float = 0.95
    ) -> dict[str, tuple[float, float]]:
        """Percentile interval of every system's loss."""
        tail = 100 * (1 - level) / 2
        low, high = np.percentile(self.losses(costs), [tail, 100 - tail], axis=0)
        return {system: (float(low[s]), float(high[s])) for s, system in enumerate(self.systems)}

    def probability_better(self, costs: Sequence[float], first: str, second: str) -> float:
        """Share of resamples in which ``first`` has the lower loss (ties count half)."""
        values = self.losses(costs)
        a = values[:, self.systems.index(first)]
        b = values[:, self.systems.index(second)]
        return float(np.mean(a < b) + 0.5 * np.mean(a == b))


@dataclass(frozen=True)
class PairVerdict:
    """``better`` beats ``worse`` at the given costs with probability ``probability``."""

    better: str
    worse: str
    probability: float
    within_uncertainty: bool  # True: the resamples put them in either order often enough


def bootstrap_cases(
    cases_by_system: Mapping[str, np.ndarray], resamples: int, rng: np.random.Generator
) -> BootstrapLosses:
    """``cases_by_system[s]`` has one row per case: correct, non_response, incorrect, rt_total,
    marked_total (as mteval_core.loss.inputs.case_matrix gives them)."""
    per_system = []
    for cases in cases_by_system.values():
        # Resample in blocks, so that memory stays bounded however many cases there are.
        block = max(1, PICKS_PER_BLOCK // len(cases))
        totals = np.concatenate(
            [
                cases[
                    rng.integers(0, len(cases), size=(min(block, resamples - start), len(cases)))
                ].sum(axis=1)
                for start in range(0, resamples, block)
            ]
        )  # (resamples, 5)
        per_system.append(_coefficients(*totals.T[:3], cases=len(cases)))
    return BootstrapLosses(
        tuple(cases_by_system), np.stack(per_system, axis=1), "bootstrap over cases"
    )


def bootstrap_counts(
    counts_by_system: Mapping[str, Counts], resamples: int, rng: np.random.Generator
) -> BootstrapLosses:
    """Parametric bootstrap of the counts (see the module docstring for the model)."""
    per_system = []
    for counts in counts_by_system.values():
        rates = counts.rates()
        answered = rng.multinomial(
            counts.rt_total, [rates.crr, rates.nrr, 1.0 - rates.crr - rates.nrr], size=resamples
        )
        incorrect = rng.binomial(counts.marked_total, rates.irr, size=resamples)
        per_system.append(
            _coefficients(answered[:, 0], answered[:, 1], incorrect, cases=counts.cases)
        )
    return BootstrapLosses(
        tuple(counts_by_system), np.stack(per_system, axis=1), "parametric bootstrap of the counts"
    )


def pair_verdicts(
    boot: BootstrapLosses,
    point_losses: Mapping[str, float],
    costs: Sequence[float],
    level: float = 0.95,
) -> list[PairVerdict]:
    """Every pair, ordered as the point estimates order them, with the bootstrap's confidence.

    A pair is ``within_uncertainty`` when the resamples reverse it in more than (1 - level) / 2 of
    the cases, i.e. the percentile interval of the difference holds zero: a rank reversal between
    these two systems near ``costs`` may be noise.
    """
    verdicts = []
    for first, second in combinations(boot.systems, 2):
        better, worse = (
            (first, second) if point_losses[first] <= point_losses[second] else (second, first)
        )
        probability = boot.probability_better(costs, better, worse)
        verdicts.append(PairVerdict(better, worse, probability, 1 - probability > (1 - level) / 2))
    return verdicts


def _coefficients(
    correct: np.ndarray, non_response: np.ndarray, incorrect: np.ndarray, *, cases: int
) -> np.ndarray:
    """(resamples, 3) loss coefficients. The rates' denominators cancel against the expected
    totals (CRR * E(RTtot) = CR / N, IRR * E(SubjMtot) = IR / N), so only the counts matter."""
    return np.column_stack([-correct, non_response, incorrect]) / cases
