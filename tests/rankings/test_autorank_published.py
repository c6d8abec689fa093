"""AutoRank equal to what WMT published: WMT25's preliminary ranking (generated_report.tex,
1,066 AutoRank and 4,582 metric cells over 31 pairs, every one compared as the report rounds
it) from the automatic scores as shipped; WMT24's recipe on the organisers' own system scores
(humeval/AutoRank.xlsx: each metric's scaled rank and the AutoRank of every system)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest

from mteval_core.io.wmt25_automatic_scores import read_automatic_scores, read_systems_metadata
from mteval_core.rankings.autorank import (
    autorank,
    autorank_wmt24,
    linear_ranks,
    wmt25_metrics,
    wmt25_systems,
)
from tests.helpers import shared_dataset

# The report's names for some systems (its generator renames them; PROVENANCE of wmt-rankings).
REPORT_NAMES = {
    "CommandA-MT": "CommandA-WMT",
    "Shy": "Shy-hunyuan-MT",
    "TowerPlus-9B": "TowerPlus-9B[M]",
    "TowerPlus-72B": "TowerPlus-72B[M]",
    "EuroLLM-9B": "EuroLLM-9B[M]",
    "EuroLLM-22B": "EuroLLM-22B-pre.[M]",
}


def report_tables(tex: str) -> list[tuple[str, list[str], dict[str, list[str]]]]:
    """(title, metric columns, {system: [AutoRank, metric...] as printed}) per table."""
    tables = []
    for block in tex.split("\\begin{table*}")[1:]:
        title = re.search(r"\\textbf\{(.+?)\}", block).group(1)
        rows = [line[:-2] for line in block.splitlines() if line.endswith("\\\\")]
        header = [cell.strip() for cell in rows[1].split("&")]
        at = next(i for i, cell in enumerate(header) if cell.startswith("AutoRank"))
        metrics = [re.sub(r"\s*\$.*\$", "", cell) for cell in header[at + 1 :]]
        systems = {}
        for row in rows[2:]:
            cells = [cell.strip() for cell in row.split("&")]
            name = cells[0].replace("\\official", "").strip().replace("\\_", "_")
            systems[name] = [re.sub(r"\\cellcolor\{[^}]*\}", "", c) for c in cells[at:]]
        tables.append((title, metrics, systems))
    return tables


def printed(value: float, metric: str | None) -> str:
    """As the report prints: Python's round, to 3 decimals for COMET-like metrics, else 1."""
    return str(round(value, 3 if metric and "comet" in metric.lower() else 1))


def our_tables(wmt25: Path) -> dict[str, tuple[list[str], dict[str, list[str]]]]:
    scores = read_automatic_scores([wmt25 / "data" / "automatic_scores"])
    supported = read_systems_metadata(wmt25 / "meta.json")
    tables = {}
    for pair, pair_scores in scores.items():
        chosen = pair_scores.only(wmt25_systems(pair_scores, supported), wmt25_metrics(pair))
        result = autorank(chosen, "wmt25")
        rows = {
            REPORT_NAMES.get(system, system): [
                printed(float(result.autorank[i]), None),
                *(printed(float(result.means[i, j]), m) for j, m in enumerate(result.metrics)),
            ]
            for i, system in enumerate(result.systems)
        }
        tables[pair] = (list(result.metrics), rows)
    return tables


def test_every_published_wmt25_cell_is_reproduced(wmt25):
    ours = our_tables(wmt25)
    published = report_tables((wmt25 / "report.tex").read_text(encoding="utf-8"))
    assert len(published) == len(ours) == 31
    matched, differing, cells = set(), [], 0
    for title, metrics, rows in published:
        # the report titles pairs by language names: the pair is the one of our tables with the
        # same metrics and systems that no earlier table took
        candidates = [
            pair
            for pair, (our_metrics, our_rows) in ours.items()
            if our_metrics == metrics and set(our_rows) == set(rows) and pair not in matched
        ]
        assert candidates, title
        pair = max(candidates, key=lambda p: sum(ours[p][1][s] == rows[s] for s in rows))
        matched.add(pair)
        for system, values in rows.items():
            cells += len(values)
            differing += [
                (pair, system, a, b) for a, b in zip(values, ours[pair][1][system]) if a != b
            ]
    assert cells == 1066 + 4582
    assert differing == []


def xlsx_sheets(path: Path) -> dict[str, list[list[str]]]:
    """Each sheet of an .xlsx as rows of cell texts (inline strings and numbers, as the
    organisers' pandas wrote them), read from its XML."""
    ns = {"x": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
    rel = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
    with zipfile.ZipFile(path) as book:
        workbook = ElementTree.fromstring(book.read("xl/workbook.xml"))
        links = ElementTree.fromstring(book.read("xl/_rels/workbook.xml.rels"))
        targets = {link.get("Id"): link.get("Target") for link in links}
        sheets = {}
        for sheet in workbook.find("x:sheets", ns):
            target = targets[sheet.get(rel)]  # absolute (/xl/...) or relative to xl/
            member = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
            xml = ElementTree.fromstring(book.read(member))
            rows = []
            for row in xml.iter(f"{{{ns['x']}}}row"):
                rows.append(["".join(c.itertext()) for c in row.iter(f"{{{ns['x']}}}c")])
            sheets[sheet.get("name")] = rows
    return sheets


def test_the_wmt24_recipe_gives_the_organisers_autorank():
    path = shared_dataset("wmt-rankings") / "wmt24-news-systems" / "humeval" / "AutoRank.xlsx"
    sheets = xlsx_sheets(path)
    assert len(sheets) == 11
    checked = 0
    for name, rows in sheets.items():
        header = rows[0]  # the first cell (system) has no header
        column = {label: i + 1 for i, label in enumerate(header)}
        systems = rows[1:]
        # both system scores as the organisers hold them: lower is better
        means = -np.array(
            [[float(r[column[m]]) for m in ("metricx", "cometkiwi")] for r in systems]
        )
        expected = np.array(
            [
                [float(r[column[c]]) for c in ("rank_metricx", "rank_cometkiwi", "AutoRank")]
                for r in systems
            ]
        )
        # The sheets' scale reaches N + 1 for N listed systems in all 11 pairs (one system more
        # than a sheet lists entered the scaling, or the organisers mapped to [1, N + 1]): the
        # recipe is compared on the [0, 1] scale, where both agree exactly.
        top = expected[:, :2].max()
        theirs = (expected - 1) / (top - 1)
        n = len(systems)
        assert (linear_ranks(means.T) - 1) / (n - 1) == pytest.approx(theirs[:, :2].T, abs=1e-12)
        assert (autorank_wmt24(means) - 1) / (n - 1) == pytest.approx(theirs[:, 2], abs=1e-12)
        assert top == n + 1, name
        checked += len(systems)
    assert checked > 100
