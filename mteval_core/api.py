"""The public Python API of mteval: from files or lists of strings to the numbers `mteval score`
prints, without knowing the package's module paths.

    import mteval_core as mt
    test_set = mt.read_test_set(references=["ref.en"], systems={"A": "a.en", "B": "b.en"})
    scores = mt.score(test_set, metrics=["bleu", "chrf"])
    intervals = mt.bootstrap(test_set, scores, resamples=1000)
    ranking = mt.rank(test_set, scores, "bleu")  # clusters and rank ranges, best first

Stability: the names in ``__all__`` (re-exported by ``mteval_core``) are public, and follow
semantic versioning: they change incompatibly only with a new major version. Every other module
and name may change between minor versions.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from mteval_core.errors import InputError, Note
from mteval_core.metrics import DEFAULT_METRICS, REGISTRY
from mteval_core.metrics.scoring import Scores
from mteval_core.model.metric_signature import MetricSignature
from mteval_core.model.testset import TestSet
from mteval_core.settings.options import Options

if TYPE_CHECKING:
    from mteval_core.io.mqm_tsv import MqmAnnotations
    from mteval_core.io.mtme import MtmeRead
    from mteval_core.metrics.external import ExternalMetric
    from mteval_core.stats.system_clusters import ClusteredSystem

__all__ = [
    "DEFAULT_METRICS",
    "REGISTRY",
    "InputError",
    "MetricSignature",
    "Options",
    "Scores",
    "TestSet",
    "bootstrap",
    "compare_systems",
    "correlate",
    "rank",
    "read_metric_scores",
    "read_mqm",
    "read_mtme",
    "read_test_set",
    "score",
    "with_human",
]


def read_test_set(
    references: Sequence[str],
    systems: Sequence[str] | Mapping[str, str],
    source: str | None = None,
) -> TestSet:
    """The test set of reference and system files (plain text, NIST SGML, WMT XML), read as
    `mteval score --refs ... --hyps ...` reads them.

    :param references: paths of the reference files, one per reference.
    :param systems: paths of the system outputs (named after their files), or a mapping of
        system name to path.
    :param source: path of the source file, optional (it is not scored).
    :raises InputError: a file is missing, unreadable or malformed; the message names it.
    """
    from mteval_core.io.test_set_files import read_test_set_files

    if isinstance(systems, str) or isinstance(references, str):
        raise InputError(
            "references and systems are lists of paths, not one path",
            hint="Write references=[path] and systems=[path, ...] (or a dict of name to path).",
        )
    named = (
        list(systems.items())
        if isinstance(systems, Mapping)
        else [(None, path) for path in systems]
    )
    return read_test_set_files(
        references,
        named,
        source,
        note=_warn,
        naming_hint="or give systems as a dict of name to path",
    )


def read_mtme(root: str, test_set: str, lp: str, reference: str | None = None) -> MtmeRead:
    """Language pair ``lp`` of an mt-metrics-eval folder (``root`` holds the test set folders,
    or is ``root/test_set`` itself), read as `mteval score --mtme ROOT --test-set T --lp LP`
    reads it: ``.test_set`` (the reference ``reference``, or the test set's standard one, the
    systems, documents and human scores), ``.external`` (its metric scores, to pass to
    ``score``), ``.criterion`` (the human scores to correlate with by default). What was chosen
    or left out comes as warnings.

    :raises InputError: the folder, test set or pair is missing or malformed; it is named.
    """
    from mteval_core.io.mtme import read_mtme as read_folder

    read = read_folder(root, test_set, lp, reference)
    for note in read.notes:
        _warn(note)
    return read


def read_metric_scores(
    test_set: TestSet,
    paths: str | Sequence[str],
    name: str,
    higher_is_better: bool | None = None,
    signature: MetricSignature | None = None,
) -> ExternalMetric:
    """Scores of a metric computed elsewhere, to pass to ``score``, as
    `mteval score --metric-scores` reads them: a CSV/TSV of system, segment, score (or system,
    score), mt-metrics-eval's ``.seg.score`` / ``.sys.score`` lines, or a tool's own output
    (comet-score's JSON, MetricX's JSON Lines, pymarian-eval's and gemba's one score per line,
    GEMBA-MQM's error lists, WMT25's automatic scores joined by the test set's document ids),
    one file or several (e.g. one per system). The name is given (for WMT25's files, one of
    their metrics); so is the direction, unless the tool's output says it (COMET, MetricX,
    GEMBA-MQM, WMT25's). ``signature`` (a ``MetricSignature``: model,
    version, precision, ...) says what produced them where the files do not; rows of systems
    the test set lacks and files that disagree on the signature come as warnings.

    :raises InputError: a file is malformed, a system of the test set has no scores, or the
        direction is neither given nor said by the file.
    """
    from mteval_core.io import read_bytes
    from mteval_core.io.metric_scores import read_metric_files

    files = [paths] if isinstance(paths, str) else list(paths)
    metric = read_metric_files(
        [(read_bytes(path), str(path)) for path in files],
        test_set,
        name=name,
        higher_is_better=higher_is_better,
        signature=signature,
    )
    for note in metric.notes:
        _warn(note)
    return metric


def read_mqm(path: str) -> MqmAnnotations:
    """Google's MQM annotations (the TSV of google/wmt-mqm-human-evaluation, either layout,
    read as released: byte order marks, a comment in the header, the WMT23 file's columns), each
    error row with its system, segment, rater, category and severity. For MQM scores as human
    judgments of a test set, use ``with_human``.

    :raises InputError: the file is not an MQM TSV or a row is malformed; file and line named.
    """
    from mteval_core.io import read_bytes
    from mteval_core.io.mqm_tsv import read_mqm as read_tsv

    annotations = read_tsv(read_bytes(path), path)
    for note in annotations.notes:
        _warn(note)
    return annotations


def score(
    test_set: TestSet,
    metrics: Sequence[str] = DEFAULT_METRICS,
    options: Options | None = None,
    external: Sequence[ExternalMetric] = (),
) -> Scores:
    """Every system's corpus and segment scores under ``metrics`` (names of ``REGISTRY``), with
    ``options`` (tokenizer, lowercasing, each family's parameters; ``Options()`` by default, as
    `mteval score` without flags on text whose language is not known), then the ``external``
    metrics (``read_metric_scores``, ``read_mtme(...).external``) beside them.

    :raises InputError: an unknown metric name, or a test set with no system.
    """
    from mteval_core.metrics.scoring import score_test_set

    return score_test_set(test_set, list(metrics), options or Options(), external=external)


def bootstrap(test_set: TestSet, scores: Scores, resamples: int = 1000, seed: int | None = None):
    """Bootstrap intervals of every score and the paired tests between systems, as
    `mteval score --bootstrap N [--seed S]` computes them: a ``stats.meta.MetaEvaluation`` whose
    ``to_dict()`` is the "bootstrap" part of `mteval score --format json`.
    """
    from mteval_core.stats.bootstrap import DEFAULT_SEED, BootstrapOptions
    from mteval_core.stats.meta import evaluate

    chosen = BootstrapOptions(resamples, DEFAULT_SEED if seed is None else seed)
    return evaluate(test_set, scores, bootstrap=chosen)


def rank(
    test_set: TestSet,
    scores: Scores,
    metric: str,
    resamples: int = 1000,
    seed: int | None = None,
) -> tuple[ClusteredSystem, ...]:
    """The systems best first under ``metric``, each with its significance cluster, its rank
    range (the best and worst rank its significant pairs allow) and its interval, from the
    paired bootstrap tests of ``bootstrap`` (Holm-corrected, as the Scores page ranks them).

    :raises InputError: ``metric`` was not scored, or has no segment scores to resample.
    """
    from mteval_core.stats.system_clusters import cluster_systems

    if metric not in scores.metric_names:
        raise InputError(
            f"no scores of {metric!r}", hint=f"Scored: {', '.join(scores.metric_names)}."
        )
    resampled = bootstrap(test_set, scores, resamples, seed).resampled
    if resampled is None or metric in resampled.undefined:
        why = resampled.undefined.get(metric) if resampled is not None else None
        raise InputError(
            f"{metric} cannot be ranked by resampling: {why or 'nothing was resampled'}",
            hint="Rank a metric with segment scores, on a test set of six segments or more.",
        )
    corpus = scores.corpus()
    higher = next(m for m in scores.metrics if m.name == metric).higher_is_better
    return cluster_systems(
        {system: corpus[system][metric] for system in scores.systems},
        resampled.pairs,
        metric,
        higher,
        {system: resampled.ci[system][metric] for system in scores.systems},
    )


def with_human(test_set: TestSet, path: str, lower_is_better: bool = False) -> TestSet:
    """The test set with the human judgments of ``path`` (a TSV/CSV/JSONL of system, segment,
    score, or Google's MQM TSV), read as `mteval score --human FILE` reads them; rows of systems
    the test set does not hold are set aside with a warning.

    :param lower_is_better: the scores count errors (MQM points), as --human-lower-is-better.
    :raises InputError: the file is unreadable, malformed or matches no segment; it is named.
    """
    from mteval_core.io import read_bytes, read_human_for
    from mteval_core.io.mqm_placement import HowToGive

    read = read_human_for(
        test_set,
        read_bytes(path),
        path,
        lower_is_better=lower_is_better,
        how_to_give=HowToGive("the source (read_test_set(source=...))"),
    )
    for note in read.notes:
        _warn(note)
    return test_set.with_human(read.scores)


def correlate(
    test_set: TestSet,
    scores: Scores,
    criterion: str | None = None,
    lower_is_better: bool = False,
):
    """Every metric's correlations with the human judgments of ``test_set`` (see with_human),
    over the systems, as `mteval score --human FILE` computes them: a ``stats.meta``
    ``MetaEvaluation`` whose ``to_dict()`` is that command's "human" and "correlations" part,
    without the two accuracies the command adds from segment judgments ("spa",
    "pairwise_accuracy_with_ties").

    :param criterion: which human criterion, where the judgments hold several.
    :raises InputError: the test set has no human judgments.
    """
    from mteval_core.stats.meta import evaluate

    if test_set.human is None:
        raise InputError(
            "this test set has no human judgments to correlate with",
            hint="Read them first: test_set = mteval_core.with_human(test_set, path).",
        )
    return evaluate(test_set, scores, criterion=criterion, negated_on_load=lower_is_better)


def compare_systems(
    test_set: TestSet,
    compare_mt: bool = False,
    options: Options | None = None,
    resamples: int = 1000,
    seed: int | None = None,
):
    """compare-mt's analyses of the test set's two systems against its first reference, as
    `mteval compare` does them: a ``compare.analysis.Comparison`` (buckets by word frequency,
    sentence length and BLEU, n-gram differences, example sentences), each bucket with an
    interval from ``resamples`` resamples of the sentences (0: none). Not named ``compare``:
    that is the folder of the analyses, ``mteval_core.compare``, which an attribute would shadow.

    :param compare_mt: read the text as compare-mt does (split on spaces) for its numbers,
        instead of as ``score`` reads it under ``options``.
    :raises InputError: the test set does not hold exactly two systems.
    """
    from mteval_core.compare.analysis import compare_pair
    from mteval_core.compare.readings import COMPARE_MT, TokenizedReading
    from mteval_core.stats.bootstrap import DEFAULT_SEED, BootstrapOptions

    if len(test_set.systems) != 2:
        raise InputError(
            f"compare takes two systems; this test set holds {len(test_set.systems)} "
            f"({', '.join(test_set.system_names)})",
            hint="Read a test set of the two systems to compare.",
        )
    reading = COMPARE_MT if compare_mt else TokenizedReading(options or Options())
    chosen = BootstrapOptions(resamples, DEFAULT_SEED if seed is None else seed)
    comparison = compare_pair(
        test_set.references[0].segments,
        [(system.name, system.segments) for system in test_set.systems],
        reading,
        bootstrap=chosen if resamples else None,
        source=test_set.source.segments if test_set.source is not None else None,
    )
    for note in comparison.notes:
        _warn(note)
    return comparison


def _warn(note: str) -> None:
    """A note of the reading, as a warning a script may show, filter or record."""
    warnings.warn(note, Note, stacklevel=3)
