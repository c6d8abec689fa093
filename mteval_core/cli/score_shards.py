"""`mteval score --shards PATH ...`: the sharded input of `mteval score`, from options to output.

    mteval score --shards FOLDER|GLOB|FILE ... [--metrics ...] [--workers N | --scheduler ADDRESS]
                 [--bootstrap R --seed S] [--segment-scores-out FOLDER] [--format ...]

Corpus scores print as the in-memory path prints them (text, JSON, CSV, LaTeX) and equal its
scores; --bootstrap gives intervals and paired tests from the Poisson bootstrap (the JSON says
"method": "poisson"). NIST, whose weights need the reference counts of the whole corpus, takes a
first pass over the shards (``shards.nist_counts``). What needs every segment's statistics in
one place (human judgments, document and segment scores on screen) is refused, with what to do
instead.
"""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Sequence
from contextlib import nullcontext

from mteval_core.errors import InputError, Note
from mteval_core.metrics.scoring import Scores
from mteval_core.report.writers import render_scores
from mteval_core.settings.options import Options
from mteval_core.shards.cluster import Cluster, score_shards
from mteval_core.shards.coverage import check_coverage
from mteval_core.shards.partition import PartitionTask
from mteval_core.shards.reading import find_shards
from mteval_core.shards.results import corpus_scores, poisson_bootstrap
from mteval_core.shards.segment_scores import SegmentScoresOut, default_format
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.meta import MetaEvaluation

IN_MEMORY = "Score in memory for it: --refs and --hyps, or one long-format file."
UNSUPPORTED = {  # argparse dest -> (option, what to do instead)
    "refs": ("--refs", "--shards replaces --refs and --hyps: give one or the other."),
    "hyps": ("--hyps", "--shards replaces --refs and --hyps: give one or the other."),
    "segments": ("--segments", "Write segment scores as shards with --segment-scores-out FOLDER."),
    "documents": ("--documents", IN_MEMORY),
    "human": ("--human", IN_MEMORY),
    "segment_ids": ("--segment-ids", IN_MEMORY),
    "metric_scores": ("--metric-scores", IN_MEMORY),
    "metric_signature": ("--metric-signature", IN_MEMORY),
    "comet_compare": ("--comet-compare", IN_MEMORY),
    "criterion": ("--criterion", IN_MEMORY),
    "exclude": ("--exclude", IN_MEMORY),
    "human_lower_is_better": ("--human-lower-is-better", IN_MEMORY),
    "rated_segments_only": ("--rated-segments-only", IN_MEMORY),
    "segment_level": ("--segment-level", IN_MEMORY),
    "rank_metrics": ("--rank-metrics", IN_MEMORY),
}
INEXACT_NOTE = (
    "{metrics}: statistics that are not whole numbers (e.g. NIST's information sums, mean "
    "reference lengths of three references, or GTM at e != 1) are summed shard by shard, so "
    "these scores may differ from the in-memory path's in the last digits"
)


def run_sharded(args: argparse.Namespace, metric_names: Sequence[str], options: Options) -> str:
    """`mteval score --shards`: check the options, score every shard, print like `mteval score`."""
    _refuse_unsupported(args)
    if args.bootstrap and args.format in ("csv", "latex"):
        raise InputError("--bootstrap works with --format json or text")
    names = list(metric_names)
    cluster = Cluster(args.workers, args.scheduler)
    shards = find_shards(args.shards)
    out = None
    if args.segment_scores_out:
        out = SegmentScoresOut(args.segment_scores_out, default_format())
    if args.scheduler:  # the workers' working folder is not ours
        shards = [path.resolve() for path in shards]
        if out is not None:
            out = SegmentScoresOut(os.path.abspath(out.folder), out.format)
    bootstrap = BootstrapOptions(args.bootstrap, args.seed) if args.bootstrap else None
    tasks = [PartitionTask(str(path), tuple(names), options, bootstrap, out) for path in shards]
    # every segment-score file or none: checked before any work, published once all is scored
    with out.writing(shards) if out is not None else nullcontext():
        corpus = score_shards(tasks, cluster)
        n_segments = check_coverage(corpus.indexes)
    notes = list(dict.fromkeys(corpus.notes))
    if corpus.sums.inexact and len(shards) > 1:
        notes.append(INEXACT_NOTE.format(metrics=", ".join(sorted(corpus.sums.inexact))))
    for note in notes:
        warnings.warn(note, Note, stacklevel=2)
    scores = corpus_scores(corpus.sums, names, options, corpus.n_references, notes)
    meta = None
    if bootstrap is not None:
        resampled = poisson_bootstrap(corpus.sums, scores, bootstrap, n_segments)
        meta = MetaEvaluation(resampled=resampled)
    return render(args.format, scores, meta, {"count": len(shards), "segments": n_segments})


def _refuse_unsupported(args: argparse.Namespace) -> None:
    for dest, (option, instead) in UNSUPPORTED.items():
        if getattr(args, dest):
            raise InputError(f"{option} does not work with --shards", hint=instead)


def render(form: str, scores: Scores, meta: MetaEvaluation | None, shards: dict[str, int]) -> str:
    """As `mteval score` prints; the JSON adds "shards" (how many, and their segments) and says
    the bootstrap was the Poisson one."""
    report: dict = {"shards": shards}
    if meta is not None:
        report.update(meta.to_dict())
        report["bootstrap"]["method"] = "poisson"
    return render_scores(form, scores, meta=meta, report=report)
