"""``mteval correlate --mtme DIR --test-set NAME --task-set wmt25``: mt-metrics-eval's WMT25 task
set over the language pairs of an mt-metrics-eval folder (``stats.task_sets``).

    mteval correlate --mtme DIR --test-set NAME --task-set wmt25 [--lp LP,LP...]
                     [--reference REF] [--permutations K] [--seed S] [--bootstrap N]
                     [--format text|json]

Per pair: SPA (system level) and acc_eq grouped by item (segment level), each metric's value,
rank and significance cluster from mt-metrics-eval's permutation tests (K per pair of metrics,
its global generator seeded with S: ``np.random.seed(S)`` before its run gives its numbers), and
with --bootstrap N our percentile interval beside each value; then the weighted average and its
clusters. Metrics are named as mt-metrics-eval displays them: ``BLEU`` for BLEU-refA with the
pair's reference, ``COMETKiwi[noref]`` for one that uses no reference.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from mteval_core.errors import InputError
from mteval_core.settings.limits import MAX_TASK_SET_PERMUTATIONS
from mteval_core.stats.task_sets import (
    SPA_TASK,
    PairData,
    TaskSetParams,
    TaskSetResult,
    spa_intervals,
    wmt25_task_set,
)

TASK_NAMES = {SPA_TASK: "pce", "acc_eq_item": "acc-t"}  # as WMT25's tables name them


def run_task_set(args: argparse.Namespace) -> str:
    if args.permutations > MAX_TASK_SET_PERMUTATIONS or args.permutations < 0:
        raise InputError(
            f"--permutations {args.permutations} is outside 0 to {MAX_TASK_SET_PERMUTATIONS:,} "
            "(MAX_TASK_SET_PERMUTATIONS) for --task-set",
            hint="mt-metrics-eval's official runs use 1000; 0 gives the values and order only.",
        )
    pairs, intervals = {}, {}
    for lp in _language_pairs(args):
        pairs[lp], intervals[lp] = _pair_data(args, lp)
    params = TaskSetParams(n_permutations=args.permutations, seed=args.seed)
    result = wmt25_task_set(pairs, params)
    report = task_set_report(result, intervals, args)
    if args.format == "json":
        return json.dumps(report, indent=2, allow_nan=False) + "\n"
    return render_task_set(report)


def _language_pairs(args: argparse.Namespace) -> list[str]:
    """--lp's comma-separated pairs, or every pair of the test set with human segment scores."""
    if args.lp:
        return sorted(dict.fromkeys(lp.strip() for lp in args.lp.split(",") if lp.strip()))
    from pathlib import Path

    from mteval_core.io.mtme import DiskTree, language_pairs

    folder = Path(args.mtme) / args.test_set
    tree = DiskTree(folder)
    found = [
        lp
        for lp in language_pairs(tree)
        if any(
            name.startswith(f"{lp}.") and name.endswith(".seg.score")
            for name in tree.files("human-scores")
        )
    ]
    if not found:
        raise InputError(
            "no language pair of the test set has segment-level human scores",
            origin=str(folder / "human-scores"),
            hint="The task set needs LP.NAME.seg.score files; or name the pairs with --lp.",
        )
    return found


def _pair_data(args: argparse.Namespace, lp: str) -> tuple[PairData, dict]:
    """One pair read as ``correlate --mtme`` reads it: its standard reference (or --reference),
    its human outputs set aside, every metric of that reference or none."""
    from mteval_core.io.mtme import read_mtme
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.settings.options import Options
    from mteval_core.stats import segment_meta

    read = read_mtme(args.mtme, args.test_set, lp, args.reference)
    for note in read.notes:
        print(f"mteval: note: {lp}: {note}", file=sys.stderr)
    origin = f"{args.mtme}/{args.test_set}"
    if read.test_set.human is None or read.criterion is None or not read.external:
        raise InputError(
            f"{lp} has no human scores or no metric scores of reference {read.reference}",
            origin=origin,
            hint="The task set needs human-scores/LP.NAME.seg.score and "
            "metric-scores/LP/METRIC-REF.seg.score for every pair.",
        )
    criterion = args.criterion or read.criterion
    scores = score_test_set(read.test_set, [], Options(), external=read.external)
    matrices = segment_meta.segment_matrices(read.test_set, scores, criterion)
    if not (np.isfinite(matrices.human).sum(axis=0) >= 2).any():
        raise InputError(
            f"{lp}: no segment has human scores of two systems, so acc_eq has no pair",
            origin=f"{origin}/human-scores",
            hint="The task set needs segments that people scored for several systems.",
        )
    order = np.argsort(np.array(matrices.systems, dtype=object))  # mt-metrics-eval: sorted
    names = {name: display_name(name, read.reference) for name in matrices.metrics}
    data = PairData(
        tuple(matrices.systems[i] for i in order),
        matrices.human[order],
        {names[name]: matrix[order] for name, matrix in matrices.metrics.items()},
    )
    return data, _intervals(data, args)


def display_name(name: str, reference: str) -> str:
    """mt-metrics-eval's display name: the base name where the metric uses the pair's
    reference, NAME[noref] where it uses none (its '-src'), the whole name otherwise."""
    if name.endswith(f"-{reference}"):
        return name[: -len(reference) - 1]
    if name.endswith("-src"):
        return name[: -len("-src")] + "[noref]"
    return name


def _intervals(data: PairData, args: argparse.Namespace) -> dict:
    """Our bootstrap intervals (segments resampled, seeded with --seed) of SPA and acc_eq by
    item, per metric."""
    if not args.bootstrap:
        return {}
    from mteval_core.stats.segment_level import SegmentLevelParams, segment_level_statistics

    params = SegmentLevelParams(groupings=("item",), n_resamples=args.bootstrap)
    result = segment_level_statistics(
        data.metrics, data.human, np.random.default_rng(args.seed), params
    )
    spa = spa_intervals(data, args.bootstrap, np.random.default_rng(args.seed))
    return {
        metric.name: {
            SPA_TASK: spa[metric.name],
            "acc_eq_item": metric.grouping("item").acc_eq.interval,
        }
        for metric in result.metrics
    }


def task_set_report(result: TaskSetResult, intervals: dict, args: argparse.Namespace) -> dict:
    """The JSON: every task's metrics best first, then the average."""
    tasks = []
    for number, task in enumerate(result.tasks, start=1):
        rows = []
        for i, (metric, value, rank) in enumerate(zip(task.metrics, task.values, task.ranks)):
            interval = intervals[task.lp].get(metric, {}).get(task.statistic)
            rows.append(
                {
                    "metric": metric,
                    "value": value,
                    "rank": rank,
                    "ci": list(interval) if interval else None,
                    "p_values": [float(p) for p in task.p_values[i, i + 1 :]],
                }
            )
        tasks.append(
            {
                "task": number,
                "lp": task.lp,
                "level": task.level,
                "statistic": task.statistic,
                "weight": result.weights[number - 1],
                "metrics": rows,
            }
        )
    return {
        "task_set": args.task_set,
        "test_set": args.test_set,
        "permutations": args.permutations,
        "seed": args.seed,
        "bootstrap": args.bootstrap,
        "tasks": tasks,
        "average": [{"metric": m, "value": v, "rank": r} for m, v, r in result.average],
    }


def render_task_set(report: dict) -> str:
    """mt-metrics-eval's Table layout (attributes lang, level, corr_fcn; 'rank value' cells),
    with our interval after each value when there is one."""
    tasks = report["tasks"]
    cells = {(row["metric"], task["task"]): _cell(row) for task in tasks for row in task["metrics"]}
    average = {row["metric"]: f"{row['rank']} {row['value']:.3f}" for row in report["average"]}
    metrics = [row["metric"] for row in report["average"]]
    metrics += sorted({m for m, _ in cells} - set(metrics))
    headers = [
        ["lang:", "", *(t["lp"] for t in tasks)],
        ["level:", "", *(t["level"] for t in tasks)],
        ["corr_fcn:", "", *(TASK_NAMES[t["statistic"]] for t in tasks)],
        ["metric", "avg-corr", *(f"task{t['task']}" for t in tasks)],
    ]
    rows = [
        [m, average.get(m, "--"), *(cells.get((m, t["task"]), "--") for t in tasks)]
        for m in metrics
    ]
    widths = [max(len(r[i]) for r in headers + rows) for i in range(len(headers[0]))]
    lines = []
    for k, row in enumerate(headers + rows):
        justified = [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:]))]
        lines.append("  ".join(justified).rstrip())
        if k == len(headers) - 1:
            lines.append("  ".join("-" * w for w in widths))
    significance = "no significance tests (--permutations 0)"
    if report["permutations"]:
        significance = (
            f"ranks: significance clusters from {report['permutations']} permutations per pair "
            f"of metrics (seed {report['seed']}), p <= 0.05"
        )
    lines += ["", significance]
    if report["bootstrap"]:
        lines.append(f"[lo, hi]: 95% bootstrap intervals over {report['bootstrap']} resamples")
    return "\n".join(lines) + "\n"


def _cell(row: dict) -> str:
    text = f"{row['rank']} {row['value']:.3f}"
    if row["ci"]:
        text += f" [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}]"
    return text
