"""Writers: scores as plain text, JSON, CSV and LaTeX, every one carrying the signature, and the
command line's text reports of correlations, paired tests and losses. All text rendering is here.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from mteval_core.metrics.external import ExternalMetric
from mteval_core.metrics.scoring import Scores
from mteval_core.settings.limits import MAX_RESAMPLES
from mteval_core.stats.bootstrap import fewest_interval_resamples
from mteval_core.stats.significance import (
    SIGNIFICANCE_LEVEL,
    PairedTest,
    resamples_needed,
    smallest_reachable_p,
    why_no_p_values,
)
from mteval_core.stats.undefined import UNDEFINED

if TYPE_CHECKING:
    from mteval_core.loss.average import Costs
    from mteval_core.metrics.base import Metric
    from mteval_core.stats.approximate_randomization import RandomizationResult
    from mteval_core.stats.correlation import SystemCorrelations
    from mteval_core.stats.meta import MetaEvaluation
    from mteval_core.stats.significance import BootstrapResult

# system -> metric -> [low, high], as ``bootstrap_scores(...).ci`` gives and JSON's "ci" holds
Intervals = Mapping[str, Mapping[str, Sequence[float]]]


def metric_labels(metrics: Sequence[Metric]) -> dict[str, str]:
    """metric name -> the label people read ("bleu" -> "BLEU"), one per metric on every page,
    figure, table and download; the names stay the keys of the JSON reports, which programs read.

    A label two metrics share (an uploaded metric named "P" beside unigram precision's "P") is
    followed by each one's name, so that no two columns get the same header.
    """
    shared = Counter(metric.label for metric in metrics)
    return {m.name: m.label if shared[m.label] == 1 else f"{m.label} ({m.name})" for m in metrics}


def render_scores(
    form: str,
    scores: Scores,
    *,
    meta: MetaEvaluation | None = None,
    report: Mapping | None = None,
    segments: bool = False,
    documents: Sequence[str] | None = None,
) -> str:
    """What `mteval score` prints in ``form`` (text, json, csv or latex), in memory and with
    --shards alike. ``report`` is the JSON's sections beyond the scores (``meta.to_dict()`` and
    what the run adds: the segment level, the shards); the text shows ``meta`` and the segment
    level from ``report``. CSV and LaTeX hold scores only: the command refuses the rest first."""
    if form == "json":
        return to_json(scores, segments, documents, dict(report) if report else None) + "\n"
    if form == "csv":
        return to_csv(scores, segments=segments, documents=documents)
    if form == "latex":
        return to_latex(scores)
    text = to_text(scores, segments=segments) + (render_meta_text(meta) if meta else "")
    return text + (render_segment_level_text(report) if report else "")


def to_json(
    scores: Scores,
    segments: bool = False,
    documents: Sequence[str] | None = None,
    extra: dict | None = None,
    labelled: bool = False,
) -> str:
    """{"signature", "signatures": {metric: signature}, "scores": {system: {metric: x}},
    "segments": {system: {metric: [x...]}}}, and "documents": {system: {metric: {document: x}}}
    when document ids are given. "signature" is the run's; "signatures" gives each metric its
    own, as sacreBLEU prints one per metric (TER's says case:lc where BLEU's says case:mixed).

    ``labelled`` (the dashboard's download) adds "metric_labels": {metric: label}, so that a
    reader can show the labels the dashboard showed; the keys stay the metric names either way.
    """
    out: dict[str, object] = {"signature": scores.signature}
    if scores.signatures:
        out["signatures"] = {
            m: scores.signatures[m] for m in scores.metric_names if m in scores.signatures
        }
    if external := external_metrics(scores):
        out["external"] = {
            metric.name: {
                "higher_is_better": metric.higher_is_better,
                "scale": metric.signature.scale,
                "signature": metric.signature.describe(),
            }
            for metric in external
        }
    out["scores"] = scores.corpus()
    if labelled:
        out["metric_labels"] = metric_labels(scores.metrics)
    if segments:
        out["segments"] = {
            system: {metric: _numbers_or_null(values) for metric, values in by_metric.items()}
            for system, by_metric in scores.segments().items()
        }
    if documents is not None:
        out["documents"] = {
            system: {
                metric: dict(zip(by_document, _numbers_or_null(list(by_document.values()))))
                for metric, by_document in by_metric.items()
            }
            for system, by_metric in scores.documents(documents).items()
        }
    out.update(
        extra or {}
    )  # e.g. "human", "correlations", "ci", "pairs" (see mteval_core.cli.score)
    # NaN and Infinity are not JSON: a statistic without a value is null with its reason (see
    # stats.undefined), so a NaN here is a bug, and it stops the writer rather than a reader.
    return json.dumps(out, indent=2, ensure_ascii=False, default=float, allow_nan=False)


def _numbers_or_null(values: Sequence[float]) -> list[float | None]:
    """A segment or document without a score (an external metric's file scores none) as None:
    null in JSON, never NaN nor 0."""
    array = np.asarray(values, dtype=np.float64)
    if not np.isnan(array).any():
        return array.tolist()
    return [None if math.isnan(value) else value for value in array.tolist()]


def _cell(value: float) -> str:
    """A number as a CSV cell keeps it (repr); no score is an empty cell."""
    return "" if math.isnan(value) else repr(float(value))


def to_csv(
    scores: Scores,
    segments: bool = False,
    documents: Sequence[str] | None = None,
    ci: Intervals | None = None,
    labelled: bool = False,
    interval_note: str | None = None,
) -> str:
    """One row per system (or per system and segment, or per system and document); the
    signature in its own, last column.

    ``ci`` adds ``<metric>_low`` and ``<metric>_high`` columns to the system table, after the
    score columns, so readers that go by column name (or by the first columns) keep working. A
    metric that ``ci`` leaves out (system scores only: nothing was resampled, see
    ``Scores.without_segments``) gets empty cells there, as a missing number in a CSV file; the
    JSON download says why.
    ``labelled`` (the dashboard's download) heads the columns as the dashboard's table does:
    the metrics' labels, ``<label> low`` and ``<label> high``, instead of the command line's names.
    ``interval_note`` (the intervals are from too few resamples, see
    ``BootstrapOptions.too_few_for_intervals``) is said in an ``interval_note`` column of every
    row, before the signature: a reader of the bounds alone meets it.
    """
    if ci and (segments or documents is not None):
        raise ValueError("intervals belong to corpus scores, not to segments or documents")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    metrics = scores.metric_names
    if labelled:
        headers, separator = metric_labels(scores.metrics), " "
    else:
        headers, separator = {m: m for m in metrics}, "_"
    named = [headers[m] for m in metrics]
    if documents is not None:
        writer.writerow(["system", "document", *named, "signature"])
        for system, by_metric in scores.documents(documents).items():
            for document in by_metric[metrics[0]]:
                values = [_cell(by_metric[m][document]) for m in metrics]
                writer.writerow([system, document, *values, scores.signature])
    elif segments:
        writer.writerow(["system", "segment", *named, "signature"])
        for system, by_metric in scores.segments().items():
            columns = [by_metric[m] for m in metrics]
            for index, values in enumerate(zip(*columns, strict=True), start=1):
                writer.writerow([system, index, *map(_cell, values), scores.signature])
    else:
        ends = ("low", "high") if ci else ()
        bounds = [f"{headers[m]}{separator}{end}" for m in metrics for end in ends]
        noted = [f"interval{separator}note"] if ci and interval_note else []
        writer.writerow(["system", *named, *bounds, *noted, "signature"])
        for system, by_metric in scores.corpus().items():
            values = [repr(by_metric[m]) for m in metrics]
            if ci:
                values += [cell for m in metrics for cell in _interval_cells(ci[system].get(m))]
            values += [interval_note] if noted else []
            writer.writerow([system, *values, scores.signature])
    return out.getvalue()


def _interval_cells(interval: Sequence[float] | None) -> list[str]:
    """A row's low and high cells: the bounds, or two empty cells where there is no interval."""
    return ["", ""] if interval is None else [repr(float(bound)) for bound in interval]


def to_text(scores: Scores, segments: bool = False) -> str:
    """An aligned table for people, systems in input order, then the signature."""
    metrics = scores.metric_names
    labels = list(metric_labels(scores.metrics).values())
    rows = [
        [system, *(metric.format(by_metric[metric.name]) for metric in scores.metrics)]
        for system, by_metric in scores.corpus().items()
    ]
    lines = _align(["system", *labels], rows)
    if segments:
        for system, by_metric in scores.segments().items():
            lines.append("")
            lines.append(f"segments of {system}:")
            seg_rows = [
                [str(i), *(_formatted(m, by_metric[m.name][i - 1]) for m in scores.metrics)]
                for i in range(1, len(by_metric[metrics[0]]) + 1)
            ]
            lines.extend(_align(["segment", *labels], seg_rows))
    lines.append("")
    lines.append(f"signature: {scores.signature}")
    lines += [
        f"{metric.name}: computed elsewhere, {metric.direction_and_scale}"
        for metric in external_metrics(scores)
    ]
    return "\n".join(lines) + "\n"


def external_metrics(scores: Scores) -> list[ExternalMetric]:
    """The metrics whose numbers come from files (each says its direction and scale)."""
    return [metric for metric in scores.metrics if isinstance(metric, ExternalMetric)]


def _formatted(metric: Metric, value: float) -> str:
    """A score as the text table prints it; "undefined" where there is none (a segment an
    external metric's file does not score)."""
    return UNDEFINED if math.isnan(value) else metric.format(float(value))


def _align(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths))
        )
        for row in [header, *rows]
    ]


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def to_latex(scores: Scores, ci: Intervals | None = None, interval_note: str | None = None) -> str:
    """A booktabs table (best score per metric in bold) with the signature in the caption.

    With ``ci``, each system's row is followed by a row of its intervals, ``[low, high]`` in
    \\scriptsize under each score, and the caption says so: a second row needs no extra LaTeX
    package, and a "±" would wrongly suggest that bootstrap intervals are symmetric. A metric
    that ``ci`` leaves out (system scores only, see ``Scores.without_segments``) reads
    "undefined" there, and the caption gives the reason, as it gives ``interval_note`` (too few
    resamples).
    """
    metrics = scores.metric_names
    labels = metric_labels(scores.metrics)
    corpus = scores.corpus()
    best = {m: max(by_metric[m] for by_metric in corpus.values()) for m in metrics}
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\begin{tabular}{l" + "r" * len(metrics) + "}",
        r"\toprule",
        "System & " + " & ".join(latex_escape(labels[m]) for m in metrics) + r" \\",
        r"\midrule",
    ]
    for system, by_metric in corpus.items():
        cells = []
        for metric in scores.metrics:
            m = metric.name
            cell = metric.format(by_metric[m])
            cells.append(rf"\textbf{{{cell}}}" if by_metric[m] == best[m] else cell)
        lines.append(latex_escape(system) + " & " + " & ".join(cells) + r" \\")
        if ci:
            cells = [_latex_interval(m, ci[system].get(m.name)) for m in scores.metrics]
            lines.append(" & " + " & ".join(cells) + r" \\")
    intervals = " Below each score: its bootstrap confidence interval." if ci else ""
    if ci:
        intervals += "".join(
            f" Intervals {UNDEFINED} for {latex_escape(labels[metric])}: {latex_escape(why)}."
            for metric, why in scores.not_resampled().items()
        )
        if interval_note:
            intervals += f" Note: {latex_escape(interval_note)}."
    lines += [
        r"\bottomrule",
        r"\end{tabular}",
        r"\caption{Scores computed with mteval."
        + intervals
        + r" Signature: \texttt{"
        + latex_escape(scores.signature)
        + "}}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


def _latex_interval(metric: Metric, interval: Sequence[float] | None) -> str:
    """``[low, high]`` in \\scriptsize, or "undefined" where the metric has no interval."""
    if interval is None:
        return rf"{{\scriptsize {UNDEFINED}}}"
    low, high = (metric.format(bound) for bound in interval)
    return rf"{{\scriptsize [{low}, {high}]}}"


# ------------------------------------------------------------- the command line's text reports
DISPLAYED = ("pearson", "spearman", "kendall")  # the statistics of the text table


def render_correlations(results: Mapping[str, SystemCorrelations], title: str) -> str:
    """An aligned table: one row per metric, intervals where there are some, "undefined" where
    a statistic has no value, and a note per metric that says why."""
    header = ["metric", "n", *DISPLAYED]
    rows, notes = [], []
    for metric, statistics in results.items():
        cells = [metric, str(statistics.n)]
        for name in DISPLAYED:
            value = getattr(statistics, name)
            cell = UNDEFINED if value is None else f"{value:.3f}"
            if value is not None and statistics.resampled:
                interval = getattr(statistics, f"{name}_ci")
                cell += (
                    f" [{UNDEFINED}]" if interval is None else " [{:.3f}, {:.3f}]".format(*interval)
                )
            cells.append(cell)
        rows.append(cells)
        by_reason: dict[str, list[str]] = {}
        for key, reason in statistics.undefined.items():
            statistic = key.removesuffix("_ci")  # an interval is news only if its statistic is not
            if key in DISPLAYED or (
                statistic in DISPLAYED and getattr(statistics, statistic) is not None
            ):
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


def render_meta_text(meta: MetaEvaluation) -> str:
    """The --human / --bootstrap additions to the text output of `mteval score`."""
    lines = []
    if meta.human is not None:
        title = f"correlation with human {meta.human.criterion}:"
        lines.append(render_correlations(meta.correlations, title))
    if meta.resampled is not None:
        lines += _bootstrap_lines(meta.resampled)
    return "\n".join(lines) + ("\n" if lines else "")


def _bootstrap_lines(resampled: BootstrapResult) -> list[str]:
    """How many pairs differ (or why no p-value is defined), what the resamples are too few
    for, and the metrics without intervals, with the reasons."""
    pairs = resampled.pairs
    resamples = resampled.options.n_resamples
    lines = []
    without_p = why_no_p_values(pairs)
    if not pairs:
        lines.append("paired bootstrap: there is only one system, so no pair to compare")
    elif without_p:
        lines.append(f"paired bootstrap: p-values undefined ({without_p})")
    else:
        lines.append(
            f"paired bootstrap: {_pairs_that_differ(pairs)} at p < {SIGNIFICANCE_LEVEL} after "
            "Holm's correction (see --format json for every pair and interval)"
        )
        per_metric = len({(pair.a, pair.b) for pair in pairs})
        floor = smallest_reachable_p(resamples, per_metric)
        if floor >= SIGNIFICANCE_LEVEL:
            noun = f"{per_metric} pair" + ("s" if per_metric > 1 else "")
            lines.append(
                f"note: with {resamples:,} resamples the smallest possible p-value is "
                f"1/{resamples + 1:,}, {floor:.4f} after Holm's correction over {noun}, so no "
                f"pair can reach p < {SIGNIFICANCE_LEVEL}. Use at least "
                f"{math.ceil(per_metric / SIGNIFICANCE_LEVEL):,} resamples (--bootstrap)."
            )
    lines += [f"undefined for {m}: {why}" for m, why in resampled.undefined.items()]
    note = resampled.options.too_few_for_intervals
    if note and resampled.samples:  # intervals were drawn, from too few resamples
        needed = fewest_interval_resamples(resampled.options.confidence)
        lines.append(f"note: {note} (give --bootstrap {needed} or more)")
    return lines


def _pairs_that_differ(pairs: Sequence[PairedTest]) -> str:
    """ "4 of 6 system pairs differ", counted per metric when there are several (each metric
    tests every pair of systems: 2 metrics over 4 systems are 6 pairs twice, not 12 pairs)."""
    by_metric: dict[str, list[PairedTest]] = {}
    for pair in pairs:
        by_metric.setdefault(pair.metric, []).append(pair)
    counts = {
        metric: f"{sum(p.significant for p in tested)} of {len(tested)}"
        for metric, tested in by_metric.items()
    }
    if len(counts) == 1:
        return f"{next(iter(counts.values()))} system pairs differ"
    per_metric = ", ".join(f"{metric} {count}" for metric, count in counts.items())
    return f"system pairs that differ, per metric: {per_metric},"


def render_randomization_text(result: RandomizationResult) -> str:
    """What --paired-ar adds to the text output: how many pairs differ, and each metric's
    significance clusters, best first (or why the p-values are undefined)."""
    pairs = result.pairs
    trials = result.options.n_trials
    if not pairs:
        return "paired approximate randomization: there is no pair of systems to compare\n"
    heading = f"paired approximate randomization ({trials:,} trials, seed {result.options.seed})"
    without_p = why_no_p_values(pairs)
    if without_p:
        return f"{heading}: p-values undefined ({without_p})\n"
    lines = [
        f"{heading}: {_pairs_that_differ(pairs)} at p < {SIGNIFICANCE_LEVEL} after Holm's "
        "correction (see --format json for every pair)"
    ]
    for metric, clusters in result.clusters.items():
        ranked = ", ".join(f"{c.cluster}:{c.system}" for c in clusters)
        lines.append(f"  clusters by {metric} (cluster:system, best first): {ranked}")
    per_metric = len({(pair.a, pair.b) for pair in pairs})
    if smallest_reachable_p(trials, per_metric) >= SIGNIFICANCE_LEVEL:
        lines.append(
            f"note: with {trials:,} trials no pair can reach p < {SIGNIFICANCE_LEVEL} after "
            f"Holm's correction over {per_metric} pairs; use at least "
            f"{resamples_needed(per_metric):,} (--paired-ar)"
        )
    lines += [f"undefined for {m}: {why}" for m, why in result.undefined.items()]
    return "\n".join(lines) + "\n"


def render_comet_compare_text(compared: dict[str, list[dict]]) -> str:
    """What --comet-compare adds to the text output: per metric, each pair's bootstrap means and
    shares of splits, and the paired t-test, as comet-compare prints them (4 decimals)."""
    lines = []
    for metric, pairs in compared.items():
        lines.append(f"comet-compare's bootstrap and paired t-tests under {metric}:")
        header = ("x", "y", "x-mean", "y-mean", "ties", "x_wins", "y_wins", "t", "p_value")
        rows = [
            (
                pair["x"],
                pair["y"],
                *(
                    f"{pair[key]:.4f}"
                    for key in (
                        "x_mean",
                        "y_mean",
                        "ties",
                        "x_wins",
                        "y_wins",
                        "t_statistic",
                        "p_value",
                    )
                ),
            )
            for pair in pairs
        ]
        widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
        for row in [header, *rows]:
            cells = (str(cell).ljust(width) for cell, width in zip(row, widths, strict=True))
            lines.append(("  " + "  ".join(cells)).rstrip())
    return "\n".join(lines) + "\n"


SEGMENT_COLUMNS = ("pearson_none", "pearson_item", "pearson_system", "kendall_like_item")
SEGMENT_COLUMNS += ("acc_eq_item",)  # the main statistics of mt-metrics-eval's tables
SYSTEM_ACCURACY_COLUMNS = ("spa", "pairwise_accuracy_with_ties")


def render_segment_level_text(report: Mapping) -> str:
    """What --segment-level and --rank-metrics add to the text output: a table of the main
    segment-level statistics (intervals when resampled) with the constant baseline, and the
    ranking; "" when neither was asked for."""
    lines: list[str] = []
    correlations = report.get("segment_correlations")
    if correlations:
        header = report["segment_level"]
        lines.append(
            f"segment-level agreement with human {header['criterion']} ({header['n_systems']} "
            f"systems, {header['n_cells']:,} rated cells; {header['oriented']}):"
        )
        system = report.get("correlations", {})
        rows = []
        for metric, record in correlations.items():
            cells = [_statistic_cell(record, key) for key in SEGMENT_COLUMNS]
            cells += [
                _statistic_cell(system.get(metric, {}), key) for key in SYSTEM_ACCURACY_COLUMNS
            ]
            rows.append([metric, *cells])
        first = next(iter(correlations.values()))
        baseline = ["" for _ in SEGMENT_COLUMNS[:-1]]
        baseline += [_statistic_cell(first, "constant_baseline_acc_eq_item"), "", ""]
        rows.append(["constant baseline", *baseline])
        lines += _align(["metric", *SEGMENT_COLUMNS, *SYSTEM_ACCURACY_COLUMNS], rows)
        notes = {
            reason
            for record in correlations.values()
            for key, reason in record.get(UNDEFINED, {}).items()
            if key in SEGMENT_COLUMNS
        }
        lines += [f"undefined: {reason}" for reason in sorted(notes)]
        lines.append("(see --format json for every statistic and grouping)")
    ranking = report.get("metric_ranking")
    if ranking:
        lines += _ranking_lines(ranking, report["metric_ranking_statistic"])
    return "\n".join(lines) + ("\n" if lines else "")


def _ranking_lines(ranking: Sequence[Mapping], statistic: str) -> list[str]:
    """The ranking as a table (a metric whose statistic is undefined has no rank: "-"), and a
    line per unranked metric saying why."""
    rows = [
        [
            "-" if entry["rank"] is None else str(entry["rank"]),
            entry["metric"],
            _interval_cell(entry["value"], entry["ci"]),
        ]
        for entry in ranking
    ]
    unranked = [
        f"not ranked: {entry['metric']} ({entry[UNDEFINED]['value']})"
        for entry in ranking
        if entry["rank"] is None
    ]
    return [
        f"metrics ranked by {statistic}:",
        *_align(["rank", "metric", "value"], rows),
        *unranked,
    ]


def _statistic_cell(record: Mapping, key: str) -> str:
    value = record.get(key)
    if value is None:
        return UNDEFINED
    return _interval_cell(value, record.get(f"{key}_ci"))


def _interval_cell(value: float | None, interval: Sequence[float] | None) -> str:
    if value is None:
        return UNDEFINED
    return f"{value:.3f}" + ("" if interval is None else " [{:.3f}, {:.3f}]".format(*interval))


def render_loss(
    costs: Costs,
    loss: dict[str, dict[str, float]],
    rankings: dict[str, list[str]],
    by: str | None,
) -> str:
    c1, c2, c3 = (f"{cost:g}" for cost in costs)
    lines = [f"Average loss with costs (-c1, c2, c3) = (-{c1}, {c2}, {c3}); lower is better"]
    for group, values in loss.items():
        width = max(len("system"), *map(len, values))
        lines += ["", group if by is None else f"{by} = {group}"]
        lines.append(f"  {'system':<{width}}  {'loss':>9}")
        lines += [f"  {system:<{width}}  {values[system]:>9.2f}" for system in rankings[group]]
        lines.append(f"  ranking: {' > '.join(rankings[group])}")
    return "\n".join(lines) + "\n"


def too_few_resamples(
    n_resamples: int, n_pairs: int, most_offered: int, n_segments: int
) -> str | None:
    """What to tell a reader whose resamples are too few for any of ``n_pairs`` pairs to reach
    p < ``SIGNIFICANCE_LEVEL`` after Holm's correction, or None when a pair can: how many
    resamples it takes, and where to get them when that is more than a page offers for
    ``n_segments`` segments (``most_offered``) or more than the server allows (``MAX_RESAMPLES``).
    Plain text with no name in it; a page shows it before the figure it explains."""
    floor = smallest_reachable_p(n_resamples, n_pairs)
    if floor < SIGNIFICANCE_LEVEL:
        return None
    needed = resamples_needed(n_pairs)
    if needed <= most_offered:
        where = "."
    elif needed <= MAX_RESAMPLES:
        where = (
            f", more than this page offers for {n_segments:,} segments ({most_offered:,}); the "
            f"command line (mteval score) takes up to {MAX_RESAMPLES:,}."
        )
    else:
        where = (
            f", more than the {MAX_RESAMPLES:,} this server and the command line allow: compare "
            "fewer systems at a time."
        )
    return (
        f"With {n_resamples:,} resamples and Holm's correction over {n_pairs:,} "
        f"pair{'s' if n_pairs != 1 else ''}, the smallest p-value a pair can get is {floor:.4f}: "
        f"no pair can reach p < {SIGNIFICANCE_LEVEL}. "
        f"Choose at least {needed:,} resamples{where}"
    )
