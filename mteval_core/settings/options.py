"""One configuration object for every computation, and the signature that records it.

The same :class:`Options` travels from the command-line flags or the dashboard's Data page to every
metric, so a number is always reported together with the options that produced it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace

from mteval_core import __version__
from mteval_core.errors import InputError
from mteval_core.settings.parameters import (
    FAMILIES,
    BLEUParameters,
    GTMParameters,
    METEORParameters,
    TERParameters,
    UnigramParameters,
)

TOKENIZERS = (
    "13a",
    "intl",
    "none",
    "gtm14",
    "mteval",
    "zh",
    "char",
    "ja-mecab",
    "ko-mecab",
    "flores101",
    "flores200",
    "spBLEU-1K",
    "spm",
)
# sacreBLEU downloads the SentencePiece models of these; we read the file given (``spm_model``).
SPM_TOKENIZERS = ("flores101", "flores200", "spBLEU-1K", "spm")
SPM_DIGEST_SIGNED = 12  # hex digits of the model's SHA-256 in the signature (spm-model:...)
# The extra of ``pip install "mteval-core[...]"`` each tokenizer needs, named when it is missing.
TOKENIZER_EXTRAS = {"ja-mecab": "ja", "ko-mecab": "ko", **dict.fromkeys(SPM_TOKENIZERS, "spm")}
STEMMERS = ("none", "porter", "snowball")
SNOWBALL_LANGUAGES = (
    "arabic",
    "danish",
    "dutch",
    "english",
    "finnish",
    "french",
    "german",
    "hungarian",
    "italian",
    "norwegian",
    "portuguese",
    "romanian",
    "russian",
    "spanish",
    "swedish",
)


@dataclass(frozen=True)
class SentencePieceModel:
    """Which SentencePiece model the flores101, flores200, spBLEU-1K and spm tokenizers use: known
    by the SHA-256 of its bytes, so that two models never share a signature or a cached result, and
    the same bytes under two names do.

    ``name`` is what the user calls the file (the path given on the command line, an upload's
    file name): messages name it, never a copy on a server. ``path`` is where the model can be
    read again (the command line's file; None for a dashboard upload, which is loaded from the
    bytes its session holds, see ``text.sentencepiece_models``), so that options sent to a
    worker carry a path, not megabytes. Only the digest is compared and hashed.
    """

    name: str = field(compare=False)
    digest: str
    path: str | None = field(default=None, compare=False)

    @classmethod
    def of_bytes(cls, name: str, data: bytes, path: str | None = None) -> SentencePieceModel:
        return cls(name, hashlib.sha256(data).hexdigest(), path)

    @property
    def label(self) -> str:
        """The start of the digest, as the signature shows it."""
        return self.digest[:SPM_DIGEST_SIGNED]


@dataclass(frozen=True)
class Options:
    """Every option that can change a number: the preprocessing every metric shares, and each
    metric family's own parameters (``settings.parameters``: ``bleu``, ``unigram``, ``gtm``,
    ``ter``, ``meteor``).

    tokenize: '13a' (sacreBLEU's default), 'intl', 'none' (sacreBLEU's: no tokenization, words
    split on every Unicode whitespace as Python's str.split), 'gtm14' (GTM 1.4's and METEOR 1.5's
    split: characters up to U+0020 trimmed from both ends, then space, tab, LF, CR and form feed
    only; NBSP stays inside a word), 'mteval' (13a with mteval-v13a's ASCII-only lowercasing),
    or sacreBLEU's 'zh', 'char', 'ja-mecab', 'ko-mecab' and the SentencePiece ones
    ('flores101', 'flores200', 'spBLEU-1K', 'spm'), which use the model ``spm_model``
    (sacreBLEU downloads it; here it is the file the user gives, see SentencePieceModel).
    The language default (zh for Chinese output, ...) is chosen before an Options is made
    (``settings.languages.resolve_tokenizer``): here a tokenizer is always a definite choice.
    lowercase: Unicode lowercasing (every metric; TER is case-insensitive anyway unless its
    ``case_sensitive``; it is METEOR's -lower).
    stem: 'none', 'porter' (NLTK, its default NLTK_EXTENSIONS mode) or 'snowball' (NLTK, in
    ``stem_language``).
    The tokenizer and the stemmer feed the metrics that read tokens (BLEU, NIST, the unigram
    metrics, GTM); chrF, TER and METEOR read the raw text. ``scoring_options`` keeps, for one
    metric, only what changes its numbers.
    """

    tokenize: str = "13a"
    lowercase: bool = False
    stem: str = "none"
    stem_language: str = "english"
    spm_model: SentencePieceModel | None = None
    bleu: BLEUParameters = field(default_factory=BLEUParameters)
    unigram: UnigramParameters = field(default_factory=UnigramParameters)
    gtm: GTMParameters = field(default_factory=GTMParameters)
    ter: TERParameters = field(default_factory=TERParameters)
    meteor: METEORParameters = field(default_factory=METEORParameters)

    def __post_init__(self) -> None:
        _check_choice("tokenize", self.tokenize, TOKENIZERS)
        self._check_spm_model()
        _check_choice("stem", self.stem, STEMMERS)
        if self.stem == "snowball":
            _check_choice("stem language", self.stem_language, SNOWBALL_LANGUAGES)
        for name, family in FAMILIES.items():
            if not isinstance(getattr(self, name), family):
                raise TypeError(f"Options.{name} is a {family.__name__}")

    @classmethod
    def from_flags(cls, **values: object) -> Options:
        """Options from flat names, as the command line's flags give them: the shared fields by
        their own names (``tokenize``, ``lowercase``, ...) and each family's parameters as
        ``<prefix>_<name>`` (``gtm_exponent``, ``ter_case_sensitive``, ``meteor_modules``,
        ``fmean_alpha``, ``bleu_bp``)."""
        return cls().updated(**values)

    def updated(self, **values: object) -> Options:
        """These options with some fields changed, named as ``from_flags`` names them."""
        shared: dict[str, object] = {}
        families: dict[str, dict[str, object]] = {}
        for flag, value in values.items():
            name, parameter = flag_field(flag)
            if parameter is None:
                shared[name] = value
            else:
                families.setdefault(name, {})[parameter] = value
        for name, changed in families.items():
            shared[name] = replace(getattr(self, name), **changed)
        return replace(self, **shared)

    def _check_spm_model(self) -> None:
        """A SentencePiece tokenizer has its model, and only those tokenizers have one. The
        command line and the Data page say how to give it before they make Options."""
        if self.tokenize in SPM_TOKENIZERS and not isinstance(self.spm_model, SentencePieceModel):
            raise InputError(
                f"the {self.tokenize} tokenizer needs its SentencePiece model file",
                hint="sacreBLEU downloads it; mteval reads the copy you give (sacreBLEU keeps its "
                "copies in ~/.sacrebleu/models/), or choose another tokenizer.",
            )
        if self.tokenize not in SPM_TOKENIZERS and self.spm_model is not None:
            raise InputError(
                "a SentencePiece model is for the flores101, flores200, spBLEU-1K and spm "
                f"tokenizers, not {self.tokenize}",
                hint="Choose one of them, or leave the model out.",
            )

    # ------------------------------------------------------------------ signature pieces
    @property
    def case_label(self) -> str:
        if self.lowercase:
            return "lc"
        return "lc-ascii" if self.tokenize == "mteval" else "mixed"

    @property
    def stem_label(self) -> str:
        if self.stem == "porter":
            return "porter-nltk"
        if self.stem == "snowball":
            return f"snowball-{self.stem_language}"
        return "none"

    @property
    def tokenize_label(self) -> str:
        """sacreBLEU's name of the tokenizer in signatures: its 'spm' is 'flores101' there."""
        return "flores101" if self.tokenize == "spm" else self.tokenize

    @property
    def tokenizer_signature(self) -> str:
        """``tok:`` as sacreBLEU signs it, and for a SentencePiece tokenizer the model's digest
        (``spm-model:``): sacreBLEU's names say which model it downloads, ours are any file."""
        if self.spm_model is None:
            return f"tok:{self.tokenize_label}"
        return f"tok:{self.tokenize_label}|spm-model:{self.spm_model.label}"

    def preprocessing_signature(self) -> str:
        """The part of every signature that says how text became tokens."""
        return f"case:{self.case_label}|{self.tokenizer_signature}|stem:{self.stem_label}"


SHARED_FIELDS = ("tokenize", "lowercase", "stem", "stem_language", "spm_model")


# The stemmers a page offers by label: Porter, or Snowball in one of its languages.
STEMMER_CHOICES = ("porter", *(f"snowball-{language}" for language in SNOWBALL_LANGUAGES))


def stemmer_choice(options: Options) -> str:
    """The label in STEMMER_CHOICES of the stemmer ``options`` use; Porter when they use none."""
    return f"snowball-{options.stem_language}" if options.stem == "snowball" else "porter"


def stemming_variants(options: Options, choice: str) -> dict[str, Options]:
    """``options`` unstemmed and stemmed with ``choice`` (a label in STEMMER_CHOICES), for
    showing what stemming changes side by side."""
    _check_choice("stemmer", choice, STEMMER_CHOICES)
    stem, _, language = choice.partition("-")
    return {
        "unstemmed": replace(options, stem="none"),
        # Porter takes no language: the default one, so that equal stemmers give equal options
        "stemmed": replace(options, stem=stem, stem_language=language or Options.stem_language),
    }


def scoring_options(options: Options, family: str | None, reads_tokens: bool) -> Options:
    """Of ``options``, only what changes the statistics of a metric of ``family`` (None: a
    metric without parameters) that reads tokens or the raw text: the shared lowercasing, the
    tokenizer and stemmer where it reads tokens, and its own family's parameters; everything
    else at its default. Two runs whose scoring options are equal give that metric the same
    statistics, which is how the dashboard keeps them: changing GTM's exponent re-scores GTM
    alone, and every tokenizer and stemmer shares chrF's, TER's and METEOR's."""
    kept: dict[str, object] = {"lowercase": options.lowercase}
    if reads_tokens:
        kept.update(tokenize=options.tokenize, spm_model=options.spm_model, stem=options.stem)
        if options.stem == "snowball":
            kept["stem_language"] = options.stem_language
    if family is not None:
        kept[family] = getattr(options, family)
    return Options(**kept)


def signature(
    options: Options,
    n_references: int,
    extra: dict[str, str] | None = None,
    case: str | None = None,
    tokens: bool = True,
) -> str:
    """A sacreBLEU-style signature: every option that changes a number, then the version.

    ``tokens`` is False for a metric that reads the raw text (chrF, TER): the tokenizer and the
    stemmer change none of its numbers, so its signature does not name them, as sacreBLEU's
    chrF and TER signatures do not.

    ``case`` is one metric's own treatment of case when it differs from the preprocessing's
    (TER is case-insensitive by default, as sacreBLEU's), so that metric's signature says so.
    """
    parts = [f"nrefs:{n_references}", f"case:{case or options.case_label}"]
    if tokens:
        parts += [options.tokenizer_signature, f"stem:{options.stem_label}"]
    for key, value in (extra or {}).items():
        parts.append(f"{key}:{value}")
    parts.append(f"version:{__version__}")
    return "|".join(parts)


def flag_field(flag: str) -> tuple[str, str | None]:
    """A flat name (``gtm_exponent``) as (Options' field, the family's parameter), or (a shared
    field, None); a TypeError for a name that is neither."""
    if flag in SHARED_FIELDS:
        return flag, None
    for name, family in FAMILIES.items():
        start = f"{family.prefix}_"
        if flag.startswith(start) and flag[len(start) :] in family.names():
            return name, flag[len(start) :]
    raise TypeError(f"Options has no option {flag!r}")


def _check_choice(what: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InputError(
            f"unknown {what} {value!r}",
            hint=f"Choose one of: {', '.join(choices)}.",
        )
