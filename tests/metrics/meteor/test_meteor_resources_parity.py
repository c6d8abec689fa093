"""METEOR's stems, synonyms, Java string behaviour and `-norm` against meteor-1.5.jar's answers.

The expected values were written by scripts/meteor_oracle/make_fixtures.py, which asks the jar
itself (scripts/meteor_oracle/MeteorOracle.java); the synonym and normalizer tests read the
jar's data files and skip without an installed pycocoevalcap.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mteval_core.metrics.meteor.java_strings import java_hash, java_lower
from mteval_core.metrics.meteor.normalizer import prepare_line
from mteval_core.metrics.meteor.resources import find_meteor_data
from mteval_core.metrics.meteor.stemmers import jar_stemmer

FIXTURES = Path(__file__).with_name("fixtures")


def fixture(name: str):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def installed_data():
    data = find_meteor_data()
    if data.jar is None:
        pytest.skip("pycocoevalcap (which ships meteor-1.5.jar) is not installed")
    return data


@pytest.mark.parametrize("language", sorted(fixture("stems.json")))
def test_stems_equal_the_jar(language):
    expected = fixture("stems.json")[language]
    stem = jar_stemmer(language)
    differing = {word: (stem(word), jar) for word, jar in expected.items() if stem(word) != jar}
    assert differing == {}
    assert len(expected) >= 100


def test_synonym_sets_equal_the_jar():
    dictionary = installed_data().synonyms("en")
    expected = fixture("synonyms.json")
    got = {word: sorted(dictionary.synsets(word)) for word in expected}
    assert got == expected
    # the morphology is exercised: inflected forms with no synsets of their own
    assert expected["wolves"] and expected["running"] and expected["happier"]


def test_java_hash_and_lowercase_equal_the_jar():
    expected = fixture("java_strings.json")
    assert [java_hash(word) for word in expected["words"]] == expected["hash"]
    assert [java_lower(word) for word in expected["words"]] == expected["lower"]
    assert java_hash("Aa") == java_hash("BB")  # the jar takes these for one word


def test_java_lower_keeps_letters_newer_than_java_17():
    assert java_lower("AⰯB\U00010570") == "aⰯb\U00010570"
    assert java_lower("ΟΔΟΣ") == "οδος"  # final sigma, as Java


@pytest.mark.parametrize("code", ["en", "de", "fr", "es", "ru", "cs"])
def test_norm_equals_the_jar(code):
    data = installed_data()
    prefixes = data.nonbreaking_prefixes(code)
    expected = fixture("normalized.json")[code]
    for kind, keep in (("norm", True), ("nopunct", False)):
        got = [
            prepare_line(line, code, prefixes, normalize=True, keep_punctuation=keep, lower=True)
            for line in expected["lines"]
        ]
        assert got == expected[kind]


def test_lower_only_lowercases():
    assert prepare_line("Dr. Who's", "en", None, normalize=False, lower=True) == "dr. who's"
    assert prepare_line("Dr. Who's", "en", None, normalize=False, lower=False) == "Dr. Who's"
