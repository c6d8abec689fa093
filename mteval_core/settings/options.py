"""One configuration object for every computation, and the signature that records it.

The same :class:`Options` travels from the command-line flags or the dashboard's Data page to every
metric, so a number is always reported together with the options that produced it.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, replace

from mteval_core import __version__
from mteval_core.errors import InputError

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
    "spm",
)
# sacreBLEU downloads the SentencePiece models of these; we read the file given (``spm_model``).
SPM_TOKENIZERS = ("flores101", "flores200", "spm")
SPM_DIGEST_SIGNED = 12  # hex digits of the model's SHA-256 in the signature (spm-model:...)
# The extra of ``pip install "mteval[...]"`` a tokenizer needs, for the message when it is missing.
TOKENIZER_EXTRAS = {"ja-mecab": "ja", "ko-mecab": "ko", **dict.fromkeys(SPM_TOKENIZERS, "spm")}
STEMMERS = ("none", "porter", "snowball")
BREVITY_PENALTIES = ("closest", "shortest")
GTM_MATCHINGS = ("greedy", "exact")
METEOR_ALIGNMENTS = ("beam", "exact")
METEOR_TASKS = ("rank", "adq", "hter", "li", "tune")  # the jar's tasks with defaults
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
    """Which SentencePiece model the flores101, flores200 and spm tokenizers use: known by the
    SHA-256 of its bytes, so that two models never share a signature or a cached result, and
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
    """Every option that can change a number.

    tokenize: '13a' (sacreBLEU's default), 'intl', 'none' (sacreBLEU's: no tokenization, words
    split on every Unicode whitespace as Python's str.split), 'gtm14' (GTM 1.4's and METEOR 1.5's
    split: characters up to U+0020 trimmed from both ends, then space, tab, LF, CR and form feed
    only; NBSP stays inside a word), 'mteval' (13a with mteval-v13a's ASCII-only lowercasing),
    or sacreBLEU's 'zh', 'char', 'ja-mecab', 'ko-mecab' and the SentencePiece ones
    ('flores101', 'flores200', 'spm'), which use the model ``spm_model`` (sacreBLEU downloads
    it; here it is the file the user gives, see SentencePieceModel).
    The language default (zh for Chinese output, ...) is chosen before an Options is made
    (``settings.languages.resolve_tokenizer``): here a tokenizer is always a definite choice.
    lowercase: Unicode lowercasing.
    stem: 'none', 'porter' (NLTK, its default NLTK_EXTENSIONS mode) or 'snowball' (NLTK, in
    ``stem_language``). fmean_alpha: weight of recall in Fmean (0.9: Lavie's 10PR / (9P + R)).
    bp: which reference length BLEU's brevity penalty uses when there are several.
    gtm_exponent: GTM's e > 0, the reward for runs (1 = unigram matching, 2 = the paper's).
    gtm_matching: 'greedy' (GTM 1.4, bit for bit) or 'exact' (the paper's maximum matching).
    ter_case_sensitive: TER tells upper from lower case. Off by default, because sacreBLEU's TER
    is case-insensitive by default (``case:lc`` in its signature) and published TER numbers come
    from it; ``lowercase`` makes TER case-insensitive whatever this says.
    meteor_*: METEOR 1.5's language (a code or name the jar knows; the CLI puts the target
    language here when it is known), task (None: the jar's default for the language), modules,
    weights and parameters (None: the task's defaults), its normaliser (``-norm``), the jar or
    folder its data comes from (None: pycocoevalcap's) and the alignment search ('beam': the
    jar's; 'exact': the most weighted coverage, then the fewest chunks, found exactly).
    ``lowercase`` is the jar's ``-lower``. metrics/meteor/configuration.py checks them.
    """

    tokenize: str = "13a"
    lowercase: bool = False
    stem: str = "none"
    stem_language: str = "english"
    fmean_alpha: float = 0.9
    bp: str = "closest"
    gtm_exponent: float = 1.0
    gtm_matching: str = "greedy"
    ter_case_sensitive: bool = False
    ter_normalized: bool = False
    ter_no_punct: bool = False
    ter_asian_support: bool = False
    spm_model: SentencePieceModel | None = None
    meteor_language: str = "en"
    meteor_task: str | None = None
    meteor_modules: tuple[str, ...] | None = None
    meteor_weights: tuple[float, ...] | None = None
    meteor_parameters: tuple[float, ...] | None = None
    meteor_normalize: bool = False
    meteor_data: str | None = None
    meteor_alignment: str = "beam"

    def __post_init__(self) -> None:
        _check_choice("tokenize", self.tokenize, TOKENIZERS)
        self._check_spm_model()
        _check_choice("stem", self.stem, STEMMERS)
        _check_choice("bp", self.bp, BREVITY_PENALTIES)
        if self.stem == "snowball":
            _check_choice("stem language", self.stem_language, SNOWBALL_LANGUAGES)
        _check_choice("GTM matching", self.gtm_matching, GTM_MATCHINGS)
        e = self.gtm_exponent
        if not (isinstance(e, int | float) and math.isfinite(e) and 0.0 < e <= 1000.0):
            raise InputError(
                f"the GTM exponent must be a number above 0, got {e!r}",
                hint="1 is GTM 1.4's default (unigram matching); 2 rewards runs as in the paper.",
            )
        if self.gtm_matching == "exact" and e < 1:
            raise InputError(
                f"the exact GTM matching needs an exponent of at least 1, got {e!r}",
                hint="Below 1, splitting runs into single cells would maximise the sum of "
                "len ** e; use the greedy matching (GTM 1.4's) for e < 1.",
            )
        alpha = self.fmean_alpha
        if not (isinstance(alpha, int | float) and math.isfinite(alpha) and 0.0 <= alpha <= 1.0):
            raise InputError(
                f"Fmean alpha must be a number from 0 to 1, got {alpha!r}",
                hint="0.9 weights recall nine times more than precision (Lavie et al. 2004); "
                "0.5 gives F1.",
            )
        _check_choice("METEOR alignment", self.meteor_alignment, METEOR_ALIGNMENTS)

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
                f"a SentencePiece model is for the flores101, flores200 and spm tokenizers, "
                f"not {self.tokenize}",
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


def _check_choice(what: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InputError(
            f"unknown {what} {value!r}",
            hint=f"Choose one of: {', '.join(choices)}.",
        )
