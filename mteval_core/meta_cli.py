"""The meta-evaluation parts of the command line: `mteval correlate`, and `mteval score`'s
--human, --criterion, --exclude, --bootstrap and --seed."""

from __future__ import annotations

import argparse
import json

from mteval_core.errors import InputError
from mteval_core.scoring import Scores
from mteval_core.testset import HumanScores, TestSet

DEFAULT_RESAMPLES_SEED = 12345


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
        type=int,
        default=0,
        metavar="N",
        help="N bootstrap resamples: confidence intervals and paired tests",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_RESAMPLES_SEED, metavar="S")


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
    correlate.add_argument("--bootstrap", type=int, default=0, metavar="N")
    correlate.add_argument("--seed", type=int, default=DEFAULT_RESAMPLES_SEED, metavar="S")
    correlate.add_argument("--format", choices=("text", "json"), default="text")
    correlate.set_defaults(run=run_correlate)


def _bootstrap_options(args: argparse.Namespace):
    from mteval_core.stats.bootstrap import BootstrapOptions

    if args.bootstrap < 0:
        raise InputError(f"--bootstrap must be 0 or more, got {args.bootstrap}")
    return BootstrapOptions(args.bootstrap, args.seed) if args.bootstrap else None


def _read_table(path: str, criterion: str | None = None) -> HumanScores:
    from mteval_core.io import read_bytes, read_human

    return read_human(read_bytes(path), path, criterion=criterion)


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
    metric_table = _read_table(args.metric_file)
    metrics = {name: _system_means(metric_table, name) for name in metric_table.criteria}
    results = correlate_tables(
        _system_means(human, criterion), metrics, args.exclude, _bootstrap_options(args)
    )
    if args.format == "json":
        return json.dumps(results, indent=2) + "\n"
    return render_correlations(results, f"human: {criterion}")


def meta_evaluation(args: argparse.Namespace, test_set: TestSet, scores: Scores) -> dict:
    """What --human and --bootstrap add to `mteval score`, as JSON-ready data."""
    if not (args.human or args.bootstrap):
        return {}  # and scipy, which the statistics need, is not even imported
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
    return evaluate(
        test_set,
        scores,
        criterion=args.criterion,
        exclude=args.exclude,
        rated_only=args.rated_segments_only,
        bootstrap=_bootstrap_options(args),
        negated_on_load=args.human_lower_is_better,
    )


def render_correlations(results: dict[str, dict], title: str) -> str:
    """An aligned table: one row per metric, intervals where there are some."""
    header = ["metric", "n", "pearson", "spearman", "kendall"]
    rows = []
    for metric, r in results.items():
        cells = [metric, str(r["n"])]
        for name in ("pearson", "spearman", "kendall"):
            interval = r.get(f"{name}_ci")
            cell = f"{r[name]:.3f}"
            cells.append(f"{cell} [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else cell)
        rows.append(cells)
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [title]
    for row in [header, *rows]:
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))
            )
        )
    return "\n".join(lines) + "\n"


def render_meta_text(extra: dict) -> str:
    """The --human / --bootstrap additions to the text output of `mteval score`."""
    lines = []
    if "correlations" in extra:
        lines.append(
            render_correlations(
                extra["correlations"], f"correlation with human {extra['human']['criterion']}:"
            )
        )
    if "pairs" in extra:
        significant = [p for p in extra["pairs"] if p["p_holm"] < 0.05]
        lines.append(
            f"paired bootstrap: {len(significant)} of {len(extra['pairs'])} system pairs differ "
            "at p < 0.05 after Holm's correction (see --format json for every pair and interval)"
        )
        smallest = min((p["p"] for p in extra["pairs"]), default=1.0)
        per_metric = len({(p["a"], p["b"]) for p in extra["pairs"]})
        if smallest * per_metric >= 0.05:
            lines.append(
                f"note: the smallest possible p-value with these resamples is {smallest:.4f}; "
                f"Holm multiplies it by up to {per_metric} pairs, so nothing can reach 0.05. "
                "Use more resamples (--bootstrap)."
            )
    return "\n".join(lines) + ("\n" if lines else "")
