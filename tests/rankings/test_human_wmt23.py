"""WMT23's human ranking, equal to Appraise's ComputeWMT23Results run on the same export
(tests/rankings/fixtures/wmt23_synthetic_oracle.json and the export beside it, made by
scripts/wmt23_human_oracle.py: the organisers' rm_bad_docs.py, grep -v ",True," and the command
at AppraiseDev/Appraise 12103f1 on a synthetic DA+SQM export, WMT23's raw file not being
public); the cluster lines and rank ranges of the published WMT23.results.txt from its printed
wins; the reader's filters and refusals."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
import scipy
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.appraise_da_sqm import DASQMRating, read_da_sqm_exports, read_da_sqm_text
from mteval_core.rankings.human_wmt23 import (
    annotator_scales,
    clusters_from_wins,
    pair_name,
    rank_wmt23,
)

FIXTURES = Path(__file__).parent / "fixtures"
ORACLE = json.loads((FIXTURES / "wmt23_synthetic_oracle.json").read_text(encoding="utf-8"))
PUBLISHED = json.loads((FIXTURES / "wmt23_results_published.json").read_text(encoding="utf-8"))
EXPORT = gzip.decompress((FIXTURES / ORACLE["export"]).read_bytes()).decode("utf-8")


@pytest.fixture(scope="module")
def ours():
    kept, dropped = read_da_sqm_text(EXPORT, "export.csv", set(ORACLE["exclude_ids"]))
    rankings = {r.language_pair: r for r in rank_wmt23(kept)}
    return kept, dropped, rankings


def _theirs(pair: str) -> dict:
    return ORACLE["language_pairs"][pair]


def _name(pair: str) -> str:
    return pair_name(tuple(pair.split("-")))


def test_scores_z_scores_ranks_and_clusters_equal_the_organisers_code_bit_for_bit(ours):
    _, _, rankings = ours
    assert sorted(rankings) == ["cs-uk", "en-de", "ja-en"]
    for pair in ORACLE["language_pairs"]:
        got = rankings[_name(pair)].systems
        expected = _theirs(pair)["systems"]
        assert len(got) == len(expected) in (8, 11, 14)
        for system, theirs in zip(got, expected):
            assert system.system == theirs["system"]
            assert system.score == theirs["raw"]  # exactly: the same sums in the same order
            assert system.extra["z"] == theirs["z"]
            assert system.extra["ratings"] == theirs["ratings"]
            assert list(system.rank) == theirs["rank"]
            assert system.cluster == theirs["cluster"]


def test_every_p_value_equals_the_organisers_code_under_the_same_scipy(ours):
    if scipy.__version__ != ORACLE["versions"]["scipy"]:
        pytest.skip(f"the fixture's p-values are scipy {ORACLE['versions']['scipy']}'s")
    _, _, rankings = ours
    compared, without_common_items = 0, 0
    for pair in ORACLE["language_pairs"]:
        systems = rankings[_name(pair)].systems
        tests = _theirs(pair)["tests"]
        for i, better in enumerate(systems):
            for worse in systems[i + 1 :]:
                p = better.extra["p_values"][worse.system]
                test = tests.get(f"{better.system}|{worse.system}")
                if test is None:  # the command sets p = 1 without a test: no common item
                    assert p == 1.0
                    without_common_items += 1
                else:
                    assert p == test["p"], (pair, better.system, worse.system)
                    compared += 1
    assert (compared, without_common_items) == (28 + 55 + 91 - 1, 1)


def test_their_self_tests_never_count(ours):
    """The command also tests each system against itself; the module says that p is never
    below 0.5, so leaving those tests out changes no win."""
    selves = [
        t["p"]
        for pair in ORACLE["language_pairs"].values()
        for key, t in pair["tests"].items()
        if key.split("|")[0] == key.split("|")[1]
    ]
    assert len(selves) == 8 + 11 + 14
    assert min(selves) >= 0.5


def test_annotator_means_and_sample_deviations_equal_the_organisers(ours):
    kept, _, _ = ours
    for pair, theirs in ORACLE["language_pairs"].items():
        rows = [r for r in kept if "-".join(r.languages) == pair]
        scales = annotator_scales(rows)
        assert {a: list(v) for a, v in scales.items()} == theirs["annotators"]


def test_the_filters_are_counted(ours):
    """The counts are what the synthetic export holds; that the kept ratings are the ones the
    organisers' filters keep is the equality of every system's rating count above."""
    _, dropped, _ = ours
    assert dict(dropped) == {
        "rows of documents with a BAD quality-control item": 242,
        "document-level scores": 544,
        "items neither TGT nor CHK (e.g. REF)": 116,
        "ratings of excluded annotators": 81,
    }


def test_the_published_cluster_lines_and_rank_ranges_follow_from_the_printed_wins():
    """WMT23.results.txt (the organisers' output; its raw input is not public, so its scores and
    p-values cannot be recomputed here) prints each system's wins: from them alone our cluster
    rule draws every published cluster line and gives every published worst rank, and the
    published best ranks account for exactly as many losses as there are wins."""
    checked = 0
    for pair, rows in PUBLISHED["language_pairs"].items():
        wins = [row["wins"] for row in rows]
        assert clusters_from_wins(wins) == [row["cluster"] for row in rows], pair
        assert [row["rank"][1] for row in rows] == [len(rows) - w for w in wins], pair
        assert sum(row["rank"][0] - 1 for row in rows) == sum(wins), pair
        checked += len(rows)
    assert checked == 124 and len(PUBLISHED["language_pairs"]) == 8


def test_the_command_line_gives_the_documented_json(tmp_path, capsys):
    export = tmp_path / "scores_all.csv"
    export.write_text(EXPORT, encoding="utf-8")
    argv = ["rank", "--protocol", "wmt23", "--human", str(export), "--exclude-annotators"]
    assert main([*argv, "ENGDEU0399", "--lp", "en-de", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    pair = document["language_pairs"]["en-de"]
    assert pair["protocol"] == "wmt23"
    assert "81 ratings of excluded annotators" in pair["notes"][0]
    first = pair["systems"][0]
    assert (first["system"], first["rank"], first["cluster"]) == ("ende-sys08", [1, 1], 1)
    assert set(first["extra"]) == {"z", "ratings", "items", "wins", "losses", "p_values"}


# ------------------------------------------------------------------------- small, by hand
ROW = "{a},{s},{seg},{kind},eng,deu,{score},{doc},{is_doc},1,2"


def _text(*rows: dict) -> str:
    defaults = {"a": "ann1", "kind": "TGT", "doc": "d1", "is_doc": "False"}
    return "\n".join(ROW.format(**{**defaults, **row}) for row in rows) + "\n"


def test_a_document_with_a_bad_item_is_dropped_whole_and_only_that_run():
    text = _text(
        {"s": "A", "seg": 1, "score": 80},
        {"s": "A", "seg": 2, "score": 10, "kind": "BAD"},
        {"s": "A", "seg": 3, "score": 90, "is_doc": "True"},
        {"s": "A", "seg": 1, "score": 70},  # a new run: the document-level row ended the last
        {"s": "B", "seg": 1, "score": 60, "kind": "REF"},
        {"s": "B", "seg": 2, "score": 65, "kind": "CHK"},
    )
    kept, dropped = read_da_sqm_text(text, "x.csv")
    assert [(r.system, r.score) for r in kept] == [("A", 70), ("B", 65)]
    assert dropped == {
        "rows of documents with a BAD quality-control item": 3,
        "items neither TGT nor CHK (e.g. REF)": 1,
    }


def test_the_note_names_the_file(tmp_path):
    path = tmp_path / "wave.csv"
    path.write_text(_text({"s": "A", "seg": 1, "score": 5, "is_doc": "True"}), encoding="utf-8")
    assert read_da_sqm_exports([path]).notes == (
        "wave.csv: the quality filters dropped 1 document-level scores",
    )


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("a,b,c", "line 2: this row has 3 comma-separated fields, a WMT23 DA+SQM export has 11"),
        (
            ROW.format(a="x", s="A", seg=1, kind="TGT", score="7.5", doc="d", is_doc="False"),
            "line 2, column Score (7th field): the score '7.5' is not an integer from 0 to 100",
        ),
        (
            ROW.format(a="x", s="A", seg=1, kind="TGT", score="101", doc="d", is_doc="False"),
            "line 2, column Score (7th field): the score '101' is not an integer from 0 to 100",
        ),
        (
            ROW.format(a="x", s="A", seg=1, kind="TGT", score="\u0665", doc="d", is_doc="False"),
            "line 2, column Score (7th field): the score '\u0665' is not an integer from 0 to",
        ),
        (
            ROW.format(a="x", s="A", seg="s1", kind="TGT", score="7", doc="d", is_doc="False"),
            "line 2, column SegmentID (3rd field): the segment id 's1' is not a whole number",
        ),
    ],
)
def test_a_bad_row_is_refused_with_its_file_line_and_field(tmp_path, row, message):
    path = tmp_path / "scores.csv"
    path.write_text(_text({"s": "A", "seg": 1, "score": 50}) + row + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(f"scores.csv, {message}")):
        read_da_sqm_exports([path])


def test_equal_scores_keep_both_systems_and_say_so():
    text = _text({"s": "A", "seg": 1, "score": 50}, {"s": "B", "seg": 1, "score": 50})
    kept, _ = read_da_sqm_text(text, "x")
    (ranking,) = rank_wmt23(kept)
    assert [s.system for s in ranking.systems] == ["A", "B"]
    assert any("A and B have exactly the same score" in note for note in ranking.notes)


def test_clusters_by_hand():
    # 4 systems: the first beats all three below it, the next two tie, the last beats none
    assert clusters_from_wins([3, 1, 1, 0]) == [1, 2, 2, 3]
    # a system lower down that wins less than the ones above it keeps them in its cluster
    assert clusters_from_wins([2, 0, 0]) == [1, 2, 2]
    assert clusters_from_wins([1, 1, 0]) == [1, 1, 2]


# ------------------------------------------------------------------------- properties
def _ratings(data: list[tuple[int, int, int, int]]) -> list[DASQMRating]:
    return [
        DASQMRating(f"ann{a}", f"S{s}", str(seg), f"doc{seg % 3}", ("eng", "deu"), score, "TGT", i)
        for i, (a, s, seg, score) in enumerate(data, start=1)
    ]


RATINGS = st.lists(
    st.tuples(
        st.integers(0, 2), st.integers(0, 3), st.integers(1, 8), st.sampled_from([0, 50, 100])
    ),
    min_size=2,
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(RATINGS)
def test_ranks_and_clusters_are_consistent_on_ties_and_missing_items(data):
    """Scores from three values (many ties), systems with items the others lack or none in
    common: every rank range holds the system's place, clusters never decrease and the systems
    are in score order."""
    (ranking,) = rank_wmt23(_ratings(data))
    systems = ranking.systems
    n = len(systems)
    assert [s.score for s in systems] == sorted((s.score for s in systems), reverse=True)
    clusters = [s.cluster for s in systems]
    assert clusters == sorted(clusters) and clusters[0] == 1
    for place, system in enumerate(systems, start=1):
        first, last = system.rank
        assert 1 <= first <= place <= last <= n
        assert system.extra["wins"] + system.extra["losses"] <= n - 1
        for p in system.extra["p_values"].values():
            assert 0 <= p <= 1


def test_two_systems_one_better_on_every_item():
    data = [(0, 0, seg, 100) for seg in range(1, 9)] + [(0, 1, seg, 0) for seg in range(1, 9)]
    (ranking,) = rank_wmt23(_ratings(data))
    (a, b) = ranking.systems
    assert (a.system, a.rank, a.cluster, b.rank, b.cluster) == ("S0", (1, 1), 1, (2, 2), 2)
    assert a.extra["p_values"]["S1"] < 0.05
