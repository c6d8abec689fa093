"""The session's scores (``scores_of``): every system under the chosen metrics and the uploaded
ones, from statistics kept kind by kind in the shared cache. Home shows the quick kinds at once
and has the slow ones scored in the background for the pages that show them (``glance_scores``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from mteval_core.errors import InputError
from mteval_core.metrics import REGISTRY
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
from mteval_core.settings.options import Options
from pages.ui.cache import CacheKey, ContentCache
from pages.ui.caching import cache_key, cached, shared_cache
from pages.ui.session import session_external_metrics, session_metrics

log = logging.getLogger("mteval.dashboard")

# The statistics kinds that take seconds where the others take a fraction of one (WMT21 en-de
# news, 20 systems x 3 references, load 8: METEOR 9.8 s, TER 3.4 s, every other kind 0.7-1.1 s):
# Home, which shows the scores at a glance, shows the others at once and leaves these to the
# background (``glance_scores``), so that the page that shows them next finds them scored.
SLOW_KINDS = ("meteor", "ter")
_scoring_ahead: set[CacheKey] = set()  # the keys a background thread is scoring
_scoring_ahead_lock = threading.Lock()


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
    keys = _kind_keys(test_set, options, metrics)
    missing = [name for name in metrics if keys[statistics_kind_of(name)] not in shared_cache()]
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


def glance_scores(test_set: TestSet, options: Options) -> tuple[Scores, list[str]]:
    """Home's scores: the session's metrics but those of the ``SLOW_KINDS`` not scored yet, and
    the names of those left out, which a background thread scores meanwhile into the shared
    cache (``score_ahead``), where the Scores, Correlation and other pages find them (or wait for
    them, following the thread's progress). With no other metric, Home scores them itself."""
    metrics = list(session_metrics())
    keys = _kind_keys(test_set, options, metrics)
    cache = shared_cache()
    later = [
        name
        for name in metrics
        if statistics_kind_of(name) in SLOW_KINDS and keys[statistics_kind_of(name)] not in cache
    ]
    now = [name for name in metrics if name not in later]
    if not later or not now:
        return scores_of(test_set, options, metrics), []
    score_ahead(cache, test_set, options, {statistics_kind_of(n): n for n in later}, keys)
    return scores_of(test_set, options, now), later


def complete_scores(test_set: TestSet, options: Options) -> Callable[[], Scores]:
    """``scores_of`` the session's metrics as a function that may run outside the page's run
    (a download's click): each kind from the shared cache, waited for while it is scored ahead,
    else scored there; the session's metrics and external scores are read now."""
    metrics = list(session_metrics())
    keys = _kind_keys(test_set, options, metrics)
    kinds = {statistics_kind_of(name): name for name in reversed(metrics)}
    external = _external_scores(test_set)
    cache = shared_cache()

    def scores() -> Scores:
        parts = {
            kind: cache.get_or_compute(keys[kind], _kind_scorer(test_set, name, options))
            for kind, name in kinds.items()
        }
        return assembled_scores(parts, metrics, options, test_set, external)

    return scores


def score_ahead(
    cache: ContentCache,
    test_set: TestSet,
    options: Options,
    kinds: dict[str, str],
    keys: dict[str, CacheKey],
) -> None:
    """Score each kind of ``kinds`` (kind -> one of its metrics) into ``cache`` under its key, in
    a background thread, one kind after another; a key already being scored ahead is skipped. A
    kind that cannot be scored is only logged: the page that shows it scores it again and says
    what is wrong."""
    with _scoring_ahead_lock:
        todo = {kind: name for kind, name in kinds.items() if keys[kind] not in _scoring_ahead}
        _scoring_ahead.update(keys[kind] for kind in todo)
    if todo:
        threading.Thread(
            target=_score_kinds,
            args=(cache, test_set, options, todo, keys),
            name="mteval-score-ahead",
            daemon=True,
        ).start()


def _score_kinds(
    cache: ContentCache,
    test_set: TestSet,
    options: Options,
    kinds: dict[str, str],
    keys: dict[str, CacheKey],
) -> None:
    for kind, name in kinds.items():
        try:
            cache.get_or_compute(keys[kind], _kind_scorer(test_set, name, options))
        except Exception:
            log.warning("scoring %s ahead failed", name, exc_info=True)
        finally:
            with _scoring_ahead_lock:
                _scoring_ahead.discard(keys[kind])


def _kind_scorer(
    test_set: TestSet, name: str, options: Options
) -> Callable[[Progress], StatisticsPart]:
    """compute(progress) of the statistics of ``name``'s kind, for the shared cache."""
    return lambda progress: statistics_parts(score_test_set(test_set, [name], options, progress))[
        statistics_kind_of(name)
    ]


def _kind_keys(test_set: TestSet, options: Options, metrics: Sequence[str]) -> dict[str, CacheKey]:
    """The shared cache's key of each statistics kind of ``metrics``, under only the options
    that change it."""
    kinds = {statistics_kind_of(name): name for name in reversed(metrics)}  # kind -> a metric
    return {
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


def _kind_statistics(
    test_set: TestSet, name: str, options: Options, key: CacheKey
) -> StatisticsPart:
    """The statistics of ``name``'s kind, kept under ``key`` (scored now if they are not)."""
    return cached(key, _kind_scorer(test_set, name, options), "Scoring...")


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
        shared_cache().put(keys[kind], part)
    return {}


def _score_apart(
    test_set: TestSet, names: list[str], options: Options, keys: dict[str, CacheKey]
) -> dict[str, InputError]:
    problems: dict[str, InputError] = {}
    for name in names:
        kind = statistics_kind_of(name)
        if kind in problems or keys[kind] in shared_cache():
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
        shared_cache().put(keys[kind], statistics_parts(scores)[kind])
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
