"""TER's own tokenization with sacreBLEU's options: its Tercom tokenizer (``TercomTokenizer``,
a Python port of tercom's Normalizer.java), rule for rule.

sacreBLEU's TER lowercases (unless case-sensitive) and then, with ``normalized``, tokenizes
punctuation as 13a does (plus possessives), with ``no_punct`` removes punctuation, and with
``asian_support`` adds CJK rules to either: ``normalized`` splits CJK ideographs and CJK
punctuation one by one, ``no_punct`` removes CJK and fullwidth punctuation. Without
``normalized`` and ``no_punct`` nothing happens but the split on whitespace, which the compiled
TER does itself (``asian_support`` alone changes no word, although sacreBLEU's signature says
``asian:yes``).

The regular expressions are sacreBLEU 2.6's, quirks included: its kana rules are written
``(^|^[...])([...]+)(?=$|^[...])``, so they split a run of hiragana or katakana only when it is
the whole line, and its "Enclosed CJK Letters" range runs to U+3F22. The tests compare every
line of WMT23's Chinese and Japanese outputs and random strings with sacreBLEU's class.
"""

from __future__ import annotations

import re

_WESTERN = (
    (re.compile(r"\n-"), ""),  # end-of-line hyphenation
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
)
_WESTERN_PADDED = (  # after the line gets a space on each side
    (re.compile(r"([{-~[-` -&(-+:-@/])"), r" \1 "),  # punctuation
    (re.compile(r"'s "), r" 's "),  # possessives
    (re.compile(r"'s$"), r" 's"),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period and comma unless after a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # period and comma unless before a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash after a digit
)
_ASIAN_PUNCTUATION = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCTUATION = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
_ASIAN = (
    (re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),  # CJK ideographs, extension A
    (re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),  # strokes, radicals
    (re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),  # compatibility
    (re.compile(r"([\u3200-\u3f22])"), r" \1 "),  # "Enclosed CJK Letters and Months", as written
    (re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
    (re.compile(_ASIAN_PUNCTUATION), r" \1 "),
    (re.compile(_FULL_WIDTH_PUNCTUATION), r" \1 "),
)
_PUNCTUATION = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCTUATION_REMOVED = (re.compile(_ASIAN_PUNCTUATION), re.compile(_FULL_WIDTH_PUNCTUATION))


def changes_words(normalized: bool, no_punct: bool) -> bool:
    """Whether these options do more than split on whitespace (``asian_support`` acts only
    through the other two)."""
    return normalized or no_punct


def tercom_words(
    sentence: str, *, normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool
) -> str:
    """The line as sacreBLEU's TER preprocesses it (``TercomTokenizer(...)(line.rstrip())``):
    its words joined by single spaces."""
    sentence = sentence.rstrip()
    if not sentence:
        return ""
    if not case_sensitive:
        sentence = sentence.lower()
    if normalized:
        sentence = _normalized(sentence, asian_support)
    if no_punct:
        sentence = _PUNCTUATION.sub("", sentence)
        if asian_support:
            for pattern in _ASIAN_PUNCTUATION_REMOVED:
                sentence = pattern.sub("", sentence)
    return " ".join(sentence.split())


def _normalized(sentence: str, asian_support: bool) -> str:
    for pattern, replacement in _WESTERN:
        sentence = pattern.sub(replacement, sentence)
    sentence = f" {sentence} "
    for pattern, replacement in _WESTERN_PADDED:
        sentence = pattern.sub(replacement, sentence)
    if asian_support:
        for pattern, replacement in _ASIAN:
            sentence = pattern.sub(replacement, sentence)
    return sentence
