"""The languages of a test set, read from its files and their names, and the stemmer and the
tokenizer that suit them.

WMT XML declares its languages (``<ref lang="de">``); other test sets name them in their file
names: WMT's ``newstest2021.en-de.ref.de`` and ``src.en``, sacreBLEU's ``*.de`` system outputs,
a ``de-en`` pair in a folder or file name. Nothing here guesses from the text itself: a name that
says nothing gives None, and the caller keeps its default. Stemming is language-specific, so the
dashboard stems German output with Snowball's German stemmer, not with English Porter, once the
target language is known. So is tokenization: without a tokenizer chosen, Chinese, Japanese and
Korean output get the one sacreBLEU's BLEU chooses for them (``resolve_tokenizer``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import PurePath

from mteval_core.model.testset import TestSet, TextColumn
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
    """The source and target languages the files agree on: what they declare (WMT XML's lang=)
    first, then file extensions (every reference and system output ``.de``: German), else a pair
    such as ``en-de`` in the names."""
    columns = (*test_set.references, *test_set.systems)
    targets = [c.origin for c in columns]
    target = _common_declared(columns) or _common_extension(targets)
    source = None
    if test_set.source is not None:
        source = _common_declared([test_set.source]) or _common_extension([test_set.source.origin])
    pair = _common_pair([*targets, *([test_set.source.origin] if test_set.source else [])])
    if pair is not None:
        source = source or pair[0]
        target = target or pair[1]
    return Languages(source, target)


def languages_in_names(origins: Iterable[str]) -> Languages:
    """The pair such as ``en-zh`` that the names agree on (shards, whose extensions say nothing
    of the language), else unknown languages."""
    pair = _common_pair(origins)
    return Languages(*pair) if pair else Languages()


# sacreBLEU's BLEU, given a target language and no tokenizer, picks these (its _TOKENIZER_MAP);
# every other language, and an unknown one, gets 13a. Its chrF and TER do not tokenize this way.
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
DEFAULT_TOKENIZER = "13a"
# Where WMT's official BLEU (WMT21's and WMT23's automatic-scores.tsv, reproduced exactly)
# tokenizes otherwise than sacreBLEU's default: Japanese with char. On WMT23 en-ja, ONLINE-B
# reads 40.23 with char, 25.29 with ja-mecab and 17.01 with 13a.
WMT_TOKENIZERS = {"ja": "char"}


def default_tokenizer(languages: Languages) -> str:
    """The tokenizer sacreBLEU's BLEU uses for the target language when none is given."""
    return LANGUAGE_TOKENIZERS.get(languages.target or "", DEFAULT_TOKENIZER)


def resolve_tokenizer(
    options: Options, languages: Languages, tokenize: str | None
) -> tuple[Options, str | None]:
    """``options`` with the tokenizer given (``tokenize``), or, when none was given (None), the
    target language's default, and a note that says so when that default is not 13a (the only
    case where it changes a number compared with not knowing the language).

    Options always holds a definite tokenizer, so its signature and every cache key built on it
    say which one was used; "not given" exists only here, between the user and the Options."""
    if tokenize is not None:
        return replace(options, tokenize=tokenize), None
    chosen = default_tokenizer(languages)  # never a SentencePiece one: no model to keep
    options = replace(options, tokenize=chosen, spm_model=None)
    if chosen == DEFAULT_TOKENIZER:
        return options, None
    note = (
        f"the output is in {_name(languages.target)}: tokenized with {chosen}, sacreBLEU's "
        f"default{wmt_difference(languages)}"
    )
    return options, note


def wmt_difference(languages: Languages) -> str:
    """'' or, where WMT's official BLEU tokenizes the target language otherwise than sacreBLEU's
    default, a clause that says with what."""
    wmt = WMT_TOKENIZERS.get(languages.target or "")
    if wmt is None:
        return ""
    return f" (WMT's official BLEU tokenizes {_name(languages.target)} with {wmt})"


def missing_default(languages: Languages, problem: str) -> str:
    """What to say when the language's default tokenizer cannot run (``problem``: its missing
    package, from ``text.require_tokenizer``)."""
    return (
        f"the output is in {_name(languages.target)}, whose default tokenizer (sacreBLEU's) is "
        f"{default_tokenizer(languages)}{wmt_difference(languages)}, but {problem}"
    )


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


def _common_declared(columns: Iterable[TextColumn]) -> str | None:
    """The language every column declares, when they all declare the same known one."""
    codes = {column.language for column in columns}
    code = codes.pop() if len(codes) == 1 else None
    return code if code in NAMES else None


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
