"""The rank-reversal map is exact: ties on the boundaries, a partition of the domain, and agreement
with rankings computed directly at random costs."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from mteval_core.io.loss_csv import read_loss_table
from mteval_core.loss.average import losses, ranking
from mteval_core.loss.inputs import Rates, grouped_rates
from mteval_core.loss.reversal import (
    SIMPLEX,
    AffineLosses,
    RankingRegion,
    boundaries,
    nearest_first_place_change,
    nearest_reversal,
    polygon_area,
    ranking_regions,
    simplex_costs,
    simplex_losses,
    simplex_point,
)

LOSS_DATA = Path(__file__).resolve().parents[2] / "sample_data" / "loss"


def paper_rates() -> dict[str, dict[str, Rates]]:
    groups = {}
    for name, by in (("table2-table4-rates", None), ("table3-table8-rates-by-wh", "wh")):
        path = LOSS_DATA / f"tate-voss-2006-{name}.csv"
        groups.update(grouped_rates(read_loss_table(path.read_bytes(), str(path)), by))
    return groups


def random_rates(seed: int, systems: int = 6) -> dict[str, Rates]:
    """Made-up systems whose rankings change a lot over the simplex."""
    rng = np.random.default_rng(seed)
    return {
        f"S{index}": Rates(*rng.uniform(0, 0.5, size=3), *rng.uniform(5, 10, size=2))
        for index in range(systems)
    }


CASES = {**paper_rates(), **{f"random{seed}": random_rates(seed) for seed in range(5)}}


def paper_groups() -> dict[str, AffineLosses]:
    return {group: simplex_losses(rates) for group, rates in paper_rates().items()}


def contains(region: RankingRegion, point: np.ndarray) -> bool:
    """Inside (or on) a counter-clockwise convex polygon."""
    vertices = region.vertices
    edges = np.roll(vertices, -1, axis=0) - vertices
    offsets = point - vertices
    return bool(np.all(edges[:, 0] * offsets[:, 1] - edges[:, 1] * offsets[:, 0] >= -1e-12))


def overlap_area(a: np.ndarray, b: np.ndarray) -> float:
    """Area of the intersection of two convex polygons (clip a by every edge of b)."""
    piece = a
    for start, end in zip(b, np.roll(b, -1, axis=0)):
        if len(piece) == 0:
            return 0.0
        normal = np.array([end[1] - start[1], start[0] - end[0]])  # outward for counter-clockwise
        values = (piece - start) @ normal
        kept = []
        for i in range(len(piece)):
            j = (i + 1) % len(piece)
            if values[i] <= 0:
                kept.append(piece[i])
            if values[i] * values[j] < 0:
                kept.append(piece[i] + values[i] / (values[i] - values[j]) * (piece[j] - piece[i]))
        piece = np.array(kept).reshape(-1, 2)
    return polygon_area(piece) if len(piece) >= 3 else 0.0


@pytest.mark.parametrize("name", CASES)
def test_regions_partition_the_simplex(name):
    regions = ranking_regions(simplex_losses(CASES[name]))
    assert sum(region.area for region in regions) == pytest.approx(0.5, abs=1e-12)
    assert all(region.area > 0 for region in regions)
    for a, b in combinations(regions, 2):
        assert overlap_area(a.vertices, b.vertices) == pytest.approx(0.0, abs=1e-12)
    assert len({region.ranking for region in regions}) == len(regions)


@pytest.mark.parametrize("name", CASES)
def test_random_costs_ranked_directly_agree_with_the_map(name):
    rng = np.random.default_rng(2006)
    regions = ranking_regions(simplex_losses(CASES[name]))
    for costs in rng.dirichlet([1.0, 1.0, 1.0], size=1000) * rng.uniform(0.1, 10):
        found = [region for region in regions if contains(region, simplex_point(tuple(costs)))]
        assert len(found) == 1
        assert list(found[0].ranking) == ranking(losses(CASES[name], costs))


@pytest.mark.parametrize("name", CASES)
def test_points_on_a_boundary_tie(name):
    losses_ = simplex_losses(CASES[name])
    for boundary in boundaries(losses_):
        if boundary.segment is None:
            continue
        i, j = losses_.systems.index(boundary.first), losses_.systems.index(boundary.second)
        for share in (0.0, 0.3, 1.0):
            point = boundary.segment[0] + share * (boundary.segment[1] - boundary.segment[0])
            values = losses_.at(point)
            assert values[i] == pytest.approx(values[j], abs=1e-12)


def test_simplex_matches_the_paper_formula():
    path = LOSS_DATA / "tate-voss-2006-table2-table4-rates.csv"
    rates = grouped_rates(read_loss_table(path.read_bytes(), str(path)))["all"]
    costs = (5.0, 2.0, 1.0)
    on_map = simplex_losses(rates).at(simplex_point(costs)) * sum(costs)
    assert on_map == pytest.approx(list(losses(rates, costs).values()), abs=1e-12)
    assert simplex_costs(simplex_point(costs)) == pytest.approx((5 / 8, 2 / 8, 1 / 8))


def test_nearest_changes_on_the_paper_data():
    groups = paper_groups()
    paper_point = simplex_point((5.0, 2.0, 1.0))
    # Overall, MT2 stays first until the cost share of c1 falls to almost nothing.
    change = nearest_first_place_change(groups["all"], paper_point)
    assert change is not None and (change.leader, change.challenger) == ("MT2", "MT1")
    assert simplex_costs(change.point)[0] < 0.01
    # Within Who, MT2's lead is the least safe: MT3 catches up at c2 / c1 ~ 0.4, c3 = 0.
    who = nearest_first_place_change(groups["Who"], paper_point)
    assert who is not None and (who.leader, who.challenger) == ("MT2", "MT3")
    assert who.distance < change.distance
    # Within When, MT2 is first at every cost.
    assert nearest_first_place_change(groups["When"], paper_point) is None
    # The Who reversal of Table 10: the MT1-MT3 tie point lies between the paper's two costs.
    reversal = nearest_reversal(groups["Who"], paper_point, "MT1", "MT3")
    assert reversal is not None and reversal.leader == "MT3"
    assert groups["Who"].ranking_at(simplex_point((5, 5, 5.5)))[1:] == ("MT1", "MT3")
    values = groups["Who"].at(reversal.point)
    assert values[0] == pytest.approx(values[2], abs=1e-12)


def test_a_system_best_everywhere_has_no_first_place_change():
    dominant = AffineLosses(("A", "B"), np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]))
    assert nearest_first_place_change(dominant, (0.2, 0.2)) is None
    assert ranking_regions(dominant)[0].ranking == ("A", "B")
    assert polygon_area(SIMPLEX) == 0.5
    assert ranking({"A": 1.0, "B": 0.0}) == ["B", "A"]


def test_loss_view_at_table_7_costs():
    from mteval_core.loss.view import loss_view

    path = Path(__file__).resolve().parents[2] / "sample_data" / "loss"
    path = path / "tate-voss-2006-table2-table4-rates.csv"
    rates = grouped_rates(read_loss_table(path.read_bytes(), path.name))["all"]
    view = loss_view(rates, (1.0, 5.0, 2.0))
    assert view.ranking == ["MT2", "MT1", "MT3"]
    assert view.first_place_change.leader == "MT2"
    assert sum(region.area for region in view.regions) == pytest.approx(0.5)
