"""`mteval correlate`: metric scores against human scores, from tables scored elsewhere.

System level:  mteval correlate --human FILE --metrics FILE [--criterion NAME] [--exclude SYS ...]
                                [--bootstrap N] [--seed S] [--format text|json]
Segment level: mteval correlate --human-segments FILE --metric-segments FILE
                                [--lower-is-better METRIC ...] [--rank-metrics STATISTIC]
                                [--permutations N] [--criterion NAME] [--exclude SYS ...]
                                [--bootstrap N] [--seed S] [--format text|json]
mt-metrics-eval: mteval correlate --mtme DIR --test-set NAME --lp LP [--reference REF]
                                [--level segment|system] [and the options above]
Its WMT25 task set: mteval correlate --mtme DIR --test-set NAME --task-set wmt25 [--lp LP,LP...]
                                [--permutations K] [--seed S] [--bootstrap N] [--format text|json]

The segment-level form gives what `mteval score --segment-level` gives, from the two tables
alone: mt-metrics-eval's correlations and accuracies by grouping, SPA, and the metric ranking.
With --mtme the human and metric scores of an mt-metrics-eval folder go through the same two
forms: its segment scores through the segment-level one, its system scores (the files', or the
mean of the segment scores where a metric has only those) through the system-level one.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from mteval_core.cli.arguments import (
    add_mtme_arguments,
    add_ranking_arguments,
    add_resampling_arguments,
    bootstrap_options,
    check_excluded,
    load_mtme,
)
from mteval_core.errors import InputError
from mteval_core.model.testset import HumanScores
from mteval_core.report.writers import render_correlations
from mteval_core.stats.bootstrap import fewest_interval_resamples

if TYPE_CHECKING:
    from mteval_core.io.mtme import MtmeRead
    from mteval_core.stats.segment_meta import SegmentMatrices

TASK_SETS = ("wmt25",)  # --task-set: mt-metrics-eval's task sets (cli.correlate_task_set)
# The tables --mtme replaces (argparse dest -> option).
MTME_REFUSED = {
    "human": "--human",
    "metric_file": "--metrics",
    "human_segments": "--human-segments",
    "metric_segments": "--metric-segments",
    "lower_is_better": "--lower-is-better",
}


def add_command(commands: argparse._SubParsersAction) -> None:
    correlate = commands.add_parser(
        "correlate",
        help="correlate metric scores computed elsewhere with human scores",
        description="System level: --human and --metrics are tables (CSV or TSV) with a column "
        "'system' and one column per score; Pearson, Spearman and Kendall tau-b per metric, and "
        "--bootstrap adds intervals from resampling systems. Segment level: --human-segments "
        "(system, segment_id, score) and --metric-segments (system, segment_id and one column "
        "per metric) give mt-metrics-eval's segment-level correlations and accuracies, SPA and "
        "--rank-metrics; --bootstrap adds intervals from resampling segments.",
    )
    correlate.add_argument("--human", metavar="FILE", help="system-level human scores")
    correlate.add_argument(
        "--metrics", metavar="FILE", dest="metric_file", help="system-level metric scores"
    )
    correlate.add_argument("--human-segments", metavar="FILE", help="segment-level human scores")
    correlate.add_argument(
        "--metric-segments", metavar="FILE", help="segment-level scores of one or more metrics"
    )
    correlate.add_argument(
        "--lower-is-better",
        nargs="+",
        default=[],
        metavar="METRIC",
        help="metric columns of --metric-segments whose lower scores are better (e.g. TER); "
        "they are negated, as mt-metrics-eval does",
    )
    correlate.add_argument("--criterion", metavar="NAME", help="the human column to use")
    correlate.add_argument("--exclude", nargs="+", default=[], metavar="SYS")
    add_ranking_arguments(correlate)
    add_resampling_arguments(correlate, "intervals (resampling systems, or segments)")
    add_mtme_arguments(correlate)
    correlate.add_argument(
        "--level",
        choices=("segment", "system"),
        help="with --mtme: which scores to correlate (default: segment when the human scores "
        "have segments, else system)",
    )
    correlate.add_argument(
        "--task-set",
        choices=TASK_SETS,
        help="with --mtme and --test-set: mt-metrics-eval's task set of that year over the "
        "test set's language pairs (all with segment-level human scores, or --lp LP,LP...): "
        "SPA and acc_eq by item per pair, ranks and clusters from --permutations per pair of "
        "metrics seeded with --seed, --bootstrap intervals",
    )
    correlate.add_argument("--format", choices=("text", "json"), default="text")
    correlate.set_defaults(run=run)


def _run_task_set(args: argparse.Namespace) -> str:
    """--task-set: the folder's pairs, none of the one-pair options."""
    from mteval_core.cli.correlate_task_set import run_task_set

    if not args.mtme or not args.test_set:
        raise InputError(
            "--task-set needs --mtme and --test-set",
            hint="e.g. mteval correlate --mtme mt-metrics-eval-v2 --test-set wmt25 "
            "--task-set wmt25",
        )
    refused = {**MTME_REFUSED, "level": "--level", "rank_metrics": "--rank-metrics"}
    refused |= {"exclude": "--exclude", "with_human_outputs": "--with-human-outputs"}
    clash = [option for dest, option in refused.items() if getattr(args, dest)]
    if clash:
        raise InputError(
            f"--task-set cannot be given with {', '.join(clash)}",
            hint="The task set takes each pair's systems and metrics as mt-metrics-eval does.",
        )
    return run_task_set(args)


def _check_form(args: argparse.Namespace) -> bool:
    """True for the segment-level form; a mix of the two forms, or half of one, is refused."""
    system = (args.human, args.metric_file)
    segment = (args.human_segments, args.metric_segments)
    form = (
        "Give --human and --metrics (system-level tables) or --human-segments and "
        "--metric-segments (segment-level tables)."
    )
    if any(system) and any(segment):
        raise InputError("the system-level and segment-level forms cannot be mixed", hint=form)
    if not all(system) and not all(segment):
        raise InputError("a human file and a metric file are needed", hint=form)
    if all(system) and (args.rank_metrics or args.lower_is_better):
        option = "--rank-metrics" if args.rank_metrics else "--lower-is-better"
        raise InputError(f"{option} works with --human-segments and --metric-segments", hint=form)
    return all(segment)


def _read_table(path: str) -> HumanScores:
    from mteval_core.io import read_bytes, read_human

    return read_human(read_bytes(path), path)


def _system_means(human: HumanScores, criterion: str) -> dict[str, float]:
    """System scores from system rows, or the mean of segment rows (raters averaged first)."""
    rows = human.system_rows[human.system_rows["criterion"] == criterion]
    if len(rows):
        return dict(zip(rows["system"], rows["score"].astype(float)))
    segments = human.segment_rows[human.segment_rows["criterion"] == criterion]
    per_segment = segments.groupby(["system", "segment"], sort=False)["score"].mean()
    return per_segment.groupby(level=0, sort=False).mean().to_dict()


def run(args: argparse.Namespace) -> str:
    _note_few_resamples(args)
    if args.task_set:
        return _run_task_set(args)
    mtme = load_mtme(args, MTME_REFUSED)
    if mtme is not None:
        return run_mtme(args, mtme)
    if args.level:
        raise InputError("--level works with --mtme", hint="Give --mtme DIR, or leave it out.")
    if _check_form(args):
        return run_segment_level(args)
    from mteval_core.io import read_bytes
    from mteval_core.io.wide_metric_scores import read_system_metric_table
    from mteval_core.model.judgment_matrices import default_criterion

    human = _read_table(args.human)
    criterion = args.criterion or default_criterion(human)
    if criterion not in human.criteria:
        raise InputError(
            f"no column or criterion {criterion!r}",
            origin=args.human,
            hint=f"It has: {', '.join(human.criteria)}.",
        )
    read = read_system_metric_table(read_bytes(args.metric_file), args.metric_file)
    _print_notes(read.notes)
    metrics = read.metrics
    human_scores = _system_means(human, criterion)
    known = list(dict.fromkeys([*human_scores, *(s for m in metrics.values() for s in m)]))
    check_excluded(args.exclude, known)
    return _system_report(args, human_scores, metrics, criterion)


def _system_report(
    args: argparse.Namespace,
    human_scores: dict[str, float],
    metrics: dict[str, dict[str, float]],
    criterion: str,
) -> str:
    from mteval_core.stats.meta import correlate_tables

    results = correlate_tables(human_scores, metrics, args.exclude, bootstrap_options(args))
    if args.format == "json":
        records = {metric: statistics.to_dict() for metric, statistics in results.items()}
        return json.dumps(records, indent=2, allow_nan=False) + "\n"
    return render_correlations(results, f"human: {criterion}")


def _note_few_resamples(args: argparse.Namespace) -> None:
    """--bootstrap N too few for intervals: a note on stderr, whatever --format (the JSON is
    the tables' statistics, metric by metric, with no place for it)."""
    options = bootstrap_options(args)
    note = options.too_few_for_intervals if options is not None else None
    if note:
        needed = fewest_interval_resamples(options.confidence)
        _print_notes((f"{note} (give --bootstrap {needed} or more)",))


def _print_notes(notes: tuple[str, ...]) -> None:
    for note in notes:
        print(f"mteval: note: {note}", file=sys.stderr)


def run_segment_level(args: argparse.Namespace) -> str:
    """What `mteval score --segment-level` reports, from a human and a metric segment table."""
    from mteval_core.cli.segment_tables import table_matrices
    from mteval_core.io import read_bytes
    from mteval_core.io.wide_metric_scores import read_segment_metric_table
    from mteval_core.stats import segment_meta

    human = _read_table(args.human_segments)
    table = read_segment_metric_table(read_bytes(args.metric_segments), args.metric_segments)
    rated = human.segment_rows["system"].drop_duplicates().tolist()
    check_excluded(args.exclude, list(dict.fromkeys([*table.systems, *rated])))
    if args.rank_metrics:
        segment_meta.parse_rank_statistic(args.rank_metrics)  # a typo fails before the work
    read = table_matrices(human, table, args.criterion, args.exclude, args.lower_is_better)
    _print_notes((*table.notes, *read.notes))
    return _segment_report(args, read.matrices)


def _segment_report(args: argparse.Namespace, matrices: SegmentMatrices) -> str:
    """The segment-level form's output: statistics by grouping, SPA, and the ranking."""
    from mteval_core.report.writers import render_segment_level_text
    from mteval_core.stats import segment_meta

    result = segment_meta.segment_statistics(matrices, args.bootstrap, args.seed)
    report: dict = {
        "segment_level": segment_meta.segment_level_header(matrices, result),
        "segment_correlations": segment_meta.segment_correlations(matrices, result),
        "correlations": segment_meta.system_accuracies(matrices, result),
    }
    if args.rank_metrics:
        report["metric_ranking"] = segment_meta.metric_ranking(
            matrices, args.rank_metrics, args.permutations, args.seed, result
        )
        report["metric_ranking_statistic"] = args.rank_metrics
    if args.format == "json":
        return json.dumps(report, indent=2, allow_nan=False) + "\n"
    return render_segment_level_text(report)


def run_mtme(args: argparse.Namespace, mtme: MtmeRead) -> str:
    """Both forms on an mt-metrics-eval folder: its human scores against its metric scores."""
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.settings.options import Options
    from mteval_core.stats import segment_meta
    from mteval_core.stats.meta import has_segment_judgments

    test_set, human = mtme.test_set, mtme.test_set.human
    if human is None or mtme.criterion is None:
        raise InputError(
            f"there are no human scores of {args.lp} to correlate with",
            origin=f"{args.mtme}/{args.test_set}/human-scores",
            hint="mt-metrics-eval's human-scores/LP.NAME.seg.score or .sys.score files.",
        )
    if not mtme.external:
        raise InputError(
            f"there are no metric scores of {args.lp} that use reference {mtme.reference} or none",
            origin=f"{args.mtme}/{args.test_set}/metric-scores/{args.lp}",
            hint="Choose the reference the metric files use with --reference.",
        )
    criterion = args.criterion or mtme.criterion
    segment = has_segment_judgments(human, criterion)
    level = args.level or ("segment" if segment else "system")
    if level == "system" and args.rank_metrics:
        raise InputError("--rank-metrics works at --level segment")
    scores = score_test_set(test_set, [], Options(), external=mtme.external)
    check_excluded(args.exclude, scores.systems)
    if level == "segment":
        if args.rank_metrics:
            segment_meta.parse_rank_statistic(args.rank_metrics)  # a typo fails before the work
        matrices = segment_meta.segment_matrices(test_set, scores, criterion, args.exclude)
        return _segment_report(args, matrices)
    means = _system_means(human, criterion)
    human_scores = {system: means[system] for system in test_set.system_names if system in means}
    metrics = {
        metric.name: {system: metric.system_score(system) for system in test_set.system_names}
        for metric in mtme.external
    }
    return _system_report(args, human_scores, metrics, criterion)
