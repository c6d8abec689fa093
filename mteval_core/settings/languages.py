"""The languages of a test set, read from its file names, and the stemmer that suits them.

Test sets name their languages in their files: WMT's ``newstest2021.en-de.ref.de`` and
``src.en``, sacreBLEU's ``*.de`` system outputs, a ``de-en`` pair in a folder or file name. Nothing
here guesses from the text itself: a name that says nothing gives None, and the caller keeps its
default. Stemming is language-specific, so the dashboard stems German output with Snowball's
German stemmer, not with English Porter, once the target language is known.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePath

from mteval_core.model.testset import TestSet
from mteval_core.settings.options import SNOWBALL_LANGUAGES, Options, stemmer_choice

NAMES = {  # ISO 639-1 code -> English name, for the languages WMT and TED sets use
    "ar": "Arabic", "bn": "Bengali", "cs": "Czech", "da": "Danish", "de": "German",
    "en": "English", "es": "Spanish", "et": "Estonian", "fi": "Finnish", "fr": "French",
    "gu": "Gujarati", "ha": "Hausa", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian",
    "hu": "Hungarian", "is": "Icelandic", "it": "Italian", "ja": "Japanese", "kk": "Kazakh",
    "km": "Khmer", "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian", "nl": "Dutch",
    "no": "Norwegian", "pl": "Polish", "ps": "Pashto", "pt": "Portuguese", "ro": "Romanian",
    "ru": "Russian", "sk": "Slovak", "sl": "Slovenian", "sv": "Swedish", "ta": "Tamil",
    "tr": "Turkish", "uk": "Ukrainian", "xh": "Xhosa", "zh": "Chinese", "zu": "Zulu",
}  # fmt: skip
PAIR = re.compile(r"(?<![a-z])([a-z]{2})-([a-z]{2})(?![a-z])")


@dataclass(frozen=True)
class Languages:
    """ISO 639-1 codes, None where the file names do not say."""

    source: str | None = None
    target: str | None = None

    def label(self) -> str | None:
        """'English → German', or None when neither is known."""
        if self.source is None and self.target is None:
            return None
        return f"{_name(self.source)} → {_name(self.target)}"


def languages_of(test_set: TestSet) -> Languages:
    """The source and target languages the file names agree on: file extensions first (every
    reference and system output ``.de``: German), else a pair such as ``en-de`` in the names."""
    targets = [c.origin for c in (*test_set.references, *test_set.systems)]
    target = _common_extension(targets)
    source = _common_extension([test_set.source.origin]) if test_set.source else None
    pair = _common_pair([*targets, *([test_set.source.origin] if test_set.source else [])])
    if pair is not None:
        source = source or pair[0]
        target = target or pair[1]
    return Languages(source, target)


def snowball_language(code: str | None) -> str | None:
    """NLTK's Snowball name for an ISO code ('de' -> 'german'), or None if it has no stemmer."""
    name = NAMES.get(code or "", "").lower()
    return name if name in SNOWBALL_LANGUAGES else None


def default_stemmer(languages: Languages) -> str:
    """The stemmer label (as in ``config.STEMMER_CHOICES``) that suits the target language:
    Porter for English or an unknown language, else Snowball in the target language when
    Snowball has it; Porter otherwise (and the caller should say it is English-only)."""
    if languages.target in (None, "en"):
        return "porter"
    language = snowball_language(languages.target)
    return f"snowball-{language}" if language else "porter"


def stemmer_for(options: Options, languages: Languages) -> str:
    """The stemmer a page compares against unstemmed scores: the one the options choose, else
    the one that suits the target language (``default_stemmer``)."""
    if options.stem != "none":
        return stemmer_choice(options)
    return default_stemmer(languages)


def stemming_advice(languages: Languages) -> str:
    """One line for the options: which stemmer suits this test set, and why."""
    suggested = default_stemmer(languages)
    if languages.target is None:
        return "The file names do not say the target language: Porter stems English only."
    language = _name(languages.target)
    if suggested == "porter" and languages.target != "en":
        return f"The output is in {language}, which no stemmer here knows: leave stemming off."
    return (
        f"The output is in {language}: {suggested} suits it, and the Correlation page compares "
        "it with unstemmed scores unless you choose another stemmer here."
    )


def _common_extension(origins: Iterable[str]) -> str | None:
    codes = {PurePath(origin).suffix.lower().lstrip(".") for origin in origins}
    if len(codes) != 1:
        return None
    code = codes.pop()
    return code if code in NAMES else None


def _common_pair(origins: Iterable[str]) -> tuple[str, str] | None:
    pairs = {
        (match.group(1), match.group(2))
        for origin in origins
        for part in (PurePath(origin).parent.name, PurePath(origin).name)  # not the whole path
        for match in PAIR.finditer(part.lower())
        if match.group(1) in NAMES and match.group(2) in NAMES
    }
    return pairs.pop() if len(pairs) == 1 else None


def _name(code: str | None) -> str:
    return NAMES.get(code or "", code or "unknown")
