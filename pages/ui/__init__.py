"""What every dashboard page shares: the session's inputs, cached core calls, friendly errors,
and the escaping of user-supplied text (``escape_markdown``, see ``pages.ui.markdown_escape``).

Streamlit treats only the .py files directly in pages/ as pages, so this sub-package is not one.
Caches are keyed by the test set's content hash, never by a file name: two users who upload the
same bytes share a result, and nobody ever receives a result computed from another user's data.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from mteval_core.errors import InputError
from mteval_core.io.mqm_tsv import MqmAnnotations
from mteval_core.metrics import DEFAULT_METRICS, REGISTRY
from mteval_core.metrics.external import ExternalMetric
from mteval_core.metrics.scoring import (
    Progress,
    Scores,
    StatisticsPart,
    assembled_scores,
    kind_scoring_options,
    score_test_set,
    statistics_kind_of,
    statistics_parts,
)
from mteval_core.model.testset import TestSet
from mteval_core.report.frames import overview
from mteval_core.settings.languages import (
    Languages,
    default_tokenizer,
    missing_default,
    resolve_tokenizer,
    snowball_language,
)
from mteval_core.settings.limits import MAX_RESAMPLES
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.text import import_stemmers, require_tokenizer
from pages.ui.cache import CACHE_BYTES, CACHE_ENTRIES, CacheKey, ContentCache, estimate_bytes
from pages.ui.markdown_escape import escape_markdown
from pages.ui.sample import current_test_set

__all__ = [
    "CACHE_BYTES",
    "CACHE_ENTRIES",
    "DASHBOARD_METRICS",
    "RESAMPLES_HELP",
    "CacheKey",
    "ContentCache",
    "cache_key",
    "cached",
    "chosen_or",
    "deferred",
    "escape_markdown",
    "estimate_bytes",
    "friendly_errors",
    "import_ahead",
    "remember_choice",
    "resample_choices",
    "scores_of",
    "session_external_metrics",
    "session_metrics",
    "session_mqm",
    "session_options",
    "session_test_set",
    "show_overview",
    "starting_resamples",
    "warn_of_few_resamples",
]

# The metrics every page computes until the user chooses others on the Data page
DASHBOARD_METRICS = (*DEFAULT_METRICS, "gtm")
METRICS_STATE = "metrics"  # session state: the metrics chosen on the Data page
RESAMPLES_HELP = (  # said beside every resamples widget
    f"At most {MAX_RESAMPLES:,} on this shared server, the same limit as the command line's."
)
log = logging.getLogger("mteval.dashboard")
_imports_ahead = threading.Lock()  # held for good once the imports ahead have started


def import_ahead() -> None:
    """Once per server process, after a page is drawn: import in a background thread what only
    some views need and takes seconds to import, NLTK's stemmers (1-2 s, most of it scipy.stats),
    which the Correlation page's stemmed columns and every stemmed option use. The first user to
    open those views then does not wait for the import; until it is done, the page that needs it
    waits for it (``import_stemmers`` imports in one thread at a time)."""
    if _imports_ahead.acquire(blocking=False):
        threading.Thread(target=_import_quietly, name="mteval-import-ahead", daemon=True).start()


def _import_quietly() -> None:
    try:
        import_stemmers()
    except Exception:  # the page that needs the stemmers imports them again and says what failed
        log.warning("importing NLTK's stemmers ahead failed", exc_info=True)


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


TOKENIZER_CHOSEN = "tokenizer_chosen"  # session state: the content hash of the test set whose
# tokenizer the user chose on the Data page
TOKENIZER_HINT = (  # the Data page's "what to do" when the tokenizer cannot run here
    "Choose another tokenizer above (for Japanese, char is what WMT's official BLEU uses), or "
    "have the package installed on the server. Until then every page that tokenizes (BLEU, "
    "NIST, the unigram metrics, GTM, the Bitext grid) says so instead of scoring."
)


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


def tokenizer_refusal(options: Options, languages: Languages, offer: TokenizerOffer) -> str | None:
    """Why the options' tokenizer cannot run on this server (its package, or its SentencePiece
    model), in the words of ``mteval score`` (the language default named as such), with the
    Data page's hint; None when it can run."""
    try:
        require_tokenizer(options)
    except InputError as error:
        if error.origin is not None:  # the SentencePiece model: its own message
            return str(error)
        problem = error.problem
        if not offer.chosen and options.tokenize == default_tokenizer(languages):
            problem = missing_default(languages, problem)
        return str(InputError(problem[0].upper() + problem[1:], hint=TOKENIZER_HINT))
    return None


def session_mqm() -> MqmAnnotations | None:
    """MQM error annotations uploaded on the Data page, if any."""
    return st.session_state.get("mqm")


def session_external_metrics() -> dict[str, ExternalMetric]:
    """Metric scores uploaded on the Data page (COMET, MetricX, ...), keyed by a hash of the
    file, its name and direction: the key of every cached result that includes them."""
    return st.session_state.get("external_metrics", {})


def show_overview(test_set: TestSet) -> None:
    """The test set at a glance, one column per fact; names are shown as written."""
    facts = cached(
        cache_key("overview", content=test_set.content_hash), lambda _: overview(test_set)
    )
    for column, (label, value) in zip(st.columns(len(facts)), facts.items()):
        column.markdown(f"**{label}**  \n{escape_markdown(value)}")


@contextmanager
def friendly_errors(stop: bool = True) -> Iterator[None]:
    """Show a problem as a message, never as a traceback, and stop the page there (or, with
    ``stop=False``, go on after the block, e.g. to keep showing what is still loaded).

    An InputError says which file and line and what to do; anything else is our fault, so the
    message says so and gives the exception's type and a short reference for a bug report. The
    traceback goes to the server's log under that reference, never to the browser: it names the
    server's paths and code, which are nobody's business but the operator's.
    """
    try:
        yield
    except InputError as error:
        where = escape_markdown(error.where() or "Your input")
        st.error(f"{where}: {escape_markdown(error.problem)}")
        with st.expander("What to do", expanded=True):
            st.markdown(
                escape_markdown(error.hint or "Check the file named above, then upload it again.")
            )
        if stop:
            st.stop()
    except Exception as error:
        reference = secrets.token_hex(4)
        log.exception("error reference %s: a dashboard view failed", reference)
        st.error(
            "Something went wrong while computing this view. Your data is still loaded; "
            "try other options, or report the details below."
        )
        with st.expander("Details"):
            st.markdown(
                f"{escape_markdown(type(error).__name__)}, error reference `{reference}` "
                "(the server's log has the rest under this reference)."
            )
        if stop:
            st.stop()


@st.cache_resource
def _cache() -> ContentCache:
    return ContentCache()


def cache_key(
    view: str,
    *choices: Hashable,
    content: Hashable | None = None,
    options: Options | None = None,
    metrics: tuple[str, ...] | None = None,
    external: tuple[str, ...] | None = None,
) -> CacheKey:
    """The key of a result of ``view`` for this session: ``content`` (by default the session's
    test set's content hash, which covers its judgments), ``options`` (by default the session's),
    the session's chosen and external metrics, and the view's own ``choices``. Every cached
    result is keyed here, so that two sessions share a result only when everything that changes
    it is equal. ``metrics`` and ``external`` narrow a key to the metrics a result depends
    on (one statistics kind's, none), so that it outlives a change of the others."""
    return CacheKey(
        view,
        session_test_set().content_hash if content is None else content,
        session_options() if options is None else options,
        tuple(session_metrics()) if metrics is None else metrics,
        tuple(session_external_metrics()) if external is None else external,
        choices,
    )


def cached(
    key: CacheKey, compute: Callable[[Progress], Any], label: str | None = None, keep: bool = True
) -> Any:
    """``compute(progress)`` once per key (shared by every session), behind a progress bar
    labelled ``label`` (none for quick work, ``label=None``). A session that asks while another
    computes the same key waits for that result, following its progress on its own bar. With
    ``keep`` False the result is shared with those waiting but not kept (see ContentCache)."""

    def with_bar(report: Progress) -> Any:
        if label is None:
            return compute(report)
        bar = st.progress(0.0, text=label)

        def progress(share: float) -> None:
            share = min(max(share, 0.0), 1.0)
            report(share)
            bar.progress(share, text=label)

        try:
            return compute(progress)
        finally:
            bar.empty()

    @contextmanager
    def waiting() -> Iterator[Progress]:
        bar = st.progress(0.0, text=label)
        try:
            yield lambda share: bar.progress(min(max(share, 0.0), 1.0), text=label)
        finally:
            bar.empty()

    return _cache().get_or_compute(key, with_bar, waiting if label is not None else None, keep)


def deferred(key: CacheKey, build: Callable[[], str | bytes]) -> Callable[[], str | bytes]:
    """A download's content made only when somebody asks for it: ``st.download_button(...,
    data=deferred(key, build))`` runs ``build()`` on the click, once per key for every session,
    so that no page run spends time (or a session's memory) on files nobody downloads."""
    cache = _cache()  # the click runs in a thread of its own, outside the page's run
    return lambda: cache.get_or_compute(key, lambda _progress: build())


CHOSEN = "chosen"  # session state: (widget key, content hash) -> what the user chose there


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


def starting_resamples(offered: Sequence[int], usual: int, needed: int) -> int:
    """Where a resamples widget starts: the first ``offered`` count that is at least the
    ``usual`` one and ``needed`` (the count from which a system pair can reach significance,
    ``stats.significance.resamples_needed``), so that a page opens on a significance map that
    can show a difference; the most offered when even that is too few (the page then says what
    it would take)."""
    wanted = max(usual, needed)
    return next((n for n in offered if n >= wanted), offered[-1])


def warn_of_few_resamples(bootstrap: BootstrapOptions | None) -> None:
    """Above intervals drawn with ``bootstrap``: that they are from too few resamples, when they
    are (``BootstrapOptions.too_few_for_intervals``), as the command line and the downloads
    say it."""
    note = bootstrap.too_few_for_intervals if bootstrap is not None else None
    if note:
        st.warning(escape_markdown(f"{note[0].upper()}{note[1:]}."))


def resample_choices(choices: Sequence[int]) -> list[int]:
    """The resample counts a page offers, none above the server's limit."""
    return [n for n in choices if n <= MAX_RESAMPLES]


def scores_of(test_set: TestSet, options: Options, metrics: Sequence[str] | None = None) -> Scores:
    """Every system under ``metrics`` (by default the session's, chosen on the Data page) and
    the session's external metrics.

    The statistics are kept kind by kind (BLEU's; P, R, F1 and Fmean's; GTM's; ...), each under
    only the options that change it (``kind_scoring_options``): changing one metric's parameter
    re-scores that metric's kind alone, and every tokenizer and stemmer shares the statistics of
    chrF, TER and METEOR, which read the raw text. The kinds not kept yet are scored in one run,
    which tokenizes once for all of them. A kind that cannot be scored (METEOR whose data went
    missing) is left out with a note, and the others are shown; when none can, its problem is
    the page's."""
    metrics = list(session_metrics() if metrics is None else metrics)
    kinds = {statistics_kind_of(name): name for name in reversed(metrics)}  # kind -> a metric
    keys = {
        kind: cache_key(
            "statistics",
            kind,
            content=test_set.content_hash,
            options=kind_scoring_options(name, options),
            metrics=(),
            external=(),
        )
        for kind, name in kinds.items()
    }
    missing = [name for name in metrics if keys[statistics_kind_of(name)] not in _cache()]
    problems = _score_together(test_set, missing, options, keys) if missing else {}
    parts = {
        kind: _kind_statistics(test_set, name, options, keys[kind])
        for kind, name in kinds.items()
        if kind not in problems
    }
    scored = [name for name in metrics if statistics_kind_of(name) not in problems]
    scores = assembled_scores(parts, scored, options, test_set, _external_scores(test_set))
    if not problems:
        return scores
    left_out = []
    for kind, problem in problems.items():
        labels = [REGISTRY[name].label for name in metrics if statistics_kind_of(name) == kind]
        left_out.append(f"{', '.join(labels)} left out: {problem}")
    return replace(scores, notes=(*left_out, *scores.notes))


def _kind_statistics(
    test_set: TestSet, name: str, options: Options, key: CacheKey
) -> StatisticsPart:
    """The statistics of ``name``'s kind, kept under ``key`` (scored now if they are not)."""
    return cached(
        key,
        lambda progress: statistics_parts(score_test_set(test_set, [name], options, progress))[
            statistics_kind_of(name)
        ],
        "Scoring...",
    )


def _score_together(
    test_set: TestSet, names: list[str], options: Options, keys: dict[str, CacheKey]
) -> dict[str, InputError]:
    """Score ``names`` in one run and keep each kind's statistics under its key. Where that run
    is refused, each kind is scored alone: the kinds that can be are kept, and the problems of
    the others are returned by kind (all of them failing: the first problem is raised)."""
    key = cache_key("scoring", tuple(names), content=test_set.content_hash, options=options)
    try:
        scores = cached(
            key,
            lambda progress: score_test_set(test_set, names, options, progress),
            "Scoring...",
            keep=False,
        )
    except InputError:
        if len({statistics_kind_of(name) for name in names}) == 1:
            raise
        return _score_apart(test_set, names, options, keys)
    for kind, part in statistics_parts(scores).items():
        _cache().put(keys[kind], part)
    return {}


def _score_apart(
    test_set: TestSet, names: list[str], options: Options, keys: dict[str, CacheKey]
) -> dict[str, InputError]:
    problems: dict[str, InputError] = {}
    for name in names:
        kind = statistics_kind_of(name)
        if kind in problems or keys[kind] in _cache():
            continue
        alone = cache_key("scoring", (name,), content=test_set.content_hash, options=options)
        try:
            scores = cached(
                alone,
                lambda progress, name=name: score_test_set(test_set, [name], options, progress),
                "Scoring...",
                keep=False,
            )
        except InputError as problem:
            problems[kind] = problem
            continue
        _cache().put(keys[kind], statistics_parts(scores)[kind])
    if len(problems) == len({statistics_kind_of(name) for name in names}):
        raise next(iter(problems.values()))
    return problems


def _external_scores(test_set: TestSet) -> Scores | None:
    """The session's external metrics (scores read from files) as a Scores of their own."""
    external = list(session_external_metrics().values())
    if not external:
        return None
    return cached(
        cache_key("external scores", content=test_set.content_hash, options=Options(), metrics=()),
        lambda _progress: score_test_set(test_set, [], Options(), external=external),
    )
