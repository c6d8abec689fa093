"""Issue 42: "a one-segment test set makes both significance tests call every pair significant
(p = 1/(N+1)), with no note". On fewer than MIN_PAIRED_SEGMENTS segments the paired bootstrap and
approximate randomization give no p-value, with the reason; on one segment the bootstrap gives no
interval either. Built on WMT17 en-de's first segments (16 systems)."""

from __future__ import annotations

import html
import json
from itertools import product

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.io import read_human_for
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options
from mteval_core.stats.approximate_randomization import (
    RandomizationOptions,
    approximate_randomization,
)
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.meta import evaluate
from mteval_core.stats.significance import (
    MIN_PAIRED_SEGMENTS,
    ONE_SEGMENT,
    SIGNIFICANCE_LEVEL,
    bootstrap_scores,
    fewest_paired_segments,
    why_no_paired_test,
)

METRICS = ["bleu", "chrf", "ter"]


def first_segments(test_set: TestSet, n: int) -> TestSet:
    """``test_set`` cut to its first ``n`` segments."""

    def cut(column: TextColumn) -> TextColumn:
        return TextColumn(column.name, column.segments[:n], column.origin)

    return TestSet(
        references=[cut(c) for c in test_set.references],
        systems=[cut(c) for c in test_set.systems],
    )


def write_texts(test_set: TestSet, folder, systems: int) -> list[str]:
    """The reference and the first ``systems`` outputs as plain text files: their paths."""
    files = []
    for column in [*test_set.references, *test_set.systems[:systems]]:
        path = folder / f"{column.name}.de"
        path.write_text("\n".join(column.segments) + "\n", encoding="utf-8")
        files.append(str(path))
    return files


def test_six_segments_are_the_fewest_with_which_a_pair_can_differ():
    assert MIN_PAIRED_SEGMENTS == fewest_paired_segments(SIGNIFICANCE_LEVEL) == 6
    assert 2 / 2**5 >= SIGNIFICANCE_LEVEL > 2 / 2**6
    assert fewest_paired_segments(0.01) == 8  # 2/128 = 0.016, 2/256 = 0.008
    assert why_no_paired_test(6) is None
    assert why_no_paired_test(5) == (
        "5 segments, fewer than the 6 a paired test needs: of the 32 ways to give each "
        "segment's two outputs to the two systems, 2 always give the observed difference, so "
        "no p-value below 2/32 = 0.0625 means anything"
    )
    assert why_no_paired_test(1).startswith("1 segment, fewer than the 6")


@pytest.mark.parametrize("n_segments", [1, 2, 3, 5, 6, 7])
def test_the_exact_randomization_p_value_is_never_below_two_in_two_to_the_n(n_segments):
    """The reason's arithmetic, checked by enumerating every swap: whatever the segments'
    differences, the exact p-value (the share of the 2^n swaps whose |difference| reaches the
    observed one) is at least 2 / 2^n, reached when no other swap does."""
    rng = np.random.default_rng(n_segments)
    for _ in range(50):
        differences = rng.normal(1.0, 1.0, n_segments)  # a's minus b's, per segment
        swaps = np.array(list(product([1, -1], repeat=n_segments)))
        moved = np.abs(swaps @ differences)
        exact = np.mean(moved >= abs(differences.sum()) - 1e-12)
        assert exact >= 2 / 2**n_segments - 1e-12
    uniform = np.abs(swaps @ np.ones(n_segments))  # every segment favours a alike
    assert np.mean(uniform >= n_segments) == 2 / 2**n_segments


@pytest.fixture(scope="module")
def wmt17_scores(wmt17):
    """WMT17 en-de on its first 1, 5 and 6 segments, BLEU, chrF and TER."""
    return {n: score_test_set(first_segments(wmt17, n), METRICS, Options()) for n in (1, 5, 6)}


def test_one_segment_has_no_interval_and_no_p_value(wmt17_scores):
    """Before: every resample was the segment itself, every interval [score, score] and every
    pair p = 1/1001 ("significant"), for 120 pairs x 3 metrics."""
    scores = wmt17_scores[1]
    result = bootstrap_scores(scores, BootstrapOptions(1000))
    assert result.samples == {} and all(by_metric == {} for by_metric in result.ci.values())
    assert result.undefined == dict.fromkeys(METRICS, ONE_SEGMENT)
    assert len(result.pairs) == 3 * 120
    reason = why_no_paired_test(1)
    for pair in result.pairs:
        assert pair.p is None and pair.p_holm is None and not pair.significant
        assert pair.undefined == {"p": reason, "p_holm": reason}
    corpus = scores.corpus()
    first = result.pairs[0]
    assert first.delta == corpus[first.a][first.metric] - corpus[first.b][first.metric]
    report = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert report["pairs"][0]["p"] is None and report["pairs"][0]["undefined"]["p"] == reason
    assert report["undefined"] == dict.fromkeys(METRICS, ONE_SEGMENT)


def test_five_segments_have_intervals_but_no_p_value(wmt17_scores):
    result = bootstrap_scores(wmt17_scores[5], BootstrapOptions(1000))
    assert set(result.samples) == set(METRICS) and not result.undefined
    assert all(pair.p is None for pair in result.pairs)
    assert {pair.undefined["p"] for pair in result.pairs} == {why_no_paired_test(5)}


def test_six_segments_have_p_values(wmt17_scores):
    result = bootstrap_scores(wmt17_scores[6], BootstrapOptions(1000))
    assert all(pair.p is not None and pair.undefined == {} for pair in result.pairs)
    # before Holm's correction over 120 pairs, 6 segments can show a difference
    assert any(pair.p < SIGNIFICANCE_LEVEL for pair in result.pairs)


@pytest.mark.parametrize("n_segments", [1, 5])
def test_approximate_randomization_on_too_few_segments_has_no_p_value(wmt17_scores, n_segments):
    """Before: on one segment every trial's |difference| is the observed one, which the strict
    > never counts: p = 1/10001 for every pair that differs at all."""
    result = approximate_randomization(wmt17_scores[n_segments], RandomizationOptions(10_000))
    reason = why_no_paired_test(n_segments)
    assert result.clusters == {} and result.undefined == dict.fromkeys(METRICS, reason)
    assert len(result.pairs) == 3 * 120
    assert all(pair.p is None and pair.undefined["p"] == reason for pair in result.pairs)
    assert json.loads(json.dumps(result.to_dict()))["pairs"][0]["p_holm"] is None


def test_approximate_randomization_on_six_segments_tests_and_clusters(wmt17_scores):
    result = approximate_randomization(wmt17_scores[6], RandomizationOptions(10_000))
    assert set(result.clusters) == set(METRICS) and not result.undefined
    assert all(pair.p is not None for pair in result.pairs)


def test_the_command_line_says_why_in_text_and_json(wmt17, tmp_path, capsys):
    """`mteval score` on a one-segment test set, both tests: null p-values with the reason in
    the JSON, a line with the reason in the text, never "120 of 120 pairs differ"."""
    files = write_texts(first_segments(wmt17, 1), tmp_path, systems=3)
    argv = ["score", "--refs", files[0], "--hyps", *files[1:], "--metrics", "bleu"]
    argv += ["--bootstrap", "1000", "--paired-ar", "1000"]
    assert main([*argv, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    reason = why_no_paired_test(1)
    assert [pair["p"] for pair in report["pairs"]] == [None, None, None]
    assert report["pairs"][0]["undefined"] == {"p": reason, "p_holm": reason}
    assert report["undefined"] == {"bleu": ONE_SEGMENT}
    assert all(by_metric == {} for by_metric in report["ci"].values())
    assert report["paired_ar"]["undefined"] == {"bleu": reason}
    assert report["paired_ar"]["clusters"] == {}
    assert main([*argv, "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert f"paired bootstrap: p-values undefined ({reason})" in text
    assert f"undefined for bleu: {ONE_SEGMENT}" in text
    assert "trials, seed 12345): p-values undefined (1 segment, fewer than the 6" in text
    assert "differ at p <" not in text


def test_the_html_report_says_why_it_has_no_clusters(wmt17, tmp_path, capsys):
    """`mteval report` on five segments: no significance clusters, the reason for each metric."""
    files = write_texts(first_segments(wmt17, 5), tmp_path, systems=3)
    argv = ["report", "--refs", files[0], "--hyps", *files[1:], "--metrics", "bleu,chrf"]
    assert main(argv) == 0
    page = capsys.readouterr().out
    reason = html.escape(why_no_paired_test(5))
    assert f"<p>BLEU: no paired test ({reason}).</p>" in page
    assert f"<p>chrF: no paired test ({reason}).</p>" in page
    assert "<h3>" not in page.split("<h2>Significance clusters</h2>")[1].split("<h2>")[0]


def test_one_segment_with_human_judgments_has_no_correlation_interval(wmt17):
    """The correlations over systems keep their values; their intervals are null with the
    reason (before: left out without one)."""
    one = first_segments(wmt17, 1)
    rows = "".join(f"{s},1,{k}\n" for k, s in enumerate(one.system_names[:6]))
    human = read_human_for(one, f"system,segment_id,score\n{rows}".encode(), "human.csv").scores
    judged = one.with_human(human)
    scores = score_test_set(judged, ["bleu"], Options())
    bleu = evaluate(judged, scores, bootstrap=BootstrapOptions(1000)).correlations["bleu"]
    assert bleu.n == 6 and bleu.pearson is not None
    assert bleu.pearson_ci is None and bleu.undefined["pearson_ci"] == ONE_SEGMENT
