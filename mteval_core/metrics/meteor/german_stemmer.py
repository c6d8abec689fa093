"""The German Snowball stemmer as meteor-1.5.jar runs it, written for speed.

snowballstemmer's generated Python spends about a millisecond a word on German (cursor moves,
exceptions for control flow, a new string for every edit); WMT17 en-de has 58,000 distinct words,
which took longer than the jar's whole run. This is the same algorithm (snowballstem.org's
German stemmer of the jar's time, i.e. without the later "nisse" rule; see stemmers.py) on
Python strings:

1. prelude: "ß" becomes "ss"; a "u" or "y" between two vowels becomes "U" / "Y" (left to
   right, a marked letter no longer a vowel);
2. regions: R1 starts after the first non-vowel that follows a vowel, at least 3 letters in;
   R2 is R1's R1; a word shorter than 3 letters has neither;
3. three suffix steps, each taking the longest suffix of its list that the word ends with and
   doing nothing (not trying a shorter one) when that suffix is not in its region;
4. postlude: "U", "Y" lowercased, the umlauts of a, o, u dropped.

Vowels are a e i o u y ä ö ü (lowercase only: the jar stems words with their case).
tests/metrics/meteor/test_meteor_data.py compares it with snowballstemmer on the pinned
vocabulary.
"""

from __future__ import annotations

_VOWELS = frozenset("aeiouyäöü")
_S_ENDING = frozenset("bdfghklmnrt")
_ST_ENDING = frozenset("bdfghklmnt")
_POSTLUDE = str.maketrans({"U": "u", "Y": "y", "ä": "a", "ö": "o", "ü": "u"})


def _prelude(word: str) -> str:
    """ß as ss, and u / y between vowels marked (upper case) so that they count as consonants."""
    text = word.replace("ß", "ss")
    if "u" not in text and "y" not in text:
        return text
    letters = list(text)
    for k in range(1, len(letters) - 1):
        if letters[k] in "uy" and letters[k - 1] in _VOWELS and letters[k + 1] in _VOWELS:
            letters[k] = letters[k].upper()
    return "".join(letters)


def _after_vowel_consonant(text: str, start: int) -> int:
    """The position after the first non-vowel that follows a vowel, from `start`; -1 if none."""
    n = len(text)
    k = start
    while k < n and text[k] not in _VOWELS:
        k += 1
    k += 1
    while k < n and text[k] in _VOWELS:
        k += 1
    return k + 1 if k < n else -1


def _regions(text: str) -> tuple[int, int]:
    """(p1, p2): where R1 and R2 start (len(text) where a region is empty)."""
    n = len(text)
    if n < 3:
        return n, n
    p1 = _after_vowel_consonant(text, 0)
    if p1 < 0:
        return n, n
    p2 = _after_vowel_consonant(text, p1)
    return max(p1, 3), (p2 if p2 >= 0 else n)


def _longest(text: str, suffixes: tuple[str, ...]) -> str:
    """The longest of `suffixes` (listed longest first) that `text` ends with, or ""."""
    for suffix in suffixes:
        if text.endswith(suffix):
            return suffix
    return ""


def _step1(text: str, p1: int) -> str:
    suffix = _longest(text, ("ern", "em", "en", "er", "es", "e", "s"))
    start = len(text) - len(suffix)
    if not suffix or start < p1:
        return text
    if suffix == "s" and not (start >= 1 and text[start - 1] in _S_ENDING):
        return text
    return text[:start]


def _step2(text: str, p1: int) -> str:
    suffix = _longest(text, ("est", "en", "er", "st"))
    start = len(text) - len(suffix)
    if not suffix or start < p1:
        return text
    if suffix == "st" and not (start >= 4 and text[start - 1] in _ST_ENDING):
        return text
    return text[:start]


_STEP3 = ("lich", "isch", "heit", "keit", "end", "ung", "ig", "ik")


def _step3(text: str, p1: int, p2: int) -> str:
    suffix = _longest(text, _STEP3)
    start = len(text) - len(suffix)
    if not suffix or start < p2:
        return text
    if suffix in ("ig", "ik", "isch"):
        return text if start >= 1 and text[start - 1] == "e" else text[:start]
    text = text[:start]
    if suffix in ("end", "ung"):
        if text.endswith("ig") and start - 2 >= p2 and not text[:-2].endswith("e"):
            return text[:-2]
        return text
    if suffix in ("lich", "heit"):
        if (text.endswith(("er", "en"))) and start - 2 >= p1:
            return text[:-2]
        return text
    # keit
    ending = _longest(text, ("lich", "ig"))
    if ending and start - len(ending) >= p2:
        return text[: start - len(ending)]
    return text


def german_stem(word: str) -> str:
    """The jar's German stem of a word, as it stands (no lowercasing)."""
    text = _prelude(word)
    p1, p2 = _regions(text)
    text = _step3(_step2(_step1(text, p1), p1), p1, p2)
    return text.translate(_POSTLUDE)
