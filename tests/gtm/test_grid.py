"""The bitext-grid object the viewer draws, and the greedy-versus-exact report."""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd
import pytest

from mteval_core.errors import InputError
from mteval_core.gtm.grid import (
    SHORT_TEXT,
    bitext_grid,
    matching_gaps,
    segment_table,
    segments_matching,
)
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import load_sample, make_test_set

pytestmark = pytest.mark.usefixtures("gtm_loops")  # every grid on both GTM implementations


def test_grid_of_a_two_reference_segment():
    test_set = make_test_set([["a b"], ["c d x y"]], {"s": ["a b c d"]})
    grid = bitext_grid(
        test_set, "s", 1, Options.from_flags(tokenize="none", gtm_exponent=2.0), exact=True
    )
    assert grid.candidate == ["a", "b", "c", "d"]
    assert grid.columns == ["a", "b", None, "c", "d", "x", "y", None]
    assert grid.reference_names == ["ref1", "ref2"]
    assert grid.reference_spans == [(0, 2), (3, 7)]
    assert grid.hits.tolist() == [[0, 0], [1, 1], [2, 3], [3, 4]]
    assert grid.runs.tolist() == [[0, 0, 2], [2, 3, 2]]
    assert grid.cap == 3.0
    # greedy: "c d" first (later in the candidate), then "a b" cut to the one cell left
    assert grid.greedy.blocks.tolist() == [[2, 3, 2], [0, 0, 1]]
    assert grid.greedy.weight == 5.0 and grid.greedy.size == math.sqrt(5)
    assert grid.greedy.precision == math.sqrt(5) / 4
    assert grid.exact.weight == 5.0


def test_grid_numbers_equal_the_metric():
    refs = [["the cat sat on the mat ."], ["a cat was sitting on the mat ."]]
    system = {"s": ["the cat sat on a mat ."]}
    options = Options.from_flags(gtm_exponent=2.0)
    scores = score_test_set(make_test_set(refs, system), ["gtm", "gtm_precision"], options)
    grid = bitext_grid(make_test_set(refs, system), "s", 1, options)
    assert grid.greedy.f == scores.corpus()["s"]["gtm"]
    assert grid.greedy.precision == scores.corpus()["s"]["gtm_precision"]


def test_fractional_cut_is_visible():
    grid = bitext_grid(
        make_test_set([["a b c d"], ["a b c d e"]], {"s": ["a b c d e"]}),
        "s",
        1,
        Options.from_flags(tokenize="none", gtm_exponent=2.0),
        exact=True,
    )
    assert grid.greedy.blocks.tolist() == [[0, 5, 4.5]]
    assert grid.exact.blocks[:, 2].sum() == 4  # whole cells only


def test_stems_match_but_words_are_shown():
    grid = bitext_grid(
        make_test_set(["dogs running"], {"s": ["dog runs"]}), "s", 1, Options(stem="porter")
    )
    assert grid.candidate == ["dog", "runs"] and grid.columns == ["dogs", "running", None]
    assert grid.hits.tolist() == [[0, 0], [1, 1]]


def test_a_hundred_token_segment_is_instant():
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(30)]
    reference = " ".join(rng.choice(words, 150))
    candidate = " ".join(reference.split()[:80] + list(rng.choice(words, 70)))
    test_set = make_test_set([reference], {"s": [candidate]})
    options = Options.from_flags(gtm_exponent=2.0)
    bitext_grid(test_set, "s", 1, options, exact=True)  # imports scipy once
    start = time.perf_counter()
    grid = bitext_grid(test_set, "s", 1, options, exact=True)
    assert time.perf_counter() - start < 0.5
    assert len(grid.candidate) == 150 and grid.exact.weight >= grid.greedy.weight


def test_bad_segment_exponent_and_system():
    test_set = make_test_set(["a"], {"s": ["a"]})
    with pytest.raises(InputError, match="segment 2 does not exist"):
        bitext_grid(test_set, "s", 2, Options())
    with pytest.raises(InputError, match="at least 1"):
        bitext_grid(test_set, "s", 1, Options.from_flags(gtm_exponent=0.5), exact=True)
    with pytest.raises(InputError, match="at least 1"):
        segment_table(test_set, "s", Options.from_flags(gtm_exponent=0.5))
    with pytest.raises(InputError, match="no system named 'nobody'"):
        bitext_grid(test_set, "nobody", 1, Options())
    with pytest.raises(InputError, match="no system named 'nobody'"):
        segment_table(test_set, "nobody", Options())
    with pytest.raises(InputError, match="no system named 'nobody'"):
        segments_matching(test_set, "nobody", "a")


def test_matching_gaps_report_where_greedy_falls_short():
    test_set = make_test_set(
        ["a a a b", "x y z", "a b c d"], {"s": ["a b a a", "x y z", "a b c d"]}
    )
    gaps = matching_gaps(test_set, "s", Options.from_flags(tokenize="none", gtm_exponent=2.0))
    np.testing.assert_allclose(gaps.greedy, [math.sqrt(6), 3, 4])
    np.testing.assert_allclose(gaps.exact, [math.sqrt(8), 3, 4])
    assert gaps.shortfall[0] > 0 and (gaps.shortfall[1:] == 0).all()
    assert gaps.methods[0] == "search"


def test_matching_gaps_of_a_test_set_with_human_judgments():
    """Human judgments name every system; scoring one system alone must not trip over them."""
    test_set = load_sample().test_set
    gaps = matching_gaps(test_set, "neural-small", Options.from_flags(gtm_exponent=2.0))
    assert len(gaps.greedy) == test_set.n_segments == 40


@pytest.mark.parametrize("exponent", [1.0, 2.0, 3.0])
def test_segment_table_rows_equal_their_grids(exponent):
    test_set = load_sample().test_set
    options = Options.from_flags(gtm_exponent=exponent)
    table = segment_table(test_set, "neural-small", options)
    assert table["segment"].tolist() == list(range(1, 41))
    numeric = table.drop(columns="candidate")
    assert all(pd.api.types.is_numeric_dtype(numeric[c]) for c in numeric)  # sorts as numbers
    gaps = matching_gaps(test_set, "neural-small", options)
    assert np.array_equal(table["size shortfall"], gaps.shortfall)
    for segment in (1, 3, 17, 33, 40):
        grid = bitext_grid(test_set, "neural-small", segment, options, exact=True)
        row = table.iloc[segment - 1]
        assert row["F greedy"] == grid.greedy.f  # the same floats, bit for bit
        assert row["F exact"] == grid.exact.f
        assert row["candidate tokens"] == len(grid.candidate)
        spans = grid.reference_spans
        assert row["reference tokens"] == sum(end - start for start, end in spans) / len(spans)
        assert row["size shortfall"] == pytest.approx(grid.exact.size - grid.greedy.size)


def test_segment_table_shows_where_greedy_falls_short():
    test_set = make_test_set(
        ["a a a b", "x y z", "a b c d"], {"s": ["a b a a", "x y z", "a b c d"]}
    )
    table = segment_table(test_set, "s", Options.from_flags(tokenize="none", gtm_exponent=2.0))
    # |C| = |R| = 4, so P = R = F = size / 4: greedy sqrt(6) (runs 2 + 1 + 1), exact sqrt(8)
    np.testing.assert_allclose(table["F greedy"], [math.sqrt(6) / 4, 1, 1])
    np.testing.assert_allclose(table["F exact"], [math.sqrt(8) / 4, 1, 1])
    np.testing.assert_allclose(table["size shortfall"], [math.sqrt(8) - math.sqrt(6), 0, 0])
    assert table["candidate tokens"].tolist() == [4, 3, 4]
    assert table["candidate"].tolist() == ["a b a a", "x y z", "a b c d"]


def test_segment_table_of_an_empty_candidate_and_a_long_one():
    long_text = " ".join(["word"] * 60)
    test_set = make_test_set(["a b", "word"], {"s": ["", long_text]})
    table = segment_table(test_set, "s", Options.from_flags(gtm_exponent=2.0))
    assert table["F greedy"].tolist()[0] == 0 and table["F exact"].tolist()[0] == 0
    assert table["candidate tokens"].tolist() == [0, 60]
    shortened = table["candidate"].iloc[1]
    assert len(shortened) == SHORT_TEXT and shortened.endswith("…")


def test_search_finds_candidate_or_reference_text_ignoring_case():
    test_set = make_test_set(
        [["The cat sat", "A dog ran", "Birds fly"], ["the CAT was sitting", "x", "y"]],
        {"s": ["a cat", "the DOG", "fish swim"], "t": ["", "", ""]},
    )
    assert segments_matching(test_set, "s", "dog").tolist() == [False, True, False]
    assert segments_matching(test_set, "s", "CAT was").tolist() == [True, False, False]
    assert segments_matching(test_set, "s", "swim").tolist() == [False, False, True]
    assert segments_matching(test_set, "t", "swim").tolist() == [False, False, False]
    assert segments_matching(test_set, "s", "  ").all()  # no query: every segment


def test_segment_table_of_a_ted_system(ted):
    """Its speed is measured in bench/bench_dashboard.py, not here (timed tests are flaky)."""
    options = Options.from_flags(gtm_exponent=2.0)
    table = segment_table(ted, "Nemo", options)
    greedy_only = segment_table(ted, "Nemo", options, exact=False)
    assert "F exact" not in greedy_only.columns
    assert greedy_only["F greedy"].equals(table["F greedy"])
    assert len(table) == 529  # one reference: whole-number caps, so exact >= greedy everywhere
    assert (table["F exact"] >= table["F greedy"] - 1e-12).all()
