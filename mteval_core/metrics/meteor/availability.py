"""Where the METEOR metric gets its matchers, its function words and its normaliser.

One place that says which modules can run here and with what data, so that the metric asks one
question ("the stem matcher for German") and gets a matcher or a one-line InputError that says
what is missing and where to get it.

Function words: the jar reads its function-word list from the language's default when it sets up,
which is the English list for every language (its configuration picks the word file before the
language is set, and setting the language does not change it). mteval does the same, so that
German METEOR counts "the" and not "und" as a function word, exactly as the jar's numbers do.
"""

from __future__ import annotations

import importlib.util
import re
import zipfile
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.aligner import Matcher
from mteval_core.metrics.meteor.configuration import MeteorConfiguration
from mteval_core.metrics.meteor.matchers import match_exact

JAR_NAME = "meteor-1.5.jar"
FUNCTION_WORDS = "function/english.words"  # the jar's list for every language (see above)
WHERE_TO_GET = (
    "METEOR's data ships with meteor-1.5.jar: `pip install pycocoevalcap` (found automatically) "
    "or give --meteor-data PATH (the jar, or the folder holding it)"
)


def jar_path(data: str | None) -> Path | None:
    """The METEOR 1.5 jar: --meteor-data (the jar or its folder), else pycocoevalcap's."""
    if data is not None:
        path = Path(data)
        if path.is_dir():
            path = path / JAR_NAME
        if not path.is_file():
            raise InputError(
                f"--meteor-data {data}: no {JAR_NAME} there",
                hint=f"Give the jar itself or the folder that holds it; {WHERE_TO_GET}.",
            )
        return path
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(spec.submodule_search_locations[0]) / "meteor" / JAR_NAME
    return path if path.is_file() else None


@lru_cache(maxsize=4)
def function_words(data: str | None) -> frozenset[str]:
    """The jar's function words (one a line, read as Java's readLine reads lines)."""
    jar = jar_path(data)
    if jar is None:
        raise InputError(
            "METEOR needs its function-word list, which comes with meteor-1.5.jar",
            hint=WHERE_TO_GET + ".",
        )
    with zipfile.ZipFile(jar) as archive:
        text = archive.read(FUNCTION_WORDS).decode("utf-8")
    return frozenset(line for line in re.split(r"\r\n|\r|\n", text) if line)


_MATCHERS: dict[str, Callable[[MeteorConfiguration, str | None], Matcher]] = {
    "exact": lambda configuration, data: match_exact,
}


def available_modules(configuration: MeteorConfiguration, data: str | None) -> tuple[str, ...]:
    """The configured modules that can run here (data present, matcher built)."""
    return tuple(m for m in configuration.modules if m in _MATCHERS)


def missing_data_hint(modules: Sequence[str]) -> str:
    return f"they are not available in this version of mteval ({', '.join(modules)})"


def matcher(module: str, configuration: MeteorConfiguration, data: str | None) -> Matcher:
    """The matcher of one module, or an InputError that says why it cannot run."""
    if module not in _MATCHERS:
        raise InputError(
            f"the METEOR {module} module is not available in this version of mteval",
            hint="Use --meteor-modules exact.",
        )
    return _MATCHERS[module](configuration, data)


def has_normalizer() -> bool:
    return False


def normalizer(configuration: MeteorConfiguration) -> Callable[[str], str]:
    raise InputError(
        "--meteor-normalize: METEOR's normaliser is not available in this version",
        hint="Leave out --meteor-normalize.",
    )
