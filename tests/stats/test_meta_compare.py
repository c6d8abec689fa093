"""What the Correlation page asks of stats.meta: intervals and comparisons of metrics whatever the
judgments (segment resamples for segment-level judgments, system resamples as `mteval correlate`
draws them for system-level only ones), Williams' test without resamples, one metric against the
others, and the pairs of one system."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mteval_core.io.human_judgments import read_human_for
from mteval_core.metrics import DEFAULT_METRICS
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.testset import HumanScores
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.correlation import williams_test
from mteval_core.stats.meta import (
    NO_RESAMPLES,
    correlate_tables,
    evaluate,
    evaluate_and_compare,
    has_segment_judgments,
    turned,
)
from mteval_core.stats.significance import MetricComparison
from tests.helpers import load_sample

DA = b"system\tscore\nneural-large\t0.4\nneural-small\t0.1\nphrase-based\t0.2\nword-by-word\t-0.6\n"
METRICS = (*DEFAULT_METRICS, "ter")  # TER: lower is better, turned round for correlations
BOOTSTRAP = BootstrapOptions(n_resamples=300, seed=7)


def sample_with(human: bytes | None = None):
    test_set = load_sample().test_set
    if human is not None:
        test_set = test_set.with_human(read_human_for(test_set, human, "da.tsv").scores)
    return test_set, score_test_set(test_set, METRICS, Options())


def test_which_criteria_have_segment_judgments():
    test_set = load_sample().test_set
    assert has_segment_judgments(test_set.human, "adequacy")
    assert has_segment_judgments(test_set.human, "adequacy+fluency")
    da = read_human_for(test_set, DA, "da_sys.tsv").scores
    assert not has_segment_judgments(da, "DA")
    both = HumanScores.concat([test_set.human, da])
    assert has_segment_judgments(both, "adequacy") and not has_segment_judgments(both, "DA")
    assert not has_segment_judgments(None, "adequacy")


def test_a_system_level_criterion_beside_segment_judgments_is_evaluated_by_systems():
    """As in a WMT folder with mqm_seg.tsv and da_sys.tsv: DA was refused ("0 of the 4 scored
    systems have human judgments"), though its system scores are all there."""
    test_set, scores = sample_with()
    da = read_human_for(test_set, DA, "da_sys.tsv").scores
    test_set = test_set.with_human(HumanScores.concat([test_set.human, da]))
    result = evaluate(test_set, scores, "DA")
    assert result.human.scores == {
        "neural-large": 0.4,
        "neural-small": 0.1,
        "phrase-based": 0.2,
        "word-by-word": -0.6,
    }
    assert evaluate(test_set, scores, "adequacy").human.scores == (
        evaluate(load_sample().test_set, scores, "adequacy").human.scores
    )


def test_system_level_judgments_get_the_intervals_of_mteval_correlate():
    test_set, scores = sample_with(DA)
    result = evaluate_and_compare(test_set, scores, bootstrap=BOOTSTRAP)
    assert result.resampled_units == "systems" and result.system_resamples == BOOTSTRAP
    corpus = scores.corpus()
    signs = {m.name: 1 if m.higher_is_better else -1 for m in scores.metrics}
    tables = {
        metric: {system: signs[metric] * corpus[system][metric] for system in scores.systems}
        for metric in METRICS
    }
    expected = correlate_tables(result.human.scores, tables, bootstrap=BOOTSTRAP)
    for metric in METRICS:
        assert result.correlations[metric] == expected[metric], metric
        assert result.correlations[metric].pearson_ci is not None
    assert result.correlations["ter"].pearson > 0  # TER turned round: higher is better
    assert "system_resamples" not in result.to_dict() and "comparisons" not in result.to_dict()


def test_system_resamples_compare_every_two_metrics():
    test_set, scores = sample_with(DA)
    result = evaluate_and_compare(test_set, scores, bootstrap=BOOTSTRAP)
    comparisons = result.metric_comparisons
    assert len(comparisons) == math.comb(len(METRICS), 2)
    first = comparisons[0]
    assert (first.a, first.b) == ("bleu", "nist")
    r_ab = np.corrcoef(result.metric_scores["bleu"], result.metric_scores["nist"])[0, 1]
    expected = williams_test(first.pearson_a, first.pearson_b, r_ab, 4)
    assert first.williams_p_a_better == pytest.approx(expected)
    assert first.pearson_a == pytest.approx(result.correlations["bleu"].pearson)
    shares = [c.share_a_better for c in comparisons if c.share_a_better is not None]
    assert shares and all(0 <= share <= 1 for share in shares)


def test_without_resamples_every_two_metrics_still_get_williams_test():
    for human in (DA, None):  # system-level and segment-level judgments
        test_set, scores = sample_with(human)
        result = evaluate_and_compare(test_set, scores)
        assert result.resampled_units is None
        assert len(result.metric_comparisons) == math.comb(len(METRICS), 2)
        for comparison in result.metric_comparisons:
            assert comparison.share_a_better is None
            why = comparison.undefined["share_a_better"]
            assert why == NO_RESAMPLES or why.startswith("the Pearson correlation of")
        assert any(c.williams_p_a_better is not None for c in result.metric_comparisons)


def test_segment_level_judgments_are_evaluate_itself():
    test_set, scores = sample_with()
    for rated_only in (False, True):
        result = evaluate_and_compare(test_set, scores, None, (), rated_only, BOOTSTRAP)
        plain = evaluate(test_set, scores, None, (), rated_only, BOOTSTRAP)
        assert result.to_dict() == plain.to_dict()
        assert result.resampled_units == "segments"
        assert result.metric_comparisons == plain.resampled.agreement.metric_comparisons


def test_rated_segments_only_changes_the_scores_of_partly_rated_systems():
    test_set, scores = sample_with()
    rows = test_set.human.segment_rows
    test_set = test_set.with_human(HumanScores(rows[rows["segment"] <= 20], rows.iloc[:0]))
    every = evaluate_and_compare(test_set, scores, "adequacy")
    rated = evaluate_and_compare(test_set, scores, "adequacy", rated_only=True)
    assert not np.allclose(every.metric_scores["bleu"], rated.metric_scores["bleu"])
    assert every.human.scores == rated.human.scores


def test_one_metric_against_the_others_is_always_a():
    comparison = MetricComparison(
        "bleu", "chrf", 0.8, None, None, 0.01, {"pearson_b": "constant metric scores"}
    )
    back = turned(comparison)
    assert (back.a, back.b, back.pearson_a, back.pearson_b) == ("chrf", "bleu", None, 0.8)
    assert back.williams_p_a_better == pytest.approx(0.99)
    assert back.undefined == {"pearson_a": "constant metric scores"}
    again = turned(back)
    assert (again.a, again.b, again.undefined) == ("bleu", "chrf", comparison.undefined)
    assert again.williams_p_a_better == pytest.approx(0.01)
    test_set, scores = sample_with(DA)
    result = evaluate_and_compare(test_set, scores, bootstrap=BOOTSTRAP)
    against_nist = result.compared_with("nist")
    assert [c.b for c in against_nist] == [m for m in METRICS if m != "nist"]
    assert all(c.a == "nist" for c in against_nist)
    bleu = next(c for c in result.metric_comparisons if (c.a, c.b) == ("bleu", "nist"))
    nist = against_nist[0]
    assert nist.share_a_better == pytest.approx(1 - bleu.share_a_better)
    assert nist.williams_p_a_better == pytest.approx(1 - bleu.williams_p_a_better)


def test_williams_p_of_the_other_side_is_one_minus_p():
    for r12, r13, r23 in ((0.9, 0.7, 0.5), (0.2, 0.6, -0.3), (0.95, 0.94, 0.99)):
        assert williams_test(r13, r12, r23, 12) == pytest.approx(
            1 - williams_test(r12, r13, r23, 12)
        )


def test_the_pairs_of_one_system():
    test_set, scores = sample_with(DA)
    view = evaluate(test_set, scores).against_human("bleu")
    mask = view.pairs_with("phrase-based")
    chosen = [label for label, m in zip(view.pair_labels, mask) if m]
    assert chosen == [
        "neural-large − phrase-based",
        "neural-small − phrase-based",
        "phrase-based − word-by-word",
    ]
    assert not view.pairs_with("no such system").any()
