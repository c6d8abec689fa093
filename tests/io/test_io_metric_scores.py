"""Metric scores from files: the three layouts, segment ids, set-aside systems and every error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.io import parse_direction, read_metric_scores, read_metric_scores_file
from mteval_core.metrics.external import ExternalMetric
from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import make_test_set

TEST_SET = make_test_set(["r1", "r2", "r3"], {"A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3"]})


def tsv(*rows: str) -> bytes:
    return "".join(row.replace("|", "\t") + "\n" for row in rows).encode()


def read(
    data: bytes,
    origin: str = "scores.tsv",
    test_set: TestSet = TEST_SET,
    higher_is_better: bool | None = True,
    **options,
) -> ExternalMetric:
    return read_metric_scores(
        data, origin, test_set, name="comet", higher_is_better=higher_is_better, **options
    )


def segment_scores(metric: ExternalMetric, system: str) -> list[float]:
    return metric.segment_scores(metric.statistics_of(system)).tolist()


# ---------------------------------------------------------------------- segment scores
def test_segment_scores_from_a_tsv_in_any_order() -> None:
    metric = read(
        tsv(
            "system|segment_id|score",
            "B|3|0.3",
            "A|1|0.5",
            "A|2|-0.25",
            "A|3|1e-1",
            "B|1|0.1",
            "B|2|0.2",
        )
    )
    assert (metric.name, metric.label, metric.higher_is_better) == ("comet", "comet", True)
    assert metric.segment_level and metric.why_no_segments is None
    assert metric.systems == ["A", "B"]
    assert segment_scores(metric, "A") == [0.5, -0.25, 0.1]
    assert segment_scores(metric, "B") == [0.1, 0.2, 0.3]
    assert metric.system_score("A") == pytest.approx(0.35 / 3)
    assert metric.statistics_of("A").tolist() == [[0.5, 1], [-0.25, 1], [0.1, 1]]
    assert metric.notes == ()


def test_segment_scores_from_a_csv_with_other_columns_and_a_lower_direction() -> None:
    data = b"system,seg,score,comment\nA,1,3,ok\nA,2,4,\nA,3,5,x\nB,1,0,\nB,2,0,\nB,3,1,\n"
    metric = read(data, "metricx.csv", higher_is_better=False)
    assert not metric.higher_is_better
    assert "lower is better" in metric.scale
    assert metric.system_score("A") == 4.0
    assert metric.system_score("B") == pytest.approx(1 / 3)


def test_unscored_segments_count_zero_with_a_note() -> None:
    metric = read(tsv("system|segment|score", "A|1|0.5", "A|3|0.7", "B|2|0.1"))
    assert metric.statistics_of("A").tolist() == [[0.5, 1], [0, 0], [0.7, 1]]
    assert metric.system_score("A") == pytest.approx(0.6)  # the mean over scored segments
    assert metric.system_score("B") == pytest.approx(0.1)
    (note,) = metric.notes
    assert note.startswith("scores.tsv: comet scores only some of the 3 segments of A (2 scored)")
    assert "B (1 scored)" in note


def test_wmt_document_segment_ids() -> None:
    test_set = TestSet(
        references=(TextColumn("ref", ("r1", "r2", "r3"), "ref.txt"),),
        systems=(TextColumn("A", ("a1", "a2", "a3"), "A.txt"),),
        documents=("d1", "d1", "d2"),
    )
    metric = read(
        tsv("system|segment_id|score", "A|d2::1|3", "A|d1::2|2", "A|1|1"), test_set=test_set
    )
    assert segment_scores(metric, "A") == [1.0, 2.0, 3.0]


def test_the_ids_of_segment_ids_tsv() -> None:
    data = tsv("system|segment_id|score", "A|218|2", "A|5|1", "A|7|3", "B|5|0", "B|7|0", "B|218|0")
    metric = read(data, segment_ids={"5": 1, "218": 2, "7": 3})
    assert segment_scores(metric, "A") == [1.0, 2.0, 3.0]


def test_systems_the_test_set_lacks_are_set_aside_with_a_note() -> None:
    data = tsv("system|segment|score", "ref-B|1|9", "A|1|1", "B|1|2", "Z|1|9", "Z|2|9")
    metric = read(data)
    assert metric.systems == ["A", "B"]
    assert metric.system_score("A") == 1.0
    notes = [note for note in metric.notes if "set aside" in note]
    assert notes == [
        "scores.tsv: the scores of systems ref-B, Z, which the test set does not have, "
        "were set aside"
    ]


# ---------------------------------------------------------------------- system scores
def test_system_scores_only() -> None:
    metric = read(b"System,Score\nB,71.5\nA,70\nref-A,90\n", "comet_sys.csv")
    assert not metric.segment_level
    assert metric.stat_names == ()
    assert metric.systems == ["A", "B"]  # the test set's order
    assert (metric.system_score("A"), metric.system_score("B")) == (70.0, 71.5)
    assert metric.statistics_of("A").shape == (3, 0)
    assert "system-level scores only (comet_sys.csv)" in metric.why_no_segments
    assert "ref-A" in metric.notes[0]
    with pytest.raises(InputError, match="system-level scores only") as caught:
        metric.segment_scores(metric.statistics_of("A"))
    assert "bootstrap" in caught.value.problem
    with pytest.raises(InputError, match="system-level scores only"):
        metric.score_from_totals(np.ones((10, 3, 0)))
    with pytest.raises(InputError, match="system-level scores only"):
        metric.corpus_score(metric.statistics_of("A"))


# ---------------------------------------------------------------------- mt-metrics-eval
def mtme_segment_file(per_system: dict[str, list[float]]) -> bytes:
    return "".join(
        f"{system}\t{score!r}\n" for system, scores in per_system.items() for score in scores
    ).encode()


def test_mt_metrics_eval_seg_score() -> None:
    data = mtme_segment_file({"A": [0.1, 0.2, 0.3], "refB": [1, 1, 1], "B": [0.4, 0.5, 0.6]})
    metric = read(data, "wmt/COMET-22-refA.seg.score")
    assert segment_scores(metric, "A") == [0.1, 0.2, 0.3]
    assert segment_scores(metric, "B") == [0.4, 0.5, 0.6]
    assert metric.system_score("B") == pytest.approx(0.5)
    assert "refB" in metric.notes[0]


def test_mt_metrics_eval_seg_score_systems_may_interleave_and_split_on_spaces() -> None:
    data = b"A 1\nB 4\nA 2\n\nB 5\nA 3\nB 6\n"
    metric = read(data, "BLEU-refA.seg.score")
    assert segment_scores(metric, "A") == [1.0, 2.0, 3.0]
    assert segment_scores(metric, "B") == [4.0, 5.0, 6.0]


def test_mt_metrics_eval_sys_score() -> None:
    metric = read(b"A\t0.81\nB\t0.79\nrefB\t0.9\n", "COMET-22-refA.sys.score")
    assert not metric.segment_level
    assert metric.system_score("A") == 0.81


def test_a_headerless_file_without_the_name_is_read_by_its_line_counts() -> None:
    assert not read(b"A\t1\nB\t2\n", "scores.txt").segment_level
    metric = read(mtme_segment_file({"A": [1, 2, 3], "B": [4, 5, 6]}), "scores.txt")
    assert metric.segment_level


def test_the_file_reader_reads_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "MetricX-refA.sys.score"
    path.write_text("A\t3.5\nB\t2\n", encoding="utf-8")
    metric = read_metric_scores_file(path, TEST_SET, name="metricx", higher_is_better=False)
    assert (metric.origin, metric.system_score("A")) == (str(path), 3.5)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("higher", True), ("Lower", False), ("higher-is-better", True), ("lower_is_better", False)],
)
def test_parse_direction(text: str, expected: bool) -> None:
    assert parse_direction(text, "comet") is expected


@pytest.mark.parametrize("text", [None, "", "up", "better"])
def test_parse_direction_refuses_anything_else(text: str | None) -> None:
    with pytest.raises(InputError, match="higher or lower scores of metric 'comet'"):
        parse_direction(text, "comet")


# ---------------------------------------------------------------------- errors
def error_for(data: bytes, origin: str = "scores.tsv", **options) -> InputError:
    with pytest.raises(InputError) as caught:
        read(data, origin, **options)
    assert caught.value.origin == origin
    return caught.value


@pytest.mark.parametrize("count", [2, 4])
def test_seg_score_with_the_wrong_number_of_lines_for_a_system(count: int) -> None:
    data = mtme_segment_file({"A": [1, 2, 3], "B": list(range(count))})
    error = error_for(data, "COMET-refA.seg.score")
    assert f"system 'B' has {count} scores, but the test set has 3 segments" in error.problem
    assert error.line == (5 if count == 2 else 7)
    assert "one line per segment for every system" in error.hint
    assert "the system, a tab and the score (or a space, in a line without a tab)" in error.hint


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("nan", "'nan' is not a number"),
        ("NaN", "'NaN' is not a number"),
        ("inf", "'inf' is not a finite number"),
        ("-Infinity", "'-Infinity' is not a finite number"),
        ("1e999", "'1e999' is not a finite number"),
        ("None", "'None' is not a number"),
        ("high", "'high' is not a number"),
        ("1_000", "'1_000' is not a number"),
        ("0x10", "'0x10' is not a number"),
        ("", "the score is empty"),
    ],
)
def test_scores_that_are_not_finite_numbers(value: str, problem: str) -> None:
    error = error_for(tsv("system|segment|score", "A|1|1", f"A|2|{value}"))
    assert (error.problem, error.line, error.column) == (problem, 3, "score")
    assert "finite number" in error.hint
    assert "scores.tsv, line 3, column score" in str(error)


@pytest.mark.parametrize(
    ("value", "problem", "hint"),
    [
        ("0,5", "'0,5' has a comma where a number needs a decimal point", "decimal point"),
        ("١٢٣", "'١٢٣' has digits other than 0-9", "digits 0-9"),
        ("１２", "'１２' has digits other than 0-9", "digits 0-9"),
    ],
)
def test_scores_float_would_misread_say_what_to_write(value: str, problem: str, hint: str) -> None:
    error = error_for(tsv("system|segment|score", "A|1|1", f"A|2|{value}"))
    assert (error.problem, error.line, error.column) == (problem, 3, "score")
    assert hint in error.hint


@pytest.mark.parametrize("value", ["nan", "inf", "None", "1_000", "0,5"])
def test_scores_that_are_not_finite_numbers_in_a_score_file(value: str) -> None:
    error = error_for(f"A\t1\nB\t{value}\n".encode(), "X-refA.sys.score")
    assert (error.line, error.column) == (2, 2)


@pytest.mark.parametrize("value", ["nan", "0,5", "1_000"])
def test_a_bad_first_score_in_a_score_file_is_named_not_taken_for_a_header(value: str) -> None:
    error = error_for(f"A\t{value}\nB\t1\n".encode(), "X-refA.sys.score")
    assert (error.line, error.column) == (1, 2)
    assert repr(value) in error.problem


def test_unknown_segment_ids() -> None:
    error = error_for(tsv("system|segment|score", "A|1|1", "A|4|1"))
    assert "segment 4 is not in the test set (it has 3 segments" in error.problem
    assert (error.line, error.column) == (3, "segment")
    error = error_for(tsv("system|segment|score", "A|0|1"))
    assert "segment 0 is not in the test set" in error.problem
    error = error_for(tsv("system|segment_id|score", "A|9|1"), segment_ids={"5": 1})
    assert "segment_ids.tsv" in error.problem
    error = error_for(tsv("system|segment_id|score", "A|d1::1|1"))
    assert "no document ids were given" in error.problem


def test_duplicate_system_and_segment_rows() -> None:
    error = error_for(tsv("system|segment|score", "A|1|1", "A|2|1", "A|1|2"))
    assert "a second score of 'A' for segment 1 (the first is on line 2)" in error.problem
    assert error.line == 4
    error = error_for(b"system,score\nA,1\nB,2\nA,3\n", "sys.csv")
    assert "a second score of 'A' for the system (the first is on line 2)" in error.problem
    error = error_for(b"A\t1\nA\t2\nB\t3\n", "X-refA.sys.score")
    assert "a second score for system 'A' (the first is on line 1)" in error.problem
    assert error.line == 2


@pytest.mark.parametrize("name", ["chrf", "BLEU", "ter", "chrF++"])
def test_a_name_that_collides_with_a_builtin_metric(name: str) -> None:
    with pytest.raises(InputError, match="is the built-in metric") as caught:
        read_metric_scores(
            tsv("system|score", "A|1", "B|2"), "s.tsv", TEST_SET, name=name, higher_is_better=True
        )
    assert f"{name}-ext" in caught.value.hint


@pytest.mark.parametrize("name", ["", "my metric", "a|b", "x:y", "-comet"])
def test_a_name_that_cannot_name_a_metric(name: str) -> None:
    with pytest.raises(InputError, match="cannot name a metric"):
        read_metric_scores(
            tsv("system|score", "A|1", "B|2"), "s.tsv", TEST_SET, name=name, higher_is_better=True
        )


def test_the_direction_must_be_given(tmp_path: Path) -> None:
    error = error_for(tsv("system|score", "A|1", "B|2"), higher_is_better=None)
    assert "direction of metric 'comet' was not given" in error.problem
    assert "higher scores are better" in error.hint
    path = tmp_path / "scores.tsv"  # from a file on disk alike: a table never says its direction
    path.write_bytes(tsv("system|score", "A|1", "B|2"))
    with pytest.raises(InputError, match="was not given"):
        read_metric_scores_file(path, TEST_SET, name="comet", higher_is_better=None)


def test_a_system_of_the_test_set_missing_from_the_file_is_refused() -> None:
    error = error_for(tsv("system|segment|score", "A|1|1", "C|1|1"))
    assert error.problem == "there are no scores for system B of the test set"
    assert "The file scores systems A, C." in error.hint
    error = error_for(b"X\t1\nY\t2\n", "m.sys.score")
    assert error.problem == "there are no scores for systems A, B of the test set"


def test_layout_errors() -> None:
    assert "empty" in error_for(b"").problem
    assert "empty" in error_for(b"\n \n", "X.seg.score").problem
    assert "only a header" in error_for(tsv("system|segment|score")).problem
    assert "no 'score' column" in error_for(tsv("system|segment|comet", "A|1|0.5")).problem
    error = error_for(b"A\t1\t2\n", "X.seg.score")
    assert "expected two values, a system and a score, but found 3" in error.problem
    assert error.line == 1
    error = error_for(b"A,1\nB,2\n", "scores.csv")  # a CSV without its header
    assert "found 1" in error.problem and "header" in error.hint
    assert "the system name is empty" in error_for(tsv("system|score", " |1")).problem
    error = error_for(tsv("sys|score", "A|1"))  # a header without a 'system' column
    assert "neither a header with a 'system' column" in error.problem
    assert error.line == 1
    error = error_for(b"A\t1\n\t2\n", "X.sys.score")
    assert (error.problem, error.line) == ("the system name is empty", 2)
    assert "document-level" in error_for(b"A\t1\n", "X-refA.doc.score").problem
    assert "not text" in error_for(b"\x1f\x8b\x08\x00", "x.seg.score.gz").problem


def test_a_lone_carriage_return_in_a_score_file_is_refused() -> None:
    error = error_for(b"A\t1\rB\t2\n", "X.sys.score")
    assert "carriage return" in error.problem


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"", "the file is empty"),
        ("system,segment_id,score\n".encode("utf-16"), "UTF-16, not UTF-8"),
        (b"\x1f\x8b\x08\x00\x00", "gzip-compressed"),
        (b"system,segment_id,score\n", "only a header"),
        ("system,segment_id,score\nA,1,0.\u00e9\n".encode("latin-1"), "line 2, column 7"),
    ],
)
def test_empty_binary_and_mis_encoded_files(data: bytes, problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        read_metric_scores(data, "comet.csv", TEST_SET, name="comet", higher_is_better=True)
