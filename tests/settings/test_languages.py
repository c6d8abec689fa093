"""Languages from file names, and the stemmer that suits the target language (issue #12)."""

from __future__ import annotations

import pytest

from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.languages import (
    Languages,
    default_stemmer,
    languages_of,
    stemmer_for,
    stemming_advice,
)
from mteval_core.settings.options import Options
from tests.helpers import load_sample


def built_from(references: list[str], systems: list[str], source: str | None = None) -> TestSet:
    def column(origin: str) -> TextColumn:
        return TextColumn(origin.rsplit("/", 1)[-1], ("a b",), origin)

    return TestSet(
        references=[column(o) for o in references],
        systems=[column(o) for o in systems],
        source=column(source) if source else None,
    )


@pytest.mark.parametrize(
    ("references", "systems", "source", "expected"),
    [
        (["ref/ref-A.de"], ["sys/a.de", "sys/b.de"], "src.en", Languages("en", "de")),
        (["newstest2017-ende-ref.de"], ["x.de"], None, Languages(None, "de")),
        (["wmt21.zh-en/ref.txt"], ["wmt21.zh-en/sys1.txt"], None, Languages("zh", "en")),
        (["ref.de"], ["sys.en"], None, Languages(None, None)),  # they disagree: nothing said
        (["ref.txt"], ["sys.txt"], None, Languages(None, None)),  # .txt is no language
        (["/tmp/in-de/ref.txt"], ["/tmp/in-de/sys.txt"], None, Languages(None, None)),  # 'in'
    ],
)
def test_languages_from_file_names(references, systems, source, expected) -> None:
    assert languages_of(built_from(references, systems, source)) == expected


def test_the_sample_is_german_to_english() -> None:
    found = languages_of(load_sample().test_set)
    assert found == Languages("de", "en") and found.label() == "German → English"


@pytest.mark.parametrize(
    ("languages", "stemmer"),
    [
        (Languages("en", "de"), "snowball-german"),
        (Languages("de", "en"), "porter"),
        (Languages(None, None), "porter"),
        (Languages("en", "zh"), "porter"),  # Snowball has no Chinese
        (Languages("en", "ru"), "snowball-russian"),
    ],
)
def test_default_stemmer_follows_the_target_language(languages, stemmer) -> None:
    assert default_stemmer(languages) == stemmer


def test_a_chosen_stemmer_wins_over_the_language() -> None:
    german = Languages("en", "de")
    assert stemmer_for(Options(), german) == "snowball-german"
    assert stemmer_for(Options(stem="porter"), german) == "porter"
    chosen = Options(stem="snowball", stem_language="french")
    assert stemmer_for(chosen, german) == "snowball-french"


def test_advice_names_the_language() -> None:
    assert "German: snowball-german suits it" in stemming_advice(Languages("en", "de"))
    assert "leave stemming off" in stemming_advice(Languages("en", "zh"))
    assert "do not say" in stemming_advice(Languages())
