"""The custom human protocol: with WMT24's parts (raw, domain average, Wilcoxon + Stouffer, no
correction) on the public ESA waves 2-3 every score, rank range and all 662 p-values equal the
organisers' calculate_clusters.py (tests/rankings/fixtures/wmt24_waves23_oracle.json); its raw
and z-normalised micro scores equal WMT23's (the organisers' ComputeWMT23Results on the synthetic
export of tests/rankings/fixtures), its two-sided Mann-Whitney p-values twice the organisers'
one-sided ones; properties on ties, a
system without items in a domain, a single domain and two systems; the command line's parts
and refusals."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.appraise_da_sqm import read_da_sqm_text
from mteval_core.io.appraise_esa import read_documents, read_esa_exports
from mteval_core.rankings.human_custom import (
    CustomProtocol,
    HumanRating,
    corrected_p_values,
    from_da_sqm,
    from_esa,
    rank_custom,
)
from mteval_core.settings.limits import MAX_RESAMPLES

FIXTURES = Path(__file__).parent / "fixtures"
ORACLE = json.loads((FIXTURES / "wmt23_synthetic_oracle.json").read_text(encoding="utf-8"))
EXPORT = gzip.decompress((FIXTURES / ORACLE["export"]).read_bytes()).decode("utf-8")
NAMES = {"ces-ukr": "cs-uk", "eng-deu": "en-de", "jpn-eng": "ja-en"}


@pytest.fixture(scope="module")
def synthetic():
    kept, _ = read_da_sqm_text(EXPORT, "export.csv", set(ORACLE["exclude_ids"]))
    return from_da_sqm(kept)


WMT24_ORACLE = json.loads((FIXTURES / "wmt24_waves23_oracle.json").read_text(encoding="utf-8"))


def test_wmt24_s_parts_give_wmt24_s_scores_p_values_and_rank_ranges_on_the_public_waves(wmt24):
    """WMT24 keeps an item per wave and custom averages an item's ratings across waves: the
    equality shows that this changes nothing on these files. The clusters differ by design
    (AssignRanks, not WMT24's get_clusters), so they are not compared."""
    if scipy.__version__ != WMT24_ORACLE["versions"]["scipy"]:
        pytest.skip(f"the fixture's p-values are scipy {WMT24_ORACLE['versions']['scipy']}'s")
    export = read_esa_exports(sorted((wmt24 / "waves").glob("*.csv")))
    documents = dict(read_documents(p) for p in sorted((wmt24 / "documents").glob("*.docs")))
    protocol = CustomProtocol("raw", "domain", "wilcoxon-stouffer", correction="none")
    rankings = rank_custom(from_esa(export.ratings, documents), protocol)
    compared = 0
    for ranking in rankings:
        expected = WMT24_ORACLE["language_pairs"][ranking.language_pair]
        assert [s.system for s in ranking.systems] == [s["system"] for s in expected["systems"]]
        for system, theirs in zip(ranking.systems, expected["systems"]):
            assert system.score == pytest.approx(theirs["score"], abs=1e-9)
            assert list(system.rank) == theirs["rank"]
            assert system.extra["domains"] == pytest.approx(theirs["domain_scores"], abs=1e-9)
            for other, p in system.extra["p_values"].items():
                theirs_p = expected["pvalues_stouffer"][f"{system.system}|{other}"]
                assert p == pytest.approx(theirs_p, abs=1e-12)
                compared += 1
    assert compared == 662


def _by_name(rankings):
    return {r.language_pair: {s.system: s for s in r.systems} for r in rankings}


def test_raw_and_z_micro_scores_equal_the_organisers_wmt23_numbers(synthetic):
    raw = _by_name(rank_custom(synthetic, CustomProtocol("raw", "micro", "mann-whitney")))
    z = _by_name(rank_custom(synthetic, CustomProtocol("z", "micro", "mann-whitney")))
    for pair, theirs in ORACLE["language_pairs"].items():
        for system in theirs["systems"]:
            ours_raw = raw[NAMES[pair]][system["system"]]
            assert ours_raw.score == pytest.approx(system["raw"], rel=1e-13)
            assert ours_raw.extra["ratings"] == system["ratings"]
            assert z[NAMES[pair]][system["system"]].score == pytest.approx(system["z"], abs=1e-13)


def test_two_sided_mann_whitney_is_twice_the_organisers_one_sided_p(synthetic):
    """scipy's two-sided U test is twice the smaller one-sided p (at most 1); where the
    higher-scored system's one-sided p is below 0.5 it is that p, so ours is twice theirs."""
    protocol = CustomProtocol("raw", "micro", "mann-whitney", correction="none")
    ours = _by_name(rank_custom(synthetic, protocol))
    compared = 0
    for pair, theirs in ORACLE["language_pairs"].items():
        for key, test in theirs["tests"].items():
            a, b = key.split("|")
            if a != b and test["p"] < 0.5:
                p = ours[NAMES[pair]][a].extra["p_values"][b]
                assert p == pytest.approx(2 * test["p"], rel=1e-9), (pair, key)
                compared += 1
    assert compared > 150


def test_corrections_never_lower_a_p_value():
    rng = np.random.default_rng(5)
    values = rng.uniform(0, 0.2, size=(6, 6))
    p = np.triu(values, 1) + np.triu(values, 1).T
    p[np.diag_indices(6)] = np.nan
    p[0, 3] = p[3, 0] = np.nan  # a pair without a test stays without one, outside the family
    upper = np.triu_indices(6, 1)
    none, holm, bonferroni = (corrected_p_values(p, c) for c in ("none", "holm", "bonferroni"))
    defined = ~np.isnan(p[upper])
    assert np.array_equal(none[upper], p[upper], equal_nan=True)
    assert np.all(holm[upper][defined] >= p[upper][defined])
    assert np.all(bonferroni[upper][defined] >= holm[upper][defined] - 1e-15)
    assert np.allclose(bonferroni[upper][defined], np.minimum(1, p[upper][defined] * 14))
    assert np.isnan(holm[0, 3]) and np.array_equal(holm, holm.T, equal_nan=True)


# ------------------------------------------------------------------------- properties
def _ratings(data, domains_of=lambda item: f"dom{item % 2}"):
    return {
        "en-de": [
            HumanRating(f"ann{a}", f"S{s}", f"d:{item}", domains_of(item), float(score))
            for a, s, item, score in data
        ]
    }


RATINGS = st.lists(
    st.tuples(
        st.integers(0, 2), st.integers(0, 3), st.integers(0, 9), st.sampled_from([0, 50, 100])
    ),
    min_size=2,
    max_size=50,
)
FAST_TESTS = st.sampled_from(["mann-whitney", "bootstrap", "ar", "wilcoxon"])
PROTOCOLS = st.builds(
    CustomProtocol,
    normalise=st.sampled_from(["raw", "z"]),
    average=st.sampled_from(["micro", "domain"]),
    test=FAST_TESTS,
    correction=st.sampled_from(["none", "holm", "bonferroni"]),
    resamples=st.just(200),
)


@settings(max_examples=40, deadline=None)
@given(RATINGS, PROTOCOLS)
def test_rank_ranges_and_clusters_are_consistent_on_ties_and_missing_pairs(data, protocol):
    (ranking,) = rank_custom(_ratings(data), protocol)
    systems = ranking.systems
    n = len(systems)
    assert [s.score for s in systems] == sorted((s.score for s in systems), reverse=True)
    assert [s.cluster for s in systems] == sorted(s.cluster for s in systems)
    for place, system in enumerate(systems, start=1):
        first, last = system.rank
        assert 1 <= first <= place <= last <= n
        for p in system.extra["p_values"].values():
            assert p is None or 0 <= p <= 1


@settings(max_examples=30, deadline=None)
@given(RATINGS, FAST_TESTS)
def test_a_single_domain_makes_the_domain_average_the_micro_average(data, test):
    ratings = _ratings(data, domains_of=lambda item: "news")
    micro, domain = (
        rank_custom(ratings, CustomProtocol(average=a, test=test, resamples=100))[0]
        for a in ("micro", "domain")
    )
    assert [s.system for s in micro.systems] == [s.system for s in domain.systems]
    for a, b in zip(micro.systems, domain.systems):
        assert a.score == pytest.approx(b.score, abs=1e-12)
        assert a.extra["domains"] == {"news": pytest.approx(a.score, abs=1e-12)}


def test_a_system_without_items_in_a_domain_averages_the_domains_it_has():
    data = [(0, 0, item, 80) for item in range(6)] + [(0, 1, item, 40) for item in (0, 2, 4)]
    (ranking,) = rank_custom(_ratings(data), CustomProtocol(average="domain"))
    s1 = next(s for s in ranking.systems if s.system == "S1")
    assert s1.extra["domains"] == {"dom0": 40.0, "dom1": None}
    assert s1.score == 40.0


def test_equal_systems_are_never_significant():
    data = [
        (a, s, item, 50 + 10 * (item % 3)) for a in (0, 1) for s in (0, 1, 2) for item in range(9)
    ]
    for test in ("wilcoxon", "wilcoxon-stouffer", "mann-whitney", "bootstrap", "ar"):
        (ranking,) = rank_custom(_ratings(data), CustomProtocol(test=test, resamples=200))
        assert [(s.rank, s.cluster) for s in ranking.systems] == [((1, 3), 1)] * 3, test


@pytest.mark.parametrize(
    "test", ["wilcoxon", "wilcoxon-stouffer", "mann-whitney", "bootstrap", "ar"]
)
def test_two_systems_one_better_on_every_item(test):
    data = [(0, 0, item, 90 + item % 3) for item in range(30)]
    data += [(0, 1, item, 20 + item % 5) for item in range(30)]
    (ranking,) = rank_custom(_ratings(data), CustomProtocol(test=test, resamples=500))
    a, b = ranking.systems
    assert (a.system, a.rank, a.cluster, b.rank, b.cluster) == ("S0", (1, 1), 1, (2, 2), 2)


def test_a_pair_without_a_common_item_has_no_test():
    data = [(0, 0, item, 90) for item in range(5)] + [(0, 1, item, 10) for item in range(5, 10)]
    (ranking,) = rank_custom(_ratings(data), CustomProtocol())
    assert ranking.systems[0].extra["p_values"] == {"S1": None}
    assert [s.rank for s in ranking.systems] == [(1, 2), (1, 2)]
    assert any("1 pair(s) without a test" in note for note in ranking.notes)


def test_too_few_resamples_for_the_correction_are_named():
    data = [(0, s, item, 10 * s + item % 4) for s in range(6) for item in range(20)]
    (ranking,) = rank_custom(_ratings(data), CustomProtocol(test="ar", resamples=100))
    assert (
        "with 100 resamples and holm over 15 tests no pair can reach p < 0.05: 300 resamples "
        "at least are needed" in ranking.notes
    )


@pytest.mark.parametrize(
    ("protocol", "message"),
    [
        (CustomProtocol(alpha=1.5), "the significance level 1.5 is not between 0 and 1"),
        (
            CustomProtocol(resamples=MAX_RESAMPLES + 1),
            f"{MAX_RESAMPLES + 1:,} resamples: from 1 to MAX_RESAMPLES ({MAX_RESAMPLES:,})",
        ),
        (CustomProtocol(test="t-test"), "no test 't-test'"),
    ],
)
def test_impossible_parts_are_refused_before_any_work(protocol, message):
    with pytest.raises(InputError) as refused:
        rank_custom({"en-de": []}, protocol)
    assert message in str(refused.value)


# ------------------------------------------------------------------------- the command line
@pytest.fixture
def export_file(tmp_path):
    path = tmp_path / "scores_all.csv"
    path.write_text(EXPORT, encoding="utf-8")
    return path


def test_the_command_line_takes_every_part(export_file, capsys):
    argv = ["rank", "--protocol", "custom", "--human", str(export_file), "--lp", "cs-uk"]
    argv += ["--custom-normalise", "z", "--custom-average", "domain", "--custom-test", "ar"]
    argv += ["--custom-alpha", "0.1", "--custom-correction", "bonferroni"]
    argv += ["--custom-resamples", "2000", "--custom-seed", "7", "--format", "json"]
    assert main(argv) == 0
    pair = json.loads(capsys.readouterr().out)["language_pairs"]["cs-uk"]
    assert pair["protocol"] == (
        "custom(z, domain, ar, alpha=0.1, bonferroni, 2,000 resamples, seed 7)"
    )
    assert "the quality filters dropped" in pair["notes"][0]
    first = pair["systems"][0]
    assert set(first["extra"]) == {
        "domains",
        "items",
        "ratings",
        "p_values",
        "p_values_uncorrected",
    }
    assert all(
        math.isclose(first["extra"]["p_values"][o], min(1, 28 * p))
        for o, p in first["extra"]["p_values_uncorrected"].items()
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--protocol", "wmt23", "--custom-test", "ar"],
            "--custom-test is a part of --protocol custom, not of --protocol wmt23",
        ),
        (
            ["--protocol", "custom", "--custom-alpha", "0"],
            "the significance level 0.0 is not between 0 and 1",
        ),
        (
            ["--protocol", "wmt23", "--documents", "en-de.docs"],
            "--protocol wmt23 takes no --documents: WMT23's procedure has no domains",
        ),
        (
            ["--protocol", "custom", "--documents", "en-de.docs"],
            "a DA+SQM export takes no --documents: its documents name no domain",
        ),
        (
            ["--protocol", "wmt24", "--exclude-annotators", "a1"],
            "--exclude-annotators is for DA+SQM exports (--protocol wmt23 or custom)",
        ),
    ],
)
def test_the_command_line_refuses_parts_out_of_place(export_file, capsys, extra, message):
    assert main(["rank", "--human", str(export_file), *extra]) != 0
    assert message in capsys.readouterr().err


def test_an_esa_export_needs_its_documents(tmp_path, capsys):
    path = tmp_path / "wave.csv"
    path.write_text("ann1,A,1,TGT,eng,ces,50,d,False,[],1,2\n", encoding="utf-8")
    assert main(["rank", "--protocol", "custom", "--human", str(path)]) != 0
    assert "ESA exports need --documents" in capsys.readouterr().err


def test_a_file_of_neither_layout_is_refused_with_its_line(tmp_path, capsys):
    path = tmp_path / "other.csv"
    path.write_text("a,b,c\n", encoding="utf-8")
    assert main(["rank", "--protocol", "custom", "--human", str(path)]) != 0
    err = capsys.readouterr().err
    assert "other.csv, line 1: the first row has 3 fields: neither an ESA export (12)" in err


def test_on_a_single_domain_stouffer_leaves_the_wilcoxon_p_value_as_it_is():
    """1 - Phi(Phi^-1(1 - p)) is p: with one domain the combination changes nothing."""
    rng = np.random.default_rng(11)
    data = [
        (0, s, item, float(round(60 + 8 * s + rng.normal(0, 15))))
        for s in range(3)
        for item in range(40)
    ]
    ratings = _ratings(data, domains_of=lambda item: "news")
    plain, combined = (
        rank_custom(ratings, CustomProtocol(test=t, correction="none"))[0]
        for t in ("wilcoxon", "wilcoxon-stouffer")
    )
    for a, b in zip(plain.systems, combined.systems):
        assert a.extra["p_values"] == pytest.approx(b.extra["p_values"], abs=1e-12)
