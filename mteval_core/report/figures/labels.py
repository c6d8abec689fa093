"""Labels of a figure's marked points that never cover each other or another point.

Plotly puts a marker's text at a fixed side of it, so close points (the paper's Table 6 and
Table 10 costs) or equal ones (the current costs on a preset) get labels on top of each other.
Here every label gets a box of its estimated size in pixels and the boxes are placed one after
the other, each at the first free place around its point: next to it, else further out along one
of eight directions (the figure then draws a line from the label to its point). Points at the
same place share one label.

A label sits at a fixed offset in pixels from its point, but how far apart two points are in
pixels depends on the size the browser gives the plot; so a place counts as free only if it is
free at every plot size in ``PlotArea.sizes`` (from a narrow window to a wide one), and it must
lie inside the plot at the first, usual size. Text widths are estimates on the generous side
(``CHAR_PX`` per character at a 12 px font); a label's box touches its anchor with the side
nearest to its point, so the estimate only decides how far it reaches on the other side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

CHAR_PX = 6.5  # per character at 12 px: Plotly's Open Sans averages ~6.2, Streamlit's ~4.7
LINE_PX = 18.0  # one line of 12 px text (Plotly draws it 17 high)
PAD_PX = 3.0  # around a label's text (its background)
MARKER_PX = 8.0  # half the side of the square a marker covers
GAP_PX = 4.0  # kept free between two labels
RADII_PX = (10.0, 26.0, 46.0, 70.0, 100.0, 140.0, 190.0)  # from the point, tried in order
DIRECTIONS = (  # (right, up): right first (the reading direction), then the other sides
    (1, 0),
    (1, 1),
    (1, -1),
    (0, 1),
    (0, -1),
    (-1, 0),
    (-1, 1),
    (-1, -1),
)
SAME_PLACE = 1e-9  # points closer than this (in data units) share one label
OVERLAP_WEIGHT = 1e3  # a pixel of overlap costs more than reaching out of the plot by a pixel
CROSSING_PX2 = 50.0  # a label's line through another point or label costs as much as this overlap
LINE_SAMPLES = 8  # points along a label's line checked for crossings

Box = np.ndarray  # (left, bottom, right, top) in pixels, y up


@dataclass(frozen=True)
class PlotArea:
    """The data window of a plot and the sizes (width, height) in pixels it may be drawn at;
    the first is the usual one."""

    x_range: tuple[float, float]
    y_range: tuple[float, float]
    sizes: tuple[tuple[float, float], ...]

    def all_px(self, points: np.ndarray) -> np.ndarray:
        """(sizes, points, 2): where the points (in data units) are at each size, in pixels."""
        low = np.array([self.x_range[0], self.y_range[0]])
        span = np.array([self.x_range[1], self.y_range[1]]) - low
        return (points - low)[None, :, :] / span * np.array(self.sizes, dtype=float)[:, None, :]


@dataclass(frozen=True)
class PlacedLabel:
    """A label's box touches ``offset`` (pixels from its point, y up) with its side or corner
    ``x_anchor`` / ``y_anchor`` (Plotly's names), the one nearest to its point."""

    text: str  # as written (escape it for Plotly)
    point: tuple[float, float]  # what it names, in data units
    offset: tuple[float, float]
    x_anchor: str  # "left", "center" or "right"
    y_anchor: str  # "bottom", "middle" or "top"


def label_size(text: str) -> tuple[float, float]:
    """(width, height) in pixels of a one-line label with its padding."""
    return (CHAR_PX * len(text) + 2 * PAD_PX, LINE_PX + 2 * PAD_PX)


# Every place a label may take, in the order tried: (distance, direction) and the anchor's offset.
_RADII = np.repeat(RADII_PX, len(DIRECTIONS))
_DIRECTIONS = np.tile(DIRECTIONS, (len(RADII_PX), 1))
_ANCHORS = _DIRECTIONS * _RADII[:, None]
_STEPS = np.linspace(0.0, 1.0, LINE_SAMPLES + 1)[1:]  # along a label's line, from the point


def place_labels(
    points: Sequence[Sequence[float]], texts: Sequence[str], area: PlotArea
) -> list[PlacedLabel]:
    """A label for every point (one for points at the same place, their texts joined with
    ' = ' in the given order), placed in that order, each where it covers no label placed before
    and no point at any of the area's sizes; where there is no such place, where it covers least."""
    places, names = _same_places(points, texts)
    pixels = area.all_px(np.array(places).reshape(-1, 2))  # (sizes, points, 2)
    owners = list(range(len(places)))  # whose is what is taken: every marker, then every label
    taken = [_box(np.zeros(2), (2 * MARKER_PX, 2 * MARKER_PX))] * len(places)  # relative
    labels = []
    for index, point in enumerate(places):
        text = " = ".join(names[index])
        size = label_size(text)
        others = np.array(taken)[None, :, :] + np.tile(pixels[:, owners, :], 2)  # (sizes, n, 4)
        best = _best_place(
            pixels[:, index, :], size, area.sizes[0], others, np.array(owners) == index
        )
        radius, (dx, dy) = _RADII[best], _DIRECTIONS[best]
        owners.append(index)
        taken.append(_box(_DIRECTIONS[best] * (radius + np.divide(size, 2)), np.add(size, GAP_PX)))
        labels.append(
            PlacedLabel(
                text,
                (float(point[0]), float(point[1])),
                (float(radius * dx), float(radius * dy)),
                ("right", "center", "left")[dx + 1],
                ("top", "middle", "bottom")[dy + 1],
            )
        )
    return labels


def _same_places(
    points: Sequence[Sequence[float]], texts: Sequence[str]
) -> tuple[list[np.ndarray], list[list[str]]]:
    """The distinct places, each with the texts of the points there, in order."""
    places: list[np.ndarray] = []
    names: list[list[str]] = []
    for point, text in zip(points, texts):
        point = np.asarray(point, dtype=float)
        same = [k for k, place in enumerate(places) if np.abs(place - point).max() <= SAME_PLACE]
        if same:
            names[same[0]].append(text)
        else:
            places.append(point)
            names.append([text])
    return places, names


def _best_place(
    here: np.ndarray,
    size: tuple[float, float],
    usual: tuple[float, float],
    others: np.ndarray,
    mine: np.ndarray,
) -> int:
    """The index of the first free place, else of the cheapest: overlaps with what is taken,
    the label's line crossing another point or label, and reaching out of the plot at its
    ``usual`` size. ``here``: the point at each size (sizes, 2); ``others``: what is taken, at
    each size (sizes, taken, 4); ``mine``: which of it is the point's own marker."""
    half = np.asarray(size) / 2
    centres = _DIRECTIONS * (_RADII[:, None] + half)  # relative to the point
    relative = np.hstack([centres - half, centres + half])  # (places, 4)
    boxes = relative[:, None, None, :] + np.tile(here, 2)[None, :, None, :]  # (places, sizes, 1, 4)
    width = np.minimum(boxes[..., 2], others[..., 2]) - np.maximum(boxes[..., 0], others[..., 0])
    height = np.minimum(boxes[..., 3], others[..., 3]) - np.maximum(boxes[..., 1], others[..., 1])
    overlap = (np.clip(width, 0, None) * np.clip(height, 0, None)).sum(axis=(1, 2))
    lines = _ANCHORS[:, None, :] * _STEPS[None, :, None]  # (places, samples, 2)
    at = lines[:, None, :, None, :] + here[None, :, None, None, :]  # (places, sizes, samples, 1, 2)
    boxed = others[None, :, None, ~mine, :]  # (1, sizes, 1, taken but its own marker, 4)
    crossings = (
        (at[..., 0] >= boxed[..., 0])
        & (at[..., 0] <= boxed[..., 2])
        & (at[..., 1] >= boxed[..., 1])
        & (at[..., 1] <= boxed[..., 3])
    ).sum(axis=(1, 2, 3))
    first = boxes[:, 0, 0, :]
    outside = (
        np.clip(-first[:, 0], 0, None)
        + np.clip(first[:, 2] - usual[0], 0, None)
        + np.clip(-first[:, 1], 0, None)
        + np.clip(first[:, 3] - usual[1], 0, None)
    )
    cost = OVERLAP_WEIGHT * (overlap + CROSSING_PX2 * crossings) + outside
    return int(np.argmin(cost))  # the first of the cheapest: the nearest free place, if any


def _box(centre: np.ndarray, size: Sequence[float]) -> Box:
    half = np.asarray(size, dtype=float) / 2
    return np.concatenate([centre - half, centre + half])
