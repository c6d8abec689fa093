"""The meta-evaluation parts of the command line: `mteval correlate`, and `mteval score`'s
--human, --criterion, --exclude, --bootstrap and --seed."""

from __future__ import annotations

import argparse
import json
import math

from mteval_core.errors import InputError
from mteval_core.limits import MAX_RESAMPLES
from mteval_core.scoring import Scores
from mteval_core.stats.undefined import UNDEFINED
from mteval_core.testset import HumanScores, TestSet

DEFAULT_RESAMPLES_SEED = 12345
MAX_SEED = 2**32 - 1  # 32-bit seeds: every numpy generator and most other tools take them
HUMAN_ONLY_OPTIONS = {  # argparse dest -> option: they change the correlations only
    "criterion": "--criterion",
    "exclude": "--exclude",
    "human_lower_is_better": "--human-lower-is-better",
    "rated_segments_only": "--rated-segments-only",
}


def resample_count(text: str) -> int:
    """--bootstrap N: 0 (no resampling) up to MAX_RESAMPLES, checked before any work is done."""
    n = _whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError(
            f"{n} is negative; give 0 (no resampling) or a number of resamples up to "
            f"{MAX_RESAMPLES:,}"
        )
    if n > MAX_RESAMPLES:
        raise argparse.ArgumentTypeError(
            f"{n:,} resamples are more than the limit of {MAX_RESAMPLES:,} (1,000 to 10,000 "
            "are usual)"
        )
    return n


def seed(text: str) -> int:
    """--seed S: a whole number from 0 to 2**32 - 1 (numpy refuses negative seeds)."""
    value = _whole_number(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"{value} is not a seed; give a whole number from 0 to {MAX_SEED}"
        )
    return value


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def add_meta_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--human",
        metavar="FILE",
        help="human judgments (CSV/TSV: system, segment_id, score[, rater, criterion], or "
        "system-level rows); adds the human system scores and each metric's correlations",
    )
    parser.add_argument(
        "--criterion",
        metavar="NAME",
        help="which human criterion, or a sum such as adequacy+fluency (default: that sum when "
        "both exist, else the only criterion)",
    )
    parser.add_argument(
        "--exclude",
        nargs="+",
        default=[],
        metavar="SYS",
        help="systems left out of the correlations (outliers, human references)",
    )
    parser.add_argument(
        "--human-lower-is-better",
        action="store_true",
        help="the human scores count errors (e.g. MQM points): negate them on load",
    )
    parser.add_argument(
        "--rated-segments-only",
        action="store_true",
        help="compute each metric on the segments its system was rated on",
    )
    parser.add_argument(
        "--bootstrap",
        type=resample_count,
        default=0,
        metavar="N",
        help=f"N bootstrap resamples (at most {MAX_RESAMPLES:,}): confidence intervals and "
        "paired tests",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=DEFAULT_RESAMPLES_SEED,
        metavar="S",
        help=f"seed of the resamples, 0 to {MAX_SEED} (default: %(default)s)",
    )


def add_correlate_command(commands: argparse._SubParsersAction) -> None:
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
    correlate.add_argument(
        "--bootstrap",
        type=resample_count,
        default=0,
        metavar="N",
        help=f"N resamples of the systems (at most {MAX_RESAMPLES:,}) for intervals",
    )
    correlate.add_argument("--seed", type=seed, default=DEFAULT_RESAMPLES_SEED, metavar="S")
    correlate.add_argument("--format", choices=("text", "json"), default="text")
    correlate.set_defaults(run=run_correlate)


def _bootstrap_options(args: argparse.Namespace):
    from mteval_core.stats.bootstrap import BootstrapOptions

    return BootstrapOptions(args.bootstrap, args.seed) if args.bootstrap else None


def _check_excluded(excluded: list[str], known: list[str]) -> None:
    """An --exclude of a system that is not there is a typo, not a no-op: say so."""
    for name in excluded:
        if name not in known:
            raise InputError(
                f"--exclude {name}: there is no system {name!r}",
                hint=f"The systems are: {', '.join(known)}.",
            )


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


def run_correlate(args: argparse.Namespace) -> str:
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
    _check_excluded(args.exclude, known)
    results = correlate_tables(human_scores, metrics, args.exclude, _bootstrap_options(args))
    if args.format == "json":
        return json.dumps(results, indent=2, allow_nan=False) + "\n"
    return render_correlations(results, f"human: {criterion}")


def meta_evaluation(args: argparse.Namespace, test_set: TestSet, scores: Scores) -> dict:
    """What --human and --bootstrap add to `mteval score`, as JSON-ready data."""
    if not args.human:
        given = [option for dest, option in HUMAN_ONLY_OPTIONS.items() if getattr(args, dest)]
        if given:
            options = ", ".join(given)
            raise InputError(
                f"{options} {'needs' if len(given) == 1 else 'need'} --human: "
                f"{'it changes' if len(given) == 1 else 'they change'} only the correlations "
                "with human judgments",
                hint=f"Give the judgments with --human FILE, or leave out {options}.",
            )
    _check_excluded(args.exclude, scores.systems)
    if not (args.human or args.bootstrap):
        return {}  # and scipy, which the statistics need, is not even imported
    from dataclasses import asdict

    from mteval_core.stats.meta import evaluate

    if args.human:
        from mteval_core.io import read_bytes, read_human

        judgments = read_human(
            read_bytes(args.human),
            args.human,
            documents=test_set.documents,
            lower_is_better=args.human_lower_is_better,
        )
        test_set = test_set.with_human(judgments)  # checks systems and segments
    bootstrap = _bootstrap_options(args)
    result = evaluate(
        test_set,
        scores,
        criterion=args.criterion,
        exclude=args.exclude,
        rated_only=args.rated_segments_only,
        bootstrap=bootstrap,
        negated_on_load=args.human_lower_is_better,
    )
    return {**result, "bootstrap": asdict(bootstrap)} if bootstrap else result


DISPLAYED = ("pearson", "spearman", "kendall")  # the statistics of the text table


def render_correlations(results: dict[str, dict], title: str) -> str:
    """An aligned table: one row per metric, intervals where there are some, "undefined" where
    a statistic has no value, and a note per metric that says why."""
    header = ["metric", "n", *DISPLAYED]
    rows, notes = [], []
    for metric, r in results.items():
        cells = [metric, str(r["n"])]
        for name in DISPLAYED:
            cell = UNDEFINED if r[name] is None else f"{r[name]:.3f}"
            if r[name] is not None and f"{name}_ci" in r:
                interval = r[f"{name}_ci"]
                cell += (
                    f" [{UNDEFINED}]" if interval is None else " [{:.3f}, {:.3f}]".format(*interval)
                )
            cells.append(cell)
        rows.append(cells)
        by_reason: dict[str, list[str]] = {}
        for key, reason in r[UNDEFINED].items():
            statistic = key.removesuffix("_ci")  # an interval is news only if its statistic is not
            if key in DISPLAYED or (statistic in DISPLAYED and r[statistic] is not None):
                by_reason.setdefault(reason, []).append(key)
        notes += [
            f"{metric}: {', '.join(keys)} undefined ({why})" for why, keys in by_reason.items()
        ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [title]
    for row in [header, *rows]:
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))
            )
        )
    return "\n".join(lines + notes) + "\n"


def render_meta_text(extra: dict) -> str:
    """The --human / --bootstrap additions to the text output of `mteval score`."""
    from mteval_core.stats.bootstrap import SIGNIFICANCE_LEVEL, smallest_reachable_p

    lines = []
    if "correlations" in extra:
        lines.append(
            render_correlations(
                extra["correlations"], f"correlation with human {extra['human']['criterion']}:"
            )
        )
    if "pairs" in extra and not extra["pairs"]:
        lines.append("paired bootstrap: there is only one system, so no pair to compare")
    elif "pairs" in extra:
        significant = [p for p in extra["pairs"] if p["p_holm"] < SIGNIFICANCE_LEVEL]
        lines.append(
            f"paired bootstrap: {len(significant)} of {len(extra['pairs'])} system pairs differ "
            f"at p < {SIGNIFICANCE_LEVEL} after Holm's correction (see --format json for every "
            "pair and interval)"
        )
        resamples = extra["bootstrap"]["n_resamples"]
        per_metric = len({(p["a"], p["b"]) for p in extra["pairs"]})
        floor = smallest_reachable_p(resamples, per_metric)
        if floor >= SIGNIFICANCE_LEVEL:
            pairs = f"{per_metric} pair" + ("s" if per_metric > 1 else "")
            lines.append(
                f"note: with {resamples:,} resamples the smallest possible p-value is "
                f"1/{resamples + 1:,}, {floor:.4f} after Holm's correction over {pairs}, so no "
                f"pair can reach p < {SIGNIFICANCE_LEVEL}. Use at least "
                f"{math.ceil(per_metric / SIGNIFICANCE_LEVEL):,} resamples (--bootstrap)."
            )
    return "\n".join(lines) + ("\n" if lines else "")
