"""METEOR's matchers against the candidate matches meteor-1.5.jar's own matchers leave.

Fixtures by scripts/meteor_oracle/make_fixtures.py: for sentence pairs of the shared data, every
match the jar's Stage holds after its modules ran (in its order, with prob and module), and the
final alignment its command line chose (`-writeAlignments`). The paraphrase module runs on a
small table cut from paraphrase-en.gz (the records that can match in these pairs), so only the
synonym module needs the installed jar.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.metrics.meteor import matchers
from mteval_core.metrics.meteor.java_strings import java_tokenize
from mteval_core.metrics.meteor.paraphrases import ParaphraseTable, cache_root, source_key
from mteval_core.metrics.meteor.resources import find_meteor_data
from mteval_core.metrics.meteor.stage import Stage
from mteval_core.metrics.meteor.stemmers import jar_stemmer
from mteval_core.metrics.meteor.synonyms import SynonymDictionary

FIXTURES = Path(__file__).with_name("fixtures")


@cache
def expected_matches() -> dict:
    return json.loads((FIXTURES / "matches.json").read_text(encoding="utf-8"))


@cache
def small_table() -> ParaphraseTable:
    return ParaphraseTable.from_bytes(
        gzip.decompress((FIXTURES / "paraphrase-small.gz").read_bytes())
    )


@cache
def english_synonyms() -> SynonymDictionary:
    data = find_meteor_data()
    if data.jar is None:
        pytest.skip("pycocoevalcap (which ships meteor-1.5.jar) is not installed")
    return data.synonyms("en")


def run_modules(case: dict, hypothesis: str, reference: str, table: ParaphraseTable) -> Stage:
    stage = Stage(java_tokenize(hypothesis), java_tokenize(reference))
    for number, module in enumerate(case["modules"]):
        if module == "exact":
            matchers.match_exact(stage, number)
        elif module == "stem":
            matchers.match_stems(
                stage, number, jar_stemmer({"en": "english", "de": "german"}[case["language"]])
            )
        elif module == "synonym":
            matchers.match_synonyms(stage, number, english_synonyms())
        else:
            matchers.match_paraphrases(stage, number, table)
    return stage


def as_rows(stage: Stage) -> list[list]:
    return [
        [m.start, m.length, m.match_start, m.match_length, m.prob, m.module]
        for starting in stage.matches
        for m in starting
    ]


@pytest.mark.parametrize("name", ["english", "english-paraphrase-first", "german"])
def test_candidate_matches_equal_the_jar(name):
    case = expected_matches()[name]
    for (hypothesis, reference), expected in zip(case["pairs"], case["matches"], strict=True):
        stage = run_modules(case, hypothesis, reference, small_table())
        assert as_rows(stage) == expected, (hypothesis, reference)


@pytest.mark.parametrize("name", ["english", "english-paraphrase-first", "german"])
def test_the_jars_final_alignment_uses_only_our_candidates(name):
    """Every match the jar's beam search kept is one our matchers offered, from that module."""
    case = expected_matches()[name]
    per_module = [0] * len(case["modules"])
    for (hypothesis, reference), chosen in zip(case["pairs"], case["alignments"], strict=True):
        stage = run_modules(case, hypothesis, reference, small_table())
        offered = {
            (m.start, m.length, m.match_start, m.match_length, m.module)
            for ms in stage.matches
            for m in ms
        }
        for match in chosen:
            assert tuple(match) in offered, (hypothesis, reference, match)
            per_module[match[4]] += 1
    assert all(per_module[:2]), per_module  # the first two modules both made final matches


def test_paraphrase_matches_on_the_full_table_when_cached():
    """On the real 62 MB table (only where its cache is already built: building takes a minute)."""
    data = find_meteor_data()
    try:
        path = data.paraphrase_path("en")
    except Exception:
        pytest.skip("paraphrase-en.gz is not installed")
    if not (cache_root() / f"paraphrase-{source_key(path)}" / "meta.json").is_file():
        pytest.skip(
            "the tests' paraphrase cache is not built yet (tests/metrics/test_meteor_jar.py's "
            "English cases build it)"
        )
    case = expected_matches()["english-full-table"]
    table = data.paraphrases("en")
    for (hypothesis, reference), expected in zip(case["pairs"], case["matches"], strict=True):
        assert as_rows(run_modules(case, hypothesis, reference, table)) == expected


VOCABULARY = ["the", "a", "cat", "cats", "sat", "sits", "on", "mat", "mats", "sitting", "dog", ","]
WORDS = st.lists(st.sampled_from(VOCABULARY), max_size=12)


@settings(max_examples=60, deadline=None)
@given(WORDS, WORDS)
def test_matches_lie_within_the_sentences_and_coverage_adds_up(hypothesis, reference):
    case = {"language": "en", "modules": ["exact", "stem", "paraphrase"]}
    stage = run_modules(case, " ".join(hypothesis), " ".join(reference), small_table())
    hypothesis_cover = [0] * len(hypothesis)
    reference_cover = [0] * len(reference)
    for j, starting in enumerate(stage.matches):
        for m in starting:
            assert m.start == j and m.length >= 1 and m.match_length >= 1 and m.prob == 1.0
            assert m.start + m.length <= len(reference)
            assert m.match_start + m.match_length <= len(hypothesis)
            for i in range(m.match_start, m.match_start + m.match_length):
                hypothesis_cover[i] += 1
            for k in range(m.start, m.start + m.length):
                reference_cover[k] += 1
            if m.module == 0:
                assert hypothesis[m.match_start] == reference[m.start]
            elif m.module == 1:
                assert hypothesis[m.match_start] != reference[m.start]
    assert stage.hypothesis_coverage == hypothesis_cover
    assert stage.reference_coverage == reference_cover


def test_words_with_one_java_hash_are_one_word():
    """ "Aa" and "BB" share a hash: the jar's exact matcher matches them, its stemmer skips them."""
    stage = Stage(["Aa"], ["BB"])
    matchers.match_exact(stage, 0)
    matchers.match_stems(stage, 1, lambda word: "x")
    assert as_rows(stage) == [[0, 1, 0, 1, 1.0, 0]]
