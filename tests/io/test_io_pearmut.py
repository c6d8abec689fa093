"""Pearmut's annotation logs, in both layouts its server has written (one item per entry; a
document of items per entry): the filters Pearmut's own results export applies, task resets,
re-ratings, spans, refusals, and a ranking by the WMT25 procedure from the command line.

The fixtures are written after Pearmut's data/outputs/annotation_demo_esa.jsonl (@ f97a5c3) and
examples/annotated_cache/data/outputs/example_singlestream.jsonl (@ fb9ad41), shortened."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.pearmut import is_pearmut_log, read_pearmut_logs
from mteval_core.model.spans import ErrorSpan

FIXTURES = Path(__file__).parent / "fixtures"
ITEMS = FIXTURES / "pearmut_esa_items.jsonl"
DOCUMENTS = FIXTURES / "pearmut_documents.jsonl"


def test_one_item_per_entry_the_later_rating_kept():
    read = read_pearmut_logs([ITEMS])
    kept = {(a.system, a.item): (a.score, a.annotator) for a in read.annotations}
    assert kept == {
        ("GPT-4", "1"): (88.0, "alice"),
        ("Claude", "1"): (90.0, "alice"),
        ("GPT-4", "0"): (93.0, "bob"),
        ("Claude", "0"): (91.0, "bob"),
    }
    assert {(a.language_pair, a.domain, a.wave) for a in read.annotations} == {
        ("pearmut_esa_items", "all", 1)
    }
    assert read.notes == (
        "pearmut_esa_items.jsonl: the reader dropped 2 earlier ratings of an item rated again",
    )
    claude = next(a for a in read.annotations if (a.system, a.item) == ("Claude", "0"))
    assert claude.spans == (ErrorSpan(0, 3, "major", "Accuracy/Mistranslation"),)


def test_documents_per_entry_with_tutorials_skips_resets_and_re_ratings():
    read = read_pearmut_logs([DOCUMENTS])
    kept = [(a.system, a.item.split("_#_", 2)[2], a.score, a.annotator) for a in read.annotations]
    assert kept == [
        ("A", "edu02178_#_1", 85.0, "quiet-river-1"),
        ("B", "edu02178_#_1", 60.0, "quiet-river-1"),
        ("A", "SNG0991_#_0", 35.0, "quiet-river-1"),  # its 40 was undone by the reset
        ("B", "SNG0991_#_0", 50.0, "quiet-river-1"),
        ("A", "edu02178_#_0", 80.0, "calm-hill-2"),  # calm-hill-2 rated it after quiet-river-1
        ("B", "edu02178_#_0", 65.0, "calm-hill-2"),
    ]
    assert {(a.language_pair, a.domain) for a in read.annotations} == {
        ("cs-de_DE", "edu"),
        ("cs-de_DE", "dialogue"),
    }
    assert read.notes == (
        "pearmut_documents.jsonl: the reader dropped 2 tutorial, attention-check and goodbye "
        "entries, 1 skipped items, 1 ratings undone by a task reset, 2 earlier ratings of an "
        "item rated again",
    )


def test_logs_are_told_from_wmt25_humeval_files_by_their_first_line(tmp_path):
    assert is_pearmut_log(ITEMS) and is_pearmut_log(DOCUMENTS)
    humeval = tmp_path / "humeval.jsonl"
    humeval.write_text(json.dumps({"doc_id": "en-cs_CZ_#_news_#_d_#_0", "scores": {}}) + "\n")
    assert not is_pearmut_log(humeval)
    (tmp_path / "not.jsonl").write_text("not json\n")
    assert not is_pearmut_log(tmp_path / "not.jsonl")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            {"user_id": "u", "item_i": 0, "annotation": {"A": {"score": "good"}}},
            "the score of 'A' on item '0' is 'good', not a number",
        ),
        (
            {"user_id": "u", "item_i": 0, "annotation": [{"A": {"score": 1}}], "item": []},
            'the "annotation" is neither one object per model nor a list as long as "item"',
        ),
        (
            {"user_id": "u", "item_i": 0, "annotation": {"A": {"score": 1, "error_spans": [{}]}}},
            "the error span {} has no whole-number start_i and end_i",
        ),
    ],
)
def test_what_cannot_be_read_is_refused_with_its_line(tmp_path, entry, message):
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(entry) + "\n")
    with pytest.raises(InputError) as error:
        read_pearmut_logs([path])
    assert (error.value.origin, error.value.line, error.value.problem) == (str(path), 1, message)


def test_the_command_line_ranks_a_pearmut_log_by_the_wmt25_procedure(capsys):
    argv = ["rank", "--protocol", "wmt25", "--human", str(DOCUMENTS), "--format", "json"]
    assert main(argv) == 0
    pair = json.loads(capsys.readouterr().out)["language_pairs"]["cs-de_DE"]
    systems = [(s["system"], s["score"], s["rank"], s["cluster"]) for s in pair["systems"]]
    # A: 80, 85, 35; B: 65, 60, 50; differences 15, 25, -15: not significant at one wave
    assert systems == [
        ("A", pytest.approx(200 / 3), [1, 2], 1),
        ("B", pytest.approx(175 / 3), [1, 2], 1),
    ]
    assert pair["systems"][0]["extra"]["domains"] == {
        "dialogue": 35.0,
        "edu": pytest.approx(82.5),
    }
    assert pair["notes"][-1] == "3 segments in 2 domains, 1 wave"


def test_a_log_with_a_byte_order_mark_and_bare_scores_is_read(tmp_path):
    path = tmp_path / "da.jsonl"
    entry = {"user_id": "u", "item_i": 3, "annotation": {"A": 70, "B": {"score": 20}}}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(entry).encode() + b"\n")
    assert is_pearmut_log(path)
    read = read_pearmut_logs([path])
    assert [(a.system, a.item, a.score, a.spans) for a in read.annotations] == [
        ("A", "3", 70.0, ()),
        ("B", "3", 20.0, ()),
    ]
