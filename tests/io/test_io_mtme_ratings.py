"""mt-metrics-eval's .rating files (ratings.py's layout): every segment's rater and MQM score
equal to mt-metrics-eval's own ReadRatingFile and score_mqm.py's Score on a synthetic file
(tests/io/fixtures/mtme_ratings_oracle.json, made by scripts/mtme_ratings_oracle.py: no data set
here ships a .rating file); segments by line per system, the default rater, None, refusals with
file and line, and the custom ranking over them with a documents file's domains."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.mtme_ratings import read_rating_file

MAJOR = {"start": 0, "end": 3, "category": "Accuracy/Mistranslation", "severity": "Major"}
PUNCTUATION = {"start": 1, "end": 2, "category": "Fluency/Punctuation", "severity": "minor"}
NON_TRANSLATION = {"start": 0, "end": 9, "category": "Non-translation!", "severity": "Major"}
CRITICAL = {"start": 0, "end": 9, "category": "Accuracy", "severity": "Critical"}


def _rating(*errors: dict) -> str:
    return json.dumps({"errors": list(errors)})


ORACLE = json.loads(
    (Path(__file__).parent / "fixtures" / "mtme_ratings_oracle.json").read_text(encoding="utf-8")
)


def test_every_segment_equals_mt_metrics_eval_s_own_reading_and_scoring(tmp_path):
    path = tmp_path / ORACLE["file_name"]
    path.write_text(ORACLE["file"], encoding="utf-8")
    read = read_rating_file(path)
    ours = {system: [None] * len(values) for system, values in ORACLE["per_system"].items()}
    for rating in read.ratings:
        ours[rating.system][rating.segment] = [rating.score, rating.rater]
    assert ours == ORACLE["per_system"]  # exactly: the same weights summed in the same order
    rated = sum(value is not None for values in ours.values() for value in values)
    assert (rated, len(read.ratings)) == (322, 322)
    assert read.notes == (f"{ORACLE['file_name']}: 38 segments without a rating (None)",)


@pytest.fixture
def rating_file(tmp_path):
    path = tmp_path / "en-de.mqm.merged.seg.rating"
    lines = [
        f"A\t{_rating(MAJOR, PUNCTUATION)}\trater1",
        f"A\t{_rating()}",  # no rater: the rating name
        "A\tNone",
        f"B\t{_rating(NON_TRANSLATION)}\trater2",
        f"B\t{_rating(CRITICAL)}\trater1",
        f"B\t{_rating(PUNCTUATION, PUNCTUATION)}\trater2",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_segments_raters_and_mqm_scores(rating_file):
    read = read_rating_file(rating_file)
    assert (read.language_pair, read.name) == ("en-de", "mqm.merged")
    got = [(r.system, r.segment, r.rater, r.score, r.errors) for r in read.ratings]
    assert got == [
        ("A", 0, "rater1", -5.1, 2),  # Major 5 + Minor/Fluency/Punctuation 0.1 (case aside)
        ("A", 1, "mqm.merged", 0.0, 0),
        ("B", 0, "rater2", -25.0, 1),  # Major/Non-translation! 25
        ("B", 1, "rater1", 0.0, 1),  # Critical: no weight in Google's scheme
        ("B", 2, "rater2", -0.2, 2),
    ]
    assert read.notes == ("en-de.mqm.merged.seg.rating: 1 segments without a rating (None)",)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("A", "line 2: this line has 1 tab-separated columns, a .rating line has 2 or 3"),
        ("A\t{oops", "line 2, column RATING (2nd column): the rating is not JSON"),
        ("A\t[1, 2]", 'the rating is not an object with a list "errors" of error objects'),
        ('A\t{"errors": [{"start": "0", "end": 1}]}', "an error without whole-number start"),
    ],
)
def test_a_bad_line_is_refused_with_its_file_and_line(tmp_path, line, message):
    path = tmp_path / "en-de.rater1.seg.rating"
    path.write_text(f"A\t{_rating()}\n{line}\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        read_rating_file(path)
    assert f"{path}, line 2" in str(refused.value) and message in str(refused.value)


@pytest.mark.parametrize("name", ["en-de.seg.rating", "en-de.mqm.sys.rating", "mqm.x.seg.rating"])
def test_a_file_name_mt_metrics_eval_would_not_parse_is_refused(tmp_path, name):
    path = tmp_path / name
    path.write_text("A\tNone\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"not a \.rating file name of mt-metrics-eval"):
        read_rating_file(path)


def test_the_custom_ranking_takes_rating_files_and_their_domains(rating_file, tmp_path, capsys):
    docs = tmp_path / "en-de.docs"
    docs.write_text("news\td1\nnews\td1\nspeech\td2\n", encoding="utf-8")
    argv = ["rank", "--protocol", "custom", "--human", str(rating_file), "--documents", str(docs)]
    assert main([*argv, "--custom-average", "domain", "--format", "json"]) == 0
    pair = json.loads(capsys.readouterr().out)["language_pairs"]["en-de"]
    systems = {s["system"]: s for s in pair["systems"]}
    assert systems["A"]["extra"]["domains"] == {"news": pytest.approx(-2.55), "speech": None}
    assert systems["B"]["extra"]["domains"] == {
        "news": pytest.approx(-12.5),
        "speech": pytest.approx(-0.2),
    }
    assert systems["B"]["score"] == pytest.approx((-12.5 - 0.2) / 2)
    assert "1 segments without a rating" in pair["notes"][0]


def test_a_segment_past_the_documents_file_is_refused(rating_file, tmp_path, capsys):
    docs = tmp_path / "en-de.docs"
    docs.write_text("news\td1\n", encoding="utf-8")
    argv = ["rank", "--protocol", "custom", "--human", str(rating_file), "--documents", str(docs)]
    assert main(argv) != 0
    assert "A's segment 2 is past the 1 lines of en-de.docs" in capsys.readouterr().err
