"""The loss figures build from plain data."""

from __future__ import annotations

from pathlib import Path

import pytest

from mteval_core.io.loss_csv import read_loss_table
from mteval_core.loss.inputs import grouped_rates
from mteval_core.loss.reversal import boundaries, ranking_regions, simplex_losses, simplex_point
from mteval_core.report.figures import loss_bar_chart, rank_reversal_map

PATH = (
    Path(__file__).resolve().parents[2]
    / "sample_data"
    / "loss"
    / "tate-voss-2006-table2-table4-rates.csv"
)


def test_rank_reversal_map_has_one_legend_entry_per_ranking():
    losses = simplex_losses(grouped_rates(read_loss_table(PATH.read_bytes(), str(PATH)))["all"])
    regions = ranking_regions(losses)
    figure = rank_reversal_map(
        regions,
        simplex_point((5, 2, 1)),
        boundaries=boundaries(losses),
        presets={"Table 6": simplex_point((1, 2, 2))},
    )
    legend = [trace.name for trace in figure.data if trace.showlegend is not False]
    assert sorted(legend) == sorted(" > ".join(region.ranking) for region in regions)
    assert any(trace.name == "current costs" for trace in figure.data)


def test_loss_bar_chart_orders_best_first_with_error_bars():
    figure = loss_bar_chart({"A": 2.0, "B": 1.0}, intervals={"A": (1.5, 2.5), "B": (0.5, 1.2)})
    bar = figure.data[0]
    assert list(bar.y) == ["B", "A"]
    assert list(bar.error_x.array) == pytest.approx([0.2, 0.5])


def test_loss_bar_chart_takes_any_loss_with_its_own_axis_title():
    figure = loss_bar_chart({"ref": 0.9, "Nemo": 2.1}, x_title="mean error points per segment")
    assert list(figure.data[0].y) == ["ref", "Nemo"]
    assert figure.data[0].error_x.array is None
    assert figure.layout.xaxis.title.text == "mean error points per segment"
