"""Issue #26: intervals of a metric with system scores only (an external metric read from
``system, score`` rows) are undefined: the table and the writers of the dashboard's downloads say
so, where they used to fail on the missing interval."""

from __future__ import annotations

import csv
import io

import numpy as np

from mteval_core.metrics.external import ExternalMetric
from mteval_core.metrics.scoring import Scores, score_test_set
from mteval_core.report.frames import scores_frame
from mteval_core.report.writers import to_csv, to_latex
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import bootstrap_scores
from tests.helpers import make_test_set

SYSTEMS = {"good": ["a b c d", "e f g"], "bad": ["a x", "e"]}


def scores_with_a_system_level_metric() -> Scores:
    test_set = make_test_set(["a b c d", "e f g"], SYSTEMS)
    comet = ExternalMetric(
        "comet_x",
        higher_is_better=True,
        origin="comet_sys.csv",
        n_segments=2,
        system_scores={"good": 0.75, "bad": 0.5},
    )
    return score_test_set(test_set, ["bleu"], Options(), external=[comet])


def intervals(scores: Scores) -> dict[str, dict[str, tuple[float, float]]]:
    return bootstrap_scores(scores, BootstrapOptions(n_resamples=20)).ci


def test_the_table_says_undefined_where_a_metric_has_no_interval():
    scores = scores_with_a_system_level_metric()
    ci = intervals(scores)
    table = scores_frame(scores, ci)
    assert table["comet_x"].to_dict() == {"good": 0.75, "bad": 0.5}
    assert list(table["comet_x low"]) == list(table["comet_x high"]) == ["undefined"] * 2
    assert table["BLEU low"].to_dict() == {system: ci[system]["bleu"][0] for system in SYSTEMS}
    assert np.issubdtype(table["BLEU high"].dtype, np.floating)  # still numbers, still sortable


def test_the_csv_leaves_the_missing_interval_empty():
    scores = scores_with_a_system_level_metric()
    ci = intervals(scores)
    rows = list(csv.DictReader(io.StringIO(to_csv(scores, ci=ci))))
    assert [(row["comet_x"], row["comet_x_low"], row["comet_x_high"]) for row in rows] == [
        ("0.75", "", ""),
        ("0.5", "", ""),
    ]
    assert float(rows[0]["bleu_low"]) == ci["good"]["bleu"][0]
    labelled = next(csv.DictReader(io.StringIO(to_csv(scores, ci=ci, labelled=True))))
    assert labelled["comet_x low"] == "" and float(labelled["BLEU high"]) == ci["good"]["bleu"][1]


def test_latex_says_undefined_and_why():
    scores = scores_with_a_system_level_metric()
    latex = to_latex(scores, intervals(scores))
    assert latex.count(r"{\scriptsize undefined}") == 2  # one per system
    assert r"Intervals undefined for comet\_x: comet\_x has system-level scores only" in latex
    assert "(comet\\_sys.csv)" in latex
