"""The stems METEOR 1.5's stem matcher compares: the jar's Snowball stemmers, reproduced.

The jar bundles tartarus.org's Java Snowball stemmers of about 2010. Measured against the jar on
every distinct word of the shared data plus the snowball-data vocabularies and random strings
(scripts/meteor_oracle/parity.py stems), the PyPI package `snowballstemmer` 1.2.1 gives the
jar's stem for every word in English, French, Spanish, Russian, Portuguese, Danish, Romanian,
Hungarian, Turkish, Dutch, Italian, Norwegian and Swedish; 2.x and 3.x do not (they normalise
Russian "ё", French "ë", German "nisse" and change English). German differs only by one later
rule, undone below; Finnish differs only where the jar's Java runtime refuses to call a routine
(600 of 49,957 words), refused below in the same way. With both, every measured word of all 15
languages gets the jar's stem. German runs on german_stemmer.py, the same algorithm written for
speed (snowballstemmer's takes about a millisecond a word), tested equal to the corrected
snowballstemmer German below.

The jar stems the words exactly as the aligner gets them: after `-norm`/`-lower` if given, and
otherwise with their case (Snowball's suffix tables are lowercase, so a capitalised word keeps
more of its ending than its lowercase form). Nothing here lowercases.

The stemmer classes are imported from their own modules, never through `snowballstemmer.stemmer`,
which switches to PyStemmer's newer C stemmers whenever PyStemmer is installed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache, lru_cache
from typing import ClassVar

from mteval_core.metrics.meteor.german_stemmer import german_stem

# The jar's language names (Constants.normLanguageName) that have a Snowball stemmer in the jar.
SNOWBALL_LANGUAGES = (
    "english",
    "french",
    "german",
    "spanish",
    "portuguese",
    "russian",
    "danish",
    "romanian",
    "hungarian",
    "turkish",
    "finnish",
    "dutch",
    "italian",
    "norwegian",
    "swedish",
)


def _snowball_stemmer(language: str) -> Callable[[str], str]:
    """The `stemWord` of snowballstemmer's pure-Python class for one language."""
    module = importlib.import_module(f"snowballstemmer.{language}_stemmer")
    stemmer = getattr(module, f"{language.capitalize()}Stemmer")()
    return stemmer.stemWord


def _german_as_jar(stem_word: Callable[[str], str]) -> Callable[[str], str]:
    """German without Snowball's later "nisse" rule, which the jar's stemmer predates.

    The later rule deletes the final "s" of "niss" left after step 1 removed -e, -en or -es
    ("Ergebnisse" -> "ergebnis"); the jar keeps it ("ergebniss"). Since the stemmer changes no
    earlier character's position once "ß" is spelled "ss", the rule fired exactly when the stem
    ends in "nis" and the word goes on with "s" there.
    """

    def stem(word: str) -> str:
        stemmed = stem_word(word)
        following = word.replace("ß", "ss")[len(stemmed) : len(stemmed) + 1]
        if stemmed.endswith("nis") and following == "s":
            return stemmed + "s"
        return stemmed

    return stem


def _finnish_as_jar() -> Callable[[str], str]:
    """Finnish as the jar runs it: an among entry that calls a routine never matches.

    The jar's Snowball runtime calls such routines (Finnish's long-vowel and vowel checks on
    -seen, -siin, -den, -tten) by reflection on private methods, which Java refuses; it counts
    the refusal as the routine failing and goes on to the entry's shorter suffix. snowballstemmer
    runs the routines, so its tables are handed over with those entries failing instead.
    """
    among_module = importlib.import_module("snowballstemmer.among")
    finnish = importlib.import_module("snowballstemmer.finnish_stemmer").FinnishStemmer

    def failing(entry):
        if entry.method is None:
            return entry
        return among_module.Among(entry.s, entry.substring_i, entry.result, "_refused_routine")

    class JarFinnishStemmer(finnish):
        _tables: ClassVar[dict[int, list]] = {}  # original table's id -> its jar version

        def _refused_routine(self) -> bool:
            return False

        def find_among_b(self, table, *rest):
            replaced = self._tables.get(id(table))
            if replaced is None:
                replaced = self._tables[id(table)] = [failing(entry) for entry in table]
            return super().find_among_b(replaced, *rest)

    return JarFinnishStemmer().stemWord


@cache
def jar_stemmer(language: str) -> Callable[[str], str]:
    """The jar's stemmer for a normalised language name (see `resources.normalize_language`).

    Returns a function from word to stem, memoised (a corpus repeats its words). Raises KeyError
    for a language the jar has no Snowball stemmer for; `resources` turns that into a message.
    """
    if language not in SNOWBALL_LANGUAGES:
        raise KeyError(language)
    if language == "german":  # the same stems as snowball_german_as_jar(), 15 times faster
        return lru_cache(maxsize=1 << 18)(german_stem)
    stem_word = _finnish_as_jar() if language == "finnish" else _snowball_stemmer(language)
    return lru_cache(maxsize=1 << 18)(stem_word)


def snowball_german_as_jar() -> Callable[[str], str]:
    """snowballstemmer's German with the jar's rules: what german_stem is tested against."""
    return _german_as_jar(_snowball_stemmer("german"))
