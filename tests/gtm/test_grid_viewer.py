"""What the bitext-grid viewer decides from a grid: how its two matchings compare, one
reference's part of it, a segment number from a link, and the options its results are cached
under."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from mteval_core.gtm.grid import (
    bitext_grid,
    compare_matchings,
    one_reference,
    segment_number,
    viewer_options,
)
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

AT_E2 = Options.from_flags(tokenize="none", gtm_exponent=2.0)


def grid_of(references: list[list[str]] | list[str], candidate: list[str], segment: int = 1):
    test_set = make_test_set(references, {"s": candidate})
    return bitext_grid(test_set, "s", segment, AT_E2, exact=True)


def test_where_the_greedy_falls_short_the_matchings_differ():
    # "a b a a" against "a a a b": the greedy takes runs of 2, 1 and 1 (6), the exact two of 2 (8).
    comparison = compare_matchings(grid_of(["a a a b"], ["a b a a"]))
    assert comparison.differ and comparison.finding == "greedy falls short"


def test_where_both_find_one_run_they_agree():
    comparison = compare_matchings(grid_of(["x y z"], ["x y z"]))
    assert not comparison.differ and comparison.finding is None


def test_under_a_fractional_cap_the_greedy_takes_part_of_a_cell():
    # Cap 4.5 (mean reference length): the greedy's run of 5 is cut to 4.5 (20.25), the exact
    # matching takes 4 whole cells (16).
    comparison = compare_matchings(grid_of([["a b c d"], ["a b c d e"]], ["a b c d e"]))
    assert comparison.differ and comparison.finding == "fractional cap"


def test_an_exact_matching_not_found_in_time_is_named():
    grid = grid_of(["x y z"], ["x y z"])
    fallback = replace(grid, exact=replace(grid.exact, method="greedy-fallback"))
    comparison = compare_matchings(fallback)
    assert not comparison.differ and comparison.finding == "exact not found"
    without = compare_matchings(replace(grid, exact=None))
    assert not without.differ and without.finding is None


def test_one_reference_keeps_its_columns_hits_and_blocks_and_the_whole_numbers():
    # "x a b c" against ref1 "a b c" (columns 0-2), ref2 "q x a" (4-6) and ref3 "z y w v" (8-11),
    # each followed by its barrier; the cap is 10 / 3 tokens.
    grid = grid_of([["a b c"], ["q x a"], ["z y w v"]], ["x a b c"])
    assert grid.greedy.blocks.tolist() == [[1, 0, 3], [0, 5, pytest.approx(1 / 3)]]
    assert grid.exact.blocks.tolist() == [[1, 0, 3]]
    second = one_reference(grid, 1)
    assert second.columns == ["q", "x", "a", None] and second.reference_names == ["ref2"]
    assert second.reference_spans == [(0, 3)] and second.candidate == grid.candidate
    assert second.hits.tolist() == [[0, 1], [1, 2]]  # counted from ref2's first column
    assert second.runs.tolist() == [[0, 1, 2]]
    assert second.greedy.blocks.tolist() == [[0, 1, pytest.approx(1 / 3)]]  # the cut block
    assert second.exact.blocks.shape == (0, 3)
    assert (second.greedy.f, second.exact.f) == (grid.greedy.f, grid.exact.f)  # all references
    first = one_reference(grid, 0)
    assert np.array_equal(first.exact.blocks, grid.exact.blocks)
    third = one_reference(grid, 2)
    assert third.columns == ["z", "y", "w", "v", None] and len(third.hits) == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1", 1),
        ("40", 40),
        ("007", 7),
        ("0", None),
        ("41", None),
        ("-3", None),
        ("²", None),  # str.isdigit() says yes, int() says no
        ("9" * 5000, None),  # int() refuses over 4,300 digits
        ("two", None),
        ("", None),
    ],
)
def test_a_segment_number_from_a_link(text, expected):
    assert segment_number(text, 40) == expected


def test_viewer_options_take_the_exponent_and_one_matching():
    chosen = Options.from_flags(stem="porter", gtm_exponent=1.0, gtm_matching="exact")
    assert viewer_options(chosen, 2.5) == Options.from_flags(stem="porter", gtm_exponent=2.5)
    assert viewer_options(Options(stem="porter"), 2.5) == viewer_options(chosen, 2.5)


@pytest.mark.parametrize(
    "n_segments, n_references, quick",
    [
        (22, 2, True),
        (3_004, 1, True),
        (10_000, 1, True),
        (10_001, 1, False),
        (333, 3, True),
        (1_002, 3, False),
    ],
)
def test_exact_f_for_every_segment_waits_on_wmt_sized_sets(n_segments, n_references, quick):
    """With one reference the exact search is quick (WMT17's 3,004 segments: 0.04 s), so the
    viewer waits only above 10,000 segments; with several it asks first above 1,000 segments x
    references (WMT21 news en-de, 1,002 x 3: up to 1.2 s)."""
    from mteval_core.gtm.grid import exact_table_is_quick
    from mteval_core.model.testset import TestSet, TextColumn

    lines = tuple(f"segment {k}" for k in range(n_segments))
    test_set = TestSet(
        references=[TextColumn(f"ref-{r}", lines, "ref") for r in range(n_references)],
        systems=[TextColumn("system", lines, "system")],
    )
    assert exact_table_is_quick(test_set) is quick
