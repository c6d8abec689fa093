"""Each metric's own parameters: one frozen dataclass per metric family, with what every place
that offers a parameter needs to know about it.

A parameter is declared once, as a field of its family's class with a :class:`Spec` (what it
does, its choices or bounds, the Data page's label). From that declaration come the command
line's flags (``--<prefix>-<name>``, grouped under the family, as sacreBLEU groups
``--chrf-*`` and ``--ter-*``), the Data page's widgets, the checks of a value, and, through
``Options``, the cache key of the metrics that read it: a metric's statistics depend on the
shared preprocessing and on its own family's parameters alone (``scoring_options``), so that
changing GTM's exponent re-scores GTM and nothing else. Each metric still writes its own
signature fields from its parameters (the names sacreBLEU and the reference programs use).

The classes hold plain values and import nothing of the metrics: the settings layer sits below
them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from mteval_core.errors import InputError

BREVITY_PENALTIES = ("closest", "shortest")
GTM_MATCHINGS = ("greedy", "exact")
METEOR_ALIGNMENTS = ("beam", "exact")
METEOR_TASKS = ("rank", "adq", "hter", "li", "tune")  # the jar's tasks with defaults
METEOR_MODULES = ("exact", "stem", "synonym", "paraphrase")


@dataclass(frozen=True)
class Spec:
    """What the command line and the Data page need to offer one parameter.

    ``help`` says what it does in words both can show (no flag names). ``label`` is the Data
    page's widget (None: offered on the command line only, e.g. a path on the server, or a
    parameter the page offers its own way). ``choices`` or ``low``/``high``/``step`` bound the
    value; ``parse`` turns the command line's text into it (raising ValueError with the reason);
    ``metavar`` is the command line's placeholder; ``aliases`` are older spellings of the flag
    that keep working; ``unset`` marks a field whose None means "the default for the language or
    task", resolved later."""

    help: str
    label: str | None = None
    choices: tuple[str, ...] | None = None
    low: float | None = None
    high: float | None = None
    step: float | None = None
    parse: Callable[[str], Any] | None = None
    metavar: str | None = None
    aliases: tuple[str, ...] = ()


def parameter(default: Any, **spec: Any) -> Any:
    """A dataclass field with its :class:`Spec`."""
    return field(default=default, metadata={"spec": Spec(**spec)})


@dataclass(frozen=True)
class Declared:
    """One parameter as its family declares it: the field's name and default, and its spec."""

    name: str
    default: Any
    spec: Spec
    kind: type  # bool, float, str or tuple: what a widget or the parser makes of it


class MetricParameters:
    """The base of every family: its flag prefix, its title, and its declared parameters."""

    prefix: ClassVar[str]  # the command line's --<prefix>-<name>
    option: ClassVar[str]  # the field of Options that holds the family
    title: ClassVar[str]  # how the command line's help and the Data page head the family

    @classmethod
    def declared(cls) -> list[Declared]:
        found = []
        for item in fields(cls):  # type: ignore[arg-type]
            kind = {bool: bool, float: float, str: str}.get(type(item.default), tuple)
            if item.metadata["spec"].choices is not None:
                kind = str
            found.append(Declared(item.name, item.default, item.metadata["spec"], kind))
        return found

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(item.name for item in fields(cls))  # type: ignore[arg-type]

    @classmethod
    def flag(cls, name: str) -> str:
        """The command line's flag of parameter ``name``: ``--gtm-exponent``."""
        return f"--{cls.prefix}-{name.replace('_', '-')}"

    def __post_init__(self) -> None:
        for item in self.declared():
            value = getattr(self, item.name)
            if item.spec.choices is not None and value is not None:
                _check_choice(
                    f"{self.title} {item.name.replace('_', ' ')}", value, item.spec.choices
                )
        self.check()

    def check(self) -> None:
        """What a family checks beyond choices (bounds that depend on each other)."""


# ------------------------------------------------------------------------------- the families
def _number_in(what: str, value: float, low: float, high: float, hint: str) -> None:
    if not (isinstance(value, int | float) and math.isfinite(value) and low <= value <= high):
        raise InputError(
            f"{what} must be a number from {low:g} to {high:g}, got {value!r}", hint=hint
        )


@dataclass(frozen=True)
class BLEUParameters(MetricParameters):
    """BLEU's and bleu_arith's: which reference length the brevity penalty uses."""

    prefix: ClassVar[str] = "bleu"
    option: ClassVar[str] = "bleu"
    title: ClassVar[str] = "BLEU"

    bp: str = parameter(
        "closest",
        help="which reference length the brevity penalty uses when there are several: the "
        "closest to the output's (sacreBLEU's, ties to the shorter) or the shortest "
        "(mteval-v13a's option)",
        label="BLEU's brevity penalty: reference length",
        choices=BREVITY_PENALTIES,
        aliases=("--bp",),
    )


@dataclass(frozen=True)
class UnigramParameters(MetricParameters):
    """Fmean's weight of recall; it also decides, with several references, which reference a
    segment's precision, recall, F1 and Fmean describe (the one with the best Fmean)."""

    prefix: ClassVar[str] = "fmean"
    option: ClassVar[str] = "unigram"
    title: ClassVar[str] = "Unigram precision, recall, F1, Fmean"

    alpha: float = parameter(
        0.9,
        help="Fmean = PR / (alpha P + (1 - alpha) R): 0.9 weights recall nine times more than "
        "precision, as Lavie et al. 2004; 0.5 gives F1",
        label="Fmean alpha (weight of recall)",
        low=0.0,
        high=1.0,
        step=0.05,
        metavar="A",
    )

    def check(self) -> None:
        _number_in(
            "Fmean alpha",
            self.alpha,
            0.0,
            1.0,
            "0.9 weights recall nine times more than precision (Lavie et al. 2004); 0.5 gives F1.",
        )


@dataclass(frozen=True)
class GTMParameters(MetricParameters):
    """GTM's exponent (the reward for runs) and its matching."""

    prefix: ClassVar[str] = "gtm"
    option: ClassVar[str] = "gtm"
    title: ClassVar[str] = "GTM"

    exponent: float = parameter(
        1.0,
        help="the reward for runs, e > 0: 1 is GTM 1.4's default, where GTM with one reference "
        "equals unigram F1; Melamed et al. 2003 use 2",
        label="GTM exponent",
        low=0.1,
        high=10.0,
        step=0.5,
        metavar="E",
    )
    matching: str = parameter(
        "greedy",
        help="greedy: GTM 1.4's matching, bit for bit; exact: the paper's maximum matching (needs "
        "an exponent of at least 1)",
        label="GTM matching",
        choices=GTM_MATCHINGS,
    )

    def check(self) -> None:
        e = self.exponent
        if not (isinstance(e, int | float) and math.isfinite(e) and 0.0 < e <= 1000.0):
            raise InputError(
                f"the GTM exponent must be a number above 0, got {e!r}",
                hint="1 is GTM 1.4's default (unigram matching); 2 rewards runs as in the paper.",
            )
        if self.matching == "exact" and e < 1:
            raise InputError(
                f"the exact GTM matching needs an exponent of at least 1, got {e!r}",
                hint="Below 1, splitting runs into single cells would maximise the sum of "
                "len ** e; use the greedy matching (GTM 1.4's) for e < 1.",
            )


@dataclass(frozen=True)
class TERParameters(MetricParameters):
    """sacreBLEU's TER options, under its names (its TercomTokenizer's rules)."""

    prefix: ClassVar[str] = "ter"
    option: ClassVar[str] = "ter"
    title: ClassVar[str] = "TER"

    case_sensitive: bool = parameter(
        False,
        help="count case differences as edits; by default TER is case-insensitive, as "
        "sacreBLEU's (case:lc in its signature), so that it matches published TER numbers",
        label="Case-sensitive TER",
    )
    normalized: bool = parameter(
        False,
        help="tokenize punctuation as Tercom's normaliser (norm:yes); with Asian support, every "
        "CJK character is a word",
        label="TER: normalized",
    )
    no_punct: bool = parameter(
        False,
        help="remove punctuation (punct:no); with Asian support, CJK punctuation too",
        label="TER: no punctuation",
    )
    asian_support: bool = parameter(
        False,
        help="Asian-script rules for the normalized and no-punctuation options (asian:yes); "
        "alone it changes nothing, as in sacreBLEU. Chinese and Japanese need it with "
        "normalized: without, most segments are one word and TER reads about 100",
        label="TER: Asian support",
    )


def text_list(text: str) -> tuple[str, ...]:
    """'exact, stem' -> ('exact', 'stem')."""
    return tuple(part.strip().lower() for part in text.split(",") if part.strip())


def number_list(text: str) -> tuple[float, ...]:
    """'0.85,0.2' -> (0.85, 0.2); anything but numbers is refused with the part that is not."""
    values = []
    for part in text.split(","):
        try:
            values.append(float(part))
        except ValueError:
            raise ValueError(
                f"{part.strip()!r} is not a number (give numbers separated by commas, "
                "e.g. 0.85,0.2,0.6,0.75)"
            ) from None
    return tuple(values)


@dataclass(frozen=True)
class METEORParameters(MetricParameters):
    """METEOR 1.5's options, named as the jar's (-l -m -w -p -t -norm; the shared lowercase is
    its -lower). None: the jar's default for the language and task (the language itself is the
    target language's once the test set says it). metrics/meteor/configuration.py checks how
    they fit together."""

    prefix: ClassVar[str] = "meteor"
    option: ClassVar[str] = "meteor"
    title: ClassVar[str] = "METEOR"

    language: str = parameter(
        "en",
        help="METEOR's language (en, de, fr, es, cz, ru, ..., other; default: the target "
        "language when the files say it, else en)",
        metavar="LANG",
    )
    modules: tuple[str, ...] | None = parameter(
        None,
        help="METEOR's matching modules in order, from exact, stem, synonym, paraphrase "
        "(default: the language's, as the jar's)",
        parse=text_list,
        metavar="M,...",
    )
    weights: tuple[float, ...] | None = parameter(
        None,
        help="one weight per METEOR module (default: the jar's for the language and task)",
        parse=number_list,
        metavar="W,...",
    )
    parameters: tuple[float, ...] | None = parameter(
        None,
        help="METEOR's parameters alpha, beta, gamma, delta (default: the jar's for the "
        "language and task)",
        parse=number_list,
        metavar="ALPHA,BETA,GAMMA,DELTA",
    )
    task: str | None = parameter(
        None,
        help="the task METEOR's defaults are tuned for (default: rank, or li for a language the "
        "jar has no tuned parameters for)",
        label="METEOR task",
        choices=METEOR_TASKS,
    )
    normalize: bool = parameter(
        False,
        help="METEOR's normaliser before scoring (the jar's -norm; it also lowercases)",
        label="METEOR: normalize (the jar's -norm)",
    )
    data: str | None = parameter(
        None,
        help="meteor-1.5.jar or the folder holding it (default: the one pycocoevalcap installs)",
        metavar="PATH",
    )
    alignment: str = parameter(
        "beam",
        help="beam: the jar's beam search; exact: the alignment of most weighted coverage and "
        "then fewest chunks, found exactly",
        label="METEOR alignment",
        choices=METEOR_ALIGNMENTS,
    )


# Options' field name -> its family; the order in which the command line and the page list them.
FAMILIES: dict[str, type[MetricParameters]] = {
    family.option: family
    for family in (
        BLEUParameters,
        UnigramParameters,
        GTMParameters,
        TERParameters,
        METEORParameters,
    )
}


def _check_choice(what: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InputError(f"unknown {what} {value!r}", hint=f"Choose one of: {', '.join(choices)}.")
