"""`mteval score --human/--bootstrap` and `mteval correlate` on the sample data."""

from __future__ import annotations

import json

import pytest

from mteval_core.cli import main
from tests.helpers import SAMPLE_DATA

BASE = [
    "score",
    "--refs",
    str(SAMPLE_DATA / "ref" / "ref-A.en"),
    str(SAMPLE_DATA / "ref" / "ref-B.en"),
    "--hyps",
    *sorted(str(p) for p in (SAMPLE_DATA / "sys").iterdir()),
    "--human",
    str(SAMPLE_DATA / "human" / "judgments.tsv"),
]


SEEDED_JSON = ["--metrics", "bleu,fmean", "--bootstrap", "200", "--seed", "4", "--format", "json"]


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_human_bootstrap_json(capsys):
    code, out, _ = run(capsys, *BASE, *SEEDED_JSON)
    assert code == 0
    result = json.loads(out)
    assert result["human"]["criterion"] == "adequacy+fluency"
    assert result["human"]["scores"]["neural-large"] == pytest.approx(4.9 + 4.8125)
    expected = {"pearson", "spearman", "kendall", "n", "pearson_ci", "differential_pearson"}
    assert set(result["correlations"]["bleu"]) >= expected
    assert len(result["pairs"]) == 2 * 6
    assert set(result["ci"]["word-by-word"]) == {"bleu", "fmean"}
    assert result["metric_comparisons"][0]["a"] == "bleu"
    low, high = result["human"]["ci"]["neural-small"]
    assert low < result["human"]["scores"]["neural-small"] < high
    _, again, _ = run(capsys, *BASE, *SEEDED_JSON)
    assert again == out  # same seed, same output


def test_criterion_exclude_and_direction(capsys):
    _, out, _ = run(
        capsys,
        *BASE,
        "--metrics",
        "bleu",
        "--criterion",
        "fluency",
        "--exclude",
        "word-by-word",
        "--format",
        "json",
    )
    result = json.loads(out)
    assert result["correlations"]["bleu"]["n"] == 3
    assert "word-by-word" not in result["human"]["scores"]
    _, out, _ = run(
        capsys, *BASE, "--metrics", "bleu", "--human-lower-is-better", "--format", "json"
    )
    assert json.loads(out)["correlations"]["bleu"]["pearson"] < -0.9
    code, _, err = run(capsys, *BASE, "--criterion", "beauty")
    assert code == 2 and "no human judgments for the criterion 'beauty'" in err


def test_text_output_and_small_resample_note(capsys):
    _, out, _ = run(capsys, *BASE, "--metrics", "bleu,recall", "--bootstrap", "20")
    assert "correlation with human adequacy+fluency:" in out
    assert "smallest possible p-value" in out


def test_correlate_tables(tmp_path, capsys):
    (tmp_path / "human.csv").write_text("system,DA\na,0.1\nb,0.5\nc,0.2\nd,0.9\n")
    (tmp_path / "metrics.tsv").write_text(
        "system\tBLEU\tchrF\na\t20\t50\nb\t25\t52\nc\t22\t49\nd\t30\t60\n"
    )
    tables = ["--human", str(tmp_path / "human.csv"), "--metrics", str(tmp_path / "metrics.tsv")]
    code, out, _ = run(capsys, "correlate", *tables, "--bootstrap", "100", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["BLEU"]["spearman"] == 1.0 and result["BLEU"]["n"] == 4
    assert len(result["chrF"]["pearson_ci"]) == 2
    # two systems left: every statistic is undefined, with the reason, not a refused run
    code, out, _ = run(capsys, "correlate", *tables, "--exclude", "a", "b", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["BLEU"]["pearson"] is None and result["BLEU"]["undefined"]["pearson"] == "n < 3"
    code, _, err = run(capsys, "correlate", *tables, "--exclude", "a", "b", "c", "d")
    assert code == 2 and "shares no system with the human scores" in err
