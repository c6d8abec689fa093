"""Issue 42: "--bootstrap 1 gives no note in JSON". Intervals from fewer resamples than leave
MIN_TAIL_RESAMPLES beyond each bound (1,000 at 95%) say so in every output: `mteval score`'s text
and JSON, `mteval compare`'s text, JSON and HTML, `mteval correlate`'s stderr, and the dashboard's
CSV and LaTeX downloads (the pages: tests/app/test_few_resamples_pages.py)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mteval_core.cli import main
from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.writers import to_csv, to_latex
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import (
    MIN_TAIL_RESAMPLES,
    BootstrapOptions,
    fewest_interval_resamples,
)
from mteval_core.stats.significance import bootstrap_scores
from tests.helpers import SAMPLE_DATA, load_sample

REF = str(SAMPLE_DATA / "ref" / "ref-A.en")
HYPS = sorted(str(p) for p in (SAMPLE_DATA / "sys").glob("*.en"))


def test_a_thousand_resamples_leave_25_beyond_each_bound_of_a_95_percent_interval():
    assert MIN_TAIL_RESAMPLES == 25
    assert fewest_interval_resamples(0.95) == 1000  # 25 / 0.025, whatever the float rounding
    assert fewest_interval_resamples(0.99) == 5000 and fewest_interval_resamples(0.9) == 500
    assert BootstrapOptions(1000).too_few_for_intervals is None
    assert BootstrapOptions(999).too_few_for_intervals is not None
    assert BootstrapOptions(1000, confidence=0.99).too_few_for_intervals is not None
    assert BootstrapOptions(1).too_few_for_intervals == (
        "too few resamples for intervals (1): a 95% interval leaves 2.5% of the resamples beyond "
        "each bound, 0.025 here, and with fewer than 25 the bounds move from seed to seed; 1,000 "
        "resamples or more leave 25"
    )
    assert "5 here" in BootstrapOptions(200).too_few_for_intervals


def score(capsys, *extra: str) -> tuple[str, str]:
    assert main(["score", "--refs", REF, "--hyps", *HYPS, "--metrics", "bleu", *extra]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.mark.parametrize("resamples", [1, 200])
def test_mteval_score_says_so_in_json_and_text(capsys, resamples):
    note = BootstrapOptions(resamples).too_few_for_intervals
    out, _ = score(capsys, "--bootstrap", str(resamples), "--format", "json")
    assert json.loads(out)["bootstrap"]["note"] == note
    out, _ = score(capsys, "--bootstrap", str(resamples))
    assert f"note: {note} (give --bootstrap 1000 or more)" in out


def test_enough_resamples_have_no_note(capsys):
    out, _ = score(capsys, "--bootstrap", "1000", "--format", "json")
    assert "note" not in json.loads(out)["bootstrap"]
    out, _ = score(capsys, "--bootstrap", "1000")
    assert "too few resamples for intervals" not in out


def test_the_dashboards_csv_and_latex_downloads_say_so():
    scores = score_test_set(load_sample().test_set, ["bleu"], Options())
    options = BootstrapOptions(200)
    ci = bootstrap_scores(scores, options).ci
    note = options.too_few_for_intervals
    rows = list(csv.reader(io.StringIO(to_csv(scores, ci=ci, labelled=True, interval_note=note))))
    assert rows[0][-2:] == ["interval note", "signature"]
    assert len(rows) == 1 + len(scores.systems) and {row[-2] for row in rows[1:]} == {note}
    assert "interval_note" in to_csv(scores, ci=ci, interval_note=note).splitlines()[0]
    assert "note" not in to_csv(scores, ci=ci).splitlines()[0]  # 1,000 resamples or more
    assert r"Note: too few resamples for intervals (200): a 95\% interval" in to_latex(
        scores, ci, note
    )


def test_mteval_compare_says_so_in_text_json_and_html(capsys):
    note = BootstrapOptions(100).too_few_for_intervals
    argv = ["compare", "--refs", REF, "--hyps", HYPS[0], HYPS[1], "--bootstrap", "100"]
    outputs = {}
    for form in ("text", "json", "html"):
        assert main([*argv, "--format", form]) == 0
        outputs[form] = capsys.readouterr().out
    assert f"note: {note} (give --bootstrap 1000 or more)" in outputs["text"]
    assert json.loads(outputs["json"])["bootstrap"]["note"] == note
    assert f"<p>Note: {note}.</p>" in outputs["html"]
    assert main([*argv[:-1], "1000", "--format", "html"]) == 0
    assert "too few resamples" not in capsys.readouterr().out


def test_mteval_correlate_says_so_on_stderr(capsys, tmp_path):
    (tmp_path / "human.csv").write_text("system,DA\na,0.1\nb,0.5\nc,0.2\nd,0.9\n")
    (tmp_path / "metrics.tsv").write_text("system\tBLEU\na\t20\nb\t25\nc\t22\nd\t30\n")
    argv = ["correlate", "--human", str(tmp_path / "human.csv")]
    argv += ["--metrics", str(tmp_path / "metrics.tsv"), "--format", "json"]
    assert main([*argv, "--bootstrap", "50"]) == 0
    err = capsys.readouterr().err
    note = BootstrapOptions(50).too_few_for_intervals
    assert err == f"mteval: note: {note} (give --bootstrap 1000 or more)\n"
    assert main([*argv, "--bootstrap", "1000"]) == 0
    assert capsys.readouterr().err == ""
