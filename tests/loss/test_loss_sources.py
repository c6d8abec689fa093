"""The Loss page's line about its data: the paper's tables, the user's loss table or MQM
annotations, and what to upload when the user's own test set has no loss data."""

from __future__ import annotations

from mteval_core.io.loss_csv import SHAPES_HINT
from mteval_core.io.mqm_tsv import REQUIRED
from mteval_core.loss.sources import LossSources, describe_sources

PAPER_FILE = "tate-voss-2006-table2-table4-rates.csv"


def describe(**sources):
    return describe_sources(LossSources(**sources), table_hint=SHAPES_HINT, mqm_columns=REQUIRED)


def test_the_sample_names_the_paper_and_its_file():
    note = describe(table=PAPER_FILE, table_uploaded=False)
    assert note.text == (
        f"Data shown: the paper's tables (Tate & Voss 2006, systems MT1, MT2, MT3; {PAPER_FILE})."
    )
    assert not note.missing_loss_data


def test_an_uploaded_table_is_named_whatever_the_test_set():
    for systems in (None, ("A", "B")):
        note = describe(table="mine.csv", table_uploaded=True, test_set_systems=systems)
        assert note.text == "Data shown: your loss table mine.csv."
        assert not note.missing_loss_data


def test_an_upload_not_yet_made():
    note = describe(table=None, table_uploaded=True, test_set_systems=("A",))
    assert note.text == "Data shown: no loss table yet (upload one below)."
    assert not note.missing_loss_data


def test_mqm_annotations_are_named_with_what_the_costs_are_computed_on():
    note = describe(
        table=PAPER_FILE, table_uploaded=False, mqm="mqm_ted_ende.tsv", test_set_systems=("A",)
    )
    assert note.text.startswith(
        "Data shown: MQM weights: your annotations mqm_ted_ende.tsv (Data page); costs: the "
        "paper's tables (Tate & Voss 2006"
    )
    assert not note.missing_loss_data


def test_an_uploaded_test_set_without_loss_data_gets_what_to_upload():
    systems = tuple(f"sys{k}" for k in range(16))
    note = describe(table=PAPER_FILE, table_uploaded=False, test_set_systems=systems)
    assert note.missing_loss_data
    assert note.text.startswith(
        "Your test set (16 systems: sys0, sys1, sys2, sys3, sys4 and 11 more) has no loss data, "
        "so this page shows the paper's example: Tate & Voss 2006's systems MT1, MT2, MT3 "
        f"({PAPER_FILE}), not yours."
    )
    assert "MQM error annotations on the Data page" in note.text
    assert ", ".join(REQUIRED) in note.text  # the reader's own columns, of either layout
    assert "seg_id (2020-2021) or doc and docSegId (2022-2024)" in note.text
    assert note.text.endswith(SHAPES_HINT)  # the loss table reader's own hint
    assert "'Your own loss table'" in note.text


def test_one_system_is_counted_in_the_singular():
    note = describe(table=PAPER_FILE, table_uploaded=False, test_set_systems=("only",))
    assert note.text.startswith("Your test set (1 system: only) has no loss data")


def test_mqm_annotations_while_a_loss_table_upload_is_pending():
    note = describe(table=None, table_uploaded=True, mqm="mqm.tsv", test_set_systems=("A",))
    assert note.text == (
        "Data shown: MQM weights: your annotations mqm.tsv (Data page); costs: no loss table yet "
        "(upload one below)."
    )
