"""Error spans from WMT25's humeval JSON Lines and Pearmut's logs, read as span files: the
rankings' readers' ratings, each with its spans and score, the humeval waves as annotators
(WMT25's human1 and human2), so that one wave is scored against the other."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.pearmut import pearmut_of_bytes
from mteval_core.io.wmt25_humeval import humeval_of_bytes
from mteval_core.model.spans import MAJOR, MINOR, ErrorSpan
from mteval_core.spans.agreement import agreement, paired
from mteval_core.spans.span_files import read_span_file

ROOT = Path(__file__).resolve().parents[2]
HUMEVAL = ROOT / "tests" / "rankings" / "fixtures" / "wmt25_synthetic_humeval.jsonl.gz"
PEARMUT = ROOT / "tests" / "io" / "fixtures" / "pearmut_esa_items.jsonl"


def wave(score: float, annotator: str, *spans: tuple[int, int]) -> dict:
    errors = [{"start_i": s, "end_i": e, "severity": "minor"} for s, e in spans]
    return {"score": score, "errors": errors, "annotator": annotator, "times": [0.0, 1.0]}


def humeval_line(doc_id: str, system: str, first: dict, second: dict) -> str:
    return json.dumps({"scores": {system: [first, second]}, "doc_id": doc_id})


def test_a_humeval_files_ratings_are_its_readers_with_the_waves_as_annotators() -> None:
    data = gzip.decompress(HUMEVAL.read_bytes())
    read = read_span_file(data, "humeval.jsonl")
    ratings = humeval_of_bytes([(data, "humeval.jsonl")]).annotations
    assert read.annotators == ("wave 1", "wave 2")
    assert [a.annotator for a in read.annotations] == [f"wave {r.wave}" for r in ratings]
    expected = [(r.system, r.item, r.spans, r.score, r.language_pair) for r in ratings]
    found = [(a.system, a.segment, a.spans, a.score, a.language_pair) for a in read.annotations]
    assert found == expected
    assert sum(len(a.spans) for a in read.annotations) == 3517
    assert "error spans read from a WMT25 humeval" in read.notes[0]


def test_one_wave_scored_against_the_other_by_hand() -> None:
    # wave 1 marks characters 0-3, wave 2 characters 2-5: two of four agree on each side
    first, second = wave(70, "a1", (0, 4)), wave(60, "a2", (2, 6))
    line = humeval_line("en-cs_#_news_#_d1_#_0", "S", first, second)
    read = read_span_file(line.encode(), "h.jsonl")
    assert read.annotations[0].spans == (ErrorSpan(0, 4, MINOR, None),)
    pairs, _ = paired(read, read, "wave 1", "wave 2")
    scores = agreement(pairs, "wave 1", "wave 2").pooled.characters
    assert (scores.precision, scores.recall) == (0.5, 0.5)


def test_mteval_spans_scores_wave_1_against_wave_2(tmp_path, capsys) -> None:
    path = tmp_path / "humeval.jsonl"
    path.write_bytes(gzip.decompress(HUMEVAL.read_bytes()))
    arguments = ["spans", "--gold", str(path), "--gold-annotator", "wave 1"]
    arguments += ["--predicted-annotator", "wave 2", "--format", "json"]
    assert main(arguments) == 0
    spans = json.loads(capsys.readouterr().out)["spans"]
    assert spans["gold"].endswith("wave 1") and spans["predicted"].endswith("wave 2")
    assert {group["name"] for group in spans["groups"]} >= {"en-cs_CZ", "cs-de_DE"}


def test_a_pearmut_logs_ratings_are_its_readers_by_user() -> None:
    data = PEARMUT.read_bytes()
    read = read_span_file(data, PEARMUT.name)
    ratings = pearmut_of_bytes([(data, PEARMUT.name)]).annotations
    assert read.annotators == ("alice", "bob")
    assert [(a.system, a.segment, a.annotator, a.spans, a.score) for a in read.annotations] == [
        (r.system, r.item, r.annotator, r.spans, r.score) for r in ratings
    ]
    bobs = next(a for a in read.annotations if (a.annotator, a.system) == ("bob", "Claude"))
    assert bobs.spans == (ErrorSpan(0, 3, MAJOR, "Accuracy/Mistranslation"),)


@pytest.mark.parametrize(
    ("start", "end", "problem"),
    [(-3, 2, "negative offset"), (5, 2, "ends before it starts")],
)
def test_a_rating_with_impossible_offsets_is_refused_with_its_line(start, end, problem) -> None:
    good = humeval_line("en-cs_#_news_#_d1_#_0", "S", wave(70, "a1", (0, 4)), wave(60, "a2"))
    bad = humeval_line("en-cs_#_news_#_d1_#_1", "S", wave(70, "a1", (start, end)), wave(60, "a2"))
    with pytest.raises(InputError) as refused:
        read_span_file(f"{good}\n{bad}\n".encode(), "h.jsonl")
    assert refused.value.line == 2 and problem in refused.value.problem
