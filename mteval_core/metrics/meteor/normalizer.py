"""METEOR 1.5's `-norm` and `-lower`: the text its scorer aligns, as the jar prepares it.

`-norm` runs the jar's `Normalizer` (a Moses-tokenizer variant: punctuation split off, quotes
and dashes unified, dashes between words removed, contractions split per language, final dots
split unless the word is a nonbreaking prefix, "U.S." written "US") and then lowercases;
`-noPunct` also deletes everything that is not a letter or digit of its lists; `-lower` only
lowercases. The jar normalises only English, Czech, French, Spanish, German and Russian.

The jar's patterns are Java regular expressions: their `\\p{Digit}` and `\\p{Lower}` are ASCII
only and `\\s` is the six ASCII spaces, so the character classes below are spelled out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.java_strings import java_lower, java_tokenize, java_trim
from mteval_core.metrics.meteor.resources import NORMALIZED_LANGUAGES, normalize_language

# The jar's letters: Latin, Latin-1, Latin Extended-A (in part), Cyrillic and its supplements.
_ALPHA = (
    "A-Za-zŠŽšžŸÀ-ÖØ-öø-ž" + "\u0400-\u04ff\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
)
_ALNUM = "0-9" + _ALPHA

_SEPARATE_OTHER = re.compile(f"([^{_ALNUM} \\t\\n\\x0b\\f\\r.'`,\\-\u2018\u2019])")
_MULTI_DOT = re.compile(r"\.([.]+)")
_MULTI_DOT_NEXT = re.compile(r"DOTMULTI\.([^.])")
_COMMAS = (
    re.compile("([^0-9])[,]([^0-9])"),
    re.compile("([0-9])[,]([^0-9])"),
    re.compile("([^0-9])[,]([0-9])"),
)
_SINGLE_QUOTES = re.compile("([`\u2018\u2019])")
_DOUBLE_QUOTES = re.compile("([\u201c\u201d]|'')")
_DASH_BETWEEN = re.compile(f"([{_ALNUM}.])[-]([{_ALNUM}])")
_NOT_ALPHA, _IS_ALPHA = f"[^{_ALPHA}]", f"[{_ALPHA}]"
_SPLIT_BOTH = r"\1 ' \2"
# English splits a contraction before the apostrophe ("do n't" style: "John 's"), French after
# it ("l' homme"); both split an apostrophe between non-letters off on both sides.
_ENGLISH_APOSTROPHES = (
    (re.compile(f"({_NOT_ALPHA})[']({_NOT_ALPHA})"), _SPLIT_BOTH),
    (re.compile(f"([^{_ALPHA}0-9])[']({_IS_ALPHA})"), _SPLIT_BOTH),
    (re.compile(f"({_IS_ALPHA})[']({_NOT_ALPHA})"), _SPLIT_BOTH),
    (re.compile(f"({_IS_ALPHA})[']({_IS_ALPHA})"), r"\1 '\2"),
    (re.compile("([0-9])[']([s])"), r"\1 '\2"),
)
_FRENCH_APOSTROPHES = (
    (re.compile(f"({_NOT_ALPHA})[']({_NOT_ALPHA})"), _SPLIT_BOTH),
    (re.compile(f"({_NOT_ALPHA})[']({_IS_ALPHA})"), _SPLIT_BOTH),
    (re.compile(f"({_IS_ALPHA})[']({_NOT_ALPHA})"), _SPLIT_BOTH),
    (re.compile(f"({_IS_ALPHA})[']({_IS_ALPHA})"), r"\1' \2"),
)
_HAS_LETTER = re.compile(_IS_ALPHA)
_STARTS_LOWER = re.compile("[a-z]")
_STARTS_DIGIT = re.compile("[0-9]")
_PUNCTUATION = re.compile(f"[^{_ALNUM}]")
_WHITESPACE = re.compile("[ \u2000-\u200a\u202f\u205f\u3000\u00a0]+")


def _separate(line: str, language: str) -> str:
    """The jar's steps before splitting into words (punctuation, dots, commas, quotes, dashes)."""
    line = _SEPARATE_OTHER.sub(r" \1 ", f" {line} ")
    line = _MULTI_DOT.sub(r" DOTMULTI\1", line)
    while "DOTMULTI." in line:
        line = _MULTI_DOT_NEXT.sub(r"DOTDOTMULTI \1", line)
        line = line.replace("DOTMULTI.", "DOTDOTMULTI")
    for comma in _COMMAS:
        line = comma.sub(r"\1 , \2", line)
    line = _SINGLE_QUOTES.sub("'", line)
    line = _DOUBLE_QUOTES.sub(' " ', line)
    line = line.replace("\u2013", "-").replace("--", "-")
    line = _DASH_BETWEEN.sub(r"\1 \2", line)
    if language in ("english", "french"):
        rules = _ENGLISH_APOSTROPHES if language == "english" else _FRENCH_APOSTROPHES
        for pattern, replacement in rules:
            line = pattern.sub(replacement, line)
    else:
        line = line.replace("'", " ' ")
    return line


def _split_final_dots(words: list[str], prefixes: Mapping[str, bool]) -> str:
    """Words joined again, a final dot split off unless the word is a known abbreviation.

    Kept: dotted words with letters ("U.S." becomes "US"), listed prefixes, any word before a
    word starting with a-z, and number-only prefixes before a word starting with a digit.
    """
    rebuilt: list[str] = []
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else None
        if len(word) > 1 and word.endswith("."):
            prefix = word[:-1]
            numeric_only = prefixes.get(prefix)
            if "." in prefix and _HAS_LETTER.search(prefix):
                word = word.replace(".", "")
            elif (
                numeric_only is False
                or (following is not None and _STARTS_LOWER.match(following))
                or (numeric_only and following is not None and _STARTS_DIGIT.match(following))
            ):
                pass
            else:
                word = f"{prefix} ."
        rebuilt.append(word)
    return " ".join(rebuilt) + " "


def normalize_line(
    line: str, language: str, prefixes: Mapping[str, bool], *, keep_punctuation: bool = True
) -> str:
    """The jar's `Normalizer.normalizeLine` (without the lowercasing `-norm` adds after it).

    `prefixes` is the language's nonbreaking prefix list (`MeteorData.nonbreaking_prefixes`).
    """
    name = normalize_language(language)
    if name not in NORMALIZED_LANGUAGES:
        raise InputError(
            f"METEOR's -norm has no normalizer for {name}",
            hint="Normalise the text yourself and leave -norm out.",
        )
    text = _split_final_dots(java_tokenize(_separate(line, name)), prefixes)
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    if not keep_punctuation:
        text = _PUNCTUATION.sub(" ", text)
    return java_trim(_WHITESPACE.sub(" ", text))


def prepare_line(
    line: str,
    language: str,
    prefixes: Mapping[str, bool] | None,
    *,
    normalize: bool,
    keep_punctuation: bool = True,
    lower: bool,
) -> str:
    """A line as the jar's `MeteorScorer` hands it to the aligner: `-norm` implies lowercasing.

    `prefixes` is needed only with `normalize`.
    """
    if normalize:
        if prefixes is None:
            raise ValueError("normalising needs the language's nonbreaking prefixes")
        line = normalize_line(line, language, prefixes, keep_punctuation=keep_punctuation)
    return java_lower(line) if normalize or lower else line
