"""Everything the dashboard's loss view shows for one group of systems at given costs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from mteval_core.loss.average import Costs, check_costs, losses, ranking
from mteval_core.loss.inputs import Rates
from mteval_core.loss.reversal import (
    Boundary,
    RankingRegion,
    Reversal,
    boundaries,
    nearest_first_place_change,
    ranking_regions,
    simplex_losses,
    simplex_point,
)

# The cost triples (c1, c2, c3) of the paper's tables.
PAPER_PRESETS: dict[str, Costs] = {
    "Tables 5 and 9: (5, 2, 1)": (5.0, 2.0, 1.0),
    "Table 6: (1, 2, 2)": (1.0, 2.0, 2.0),
    "Table 7: (1, 5, 2)": (1.0, 5.0, 2.0),
    "Table 10: (5, 5, 5.5)": (5.0, 5.0, 5.5),
}


@dataclass(frozen=True)
class LossView:
    loss: dict[str, float]
    ranking: list[str]
    point: np.ndarray  # the costs as (share of c2, share of c3)
    regions: list[RankingRegion]
    boundaries: list[Boundary]
    first_place_change: Reversal | None  # None: the best system stays best at every cost


def loss_view(rates_by_system: Mapping[str, Rates], costs: Costs) -> LossView:
    costs = check_costs(costs)
    plane = simplex_losses(rates_by_system)
    point = simplex_point(costs)
    loss = losses(rates_by_system, costs)
    return LossView(
        loss=loss,
        ranking=ranking(loss),
        point=point,
        regions=ranking_regions(plane),
        boundaries=boundaries(plane),
        first_place_change=nearest_first_place_change(plane, point),
    )
