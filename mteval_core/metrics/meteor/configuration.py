"""METEOR 1.5's languages, tasks and their defaults (the jar's Constants and MeteorConfiguration).

A METEOR run is fixed by its language, its modules (in order: the order is the module number the
aligner and the statistics use), one weight per module, and the parameters alpha, beta, gamma and
delta. The jar derives the defaults from the language and the task ("rank" for the languages it
was tuned on, "li", language-independent, for the others), and then applies what the user gave,
in its order: parameters, weights, modules. Its weight tables are positional: the k-th default
weight goes to the k-th module of the list, whatever that module is (German's default modules are
exact, stem, paraphrase, weighted 1.0, 0.8, 0.2: the paraphrase module gets the table's third
entry), and a module list longer than the weights gets 0 for the modules without one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.scorer import Parameters
from mteval_core.settings.parameters import METEOR_TASKS as TASKS

MODULES = ("exact", "stem", "synonym", "paraphrase")

# name -> (the jar's name, its short name), with every alias the jar accepts
_LANGUAGES = {
    "english": ("english", "en"),
    "en": ("english", "en"),
    "czech": ("czech", "cz"),
    "cz": ("czech", "cz"),
    "cs": ("czech", "cz"),
    "french": ("french", "fr"),
    "fr": ("french", "fr"),
    "german": ("german", "de"),
    "de": ("german", "de"),
    "spanish": ("spanish", "es"),
    "es": ("spanish", "es"),
    "arabic-buckwalter-reduced": ("arabic-buckwalter-reduced", "ar-bw-red"),
    "ar-bw-red": ("arabic-buckwalter-reduced", "ar-bw-red"),
    "portuguese": ("portuguese", "pt"),
    "pt": ("portuguese", "pt"),
    "russian": ("russian", "ru"),
    "ru": ("russian", "ru"),
    "danish": ("danish", "da"),
    "da": ("danish", "da"),
    "romanian": ("romanian", "ro"),
    "ro": ("romanian", "ro"),
    "hungarian": ("hungarian", "hu"),
    "hu": ("hungarian", "hu"),
    "turkish": ("turkish", "tr"),
    "tr": ("turkish", "tr"),
    "finnish": ("finnish", "fi"),
    "fi": ("finnish", "fi"),
    "dutch": ("dutch", "nl"),
    "nl": ("dutch", "nl"),
    "italian": ("italian", "it"),
    "it": ("italian", "it"),
    "norwegian": ("norwegian", "no"),
    "no": ("norwegian", "no"),
    "swedish": ("swedish", "se"),
    "se": ("swedish", "se"),
    "sv": ("swedish", "se"),
    "other": ("other", "other"),
    "xx": ("other", "other"),
}
# The languages the jar has tuned parameters for: their default task is "rank", the others' "li".
_TUNED = ("english", "czech", "french", "spanish", "german", "russian")

# (alpha, beta, gamma, delta) and module weights per task and language; a language missing from a
# task's table has zeros there, as in the jar.
_PARAMETERS = {
    "rank": {
        "english": (0.85, 0.20, 0.60, 0.75),
        "czech": (0.95, 0.20, 0.60, 0.80),
        "french": (0.90, 1.40, 0.60, 0.65),
        "spanish": (0.65, 1.30, 0.50, 0.80),
        "german": (0.95, 1.00, 0.55, 0.55),
        "russian": (0.75, 1.40, 0.70, 0.50),
    },
    "adq": {"english": (0.75, 1.40, 0.45, 0.70)},
    "hter": {"english": (0.40, 1.50, 0.35, 0.55)},
}
_WEIGHTS = {
    "rank": {
        "english": (1.0, 0.6, 0.8, 0.6),
        "czech": (1.0, 0.4, 0.0, 0.0),
        "french": (1.0, 0.2, 0.4, 0.0),
        "spanish": (1.0, 0.8, 0.6, 0.0),
        "german": (1.0, 0.8, 0.2, 0.0),
        "russian": (1.0, 0.5, 0.5, 0.0),
    },
    "adq": {"english": (1.0, 1.0, 0.6, 0.8)},
    "hter": {"english": (1.0, 0.2, 0.6, 0.8)},
}
_LANGUAGE_INDEPENDENT = ((0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5))
_TUNE = ((0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5, 0.5))
_ZEROS = (0.0, 0.0, 0.0, 0.0)

_DEFAULT_MODULES = {
    "english": ("exact", "stem", "synonym", "paraphrase"),
    "french": ("exact", "stem", "paraphrase"),
    "spanish": ("exact", "stem", "paraphrase"),
    "german": ("exact", "stem", "paraphrase"),
    "russian": ("exact", "stem", "paraphrase"),
    "czech": ("exact", "paraphrase"),
    "other": ("exact",),
}
_STEM_ONLY = ("exact", "stem")  # every other language the jar knows


@dataclass(frozen=True)
class MeteorConfiguration:
    """Everything that fixes METEOR's numbers, after the defaults have been applied."""

    language: str  # the jar's name: "english", "german", ...
    task: str  # the task the defaults came from
    modules: tuple[str, ...]
    parameters: Parameters
    normalize: bool
    lowercase: bool

    @property
    def short_language(self) -> str:
        return _LANGUAGES[self.language][1]

    def signature_options(self) -> dict[str, str]:
        p = self.parameters
        return {
            "meteor-lang": self.short_language,
            "meteor-task": self.task,
            "meteor-mods": "+".join(self.modules),
            "meteor-w": "+".join(f"{w:g}" for w in p.weights),
            "meteor-p": "+".join(f"{x:g}" for x in (p.alpha, p.beta, p.gamma, p.delta)),
            "meteor-norm": "yes" if self.normalize else "no",
        }


def language_name(language: str) -> str:
    """The jar's name of a language given by name or code ('de' -> 'german')."""
    try:
        return _LANGUAGES[language.lower()][0]
    except KeyError:
        known = sorted({short for _, short in _LANGUAGES.values()})
        raise InputError(
            f"METEOR has no language {language!r}",
            hint=f"Choose one of: {', '.join(known)} ('other' for any other language: exact "
            "matching with language-independent parameters).",
        ) from None


def default_language(target: str | None) -> str:
    """The target language when METEOR knows it, 'other' when it does not, English when the
    target language is unknown."""
    if target is None:
        return "english"
    return _LANGUAGES.get(target.lower(), ("other", "other"))[0]


def task_defaults(language: str, task: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(alpha, beta, gamma, delta) and the positional weight table of a language and task."""
    if language == "other" or task == "li":
        return _LANGUAGE_INDEPENDENT
    if task == "tune":
        return _TUNE
    return _PARAMETERS[task].get(language, _ZEROS), _WEIGHTS[task].get(language, _ZEROS)


def configure(
    language: str,
    task: str | None = None,
    modules: Sequence[str] | None = None,
    weights: Sequence[float] | None = None,
    parameters: Sequence[float] | None = None,
    normalize: bool = False,
    lowercase: bool = False,
) -> MeteorConfiguration:
    """The configuration the jar builds from ``-l -t -m -w -p -norm -lower``."""
    name = language_name(language)
    if task is None:
        task = "rank" if name in _TUNED else "li"
    if task not in TASKS:
        raise InputError(
            f"unknown METEOR task {task!r}", hint=f"Choose one of: {', '.join(TASKS)}."
        )
    default_parameters, weight_table = task_defaults(name, task)
    default_modules = _DEFAULT_MODULES.get(name, _STEM_ONLY)
    chosen_modules = tuple(modules) if modules is not None else default_modules
    _check_modules(chosen_modules)
    if weights is not None:
        if len(weights) != len(chosen_modules):
            raise InputError(
                f"{len(weights)} METEOR weight(s) for {len(chosen_modules)} module(s) "
                f"({', '.join(chosen_modules)})",
                hint="Give one weight per module, in the order of the modules.",
            )
        chosen_weights = tuple(float(w) for w in weights)
    else:  # the jar's table, positional, padded with 0 for a longer module list
        chosen_weights = tuple(
            weight_table[k] if k < len(weight_table) else 0.0 for k in range(len(chosen_modules))
        )
    chosen_parameters = tuple(parameters) if parameters is not None else default_parameters
    _check_numbers(chosen_weights, chosen_parameters)
    alpha, beta, gamma, delta = chosen_parameters
    return MeteorConfiguration(
        language=name,
        task=task,
        modules=chosen_modules,
        parameters=Parameters(alpha, beta, gamma, delta, chosen_weights),
        normalize=normalize,
        lowercase=lowercase or normalize,  # the jar's -norm lowercases too
    )


def _check_modules(modules: Sequence[str]) -> None:
    if not modules:
        raise InputError("no METEOR module was named", hint=f"Choose from: {', '.join(MODULES)}.")
    for module in modules:
        if module not in MODULES:
            raise InputError(
                f"unknown METEOR module {module!r}", hint=f"Choose from: {', '.join(MODULES)}."
            )
    if len(set(modules)) != len(modules):
        raise InputError(
            f"a METEOR module is named twice: {', '.join(modules)}",
            hint="Name each module once, in the order the aligner should use them.",
        )


def _check_numbers(weights: Sequence[float], parameters: Sequence[float]) -> None:
    if len(parameters) != 4:
        raise InputError(
            f"METEOR takes 4 parameters (alpha, beta, gamma, delta), got {len(parameters)}",
            hint="For example 0.85,0.2,0.6,0.75 (English, rank).",
        )
    for what, values in (("weight", weights), ("parameter", parameters)):
        for value in values:
            if not (isinstance(value, int | float) and math.isfinite(value)):
                raise InputError(
                    f"METEOR {what} {value!r} is not a finite number",
                    hint="Give decimal numbers such as 0.85.",
                )
