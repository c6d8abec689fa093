"""stats.segment_meta: oriented matrices from scores and judgments, and the flat JSON contract."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.io import read_directory
from mteval_core.metrics.external import ExternalMetric
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats import segment_meta
from tests.helpers import load_sample, shared_dataset


@pytest.fixture(scope="module")
def sample():
    test_set = load_sample().test_set
    return test_set, score_test_set(test_set, ["bleu", "ter"], Options())


def test_matrices_are_oriented_higher_is_better(sample) -> None:
    test_set, scores = sample
    matrices = segment_meta.segment_matrices(test_set, scores)
    assert matrices.criterion == "adequacy+fluency"
    assert matrices.negated == ("ter",) and matrices.oriented == "higher is better: ter negated"
    first = test_set.system_names[0]
    np.testing.assert_allclose(matrices.metrics["ter"][0], -scores.segment_scores(first, "ter"))
    assert matrices.human.shape == (4, test_set.n_segments)


def test_exclude_leaves_systems_out(sample) -> None:
    test_set, scores = sample
    excluded = test_set.system_names[0]
    matrices = segment_meta.segment_matrices(test_set, scores, exclude=[excluded])
    assert excluded not in matrices.systems and len(matrices.systems) == 3


def test_flat_contract_is_strict_json_with_intervals(sample) -> None:
    test_set, scores = sample
    matrices = segment_meta.segment_matrices(test_set, scores)
    result = segment_meta.segment_statistics(matrices, n_resamples=30, seed=1)
    report = segment_meta.segment_correlations(matrices, result)
    json.dumps(report, allow_nan=False)
    record = report["bleu"]
    for key in segment_meta.statistic_keys(("none", "item", "system")):
        assert key in record
        assert key.endswith("_threshold") or f"{key}_ci" in record
    assert record["n_rated"] == 160
    lo, hi = record["pearson_none_ci"]
    assert lo <= record["pearson_none"] <= hi
    # kendall_like's threshold of 25 is above every difference of the 1-10 sample scores
    assert record["kendall_like_item"] is None and "25" in record["undefined"]["kendall_like_item"]
    header = segment_meta.segment_level_header(matrices, result)
    assert header["n_resamples"] == 30 and header["n_cells"] == 160


def test_system_level_only_metrics_are_undefined_with_the_reason(sample) -> None:
    test_set, _ = sample
    comet = ExternalMetric(
        "comet",
        higher_is_better=True,
        origin="comet.csv",
        n_segments=test_set.n_segments,
        system_scores={s: float(i) for i, s in enumerate(test_set.system_names)},
    )
    scores = score_test_set(test_set, ["bleu"], Options(), external=[comet])
    matrices = segment_meta.segment_matrices(test_set, scores)
    assert "comet" not in matrices.metrics and "comet.csv" in matrices.undefined["comet"]
    result = segment_meta.segment_statistics(matrices)
    report = segment_meta.segment_correlations(matrices, result)
    assert report["comet"]["pearson_none"] is None
    assert report["comet"]["undefined"]["pearson_none"] == matrices.undefined["comet"]
    accuracies = segment_meta.system_accuracies(matrices)
    assert accuracies["comet"]["spa"] is None and accuracies["bleu"]["spa"] is not None


def test_system_accuracies_alone_equal_those_of_the_full_statistics(sample) -> None:
    test_set, scores = sample
    matrices = segment_meta.segment_matrices(test_set, scores)
    alone = segment_meta.system_accuracies(matrices)
    full = segment_meta.system_accuracies(matrices, segment_meta.segment_statistics(matrices))
    assert alone == full


def test_judgments_without_segments_are_refused(sample) -> None:
    test_set, scores = sample
    with pytest.raises(InputError, match="human judgments of segments"):
        segment_meta.segment_matrices(test_set.with_human(None), scores)


@pytest.mark.parametrize(
    ("text", "parsed"),
    [("acc_eq_item", ("acc_eq", "item")), ("kendall_like_none", ("kendall_like", "none")),
     ("spa", ("spa", "none")), ("pairwise_accuracy_with_ties", ("pairwise_accuracy", "none"))],
)  # fmt: skip
def test_rank_statistics_are_parsed(text, parsed) -> None:
    assert segment_meta.parse_rank_statistic(text) == parsed


def test_unknown_rank_statistic_is_refused_with_the_choices() -> None:
    with pytest.raises(InputError, match="cannot rank") as caught:
        segment_meta.parse_rank_statistic("pearson_everything")
    assert "acc_eq_item" in caught.value.hint


def test_ranking_puts_the_best_first(sample) -> None:
    test_set, scores = sample
    matrices = segment_meta.segment_matrices(test_set, scores)
    ranking = segment_meta.metric_ranking(matrices, "pearson_none", 50, 0)
    assert [entry["metric"] for entry in ranking] == ["bleu", "ter"]
    assert ranking[0]["rank"] == 1 and ranking[0]["ci"] is None


def test_ted_numbers_of_the_issue() -> None:
    """mt-metrics-eval's numbers for WMT21 TED en-de (MQM), as tests/stats/test_segment_level."""
    test_set = read_directory(shared_dataset("wmt21-ted-mqm-ende")).test_set
    scores = score_test_set(test_set, ["bleu", "chrf"], Options())
    matrices = segment_meta.segment_matrices(test_set, scores, criterion="MQM")
    report = segment_meta.segment_correlations(matrices, segment_meta.segment_statistics(matrices))
    json.dumps(report, allow_nan=False)
    assert report["bleu"]["pearson_none"] == pytest.approx(0.173514, abs=1e-6)
    assert report["chrf"]["pearson_none"] == pytest.approx(0.158307, abs=1e-6)
    assert report["bleu"]["acc_eq_item"] == pytest.approx(0.480297, abs=1e-6)
    assert report["chrf"]["acc_eq_item"] == pytest.approx(0.480297, abs=1e-6)


def test_system_level_correlations_use_ter_negated(sample) -> None:
    """Issue #11, item 6: every correlation reads "higher is better", TER included."""
    from scipy import stats as scipy_stats

    from mteval_core.stats.bootstrap import BootstrapOptions
    from mteval_core.stats.meta import evaluate

    test_set, scores = sample
    for bootstrap in (None, BootstrapOptions(n_resamples=20, seed=1)):
        result = evaluate(test_set, scores, bootstrap=bootstrap)
        systems = list(result.human.scores)
        ter = [scores.corpus()[s]["ter"] for s in systems]
        human = list(result.human.scores.values())
        expected = scipy_stats.pearsonr([-t for t in ter], human)[0]
        assert result.correlations["ter"].pearson == pytest.approx(expected, abs=1e-12)
