"""Which METEOR modules can run here, and the matchers, function words and normaliser they use.

The metric asks one question ("the stem matcher for German", "can the paraphrase module run")
and gets a matcher or a one-line InputError saying what is missing and where to get it; the data
itself is `resources.MeteorData`'s (the jar and its data/ folder, found or given).

Function words: the jar's command line reads its function-word list before it sets the language
and never again, so every language gets the English list (`MeteorData.function_words`' note).
mteval does the same, so that German METEOR counts "the" and not "und" as a function word,
exactly as the jar's numbers do.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.aligner import Matcher
from mteval_core.metrics.meteor.configuration import MeteorConfiguration
from mteval_core.metrics.meteor.matchers import module_matchers
from mteval_core.metrics.meteor.normalizer import prepare_line
from mteval_core.metrics.meteor.resources import (
    NO_DATA,
    NORMALIZED_LANGUAGES,
    MeteorData,
    find_meteor_data,
)

FUNCTION_WORDS_LANGUAGE = "english"  # the jar's list for every language (see above)


_FOUND: dict[str | None, MeteorData] = {}  # data found, by where it was asked for
_FOUND_KEPT = 4


def meteor_data(path: str | None) -> MeteorData:
    """METEOR's data: ``path`` (a jar or a folder), else an installed pycocoevalcap's.

    Kept once found, and looked for again while it is not there (or its jar has gone): a
    pycocoevalcap installed while a dashboard server runs is used from the next page on,
    without a restart."""
    data = _FOUND.get(path)
    if data is None or (data.jar is not None and not data.jar.is_file()):
        data = find_meteor_data(Path(path) if path is not None else None)
        if data.describe() != NO_DATA:
            while len(_FOUND) >= _FOUND_KEPT:
                _FOUND.pop(next(iter(_FOUND)))
            _FOUND[path] = data
        function_words.cache_clear()  # its lists came from the data that was there before
    return data


def jar_path(path: str | None) -> Path | None:
    """The jar the data comes from (None when there is none)."""
    return meteor_data(path).jar


@lru_cache(maxsize=4)
def function_words(path: str | None) -> frozenset[str]:
    return meteor_data(path).function_words(FUNCTION_WORDS_LANGUAGE)


def matcher(module: str, configuration: MeteorConfiguration, path: str | None) -> Matcher:
    """The matcher of one module, or an InputError that says why it cannot run."""
    return module_matchers([module], configuration.language, meteor_data(path))[0]


def available_modules(configuration: MeteorConfiguration, path: str | None) -> tuple[str, ...]:
    """The configured modules whose data is here (checked without loading the big tables)."""
    data = meteor_data(path)
    checks: dict[str, Callable[[str], object]] = {
        "exact": lambda language: None,
        "stem": data.stemmer,
        "synonym": data.synonyms,
        "paraphrase": data.paraphrase_path,
    }
    available = []
    for module in configuration.modules:
        try:
            checks[module](configuration.language)
        except InputError:
            continue
        available.append(module)
    return tuple(available)


def why_missing(module: str, configuration: MeteorConfiguration, path: str | None) -> str:
    """The one-line reason a module cannot run here."""
    try:
        matcher(module, configuration, path)
    except InputError as error:
        return str(error)
    return f"the {module} module can run"


def check_normalizer(configuration: MeteorConfiguration) -> None:
    """Refuse -norm before any work for a language the jar does not normalise."""
    if configuration.normalize and configuration.language not in NORMALIZED_LANGUAGES:
        raise InputError(
            f"METEOR's normaliser has no rules for {configuration.language}",
            hint=f"It normalises {', '.join(NORMALIZED_LANGUAGES)}; score without normalising.",
        )


def line_preparer(configuration: MeteorConfiguration, path: str | None) -> Callable[[str], str]:
    """The jar's preparation of a line before it is split: -norm (which also lowercases),
    -lower, or nothing."""
    prefixes = None
    if configuration.normalize:
        prefixes = meteor_data(path).nonbreaking_prefixes(configuration.language)
    return partial(
        prepare_line,
        language=configuration.language,
        prefixes=prefixes,
        normalize=configuration.normalize,
        lower=configuration.lowercase,
    )
