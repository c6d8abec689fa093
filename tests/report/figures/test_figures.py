"""Figure builders: plain data in, the figure's data and shapes out."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from mteval_core.gtm.grid import bitext_grid
from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.figures import (
    bitext_grid_figure,
    differential_scatter,
    metric_human_scatter,
    significance_heatmap,
    system_scores_bar,
)
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import bootstrap_scores
from tests.helpers import cell_pixels, make_test_set


def test_scatter_has_points_regression_line_and_interval_in_title():
    figure = metric_human_scatter(
        ["a", "b", "c"], [1, 2, 3], [2, 4, 6.5], "BLEU", "DA", 0.99, [0.9, 1.0]
    )
    points, line = figure.data
    assert list(points.x) == [1, 2, 3] and list(points.text) == ["a", "b", "c"]
    slope = (line.y[1] - line.y[0]) / (line.x[1] - line.x[0])
    assert slope == pytest.approx(2.25)  # least squares through (1,2), (2,4), (3,6.5)
    assert "r = 0.990 [0.900, 1.000]" in figure.layout.title.text


def test_differential_scatter():
    figure = differential_scatter(["a − b"], [1.0], [0.5], "BLEU", 1.0)
    assert list(figure.data[0].x) == [1.0] and list(figure.data[0].text) == ["a − b"]


def test_bitext_figure_draws_cut_blocks_and_barriers():
    test_set = make_test_set([["a b c d"], ["a b c d e"]], {"s": ["a b c d e"]})
    grid = bitext_grid(test_set, "s", 1, Options.from_flags(tokenize="none", gtm_exponent=2.0))
    figure = bitext_grid_figure(grid, grid.greedy, "s, segment 1")
    (cells,) = figure.data  # one trace for the whole grid, whatever its size
    states = np.array(cells.z)
    assert states.shape == (5, 11)  # 5 candidate tokens; 4 + barrier + 5 + barrier columns
    assert np.argwhere(states == 3).tolist() == [[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]]
    assert np.argwhere(states == 2).tolist() == [[0, 0], [1, 1], [2, 2], [3, 3]]  # other hits
    assert (states[:, [4, 10]] == 1).all()  # the barrier columns
    (block,) = [s for s in figure.layout.shapes if s.type == "rect"]
    assert (block.x0, block.y0) == (4.5, -0.5)
    assert block.x1 - block.x0 == 4.5 == block.y1 - block.y0  # a square, cut by the cap of 4.5
    assert [s.x0 for s in figure.layout.shapes if s.type == "line"] == [4, 10]
    assert [a.text for a in figure.layout.annotations] == ["<b>ref1</b>", "<b>ref2</b>"]
    assert [a.x for a in figure.layout.annotations] == [1.5, 7.0]  # over their column spans
    assert cells.y[0] == "candidate 1: a" and cells.x[5] == "ref2 1: a"
    assert cells.x[4] == "‖ barrier after ref1"
    assert cells.text[0][5] == "<br>block 1 of 1 in selection order, length 4.5"
    assert cells.text[0][0] == "<br>a hit, not in this matching" and cells.text[0][1] == ""
    assert cells.hovertemplate == "%{y}<br>%{x}%{text}<extra></extra>"
    assert figure.layout.xaxis.ticktext[4] == "‖" and figure.layout.yaxis.scaleanchor == "x"
    assert "greedy: sum of len^e 20.25, size 4.5" in figure.layout.title.text
    assert math.isclose(grid.greedy.size, 4.5)


def test_bitext_figure_shows_tokens_that_look_like_markup_as_written():
    test_set = make_test_set(["<unk> & b"], {"<sys>": ["<unk> & c"]})
    grid = bitext_grid(test_set, "<sys>", 1, Options(tokenize="none"))
    figure = bitext_grid_figure(grid, grid.greedy, "<sys>, segment 1")
    # escaped, so plotly shows "<unk>" and "&" instead of reading them as markup
    assert list(figure.data[0].y) == [
        "candidate 1: &lt;unk>",
        "candidate 2: &amp;",
        "candidate 3: c",
    ]
    assert list(figure.layout.xaxis.ticktext) == ["&lt;unk>", "&amp;", "b", "‖"]
    assert figure.layout.title.text.startswith("&lt;sys>, segment 1<br>")


def _hundred_token_grid(n_references: int):
    """A 100-token candidate against references of 100 tokens, sharing a 60-token run."""
    rng = np.random.default_rng(1)
    words = [f"w{i}" for i in range(40)]
    references = [[" ".join(rng.choice(words, 100))] for _ in range(n_references)]
    candidate = " ".join(references[0][0].split()[:60] + list(rng.choice(words, 40)))
    test_set = make_test_set(references, {"s": [candidate]})
    return bitext_grid(
        test_set, "s", 1, Options.from_flags(tokenize="none", gtm_exponent=2.0), exact=True
    )


@pytest.mark.parametrize("n_references", [1, 2])
def test_bitext_figure_of_a_hundred_tokens_stays_readable(n_references):
    small_grid = bitext_grid(
        make_test_set(["a b c"], {"s": ["a b c"]}), "s", 1, Options.from_flags(gtm_exponent=2.0)
    )
    small = bitext_grid_figure(small_grid, small_grid.greedy)
    grid = _hundred_token_grid(n_references)
    start = time.perf_counter()
    big = bitext_grid_figure(grid, grid.exact, "s, segment 1")
    assert time.perf_counter() - start < 0.25  # about 5 ms
    assert len(big.data) == 1 and len(big.to_json()) < 300_000
    assert np.array(big.data[0].z).shape == (100, 101 * n_references)
    assert big.layout.height > small.layout.height  # the figure grows with the tokens...
    if n_references == 1:
        assert big.layout.width <= 1150  # ...within the width it is given...
    else:
        assert big.layout.width > 1150  # ...or wider, for the page to scroll
    assert cell_pixels(big)[0] == pytest.approx(cell_pixels(big)[1], rel=0.02)  # square
    for figure in (small, big):
        width, height = cell_pixels(figure)
        assert width >= 0.98 * height  # room for square cells: plotly keeps them square
        assert figure.layout.yaxis.scaleanchor == "x"
        for axis in (figure.layout.xaxis, figure.layout.yaxis):
            spacing = (axis.tickvals[1] - axis.tickvals[0]) * min(width, height)
            assert spacing >= 1.3 * axis.tickfont.size  # neighbouring labels do not overlap
    assert small.layout.xaxis.tickfont.size == 12 and big.layout.xaxis.tickfont.size == 8
    labelled = len(big.layout.xaxis.tickvals)
    assert labelled == 101 * n_references  # every token keeps its label
    (run,) = [s for s in big.layout.shapes if s.type == "rect" and s.x1 - s.x0 == 60]
    assert (run.x0, run.y0) == (-0.5, -0.5)  # the shared 60-token run is one square block


def test_bars_best_first_with_asymmetric_error_bars_from_the_intervals():
    figure = system_scores_bar(
        {"b": 20.0, "a": 30.0}, "BLEU", {"a": [27.0, 31.0], "b": [19.5, 24.0]}
    )
    (bars,) = figure.data
    assert list(bars.y) == ["a", "b"] and list(bars.x) == [30.0, 20.0]
    assert list(bars.error_x.array) == [1.0, 4.0]  # up to high
    assert list(bars.error_x.arrayminus) == [3.0, 0.5]  # down to low
    assert bars.error_x.symmetric is False


def test_bars_without_intervals_have_no_error_bars():
    (bars,) = system_scores_bar({"a": 1.0}, "NIST").data
    assert bars.error_x.array is None


def scored_pairs() -> tuple[dict[str, float], list[dict]]:
    """BLEU of three systems (c best, a worst) and every metric's bootstrap pairs, on three
    segments twice (6, the fewest with a paired test)."""
    test_set = make_test_set(
        ["a b c d e", "f g h i", "j k l m n"] * 2,
        {
            "a": ["a x", "f", "j"] * 2,
            "b": ["a b c x e", "f g x", "j k"] * 2,
            "c": ["a b c d e", "f g h", "j k l m"] * 2,
        },
    )
    scores = score_test_set(test_set, ["bleu", "fmean"], Options())
    corpus = scores.corpus()
    pairs = bootstrap_scores(scores, BootstrapOptions(n_resamples=200)).pairs
    return {s: corpus[s]["fmean"] for s in scores.systems}, pairs


def test_heatmap_cells_hold_each_pairs_difference_and_holm_corrected_p():
    fmean, pairs = scored_pairs()
    (cells,) = significance_heatmap(fmean, pairs, "fmean", "Fmean").data
    order = ["c", "b", "a"]  # best first
    assert list(cells.x) == order and list(cells.y) == order
    for pair in (p for p in pairs if p.metric == "fmean"):
        row, column = order.index(pair.a), order.index(pair.b)
        assert cells.customdata[row][column] == [pair.delta, pair.p, pair.p_holm]
        assert cells.customdata[column][row][0] == -pair.delta
        assert cells.z[row][column] == cells.z[column][row] == math.log10(pair.p_holm)
        assert cells.text[row][column] == f"{pair.delta:+.3g}<br>p={pair.p_holm:.3f}"
    assert [cells.z[i][i] for i in range(3)] == [None] * 3
    assert [cells.text[i][i] for i in range(3)] == [""] * 3
    assert cells.hoverongaps is False


def test_heatmap_takes_only_the_chosen_metrics_pairs():
    fmean, pairs = scored_pairs()
    bleu = {(p.a, p.b): p for p in pairs if p.metric == "bleu"}
    (cells,) = significance_heatmap(fmean, pairs, "bleu", "BLEU").data
    row_c_column_b = cells.customdata[0][1]
    assert row_c_column_b == [
        -bleu["b", "c"].delta,
        bleu["b", "c"].p,
        bleu["b", "c"].p_holm,
    ]


def test_heatmap_of_pairs_without_p_values_is_all_gaps():
    """On three segments the pairs have no p-value (too few for a paired test): no cell is
    coloured or labelled as if it had one."""
    test_set = make_test_set(["a b c", "d e f", "g h i"], {"a": ["a b", "d", "g"], "b": ["x"] * 3})
    scores = score_test_set(test_set, ["bleu"], Options())
    corpus = scores.corpus()
    pairs = bootstrap_scores(scores, BootstrapOptions(n_resamples=50)).pairs
    assert [pair.p for pair in pairs] == [None]
    (cells,) = significance_heatmap(
        {s: corpus[s]["bleu"] for s in corpus}, pairs, "bleu", "BLEU"
    ).data
    assert [value for row in cells.z for value in row] == [None] * 4
    assert [text for row in cells.text for text in row] == [""] * 4
