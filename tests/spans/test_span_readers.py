"""Reading spans: Google's MQM marks, Appraise's ESA exports and WMT25's TSV, and the offsets
refused (out of range, reversed, negative, UTF-16 counts past an emoji) with file and line."""

from __future__ import annotations

import lzma
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.errors import InputError
from mteval_core.model.spans import MAJOR, MINOR, NEUTRAL, ErrorSpan, SpanAnnotation
from mteval_core.settings.limits import MAX_SPAN_OFFSET, MAX_SPANS_PER_ANNOTATION
from mteval_core.spans.esa_export import read_esa_spans
from mteval_core.spans.mqm_marks import read_mqm_spans
from mteval_core.spans.offsets import check_offsets, split_characters
from mteval_core.spans.task2_tsv import read_task2_spans
from tests.helpers import shared_dataset

MQM_HEADER = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\n"
TASK2_HEADER = (
    "doc_id\tsegment_id\tsource_lang\ttarget_lang\tset_id\tsystem_id\thypothesis_segment\t"
    "start_indices\tend_indices\terror_types\n"
)


def mqm(*rows: str) -> bytes:
    return (MQM_HEADER + "".join(row + "\n" for row in rows)).encode()


def test_mqm_marks_become_code_point_offsets_past_an_emoji():
    data = mqm(
        "S\td\t1\t1\tr1\tsrc\t😀 a <v>bad</v> word\tAccuracy/Mistranslation\tMajor",
        "S\td\t1\t1\tr1\tsrc\t😀 a bad <v>word</v>\tFluency/Punctuation\tminor",
        "S\td\t1\t1\tr2\tsrc\t😀 a bad word\t\tNo-error",
        "S\td\t1\t1\tr3\t<v>src</v>\t😀 a bad word\tAccuracy/Omission\tMajor",
        "S\td\t1\t1\tr4\tsrc\t😀 a bad word\tNon-translation!\tNon-translation!",
    )
    first, second, third, fourth = read_mqm_spans(data, "m.tsv").annotations
    assert first.target == "😀 a bad word" and first.target[4:7] == "bad"
    assert first.spans == (
        ErrorSpan(4, 7, MAJOR, "Accuracy/Mistranslation", line=2),
        ErrorSpan(8, 12, MINOR, "Fluency/Punctuation", line=3),
    )
    assert second.spans == ()
    assert third.spans == (ErrorSpan(0, 0, MAJOR, "Accuracy/Omission", False, line=5),)
    assert fourth.spans == (ErrorSpan(0, 0, NEUTRAL, "Non-translation!", False, line=6),)


def test_mqm_marks_that_do_not_pair_are_refused_with_the_line():
    data = mqm("S\td\t1\t1\tr1\tsrc\ta <v>b</v> <v>c\tAccuracy\tMajor")
    with pytest.raises(InputError, match=r"m.tsv, line 2, column target: the target's error marks"):
        read_mqm_spans(data, "m.tsv")


def test_mqm_rows_of_one_rating_with_other_targets_are_refused():
    data = mqm(
        "S\td\t1\t1\tr1\tsrc\tone <v>text</v>\tAccuracy\tMajor",
        "S\td\t1\t1\tr1\tsrc\tanother <v>text</v>\tAccuracy\tMajor",
    )
    with pytest.raises(InputError, match="line 3, column target: this row's target differs"):
        read_mqm_spans(data, "m.tsv")


def task2(*rows: str) -> bytes:
    return (TASK2_HEADER + "".join(row + "\n" for row in rows)).encode()


@pytest.mark.parametrize(
    ("spans", "message"),
    [
        ("0 5\t2 5\tmajor minor", "line 2: the error span \\[5, 5\\) ends past the target"),
        ("5\t2\tmajor", "line 2: the error span \\[5, 2\\) ends before it starts"),
        ("-1\t2\tmajor", "line 2: the error span \\[-1, 2\\) has a negative offset"),
        ("0\t9\tmajor", "line 2: the error span \\[0, 9\\) ends past the target, which has 4"),
        ("0 1\t1\tmajor", "line 2: 2 start indices, 1 end indices and 1 error types"),
        ("0  1\t1  2\tmajor  minor", "line 2: an empty item"),
        ("0\t1\tsevere", "line 2, column error_types: unknown error type 'severe'"),
        ("a\t1\tmajor", "line 2: the offsets 'a', '1' are not whole numbers"),
    ],
)
def test_task2_offsets_refused(spans, message):
    with pytest.raises(InputError, match=message):
        read_task2_spans(task2(f"d\t1\ten\tcs\tofficial\tS\tab😀c\t{spans}"), "pred.tsv")


def test_a_utf16_count_past_an_emoji_is_out_of_range_with_a_hint():
    """JavaScript counts 😀 as two: its end of 'c' is 5, past the 4 code points."""
    with pytest.raises(InputError, match="counts a character such as an emoji twice"):
        read_task2_spans(task2("d\t1\ten\tcs\tofficial\tS\tab😀c\t3\t5\tminor"), "pred.tsv")
    (annotation,) = read_task2_spans(
        task2("d\t1\ten\tcs\tofficial\tS\tab😀c\t3\t4\tminor"), "pred.tsv"
    ).annotations
    assert annotation.target[3:4] == "c"


def test_task2_rows_of_other_sets_are_counted_and_duplicates_refused():
    read = read_task2_spans(
        task2(
            "d\t1\ten\tcs\tofficial\tS\tabc\t-1\t-1\tno-error",
            "d\t1\ten\tcs\ttestsuite\tS\tabc\t0\t1\tmajor",
        ),
        "pred.tsv",
    )
    assert len(read.annotations) == 1 and read.annotations[0].spans == ()
    assert "1 of set 'testsuite' left out" in read.notes[1]
    row = "d\t1\ten\tcs\tofficial\tS\tabc\t-1\t-1\tno-error"
    with pytest.raises(
        InputError, match=r"pred.tsv, line 3: a second row for the translation of line 2"
    ):
        read_task2_spans(task2(row, row), "pred.tsv")


def test_a_boundary_inside_a_combining_sequence_is_kept_and_counted():
    annotation = SpanAnnotation("S", "1", "a", "e\u0301t", (ErrorSpan(0, 1, MINOR),))
    check_offsets(annotation)  # not refused: scored per code point
    assert split_characters(annotation) == 1


def test_too_many_spans_on_one_segment_and_offsets_too_far_without_a_target():
    many = tuple(ErrorSpan(0, 1, MINOR) for _ in range(MAX_SPANS_PER_ANNOTATION + 1))
    with pytest.raises(InputError, match="MAX_SPANS_PER_ANNOTATION"):
        check_offsets(SpanAnnotation("S", "1", "a", "x", many, origin="f", line=3))
    far = (ErrorSpan(0, MAX_SPAN_OFFSET + 1, MINOR),)
    with pytest.raises(InputError, match=r"f, line 3: .*MAX_SPAN_OFFSET"):
        check_offsets(SpanAnnotation("S", "1", "a", None, far, origin="f", line=3))


ESA_ROW = "eng{n},sysA,{seg},TGT,eng,ces,{score},doc1,False,{spans},1.0,{time}\n"


def esa(*rows: tuple[str, str, str]) -> bytes:
    return "".join(
        ESA_ROW.format(n=n, seg=1, score=score, spans=spans, time=n) for n, score, spans in rows
    ).encode()


def test_esa_spans_missing_and_two_annotators_of_one_item():
    data = esa(
        ("1", "90", '"[{""start_i"":8,""end_i"":11,""severity"":""minor"",""error_type"":null}]"'),
        ("2", "40", '"[{""start_i"":""missing"",""end_i"":""missing"",""severity"":""major""}]"'),
    )
    first, second = read_esa_spans(data, "wave.csv").annotations
    assert first.item == second.item == ("sysA", "en-cs:1")
    assert first.spans == (ErrorSpan(8, 11, MINOR, None, line=1),) and first.score == 90
    assert second.spans == (ErrorSpan(0, 0, MAJOR, None, False, line=2),)


@pytest.mark.parametrize(
    ("spans", "message"),
    [
        ('"[{""start_i"":8,""end_i"":3,""severity"":""minor""}]"', "ends before it starts"),
        ('"[{""start_i"":8,""end_i"":11,""severity"":""grave""}]"', "unknown severity 'grave'"),
        ('"[{""start_i"":8.5,""end_i"":11,""severity"":""minor""}]"', "not whole numbers"),
        ('"[{""start_i"":8}]"', "not an object with start_i, end_i and severity"),
        ('"[{""start_i"":8,"', "not a JSON list"),
        (
            '"[{""start_i"":0,""end_i"":1,""severity"":""minor"",""error_type"":""\\ud800""}]"',
            "surrogate",
        ),
    ],
)
def test_esa_spans_refused_with_the_line(spans, message):
    with pytest.raises(InputError, match=f"wave.csv, line 1.*{message}"):
        read_esa_spans(esa(("1", "50", spans)), "wave.csv")


def test_wmt24_esa_wave2_as_released():
    wave2 = "wmt24-news-systems/humeval/esa_generalMT2024_wave2.csv.xz"
    data = lzma.decompress((shared_dataset("wmt-rankings") / wave2).read_bytes())
    read = read_esa_spans(data, "esa_generalMT2024_wave2.csv")
    assert len(read.annotations) == 15741
    spans = [s for a in read.annotations for s in a.spans]
    assert sum(not s.in_target for s in spans) > 0  # "missing" errors kept
    assert {s.severity for s in spans} <= {MAJOR, MINOR, "undecided"}
    assert re.search(r"dropped 1,228 tutorial ratings", read.notes[1])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "😀", "e\u0301", "\u200d", "日", " "]), max_size=12).map(
        "".join
    ),
    st.lists(st.tuples(st.integers(-3, 40), st.integers(-3, 40)), max_size=4),
)
def test_offsets_are_refused_exactly_when_no_target_could_have_them(target, offsets):
    """Any offsets on any target (emoji, combining marks, joiners): refused with the line when
    one is negative, reversed or past the target, else every span slices its own text."""
    spans = tuple(ErrorSpan(start, end, MINOR, line=7) for start, end in offsets)
    annotation = SpanAnnotation("S", "1", "a", target, spans, origin="f.tsv")
    impossible = any(s < 0 or e < 0 or e < s or e > len(target) for s, e in offsets)
    if impossible:
        with pytest.raises(InputError, match=r"^f\.tsv, line 7: the error span"):
            check_offsets(annotation)
    else:
        check_offsets(annotation)
        assert all(len(target[s.start : s.end]) == s.length for s in spans)
