"""The bitext grid's layout with several long references: readable cells in a figure that grows
with its columns (the page scrolls it), and each reference named over its own columns."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.gtm.grid import bitext_grid, one_reference
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.report.figures import bitext_grid_figure, bitext_grid_width
from mteval_core.report.figures.bitext import (
    MAX_CELL,
    MAX_GRID_SIDE,
    MIN_CELL,
    MIN_FONT,
    NAME_FONT,
    NAME_HEIGHT,
    TITLE_HEIGHT,
)
from mteval_core.settings.options import Options
from tests.helpers import cell_pixels, make_test_set

PAGE_WIDTH = 940  # the page's column in a 1,400-px window beside the sidebar
AT_E2 = Options.from_flags(tokenize="none", gtm_exponent=2.0)


def named_test_set(references: dict[str, str], candidate: str) -> TestSet:
    """One segment: references by name, and the candidate of system "s"."""
    return TestSet(
        references=[TextColumn(name, (text,), name) for name, text in references.items()],
        systems=[TextColumn("s", (candidate,), "s")],
    )


def long_grid(n_references: int, tokens: int = 60, names: tuple[str, ...] = ("A", "C", "D")):
    """A candidate of ``tokens`` tokens against references as long; reference k shares the
    candidate's k-th 20 tokens as one run, from its 6th token on."""
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(50)]
    candidate = list(rng.choice(words, tokens))
    references = {}
    for k, name in enumerate(names[:n_references]):
        reference = list(rng.choice(words, tokens))
        reference[5:25] = candidate[20 * k : 20 * k + 20]
        references[name] = " ".join(reference)
    test_set = named_test_set(references, " ".join(candidate))
    return bitext_grid(test_set, "s", 1, AT_E2, exact=True)


def test_three_references_of_sixty_tokens_keep_readable_square_cells():
    grid = long_grid(3)
    figure = bitext_grid_figure(grid, grid.greedy, "s, segment 1", PAGE_WIDTH)
    assert np.array(figure.data[0].z).shape == (60, 183)
    across, down = cell_pixels(figure)
    assert across == pytest.approx(down) and across >= MIN_CELL  # was 4.6 px squeezed into 940
    assert figure.layout.width > PAGE_WIDTH  # wider than the page: the page scrolls it
    for axis, count in ((figure.layout.xaxis, 183), (figure.layout.yaxis, 60)):
        assert len(axis.tickvals) == count and axis.tickfont.size >= MIN_FONT  # every token
    assert figure.layout.yaxis.scaleanchor == "x"  # Plotly's zoom keeps the cells square
    assert not figure.layout.xaxis.fixedrange and not figure.layout.yaxis.fixedrange


def test_the_figure_grows_with_its_columns_and_a_short_grid_fits_the_page():
    widths = []
    for n_references in (1, 2, 3):
        grid = long_grid(n_references)
        figure = bitext_grid_figure(grid, grid.greedy, "s, segment 1", PAGE_WIDTH)
        assert min(cell_pixels(figure)) >= MIN_CELL
        widths.append(figure.layout.width)
    assert widths[0] <= PAGE_WIDTH < widths[1] < widths[2]  # one reference of 60 still fits
    short = long_grid(1, tokens=20)
    figure = bitext_grid_figure(short, short.greedy, "s, segment 1", PAGE_WIDTH)
    assert figure.layout.width <= PAGE_WIDTH and cell_pixels(figure)[1] == MAX_CELL


def test_each_reference_is_named_over_the_centre_of_its_columns():
    grid = long_grid(3, names=("ref-A", "ref-C", "newstest2021.en-de.ref.D.de"))
    figure = bitext_grid_figure(grid, grid.greedy, "s, segment 1", PAGE_WIDTH)
    names = figure.layout.annotations
    assert [name.text for name in names] == [
        "<b>ref-A</b>",
        "<b>ref-C</b>",
        "<b>newstest2021.en-de.ref.D.de</b>",  # 60 columns of 11 px hold it whole
    ]
    assert [name.hovertext for name in names] == grid.reference_names
    labels = figure.layout.margin.t - TITLE_HEIGHT - NAME_HEIGHT  # the column labels' height
    for name, (start, end) in zip(names, grid.reference_spans):
        assert name.x == (start + end - 1) / 2  # the centre of its columns...
        assert (name.xref, name.y, name.yref, name.yanchor) == ("x", 1, "y domain", "bottom")
        assert labels < name.yshift <= figure.layout.margin.t - TITLE_HEIGHT - NAME_FONT
    brackets = [shape for shape in figure.layout.shapes if shape.type == "path"]
    for bracket, (start, end) in zip(brackets, grid.reference_spans, strict=True):
        assert bracket.path.startswith(f"M {start - 0.5},") and f"H {end - 0.5} " in bracket.path
        assert (bracket.yref, bracket.ysizemode, bracket.yanchor) == ("y domain", "pixel", 1)


def test_a_long_name_over_a_short_reference_is_cut_and_whole_on_hover():
    test_set = named_test_set(
        {"a-reference-with-a-long-name": "a b c", "ref-B": "a b c d e f g h i j"}, "a b c"
    )
    grid = bitext_grid(test_set, "s", 1, AT_E2)
    first = bitext_grid_figure(grid, grid.greedy).layout.annotations[0]
    assert first.text.startswith("<b>a-ref") and first.text.endswith("…</b>")
    assert first.hovertext == "a-reference-with-a-long-name"


def test_hovering_a_cell_of_a_long_segment_shows_both_tokens_whole():
    candidate = " ".join([f"c{i}" for i in range(64)] + ["Donaudampfschifffahrtsgesellschaft"])
    reference = " ".join([f"r{i}" for i in range(62)] + ["Donaudampfschifffahrtsgesellschaft"])
    test_set = make_test_set([[reference]] * 3, {"s": [candidate]})
    grid = bitext_grid(test_set, "s", 1, AT_E2)
    figure = bitext_grid_figure(grid, grid.greedy, "s, segment 1", PAGE_WIDTH)
    (cells,) = figure.data
    assert cells.hovertemplate == "%{y}<br>%{x}%{text}<extra></extra>"
    assert cells.y[64] == "candidate 65: Donaudampfschifffahrtsgesellschaft"
    assert cells.x[64 + 62] == "ref2 63: Donaudampfschifffahrtsgesellschaft"
    assert figure.layout.xaxis.ticktext[62] == "Donaudampfschif…"  # cut on the axis only
    assert min(cell_pixels(figure)) >= MIN_CELL


def test_a_grid_too_wide_for_a_browser_canvas_gets_smaller_cells():
    test_set = make_test_set([" ".join(f"w{i}" for i in range(3000))], {"s": ["w1 w2 w3"]})
    grid = bitext_grid(test_set, "s", 1, AT_E2)
    figure = bitext_grid_figure(grid, grid.greedy)
    across, down = cell_pixels(figure)
    assert across == pytest.approx(down, rel=1e-3) and across < MIN_CELL  # pixels are whole
    assert across * 3001 <= MAX_GRID_SIDE + 1  # the width is rounded to a pixel


def test_one_reference_of_three_fits_the_page_with_its_blocks():
    grid = long_grid(3, names=("ref-A", "ref-C", "ref-D"))
    shown = one_reference(grid, 1)
    figure = bitext_grid_figure(shown, shown.exact, "s, segment 1, ref-C only", PAGE_WIDTH)
    assert figure.layout.width <= PAGE_WIDTH and min(cell_pixels(figure)) > MIN_CELL
    assert [name.text for name in figure.layout.annotations] == ["<b>ref-C</b>"]
    assert figure.layout.annotations[0].x == 29.5  # 60 columns, then the barrier
    blocks = [shape for shape in figure.layout.shapes if shape.type == "rect"]
    assert len(blocks) == len(shown.exact.blocks) >= 1
    run = next(block for block in blocks if (block.x0, block.y0) == (4.5, 19.5))
    assert run.x1 - run.x0 >= 20  # candidate tokens 21 to 40 against ref-C's 6th on


@pytest.mark.parametrize("n_references, max_width", [(1, 940), (3, 940), (3, 460), (1, 460)])
def test_the_width_a_page_plans_with_is_the_figure_s(n_references, max_width):
    """The Bitext page chooses side by side or stacked from bitext_grid_width, before drawing."""
    grid = long_grid(n_references)
    figure = bitext_grid_figure(grid, grid.greedy, "title", max_width)
    assert bitext_grid_width(grid, max_width) == figure.layout.width
