"""The exact rank-reversal map: where in the plane of costs each full ranking holds.

Over any plane of two cost coordinates (x, y) every system's loss is affine,
L_s(x, y) = offset_s + slope_x_s x + slope_y_s y, so two systems tie on a straight line and the
plane splits into convex polygons of constant full ranking. We compute them by clipping the domain
(a convex polygon) with the line of every pair of systems: each polygon is an intersection of
half-planes, found with ordinary floating-point geometry, not by sampling costs.

For Tate & Voss we use the simplex of cost *shares*: x = c2 / (c1 + c2 + c3) and
y = c3 / (c1 + c2 + c3), so the share of c1 is 1 - x - y. Only the ratios of the costs matter to the
ranking, every non-zero cost triple (c1 = 0 included) is one point of the triangle
x, y >= 0, x + y <= 1, and the map is finite. Distances are Euclidean in this (x, y) chart.
For MQM the plane is two chosen error weights, the others held fixed (see
mteval_core.loss.mqm_loss).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from mteval_core.loss.average import Costs, loss_coefficients
from mteval_core.loss.inputs import Rates

SIMPLEX = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])  # (x, y) = shares of c2 and c3
RELATIVE_TOLERANCE = 1e-12  # loss differences this small (relative to the losses) count as ties
MINIMUM_AREA = 1e-15  # share of the domain below which a clipped piece is rounding debris


@dataclass(frozen=True)
class AffineLosses:
    """Every system's loss over a plane: L_s(x, y) = offset_s + slope_x_s * x + slope_y_s * y."""

    systems: tuple[str, ...]
    coefficients: np.ndarray  # (systems, 3): offset, slope_x, slope_y

    def at(self, point: Sequence[float]) -> np.ndarray:
        return self.coefficients @ np.array([1.0, point[0], point[1]])

    def ranking_at(self, point: Sequence[float]) -> tuple[str, ...]:
        """Best first; equal losses keep the input order, as mteval_core.loss.average.ranking."""
        order = np.argsort(self.at(point), kind="stable")
        return tuple(self.systems[index] for index in order)


@dataclass(frozen=True)
class RankingRegion:
    """A convex polygon (vertices counter-clockwise) on which the full ranking is constant."""

    ranking: tuple[str, ...]
    vertices: np.ndarray

    @property
    def area(self) -> float:
        return polygon_area(self.vertices)


@dataclass(frozen=True)
class Boundary:
    """Where two systems tie: ``first`` has the lower loss where line . (1, x, y) < 0."""

    first: str
    second: str
    line: np.ndarray  # (offset, slope_x, slope_y) of L_first - L_second
    segment: np.ndarray | None  # the part inside the domain, 2 x 2, or None if it misses it


@dataclass(frozen=True)
class Reversal:
    """The nearest point of the domain where ``challenger`` catches up with ``leader``."""

    leader: str
    challenger: str
    point: np.ndarray
    distance: float


def simplex_losses(rates_by_system: Mapping[str, Rates]) -> AffineLosses:
    """Tate & Voss's loss over the cost-share triangle (up to the factor c1 + c2 + c3 > 0, which
    changes no ranking): a1 (1 - x - y) + a2 x + a3 y."""
    a = np.array([loss_coefficients(rates) for rates in rates_by_system.values()])
    coefficients = np.column_stack([a[:, 0], a[:, 1] - a[:, 0], a[:, 2] - a[:, 0]])
    return AffineLosses(tuple(rates_by_system), coefficients)


def simplex_point(costs: Costs) -> np.ndarray:
    """(c1, c2, c3) -> (share of c2, share of c3)."""
    total = sum(costs)
    return np.array([costs[1] / total, costs[2] / total])


def simplex_costs(point: Sequence[float]) -> Costs:
    """(x, y) -> the cost shares (c1, c2, c3), which sum to 1."""
    return (1.0 - point[0] - point[1], float(point[0]), float(point[1]))


def polygon_area(vertices: np.ndarray) -> float:
    """Shoelace formula; positive for counter-clockwise vertices."""
    x, y = vertices[:, 0], vertices[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def boundaries(losses: AffineLosses, domain: np.ndarray = SIMPLEX) -> list[Boundary]:
    """The tie line of every pair of systems whose losses differ somewhere."""
    tolerance = _tolerance(losses, domain)
    found = []
    for i, j in combinations(range(len(losses.systems)), 2):
        line = losses.coefficients[i] - losses.coefficients[j]
        if np.all(np.abs(line[1:]) <= tolerance):
            continue  # never tie (or always tie): no boundary
        segment = _line_in_polygon(line, domain, tolerance)
        found.append(Boundary(losses.systems[i], losses.systems[j], line, segment))
    return found


def ranking_regions(losses: AffineLosses, domain: np.ndarray = SIMPLEX) -> list[RankingRegion]:
    """Split ``domain`` (convex, counter-clockwise) by every pairwise tie line."""
    tolerance = _tolerance(losses, domain)
    minimum_area = MINIMUM_AREA * polygon_area(domain)
    pieces = [np.asarray(domain, dtype=float)]
    for boundary in boundaries(losses, domain):
        if boundary.segment is None:
            continue
        split = []
        for piece in pieces:
            for side in (1.0, -1.0):
                part = _clip(piece, side * boundary.line, tolerance)
                if len(part) >= 3 and polygon_area(part) > minimum_area:
                    split.append(part)
        pieces = split
    return [RankingRegion(losses.ranking_at(piece.mean(axis=0)), piece) for piece in pieces]


def nearest_reversal(
    losses: AffineLosses,
    point: Sequence[float],
    first: str,
    second: str,
    domain: np.ndarray = SIMPLEX,
) -> Reversal | None:
    """Nearest point where the system that is worse at ``point`` catches up with the better one;
    None when it stays behind everywhere in the domain."""
    i, j = losses.systems.index(first), losses.systems.index(second)
    values = losses.at(point)
    leader, challenger = (i, j) if values[i] <= values[j] else (j, i)
    line = losses.coefficients[leader] - losses.coefficients[challenger]
    segment = _line_in_polygon(line, domain, _tolerance(losses, domain))
    if segment is None:
        return None
    nearest = _nearest_on_segment(np.asarray(point, dtype=float), segment)
    distance = float(np.linalg.norm(nearest - point))
    return Reversal(losses.systems[leader], losses.systems[challenger], nearest, distance)


def nearest_first_place_change(
    losses: AffineLosses, point: Sequence[float], domain: np.ndarray = SIMPLEX
) -> Reversal | None:
    """Nearest point where the best system at ``point`` ties with another (and beyond which it
    loses first place); None when it is best everywhere in the domain."""
    leader = losses.ranking_at(point)[0]
    candidates = [
        nearest_reversal(losses, point, leader, other, domain)
        for other in losses.systems
        if other != leader
    ]
    found = [reversal for reversal in candidates if reversal is not None]
    return min(found, key=lambda reversal: reversal.distance, default=None)


def _tolerance(losses: AffineLosses, domain: np.ndarray) -> float:
    scale = float(np.abs(losses.coefficients).max(initial=1.0)) * max(
        1.0, float(np.abs(domain).max())
    )
    return RELATIVE_TOLERANCE * scale


def _clip(polygon: np.ndarray, line: np.ndarray, tolerance: float) -> np.ndarray:
    """The part of a convex polygon where line . (1, x, y) <= 0 (Sutherland-Hodgman, one edge)."""
    values = line[0] + polygon @ line[1:]
    values[np.abs(values) <= tolerance] = 0.0
    kept: list[np.ndarray] = []
    for index, vertex in enumerate(polygon):
        following = polygon[(index + 1) % len(polygon)]
        here, there = values[index], values[(index + 1) % len(polygon)]
        if here <= 0:
            kept.append(vertex)
        if here * there < 0:
            kept.append(vertex + here / (here - there) * (following - vertex))
    return np.array(kept).reshape(-1, 2)


def _line_in_polygon(line: np.ndarray, polygon: np.ndarray, tolerance: float) -> np.ndarray | None:
    """The segment where a line crosses a convex polygon, or None if it misses or only touches."""
    values = line[0] + polygon @ line[1:]
    values[np.abs(values) <= tolerance] = 0.0
    points = []
    for index, vertex in enumerate(polygon):
        following = polygon[(index + 1) % len(polygon)]
        here, there = values[index], values[(index + 1) % len(polygon)]
        if here == 0:
            points.append(vertex)
        elif here * there < 0:
            points.append(vertex + here / (here - there) * (following - vertex))
    if len(points) < 2:
        return None
    points_array = np.array(points)
    direction = np.array([-line[2], line[1]])  # along the line
    along = points_array @ direction
    ends = points_array[[int(np.argmin(along)), int(np.argmax(along))]]
    if np.linalg.norm(ends[1] - ends[0]) <= tolerance:
        return None
    return ends


def _nearest_on_segment(point: np.ndarray, segment: np.ndarray) -> np.ndarray:
    start, end = segment
    step = end - start
    share = float(np.clip(np.dot(point - start, step) / np.dot(step, step), 0.0, 1.0))
    return start + share * step
