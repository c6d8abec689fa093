"""What a page offers to choose among the built-in metrics: each metric by its label, which of
them can run here (METEOR needs meteor-1.5.jar), METEOR's languages, and which of METEOR's modules
can run here (with the one-line reason of those that cannot, which names the command that
installs what is missing), so that a user picks from what will work instead of meeting an error
on every page.

Everything here is read from the registry and from METEOR's own configuration and data checks;
the dashboard draws it and decides nothing by a metric's name.
"""

from __future__ import annotations

from mteval_core.errors import InputError
from mteval_core.metrics import REGISTRY
from mteval_core.metrics.meteor import availability
from mteval_core.metrics.meteor.configuration import MODULES, configure, default_language
from mteval_core.metrics.meteor.metric import METEOR
from mteval_core.metrics.meteor.resources import DEFAULT_MODULES, SHORT_NAMES

# The jar's languages by name ("english", ...), as `configure` and the CLI store them
METEOR_LANGUAGES: tuple[str, ...] = tuple(SHORT_NAMES)


def builtin_metric_labels() -> dict[str, str]:
    """Every built-in metric's registry name -> the label tables print (BLEU, chrF++, TER, ...),
    in the registry's order."""
    return {name: cls.label for name, cls in REGISTRY.items()}


def metrics_that_cannot_run(data: str | None) -> dict[str, str]:
    """Registry name -> the one line that says why, for each built-in metric that cannot run
    here: METEOR without its jar (``data``: a jar or folder, None for an installed
    pycocoevalcap's), whose function words every module weighs. Looked at again on every call,
    so that data installed meanwhile is found. The other metrics need nothing installed."""
    reason = meteor_cannot_run(data)
    return {} if reason is None else {METEOR.name: reason}


def meteor_cannot_run(data: str | None) -> str | None:
    """Why METEOR cannot run at all with the data at ``data`` (one line, with the command that
    installs the data), or None when it can (exact matching then runs for every language)."""
    try:
        availability.function_words(data)
    except InputError as error:
        return f"METEOR cannot run here: {error}"
    return None


def meteor_language_for(target: str | None) -> str:
    """METEOR's language for a test set's target language, as ``mteval score`` chooses it
    without --meteor-language: the target's when the jar knows it, 'other' when it does not,
    English when the target is unknown."""
    return default_language(target)


def meteor_modules_here(language: str, data: str | None) -> dict[str, str | None]:
    """Each of METEOR's four modules -> None when it can run for ``language`` with the data at
    ``data`` (None: an installed pycocoevalcap's jar), else the one-line reason the metric would
    give. The modules that can run are checked without loading their tables. Every module
    weighs function words, whose list only the jar has: without it none can run."""
    try:
        configuration = configure(language, modules=MODULES)
        availability.function_words(data)
        runnable = availability.available_modules(configuration, data)
    except InputError as error:  # no jar, or a wrong data path: METEOR cannot run at all
        return dict.fromkeys(MODULES, str(error))
    return {
        module: None
        if module in runnable
        else availability.why_missing(module, configuration, data)
        for module in MODULES
    }


def meteor_default_modules(language: str) -> tuple[str, ...]:
    """The modules the jar uses for ``language`` when none are named (before leaving out those
    whose data is missing)."""
    return DEFAULT_MODULES[configure(language).language]
