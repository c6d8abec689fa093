"""`mteval compare --format html`: one self-contained page that opens offline, to attach to a
paper or share. Tables for every analysis, each bucket analysis drawn as an inline SVG bar chart
with its intervals (no script, no font or style sheet from elsewhere), the signature. Every
string that comes from the user (system names, segments) is HTML-escaped, in the tables and in
the SVG alike."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

import numpy as np

from mteval_core.compare.analysis import BucketResult, Comparison
from mteval_core.report.comparison_text import difference_cell, value_cell

COLOURS = ("#1f77b4", "#ff7f0e")  # system a, system b
STYLE = """
body { font-family: sans-serif; margin: 2em; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
td.text { text-align: left; white-space: pre-wrap; }
code { font-size: 0.85em; }
svg text { font-family: sans-serif; font-size: 11px; }
"""


def comparison_html(comparison: Comparison) -> str:
    a, b = (escape(s) for s in comparison.systems)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>mteval compare: {a} and {b}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Comparison of {a} and {b}</h1>",
        *comparison_sections(comparison),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def comparison_sections(comparison: Comparison) -> list[str]:
    """The page's content below its title (escaped HTML), for `mteval report` to include."""
    parts = [
        f"<p>{len(comparison.texts[0]):,} segments. The analyses of compare-mt 0.2.10 with its "
        f"defaults, the text {escape(comparison.reading.description())}"
        + _interval_note(comparison)
        + f". Signature: <code>{escape(comparison.signature)}</code></p>",
        *(f"<p><strong>Note:</strong> {escape(note)}</p>" for note in comparison.notes),
    ]
    too_few = comparison.bootstrap.too_few_for_intervals if comparison.bootstrap else None
    if too_few:
        parts.append(f"<p>Note: {escape(too_few)}.</p>")
    for analysis in comparison.analyses:
        parts += [f"<h2>{escape(analysis.title)}</h2>"]
        if len(analysis.labels) > 1:
            parts.append(bar_chart(analysis, comparison.systems))
        parts.append(bucket_table(analysis, comparison.systems))
    parts += ngram_tables(comparison)
    parts += example_tables(comparison)
    return parts


def _interval_note(comparison: Comparison) -> str:
    if comparison.bootstrap is None:
        return ""
    n = comparison.bootstrap.n_resamples
    level = round(comparison.bootstrap.confidence * 100)
    return (
        f"; in brackets and as whiskers, {level}% bootstrap intervals from {n:,} resamples "
        "(a − b: on the same resamples; * where its interval leaves out 0)"
    )


def html_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], text_columns: Collection[int] = ()
) -> str:
    """An HTML table of cells that are escaped already."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="text">{c}</td>' if i in text_columns else f"<td>{c}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def bucket_table(analysis: BucketResult, systems: Sequence[str]) -> str:
    main = analysis.main_measure
    header = ["bucket"]
    for measure_label in analysis.measure_labels:
        label = escape(measure_label)
        header += [f"{label}<br>{escape(system)}" for system in systems]
    header.append(f"{escape(analysis.measure_labels[main])}<br>a − b")
    # sizes that are not a measure already; one column where both systems share it
    sizes = [name for name in analysis.sizes[0] if name not in analysis.measures]
    shared = {name for name in sizes if analysis.sizes[0][name] == analysis.sizes[1][name]}
    columns = [(name, None) if name in shared else (name, s) for name in sizes for s in (0, 1)]
    columns = list(dict.fromkeys(columns))
    header += [
        escape(name.replace("_", " ")) + ("" if s is None else "<br>" + escape(systems[s]))
        for name, s in columns
    ]
    rows = []
    for b, label in enumerate(analysis.labels):
        row = [escape(label)]
        for m in range(len(analysis.measures)):
            row += [escape(value_cell(analysis, s, b, m)) for s in range(len(systems))]
        row.append(escape(difference_cell(analysis, b, main)))
        row += [f"{analysis.sizes[s or 0][name][b]:,}" for name, s in columns]
        rows.append(row)
    return html_table(header, rows)


def bar_chart(analysis: BucketResult, systems: Sequence[str]) -> str:  # long: one SVG drawing
    """Grouped bars of the analysis's main measure (F-measure, BLEU, sentences) per bucket,
    one colour per system, whiskers at the interval."""
    m = analysis.main_measure
    values = analysis.values[:, :, m]
    high = values if analysis.intervals is None else analysis.intervals[:, :, m, 1]
    top = float(max(np.max(high), np.max(values), 1e-9)) * 1.08
    width, height, left, bottom, upper = 720, 260, 50, 40, 30
    plot_w, plot_h = width - left - 10, height - bottom - upper
    group = plot_w / len(analysis.labels)
    bar = group * 0.38

    def y(value: float) -> float:
        return upper + plot_h * (1 - value / top)

    label = escape(analysis.measure_labels[m])
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(analysis.title)}">',
        f'<text x="{left}" y="14">{label}</text>',
        f'<line x1="{left}" y1="{upper + plot_h}" x2="{width - 10}" y2="{upper + plot_h}" '
        'stroke="#444"/>',
    ]
    for tick in np.linspace(0, top / 1.08, 5):
        ty = y(float(tick))
        svg.append(f'<text x="{left - 4}" y="{ty + 4:.1f}" text-anchor="end">{tick:.3g}</text>')
        svg.append(
            f'<line x1="{left}" y1="{ty:.1f}" x2="{width - 10}" y2="{ty:.1f}" stroke="#eee"/>'
        )
    for b, bucket in enumerate(analysis.labels):
        x0 = left + b * group + group * 0.12
        for s, system in enumerate(systems):
            x = x0 + s * bar
            value = float(values[s, b])
            tip = escape(f"{system}, {bucket}: {value_cell(analysis, s, b, m)}")
            svg.append(
                f'<rect x="{x:.1f}" y="{y(value):.1f}" width="{bar:.1f}" '
                f'height="{max(0.0, upper + plot_h - y(value)):.1f}" fill="{COLOURS[s]}">'
                f"<title>{tip}</title></rect>"
            )
            if analysis.intervals is not None:
                low, up = analysis.intervals[s, b, m]
                cx = x + bar / 2
                svg.append(
                    f'<line x1="{cx:.1f}" y1="{y(float(low)):.1f}" x2="{cx:.1f}" '
                    f'y2="{y(float(up)):.1f}" stroke="#000"/>'
                )
        svg.append(
            f'<text x="{x0 + bar:.1f}" y="{upper + plot_h + 14}" text-anchor="middle">'
            f"{escape(bucket)}</text>"
        )
    for s, system in enumerate(systems):
        lx = left + 120 + s * 200
        svg.append(f'<rect x="{lx}" y="4" width="10" height="10" fill="{COLOURS[s]}"/>')
        svg.append(f'<text x="{lx + 14}" y="13">{escape(system)}</text>')
    svg.append("</svg>")
    return "".join(svg)


def ngram_tables(comparison: Comparison) -> list[str]:
    a, b = comparison.systems
    parts = ["<h2>Salient n-gram differences (matches in the reference)</h2>"]
    for side, (better, worse) in enumerate(((a, b), (b, a))):
        parts.append(f"<h3>n-grams {escape(better)} matches more often than {escape(worse)}</h3>")
        rows = [
            [escape(d.ngram), f"{d.salience:.4f}", str(d.matches_a), str(d.matches_b)]
            for d in comparison.ngrams[side]
        ]
        parts.append(
            html_table(["n-gram", "salience", escape(a), escape(b)], rows, text_columns={0})
        )
    return parts


def example_tables(comparison: Comparison) -> list[str]:
    a, b = comparison.systems
    reference, out_a, out_b = comparison.texts
    measure = escape(comparison.reading.sentence_bleu_label)
    parts = [f"<h2>Sentences where the two differ most ({measure})</h2>"]
    for side, (better, worse) in enumerate(((a, b), (b, a))):
        parts.append(f"<h3>{escape(better)} better than {escape(worse)}</h3>")
        for e in comparison.examples[side]:
            i = e.line - 1
            rows = []
            if comparison.source is not None:
                rows.append(["source", escape(comparison.source[i]), ""])
            rows += [
                ["reference", escape(reference[i]), ""],
                [escape(a), escape(out_a[i]), f"{e.score_a:.4f}"],
                [escape(b), escape(out_b[i]), f"{e.score_b:.4f}"],
            ]
            parts.append(f"<p>line {e.line}</p>")
            parts.append(html_table(["", "text", measure], rows, text_columns={1}))
    return parts
