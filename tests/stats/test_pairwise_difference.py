"""Pairwise Difference Pearson: equal to mt-metrics-eval's stats.py (68a481a) on its own tests'
inputs and on a real folder (tests/stats/fixtures/mtme_wmt25.json, pinned by
scripts/mtme_wmt25_oracle.py), and a small case checked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as scipy_stats

from mteval_core.stats.pairwise_difference import (
    CONSTANT_HUMAN,
    CONSTANT_METRIC,
    FEWER_THAN_TWO_CELLS,
    segment_pdp,
    system_pdp,
)
from tests.stats.wmt25_folder import wmt25_shaped  # noqa: F401 (a fixture)

FIXTURE = json.loads((Path(__file__).parent / "fixtures/mtme_wmt25.json").read_text("utf-8"))
GROUPING = {"item": "item", "sys": "system", "none": "none"}  # mt-metrics-eval's average_by


def packed(values: list, num_sys: int) -> np.ndarray:
    """mt-metrics-eval's vectors are packed system by system; None is NaN here."""
    return np.array([np.nan if v is None else v for v in values], float).reshape(num_sys, -1)


@pytest.mark.parametrize(
    ("case", "gold", "metric"),
    [
        ("testPearsonPdp", [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 3, 7]),
        ("testPdpWithAveragingAndNones", [1, 5, None, 10, 2, 12], [3, 15, 1, 20, 4, 24]),
    ],
)
@pytest.mark.parametrize("average_by", ["item", "sys", "none"])
def test_equal_to_stats_py_on_its_tests_inputs(case, gold, metric, average_by):
    theirs = FIXTURE["pdp_unit"][case][average_by]
    ours = segment_pdp(packed(metric, 2), packed(gold, 2), GROUPING[average_by])
    assert ours.value == pytest.approx(theirs, abs=1e-14)


def test_the_values_its_tests_check_to_three_places():
    matrix = packed([2, 1, 4, 3, 3, 7], 2), packed([1, 2, 3, 4, 5, 6], 2)
    assert round(segment_pdp(*matrix, "item").value, 3) == 0.926
    assert round(segment_pdp(*matrix, "none").value, 3) == 0.776
    assert round(segment_pdp(*matrix, "system").value, 3) == 0.766


def test_by_hand():
    """Two systems, two segments. By item each segment gives the pairs (0, 0), (d, e), (-d, -e)
    with d the human and e the metric difference: segment 1 d = 1, e = 2; segment 2 d = 3,
    e = 1. Pooled: sum(d e) = 2 (2 + 3) = 10, sum(d^2) = 2 (1 + 9) = 20, sum(e^2) = 2 (4 + 1)
    = 10, r = 10 / sqrt(200) = 0.7071. The average of the two per-segment correlations (1 and 1)
    would be 1."""
    human = np.array([[0.0, 0.0], [1.0, 3.0]])
    metric = np.array([[0.0, 5.0], [2.0, 6.0]])
    result = segment_pdp(metric, human, "item")
    assert result.value == pytest.approx(1 / np.sqrt(2), abs=1e-15)
    assert result.n_pairs == 8  # 2 segments x 2^2 ordered pairs, each cell with itself


def test_system_level_pdp_is_pearson_over_the_systems_people_scored():
    rng = np.random.default_rng(3)
    human, metric = rng.normal(size=9), rng.normal(size=9)
    human[4] = np.nan
    kept = np.isfinite(human)
    pearson = scipy_stats.pearsonr(metric[kept], human[kept]).statistic
    assert system_pdp(metric, human).value == pytest.approx(pearson, abs=1e-14)


@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
def test_equal_to_stats_py_on_wmt21_ted(lp, wmt25_shaped):  # noqa: F811
    """Every metric of the folder: system level and segment level by item, system and none."""
    from mteval_core.io.mtme import read_mtme
    from mteval_core.model.judgment_matrices import criterion_matrix

    read = read_mtme(wmt25_shaped, "wmt21.tedtalks", lp)
    test_set = read.test_set
    systems = [s for s in test_set.system_names if s in set(test_set.human.segment_rows["system"])]
    human = criterion_matrix(test_set.human, systems, test_set.n_segments, read.criterion)
    human_sys = np.nanmean(human, axis=1)
    theirs = FIXTURE["pdp_folder"][lp]
    assert {m.name for m in read.external} == set(theirs)
    for metric in read.external:
        segments = np.array([metric.segment_scores(metric.statistics_of(s)) for s in systems])
        expected = theirs[metric.name]
        ours_sys = system_pdp(np.array([metric.system_score(s) for s in systems]), human_sys)
        assert ours_sys.value == pytest.approx(expected["sys_none"], abs=1e-13)
        for average_by, grouping in GROUPING.items():
            ours = segment_pdp(segments, human, grouping).value
            assert ours == pytest.approx(expected[f"seg_{average_by}"], abs=1e-12), metric.name


def test_undefined_with_the_reason():
    one_cell_each = np.array([[1.0, np.nan], [np.nan, 2.0]])
    assert segment_pdp(one_cell_each, one_cell_each, "item").undefined == FEWER_THAN_TWO_CELLS
    human = np.array([[1.0, 1.0], [1.0, 1.0]])
    metric = np.array([[1.0, 2.0], [3.0, 5.0]])
    assert segment_pdp(metric, human, "item").undefined == CONSTANT_HUMAN
    # a constant metric within each segment (its scores differ only across segments)
    assert segment_pdp(np.array([[1.0, 7.0], [1.0, 7.0]]), metric, "item").undefined == (
        CONSTANT_METRIC
    )
    assert segment_pdp(metric, human, "none").undefined == CONSTANT_HUMAN


def test_a_missing_metric_score_where_people_scored_is_refused():
    with pytest.raises(ValueError, match="metric score is missing"):
        segment_pdp(np.array([[np.nan, 1.0]]), np.array([[1.0, 2.0]]), "none")
