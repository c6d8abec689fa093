"""The Data page's "Metrics" expander: which built-in metrics every page computes, and METEOR's
language and modules.

Metrics are offered by their labels (BLEU, chrF++, TER, ...) from the registry; the chosen list
is kept in the session (``pages.ui.session_metrics``), so every page computes it and every cache
key holds it. METEOR's language starts from the test set's target language, as ``mteval score``
chooses it; its modules are those whose data is here, each missing one named with the reason the
core gives (``mteval_core.metrics.choices``), so that nobody picks a module that fails on every
page.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from mteval_core.metrics.choices import (
    METEOR_LANGUAGES,
    builtin_metric_labels,
    meteor_default_modules,
    meteor_language_for,
    meteor_modules_here,
)
from pages.ui import METRICS_STATE, session_metrics, session_options
from pages.ui.markdown_escape import escape_markdown

METRICS_WIDGET = "metrics_widget"  # the multiselect's state while the Data page shows it
METEOR_LANGUAGE_CHOSEN = "meteor_language_chosen"  # the user chose METEOR's language
METEOR_MODULES_CHOSEN = "meteor_modules_chosen"  # the user chose METEOR's modules


@dataclass(frozen=True)
class MetricChoice:
    """What the expander's widgets say: the metrics (registry names, in the registry's order)
    and METEOR's language and modules (None: the jar's defaults for the language)."""

    metrics: tuple[str, ...]
    meteor_language: str
    meteor_modules: tuple[str, ...] | None


def session_meteor_language(target: str | None) -> str:
    """METEOR's language the Data page offers: the user's choice once made, before that the
    target language's (as the command line's default)."""
    if st.session_state.get(METEOR_LANGUAGE_CHOSEN):  # by the jar's name ("en" -> "english")
        return meteor_language_for(session_options().meteor_language)
    return meteor_language_for(target)


def choose_metrics(target: str | None) -> MetricChoice:
    """The expander's widgets, and what they say (an empty metric list keeps the last one)."""
    labels = builtin_metric_labels()
    with st.expander("Metrics"):  # a fixed label: a changing one would close it
        # keyed, its value set from the session when the page opens: Streamlit forgets a
        # widget's state once another page has run
        if METRICS_WIDGET not in st.session_state:
            st.session_state[METRICS_WIDGET] = list(session_metrics())
        chosen = st.multiselect(
            "Metrics every page computes",
            list(labels),
            key=METRICS_WIDGET,
            format_func=labels.__getitem__,
            help="Scores, Correlation, Compare, the downloads and the report use these. chrF, "
            "chrF++, TER and METEOR read the raw text (the tokenizer and stemmer above change "
            "nothing of them); TER is an error rate: lower is better, and correlations turn "
            "it round.",
        )
        metrics = tuple(name for name in labels if name in chosen)
        if not metrics:
            st.warning("Choose at least one metric; until then the pages keep the last list.")
            metrics = session_metrics()
        language, modules = _meteor_widgets(target)
    st.caption(f"Every page computes {', '.join(labels[name] for name in metrics)}.")
    return MetricChoice(metrics, language, modules)


def _meteor_widgets(target: str | None) -> tuple[str, tuple[str, ...] | None]:
    """METEOR's language and modules; modules whose data is missing are listed as unavailable
    with the core's one-line reason, never offered."""
    current = session_options()
    st.markdown("**METEOR 1.5** (when METEOR is chosen above)")
    left, right = st.columns(2)
    start = session_meteor_language(target)
    language = left.selectbox(
        "METEOR language",
        METEOR_LANGUAGES,
        METEOR_LANGUAGES.index(start),
        on_change=lambda: st.session_state.update({METEOR_LANGUAGE_CHOSEN: True}),
        help="Its stemmer, function words, parameters and default modules; the target "
        "language's until you choose ('other': exact matching, language-independent "
        "parameters). --meteor-language on the command line.",
    )
    here = meteor_modules_here(language, current.meteor_data)
    runnable = [module for module, why_not in here.items() if why_not is None]
    defaults = tuple(m for m in meteor_default_modules(language) if m in runnable)
    given = current.meteor_modules if st.session_state.get(METEOR_MODULES_CHOSEN) else None
    modules = tuple(
        right.multiselect(
            "METEOR modules",
            runnable,
            [m for m in (given or defaults) if m in runnable],
            on_change=lambda: st.session_state.update({METEOR_MODULES_CHOSEN: True}),
            help="Matching stages in order: exact words, then Snowball stems, WordNet synonyms, "
            "paraphrases. The language's defaults until you choose. --meteor-modules on the "
            "command line.",
        )
    )
    reasons = {why_not for why_not in here.values() if why_not is not None}
    if not runnable and len(reasons) == 1:  # one cause for all (no jar): said once
        st.caption(escape_markdown(f"METEOR cannot run here: {reasons.pop()}"))
    else:
        for module, why_not in here.items():
            if why_not is not None:
                st.caption(escape_markdown(f"{module}: unavailable here ({why_not})"))
    if runnable and not modules:
        st.warning("Choose at least one METEOR module; until then its defaults are used.")
    if meteor_language_for(current.meteor_language) == language:  # "en" and "english": equal
        language = current.meteor_language  # options, so that the cached results stay valid
    return language, (modules if modules and modules != defaults else None)


def keep_metric_choice(choice: MetricChoice) -> None:
    """The chosen metrics, for every page of the session."""
    st.session_state[METRICS_STATE] = choice.metrics
