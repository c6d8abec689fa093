"""Score writers: every format carries the signature and every digit where machines read it."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.writers import latex_escape, to_csv, to_json, to_latex, to_text
from mteval_core.settings.options import Options
from tests.helpers import make_test_set


def sample_scores():
    test_set = make_test_set(
        ["a b c d e", "f g h"], {"sys_1 & co": ["a b c d x", "f g"], "50%": ["a", "h"]}
    )
    return score_test_set(test_set, ["bleu", "fmean"], Options())


def test_json_round_trips_exact_floats():
    scores = sample_scores()
    document = json.loads(to_json(scores, segments=True))
    assert document["signature"] == scores.signature
    corpus = scores.corpus()
    assert document["scores"] == corpus
    assert document["segments"]["50%"]["fmean"] == scores.segments()["50%"]["fmean"].tolist()


def test_csv_keeps_every_digit_and_the_signature():
    scores = sample_scores()
    rows = list(csv.DictReader(io.StringIO(to_csv(scores))))
    assert [r["system"] for r in rows] == ["sys_1 & co", "50%"]
    assert float(rows[0]["bleu"]) == scores.corpus()["sys_1 & co"]["bleu"]
    assert {r["signature"] for r in rows} == {scores.signature}


def test_latex_escapes_names_and_bolds_the_best():
    assert latex_escape("a_b & 50% #1 {x} ~^\\") == (
        r"a\_b \& 50\% \#1 \{x\} \textasciitilde{}\textasciicircum{}\textbackslash{}"
    )
    latex = to_latex(sample_scores())
    assert r"sys\_1 \& co" in latex and r"50\%" in latex
    assert latex.count(r"\textbf{") == 2  # one best value per metric
    assert "Signature: \\texttt{nrefs:1" in latex


def test_text_table_is_aligned():
    lines = to_text(sample_scores()).splitlines()
    assert lines[0].split() == ["system", "BLEU", "Fmean"]
    assert len({len(line) for line in lines[:3]}) == 1


def sample_intervals(scores) -> dict[str, dict[str, list[float]]]:
    """Made-up [low, high] around each score: exact numbers to find again in the output."""
    return {
        system: {metric: [value - 1.5, value + 2.25] for metric, value in by_metric.items()}
        for system, by_metric in scores.corpus().items()
    }


def test_csv_without_intervals_keeps_its_columns():
    header = next(csv.reader(io.StringIO(to_csv(sample_scores()))))
    assert header == ["system", "bleu", "fmean", "signature"]


def test_csv_intervals_follow_the_scores_and_the_signature_stays_last():
    scores = sample_scores()
    ci = sample_intervals(scores)
    text = to_csv(scores, ci=ci)
    assert next(csv.reader(io.StringIO(text))) == [
        "system",
        "bleu",
        "fmean",
        "bleu_low",
        "bleu_high",
        "fmean_low",
        "fmean_high",
        "signature",
    ]
    rows = list(csv.DictReader(io.StringIO(text)))
    for row in rows:
        for metric in ("bleu", "fmean"):
            assert float(row[metric]) == scores.corpus()[row["system"]][metric]
            low, high = ci[row["system"]][metric]
            assert (float(row[f"{metric}_low"]), float(row[f"{metric}_high"])) == (low, high)
    assert {r["signature"] for r in rows} == {scores.signature}


def test_csv_refuses_intervals_for_segment_rows():
    scores = sample_scores()
    with pytest.raises(ValueError, match="corpus scores"):
        to_csv(scores, segments=True, ci=sample_intervals(scores))


def test_json_carries_intervals_and_pairs_as_given():
    scores = sample_scores()
    ci = sample_intervals(scores)
    pairs = [
        {"a": "sys_1 & co", "b": "50%", "metric": "bleu", "delta": 1.0, "p": 0.5, "p_holm": 1.0}
    ]
    document = json.loads(to_json(scores, extra={"ci": ci, "pairs": pairs}))
    assert document["ci"] == ci and document["pairs"] == pairs
    assert document["signature"] == scores.signature


def test_latex_puts_each_systems_intervals_on_a_row_below_its_scores():
    scores = sample_scores()
    ci = sample_intervals(scores)
    lines = to_latex(scores, ci).splitlines()
    corpus = scores.corpus()
    row = next(i for i, line in enumerate(lines) if line.startswith(r"50\%"))
    bleu_low, bleu_high = ci["50%"]["bleu"]
    fmean_low, fmean_high = ci["50%"]["fmean"]
    assert lines[row + 1] == (
        rf" & {{\scriptsize [{bleu_low:.2f}, {bleu_high:.2f}]}}"
        rf" & {{\scriptsize [{fmean_low:.4f}, {fmean_high:.4f}]}} \\"
    )
    assert f"{corpus['50%']['fmean']:.4f}" in lines[row]
    latex = "\n".join(lines)
    assert latex.count(r"\textbf{") == 2 and "bootstrap confidence interval" in latex
    assert "bootstrap" not in to_latex(scores)


def test_json_writes_null_for_undefined_and_never_nan():
    scores = sample_scores()
    undefined = {"pearson": None, "undefined": {"pearson": "constant human scores"}}
    document = json.loads(to_json(scores, extra={"correlations": {"bleu": undefined}}))
    assert document["correlations"]["bleu"] == undefined
    with pytest.raises(ValueError, match="not JSON compliant"):
        to_json(scores, extra={"correlations": {"bleu": {"pearson": float("nan")}}})
