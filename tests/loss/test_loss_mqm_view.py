"""The dashboard's MQM view: the ranking at any weights, and the map over two weights prepared
once and read at any point, checked by hand on three systems whose tie lines meet at 0."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mteval_core.loss.mqm_loss import ErrorsPerSegment
from mteval_core.loss.mqm_view import (
    best_systems,
    map_view_at,
    mqm_ranking_at,
    weight_map,
    weight_plane,
)

# Mean errors per segment that each weight charges. Points: A = Major, B = 2 Minor,
# C = (Major + Minor) / 2 + Neutral. With Neutral at 0 they tie on lines through the origin:
# A = B where Major = 2 Minor, A = C where Major = Minor, B = C where Major = 3 Minor.
ERRORS = ErrorsPerSegment(
    systems=("A", "B", "C"),
    keys=("Major", "Minor", "Neutral"),
    counts=np.array([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.5, 0.5, 1.0]]),
)
WEIGHTS = {"Major": 5.0, "Minor": 1.0, "Neutral": 0.0}  # A 5, B 2, C 3
BOX = (10.0, 10.0)


def test_ranking_and_the_best_few_at_the_weights():
    shown = mqm_ranking_at(ERRORS, WEIGHTS)
    assert shown.points == pytest.approx({"A": 5.0, "B": 2.0, "C": 3.0})
    assert shown.ranking == ["B", "C", "A"]
    assert best_systems(ERRORS, WEIGHTS, 2) == ["B", "C"]
    tied = {"Major": 2.0, "Minor": 1.0, "Neutral": 0.0}  # A 2, B 2, C 1.5
    assert best_systems(ERRORS, tied, 3) == ["C", "A", "B"]  # A and B tie: the systems' order


def test_the_map_splits_the_box_along_the_three_tie_lines():
    plane = weight_plane(ERRORS, WEIGHTS, "Major", "Minor", ERRORS.systems, BOX)
    mapped = weight_map(plane)
    areas = {region.ranking: region.area for region in mapped.regions}
    assert areas == pytest.approx(
        {
            ("A", "C", "B"): 50.0,  # above Minor = Major: the triangle up to (0, 10), (10, 10)
            ("C", "A", "B"): 25.0,  # between Minor = Major and Minor = Major / 2
            ("C", "B", "A"): 25.0 / 3,  # between Major / 2 and Major / 3
            ("B", "C", "A"): 50.0 / 3,  # below Minor = Major / 3
        }
    )
    ends = {(line.first, line.second): sorted(line.segment.tolist()) for line in mapped.boundaries}
    assert ends == {
        ("A", "B"): [[0.0, 0.0], pytest.approx([10.0, 5.0])],
        ("A", "C"): [[0.0, 0.0], pytest.approx([10.0, 10.0])],
        ("B", "C"): [[0.0, 0.0], pytest.approx([10.0, 10.0 / 3])],
    }


def test_the_view_at_the_weights_finds_the_nearest_change_of_first_place():
    mapped = weight_map(weight_plane(ERRORS, WEIGHTS, "Major", "Minor", ERRORS.systems, BOX))
    view = map_view_at(mapped, WEIGHTS)
    assert view.point.tolist() == [5.0, 1.0] and view.best == "B"
    assert view.regions is mapped.regions  # read from the map, not computed again
    change = view.first_place_change
    assert (change.leader, change.challenger) == ("B", "C")
    # B = C on Major = 3 Minor: (5, 1) projects onto (3, 1) / sqrt(10) at 16 / 10 of it.
    assert change.point == pytest.approx([4.8, 1.6])
    assert change.distance == pytest.approx(2 / math.sqrt(10))  # nearer than A = B's 3 / sqrt(5)


def test_a_system_better_everywhere_on_the_map_keeps_first_place():
    errors = ErrorsPerSegment(("A", "D"), ("Major", "Minor"), np.array([[1.0, 0.0], [2.0, 2.0]]))
    weights = {"Major": 5.0, "Minor": 1.0}
    view = map_view_at(
        weight_map(weight_plane(errors, weights, "Major", "Minor", "AD", BOX)), weights
    )
    assert view.best == "A" and view.first_place_change is None


def test_the_map_moves_with_the_other_weights_only():
    plane = weight_plane(ERRORS, WEIGHTS, "Major", "Minor", ["A", "C"], BOX)
    assert plane.losses.systems == ("A", "C")
    assert plane.box.tolist() == [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    moved = {**WEIGHTS, "Major": 7.0, "Minor": 2.0}
    assert weight_plane(ERRORS, moved, "Major", "Minor", ["A", "C"], BOX).key == plane.key
    assert plane.point(moved).tolist() == [7.0, 2.0]
    neutral = {**WEIGHTS, "Neutral": 1.0}  # C gains a point everywhere: A = C moves
    shifted = weight_plane(ERRORS, neutral, "Major", "Minor", ["A", "C"], BOX)
    assert shifted.key != plane.key
    assert shifted.losses.coefficients[1] == pytest.approx([1.0, 0.5, 0.5])
    assert weight_plane(ERRORS, WEIGHTS, "Major", "Minor", ["A", "C"], (10.0, 3.0)).key != plane.key
