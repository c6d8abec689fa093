"""WMT25's humeval JSON Lines in both layouts the organisers' scripts have read (a list of waves,
08-compute_clusters.py; human1/human2 keys, 05-collect_humeval.py and 07-compute_clusters.py):
spans kept with their wave and annotator, the filters counted, refusals with file and line. The
file is the synthetic one of tests/rankings/fixtures (WMT25's own is a Git LFS object not
obtainable here)."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from mteval_core.errors import InputError
from mteval_core.io.wmt25_humeval import read_wmt25_humeval
from mteval_core.model.spans import ErrorSpan
from mteval_core.rankings.human_wmt25 import rank_wmt25

SYNTHETIC = Path(__file__).parents[1] / "rankings" / "fixtures" / "wmt25_synthetic_humeval.jsonl.gz"


@pytest.fixture(scope="module")
def lines() -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(SYNTHETIC.read_bytes()).splitlines()]


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _keys_layout(line: dict) -> dict:
    """One line in 05-collect_humeval.py's layout: human1, errors1, annotator1, times1... and no
    key for a wave not annotated."""
    scores = {}
    for system, waves in line["scores"].items():
        entry = {}
        for wave, values in enumerate(waves, start=1):
            if not math.isnan(values["score"]):
                entry |= {
                    f"human{wave}": values["score"],
                    f"errors{wave}": values["errors"],
                    f"annotator{wave}": values["annotator"],
                    f"times{wave}": values["times"],
                }
        scores[system] = entry
    return line | {"scores": scores}


def test_every_annotated_wave_entry_is_kept_with_its_spans(lines, tmp_path):
    read = read_wmt25_humeval([_write(tmp_path / "h.jsonl", lines)])
    entries = [(line, s, w) for line in lines for s, ws in line["scores"].items() for w in ws]
    annotated = [e for e in entries if not math.isnan(e[2]["score"])]
    assert len(read.annotations) == len(annotated)
    assert read.notes == (
        f"h.jsonl: the reader dropped {len(entries) - len(annotated):,} wave entries not "
        "annotated (score NaN or null)",
    )
    first = next(a for a in read.annotations if a.spans)
    line = lines[first.line - 1]
    written = line["scores"][first.system][first.wave - 1]
    assert first.spans == tuple(
        ErrorSpan(e["start_i"], e["end_i"], e["severity"]) for e in written["errors"]
    )
    assert (first.annotator, first.item) == (written["annotator"], line["doc_id"])
    assert (first.language_pair, first.domain) == tuple(line["doc_id"].split("_#_")[:2])
    assert sum(len(a.spans) for a in read.annotations) == sum(
        len(w["errors"]) for _, _, w in annotated
    )


def test_the_human1_human2_layout_reads_and_ranks_the_same(lines, tmp_path):
    waves = read_wmt25_humeval([_write(tmp_path / "waves.jsonl", lines)])
    keys = read_wmt25_humeval([_write(tmp_path / "keys.jsonl", [_keys_layout(x) for x in lines])])
    assert [
        (a.item, a.system, a.wave, a.score, a.annotator, a.spans) for a in keys.annotations
    ] == [(a.item, a.system, a.wave, a.score, a.annotator, a.spans) for a in waves.annotations]
    assert keys.notes == ()  # nothing to drop: a wave not annotated has no key
    ranked = [
        [(s.system, s.rank, s.cluster) for s in r.systems] for r in rank_wmt25(keys.annotations)
    ]
    assert ranked == [
        [(s.system, s.rank, s.cluster) for s in r.systems] for r in rank_wmt25(waves.annotations)
    ]


def test_lines_without_scores_are_dropped_and_counted(tmp_path):
    path = _write(
        tmp_path / "h.jsonl",
        [
            {"doc_id": "en-cs_CZ_#_news_#_d_#_0", "scores": {}},
            {
                "doc_id": "en-cs_CZ_#_news_#_d_#_1",
                "scores": {"A": [{"score": 50, "errors": None}, {"score": None}]},
            },
        ],
    )
    read = read_wmt25_humeval([path])
    assert [(a.system, a.wave, a.score, a.spans, a.annotator) for a in read.annotations] == [
        ("A", 1, 50.0, (), "unknown")
    ]
    assert read.notes == (
        "h.jsonl: the reader dropped 1 lines with no scores, 1 wave entries not annotated "
        "(score NaN or null)",
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "{not json",
            "this line is not valid JSON (Expecting property name enclosed in double quotes)",
        ),
        ("[1, 2]", "this line is JSON but not an object ({...})"),
        (
            '{"doc_id": 1' + "0" * 5000 + "}",
            "this line is not valid JSON (a number with too many digits)",
        ),
        (
            '{"doc_id": "en-cs_CZ", "scores": {}}',
            "the doc_id 'en-cs_CZ' is not pair_#_domain_#_document_#_paragraph",
        ),
        ('{"doc_id": "en-cs_CZ_#_news_#_d_#_0"}', 'this line has no "scores" object'),
        (
            '{"doc_id": "en-cs_CZ_#_news_#_d_#_0", "scores": {"A": [{"score": "80"}]}}',
            "the score of 'A' in wave 1 is '80', not a number",
        ),
        (
            '{"doc_id": "en-cs_CZ_#_news_#_d_#_0", "scores": {"A": 80}}',
            "the scores of 'A' are neither a list of waves nor an object with human1, human2...",
        ),
        (
            '{"doc_id": "en-cs_CZ_#_news_#_d_#_0", "scores": {"A": [{"score": 1, "errors": '
            '[{"start_i": 1.5, "end_i": 2}]}]}}',
            "the error span {'start_i': 1.5, 'end_i': 2} has no whole-number start_i and end_i",
        ),
    ],
)
def test_what_cannot_be_read_is_refused_with_file_and_line(tmp_path, text, problem):
    path = tmp_path / "h.jsonl"
    path.write_text('{"doc_id": "en-cs_CZ_#_news_#_d_#_9", "scores": {}}\n' + text + "\n")
    with pytest.raises(InputError) as error:
        read_wmt25_humeval([path])
    assert (error.value.origin, error.value.line, error.value.problem) == (str(path), 2, problem)
