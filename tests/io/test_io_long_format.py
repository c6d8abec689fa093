"""Long format: CSV, TSV and JSON Lines with one record per (segment, system)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.errors import InputError
from mteval_core.io.jsonl import read_jsonl, read_jsonl_columns
from mteval_core.io.tabular import read_tabular, read_tabular_columns
from mteval_core.model.testset import TestSet, TextColumn

ORIGIN = "long.csv"

TEST_SET = TestSet(
    references=(
        TextColumn("ref-A", ("Der Hund, der bellt.", 'Er sagt "hallo"\nund geht.', ""), ORIGIN),
        TextColumn("ref-B", ("Ein Hund bellt.", "Er grüßt.", "leer"), ORIGIN),
    ),
    systems=(
        TextColumn("sys1", ("Der Hund bellt.", "Er sagt hallo.", "x"), ORIGIN),
        TextColumn("sys2", ("Hund, bellend", "Hallo, sagt er.", ""), ORIGIN),
    ),
    source=TextColumn("source", ("The dog, barking.", 'He says "hello".', "empty"), ORIGIN),
    documents=("d1", "d1", "d2"),
    name="long",
)


def long_records(test_set: TestSet) -> list[dict[str, object]]:
    """The test set as records, systems interleaved and segments in reverse order."""
    records = []
    for index in reversed(range(test_set.n_segments)):
        for system in test_set.systems:
            record: dict[str, object] = {
                "system": system.name,
                "segment": index + 1,
                "hypothesis": system.segments[index],
                "source": test_set.source.segments[index],
            }
            for reference in test_set.references:
                record[reference.name] = reference.segments[index]
            record["doc"] = test_set.documents[index]
            records.append(record)
    return records


def to_csv(records: list[dict[str, object]], delimiter: str = ",") -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(records[0]), delimiter=delimiter)
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue().encode()


def to_tsv(rows: list[list[str]]) -> bytes:
    return "".join("\t".join(row) + "\n" for row in rows).encode()


def to_jsonl(records: list[dict[str, object]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()


def test_csv_round_trip_with_commas_quotes_and_newlines() -> None:
    assert read_tabular(to_csv(long_records(TEST_SET)), ORIGIN) == TEST_SET


def test_jsonl_round_trip() -> None:
    assert read_jsonl(to_jsonl(long_records(TEST_SET)), "long.jsonl") == TEST_SET


# Any text, except CRLF inside a segment (decode turns every CRLF into LF, by design).
SEGMENT_TEXT = st.text(max_size=12).map(lambda text: text.replace("\r\n", "\n"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(SEGMENT_TEXT, SEGMENT_TEXT, SEGMENT_TEXT), min_size=1, max_size=6))
def test_round_trip_of_any_text(rows: list[tuple[str, str, str]]) -> None:
    references, first, second = zip(*rows, strict=True)
    test_set = TestSet(
        references=(TextColumn("ref-A", references, ORIGIN),),
        systems=(TextColumn("A", first, ORIGIN), TextColumn("B", second, ORIGIN)),
        source=TextColumn("source", references, ORIGIN),
        documents=tuple("d" for _ in rows),
    )
    records = long_records(test_set)
    assert read_tabular(to_csv(records), ORIGIN) == test_set
    assert read_jsonl(to_jsonl(records), "long.jsonl") == test_set


def test_tsv_keeps_quote_characters() -> None:
    data = to_tsv(
        [
            ["segment", "system", "hyp", "ref"],
            ["1", "A", '"quoted" start', 'r "1"'],
            ["2", "A", "plain, with comma", "r2"],
        ]
    )
    test_set = read_tabular(data, "long.tsv")
    assert test_set.system("A") == ('"quoted" start', "plain, with comma")
    assert test_set.reference_names == ["ref"]
    assert test_set.references[0].segments == ('r "1"', "r2")


def test_crlf_and_bom_csv() -> None:
    data = b"\xef\xbb\xbfsystem,translation,reference\r\nA,x,y\r\nA,z,w\r\n"
    assert read_tabular(data, ORIGIN).system("A") == ("x", "z")


def test_without_segment_column_rows_are_in_order_per_system() -> None:
    data = to_csv(
        [
            {"system": "A", "target": "a1", "ref": "r1"},
            {"system": "B", "target": "b1", "ref": "r1"},
            {"system": "B", "target": "b2", "ref": "r2"},
            {"system": "A", "target": "a2", "ref": "r2"},
        ]
    )
    test_set = read_tabular(data, ORIGIN)
    assert test_set.system("A") == ("a1", "a2")
    assert test_set.system("B") == ("b1", "b2")


def test_reference_column_names() -> None:
    data = to_csv([{"system": "A", "hyp": "h", "Ref-A": "a", "ref_1": "b", "reference_2": "c"}])
    assert read_tabular(data, ORIGIN).reference_names == ["Ref-A", "ref_1", "reference_2"]


def test_unknown_columns_are_ignored() -> None:
    data = to_csv([{"system": "A", "hyp": "h", "ref": "r", "lang": "en-de", "note": "x"}])
    assert read_tabular(data, ORIGIN).system_names == ["A"]


def test_hypotheses_only_give_columns_but_no_test_set() -> None:
    data = to_csv([{"system": "A", "hyp": "h1"}, {"system": "A", "hyp": "h2"}])
    columns = read_tabular_columns(data, ORIGIN)
    assert [c.segments for c in columns.systems] == [("h1", "h2")]
    assert columns.references == () and columns.source is None and columns.documents is None
    with pytest.raises(InputError, match="no reference column"):
        read_tabular(data, ORIGIN)


def error_for(data: bytes, origin: str = ORIGIN) -> InputError:
    reader = read_jsonl_columns if origin.endswith(".jsonl") else read_tabular_columns
    with pytest.raises(InputError) as caught:
        reader(data, origin)
    assert caught.value.origin == origin
    return caught.value


def test_missing_system_segment_pair_names_a_line() -> None:
    data = to_csv(
        [
            {"segment": 1, "system": "A", "hyp": "a1", "ref": "r1"},
            {"segment": 2, "system": "A", "hyp": "a2", "ref": "r2"},
            {"segment": 1, "system": "B", "hyp": "b1", "ref": "r1"},
        ]
    )
    error = error_for(data)
    assert "segment 2" in error.problem and "'B'" in error.problem
    assert error.line == 3


def test_duplicate_system_segment_pair() -> None:
    data = to_csv(
        [
            {"segment": 1, "system": "A", "hyp": "a1", "ref": "r1"},
            {"segment": 1, "system": "A", "hyp": "again", "ref": "r1"},
        ]
    )
    error = error_for(data)
    assert "twice" in error.problem and "first on line 2" in error.problem
    assert error.line == 3


def test_references_must_agree_between_systems() -> None:
    data = to_csv(
        [
            {"segment": 1, "system": "A", "hyp": "a1", "ref": "r1", "source": "s"},
            {"segment": 1, "system": "B", "hyp": "b1", "ref": "other", "source": "s"},
        ]
    )
    error = error_for(data)
    assert "'ref' of segment 1 differs from line 2" in error.problem
    assert (error.line, error.column) == (3, "ref")


def test_gap_in_segment_numbers() -> None:
    data = to_csv(
        [
            {"segment": 1, "system": "A", "hyp": "a1"},
            {"segment": 3, "system": "A", "hyp": "a3"},
        ]
    )
    assert "no row has segment 2" in error_for(data).problem


@pytest.mark.parametrize("value", ["0", "x", "1.5", "-2", ""])
def test_bad_segment_number(value: str) -> None:
    data = to_csv([{"segment": value, "system": "A", "hyp": "a"}])
    error = error_for(data)
    assert (error.line, error.column) == (2, "segment")


def test_missing_hypothesis_column() -> None:
    error = error_for(b"system,score\nA,1\n")
    assert "no 'hypothesis' column" in error.problem


def test_two_hypothesis_columns() -> None:
    error = error_for(b"system,hyp,translation\nA,x,y\n")
    assert "mean the same thing" in error.problem


def test_row_with_too_many_values() -> None:
    error = error_for(b"system,hyp\nA,x\nB,y,z\n")
    assert error.line == 3
    assert "3 values" in error.problem


def test_header_only() -> None:
    assert "only a header" in error_for(b"system,hyp\n").problem


def test_csv_quoted_newline_keeps_line_numbers_right() -> None:
    error = error_for(b'system,hyp,segment\nA,"two\nlines",1\nA,x\n')
    assert error.line == 4  # the second row starts on line 4 and lacks a value


def test_bad_json_line_gives_line_and_position() -> None:
    data = b'{"system": "A", "hyp": "x"}\n\n{"system": "A", "hyp": "y",}\n'
    error = error_for(data, "long.jsonl")
    assert error.line == 3
    assert error.column == 28
    assert "not valid JSON" in error.problem


def test_json_line_that_is_not_an_object() -> None:
    error = error_for(b'{"system": "A", "hyp": "x"}\n["A", "y"]\n', "long.jsonl")
    assert (error.line, "not an object" in error.problem) == (2, True)


def test_json_value_that_is_not_a_string() -> None:
    error = error_for(b'{"system": "A", "hyp": null}\n', "long.jsonl")
    assert "null" in error.problem
    assert (error.line, error.column) == (1, "hyp")


def test_json_record_missing_a_key_others_have() -> None:
    data = b'{"system": "A", "hyp": "x", "ref": "r"}\n{"system": "A", "hyp": "y"}\n'
    error = error_for(data, "long.jsonl")
    assert "no 'ref'" in error.problem
    assert error.line == 2


def test_empty_jsonl() -> None:
    assert "empty" in error_for(b"\n\n", "long.jsonl").problem
