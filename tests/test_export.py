"""Score writers: every format carries the signature and every digit where machines read it."""

from __future__ import annotations

import csv
import io
import json

from mteval_core.config import Options
from mteval_core.export import latex_escape, to_csv, to_json, to_latex, to_text
from mteval_core.scoring import score_test_set
from tests.conftest import make_test_set


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
