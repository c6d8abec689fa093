"""METEOR 1.5's WordNet synonym sets, read from the jar's `synonym/english.*` files.

The jar's `SynonymDictionary` reads two files: `english.synsets` (a word line, then a line of
the synset numbers it belongs to) and `english.exceptions` (a base form line, then a line of its
irregular inflected forms). It never loads `english.relations` (its loader is switched off), so
neither do we. A word's synsets for matching are its own plus those of its base forms: the bases
the exceptions list for it, or else the first WordNet-style detachment of a regular suffix
("-ies" -> "-y", "-ing" -> "-e", ...) whose result is itself a synsets word.

Loading keeps each synsets line as text and parses it on first use, so reading the 3.7 MB file
takes a dictionary build, not 147,000 set constructions (see `bench/bench_meteor_resources.py`).
"""

from __future__ import annotations

from functools import lru_cache

from mteval_core.metrics.meteor.java_strings import java_length, java_lines, java_tokenize

# WordNet 3's detachment rules, as the jar lists them (noun, then verb, then adjective rules),
# tried in this order; the jar keeps the first whose base form is a synsets word.
_DETACHMENTS = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("est", ""),
    ("er", "e"),
    ("est", "e"),
)


def _pairs(text: str) -> zip:
    """A file of two-line records as (first line, second line) pairs, as `readLine` gives them."""
    lines = java_lines(text)
    return zip(lines[0::2], lines[1::2], strict=False)


class SynonymDictionary:
    """Word -> WordNet synset numbers, with the jar's morphology for inflected forms."""

    def __init__(self, synsets_text: str, exceptions_text: str) -> None:
        self._synsets_line = dict(_pairs(synsets_text))
        self._bases: dict[str, list[str]] = {}
        for base, forms in _pairs(exceptions_text):
            for form in java_tokenize(forms):
                self._bases.setdefault(form, []).append(base)
        self.synsets = lru_cache(maxsize=1 << 16)(self._synsets)

    def __len__(self) -> int:
        return len(self._synsets_line)

    def _own_synsets(self, word: str) -> frozenset[int]:
        line = self._synsets_line.get(word)
        return frozenset(map(int, java_tokenize(line))) if line else frozenset()

    def base_form(self, word: str) -> str:
        """The jar's `morph`: the first regular base form of `word` that has synsets, else "".

        Words ending in "ss" and words of at most two UTF-16 units are their own base. (The jar
        also remembers a "-ful" ending to append, but no detachable suffix ends a "-ful" word.)
        """
        if word.endswith("ss") or java_length(word) <= 2:
            return word
        for suffix, ending in _DETACHMENTS:
            if word.endswith(suffix):
                base = word[: len(word) - len(suffix)] + ending
                if base in self._synsets_line:
                    return base
        return ""

    def _synsets(self, word: str) -> frozenset[int]:
        """Every synset the synonym matcher gives `word`: its own and its base forms'."""
        bases = self._bases.get(word)
        if bases is not None:
            stem_sets = frozenset().union(*(self._own_synsets(base) for base in bases))
        else:
            stem_sets = self._own_synsets(self.base_form(word))
        return self._own_synsets(word) | stem_sets
