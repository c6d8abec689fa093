"""User-supplied text is shown as written: the Markdown escaping of the pages and the Plotly
escaping of the figure builders (the browser test in tests/e2e/test_hostile.py checks what
Chromium makes of both)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mteval_core.gtm.grid import bitext_grid
from mteval_core.loss.reversal import Boundary, RankingRegion
from mteval_core.report.figures import (
    bitext_grid_figure,
    differential_scatter,
    metric_human_scatter,
    reliability_figure,
    significance_heatmap,
    system_scores_bar,
)
from mteval_core.report.figures.loss import loss_bar_chart, rank_reversal_map
from mteval_core.report.figures.plotly_escape import escape_plotly
from mteval_core.settings.options import Options
from mteval_core.stats.reliability import ReliabilityCurve
from mteval_core.stats.significance import PairedTest
from pages.ui.markdown_escape import WORD_JOINER, escape_markdown
from tests.helpers import make_test_set

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "**bold**",
    "![x](http://127.0.0.1:9/x.png)",
    "[x](javascript:alert(1))",
    '<a href="https://example.org">click</a>',
    "&lt;b&gt;",
]
RAW_MARKUP = ["<img", "<a ", "</a>", "&lt;b&gt;"]  # what must never reach Plotly unescaped


# ---------------------------------------------------------------------------------- Markdown
@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("<img src=x onerror=alert(1)>", r"\<img src=x onerror=alert(1)\>"),
        ("**bold**", r"\*\*bold\*\*"),
        ("![x](http://127.0.0.1:9/x.png)", rf"!\[x\](http\:{WORD_JOINER}//127.0.0.1\:9/x.png)"),
        ("[x](javascript:alert(1))", r"\[x\](javascript\:alert(1))"),
        (":smile: :red[red] :material/home:", r"\:smile\: \:red\[red\] \:material/home\:"),
        ("$x^2$ `code` ~~gone~~ a|b", r"\$x^2\$ \`code\` \~\~gone\~\~ a\|b"),
        ("&amp; \\", r"\&amp; \\"),
        ("www.example.org", f"www{WORD_JOINER}.example.org"),
        ("WWW.example.org", f"WWW{WORD_JOINER}.example.org"),
        ("mail me@example.org", f"mail me{WORD_JOINER}@example.org"),
        ("# heading", r"\# heading"),
        ("- item", r"\- item"),
        ("+ item", r"\+ item"),
        ("> quote", r"\> quote"),
        ("=== under", r"\=== under"),
        ("12. item", r"12\. item"),
        ("3) item", r"3\) item"),
        ("line one\nline two\r\n# three\rfour", "line one line two # three four"),
        (
            "\u202egnp.x\u202c and \u2067x\u2069",
            r"\<U+202E\>gnp.x\<U+202C\> and \<U+2067\>x\<U+2069\>",
        ),
        (
            "\u05e9\u05dc\u05d5\u05dd \u200f",
            "\u05e9\u05dc\u05d5\u05dd \u200f",
        ),  # Hebrew, its mark: as written
    ],
)
def test_escape_markdown(text, escaped):
    assert escape_markdown(text) == escaped


@pytest.mark.parametrize(
    "name",
    ["neural-large", "ref-A", "Online-W", "mine.csv, line 2", "'x' is not a number", "(mqm.tsv)"],
)
def test_ordinary_names_read_the_same_in_markdown(name):
    assert escape_markdown(name) == name


def test_escape_markdown_takes_any_object():
    assert escape_markdown(ValueError("a*b")) == r"a\*b"
    assert escape_markdown(12) == "12"


# ------------------------------------------------------------------------------------ Plotly
def test_escape_plotly():
    assert escape_plotly("<a href='x'>y</a> & &lt;") == "&lt;a href='x'>y&lt;/a> &amp; &amp;lt;"
    assert escape_plotly("neural-large > MT1") == "neural-large > MT1"  # no tag without "<"


def assert_no_raw_markup(figure) -> str:
    """The figure's JSON holds every hostile name escaped, none as it was uploaded."""
    text = json.dumps(json.loads(figure.to_json()), ensure_ascii=False)
    for markup in RAW_MARKUP:
        assert markup not in text, markup
    return text


def test_score_figures_escape_system_names():
    scores = {name: float(k) for k, name in enumerate(HOSTILE)}
    bars = system_scores_bar(
        scores, "<b>BLEU</b>", {name: [v - 1, v + 1] for name, v in scores.items()}
    )
    text = assert_no_raw_markup(bars)
    assert "&lt;img src=x onerror=alert(1)>" in text and "&lt;b>BLEU&lt;/b>" in text
    pairs = [
        PairedTest(a=a, b=b, metric="bleu", delta=1.0, p=0.01, p_holm=0.02)
        for i, a in enumerate(HOSTILE)
        for b in HOSTILE[i + 1 :]
    ]
    heat_map = significance_heatmap(scores, pairs, "bleu", "<i>BLEU</i>")
    assert_no_raw_markup(heat_map)
    assert heat_map.data[0].x[0] == escape_plotly(HOSTILE[-1])  # best first


def test_correlation_figures_escape_names_labels_and_keep_them_out_of_templates():
    scatter = metric_human_scatter(
        HOSTILE, range(len(HOSTILE)), range(len(HOSTILE)), "bleu %{x}", "<b>MQM</b>", 0.5
    )
    assert_no_raw_markup(scatter)
    assert list(scatter.data[0].text) == [escape_plotly(name) for name in HOSTILE]
    assert "%{x}" not in scatter.data[0].hovertemplate.replace("%{x:.4g}", "")
    assert scatter.layout.yaxis.title.text == "&lt;b>MQM&lt;/b>"
    differences = differential_scatter([f"{HOSTILE[0]} − {HOSTILE[4]}"], [1.0], [2.0], "x", None)
    assert_no_raw_markup(differences)
    assert "undefined" in differences.layout.title.text
    curve = ReliabilityCurve(
        references=(HOSTILE[0], HOSTILE[4]),
        sizes=[1, 2],
        pearson=np.array([[0.1, 0.2], [0.3, 0.4]]),
        spearman=np.array([[0.1, 0.2], [0.3, 0.4]]),
    )
    reliability = reliability_figure([curve], "<b>bleu</b>")
    assert_no_raw_markup(reliability)
    line = reliability.data[1]
    assert HOSTILE[0] not in line.hovertemplate and line.customdata[0] == line.name


def test_loss_figures_escape_system_names():
    square = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    regions = [RankingRegion(tuple(HOSTILE[:3]), square)]
    segment = np.array([[0.0, 0.0], [1.0, 1.0]])
    lines = [Boundary(HOSTILE[0], HOSTILE[4], np.array([0.0, 1.0, -1.0]), segment)]
    reversal = rank_reversal_map(
        regions, (0.2, 0.2), boundaries=lines, presets={"<b>preset</b>": (0.1, 0.1)}
    )
    text = assert_no_raw_markup(reversal)
    assert "&lt;img src=x onerror=alert(1)> > **bold** > ![x](http://127.0.0.1:9/x.png)" in text
    bars = loss_bar_chart({name: float(k) for k, name in enumerate(HOSTILE)})
    assert_no_raw_markup(bars)


def test_bitext_figure_escapes_tokens_reference_and_system_names():
    test_set = make_test_set(
        [["<img src=x> &lt;b&gt; a"], ['<a href="https://example.org">x</a> a']],
        {HOSTILE[4]: ["<img src=x> a </a>"]},
    )
    grid = bitext_grid(test_set, HOSTILE[4], 1, Options(tokenize="none"))
    figure = bitext_grid_figure(grid, grid.greedy, f"{HOSTILE[4]}, segment 1")
    assert_no_raw_markup(figure)
