"""WMT25's human ranking, equal to the organisers' own ``humeval/08-compute_clusters.py``
(@ e0cb47f) on a synthetic humeval file (tests/rankings/fixtures/wmt25_synthetic_*, made by
scripts/wmt25_human_oracle.py: WMT25's real file is a Git LFS object not obtainable here, so no
published WMT25 table is checked); the protocol's properties on ties, a system absent from a wave,
one domain and two systems; the command line."""

from __future__ import annotations

import gzip
import itertools
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import scipy
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.wmt25_humeval import read_wmt25_humeval
from mteval_core.rankings.human_wmt25 import (
    ALPHA,
    PairScores,
    clusters_from_ranks,
    rank_ranges,
    rank_wmt25,
    ranked,
)

FIXTURES = Path(__file__).parent / "fixtures"
ORACLE = json.loads((FIXTURES / "wmt25_synthetic_oracle.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def humeval(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("wmt25human") / "wmt25-genmt-humeval.jsonl"
    path.write_bytes(gzip.decompress((FIXTURES / "wmt25_synthetic_humeval.jsonl.gz").read_bytes()))
    return path


@pytest.fixture(scope="module")
def ours(humeval):
    return {r.language_pair: r for r in rank_wmt25(read_wmt25_humeval([humeval]).annotations)}


def test_scores_ranks_clusters_and_domains_equal_the_organisers_code(ours):
    assert sorted(ours) == sorted(ORACLE["language_pairs"]) == ["cs-de_DE", "en-cs_CZ", "en-ja_JP"]
    for pair, expected in ORACLE["language_pairs"].items():
        got = ours[pair].systems
        assert [s.system for s in got] == [s["system"] for s in expected["systems"]], pair
        for system, theirs in zip(got, expected["systems"]):
            assert system.score == pytest.approx(theirs["score"], abs=1e-9)
            assert list(system.rank) == theirs["rank"], (pair, system.system)
            assert system.cluster == theirs["cluster"], (pair, system.system)
            assert system.extra["domains"] == pytest.approx(theirs["domain_scores"], abs=1e-9)


def test_p_values_equal_the_organisers_code_under_the_same_scipy(ours):
    if scipy.__version__ != ORACLE["versions"]["scipy"]:
        pytest.skip(f"the fixture's p-values are scipy {ORACLE['versions']['scipy']}'s")
    compared = 0
    for pair, expected in ORACLE["language_pairs"].items():
        by_system = {s.system: s.extra["p_better_than"] for s in ours[pair].systems}
        for key, theirs in expected["p_better"].items():
            a, b = key.split("|")
            assert by_system[a][b] == pytest.approx(theirs, abs=1e-12), (pair, key)
            compared += 1
    assert compared == 16 * 15 + 11 * 10 + 20 * 19


def test_the_fixture_holds_what_it_is_made_to_test(ours):
    """A system absent from wave 2, one single-domain pair, several clusters, and the walk's
    own kind of range: a system whose first rank is above one of the systems above it."""
    waves = {s.system: s.extra["waves"] for s in ours["en-ja_JP"].systems}
    assert [name for name, means in waves.items() if means[1] is None] == ["System-Q"]
    assert len(ours["cs-de_DE"].systems[0].extra["domains"]) == 1
    assert all(len({s.cluster for s in r.systems}) >= 3 for r in ours.values())
    walked = [
        (pair, s.system)
        for pair, r in ours.items()
        for i, s in enumerate(r.systems)
        if any(s.rank[0] < above.rank[0] for above in r.systems[:i])
    ]
    assert walked


# ------------------------------------------------------------------- properties (hypothesis)
@st.composite
def pair_scores(draw, systems=(2, 4), waves=(1, 2)):
    """Integer ESA scores (ties and zero differences are common), about one in ten NaN (not
    annotated), every system with at least one score. At least 16 segments: scipy's Wilcoxon
    runs a permutation test below 14 differences with ties, too slow for many examples."""
    n_systems, n_waves = draw(st.integers(*systems)), draw(st.integers(*waves))
    n_segments = draw(st.integers(16, 24))
    cell = st.integers(0, 110).map(lambda v: math.nan if v > 100 else float(v))
    scores = np.array(
        draw(
            st.lists(
                st.lists(
                    st.lists(cell, min_size=n_segments, max_size=n_segments),
                    min_size=n_waves,
                    max_size=n_waves,
                ),
                min_size=n_systems,
                max_size=n_systems,
            )
        )
    )
    for row in scores:
        if np.isnan(row).all():
            row[0, 0] = float(draw(st.integers(0, 100)))
    domains = tuple(draw(st.lists(st.sampled_from("ab"), min_size=n_segments, max_size=n_segments)))
    return PairScores(tuple(f"s{i}" for i in range(n_systems)), scores, domains)


def _table(ranking):
    return [
        (s.system, s.score, s.rank, s.cluster, s.extra["p_better_than"]) for s in ranking.systems
    ]


@settings(max_examples=25, deadline=None)
@given(pair_scores())
def test_ranges_hold_their_position_and_clusters_follow_them(data):
    ranking = ranked("xx-yy", data)
    scores = [s.score for s in ranking.systems]
    assert scores == sorted(scores, reverse=True) or np.allclose(scores, sorted(scores)[::-1])
    for position, system in enumerate(ranking.systems, start=1):
        assert system.rank[0] <= position <= system.rank[1]
    clusters = [s.cluster for s in ranking.systems]
    assert clusters[0] == 1 and all(b - a in (0, 1) for a, b in itertools.pairwise(clusters))
    for position in range(1, len(clusters)):  # a new cluster: no range crosses the boundary
        if clusters[position] != clusters[position - 1]:
            assert all(s.rank[1] <= position for s in ranking.systems[:position])
            assert all(s.rank[0] > position for s in ranking.systems[position:])


@settings(max_examples=25, deadline=None)
@given(pair_scores(waves=(2, 2)))
def test_swapping_the_waves_changes_nothing(data):
    swapped = PairScores(data.systems, data.scores[:, ::-1, :], data.domains)
    ours, theirs = _table(ranked("xx-yy", data)), _table(ranked("xx-yy", swapped))
    assert [row[0] for row in ours] == [row[0] for row in theirs]
    for a, b in zip(ours, theirs):
        assert a[1] == pytest.approx(b[1], abs=1e-12) and a[2:4] == b[2:4]
        assert a[4] == pytest.approx(b[4], abs=1e-12, nan_ok=True)


@settings(max_examples=25, deadline=None)
@given(pair_scores(), st.randoms(use_true_random=False))
def test_the_segments_order_changes_nothing(data, rng):
    order = list(range(data.scores.shape[2]))
    rng.shuffle(order)
    shuffled = PairScores(
        data.systems, data.scores[:, :, order], tuple(data.domains[i] for i in order)
    )
    ours, theirs = _table(ranked("xx-yy", data)), _table(ranked("xx-yy", shuffled))
    assert [row[2:4] for row in ours] == [row[2:4] for row in theirs]


@settings(max_examples=5, deadline=None)
@given(pair_scores(systems=(1, 3)))
def test_a_tied_copy_is_never_significantly_different(data):
    """A system and its exact copy: the differences are zeros (same wave) and x, -x (the waves
    swapped), symmetric, so neither is significantly better (a NaN p-value, no difference left,
    is not significant either); one cluster, and each one's range reaches the other's position."""
    scores = np.concatenate([data.scores, data.scores[:1]])
    copied = PairScores((*data.systems, "copy"), scores, data.domains)
    ranking = ranked("xx-yy", copied)
    by_name = {s.system: s for s in ranking.systems}
    original, copy = by_name["s0"], by_name["copy"]
    assert original.score == copy.score
    for p in (original.extra["p_better_than"]["copy"], copy.extra["p_better_than"]["s0"]):
        assert p is None or not p < ALPHA
    assert original.cluster == copy.cluster
    positions = {s.system: i for i, s in enumerate(ranking.systems, start=1)}
    assert original.rank[0] <= positions["copy"] <= original.rank[1]


@settings(max_examples=25, deadline=None)
@given(pair_scores(waves=(2, 2)))
def test_a_system_absent_from_a_wave_is_scored_on_the_other(data):
    scores = data.scores.copy()
    scores[0, 1, :] = np.nan
    if np.isnan(scores[0]).all():
        scores[0, 0, 0] = 50.0
    ranking = ranked("xx-yy", PairScores(data.systems, scores, data.domains))
    first = next(s for s in ranking.systems if s.system == "s0")
    wave1 = scores[0, 0][~np.isnan(scores[0, 0])]
    assert first.score == pytest.approx(float(np.mean(wave1)))
    assert first.extra["waves"] == [pytest.approx(float(np.mean(wave1))), None]
    assert first.extra["annotations"] == wave1.size


@settings(max_examples=25, deadline=None)
@given(pair_scores())
def test_one_domain_columns_equal_the_scores(data):
    ranking = ranked("xx-yy", PairScores(data.systems, data.scores, ("news",) * len(data.domains)))
    for system in ranking.systems:
        assert system.extra["domains"] == {"news": pytest.approx(system.score)}
    assert ranking.notes[0].endswith(
        f"in 1 domain, {data.scores.shape[1]} wave" + "s" * (data.scores.shape[1] > 1)
    )


@settings(max_examples=25, deadline=None)
@given(pair_scores(systems=(2, 2)))
def test_two_systems_are_two_clusters_exactly_when_the_first_is_significantly_better(data):
    ranking = ranked("xx-yy", data)
    first, second = ranking.systems
    if first.extra["p_better_than"][second.system] is not None and (
        first.extra["p_better_than"][second.system] < ALPHA
    ):
        assert (first.rank, second.rank, first.cluster, second.cluster) == ((1, 1), (2, 2), 1, 2)
    else:
        assert (first.rank, second.rank, first.cluster, second.cluster) == ((1, 2), (1, 2), 1, 1)


def test_the_walk_by_hand():
    """a > b is not significant, a > c is, b > c is not: a [1, 2], b [1, 3] (nothing stops
    its walk), c [2, 3] (its walk up passes b and stops at a); no boundary, as b's range crosses
    every one. Then a beats both and b ~ c: a [1, 1], b and c [2, 3], two clusters."""
    better = {(0, 2)}
    ranks = rank_ranges(3, lambda a, b: (a, b) in better)
    assert ranks == [(1, 2), (1, 3), (2, 3)]
    assert clusters_from_ranks(ranks) == [1, 1, 1]
    better = {(0, 1), (0, 2)}  # a beats both, b ~ c
    ranks = rank_ranges(3, lambda a, b: (a, b) in better)
    assert ranks == [(1, 1), (2, 3), (2, 3)]
    assert clusters_from_ranks(ranks) == [1, 2, 2]


# ----------------------------------------------------------------------------- command line
def test_the_command_line_gives_the_documented_json(humeval, capsys):
    argv = ["rank", "--protocol", "wmt25", "--human", str(humeval), "--lp", "cs-de_DE"]
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    pair = document["language_pairs"]["cs-de_DE"]
    assert pair["protocol"] == "wmt25"
    expected = ORACLE["language_pairs"]["cs-de_DE"]["systems"][0]
    first = pair["systems"][0]
    assert (first["system"], first["rank"], first["cluster"]) == (
        expected["system"],
        expected["rank"],
        expected["cluster"],
    )
    assert set(first) == {"system", "score", "autorank", "rank", "cluster", "extra"}
    assert set(first["extra"]) == {"domains", "waves", "annotations", "p_better_than"}
    assert any("wave entries not annotated" in note for note in pair["notes"])


def test_the_command_line_refuses_documents_for_wmt25(humeval, tmp_path, capsys):
    docs = tmp_path / "en-cs.docs"
    docs.write_text("canary\tcanary\n")
    assert main(["rank", "--protocol", "wmt25", "--human", str(humeval), "--documents", str(docs)])
    assert "--protocol wmt25 takes no --documents" in capsys.readouterr().err


def test_the_command_line_needs_the_annotations(capsys):
    assert main(["rank", "--protocol", "wmt25"]) == 2
    assert "--protocol wmt25 needs --human" in capsys.readouterr().err


def test_systems_without_a_common_segment_are_never_significantly_different():
    """A missing pair: a and b rated on other segments, so no difference; the p-value is
    undefined (None) both ways and counts as not significant, as nan < 0.025 in the organisers'
    code. c, far below both, is tested against each on the segments it shares."""
    scores = np.full((3, 1, 32), np.nan)
    scores[0, 0, :16] = 90 + np.arange(16) % 5  # a: the first 16 segments
    scores[1, 0, 16:] = 80 + np.arange(16) % 7  # b: the other 16
    scores[2, 0, :] = 10 + np.arange(32) % 3  # c: all, far below
    ranking = ranked("xx-yy", PairScores(("a", "b", "c"), scores, ("news",) * 32))
    by_name = {s.system: s for s in ranking.systems}
    assert by_name["a"].extra["p_better_than"]["b"] is None
    assert by_name["b"].extra["p_better_than"]["a"] is None
    assert [(s.system, s.rank, s.cluster) for s in ranking.systems] == [
        ("a", (1, 2), 1),
        ("b", (1, 2), 1),
        ("c", (3, 3), 2),
    ]


def test_too_many_systems_are_refused_before_any_test(monkeypatch):
    from mteval_core.io.wmt25_humeval import HumanAnnotation
    from mteval_core.rankings import human_wmt25

    monkeypatch.setattr(human_wmt25, "MAX_HUMAN_RANKED_SYSTEMS", 2)
    monkeypatch.setattr(human_wmt25, "p_better", lambda a, b: pytest.fail("tested"))
    annotations = [
        HumanAnnotation("en-cs_CZ", "news", "d_#_0", name, 1, 50.0, "x", (), "h.jsonl", 1)
        for name in "abc"
    ]
    with pytest.raises(InputError) as error:
        rank_wmt25(annotations)
    assert str(error.value) == (
        "h.jsonl: en-cs_CZ has 3 systems: the WMT25 ranking tests every ordered pair (6 Wilcoxon "
        "tests) and takes at most 2 systems per language pair. Rank fewer systems at once: leave "
        "some out of the file."
    )


def test_a_segment_annotated_twice_in_one_wave_is_refused(humeval, capsys):
    """The humeval file and its -noyoutube copy given together: every kept segment twice."""
    assert main(["rank", "--protocol", "wmt25", "--human", str(humeval), str(humeval)]) == 2
    error = capsys.readouterr().err
    path = re.escape(str(humeval))
    assert re.search(
        rf"{path}, line (\d+): refA's segment cs-de_DE_#_news_#_\S+ is annotated twice in "
        rf"wave 1: here and in {path}, line \1\. Give each segment once",
        error,
    ), error
