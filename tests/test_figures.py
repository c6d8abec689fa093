"""Figure builders: plain data in, the figure's data and shapes out."""

from __future__ import annotations

import math

import pytest

from mteval_core.config import Options
from mteval_core.figures import bitext_grid_figure, differential_scatter, metric_human_scatter
from mteval_core.grid import bitext_grid
from tests.conftest import make_test_set


def test_scatter_has_points_regression_line_and_interval_in_title():
    figure = metric_human_scatter(
        ["a", "b", "c"], [1, 2, 3], [2, 4, 6.5], "BLEU", "DA", 0.99, [0.9, 1.0]
    )
    points, line = figure.data
    assert list(points.x) == [1, 2, 3] and list(points.text) == ["a", "b", "c"]
    slope = (line.y[1] - line.y[0]) / (line.x[1] - line.x[0])
    assert slope == pytest.approx(2.25)  # least squares through (1,2), (2,4), (3,6.5)
    assert "r = 0.990 [0.900, 1.000]" in figure.layout.title.text


def test_differential_scatter():
    figure = differential_scatter(["a − b"], [1.0], [0.5], "BLEU", 1.0)
    assert list(figure.data[0].x) == [1.0] and list(figure.data[0].text) == ["a − b"]


def test_bitext_figure_draws_cut_blocks_and_barriers():
    test_set = make_test_set([["a b c d"], ["a b c d e"]], {"s": ["a b c d e"]})
    grid = bitext_grid(test_set, "s", 1, Options(tokenize="none", gtm_exponent=2.0))
    figure = bitext_grid_figure(grid, grid.greedy)
    (block,) = [s for s in figure.layout.shapes if s.type == "rect"]
    assert block.x1 - block.x0 == 4.5  # the block cut by the cap of 4.5
    assert len([s for s in figure.layout.shapes if s.type == "line"]) == 2
    hits = figure.data[0]
    assert len(hits.x) == len(grid.hits) and list(hits.customdata[0]) == ["a", "a"]
    assert figure.layout.xaxis.ticktext[4] == "‖"
    assert math.isclose(grid.greedy.size, 4.5)
