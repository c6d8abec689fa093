"""`mteval correlate`: metric scores against human scores, from two system-level tables.

mteval correlate --human FILE --metrics FILE [--criterion NAME] [--exclude SYS ...]
                 [--bootstrap N] [--seed S] [--format text|json]
"""

from __future__ import annotations

import argparse
import json
import math

from mteval_core.cli.arguments import add_resampling_arguments, bootstrap_options, check_excluded
from mteval_core.errors import InputError
from mteval_core.export import render_correlations
from mteval_core.testset import HumanScores


def add_command(commands: argparse._SubParsersAction) -> None:
    correlate = commands.add_parser(
        "correlate",
        help="correlate system-level metric scores with human scores",
        description="Both files are system-level tables (CSV or TSV): a column 'system' and one "
        "column per score. Pearson, Spearman and Kendall tau-b per metric; --bootstrap adds "
        "intervals from resampling systems.",
    )
    correlate.add_argument("--human", required=True, metavar="FILE")
    correlate.add_argument("--metrics", required=True, metavar="FILE", dest="metric_file")
    correlate.add_argument("--criterion", metavar="NAME", help="the human column to use")
    correlate.add_argument("--exclude", nargs="+", default=[], metavar="SYS")
    add_resampling_arguments(correlate, "intervals from resampling the systems")
    correlate.add_argument("--format", choices=("text", "json"), default="text")
    correlate.set_defaults(run=run)


def _read_table(path: str) -> HumanScores:
    from mteval_core.io import read_bytes, read_human

    return read_human(read_bytes(path), path)


def _read_metric_table(path: str) -> dict[str, dict[str, float]]:
    """metric -> system -> score from a system-level table: a 'system' column and one column per
    metric, named as in its header; a column without a single number (e.g. notes) is skipped."""
    from mteval_core.io import decode, read_bytes
    from mteval_core.io.delimited import read_table

    table = read_table(decode(read_bytes(path), path), path)
    columns = {name.lower(): name for name in table.header}
    hint = "The metric table needs a 'system' column and one column per metric, one row per system."
    if "system" not in columns:
        raise InputError(
            "there is no 'system' column", origin=path, line=table.header_line, hint=hint
        )
    system_column = columns["system"]
    first_line: dict[str, int] = {}
    for row in table.rows:
        name = row.cells[system_column].strip()
        if not name:
            raise InputError(
                "the system is empty", origin=path, line=row.line, column=system_column, hint=hint
            )
        if name in first_line:
            raise InputError(
                f"system {name!r} already has a row (line {first_line[name]})",
                origin=path,
                line=row.line,
                hint=hint,
            )
        first_line[name] = row.line
    metrics: dict[str, dict[str, float]] = {}
    for column in table.header:
        values = [_finite_number(row.cells[column]) for row in table.rows]
        if column == system_column or all(value is None for value in values):
            continue
        for row, value in zip(table.rows, values):
            if value is None:
                cell = row.cells[column].strip()
                raise InputError(
                    f"{cell!r} is not a number" if cell else "the score is empty",
                    origin=path,
                    line=row.line,
                    column=column,
                    hint="Give every system a number in every metric column.",
                )
        metrics[column] = {
            row.cells[system_column].strip(): value for row, value in zip(table.rows, values)
        }
    if not metrics:
        raise InputError(
            "there is no column of scores", origin=path, line=table.header_line, hint=hint
        )
    return metrics


def _finite_number(cell: str) -> float | None:
    try:
        value = float(cell)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _system_means(human: HumanScores, criterion: str) -> dict[str, float]:
    """System scores from system rows, or the mean of segment rows (raters averaged first)."""
    rows = human.system_rows[human.system_rows["criterion"] == criterion]
    if len(rows):
        return dict(zip(rows["system"], rows["score"].astype(float)))
    segments = human.segment_rows[human.segment_rows["criterion"] == criterion]
    per_segment = segments.groupby(["system", "segment"], sort=False)["score"].mean()
    return per_segment.groupby(level=0, sort=False).mean().to_dict()


def run(args: argparse.Namespace) -> str:
    from mteval_core.human import default_criterion
    from mteval_core.stats.meta import correlate_tables

    human = _read_table(args.human)
    criterion = args.criterion or default_criterion(human)
    if criterion not in human.criteria:
        raise InputError(
            f"no column or criterion {criterion!r}",
            origin=args.human,
            hint=f"It has: {', '.join(human.criteria)}.",
        )
    metrics = _read_metric_table(args.metric_file)
    human_scores = _system_means(human, criterion)
    known = list(dict.fromkeys([*human_scores, *(s for m in metrics.values() for s in m)]))
    check_excluded(args.exclude, known)
    results = correlate_tables(human_scores, metrics, args.exclude, bootstrap_options(args))
    if args.format == "json":
        records = {metric: statistics.to_dict() for metric, statistics in results.items()}
        return json.dumps(records, indent=2, allow_nan=False) + "\n"
    return render_correlations(results, f"human: {criterion}")
