"""`mteval report`'s comparison (and the dashboard's report download) reads the text as its
scores read it (issue 42): on WMT23 en-zh as released, scored with zh, the comparison's BLEU of
the two best systems is the scores' BLEU; compare-mt's reading is asked for by name."""

from __future__ import annotations

from mteval_core.compare.readings import COMPARE_MT
from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.evaluation_html import evaluation_html
from mteval_core.report.evaluation_report import ReportRequest, evaluation_report
from mteval_core.settings.options import Options
from tests.wmt23_general import SYSTEMS, wmt23_pair


def test_the_comparison_of_the_two_best_has_the_scores_bleu():
    test_set = wmt23_pair("en-zh").test_set(SYSTEMS["en-zh"])
    options = Options(tokenize="zh")
    scores = score_test_set(test_set, ["bleu"], options)
    report = evaluation_report(test_set, scores, options)
    comparison = report.comparison
    assert comparison is not None and comparison.notes == ()
    corpus = scores.corpus()
    bleu = comparison.analysis("scores").values[:, 0, 0].tolist()
    assert bleu == [corpus[system]["bleu"] for system in comparison.systems]
    assert "tok:zh" in comparison.signature


def test_compare_mts_reading_in_the_report_carries_its_note():
    test_set = wmt23_pair("en-zh").test_set(SYSTEMS["en-zh"])
    options = Options(tokenize="zh")
    scores = score_test_set(test_set, ["bleu"], options)
    report = evaluation_report(test_set, scores, options, ReportRequest(reading=COMPARE_MT))
    assert report.comparison is not None
    (note,) = report.comparison.notes
    html = evaluation_html(report)
    assert "not split into words" in note and "<strong>Note:</strong>" in html
