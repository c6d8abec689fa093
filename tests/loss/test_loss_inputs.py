"""Loss tables: the three shapes are recognised by their columns, and every bad input gets a
message that names the file, the line or column, and the problem."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io.loss_csv import read_loss_table
from mteval_core.loss.inputs import Counts, case_matrix, grouped_counts, grouped_rates

COUNTS_HEADER = "system,correct,non_response,incorrect,rt_total,marked_total,cases\n"
RATES_HEADER = "system,crr,nrr,irr,e_rt_total,e_marked_total\n"


def read(text: str):
    return read_loss_table(text.encode(), "losses.csv")


def error_of(text: str) -> str:
    with pytest.raises(InputError) as caught:
        grouped_rates(read(text))
    return str(caught.value)


def test_shapes_are_detected():
    assert read(COUNTS_HEADER + "A,5,2,1,10,8,2\n").shape == "counts"
    assert read(RATES_HEADER + "A,.5,.2,.1,5,4\n").shape == "rates"
    cases = read("system\tcase\tCR\tNR\tIR\tRTtot\tSubjMtot\nA\tc1\t5\t2\t1\t10\t8\n")
    assert cases.shape == "cases"
    assert cases.rows[0].counts == Counts(5, 2, 1, 10, 8, 1)


def test_case_rows_pool_per_group_and_system():
    text = (
        "system,case,wh,correct,non_response,incorrect,rt_total,marked_total\n"
        "A,1,Who,5,2,1,10,8\nA,2,Who,3,1,0,6,3\nA,3,When,1,1,1,4,4\n"
        "B,1,Who,2,2,2,10,8\nB,2,When,4,0,0,4,4\n"
    )
    data = read(text)
    assert data.category_columns == ("wh",)
    assert grouped_counts(data)["all"]["A"] == Counts(9, 4, 2, 20, 15, 3)
    assert grouped_counts(data, "wh")["Who"]["A"] == Counts(8, 3, 1, 16, 11, 2)
    assert case_matrix(data, "wh")["Who"]["A"].shape == (2, 5)
    assert grouped_rates(data)["all"]["A"].crr == pytest.approx(9 / 20)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "losses.csv: the file is empty"),
        ("\n\n", "losses.csv: the file is empty"),
        (RATES_HEADER, "losses.csv: there are no rows, only a header"),
        (
            "system,crr,nrr,irr,e_rt_total\nA,.5,.2,.1,5\n",
            "line 1: the rates table has no column 'e_marked_total'",
        ),
        (
            "system,correct,non_response,incorrect,rt_total,marked_total\nA,1,1,1,4,4\n",
            "line 1: the counts need a 'cases' column",
        ),
        ("name,score\nA,1\n", "the file has neither counts nor rates"),
        ("system,crr,correct\nA,1,2\n", "the file mixes counts and rates"),
        (
            COUNTS_HEADER + "A,5,-2,1,10,8,2\n",
            "line 2, column non_response: a count cannot be negative, got -2",
        ),
        (
            COUNTS_HEADER + "A,5,2.5,1,10,8,2\n",
            "line 2, column non_response: a count is a whole number",
        ),
        (
            RATES_HEADER + "A,.5,.2,1.2,5,4\n",
            "line 2, column irr: irr is 1.2, but a rate lies between 0 and 1",
        ),
        (
            RATES_HEADER + "A,-.1,.2,.1,5,4\n",
            "line 2, column crr: crr is -0.1, but a rate lies between 0 and 1",
        ),
        (
            COUNTS_HEADER + "A,0,0,0,0,8,2\n",
            "line 2, column rt_total: rt_total is 0, so the rates are undefined",
        ),
        (COUNTS_HEADER + "A,5,2,1,10,8,0\n", "line 2, column cases: cases is 0"),
        (RATES_HEADER + "A,.5,.2,.1,0,4\n", "line 2, column e_rt_total: e_rt_total is 0"),
        (
            "system,case,correct,non_response,incorrect,rt_total,marked_total\nA,1,0,0,0,0,0\n",
            "column rt_total: system 'A' in group 'all' has rt_total 0",
        ),
        (
            COUNTS_HEADER + "A,5,two,1,10,8,2\n",
            "line 2, column non_response: 'two' is not a number",
        ),
        (COUNTS_HEADER + "A,5,,1,10,8,2\n", "line 2, column non_response: empty is not a number"),
        (RATES_HEADER + "A,.5,nan,.1,5,4\n", "line 2, column nrr: 'nan' is not a number"),
        (COUNTS_HEADER + "A,5,6,1,10,8,2\n", "correct + non_response (11) exceed rt_total (10)"),
        (COUNTS_HEADER + "A,5,2,9,10,8,2\n", "incorrect (9) exceeds marked_total (8)"),
        (
            COUNTS_HEADER + "A,5,2,1,10,8,2\nA,5,2,1,10,8,2\n",
            "line 3: system 'A' already has a row (line 2)",
        ),
        (COUNTS_HEADER + ",5,2,1,10,8,2\n", "line 2, column system: the system is empty"),
        (
            "wh," + RATES_HEADER + "Who,A,.5,.2,.1,5,4\nWhen,A,.5,.2,.1,5,4\nWho,B,.5,.2,.1,5,4\n",
            "column wh: system 'B' has no row for wh 'When', which the other systems have",
        ),
        (
            "wh," + RATES_HEADER + "Who,A,.5,.2,.1,5,4\nWho,A,.4,.2,.1,5,4\n",
            "line 3: system 'A' in wh 'Who' already has a row (line 2)",
        ),
    ],
)
def test_bad_input_gets_its_message(text, expected):
    message = error_of(text)
    assert expected in message
    assert message.startswith("losses.csv")


def test_rates_per_category_cannot_be_pooled():
    data = read("wh,doc," + RATES_HEADER + "Who,d1,A,.5,.2,.1,5,4\nWho,d2,A,.4,.2,.1,5,4\n")
    with pytest.raises(InputError, match=r"rates cannot be pooled.*Break the table down by doc"):
        grouped_rates(data, "wh")
    assert set(grouped_rates(data, "doc")) == {"d1", "d2"}


def test_unknown_by_column_and_bootstrap_needs_counts():
    data = read(RATES_HEADER + "A,.5,.2,.1,5,4\n")
    with pytest.raises(InputError, match="no category column 'wh'"):
        grouped_rates(data, "wh")
    with pytest.raises(InputError, match="gives rates, not counts"):
        grouped_counts(data)
    with pytest.raises(InputError, match="not one row per case"):
        case_matrix(data)


def test_correct_and_non_response_rates_share_one_denominator():
    """crr and nrr are both shares of rt_total, so crr + nrr <= 1, give or take the rounding of
    two printed rates (the paper prints three decimals); irr has its own denominator."""
    assert grouped_rates(read(RATES_HEADER + "A,.501,.5,.9,5,4\n"))["all"]["A"].nrr == 0.5
    message = error_of(RATES_HEADER + "A,.5,.2,.1,5,4\nB,.7,.5,.1,5,4\n")
    assert message == (
        "losses.csv, line 3, column nrr: crr + nrr is 0.7 + 0.5 = 1.2, but both are shares of "
        "the answer items (rt_total), so they add up to at most 1. An answer item is found "
        "correctly, partly or not at all (a non-response); check the two rates."
    )
