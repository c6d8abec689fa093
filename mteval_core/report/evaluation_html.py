"""`mteval report` and the dashboard's report download: one self-contained HTML page (no script,
no font, style sheet or picture from elsewhere, so it opens offline and can be attached to a
paper) with the scores, the significance clusters, the correlations with human scores where
there are some, the comparison of one pair (``comparison_html``'s sections) and the signatures.
Every string from the user (test set, system, reference and metric names, segments) is
HTML-escaped."""

from __future__ import annotations

from html import escape

from mteval_core.report.comparison_html import STYLE, comparison_sections, html_table
from mteval_core.report.evaluation_report import EvaluationReport, ranked_systems
from mteval_core.report.ranking_rows import ranking_rows
from mteval_core.report.rankings_html import rank_ranges_svg, ranking_table
from mteval_core.report.writers import external_metrics, metric_labels
from mteval_core.stats.significance import SIGNIFICANCE_LEVEL

CORRELATIONS = ("pearson", "spearman", "kendall")


def evaluation_html(report: EvaluationReport) -> str:
    name = escape(report.test_set_name)
    references = ", ".join(escape(r) for r in report.reference_names)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>mteval report: {name}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Evaluation of {name}</h1>",
        f"<p>{len(report.scores.systems)} systems, {report.n_segments:,} segments, "
        f"{len(report.reference_names)} reference(s): {references}.</p>",
        *scores_section(report),
        *significance_section(report),
        *autorank_section(report),
        *correlation_section(report),
        *comparison_section(report),
        *signature_section(report),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def scores_section(report: EvaluationReport) -> list[str]:
    scores = report.scores
    labels = metric_labels(scores.metrics)
    corpus = scores.corpus()
    header = ["system", *(escape(labels[m.name]) for m in scores.metrics)]
    rows = [
        [escape(system), *(escape(m.format(corpus[system][m.name])) for m in scores.metrics)]
        for system in ranked_systems(scores)
    ]
    first = escape(labels[scores.metrics[0].name]) if scores.metrics else ""
    return [
        "<h2>Scores</h2>",
        f"<p>Corpus scores, best first under {first}.</p>",
        html_table(header, rows),
        *(f"<p>Note: {escape(note)}</p>" for note in scores.notes),
    ]


def significance_section(report: EvaluationReport) -> list[str]:
    result = report.randomization
    if result is None:
        return []
    labels = metric_labels(report.scores.metrics)
    parts = [
        "<h2>Significance clusters</h2>",
        f"<p>Paired approximate randomization ({result.options.n_trials:,} trials, seed "
        f"{result.options.seed}, as sacreBLEU's paired approximate randomization), "
        f"Holm-corrected over each metric's pairs. A system opens a new cluster when a system of "
        f"the current cluster is significantly better (p &lt; {SIGNIFICANCE_LEVEL}).</p>",
    ]
    for metric, clusters in result.clusters.items():
        parts.append(f"<h3>{escape(labels.get(metric, metric))}</h3>")
        rows = [
            [
                str(c.cluster),
                _rank(c.rank_range),
                escape(c.system),
                f"{c.score:.4f}",
                str(c.significantly_better),
                str(c.significantly_worse),
            ]
            for c in clusters
        ]
        header = ["cluster", "rank", "system", "score", "significantly better", "worse"]
        parts.append(html_table(header, rows))
    parts += [
        f"<p>{escape(labels.get(m, m))}: no paired test ({escape(why)}).</p>"
        for m, why in result.undefined.items()
    ]
    return parts


def autorank_section(report: EvaluationReport) -> list[str]:
    """WMT25's AutoRank of the systems over the report's metrics, as the Rankings page shows it
    without uploads (``rankings.scored_autorank``)."""
    ranking = report.autorank
    if ranking is None:
        return []
    rows = ranking_rows(ranking)
    return [
        "<h2>AutoRank</h2>",
        "<p>WMT25's recipe over the corpus scores: each metric made a robust z-score over the "
        "systems (a lower-is-better metric with its sign flipped), their mean mapped to "
        "[1, N]; 1 is the best. A rank range holds 95% of the system's ranks over the bootstrap "
        "resamples of the segments (the notes say how many).</p>",
        ranking_table(ranking, rows),
        rank_ranges_svg(rows, report.test_set_name),
        *(f"<p>Note: {escape(note)}</p>" for note in ranking.notes),
    ]


def correlation_section(report: EvaluationReport) -> list[str]:
    meta = report.meta
    if meta is None or meta.human is None:
        return []
    labels = metric_labels(report.scores.metrics)
    rows = []
    for metric, statistics in meta.correlations.items():
        cells = [escape(labels.get(metric, metric)), str(statistics.n)]
        for statistic in CORRELATIONS:
            value = getattr(statistics, statistic)
            cells.append("undefined" if value is None else f"{value:.3f}")
        rows.append(cells)
    return [
        "<h2>Correlation with human scores</h2>",
        f"<p>System level, against human {escape(meta.human.criterion)}.</p>",
        html_table(["metric", "systems", *CORRELATIONS], rows),
    ]


def comparison_section(report: EvaluationReport) -> list[str]:
    comparison = report.comparison
    if comparison is None:
        return []
    a, b = (escape(s) for s in comparison.systems)
    reference = escape(report.compared_reference or "")
    return [
        f"<h2>Comparison of {a} and {b}</h2>",
        f"<p>Against the reference {reference} (compare-mt's analyses take one).</p>",
        *comparison_sections(comparison),
    ]


def signature_section(report: EvaluationReport) -> list[str]:
    lines = [("scores", report.scores.signature), ("options", report.options_signature)]
    lines += [(f"metric {m}", s) for m, s in report.scores.signatures.items()]
    if report.comparison is not None:
        lines.append(("comparison", report.comparison.signature))
    rows = [[escape(what), f"<code>{escape(text)}</code>"] for what, text in lines]
    external = [
        [escape(metric.name), escape(metric.direction_and_scale)]
        for metric in external_metrics(report.scores)
    ]
    return [
        "<h2>Signatures</h2>",
        html_table(["of", "signature"], rows, text_columns={1}),
        *(
            ["<p>Metrics computed elsewhere:</p>", html_table(["metric", "reading"], external)]
            if external
            else []
        ),
    ]


def _rank(rank_range: tuple[int, int]) -> str:
    """As WMT prints a rank range: "1-3", or "4" when it is one rank."""
    first, last = rank_range
    return str(first) if first == last else f"{first}–{last}"
