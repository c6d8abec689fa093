"""The session's scores (``scores_of``): every system under the chosen metrics and the uploaded
ones, from statistics kept kind by kind in the shared cache."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mteval_core.errors import InputError
from mteval_core.metrics import REGISTRY
from mteval_core.metrics.scoring import (
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
from pages.ui.cache import CacheKey
from pages.ui.caching import cache_key, cached, shared_cache
from pages.ui.session import session_external_metrics, session_metrics


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
