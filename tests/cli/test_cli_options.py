"""Options that used to be taken silently or to end in an internal error: the number of
resamples, the seed, --exclude, the metric table of `mteval correlate`, and impossible loss
inputs. Each is refused with one line that names the option (or file, line and column)."""

from __future__ import annotations

import json

import pytest

from mteval_core.cli import main
from mteval_core.settings.limits import MAX_RESAMPLES
from mteval_core.stats.bootstrap import BootstrapOptions
from tests.helpers import SAMPLE_DATA

SCORE = [
    "score",
    "--refs",
    str(SAMPLE_DATA / "ref" / "ref-A.en"),
    "--hyps",
    *sorted(str(p) for p in (SAMPLE_DATA / "sys").iterdir()),
    "--metrics",
    "bleu",
]
SYSTEMS = "neural-large, neural-small, phrase-based, word-by-word"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str) -> str:
    """The one line on stderr of a command that must be refused as a user error."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.startswith("mteval: error: ")
    assert err.count("\n") == 1 and "internal error" not in err
    return err


@pytest.fixture
def tables(tmp_path):
    (tmp_path / "human.csv").write_text("system,DA\na,0.1\nb,0.5\nc,0.2\nd,0.9\n")
    (tmp_path / "metrics.tsv").write_text("system\tBLEU\na\t20\nb\t25\nc\t22\nd\t30\n")
    return ["correlate", "--human", str(tmp_path / "human.csv")], tmp_path


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "10000000",
            "argument --bootstrap: 10,000,000 resamples are more than the limit of 20,000 "
            "(1,000 to 10,000 are usual)",
        ),
        (
            "-1",
            "argument --bootstrap: -1 is negative; give 0 (no resampling) or a number of "
            "resamples up to 20,000",
        ),
        ("1e3", "argument --bootstrap: '1e3' is not a whole number"),
    ],
)
def test_resamples_beyond_the_limit_are_refused_before_any_work(capsys, tables, value, message):
    assert MAX_RESAMPLES == 20_000
    err = refused(capsys, *SCORE, "--bootstrap", value)
    assert err == f"mteval: error: {message} (see 'mteval score --help')\n"
    correlate, folder = tables
    err = refused(
        capsys, *correlate, "--metrics", str(folder / "metrics.tsv"), "--bootstrap", value
    )
    assert message in err


def test_the_limit_itself_is_allowed_and_zero_means_no_resampling(capsys, tables):
    correlate, folder = tables
    metrics = ["--metrics", str(folder / "metrics.tsv"), "--format", "json"]
    code, out, _ = run(capsys, *correlate, *metrics, "--bootstrap", str(MAX_RESAMPLES))
    assert code == 0 and json.loads(out)["BLEU"]["pearson_ci"] is not None
    code, out, _ = run(capsys, *SCORE, "--bootstrap", "0", "--format", "json")
    assert code == 0 and set(json.loads(out)) == {"signature", "signatures", "scores"}
    code, out, _ = run(capsys, *SCORE, "--bootstrap", "30", "--seed", "7", "--format", "json")
    note = BootstrapOptions(30, 7).too_few_for_intervals  # 30: fewer than 1,000
    assert json.loads(out)["bootstrap"] == {
        "n_resamples": 30,
        "seed": 7,
        "confidence": 0.95,
        "note": note,
    }


@pytest.mark.parametrize("value", ["-1", str(2**32), "seven"])
def test_seeds_outside_numpy_range_are_refused(capsys, value):
    err = refused(capsys, *SCORE, "--bootstrap", "10", "--seed", value)
    assert err.startswith("mteval: error: argument --seed: ")
    if value != "seven":
        assert f"{value} is not a seed; give a whole number from 0 to 4294967295" in err


def test_the_extreme_seeds_work(capsys):
    for value in ("0", str(2**32 - 1)):
        code, _, err = run(capsys, *SCORE, "--bootstrap", "10", "--seed", value)
        assert code == 0, err


def test_an_unknown_excluded_system_is_named_with_the_known_ones(capsys, tables):
    human = str(SAMPLE_DATA / "human" / "judgments.tsv")
    err = refused(capsys, *SCORE, "--human", human, "--exclude", "word-by-word", "nobody")
    assert err == (
        f"mteval: error: --exclude nobody: there is no system 'nobody'. The systems are: "
        f"{SYSTEMS}.\n"
    )
    correlate, folder = tables
    err = refused(capsys, *correlate, "--metrics", str(folder / "metrics.tsv"), "--exclude", "e")
    assert "--exclude e: there is no system 'e'. The systems are: a, b, c, d." in err


def test_options_of_the_correlations_need_human_judgments(capsys):
    err = refused(capsys, *SCORE, "--exclude", "word-by-word")
    assert err == (
        "mteval: error: --exclude needs --human: it changes only the correlations with human "
        "judgments. Give the judgments with --human FILE, or leave out --exclude.\n"
    )
    err = refused(capsys, *SCORE, "--bootstrap", "10", "--criterion", "x", "--rated-segments-only")
    assert "--criterion, --rated-segments-only need --human: they change only" in err


def test_too_few_resamples_are_said_from_the_floor_not_the_observed_p(capsys):
    _, out, _ = run(capsys, *SCORE, "--bootstrap", "20")
    assert (
        "note: with 20 resamples the smallest possible p-value is 1/21, 0.2857 after Holm's "
        "correction over 6 pairs, so no pair can reach p < 0.05. Use at least 120 resamples "
        "(--bootstrap)."
    ) in out
    _, out, _ = run(capsys, *SCORE, "--bootstrap", "120")
    # 6 / 121 < 0.05: reachable, whatever the pairs' own p-values (the one note left is that
    # 120 resamples are too few for intervals)
    assert "smallest possible p-value" not in out and "note: too few resamples for" in out


def test_correlate_keeps_the_metric_column_name(capsys, tmp_path):
    (tmp_path / "human.csv").write_text("system,DA\na,0.1\nb,0.5\nc,0.2\n")
    (tmp_path / "da_scores.tsv").write_text(
        "system\tchrF++\tnotes\na\t50\tok\nb\t52\tx\nc\t49\t-\n"
    )
    argv = ["correlate", "--human", str(tmp_path / "human.csv"), "--format", "json"]
    code, out, _ = run(capsys, *argv, "--metrics", str(tmp_path / "da_scores.tsv"))
    assert code == 0 and list(json.loads(out)) == ["chrF++"]  # not "score", nor "DA"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("name\tBLEU\na\t1\n", "m.tsv, line 1: there is no 'system' column"),
        (
            "system\tBLEU\na\t1\nb\t2\na\t3\n",
            "m.tsv, line 4: system 'a' already has a row (line 2)",
        ),
        ("system\tBLEU\na\t1\nb\tn/a\n", "m.tsv, line 3, column BLEU: 'n/a' is not a number"),
        ("system\tBLEU\na\t1\nb\t\n", "m.tsv, line 3, column BLEU: the score is empty"),
        ("system\tteam\na\tx\n", "m.tsv, line 1: there is no column of scores"),
    ],
)
def test_a_bad_metric_table_is_refused_where_it_is_wrong(capsys, tmp_path, table, message):
    (tmp_path / "human.csv").write_text("system,DA\na,0.1\nb,0.5\nc,0.2\n")
    (tmp_path / "m.tsv").write_text(table)
    argv = [
        "correlate",
        "--human",
        str(tmp_path / "human.csv"),
        "--metrics",
        str(tmp_path / "m.tsv"),
    ]
    assert message in refused(capsys, *argv)


RATES = "system,crr,nrr,irr,e_rt_total,e_marked_total\n"
COUNTS = "system,correct,non_response,incorrect,rt_total,marked_total,cases\n"


@pytest.mark.parametrize(
    ("table", "where"),
    [
        (RATES + "A,0.7,0.5,0.1,5,4\nB,0.4,0.2,0.1,5,4\n", "line 2, column nrr: crr + nrr is"),
        (RATES + "A,0.4,0.2,1.5,5,4\n", "line 2, column irr: irr is 1.5"),
        (RATES + "A,0.4,-0.2,0.1,5,4\n", "line 2, column nrr: nrr is -0.2"),
        (COUNTS + "A,5,2,1,10,8,2\nB,-5,2,1,10,8,2\n", "line 3, column correct: a count cannot"),
        (COUNTS + "A,8,4,1,10,8,2\n", "line 2, column rt_total: correct + non_response (12)"),
        (COUNTS + "A,5,2,9,10,8,2\n", "line 2, column marked_total: incorrect (9) exceeds"),
    ],
)
def test_impossible_loss_inputs_are_refused_at_their_cell(capsys, tmp_path, table, where):
    (tmp_path / "loss.csv").write_text(table)
    err = refused(capsys, "loss", "--input", str(tmp_path / "loss.csv"), "--format", "json")
    assert f"loss.csv, {where}" in err


def test_rates_may_exceed_one_only_as_separate_shares(capsys, tmp_path):
    """irr is a share of the marked items, not of the answers: crr + nrr + irr > 1 is possible,
    and counts of items may exceed the number of cases (the paper's 1181 + 558 + 438 > 354)."""
    (tmp_path / "loss.csv").write_text(RATES + "A,0.5,0.4,0.6,5,4\nB,0.4,0.2,0.1,5,4\n")
    code, out, _ = run(capsys, "loss", "--input", str(tmp_path / "loss.csv"), "--format", "json")
    assert code == 0 and json.loads(out)["ranking"]["all"] == ["B", "A"]  # -7.6, -6.1
    counts = SAMPLE_DATA / "loss" / "tate-voss-2006-table2-counts.csv"
    code, _, _ = run(capsys, "loss", "--input", str(counts))
    assert code == 0
