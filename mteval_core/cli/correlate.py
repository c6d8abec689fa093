"""`mteval correlate`: metric scores against human scores, from tables scored elsewhere.

System level:  mteval correlate --human FILE --metrics FILE [--criterion NAME] [--exclude SYS ...]
                                [--bootstrap N] [--seed S] [--format text|json]
Segment level: mteval correlate --human-segments FILE --metric-segments FILE
                                [--lower-is-better METRIC ...] [--rank-metrics STATISTIC]
                                [--permutations N] [--criterion NAME] [--exclude SYS ...]
                                [--bootstrap N] [--seed S] [--format text|json]

The segment-level form gives what `mteval score --segment-level` gives, from the two tables
alone: mt-metrics-eval's correlations and accuracies by grouping, SPA, and the metric ranking.
"""

from __future__ import annotations

import argparse
import json
import sys

from mteval_core.cli.arguments import (
    add_ranking_arguments,
    add_resampling_arguments,
    bootstrap_options,
    check_excluded,
)
from mteval_core.errors import InputError
from mteval_core.model.testset import HumanScores
from mteval_core.report.writers import render_correlations


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
    correlate.add_argument("--format", choices=("text", "json"), default="text")
    correlate.set_defaults(run=run)


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
    if _check_form(args):
        return run_segment_level(args)
    from mteval_core.io import read_bytes
    from mteval_core.io.wide_metric_scores import read_system_metric_table
    from mteval_core.model.judgment_matrices import default_criterion
    from mteval_core.stats.meta import correlate_tables

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
    results = correlate_tables(human_scores, metrics, args.exclude, bootstrap_options(args))
    if args.format == "json":
        records = {metric: statistics.to_dict() for metric, statistics in results.items()}
        return json.dumps(records, indent=2, allow_nan=False) + "\n"
    return render_correlations(results, f"human: {criterion}")


def _print_notes(notes: tuple[str, ...]) -> None:
    for note in notes:
        print(f"mteval: note: {note}", file=sys.stderr)


def run_segment_level(args: argparse.Namespace) -> str:
    """What `mteval score --segment-level` reports, from a human and a metric segment table."""
    from mteval_core.cli.segment_tables import table_matrices
    from mteval_core.io import read_bytes
    from mteval_core.io.wide_metric_scores import read_segment_metric_table
    from mteval_core.report.writers import render_segment_level_text
    from mteval_core.stats import segment_meta

    human = _read_table(args.human_segments)
    table = read_segment_metric_table(read_bytes(args.metric_segments), args.metric_segments)
    rated = human.segment_rows["system"].drop_duplicates().tolist()
    check_excluded(args.exclude, list(dict.fromkeys([*table.systems, *rated])))
    if args.rank_metrics:
        segment_meta.parse_rank_statistic(args.rank_metrics)  # a typo fails before the work
    read = table_matrices(human, table, args.criterion, args.exclude, args.lower_is_better)
    _print_notes((*table.notes, *read.notes))
    matrices = read.matrices
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
