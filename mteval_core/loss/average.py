"""Tate & Voss's average loss, rankings, and category rankings that disagree with the overall one.

AverageLoss = (-c1 * r1 + c2 * r2) * E(RTtot) + c3 * r3 * E(SubjMtot); lower is better. The loss is
linear in the costs (c1, c2, c3): it is the dot product of the costs with a system's *loss
coefficients* (-r1 E(RTtot), r2 E(RTtot), r3 E(SubjMtot)). Everything else (the reversal map, the
bootstrap) works on those coefficients.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

import numpy as np

from mteval_core.errors import InputError
from mteval_core.loss.inputs import Rates

Costs = tuple[float, float, float]  # (c1, c2, c3): value of a correct response, cost of the errors
PAPER_COSTS: Costs = (5.0, 2.0, 1.0)  # the costs of the paper's Tables 5 and 9


def check_costs(costs: Sequence[float]) -> Costs:
    """Three finite costs >= 0, not all zero (an all-zero cost ranks nothing)."""
    values = tuple(float(value) for value in costs)
    if len(values) != 3:
        raise InputError(
            f"costs need three numbers (c1, c2, c3), got {len(values)}",
            hint="Write them as C1,C2,C3, e.g. 5,2,1.",
        )
    if not all(np.isfinite(values)) or min(values) < 0 or max(values) == 0:
        raise InputError(
            f"costs must be numbers >= 0, not all zero; got {', '.join(map(str, values))}",
            hint="c1 is the value of a correct response, c2 and c3 the costs of a non-response "
            "and of an incorrect response, e.g. 5,2,1.",
        )
    return values  # type: ignore[return-value]


def loss_coefficients(rates: Rates) -> np.ndarray:
    """(a1, a2, a3) with AverageLoss = a1 c1 + a2 c2 + a3 c3."""
    return np.array(
        [
            -rates.crr * rates.e_rt_total,
            rates.nrr * rates.e_rt_total,
            rates.irr * rates.e_marked_total,
        ]
    )


def average_loss(rates: Rates, costs: Sequence[float]) -> float:
    """The paper's formula, written as it is printed so that a reader can check it."""
    c1, c2, c3 = costs
    return (
        -c1 * rates.crr + c2 * rates.nrr
    ) * rates.e_rt_total + c3 * rates.irr * rates.e_marked_total


def losses(rates_by_system: Mapping[str, Rates], costs: Sequence[float]) -> dict[str, float]:
    return {system: average_loss(rates, costs) for system, rates in rates_by_system.items()}


def ranking(loss_by_system: Mapping[str, float]) -> list[str]:
    """Systems best (lowest loss) first; equal losses keep their input order."""
    return sorted(loss_by_system, key=loss_by_system.__getitem__)


def category_reversals(
    rankings_by_group: Mapping[str, Sequence[str]], reference: Sequence[str]
) -> dict[str, list[tuple[str, str]]]:
    """Per group, the pairs (winner, loser) ordered opposite to ``reference`` (e.g. the overall
    ranking), such as the paper's Table 10, where MT1 beats MT3 within Who only."""
    position = {system: index for index, system in enumerate(reference)}
    reversals: dict[str, list[tuple[str, str]]] = {}
    for group, ranked in rankings_by_group.items():
        reversals[group] = [
            (winner, loser)
            for winner, loser in combinations(ranked, 2)
            if winner in position and loser in position and position[winner] > position[loser]
        ]
    return reversals
