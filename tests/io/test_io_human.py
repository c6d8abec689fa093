"""Human judgments at segment and system level."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io import read_directory
from mteval_core.io.human_judgments import (
    criterion_from_name,
    keep_known_systems,
    read_human,
    read_human_for,
)
from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import shared_dataset


def tsv(*rows: str) -> bytes:
    return "".join(row.replace("|", "\t") + "\n" for row in rows).encode()


def test_segment_level_with_rater_and_criterion() -> None:
    data = tsv(
        "system|segment_id|criterion|rater|score",
        "A|1|adequacy|r1|4",
        "A|2|fluency|r2|3.5",
        "B|1|adequacy||-1e-1",
    )
    scores = read_human(data, "judgments.tsv")
    rows = scores.segment_rows
    assert scores.system_rows.empty
    assert list(rows["system"]) == ["A", "A", "B"]
    assert list(rows["segment"]) == [1, 2, 1]
    assert list(rows["criterion"]) == ["adequacy", "fluency", "adequacy"]
    assert list(rows["rater"]) == ["r1", "r2", ""]
    assert list(rows["score"]) == [4.0, 3.5, -0.1]
    assert list(rows["line"]) == [2, 3, 4]
    assert set(rows["origin"]) == {"judgments.tsv"}


def test_system_level_with_one_column_per_criterion_and_ignored_columns() -> None:
    data = b"system,adequacy,fluency,n_ratings,original_id,comment\nA,70.5,80,12,A.1,good\n"
    scores = read_human(data, "wmt_sys.csv")
    rows = scores.system_rows
    assert scores.segment_rows.empty
    assert list(rows["criterion"]) == ["adequacy", "fluency"]
    assert list(rows["score"]) == [70.5, 80.0]


def test_score_column_wins_and_extra_columns_are_ignored() -> None:
    data = tsv(
        "system|score|raw_score|n_ratings|n_all|original_id|has_text_output",
        "A|0.04|74.9|1688|1876|A.21|1",
    )
    rows = read_human(data, "da_sys.tsv").system_rows
    assert list(rows["criterion"]) == ["DA"]
    assert list(rows["score"]) == [0.04]


@pytest.mark.parametrize(
    ("origin", "criterion"),
    [
        ("human/mqm_seg_rater.tsv", "MQM"),
        ("MQM.csv", "MQM"),
        ("da_sys.tsv", "DA"),
        ("wmt20-da.seg.csv", "DA"),
        ("data.tsv", "score"),
        ("judgments.tsv", "score"),
    ],
)
def test_criterion_from_file_name(origin: str, criterion: str) -> None:
    assert criterion_from_name(origin) == criterion


def test_criterion_argument_wins_over_file_name() -> None:
    data = tsv("system|segment|score", "A|1|2")
    rows = read_human(data, "mqm.tsv", criterion="ESA").segment_rows
    assert list(rows["criterion"]) == ["ESA"]


def test_lower_is_better_flips_the_sign() -> None:
    data = tsv("system|segment|score", "A|1|5", "A|2|0")
    rows = read_human(data, "errors.tsv", lower_is_better=True).segment_rows
    assert list(rows["score"]) == [-5.0, -0.0]


def test_wmt_doc_segment_ids_are_resolved_with_documents() -> None:
    data = tsv("system|segment_id|score", "A|d2::1|1", "A|d1::2|2", "A|3|3")
    documents = ("d1", "d1", "d2", "d2")
    rows = read_human(data, "da_seg.tsv", documents=documents).segment_rows
    assert list(rows["segment"]) == [3, 2, 3]


def test_segment_ids_map_to_lines() -> None:
    data = tsv("system|segment_id|score", "A|218|1", "A|5|2")
    rows = read_human(data, "mqm.tsv", segment_ids={"5": 1, "218": 2}).segment_rows
    assert list(rows["segment"]) == [2, 1]


def error_for(data: bytes, **options) -> InputError:
    with pytest.raises(InputError) as caught:
        read_human(data, "h.tsv", **options)
    assert caught.value.origin == "h.tsv"
    return caught.value


@pytest.mark.parametrize("value", ["", "None", "NaN", "nan", "inf", "high", "1_000", "١٢٣"])
def test_a_score_that_is_not_a_number(value: str) -> None:
    error = error_for(tsv("system|segment|score", "A|1|1", f"A|2|{value}"))
    assert (error.line, error.column) == (3, "score")
    assert "Remove unrated rows" in error.hint or "digits 0-9" in error.hint
    assert ("empty" in error.problem) if not value else (repr(value) in error.problem)
    assert "h.tsv, line 3, column score" in str(error)


def test_a_decimal_comma_says_to_write_a_point() -> None:
    error = error_for(tsv("system|segment|score", "A|1|1", "A|2|1,5"))
    assert (error.line, error.column) == (3, "score")
    assert "'1,5' has a comma" in error.problem and "decimal point" in error.hint


def test_a_criterion_column_of_decimal_commas_is_refused_not_skipped() -> None:
    """Without a score column, every numeric column is a criterion; one written with decimal
    commas held no number for float() and vanished, with its criterion, without a word."""
    error = error_for(tsv("system|segment|adequacy|fluency", "A|1|3|4,5", "A|2|2|3,5"))
    assert (error.line, error.column) == (2, "fluency")
    assert "decimal point" in error.hint


def test_the_first_bad_cell_in_the_file_is_named_whatever_its_column() -> None:
    """Columns are checked one at a time; the error is still the first row's."""
    data = tsv("system|segment|score", "A|1|1", "A|2|x", "A|abc|1", "|3|1")
    assert (error_for(data).line, error_for(data).column) == (3, "score")
    data = tsv("system|segment|score", "A|1|1", "A|abc|x")
    assert (error_for(data).line, error_for(data).column) == (3, "segment")


def test_bad_value_in_a_criterion_column() -> None:
    error = error_for(b"system,adequacy,fluency\nA,1,2\nB,3,n/a\n")
    assert (error.line, error.column) == (3, "fluency")


def test_unknown_document() -> None:
    error = error_for(tsv("system|seg|score", "A|d9::1|1"), documents=("d1",))
    assert "no document 'd9'" in error.problem
    assert (error.line, error.column) == (2, "seg")


def test_segment_beyond_the_document() -> None:
    error = error_for(tsv("system|seg|score", "A|d1::3|1"), documents=("d1", "d1"))
    assert "has no segment '3'" in error.problem


def test_document_ids_without_documents() -> None:
    error = error_for(tsv("system|segment_id|score", "A|d1::1|1"))
    assert "no document ids were given" in error.problem
    assert error.line == 2


def test_segment_id_not_in_segment_ids() -> None:
    error = error_for(tsv("system|segment_id|score", "A|7|1"), segment_ids={"1": 1})
    assert "segment_ids.tsv" in error.problem


def test_segment_id_that_is_not_a_number() -> None:
    assert "not a number" in error_for(tsv("system|seg|score", "A|first|1")).problem


def test_missing_system_column() -> None:
    assert "no 'system' column" in error_for(tsv("name|score", "A|1")).problem


def test_no_score_column() -> None:
    assert "no score column" in error_for(tsv("system|comment", "A|fine")).problem


def test_empty_file_and_header_only() -> None:
    assert "empty" in error_for(b"").problem
    assert "only a header" in error_for(tsv("system|score")).problem


def test_empty_system_name() -> None:
    error = error_for(tsv("system|score", " |1"))
    assert (error.line, error.column) == (2, "system")


TWO_SEGMENTS = TestSet(
    references=(TextColumn("ref-A", ("r1", "r2"), "ref-A.de"),),
    systems=(TextColumn("A", ("a1", "a2"), "A.de"), TextColumn("B", ("b1", "b2"), "B.de")),
    documents=("d1", "d1"),
)


def test_test_set_refuses_unknown_systems_and_segments() -> None:
    """Judgments handed to a TestSet directly must name only its systems and references; the
    reader for a test set (read_human_for, below) sets other systems aside before that."""
    test_set = TestSet(
        references=(TextColumn("ref-A", ("r1", "r2"), "ref-A.de"),),
        systems=(TextColumn("A", ("a1", "a2"), "A.de"),),
    )
    known = read_human(tsv("system|segment|score", "A|1|1", "ref-A|2|1"), "h.tsv")
    assert len(test_set.with_human(known).human) == 2
    unknown_system = read_human(tsv("system|segment|score", "A|1|1", "Z|1|1"), "h.tsv")
    with pytest.raises(InputError, match="unknown system 'Z'") as caught:
        test_set.with_human(unknown_system)
    assert caught.value.line == 3
    unknown_segment = read_human(tsv("system|segment|score", "A|3|1"), "h.tsv")
    with pytest.raises(InputError, match="segment 3 does not exist") as caught:
        test_set.with_human(unknown_segment)
    assert (caught.value.origin, caught.value.line) == ("h.tsv", 2)


# ------------------------------------------------------------ judgments as WMT ships them
def test_rows_of_systems_without_text_are_set_aside_with_a_note() -> None:
    """Changed by issue #11: ref-B (a reference rated as a system) and an anonymised system no
    longer make the file fail; their rows are set aside, named in a note, and the rest is used."""
    data = tsv(
        "system|segment_id|score",
        "A|1|-1",
        "ref-B|1|0",
        "ref-A|2|0",
        "anon-7|1|-3",
        "B|d1::2|-2",
        "ref-B|2|0",
    )
    read = read_human_for(TWO_SEGMENTS, data, "mqm_seg.tsv")
    rows = read.scores.segment_rows
    assert list(rows["system"]) == ["A", "ref-A", "B"]
    assert list(rows["segment"]) == [1, 2, 2]  # d1::2 resolved with the test set's documents
    assert list(rows["line"]) == [2, 4, 6]
    assert list(rows["criterion"]) == ["MQM"] * 3
    assert read.notes == (
        "mqm_seg.tsv: 3 rows for 2 systems without text in the test set (ref-B, anon-7) "
        "were set aside",
    )
    assert len(TWO_SEGMENTS.with_human(read.scores).human) == 3


def test_system_level_rows_are_set_aside_too() -> None:
    data = b"system,score,n_ratings\nB,0.1,10\nHUMAN-B,0.5,10\nA,0.2,12\n"
    read = read_human_for(TWO_SEGMENTS, data, "da_sys.csv", lower_is_better=True)
    assert list(read.scores.system_rows["system"]) == ["B", "A"]
    assert list(read.scores.system_rows["score"]) == [-0.1, -0.2]
    assert read.notes == (
        "da_sys.csv: 1 row for 1 system without text in the test set (HUMAN-B) was set aside",
    )


def test_no_note_when_every_system_has_text() -> None:
    read = read_human_for(TWO_SEGMENTS, tsv("system|score", "A|1", "ref-A|2"), "h.tsv")
    assert read.notes == ()
    assert len(read.scores) == 2


def test_judgments_that_rate_no_system_of_the_test_set_are_refused() -> None:
    data = tsv("system|segment|score", "a|1|1", "b|1|1", "ref-B|2|1")
    with pytest.raises(InputError) as caught:
        read_human_for(TWO_SEGMENTS, data, "h.tsv")
    error = caught.value
    assert error.origin == "h.tsv"
    assert error.problem == "none of the 3 systems rated here (a, b, ref-B) is in the test set"
    assert "The test set has A, B, ref-A." in error.hint
    with pytest.raises(InputError, match="none of the 7 systems rated here"):
        keep_known_systems(
            read_human(tsv("system|score", *(f"s{i}|1" for i in range(7))), "h.tsv"), {"A"}, "h"
        )


def test_reader_errors_still_come_first() -> None:
    with pytest.raises(InputError, match="not a number") as caught:
        read_human_for(TWO_SEGMENTS, tsv("system|segment|score", "ref-B|1|x"), "h.tsv")
    assert caught.value.line == 2


@pytest.mark.parametrize(
    ("dataset", "file"),
    [
        ("wmt21-newstest2021-ende", "mqm_seg.tsv"),
        ("wmt21-newstest2021-ende", "mqm_sys.tsv"),
        ("wmt21-newstest2021-zhen", "mqm_seg.tsv"),
    ],
)
def test_wmt21_files_that_rate_references_and_metric_task_systems(dataset: str, file: str) -> None:
    """The files as WMT ships them: ref-B was rated but has no text here, nor do the metric-task
    systems; every other system and reference keeps all its rows."""
    root = shared_dataset(dataset)
    test_set = read_directory(root).test_set.with_human(None)
    path = root / "human" / file
    read = read_human_for(test_set, path.read_bytes(), str(path))
    everything = read_human(path.read_bytes(), str(path))
    (note,) = read.notes
    names = note.split("(")[1].split(")")[0].split(", ")
    assert "ref-B" in names
    assert set(names) >= {f"metricsystem{i}" for i in range(1, 6)}
    assert not set(names) & {*test_set.system_names, *test_set.reference_names}
    frame = everything.segment_rows if "seg" in file else everything.system_rows
    kept = read.scores.segment_rows if "seg" in file else read.scores.system_rows
    assert len(kept) == int((~frame["system"].isin(names)).sum()) > 0
    assert f"{len(frame) - len(kept):,} rows" in note
    judged = test_set.with_human(read.scores)  # the test set now takes them
    assert set(judged.human.segment_rows["system"]) | set(judged.human.system_rows["system"]) == (
        set(frame["system"]) - set(names)
    )
