"""WMT25 task 2's scoring_esa.py as the oracle: its numbers, pinned by
scripts/wmt25_task2_oracle.py, equal ours bit for bit on its own file layout (synthetic spans
with emoji, combining marks, quotes, overlaps, missing and undecided errors) and on Google's
released WMT23 zh-en MQM ratings, first rater against second."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mteval_core.spans.agreement import agreement, paired
from mteval_core.spans.character_scores import PrecisionRecall
from mteval_core.spans.task2_tsv import read_task2_spans

FIXTURES = Path(__file__).parent / "fixtures"
PINNED = json.loads((FIXTURES / "wmt25_task2_oracle.json").read_text(encoding="utf-8"))
SYNTHETIC = FIXTURES / "wmt25_task2"


def synthetic_pairs():
    gold = read_task2_spans((SYNTHETIC / "ref" / "task2_refs.tsv").read_bytes(), "task2_refs.tsv")
    predicted = read_task2_spans(
        (SYNTHETIC / "res" / "predictions.tsv").read_bytes(), "predictions.tsv"
    )
    return paired(gold, predicted)


@pytest.mark.parametrize("credit", ["0.5", "0.0", "1.0"])
def test_every_language_pair_equals_the_script(credit):
    pairs, notes = synthetic_pairs()
    assert notes == []
    result = agreement(pairs, "gold", "predicted", partial_credit=float(credit))
    ours = {
        g.name: [g.characters.precision, g.characters.recall, g.characters.f1]
        for g in result.groups
    }
    theirs = {pair: scores[credit] for pair, scores in PINNED["synthetic"]["pairs"].items()}
    if credit == "0.5":
        assert ours == theirs  # every term a multiple of 0.5: exact
    else:
        assert ours.keys() == theirs.keys()
        for pair in ours:
            assert ours[pair] == pytest.approx(theirs[pair], rel=1e-12)


def test_the_printed_lines_and_the_swap_of_the_last_two():
    """scores.txt as the script printed it: per pair right, the average's rec and prec swapped."""
    pairs, _ = synthetic_pairs()
    result = agreement(pairs, "gold", "predicted")
    printed = dict(
        line.split(": ") for line in PINNED["synthetic"]["scores_txt"].strip().split("\n")
    )
    for group in result.groups:
        name = group.name.replace("-", "")
        assert printed[f"{name}_prec"] == f"{group.characters.precision:.4}"
        assert printed[f"{name}_rec"] == f"{group.characters.recall:.4}"
        assert printed[f"{name}_f1"] == f"{group.characters.f1:.4}"
    average = result.wmt25_average
    assert printed["avg_f1"] == f"{average.f1:.4}"
    assert printed["avg_rec"] == f"{average.precision:.4}"  # the script's label swap
    assert printed["avg_prec"] == f"{average.recall:.4}"
    assert average.precision != pytest.approx(average.recall)  # the swap is visible here


def test_the_average_is_the_mean_of_the_pairs():
    pairs, _ = synthetic_pairs()
    result = agreement(pairs, "gold", "predicted")
    assert result.wmt25_average == PrecisionRecall.mean([g.characters for g in result.groups])
    assert result.pooled.characters != result.wmt25_average  # pooled is another figure


def test_google_wmt23_zhen_first_rater_against_second_equals_the_script(wmt23_zhen_mqm):
    spans = wmt23_zhen_mqm.spans
    pairs, notes = paired(spans, spans, "#1", "#2")
    pinned = PINNED["wmt23_zhen_mqm"]
    assert len(pairs) == pinned["items"] == 3770
    result = agreement(pairs, "#1", "#2")
    scores = result.pooled.characters
    assert [scores.precision, scores.recall, scores.f1] == pinned["pairs"]["zh-en"]["0.5"]
    assert re.search(r"42 translations have their target with other white space", notes[0])
    assert "59 rows give their rating's target with other white space" in spans.notes[1]
