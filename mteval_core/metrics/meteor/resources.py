"""Where METEOR 1.5's language data is, and what each language has, as the jar decides.

The jar's data: function word lists, WordNet synonyms, nonbreaking prefixes and the Arabic stem
table live inside `meteor-1.5.jar` (read here from the jar as a zip file); the paraphrase tables
(`paraphrase-en.gz`, ...) lie in a `data/` folder beside it. PyPI's pycocoevalcap ships the jar
and the English table, so an installed pycocoevalcap is found without being named; `--meteor-data
PATH` names a jar, or a folder holding one (or a METEOR checkout's `resources/`) and `data/`.

Exact matching and the Snowball stemmers need no data. Anything else asked of a `MeteorData`
that lacks it raises an `InputError` naming the module, the file and the one command that
installs it (INSTALL, the same in every message, README and page); a jar or table that is there
but damaged, one naming the file and the command that installs it again. The messages name no
command-line option: the command line and the dashboard each say how to point at other data.
"""

from __future__ import annotations

import gzip
import importlib
import importlib.util
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.java_strings import java_hash, java_lines, java_tokenize
from mteval_core.metrics.meteor.paraphrases import ParaphraseTable, shared_table
from mteval_core.metrics.meteor.stemmers import SNOWBALL_LANGUAGES, jar_stemmer
from mteval_core.metrics.meteor.synonyms import SynonymDictionary

# The one way to install METEOR's data that every message gives: PyPI's pycocoevalcap 1.2 ships
# meteor-1.5.jar and English's paraphrase table (its other dependencies need a compiler and are
# not METEOR's, hence --no-deps)
INSTALL = "pip install --no-deps pycocoevalcap==1.2"
REINSTALL = "pip install --no-deps --force-reinstall pycocoevalcap==1.2"
GET_DATA = f"Install METEOR's data (meteor-1.5.jar and English's paraphrase table): {INSTALL}."

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
            try:
                return self._from_jar(name)
            except KeyError:
                pass
        if self.describe() == NO_DATA:
            problem = f"METEOR's {needed_for} needs {name} of meteor-1.5.jar, and none was found"
        else:
            problem = f"METEOR's {needed_for} needs {name}, and it is not in {self.describe()}"
        raise InputError(problem, hint=GET_DATA)

    def _from_jar(self, name: str) -> bytes:
        """A file of the jar (KeyError where it has none); a jar that is not a whole zip file,
        or a file of it that does not unpack, is an InputError naming the jar. The jar is opened
        afresh after a failure, so that a jar installed again is read without a restart."""
        try:
            if self._zip is None:
                self._zip = zipfile.ZipFile(self.jar)
            return self._zip.read(name)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as error:
            self._zip = None
            raise InputError(
                f"is not a readable jar: {name} cannot be read from it ({error})",
                origin=str(self.jar),
                hint=f"Install it again: {REINSTALL}."
                if self.installed
                else "Replace it with a good copy of meteor-1.5.jar.",
            ) from None

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
            else "pycocoevalcap ships English's table only; METEOR 1.5's full release has this "
            "one in its data/ folder."
        )
        raise InputError(
            f"METEOR's paraphrase module needs {file_name}, which is not in {where}", hint=hint
        )

    def paraphrases(self, language: str, cache_folder: Path | None = None) -> ParaphraseTable:
        """The paraphrase table, parsed once into its cache and loaded once per process (see
        `paraphrases.ParaphraseTable`); a damaged table says how to get it again."""
        path = self.paraphrase_path(language)
        replace = (
            f"Install it again: {REINSTALL}."
            if self.installed and path.parent == self.paraphrase_folder
            else "Replace it with METEOR 1.5's own, or leave the paraphrase module out."
        )
        return shared_table(path, cache_folder, replace)

    @property
    def installed(self) -> bool:
        """Whether the data is an installed pycocoevalcap's (INSTALL gets it again)."""
        return self.jar is not None and self.jar.parent.parent.name == "pycocoevalcap"

    def stemmer(self, language: str) -> Callable[[str], str]:
        """The stem module's stemmer: Snowball's as the jar has it, or the Arabic stem table."""
        name = normalize_language(language)
        if name in SNOWBALL_LANGUAGES:
            return jar_stemmer(name)
        if name == "arabic-buckwalter-reduced":
            member = f"stem/{name}.gz"
            return _lookup_stemmer(self.read(member, "stem module"), f"{self.describe()}: {member}")
        raise InputError(
            f"METEOR has no stemmer for {name}", hint="Leave 'stem' out of the modules."
        )


@lru_cache(maxsize=2)
def _synonym_dictionary(synsets: bytes, exceptions: bytes) -> SynonymDictionary:
    """One dictionary per content (the jar reads the synsets in its platform charset: ASCII)."""
    return SynonymDictionary(synsets.decode("latin-1"), exceptions.decode("utf-8"))


def _lookup_stemmer(gzipped: bytes, origin: str) -> Callable[[str], str]:
    """The jar's `LookupTableStemmer`: "word count stem" lines, keyed by the word's Java hash.

    A later line for one key replaces an earlier one; an unlisted word is its own stem.
    """
    try:
        text = gzip.decompress(gzipped).decode("utf-8", errors="replace")
    except (gzip.BadGzipFile, EOFError, zlib.error) as error:
        raise InputError(
            f"is damaged: it does not unpack ({error})",
            origin=origin,
            hint=f"Install the jar again: {REINSTALL}.",
        ) from None
    table: dict[int, str] = {}
    for line in java_lines(text):
        words = java_tokenize(line)
        if len(words) >= 3:
            table[java_hash(words[0])] = words[2]
    return lambda word: table.get(java_hash(word), word)


def _pycocoevalcap_jar() -> Path | None:
    """meteor-1.5.jar of an installed pycocoevalcap, if any; one installed since the last look
    is found too (the import system's listings of folders are read again first)."""
    for fresh in (False, True):
        if fresh:
            importlib.invalidate_caches()
        spec = importlib.util.find_spec("pycocoevalcap")
        for location in (spec.submodule_search_locations or []) if spec else []:
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
        raise InputError("does not exist", origin=str(path), hint=GET_DATA)
    if not zipfile.is_zipfile(path):
        raise InputError(
            "is not a jar (zip) file", origin=str(path), hint="Give meteor-1.5.jar or its folder."
        )
    return MeteorData(path, None, path.parent / "data")
