"""The session's span lookup (mteval_core.spans.span_lookup): annotations of every file placed
on the test set's lines, by the file's own placement (Google's MQM), a line number (a metric's
spans) or the translation's text, and what cannot be placed or drawn counted in a note."""

from __future__ import annotations

from mteval_core.io.neural_outputs import read_tool_output
from mteval_core.model.spans import MAJOR, MINOR, ErrorSpan, SpanAnnotation, SpanAnnotations
from mteval_core.spans.mqm_marks import read_mqm_spans
from mteval_core.spans.span_lookup import metric_annotations, mqm_lines, segment_spans
from tests.helpers import ROOT, load_sample, make_test_set

TEST_SET = make_test_set(
    ["The cat sat.", "A dog ran.", "Birds fly."],
    {"A": ["The cat sit.", "A dog run.", "Birds fly."], "B": ["Cat sat.", "Dog ran.", "Fly."]},
)
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
MQM = (
    HEADER
    + "A\td\t2\t2\tr1\tsrc two\tA dog <v>run</v>.\tFluency/Grammar\tMinor\n"
    + "A\td\t2\t2\tr2\tsrc two\t<v>A dog run.</v>\tAccuracy/Mistranslation\tMajor\n"
    + "B\td\t3\t3\tr1\tsrc three\tFly.\tNo-error\tNo-error\n"
).encode()


def annotation(system: str, segment: str, target: str | None, *spans: ErrorSpan):
    return SpanAnnotation(system, segment, "who", target, tuple(spans), origin="f")


def test_mqm_spans_land_on_the_lines_their_scores_are_placed_on():
    read = read_mqm_spans(MQM, "mqm.tsv")
    lookup = segment_spans(TEST_SET, {"mqm.tsv": read}, {"mqm.tsv": mqm_lines(TEST_SET, MQM, "m")})
    r1, r2 = lookup.of("A", 2)
    assert (r1.label, r2.label) == ("mqm.tsv: r1", "mqm.tsv: r2")
    assert r1.annotation.spans[0].severity == MINOR
    assert r1.annotation.target[r1.annotation.spans[0].start : r1.annotation.spans[0].end] == "run"
    assert r2.annotation.spans[0].severity == MAJOR
    (no_error,) = lookup.of("B", 3)
    assert no_error.annotation.spans == ()
    assert lookup.of("A", 1) == () and lookup.notes == ()
    assert lookup.labels(["A"]) == ["mqm.tsv: r1", "mqm.tsv: r2"]
    assert lookup.labels(["B"]) == ["mqm.tsv: r1"]
    assert lookup.lines_with_spans(["A", "B"], [1, 2, 3]) == 2
    assert lookup.lines_with_spans(["B"], [1, 2]) == 0


def test_a_file_without_ids_is_placed_by_the_translation_text():
    spanned = annotation("B", "en-de:doc9::4", "Dog ran.", ErrorSpan(0, 3, MINOR))
    read = SpanAnnotations("f", (spanned,))
    (placed,) = segment_spans(TEST_SET, {"f": read}).of("B", 2)
    assert placed.annotation.spans == (ErrorSpan(0, 3, MINOR),)


def test_what_cannot_be_placed_or_drawn_is_counted_in_notes_not_drawn():
    read = SpanAnnotations(
        "f",
        (
            annotation("C", "1", "The cat sit."),  # no such system
            annotation("A", "9", "nowhere"),  # no such line, no such text
            annotation("A", "1", None, ErrorSpan(0, 3, MINOR), ErrorSpan(-2, 4, MAJOR)),
            annotation("A", "3", "Birds fly.", ErrorSpan(5, 99, MAJOR), ErrorSpan(0, 0, MINOR)),
        ),
    )
    lookup = segment_spans(TEST_SET, {"f": read})
    (first,) = lookup.of("A", 1)
    assert first.annotation.target == "The cat sit."  # the test set's, the file gave none
    assert first.annotation.spans == (ErrorSpan(0, 3, MINOR),)
    (third,) = lookup.of("A", 3)
    assert third.annotation.spans == (ErrorSpan(0, 0, MINOR),)
    assert lookup.notes == (
        "f: 2 annotation(s) name a system or segment that is not a line of this test set (by "
        "the file's ids, a line number or the translation's text); they are not drawn beside "
        "the test set's sentences",
        "f: 2 span(s) lie outside their translation's characters and are not drawn",
    )


def test_an_annotation_of_another_text_on_its_line_is_drawn_on_its_own_text_with_a_note():
    read = SpanAnnotations("f", (annotation("A", "2", "A dog  runs.", ErrorSpan(6, 10, MINOR)),))
    lookup = segment_spans(TEST_SET, {"f": read})
    (placed,) = lookup.of("A", 2)
    assert placed.annotation.target == "A dog  runs."
    assert lookup.notes == (
        "f: 1 annotation(s) mark a text other than the test set's translation of their line; "
        "their own text is drawn, which its offsets index",
    )


def test_xcomet_errors_of_a_comet_json_on_their_lines():
    sample = load_sample().test_set
    text = (ROOT / "tests/io/fixtures/neural_outputs/comet.json").read_text(encoding="utf-8")
    read = read_tool_output(text, "comet.json", sample)
    spans = metric_annotations("xcomet", read.spans, sample)
    lookup = segment_spans(sample, {"xcomet": spans})
    (system, line), found = next(iter(read.spans.items()))
    (placed,) = lookup.of(system, line)
    assert placed.label == "xcomet" and placed.annotation.spans == found
    assert placed.annotation.target == sample.system(system)[line - 1]
    first = found[0]
    assert placed.annotation.target[first.start : first.end] == first.text
    assert lookup.notes == ()
    assert lookup.lines_with_spans(sample.system_names, range(1, sample.n_segments + 1)) == len(
        {line for _, line in read.spans}
    )
