"""GEMBA-MQM's error lists (gemba --method GEMBA-MQM --list_mqm_errors) read as its command
prints them: scored as GEMBA scores them, their quoted errors placed on the translations as
spans, for `mteval score --metric-scores` and `mteval spans`, and every malformed line refused
with the file and line.

tests/io/fixtures/neural_outputs/phrase-based.gemba-mqm.txt is what GEMBA's own
``parse_mqm_answer(answer, list_mqm_errors=True, full_desc=True)`` (gemba/gemba_mqm_utils.py @
a7a7eff, run outside the project) returns for stand-in model answers on sample_data's
phrase-based translations, printed as gemba/cli.py prints it (``print(answer)``): the answers
quote a translation's first word missing from ref-A (critical on every fifth line), its last
(major), a source word as an omission (every third), its second twice (grammar, then style: the
next occurrence) and its first ten characters as a non-translation (every fourth from the
second); line 8 is None (no answer). phrase-based.gemba-mqm.oracle-scores.txt is the same
function's score of each answer (list_mqm_errors=False), printed the same way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.gemba_mqm import error_class, quoted_text
from mteval_core.io.metric_scores import read_metric_scores
from mteval_core.spans.span_files import read_span_file
from mteval_core.spans.span_mqm import gemba_points
from tests.helpers import load_sample, make_test_set

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests/io/fixtures/neural_outputs"
GEMBA_FILE = FIXTURES / "phrase-based.gemba-mqm.txt"
ORACLE = FIXTURES / "phrase-based.gemba-mqm.oracle-scores.txt"
TRANSLATIONS = ROOT / "sample_data/sys/phrase-based.en"
OPEN = "defaultdict(<class 'list'>, "


def oracle_scores() -> list[float | None]:
    return [None if s == "None" else float(s) for s in ORACLE.read_text().split()]


def phrase_based():
    test_set = load_sample().test_set
    kept = [column for column in test_set.systems if column.name == "phrase-based"]
    return test_set.with_human(None).with_systems(kept)


def one_system(texts: list[str], name: str = "sys") -> object:
    return make_test_set([["reference"] * len(texts)], {name: texts})


def answer(errors: dict) -> str:
    return f"{OPEN}{errors!r})"


def read_lines(lines: list[str], texts: list[str], origin: str = "sys.gemba.txt"):
    data = "".join(line + "\n" for line in lines).encode()
    return read_metric_scores(data, origin, one_system(texts), name="gemba", higher_is_better=None)


# ---------------------------------------------------------------------- as an external metric
def test_scores_equal_gembas_own_and_its_quotes_land_on_their_text() -> None:
    metric = read_metric_scores(
        GEMBA_FILE.read_bytes(),
        str(GEMBA_FILE),
        phrase_based(),
        name="gemba",
        higher_is_better=None,
    )
    expected = oracle_scores()
    statistics = metric.statistics_of("phrase-based")  # (score, 1), or (0, 0) unscored
    assert [None if n == 0 else s for s, n in statistics] == expected
    assert metric.higher_is_better
    assert metric.signature.describe() == (
        "package:gemba|reference_based:no|direction:higher|scale:-25..0"
    )
    texts = TRANSLATIONS.read_text(encoding="utf-8").splitlines()
    placed = unplaced = 0
    for (system, segment), spans in metric.spans.items():
        assert system == "phrase-based"
        for span in spans:
            if span.in_target:
                placed += 1
                assert texts[segment - 1][span.start : span.end].lower() == span.text
            else:
                unplaced += 1
                assert span.start == span.end == 0
    assert placed > 40 and unplaced > 0
    assert any(
        f"{unplaced} GEMBA-MQM errors quote a text their translation does not hold (lines 1, 2, 3,"
        in note
        for note in metric.notes
    )
    assert any("1 translations have no answer" in n for n in metric.notes)


def test_the_same_text_quoted_twice_takes_its_next_occurrence_then_none() -> None:
    text = "the cat saw the dog"
    errors = {
        "major": ['fluency/grammar - "the"'],
        "minor": ['style/awkward - "the"', 'other - "THE"'],
    }
    metric = read_lines([answer(errors)], [text])
    spans = metric.spans["sys", 1]
    assert [(s.start, s.end, s.in_target) for s in spans] == [
        (0, 3, True),
        (12, 15, True),
        (0, 0, False),
    ]
    assert [s.severity for s in spans] == ["major", "minor", "minor"]
    assert metric.statistics_of("sys")[0, 0] == -7.0  # 5 + 1 + 1, all counted


def test_lowering_that_lengthens_a_character_keeps_offsets_on_the_target() -> None:
    text = "İstanbul ist groß"  # İ lowers to two code points
    metric = read_lines([answer({"minor": ['fluency/spelling - "groß"']})], [text])
    (span,) = metric.spans["sys", 1]
    assert text[span.start : span.end] == "groß"


def test_hostile_texts_are_kept_as_text_and_unknown_classes_are_unknown() -> None:
    text = 'He said "no" <script>alert(1)</script>'
    errors = {
        "critical": ['non-translation - "<script>alert(1)</script>"'],
        "major": ['accuracy/mistranslation - ""no""'],
        "minor": ['made-up class - "He"', "grammar without a quote"],
    }
    metric = read_lines([answer(errors), answer({})], [text, "fine"])
    spans = metric.spans["sys", 1]
    assert text[spans[0].start : spans[0].end] == "<script>alert(1)</script>"
    assert spans[0].category == "non-translation"
    assert text[spans[1].start : spans[1].end] == '"no"'
    assert spans[2].category == "unknown" and text[spans[2].start : spans[2].end] == "He"
    assert not spans[3].in_target  # quotes nothing
    assert ("sys", 2) not in metric.spans  # an empty answer: no error, score 0
    np.testing.assert_array_equal(metric.statistics_of("sys")[:, 0], [-25.0, 0.0])


def test_gembas_classes_and_quotes_follow_its_rules() -> None:
    assert error_class('accuracy/mistranslation - "x"') == "accuracy-mistranslation"
    assert error_class("fluency/punctuation") == "fluency-punctuation"
    assert error_class('terminology/inappropriate for context - "x"') == (
        "terminology-inappropriate"
    )
    assert error_class("locale convention/date format") == "locale convention-date"
    assert error_class("Unheard of") == "unknown"
    assert quoted_text('style/awkward - "etc.,"') == "etc.,"
    assert quoted_text("accuracy/omission - the stop-start") == "the stop-start"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (f"{OPEN}{{'major': [__import__('os').getcwd()]}})", "not a Python literal"),
        (f"{OPEN}{{'severe': ['x']}})", "'severe' is not one of GEMBA's severities"),
        (f"{OPEN}{{'major': 'x'}})", "the major errors are not a list of texts"),
        (f"{OPEN}['major'])", "not a dictionary of severities"),
        (f"{OPEN}{{'major': ['x']}}", "not GEMBA-MQM's list of errors"),
    ],
)
def test_a_malformed_line_is_refused_with_its_line(line: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem) as raised:
        read_lines([answer({}), line], ["a", "b"])
    assert raised.value.origin == "sys.gemba.txt" and raised.value.line == 2


def test_a_line_too_few_or_every_line_none_is_refused() -> None:
    with pytest.raises(InputError, match="has 1 scores, but the test set has 2 segments"):
        read_lines([answer({})], ["a", "b"])
    with pytest.raises(InputError, match="every score is None or nan"):  # gemba's scores
        read_lines(["None", "None"], ["a", "b"])
    with pytest.raises(InputError, match="the line is empty") as raised:
        read_lines([answer({}), "", answer({})], ["a", "b", "c"])
    assert raised.value.line == 2


# ---------------------------------------------------------------------- as a span file
def test_a_span_file_needs_its_translations_and_then_scores_as_gemba() -> None:
    data = GEMBA_FILE.read_bytes()
    with pytest.raises(InputError, match="GEMBA-MQM's list of errors, and no translations"):
        read_span_file(data, "gemba.txt")
    texts = TRANSLATIONS.read_text(encoding="utf-8").splitlines()
    read = read_span_file(data, "gemba.txt", texts, "phrase-based")
    expected = [score for score in oracle_scores() if score is not None]
    assert [-gemba_points(a) for a in read.annotations] == expected
    assert [a.segment for a in read.annotations][:8] == ["1", "2", "3", "4", "5", "6", "7", "9"]
    with pytest.raises(InputError, match="the file has 40 lines and the translations 39"):
        read_span_file(data, "gemba.txt", texts[:-1], "phrase-based")


def test_mteval_spans_places_a_gemba_file_on_translations(capsys) -> None:
    args = ["spans", "--gold", str(GEMBA_FILE), "--predicted", str(GEMBA_FILE)]
    assert main([*args, "--translations", str(TRANSLATIONS), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert '"f1": 1.0' in out
    assert "kept without a place in the target" in err
    assert main(args) == 2
    _, err = capsys.readouterr()
    assert "give the translations the file judged" in err and "(--translations FILE)" in err
