"""METEOR's alignment in the bitext grid: cells coloured by module, paraphrase blocks, chunk
outlines, the kept reference, the numbers in the title. Built from a hand-made view (plain data),
so the figure is checked apart from the aligner."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest

from mteval_core.metrics.meteor.segment_view import (
    AlignedSpan,
    MeteorSegmentView,
    ModuleCount,
    SearchResult,
    aligned_spans,
)
from mteval_core.metrics.meteor.stage import Match
from mteval_core.report.figures import meteor_alignment_figure, meteor_alignment_width
from mteval_core.report.figures.meteor_grid import (
    CANDIDATE_COLOUR,
    EMPTY_COLOUR,
    KEY_CHAR,
    KEY_LINE,
    KEY_PAD,
    MODULE_COLOURS,
)

MODULES = ("exact", "stem", "synonym", "paraphrase")
HYPOTHESIS = ("the", "cats", "sat", "on", "a", "mat")
REFERENCE = ("a", "cat", "was", "sitting", "on", "the", "mat")
# reference order: cats~cat (stem), sat~"was sitting" (paraphrase), on (exact): one chunk;
# mat (exact) after a gap in the reference ("the" skipped): a second chunk
MATCHES = (
    Match(1, 1, 1, 1, 1.0, 1),
    Match(2, 2, 2, 1, 1.0, 3),
    Match(4, 1, 3, 1, 1.0, 0),
    Match(6, 1, 5, 1, 1.0, 0),
)


def result(search: str, matches: tuple[Match, ...], reference: int = 1) -> SearchResult:
    spans = aligned_spans(matches, MODULES)
    return SearchResult(
        search=search,
        reference=reference,
        reference_scores=(0.2, 0.5),
        matches=spans,
        chunks=max(s.chunk for s in spans) + 1,
        per_module=tuple(
            ModuleCount(
                m,
                sum(s.module == m for s in spans),
                sum(s.hypothesis_length for s in spans if s.module == m),
                sum(s.reference_length for s in spans if s.module == m),
            )
            for m in MODULES
        ),
        hypothesis_matched=4,
        reference_matched=5,
        precision=0.6,
        recall=0.7,
        fmean=0.69,
        fragmentation=2 / 4.5,
        penalty=0.3,
        score=0.5,
    )


VIEW = MeteorSegmentView(
    hypothesis=HYPOTHESIS,
    references=(("x",), REFERENCE),
    modules=MODULES,
    left_out=(),
    scored_with="beam",
    beam=result("beam", MATCHES),
    exact=replace(result("exact", MATCHES[:3]), score=0.45),
    candidates=(
        (),
        (AlignedSpan(4, 1, 0, 1, "exact"), AlignedSpan(0, 1, 5, 1, "exact")),  # "a", "the"
    ),
)


def colour_of_cells(figure) -> np.ndarray:
    """Each cell's colour, read through the figure's discrete colour scale."""
    heatmap = figure.data[0]
    z = np.array(heatmap.z)
    scale = heatmap.colorscale
    states = round(heatmap.zmax - heatmap.zmin)
    colours = [scale[2 * k][1] for k in range(states)]
    return np.vectorize(lambda state: colours[int(state - heatmap.zmin - 0.5)])(z)


def test_cells_take_their_modules_colour_and_a_paraphrase_its_whole_block():
    figure = meteor_alignment_figure(VIEW, "beam", ["ref-A", "ref-B"], "sys, segment 3: METEOR")
    colours = colour_of_cells(figure)
    assert colours.shape == (len(HYPOTHESIS), len(REFERENCE))
    assert colours[1, 1] == MODULE_COLOURS["stem"]
    assert colours[2, 2] == colours[2, 3] == MODULE_COLOURS["paraphrase"]
    assert colours[3, 4] == colours[5, 6] == MODULE_COLOURS["exact"]
    assert colours[4, 0] == colours[0, 5] == CANDIDATE_COLOUR  # offered, not kept
    assert (colours == EMPTY_COLOUR).sum() == colours.size - 7
    notes = np.array(figure.data[0].text)
    assert "paraphrase match, 1 hypothesis word(s) to 2 reference word(s)" in notes[2, 3]
    assert notes[5, 6].endswith("chunk 2 of 2")


def test_each_chunk_is_outlined_and_each_many_word_match_drawn_as_a_block():
    figure = meteor_alignment_figure(VIEW, "beam", ["ref-A", "ref-B"])
    shapes = figure.layout.shapes
    chunks = [s for s in shapes if s.name.startswith("chunk")]
    assert len(chunks) == VIEW.beam.chunks == 2
    first = chunks[0]  # cats .. on: hypothesis 1-3, reference 1-4
    assert (first.x0, first.x1, first.y0, first.y1) == (0.5, 4.5, 0.5, 3.5)
    blocks = [s for s in shapes if s.name == "paraphrase block"]
    assert [(b.x0, b.x1, b.y0, b.y1) for b in blocks] == [(1.5, 3.5, 1.5, 2.5)]
    exact = meteor_alignment_figure(VIEW, "exact", ["ref-A", "ref-B"])
    assert len([s for s in exact.layout.shapes if s.name.startswith("chunk")]) == 1


def test_title_key_and_reference_name_tell_the_numbers():
    figure = meteor_alignment_figure(VIEW, "exact", ["ref-A", "ref-B"], "sys, segment 3: METEOR")
    assert figure.layout.title.text == (
        "sys, segment 3: METEOR<br><sup>exact: 3 matches in 1 chunk, Fmean 0.690, "
        "penalty 0.300, METEOR 0.450</sup>"
    )
    texts = [a.text for a in figure.layout.annotations]
    assert "<b>ref-B</b>" in texts  # the reference METEOR keeps, not the first
    key = next(a.text for a in figure.layout.annotations if a.name == "key")
    assert "exact 1" in key and "stem 1" in key and "synonym 0" in key and "paraphrase 1" in key
    assert figure.layout.width == meteor_alignment_width(VIEW, "exact")


def test_chunk_indices_follow_both_lines():
    spans = aligned_spans(MATCHES, MODULES)
    assert [s.chunk for s in spans] == [0, 0, 0, 1]
    # contiguous in the reference but not in the hypothesis: a new chunk
    crossed = aligned_spans((Match(0, 1, 2, 1, 1.0, 0), Match(1, 1, 0, 1, 1.0, 0)), MODULES)
    assert [s.chunk for s in crossed] == [0, 1]


def test_words_and_names_are_drawn_as_written():
    view = replace(VIEW, hypothesis=("<b>the", *HYPOTHESIS[1:]))
    figure = meteor_alignment_figure(view, "beam", ["ref-A", '<a href="x">B</a>'], "<i>sys")
    assert figure.layout.yaxis.ticktext[0] == "&lt;b>the"
    assert figure.data[0].y[0] == "hypothesis 1: &lt;b>the"
    assert figure.layout.title.text.startswith("&lt;i>sys<br>")
    assert '<b>&lt;a href="x">B&lt;/a></b>' in [a.text for a in figure.layout.annotations]


def key_lines(figure) -> list[str]:
    """The key's lines as drawn: its entries without their colour tags."""
    key = next(a for a in figure.layout.annotations if a.name == "key")
    return [re.sub(r"<[^>]+>", "", line) for line in key.text.split("<br>")]


@pytest.mark.parametrize(
    "hypothesis",
    [HYPOTHESIS, ("extraordinarily", "unbelievable", "sat", "on", "a", "mat")],
    ids=["short words", "long words"],
)
def test_the_key_starts_at_the_figures_edge_and_fits_its_width(hypothesis):
    """Issue 42: the key started at the grid's left edge, which long hypothesis words push
    right, in one line: on a narrow figure it ran past the right edge ("not kept" and "chunk"
    cut off; tests/e2e/test_meteor_browser.py measures it as drawn)."""
    view = replace(VIEW, hypothesis=hypothesis)
    figure = meteor_alignment_figure(view, "beam", ["ref-A", "ref-B"], "s, segment 1", 440)
    layout = figure.layout
    key = next(a for a in layout.annotations if a.name == "key")
    plot_width = layout.width - layout.margin.l - layout.margin.r
    assert layout.margin.l + key.x * plot_width == KEY_PAD  # from the figure's left edge
    lines = key_lines(figure)
    entries = ["■ exact 2", "■ stem 1", "■ synonym 0", "■ paraphrase 1", "■ not kept", "□ chunk"]
    assert [entry for line in lines for entry in line.split("   ")] == entries
    room = layout.width - 2 * KEY_PAD
    assert all(len(line) * KEY_CHAR * 12 <= room for line in lines)
    assert layout.margin.b >= KEY_PAD + KEY_LINE * len(lines)  # every line has its room
    wide = meteor_alignment_figure(view, "beam", ["ref-A", "ref-B"], "s, segment 1", 940)
    assert len(key_lines(wide)) <= len(lines)
