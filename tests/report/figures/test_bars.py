"""One ranked-bar builder for scores (higher is better) and losses (lower is better)."""

from __future__ import annotations

import pytest

from mteval_core.report.figures import loss_bar_chart, ranked_bars, system_scores_bar


def test_higher_first_unless_lower_is_better_and_ties_keep_their_order():
    values = {"b": 2.0, "a": 3.0, "c": 2.0}
    assert list(ranked_bars(values, title="t", x_title="x").data[0].y) == ["a", "b", "c"]
    lower = ranked_bars(values, title="t", x_title="x", lower_is_better=True)
    assert list(lower.data[0].y) == ["b", "c", "a"]


def test_labels_in_the_chosen_format_and_intervals_as_asymmetric_error_bars():
    figure = ranked_bars(
        {"A": -12.284, "B": -17.2},
        title="Loss <b>",
        x_title="average loss",
        lower_is_better=True,
        intervals={"A": (-13.0, -12.0), "B": (-18.0, -16.5)},
        number_format=".2f",
    )
    (bars,) = figure.data
    assert list(bars.text) == ["-17.20", "-12.28"]
    assert list(bars.error_x.array) == pytest.approx([0.7, 0.284])  # up to high
    assert list(bars.error_x.arrayminus) == pytest.approx([0.8, 0.716])  # down to low
    assert bars.customdata.tolist() == [[-18.0, -16.5], [-13.0, -12.0]]
    assert figure.layout.title.text == "Loss &lt;b>"  # shown as written


def test_scores_and_losses_are_both_ranked_bars():
    scores = system_scores_bar({"a": 1.0, "b": 2.0}, "BLEU")
    same = ranked_bars({"a": 1.0, "b": 2.0}, title="BLEU by system", x_title="BLEU")
    assert scores.to_dict() == same.to_dict()
    losses = loss_bar_chart({"a": 1.0, "b": 2.0})
    same = ranked_bars(
        {"a": 1.0, "b": 2.0},
        title="Average loss (lower is better)",
        x_title="average loss",
        lower_is_better=True,
        number_format=".2f",
    )
    assert losses.to_dict() == same.to_dict()


def test_an_error_rate_is_ranked_lowest_first():
    (bars,) = system_scores_bar({"a": 30.0, "b": 50.0, "c": 40.0}, "TER", None, False).data
    assert list(bars.y) == ["a", "c", "b"]  # TER: the fewest edits first
    (bars,) = system_scores_bar({"a": 30.0, "b": 50.0, "c": 40.0}, "BLEU").data
    assert list(bars.y) == ["b", "c", "a"]
