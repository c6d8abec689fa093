"""Where METEOR 1.5's language data is, and what each language has, as the jar decides.

The jar's data: function word lists, WordNet synonyms, nonbreaking prefixes and the Arabic stem
table live inside `meteor-1.5.jar` (read here from the jar as a zip file); the paraphrase tables
(`paraphrase-en.gz`, ...) lie in a `data/` folder beside it. PyPI's pycocoevalcap ships the jar
and the English table, so an installed pycocoevalcap is found without being named; `--meteor-data
PATH` names a jar, or a folder holding one (or a METEOR checkout's `resources/`) and `data/`.

Exact matching and the Snowball stemmers need no data. Anything else asked of a `MeteorData`
that lacks it raises an `InputError` naming the module, the file and where to get it.
"""

from __future__ import annotations

import gzip
import importlib.util
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.java_strings import java_hash, java_lines, java_tokenize
from mteval_core.metrics.meteor.paraphrases import ParaphraseTable
from mteval_core.metrics.meteor.stemmers import SNOWBALL_LANGUAGES, jar_stemmer
from mteval_core.metrics.meteor.synonyms import SynonymDictionary

GET_DATA = "pip install pycocoevalcap (it ships meteor-1.5.jar) or give --meteor-data PATH"

# Constants.normLanguageName: every name and code the jar takes, to its language name.
_LANGUAGE_NAMES = {
    "english": ("english", "en"),
    "czech": ("czech", "cz", "cs"),
    "french": ("french", "fr"),
    "german": ("german", "de"),
    "spanish": ("spanish", "es"),
    "arabic-buckwalter-reduced": ("arabic-buckwalter-reduced", "ar-bw-red"),
    "portuguese": ("portuguese", "pt"),
    "russian": ("russian", "ru"),
    "danish": ("danish", "da"),
    "romanian": ("romanian", "ro"),
    "hungarian": ("hungarian", "hu"),
    "turkish": ("turkish", "tr"),
    "finnish": ("finnish", "fi"),
    "dutch": ("dutch", "nl"),
    "italian": ("italian", "it"),
    "norwegian": ("norwegian", "no"),
    "swedish": ("swedish", "se", "sv"),
    "other": ("other", "xx"),
}
_NAME_OF = {alias: name for name, aliases in _LANGUAGE_NAMES.items() for alias in aliases}

# Constants.getLanguageShortName: the code in a paraphrase file's name (Czech's is "cz").
SHORT_NAMES = {
    "english": "en",
    "czech": "cz",
    "french": "fr",
    "spanish": "es",
    "german": "de",
    "arabic-buckwalter-reduced": "ar-bw-red",
    "portuguese": "pt",
    "russian": "ru",
    "danish": "da",
    "romanian": "ro",
    "hungarian": "hu",
    "turkish": "tr",
    "finnish": "fi",
    "dutch": "nl",
    "italian": "it",
    "norwegian": "no",
    "swedish": "se",
    "other": "other",
}

# Constants.getModules for the default task: the modules `-l LANG` uses without `-m`.
_EXACT_STEM = ("exact", "stem")
DEFAULT_MODULES = {
    "english": ("exact", "stem", "synonym", "paraphrase"),
    "french": ("exact", "stem", "paraphrase"),
    "spanish": ("exact", "stem", "paraphrase"),
    "german": ("exact", "stem", "paraphrase"),
    "russian": ("exact", "stem", "paraphrase"),
    "czech": ("exact", "paraphrase"),
    "other": ("exact",),
    **{
        name: _EXACT_STEM
        for name in _LANGUAGE_NAMES
        if name not in {"english", "french", "spanish", "german", "russian", "czech", "other"}
    },
}

# Constants.isSupported: the languages with tuned parameters, the only ones `-norm` accepts.
NORMALIZED_LANGUAGES = ("english", "czech", "french", "spanish", "german", "russian")

# The function word list the jar's command line weighs with, whatever `-l` says (unless `-s FILE`):
# its MeteorConfiguration reads the list for the default language before `-l` is applied and
# never again. Measured: `-l de -m exact -ssOut` counts 2 function words in "the of haus" and 0
# in "und der haus", though german.words lists "und" and "der".
JAR_CLI_FUNCTION_WORDS_LANGUAGE = "english"

NO_DATA = "no METEOR data"  # what describe() says when no jar or folder was found

# The only synonym files the jar has; the synonym module reads "<language>.synsets".
SYNONYM_LANGUAGES = ("english",)


def normalize_language(language: str) -> str:
    """The jar's language name for a name or code (`Constants.normLanguageName`)."""
    name = _NAME_OF.get(language.lower())
    if name is None:
        codes = ", ".join(sorted(alias for alias in _NAME_OF if len(alias) <= 3))
        raise InputError(f"METEOR has no language {language!r}", hint=f"Use one of: {codes}.")
    return name


@dataclass
class MeteorData:
    """METEOR's data files: the jar (or a resources folder) and the paraphrase folder."""

    jar: Path | None = None
    resources: Path | None = None  # a folder with function/, synonym/, nonbreaking/, stem/
    paraphrase_folder: Path | None = None
    _zip: zipfile.ZipFile | None = field(default=None, init=False, repr=False)
    # Files already read: decompressing the synonym data from the jar takes ~40 ms, and every
    # scoring asks for it twice (the module check, then the matcher).
    _read: dict[str, bytes] = field(default_factory=dict, init=False, repr=False)

    def describe(self) -> str:
        """Where the data comes from, for messages."""
        places = [str(p) for p in (self.jar, self.resources, self.paraphrase_folder) if p]
        return ", ".join(places) or NO_DATA

    def read(self, name: str, needed_for: str) -> bytes:
        """One resource file (e.g. "synonym/english.synsets"), from the jar or the folder."""
        if name not in self._read:
            self._read[name] = self._read_uncached(name, needed_for)
        return self._read[name]

    def _read_uncached(self, name: str, needed_for: str) -> bytes:
        if self.resources is not None and (self.resources / name).is_file():
            return (self.resources / name).read_bytes()
        if self.jar is not None:
            if self._zip is None:
                self._zip = zipfile.ZipFile(self.jar)
            try:
                return self._zip.read(name)
            except KeyError:
                pass
        where = (
            "no METEOR data was found"
            if self.describe() == NO_DATA
            else (f"it is not in {self.describe()}")
        )
        raise InputError(
            f"METEOR's {needed_for} needs {name}, and {where}",
            hint=f"{GET_DATA}.",
        )

    def function_words(self, language: str) -> frozenset[str]:
        """The language's function word list (`function/<language>.words`), one word a line.

        Note: the jar's command line always weighs with english.words, whatever `-l` says
        (see JAR_CLI_FUNCTION_WORDS_LANGUAGE); the list of `language` is what its API uses.
        """
        name = normalize_language(language)
        text = self.read(f"function/{name}.words", "function word weighting")
        return frozenset(java_lines(text.decode("utf-8", errors="replace")))

    def nonbreaking_prefixes(self, language: str) -> dict[str, bool]:
        """`-norm`'s nonbreaking prefixes: prefix -> True if only before a number.

        The jar's `Normalizer.nbpList`: the first word of each line, lines starting with "#"
        and empty ones skipped, "#NUMERIC_ONLY#" as the second word marking the numeric kind.
        """
        name = normalize_language(language)
        text = self.read(f"nonbreaking/{name}.prefixes", "normalizer (-norm)")
        prefixes: dict[str, bool] = {}
        for line in java_lines(text.decode("utf-8", errors="replace")):
            words = java_tokenize(line)
            if words and not words[0].startswith("#"):
                prefixes[words[0]] = len(words) > 1 and words[1] == "#NUMERIC_ONLY#"
        return prefixes

    def synonyms(self, language: str) -> SynonymDictionary:
        """The synonym module's dictionary (English only: the jar has no other)."""
        name = normalize_language(language)
        if name not in SYNONYM_LANGUAGES:
            raise InputError(
                f"METEOR's synonym module has no data for {name}",
                hint="It is English only: leave 'synonym' out of the modules.",
            )
        synsets = self.read(f"synonym/{name}.synsets", "synonym module")
        exceptions = self.read(f"synonym/{name}.exceptions", "synonym module")
        return _synonym_dictionary(synsets, exceptions)

    def paraphrase_path(self, language: str) -> Path:
        """`data/paraphrase-<code>.gz` for a language, or an InputError saying where to put it."""
        code = SHORT_NAMES[normalize_language(language)]
        file_name = f"paraphrase-{code}.gz"
        if self.paraphrase_folder is not None and (self.paraphrase_folder / file_name).is_file():
            return self.paraphrase_folder / file_name
        where = self.paraphrase_folder or "a data/ folder beside meteor-1.5.jar"
        hint = (
            GET_DATA
            if code == "en"
            else "METEOR 1.5's full release has it in its data/ folder: give --meteor-data PATH"
        )
        raise InputError(
            f"METEOR's paraphrase module needs {file_name}, which is not in {where}",
            hint=f"{hint}.",
        )

    def paraphrases(self, language: str, cache_folder: Path | None = None) -> ParaphraseTable:
        """The paraphrase table, parsed once and cached (see `paraphrases.ParaphraseTable`)."""
        return _paraphrase_table(self.paraphrase_path(language), cache_folder)

    def stemmer(self, language: str) -> Callable[[str], str]:
        """The stem module's stemmer: Snowball's as the jar has it, or the Arabic stem table."""
        name = normalize_language(language)
        if name in SNOWBALL_LANGUAGES:
            return jar_stemmer(name)
        if name == "arabic-buckwalter-reduced":
            return _lookup_stemmer(self.read(f"stem/{name}.gz", "stem module"))
        raise InputError(
            f"METEOR has no stemmer for {name}", hint="Leave 'stem' out of the modules."
        )


@lru_cache(maxsize=2)
def _synonym_dictionary(synsets: bytes, exceptions: bytes) -> SynonymDictionary:
    """One dictionary per content (the jar reads the synsets in its platform charset: ASCII)."""
    return SynonymDictionary(synsets.decode("latin-1"), exceptions.decode("utf-8"))


@cache
def _paraphrase_table(path: Path, cache_folder: Path | None) -> ParaphraseTable:
    return ParaphraseTable.load(path, cache_folder)


def _lookup_stemmer(gzipped: bytes) -> Callable[[str], str]:
    """The jar's `LookupTableStemmer`: "word count stem" lines, keyed by the word's Java hash.

    A later line for one key replaces an earlier one; an unlisted word is its own stem.
    """
    table: dict[int, str] = {}
    for line in java_lines(gzip.decompress(gzipped).decode("utf-8", errors="replace")):
        words = java_tokenize(line)
        if len(words) >= 3:
            table[java_hash(words[0])] = words[2]
    return lambda word: table.get(java_hash(word), word)


def _pycocoevalcap_jar() -> Path | None:
    """meteor-1.5.jar of an installed pycocoevalcap, if any."""
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        jar = Path(location) / "meteor" / "meteor-1.5.jar"
        if jar.is_file():
            return jar
    return None


def _from_folder(folder: Path) -> MeteorData:
    """A METEOR folder: a jar in it (or a checkout's resources/) and data/ paraphrase files."""
    jars = sorted(folder.glob("meteor*.jar"))
    resources = next((c for c in (folder / "resources", folder) if (c / "function").is_dir()), None)
    paraphrases = next(
        (c for c in (folder / "data", folder) if any(c.glob("paraphrase-*.gz"))), None
    )
    if not jars and resources is None and paraphrases is None:
        raise InputError(
            "holds no meteor-1.5.jar, no METEOR resources/ and no paraphrase-*.gz",
            origin=str(folder),
            hint="Give the jar, or the folder of a METEOR 1.5 release.",
        )
    return MeteorData(jars[0] if jars else None, resources, paraphrases or folder / "data")


def find_meteor_data(path: Path | None = None) -> MeteorData:
    """METEOR's data: `path` (a jar or a folder) if given, else an installed pycocoevalcap's.

    Without either, an empty `MeteorData`: exact and stem matching still work, and any other
    resource asked of it says how to get it.
    """
    if path is None:
        jar = _pycocoevalcap_jar()
        return MeteorData(jar, None, jar.parent / "data") if jar else MeteorData()
    if path.is_dir():
        return _from_folder(path)
    if not path.is_file():
        raise InputError("does not exist", origin=str(path), hint=f"{GET_DATA}.")
    if not zipfile.is_zipfile(path):
        raise InputError(
            "is not a jar (zip) file", origin=str(path), hint="Give meteor-1.5.jar or its folder."
        )
    return MeteorData(path, None, path.parent / "data")
