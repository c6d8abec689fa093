"""``mteval rank --format html``: a standalone page whose numbers are the JSON layout's, with every
name from the input escaped; and the rows a ranking's table and figure share."""

from __future__ import annotations

import contextlib
import io
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from mteval_core.cli import main
from mteval_core.rankings.table import LanguagePairRanking, RankedSystem
from mteval_core.report.figures import rank_ranges_figure
from mteval_core.report.ranking_rows import ranges_overlap, ranking_rows
from mteval_core.report.rankings_html import rankings_html
from tests.rankings import conftest as rankings_data

wmt24, wmt25 = rankings_data.wmt24, rankings_data.wmt25  # the shared data, unpacked

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>&amp;"'


class Tables(HTMLParser):
    """Every table's rows of cell texts, and every tag met."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.tags: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parsed(page: str) -> Tables:
    tables = Tables()
    tables.feed(page)
    return tables


def run_rank(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["rank", *args])
    return out.getvalue()


def hostile_ranking() -> LanguagePairRanking:
    systems = (
        RankedSystem(HOSTILE, 80.0, (1, 1), 1, None, {"domains": {f"news{HOSTILE}": 81.0}}),
        RankedSystem("B", 70.0, (2, 3), 2, None, {"domains": {f"news{HOSTILE}": 71.0}}),
        RankedSystem("C", 69.0, (2, 3), 2, None, {"domains": {f"news{HOSTILE}": None}}),
    )
    return LanguagePairRanking(f"en-{HOSTILE}", "wmt24", systems, (f"note {HOSTILE}",))


def test_a_hostile_name_is_text_everywhere_on_the_page():
    page = rankings_html([hostile_ranking()])
    tables = parsed(page)
    assert "script" not in tables.tags and "img" not in tables.tags
    assert HOSTILE not in page  # never raw
    assert unescape(re.sub(r"<[^>]+>", "", page)).count(HOSTILE) >= 5  # cell, SVG, heading, note
    header, first, *_ = tables.tables[0]
    assert first[2] == HOSTILE and header[4] == f"domain news{HOSTILE}"


def test_a_line_opens_each_cluster_and_the_drawing_has_one_bar_per_system():
    page = rankings_html([hostile_ranking()])
    assert page.count('class="cluster-start"') == 1  # B opens cluster 2
    assert page.count("<rect") == 3
    assert "stroke-dasharray" in page  # the cluster line in the drawing


def test_the_html_numbers_are_the_jsons_on_wmt24_waves(wmt24):
    args = [
        "--protocol",
        "wmt24",
        "--human",
        *map(str, sorted((wmt24 / "waves").glob("*.csv"))),
        "--documents",
        *map(str, sorted((wmt24 / "documents").glob("*.docs"))),
    ]
    document = json.loads(run_rank(*args, "--format", "json"))["language_pairs"]
    tables = parsed(run_rank(*args, "--format", "html")).tables
    assert len(tables) == len(document) == 4
    for table, (pair, ranking) in zip(tables, document.items()):
        header, *rows = table
        domains = [h.removeprefix("domain ") for h in header[4:]]
        for row, system in zip(rows, ranking["systems"], strict=True):
            first, last = system["rank"]
            assert row[0] == (str(first) if first == last else f"{first}-{last}")
            assert row[1] == str(system["cluster"]) and row[2] == system["system"]
            assert row[3] == f"{system['score']:.4f}"
            for cell, domain in zip(row[4:], domains):
                assert cell == f"{system['extra']['domains'][domain]:.4f}", (pair, domain)


def test_the_html_numbers_are_the_jsons_on_wmt25_autorank(wmt25):
    args = [
        "--autorank",
        "wmt25",
        "--metric-scores",
        str(wmt25 / "data" / "automatic_scores"),
        "--systems-metadata",
        str(wmt25 / "meta.json"),
        "--lp",
        "en-cs_CZ",
        "en-bho_IN",
        "--bootstrap",
        "100",
    ]
    document = json.loads(run_rank(*args, "--format", "json"))["language_pairs"]
    tables = parsed(run_rank(*args, "--format", "html")).tables
    for table, ranking in zip(tables, document.values(), strict=True):
        header, *rows = table
        assert header[:3] == ["rank", "system", "score"]  # no cluster column for AutoRank
        metrics = [h.removeprefix("metric ") for h in header[3:]]
        for row, system in zip(rows, ranking["systems"], strict=True):
            first, last = system["rank"]
            assert row[0] == (str(first) if first == last else f"{first}-{last}")
            assert row[1] == system["system"] and row[2] == f"{system['autorank']:.4f}"
            assert row[3:] == [f"{system['extra']['metrics'][m]:.4f}" for m in metrics]


def test_rows_join_the_autorank_by_name_and_mark_ranges_that_do_not_overlap():
    human = hostile_ranking()
    autorank = LanguagePairRanking(
        "x",
        "autorank-wmt25",
        (
            RankedSystem("C", 1.0, (1, 1), None, 1.0),
            RankedSystem("B", 1.5, (1, 2), None, 1.5),
            RankedSystem("other", 2.0, (2, 3), None, 2.0),
        ),
    )
    rows = ranking_rows(human, autorank)
    assert [row.autorank_rank for row in rows] == [None, (1, 2), (1, 1)]
    assert [row.disagrees for row in rows] == [False, False, True]  # C: [2, 3] against [1, 1]
    figure = rank_ranges_figure(rows, "t", "human")
    assert len(figure.data) == 2  # human and AutoRank ranges
    assert len(figure.layout.shapes) == 2  # C's shaded row and one cluster line
    assert ranges_overlap((1, 2), (2, 3)) and not ranges_overlap((1, 1), (2, 3))


def test_the_evaluation_report_holds_the_sessions_autorank():
    """Home's report and `mteval report`: the AutoRank section, its cells the Rankings page's
    ranking without uploads (the same metrics, resamples and seed)."""
    from mteval_core.io import read_directory
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.rankings.scored_autorank import rankable_metrics, scored_autorank
    from mteval_core.report.evaluation_html import evaluation_html
    from mteval_core.report.evaluation_report import ReportRequest, evaluation_report
    from mteval_core.settings.options import Options
    from mteval_core.stats.bootstrap import BootstrapOptions

    test_set = read_directory(SAMPLE).test_set
    scores = score_test_set(test_set, ["bleu", "ter", "chrf"], Options())
    request = ReportRequest(bootstrap=BootstrapOptions(200, 3))
    page = evaluation_html(evaluation_report(test_set, scores, Options(), request))
    section = page[page.index("<h2>AutoRank</h2>") :]
    header, *rows = parsed(section).tables[0]
    expected = scored_autorank(scores, rankable_metrics(scores), 200, 3, test_set.name)
    assert header == ["rank", "system", "score", "metric BLEU", "metric TER", "metric chrF"]
    for row, entry in zip(rows, expected.systems, strict=True):
        assert row[1] == entry.system and row[2] == f"{entry.autorank:.4f}"
        assert row[4] == f"{scores.corpus()[entry.system]['ter']:.4f}"  # TER as it is
    assert "rank ranges: 95% of 200 resamples of the segments" in section
