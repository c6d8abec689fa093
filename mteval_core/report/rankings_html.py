"""``mteval rank --format html``: the rankings as one self-contained HTML page (no script, no
font or picture from elsewhere, as ``evaluation_html``): per language pair its table, best first
(rank range, cluster, system, score, AutoRank, the per-domain or per-metric columns), a line
between clusters, and one inline SVG of the rank ranges. Every string from the input (system,
pair, domain and metric names, notes) is HTML-escaped; the numbers are the JSON layout's
(``rankings.table``), printed with four decimals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from mteval_core.rankings.table import LanguagePairRanking
from mteval_core.report.comparison_html import STYLE
from mteval_core.report.ranking_rows import RankingRow, breakdown_kind, ranking_rows

RANKING_STYLE = """
tr.cluster-start td { border-top: 2px solid #222; }
tr.disagrees td { background: #fbe3e3; }
"""
SVG_ROW, SVG_LEFT, SVG_WIDTH = 18, 220, 720  # pixels: per system, names, whole drawing


def rankings_html(rankings: Sequence[LanguagePairRanking]) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>mteval rank</title>",
        f"<style>{STYLE}{RANKING_STYLE}</style></head><body>",
        "<h1>Rankings</h1>",
        "<p>Systems best first. Rank range: the best and the worst rank the procedure's "
        "significance tests (or its bootstrap) allow; a line opens each cluster.</p>",
    ]
    for ranking in rankings:
        parts += pair_section(ranking)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def pair_section(
    ranking: LanguagePairRanking, autorank: LanguagePairRanking | None = None
) -> list[str]:
    """One pair's heading, table, drawing and notes (escaped HTML)."""
    rows = ranking_rows(ranking, autorank)
    return [
        f"<h2>{escape(ranking.language_pair)} ({escape(ranking.protocol)})</h2>",
        ranking_table(ranking, rows),
        rank_ranges_svg(rows, ranking.language_pair),
        *(f"<p>Note: {escape(note)}</p>" for note in ranking.notes),
    ]


def ranking_table(ranking: LanguagePairRanking, rows: Sequence[RankingRow]) -> str:
    columns = list(rows[0].columns) if rows else []
    kind = breakdown_kind(ranking)
    own_autorank = ranking.protocol.startswith("autorank")  # its score is the AutoRank
    with_autorank = not own_autorank and any(row.autorank is not None for row in rows)
    with_clusters = any(row.cluster is not None for row in rows)  # AutoRank has none
    header = [
        "rank",
        *(["cluster"] if with_clusters else []),
        "system",
        "score",
        *(["AutoRank"] if with_autorank else []),
        *(escape(f"{kind} {c}") for c in columns),
    ]
    body = []
    for i, row in enumerate(rows):
        classes = []
        if i and row.cluster is not None and row.cluster != rows[i - 1].cluster:
            classes.append("cluster-start")
        if row.disagrees:
            classes.append("disagrees")
        cells = [
            _range(row.rank),
            *([("" if row.cluster is None else str(row.cluster))] if with_clusters else []),
            escape(row.system),
            _number(row.score),
            *([_number(row.autorank)] if with_autorank else []),
            *(_number(row.columns.get(c)) for c in columns),
        ]
        opening = f'<tr class="{" ".join(classes)}">' if classes else "<tr>"
        body.append(opening + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in header)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def rank_ranges_svg(rows: Sequence[RankingRow], title: str) -> str:
    """Each system's rank range as a bar from its first to its last rank, best at the top."""
    n = max(len(rows), 1)
    plot = SVG_WIDTH - SVG_LEFT - 20
    height = 30 + SVG_ROW * len(rows)

    def x(rank: float) -> float:
        return SVG_LEFT + plot * (rank - 0.5) / n

    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SVG_WIDTH}" height="{height}" '
        f'role="img" aria-label="rank ranges of {escape(title)}">',
        f'<text x="{SVG_LEFT}" y="12">rank range (1 is the best)</text>',
    ]
    for i, row in enumerate(rows):
        y = 22 + SVG_ROW * i
        first, last = row.rank
        tip = escape(f"{row.system}: {_range(row.rank)}")
        svg.append(
            f'<text x="{SVG_LEFT - 6}" y="{y + 12}" text-anchor="end">{escape(row.system)}</text>'
        )
        start, end = x(first - 0.4), x(last + 0.4)
        svg.append(
            f'<rect x="{start:.1f}" y="{y + 3}" width="{end - start:.1f}" '
            f'height="{SVG_ROW - 6}" fill="#1f77b4"><title>{tip}</title></rect>'
        )
        if i and row.cluster is not None and row.cluster != rows[i - 1].cluster:
            svg.append(
                f'<line x1="0" y1="{y}" x2="{SVG_WIDTH}" y2="{y}" stroke="#222" '
                'stroke-dasharray="4 3"/>'
            )
    svg.append("</svg>")
    return "".join(svg)


def _range(rank: tuple[int, int]) -> str:
    first, last = rank
    return str(first) if first == last else f"{first}-{last}"


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return "undefined" if not math.isfinite(value) else f"{value:.4f}"
