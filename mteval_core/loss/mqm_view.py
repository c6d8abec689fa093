"""Everything the dashboard's MQM view shows, split by what moves it.

Mean error points and the ranking follow every weight: one matrix product (:func:`mqm_ranking_at`).
The map of rankings over two weights moves only with the *other* weights and the systems on it, so
it is computed once per such setting (:func:`weight_plane`, then the slow :func:`weight_map`); the
two weights on its axes only move the current point (:func:`map_view_at`), as
:func:`mteval_core.loss.view.view_at` does for Tate & Voss's costs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.loss.average import ranking
from mteval_core.loss.mqm_loss import ErrorsPerSegment, weight_box
from mteval_core.loss.reversal import (
    AffineLosses,
    Boundary,
    RankingRegion,
    Reversal,
    boundaries,
    nearest_first_place_change,
    ranking_regions,
)


@dataclass(frozen=True)
class MqmRanking:
    points: dict[str, float]  # mean error points per rated segment, every system
    ranking: list[str]  # best (fewest points) first; ties keep the systems' order


def mqm_ranking_at(errors: ErrorsPerSegment, weights: Mapping[str, float]) -> MqmRanking:
    points = errors.points(weights)
    return MqmRanking(points, ranking(points))


def best_systems(errors: ErrorsPerSegment, weights: Mapping[str, float], count: int) -> list[str]:
    """The ``count`` best systems at ``weights``: a map of many systems has hundreds of regions,
    too many to read and slow to draw, so a map starts with the best few."""
    return mqm_ranking_at(errors, weights).ranking[:count]


@dataclass(frozen=True)
class WeightPlane:
    """Mean error points of the systems on a map as an affine function of two weights, the others
    held fixed, over the box both weights range in: all that the map's regions depend on."""

    x_key: str
    y_key: str
    losses: AffineLosses
    box: np.ndarray  # the map's domain (counter-clockwise), see weight_box

    @property
    def key(self) -> tuple:
        """Hashable content: equal keys, equal maps; moving the two axis weights keeps it."""
        coefficients, box = self.losses.coefficients.tobytes(), self.box.tobytes()
        return (self.x_key, self.y_key, self.losses.systems, coefficients, box)

    def point(self, weights: Mapping[str, float]) -> np.ndarray:
        """Where ``weights`` lie on the map: (weight of x_key, weight of y_key)."""
        return np.array([weights[self.x_key], weights[self.y_key]], dtype=float)


def weight_plane(
    errors: ErrorsPerSegment,
    weights: Mapping[str, float],
    x_key: str,
    y_key: str,
    systems: Sequence[str],
    maxima: tuple[float, float],
) -> WeightPlane:
    """The plane of ``systems`` over ``x_key`` and ``y_key``, each from 0 to its maximum."""
    losses = errors.plane(weights, x_key, y_key, systems)
    return WeightPlane(x_key, y_key, losses, weight_box(*maxima))


@dataclass(frozen=True)
class WeightMap:
    """A plane's exact map: where each full ranking holds, and where two systems tie."""

    plane: WeightPlane
    regions: list[RankingRegion]
    boundaries: list[Boundary]


def weight_map(plane: WeightPlane) -> WeightMap:
    """The slow part (every pair's tie line clips the box), done once per plane."""
    return WeightMap(
        plane, ranking_regions(plane.losses, plane.box), boundaries(plane.losses, plane.box)
    )


@dataclass(frozen=True)
class WeightMapView:
    point: np.ndarray  # the current weights on the map's axes
    best: str  # the best of the map's systems there
    regions: list[RankingRegion]
    boundaries: list[Boundary]
    first_place_change: Reversal | None  # None: ``best`` stays best everywhere on the map


def map_view_at(mapped: WeightMap, weights: Mapping[str, float]) -> WeightMapView:
    """The current point on a precomputed map, and the nearest point where first place changes."""
    plane = mapped.plane
    point = plane.point(weights)
    return WeightMapView(
        point=point,
        best=plane.losses.ranking_at(point)[0],
        regions=mapped.regions,
        boundaries=mapped.boundaries,
        first_place_change=nearest_first_place_change(plane.losses, point, plane.box),
    )
