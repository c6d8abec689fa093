"""WMT24's human ranking from the ESA waves as shipped, equal to the organisers' own code on the
same files (tests/rankings/fixtures/wmt24_waves23_oracle.json, made by
scripts/wmt24_human_oracle.py from calculate_clusters.py at bfa937e on waves 2-3, the only
public ones: not the official WMT24 table, which also used waves 0-1 and MQM); the reader's
filters and refusals; hand-checked clusters and ranks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import scipy

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.appraise_esa import read_documents, read_esa_exports
from mteval_core.rankings.human import _clusters, rank_wmt24

ORACLE = json.loads(
    (Path(__file__).parent / "fixtures" / "wmt24_waves23_oracle.json").read_text(encoding="utf-8")
)


@pytest.fixture(scope="module")
def ours(wmt24):
    export = read_esa_exports(sorted((wmt24 / "waves").glob("*.csv")))
    documents = dict(read_documents(p) for p in sorted((wmt24 / "documents").glob("*.docs")))
    return export, {r.language_pair: r for r in rank_wmt24(export.ratings, documents)}


def test_scores_ranks_and_clusters_equal_the_organisers_code(ours):
    _, rankings = ours
    assert (
        sorted(rankings) == sorted(ORACLE["language_pairs"]) == ["en-cs", "en-hi", "en-ja", "en-zh"]
    )
    for pair, expected in ORACLE["language_pairs"].items():
        got = rankings[pair].systems
        assert [s.system for s in got] == [s["system"] for s in expected["systems"]], pair
        for system, theirs in zip(got, expected["systems"]):
            assert system.score == pytest.approx(theirs["score"], abs=1e-9)
            assert list(system.rank) == theirs["rank"]
            assert system.cluster == theirs["cluster"]
            assert f"{system.extra['wins']}/{system.extra['losses']}" == theirs["wins_losses"]
            assert system.extra["domains"] == pytest.approx(theirs["domain_scores"], abs=1e-9)


def test_p_values_equal_the_organisers_code_under_the_same_scipy(ours):
    if scipy.__version__ != ORACLE["versions"]["scipy"]:
        pytest.skip(f"the fixture's p-values are scipy {ORACLE['versions']['scipy']}'s")
    _, rankings = ours
    compared = 0
    for pair, expected in ORACLE["language_pairs"].items():
        by_system = {s.system: s.extra["p_values"] for s in rankings[pair].systems}
        for key, theirs in expected["pvalues_stouffer"].items():
            a, b = key.split("|")
            assert by_system[a][b] == pytest.approx(theirs, abs=1e-12), (pair, key)
            compared += 1
    assert compared == 662


def test_the_filters_are_counted_in_notes(ours):
    export, _ = ours
    wave2 = next(n for n in export.notes if n.startswith("esa_generalMT2024_wave2.csv"))
    for part in (
        "1,228 tutorial ratings",
        "2,448 attention-check items",
        "746 #incomplete",
        "166 #dup",
        "105 earlier ratings",
    ):
        assert part in wave2


def test_the_command_line_gives_the_documented_json(wmt24, capsys):
    argv = [
        "rank",
        "--protocol",
        "wmt24",
        "--human",
        *map(str, sorted((wmt24 / "waves").glob("*.csv"))),
    ]
    argv += ["--documents", *map(str, sorted((wmt24 / "documents").glob("*.docs")))]
    assert main([*argv, "--lp", "en-hi", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    pair = document["language_pairs"]["en-hi"]
    assert pair["protocol"] == "wmt24"
    first = pair["systems"][0]
    assert (first["system"], first["rank"], first["cluster"]) == ("Claude-3.5", [1, 1], 1)
    assert set(first) == {"system", "score", "autorank", "rank", "cluster", "extra"}


# ------------------------------------------------------------------------- small, by hand
ROW = "ann1,{system},{segment},TGT,eng,ces,{score},{doc},False,[],1,{end}"


def export(tmp_path, *rows):
    path = tmp_path / "wave.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_the_latest_rating_of_an_item_is_kept(tmp_path):
    path = export(
        tmp_path,
        ROW.format(system="A", segment=1, score=10, doc="d", end="5"),
        ROW.format(system="A", segment=1, score=90, doc="d", end="7"),
        ROW.format(system="A", segment=1, score=50, doc="d", end="6"),
        ROW.format(system="ende-tutorial1", segment=2, score=0, doc="d", end="1"),
    )
    read = read_esa_exports([path])
    assert [r.score for r in read.ratings] == [90.0]
    assert "2 earlier ratings" in read.notes[0] and "1 tutorial ratings" in read.notes[0]


def test_a_short_row_is_refused_with_its_line(tmp_path):
    path = export(tmp_path, ROW.format(system="A", segment=1, score=1, doc="d", end="1"), "a,b,c")
    with pytest.raises(InputError, match="line 2: this row has 3 fields"):
        read_esa_exports([path])


def test_a_document_that_is_not_on_its_line_is_refused(tmp_path):
    path = export(tmp_path, ROW.format(system="A", segment=1, score=1, doc="d", end="1"))
    read = read_esa_exports([path])
    with pytest.raises(InputError, match="segment 1 is in document 'd'"):
        rank_wmt24(read.ratings, {"en-cs": [("canary", "canary"), ("news", "other")]})


def test_clusters_by_hand():
    systems = ["a", "b", "c", "d"]
    significant = {("a", "b"), ("a", "c"), ("a", "d"), ("b", "d"), ("c", "d")}
    p = {
        (x, y): 0.01 if (x, y) in significant or (y, x) in significant else 0.5
        for x in systems
        for y in systems
        if x != y
    }
    # a beats all; b ~ c; d loses to all: three clusters
    assert _clusters(systems, p) == {"a": 1, "b": 2, "c": 2, "d": 3}
