"""german_stemmer gives the stems of snowballstemmer's German as the jar runs it (stemmers.py),
on random words built from the letters and suffixes its rules look at; the jar's own stems of
the shared data's words are pinned in fixtures/stems.json (test_meteor_resources_parity.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.metrics.meteor.german_stemmer import german_stem
from mteval_core.metrics.meteor.stemmers import snowball_german_as_jar

LETTERS = st.sampled_from(list("aeiouyäöüßsnrtlchkgdbfmUYEÄ"))
SUFFIXES = st.sampled_from(
    [
        "lich",
        "isch",
        "heit",
        "keit",
        "end",
        "ung",
        "ig",
        "ik",
        "ern",
        "em",
        "en",
        "er",
        "es",
        "e",
        "s",
        "est",
        "st",
        "nisse",
        "igung",
        "lichkeit",
        "erlich",
        "enheit",
        "eig",
        "eend",
    ]
)
WORDS = st.builds(
    lambda stem, endings: "".join(stem) + "".join(endings),
    st.lists(LETTERS, max_size=8),
    st.lists(SUFFIXES, max_size=2),
)
REFERENCE = snowball_german_as_jar()


@settings(max_examples=150, deadline=None)
@given(word=WORDS)
def test_german_stem_is_snowballs_as_the_jar_runs_it(word):
    assert german_stem(word) == REFERENCE(word)


def test_the_jar_keeps_the_s_of_nisse():
    assert german_stem("Ergebnisse") == "Ergebniss"
    assert german_stem("straße") == "strass"
    assert german_stem("bauen") == "bau"
