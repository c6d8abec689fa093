"""What this session's user gave the Data page, read by every page: the test set (else the
sample), the options, the chosen metrics, the MQM annotations and the external metrics' scores,
the tokenizer offered, and each widget's last choice on the current test set."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from mteval_core.io.mqm_tsv import MqmAnnotations
from mteval_core.metrics import DEFAULT_METRICS
from mteval_core.metrics.external import ExternalMetric
from mteval_core.model.testset import TestSet
from mteval_core.settings.languages import Languages, resolve_tokenizer, snowball_language
from mteval_core.settings.options import Options
from pages.ui.sample import current_test_set

# The metrics every page computes until the user chooses others on the Data page
DASHBOARD_METRICS = (*DEFAULT_METRICS, "gtm")
METRICS_STATE = "metrics"  # session state: the metrics chosen on the Data page
CHOSEN = "chosen"  # session state: (widget key, content hash) -> what the user chose there
TOKENIZER_CHOSEN = "tokenizer_chosen"  # session state: the content hash of the test set whose
# tokenizer the user chose on the Data page


def session_test_set() -> TestSet:
    """This session's upload (Data page), else the sample."""
    return current_test_set(st.session_state)


def session_options() -> Options:
    """The preprocessing options chosen on the Data page, else the defaults."""
    return st.session_state.get("options", Options())


def session_metrics() -> tuple[str, ...]:
    """The built-in metrics chosen on the Data page (registry names), else DASHBOARD_METRICS:
    one list for every page of the session, part of every cache key."""
    return st.session_state.get(METRICS_STATE, DASHBOARD_METRICS)


def session_stem_language(target: str | None) -> str:
    """The Snowball language the Data page offers: the user's choice once made (the page marks
    it with ``stem_language_chosen``), before that the target language's when Snowball has it."""
    current = session_options().stem_language
    if st.session_state.get("stem_language_chosen"):
        return current
    return snowball_language(target) or current


@dataclass(frozen=True)
class TokenizerOffer:
    """What the Data page's Tokenizer box shows: ``name``, ``note`` (a line about the language
    default, or None) and whether the user ``chosen`` it for this test set."""

    name: str
    note: str | None
    chosen: bool


def session_tokenizer(languages: Languages) -> TokenizerOffer:
    """The tokenizer the Data page offers.

    The user's choice on this test set, once made (the page marks it with TOKENIZER_CHOSEN);
    before that, and on every new test set, the target language's default as sacreBLEU's BLEU
    and ``mteval score`` choose it (zh for Chinese, ja-mecab for Japanese, ...), also where its
    package is missing: the Data page then says what to install or choose
    (``tokenizer_refusal``) and every page that tokenizes refuses, as the command line does.
    No other tokenizer is ever used in its place."""
    current = session_options()
    if st.session_state.get(TOKENIZER_CHOSEN) == session_test_set().content_hash:
        return TokenizerOffer(current.tokenize, None, True)
    options, note = resolve_tokenizer(Options(), languages, None)
    return TokenizerOffer(options.tokenize, note, False)


def session_mqm() -> MqmAnnotations | None:
    """MQM error annotations uploaded on the Data page, if any."""
    return st.session_state.get("mqm")


def session_external_metrics() -> dict[str, ExternalMetric]:
    """Metric scores uploaded on the Data page (COMET, MetricX, ...), keyed by a hash of the
    file, its name and direction: the key of every cached result that includes them."""
    return st.session_state.get("external_metrics", {})


def chosen_or(key: str, start: Any, offered: Sequence[Any]) -> Any:
    """The value this session's user last gave widget ``key`` on the current test set, while
    ``offered`` still has it; else ``start``. With ``remember_choice`` as the widget's
    ``on_change``, a choice outlives the page (Streamlit forgets a widget's state once another
    page has run), and a new test set starts afresh."""
    value = st.session_state.get(CHOSEN, {}).get((key, session_test_set().content_hash))
    return value if value in offered else start


def remember_choice(key: str) -> None:
    """``on_change`` of widget ``key`` (``args=(key,)``): keep its value for ``chosen_or``."""
    chosen = dict(st.session_state.get(CHOSEN, {}))
    chosen[(key, session_test_set().content_hash)] = st.session_state[key]
    st.session_state[CHOSEN] = chosen
