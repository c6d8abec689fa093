"""The segment-level figures: a density that counts every rated cell, and the metric ranking."""

from __future__ import annotations

import numpy as np

from mteval_core.report.figures import metric_ranking_figure, segment_density
from mteval_core.stats.ranking import MetricRanking, RankedMetric


def test_density_counts_every_rated_cell_once():
    rng = np.random.default_rng(0)
    metric = rng.random((20, 2000))
    human = -rng.poisson(1.0, size=(20, 2000)).astype(float)
    human[0, :100] = np.nan  # unrated cells are left out, never counted as zero
    figure = segment_density(metric, human, "BLEU", "MQM")
    counts = np.array(figure.data[0].customdata)
    assert counts.sum() == 20 * 2000 - 100
    assert "39,900 cells" in figure.layout.title.text
    # MQM takes few values: one bin (row) per distinct value
    assert counts.shape[0] == len(np.unique(human[np.isfinite(human)]))


def test_density_of_constant_scores_and_of_nothing():
    constant = segment_density(np.ones((2, 3)), np.zeros((2, 3)), "m", "h")
    assert np.array(constant.data[0].customdata).sum() == 6
    empty = segment_density(np.full((2, 3), np.nan), np.zeros((2, 3)), "m", "h")
    assert np.array(empty.data[0].customdata).sum() == 0


def test_ranking_bars_best_first_with_intervals_and_escaped_names():
    ranking = MetricRanking(
        statistic="acc_eq",
        grouping="item",
        metrics=(
            RankedMetric("chrf", 0.52, 1, (0.50, 0.55)),
            RankedMetric("<b>bleu</b>", 0.48, 2, (0.46, 0.50)),
            RankedMetric("broken", None, 3),
        ),
        p_values=np.ones((3, 3)),
    )
    labels = {"chrf": "chrF", "<b>bleu</b>": "<b>bleu</b>", "broken": "broken"}
    figure = metric_ranking_figure(ranking, "acc_eq (item)", labels)
    bars = figure.data[0]
    assert list(bars.y) == ["chrF", "&lt;b>bleu&lt;/b>"]  # undefined values are not drawn
    assert list(bars.text) == ["rank 1", "rank 2"]
    np.testing.assert_allclose(bars.error_x.arrayminus, [0.02, 0.02])
    np.testing.assert_allclose(bars.error_x.array, [0.03, 0.02])
