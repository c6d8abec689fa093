"""The Data page's "Metrics" expander: which built-in metrics every page computes, and METEOR's
language and modules.

Metrics are offered by their labels (BLEU, chrF++, TER, ...) from the registry; the chosen list
is kept in the session (``pages.ui.session.session_metrics``), so every page computes it and
every cache key holds it. METEOR's language starts from the test set's target language, as
``mteval score`` chooses it; its modules are those whose data is here, each missing one named
with the reason the core gives (``mteval_core.metrics.choices``), so that nobody picks a module
that fails on every page.
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
    metrics_that_cannot_run,
)
from pages.ui.markdown_escape import escape_markdown
from pages.ui.session import DASHBOARD_METRICS, METRICS_STATE, session_metrics, session_options

METRICS_WIDGET = "metrics_widget"  # the multiselect's state while the Data page shows it
METRICS_EXPANDER = "metrics_expander"  # the expander's key: it stays open when moved
METEOR_LANGUAGE_CHOSEN = "meteor_language_chosen"  # the user chose METEOR's language
METEOR_MODULES_CHOSEN = "meteor_modules_chosen"  # the user chose METEOR's modules
# said after the reason a metric cannot run, which names the command that installs its data
RESTART_NOT_NEEDED = (
    "Once it is installed on the dashboard's server, this list offers METEOR at the next click, "
    "without a restart."
)


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
        return meteor_language_for(session_options().meteor.language)
    return meteor_language_for(target)


def choose_metrics(target: str | None) -> MetricChoice:
    """The expander's widgets, and what they say (an empty metric list keeps the last one). A
    metric that cannot run here is not offered, and one line says why (and how to install what
    it needs); one chosen before it stopped being able to run is dropped from the list."""
    labels = builtin_metric_labels()
    cannot_run = metrics_that_cannot_run(session_options().meteor.data)
    offered = [name for name in labels if name not in cannot_run]
    # a fixed label (a changing one would close it) and a key: an expander without one is
    # known to the browser by its place, and the upload's message and button above it moved it,
    # so that it was drawn anew, closed (tests/e2e/test_meteor_browser.py)
    with st.expander("Metrics", key=METRICS_EXPANDER):
        # keyed, its value set from the session when the page opens: Streamlit forgets a
        # widget's state once another page has run
        if METRICS_WIDGET not in st.session_state:
            st.session_state[METRICS_WIDGET] = list(session_metrics())
        kept = [name for name in st.session_state[METRICS_WIDGET] if name in offered]
        st.session_state[METRICS_WIDGET] = kept
        chosen = st.multiselect(
            "Metrics every page computes",
            offered,
            key=METRICS_WIDGET,
            format_func=labels.__getitem__,
            help="Scores, Correlation, Compare, the downloads and the report use these. chrF, "
            "chrF++, TER and METEOR read the raw text (the tokenizer and stemmer above change "
            "nothing of them); TER is an error rate: lower is better, and correlations turn "
            "it round.",
        )
        for reason in cannot_run.values():
            st.caption(escape_markdown(f"{reason} {RESTART_NOT_NEEDED}"))
        metrics = tuple(name for name in offered if name in chosen)
        if not metrics:
            st.warning("Choose at least one metric; until then the pages keep the last list.")
            metrics = tuple(m for m in session_metrics() if m in offered) or DASHBOARD_METRICS
        language, modules = _meteor_widgets(target) if not cannot_run else _meteor_as_it_is()
    st.caption(f"Every page computes {', '.join(labels[name] for name in metrics)}.")
    return MetricChoice(metrics, language, modules)


def _meteor_as_it_is() -> tuple[str, tuple[str, ...] | None]:
    """METEOR's language and modules as the options hold them, where METEOR cannot run (its
    widgets are not drawn: there is nothing to choose)."""
    current = session_options()
    return current.meteor.language, current.meteor.modules


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
        "parameters).",
    )
    here = meteor_modules_here(language, current.meteor.data)
    runnable = [module for module, why_not in here.items() if why_not is None]
    defaults = tuple(m for m in meteor_default_modules(language) if m in runnable)
    given = current.meteor.modules if st.session_state.get(METEOR_MODULES_CHOSEN) else None
    modules = tuple(
        right.multiselect(
            "METEOR modules",
            runnable,
            [m for m in (given or defaults) if m in runnable],
            on_change=lambda: st.session_state.update({METEOR_MODULES_CHOSEN: True}),
            help="Matching stages in order: exact words, then Snowball stems, WordNet synonyms, "
            "paraphrases. The language's defaults until you choose.",
        )
    )
    for module, why_not in here.items():
        if why_not is not None:
            st.caption(escape_markdown(f"{module}: unavailable here ({why_not})"))
    if runnable and not modules:
        st.warning("Choose at least one METEOR module; until then its defaults are used.")
    if meteor_language_for(current.meteor.language) == language:  # "en" and "english": equal
        language = current.meteor.language  # options, so that the cached results stay valid
    return language, (modules if modules and modules != defaults else None)


def keep_metric_choice(choice: MetricChoice) -> None:
    """The chosen metrics, for every page of the session."""
    st.session_state[METRICS_STATE] = choice.metrics
