"""`mteval loss`: the JSON shape, the text table, and user errors as InputError."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from mteval_core.cli.loss import add_command as add_loss_command
from mteval_core.cli.loss import run as run_loss
from mteval_core.errors import InputError

LOSS_DATA = Path(__file__).resolve().parents[2] / "sample_data" / "loss"
OVERALL = str(LOSS_DATA / "tate-voss-2006-table2-table4-rates.csv")
BY_WH = str(LOSS_DATA / "tate-voss-2006-table3-table8-rates-by-wh.csv")


def run(*argv: str) -> str:
    parser = argparse.ArgumentParser(prog="mteval")
    add_loss_command(parser.add_subparsers())
    args = parser.parse_args(["loss", *argv])
    assert args.run is run_loss
    return args.run(args)


def test_json_shape_without_by():
    result = json.loads(run("--input", OVERALL, "--format", "json"))
    assert list(result) == ["costs", "loss", "ranking"]
    assert result["costs"] == [5.0, 2.0, 1.0]
    assert list(result["loss"]) == ["all"] and list(result["ranking"]) == ["all"]
    assert {s: round(v, 2) for s, v in result["loss"]["all"].items()} == {
        "MT1": -12.28,
        "MT2": -17.20,
        "MT3": -14.62,
    }
    assert result["ranking"]["all"] == ["MT2", "MT3", "MT1"]


def test_json_by_category():
    result = json.loads(
        run("--input", BY_WH, "--by", "wh", "--costs", "5,5,5.5", "--format", "json")
    )
    assert result["costs"] == [5.0, 5.0, 5.5]
    assert list(result["loss"]) == ["When", "Where", "Who"]
    assert all(isinstance(v, float) for group in result["loss"].values() for v in group.values())
    assert result["ranking"]["Who"] == ["MT2", "MT1", "MT3"]
    assert result["ranking"]["When"] == ["MT2", "MT3", "MT1"]


def test_text_is_a_table_per_group_with_the_ranking():
    text = run("--input", BY_WH, "--by", "wh", "--costs", "5,5,5.5")
    assert "(-c1, c2, c3) = (-5, 5, 5.5)" in text
    assert "wh = Who" in text
    assert "  MT1         -5.57" in text
    assert "  ranking: MT2 > MT1 > MT3" in text


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--input", OVERALL, "--costs", "5,2"], "costs need three numbers"),
        (["--input", OVERALL, "--costs", "5,x,1"], "--costs '5,x,1' is not three numbers"),
        (["--input", OVERALL, "--costs", "5,-2,1"], "costs must be numbers >= 0"),
        (["--input", OVERALL, "--costs", "0,0,0"], "not all zero"),
        (["--input", OVERALL, "--by", "wh"], "no category column 'wh'"),
        (["--input", BY_WH], r"rates cannot be pooled.*Add --by wh"),
        (["--input", "missing.csv"], "missing.csv: the file does not exist"),
    ],
)
def test_user_errors(argv, expected):
    with pytest.raises(InputError, match=expected):
        run(*argv)
