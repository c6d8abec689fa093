"""The tables of one metric against the others: every cell text, undefined with its reason,
which one is significantly better."""

from __future__ import annotations

import numpy as np

from mteval_core.report.comparison_frames import (
    COMPARISON_COLUMNS,
    format_p,
    metric_comparison_frame,
    ranking_p_value_frame,
)
from mteval_core.stats.ranking import MetricRanking, RankedMetric
from mteval_core.stats.significance import MetricComparison


def test_metric_comparisons_read_as_text_with_a_verdict():
    comparisons = [
        MetricComparison("bleu", "chrf", 0.9, 0.5, 0.97, 0.01, {}),
        MetricComparison("bleu", "ter", 0.9, 0.95, 0.2, 0.98, {}),
        MetricComparison("bleu", "nist", 0.9, 0.88, 0.55, 0.4, {}),
        MetricComparison(
            "bleu",
            "flat",
            0.9,
            None,
            None,
            None,
            {
                "pearson_b": "constant metric scores",
                "share_a_better": "the Pearson correlation of flat is undefined",
                "williams_p_a_better": "the Pearson correlation of flat is undefined",
            },
        ),
        MetricComparison(
            "bleu",
            "twin",
            0.9,
            0.9,
            None,
            None,
            {
                "share_a_better": "no resamples were drawn",
                "williams_p_a_better": "the two metrics' scores correlate perfectly (|r| = 1)",
            },
        ),
    ]
    labels = {"bleu": "BLEU", "chrf": "chrF", "ter": "TER", "nist": "NIST"}
    labels |= {"flat": "Flat", "twin": "twin"}
    frame = metric_comparison_frame(comparisons, labels)
    assert list(frame.columns) == list(COMPARISON_COLUMNS)
    assert list(frame.index) == ["chrF", "TER", "NIST", "Flat", "twin"]
    verdict = frame[COMPARISON_COLUMNS[-1]]
    assert verdict["chrF"] == "selected better" and verdict["TER"] == "other better"
    assert verdict["NIST"] == "no significant difference"
    assert frame.loc["chrF", "Williams p: selected better"] == "0.010"
    assert frame.loc["chrF", "Williams p: other better"] == "0.990"
    assert frame.loc["chrF", "resamples with selected higher"] == "97.0%"
    assert frame.loc["Flat", "Pearson r"] == "undefined (constant metric scores)"
    # the reason names the metric as the table does, by its label
    assert verdict["Flat"] == (
        "undefined (the Pearson correlation of Flat is undefined (constant metric scores))"
    )
    assert frame.loc["Flat", "resamples with selected higher"] == verdict["Flat"]
    assert (
        frame.loc["twin", "resamples with selected higher"] == "undefined (no resamples were drawn)"
    )
    cells = " ".join(frame.to_numpy().ravel())
    assert "None" not in cells and "nan" not in cells.lower()


def test_small_p_values_read_as_below_a_thousandth():
    assert format_p(0.0004) == "< 0.001" and format_p(0.001) == "0.001" and format_p(1.0) == "1.000"


def test_ranking_p_values_of_one_metric():
    p_values = np.ones((4, 4))
    p_values[0, 1], p_values[0, 2], p_values[1, 2] = 0.3, 0.01, 0.04
    ranking = MetricRanking(
        "acc_eq",
        "item",
        (
            RankedMetric("chrf", 0.6, 1),
            RankedMetric("bleu", 0.55, 1),
            RankedMetric("ter", 0.4, 2),
            RankedMetric("broken", None, 3),
        ),
        p_values,
        n_permutations=500,
    )
    labels = {"chrf": "chrF", "bleu": "BLEU", "ter": "TER", "broken": "broken"}
    frame = ranking_p_value_frame(ranking, "bleu", labels)
    assert list(frame.index) == ["chrF", "TER", "broken"]
    assert list(frame.columns) == ["rank", "acc_eq", "p-value", "result"]
    assert frame.loc["chrF", "p-value"] == "0.300"
    assert frame.loc["chrF", "result"] == "no significant difference"
    assert frame.loc["TER", "p-value"] == "0.040" and frame.loc["TER", "result"] == "BLEU better"
    assert frame.loc["broken", "acc_eq"] == "undefined"
    assert frame.loc["broken", "p-value"].startswith("not tested")
    assert ranking_p_value_frame(ranking, "ter", labels).loc["chrF", "result"] == "chrF better"
