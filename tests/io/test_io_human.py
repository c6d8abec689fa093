"""Human judgments at segment and system level."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io.human import criterion_from_name, read_human
from mteval_core.testset import TestSet, TextColumn


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


@pytest.mark.parametrize("value", ["", "None", "NaN", "nan", "inf", "high", "1,5"])
def test_a_score_that_is_not_a_number(value: str) -> None:
    error = error_for(tsv("system|segment|score", "A|1|1", f"A|2|{value}"))
    assert (error.line, error.column) == (3, "score")
    assert "Remove unrated rows" in error.hint
    assert ("empty" in error.problem) if not value else (repr(value) in error.problem)
    assert "h.tsv, line 3, column score" in str(error)


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


def test_test_set_refuses_unknown_systems_and_segments() -> None:
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
