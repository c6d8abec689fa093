"""`mteval spans`: WMT25 task 2's numbers as its script prints them (labels right), two raters
of one MQM file, ESA scores for error-free and critical-error detection, and bad input."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from mteval_core.cli import main
from tests.helpers import shared_dataset

FIXTURES = Path(__file__).parents[1] / "spans" / "fixtures"
TASK2 = FIXTURES / "wmt25_task2"
PINNED = json.loads((FIXTURES / "wmt25_task2_oracle.json").read_text(encoding="utf-8"))


def spans(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["spans", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_shows_the_scripts_numbers_under_their_right_names(capsys):
    code, out, err = spans(
        capsys,
        "--gold",
        str(TASK2 / "ref" / "task2_refs.tsv"),
        "--predicted",
        str(TASK2 / "res" / "predictions.tsv"),
    )
    assert code == 0
    printed = dict(
        line.split(": ") for line in PINNED["synthetic"]["scores_txt"].split("\n") if line
    )
    recall_as_printed = f"{float(printed['avg_prec']):.4f}"  # the script's swap
    precision_as_printed = f"{float(printed['avg_rec']):.4f}"
    assert (
        f"precision {precision_as_printed}, recall {recall_as_printed}, F1 "
        f"{float(printed['avg_f1']):.4f}" in out
    )
    assert "scoring_esa.py prints this precision as avg_rec" in out
    assert "12 of set 'testsuite' left out" in err


def test_json_per_language_pair_equals_the_script(capsys):
    code, out, _ = spans(
        capsys,
        "--gold",
        str(TASK2 / "ref" / "task2_refs.tsv"),
        "--predicted",
        str(TASK2 / "res" / "predictions.tsv"),
        "--format",
        "json",
    )
    assert code == 0
    result = json.loads(out)
    for group in result["spans"]["groups"]:
        scores = group["characters"]
        expected = PINNED["synthetic"]["pairs"][group["name"]]["0.5"]
        assert [scores["precision"], scores["recall"], scores["f1"]] == expected
    assert result["error_free"] is None and result["critical_f1"] is None  # no ESA scores


def test_two_raters_of_google_wmt23_zhen(capsys, tmp_path):
    with tarfile.open(next(shared_dataset("wmt23-zhen-mqm").glob("*.tar.gz"))) as tar:
        member = next(m for m in tar if m.isfile())
        path = tmp_path / "mqm.tsv"
        path.write_bytes(tar.extractfile(member).read())
    code, out, _ = spans(capsys, "--gold", str(path), "--format", "json")
    assert code == 0
    pooled = json.loads(out)["spans"]["pooled"]
    assert pooled["items"] == 3770
    expected = PINNED["wmt23_zhen_mqm"]["pairs"]["zh-en"]["0.5"]
    assert [pooled["characters"][k] for k in ("precision", "recall", "f1")] == expected


ROW = "{who},sysA,{seg},TGT,eng,ces,{score},doc1,False,{spans},1.0,{time}\n"
MINOR_SPAN = '"[{""start_i"":0,""end_i"":3,""severity"":""minor""}]"'


def test_esa_two_annotators_error_free_and_critical(capsys, tmp_path):
    rows = []
    for seg, (first, second) in enumerate([(95, 90), (90, 5), (3, 2), (50, 88), (86, 87)], 1):
        spans_first = "[]" if first >= 85 else MINOR_SPAN
        spans_second = "[]" if second >= 85 else MINOR_SPAN
        rows.append(ROW.format(who="a1", seg=seg, score=first, spans=spans_first, time=seg))
        rows.append(ROW.format(who="a2", seg=seg, score=second, spans=spans_second, time=seg))
    path = tmp_path / "esa.csv"
    path.write_text("".join(rows), encoding="utf-8")
    code, out, _ = spans(capsys, "--gold", str(path), "--format", "json")
    assert code == 0
    result = json.loads(out)
    # gold error-free: segments 1, 2, 5; predicted error-free (no span): 1, 4 and 5
    found = result["error_free"]
    assert (found["true_positives"], found["false_positives"], found["false_negatives"]) == (
        2,
        1,
        1,
    )
    assert result["critical_from"] == "the predicted annotations' own scores"
    assert result["critical_f1"]["en-cs"] == 1.0  # only segment 3 is critical; 2 ranks lowest
    code, out, _ = spans(capsys, "--gold", str(path))
    assert "error-free detection (WMT26 task 3" in out and "MCC" in out


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        ("just text\n", [], "t.txt, line 1: this file holds no error spans that mteval can read"),
        (None, ["--partial-credit", "2"], "--partial-credit 2 is not between 0 and 1"),
        (None, [], "task2_refs.tsv has one annotation, so there is no second one"),
        (
            None,
            ["--gold-annotator", "#3", "--predicted", str(TASK2 / "res" / "predictions.tsv")],
            "no translation has both #3 of",
        ),
    ],
)
def test_bad_input_is_one_line(capsys, tmp_path, content, extra, message):
    path = tmp_path / "t.txt"
    if content is None:
        path = TASK2 / "ref" / "task2_refs.tsv"
    else:
        path.write_text(content, encoding="utf-8")
    code, _, err = spans(capsys, "--gold", str(path), *extra)
    assert code == 2
    assert message in err and "Traceback" not in err
