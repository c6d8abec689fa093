"""The bitext-grid object the viewer draws, and the greedy-versus-exact report."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from mteval_core.config import Options
from mteval_core.errors import InputError
from mteval_core.grid import bitext_grid, matching_gaps
from mteval_core.scoring import score_test_set
from tests.conftest import make_test_set


def test_grid_of_a_two_reference_segment():
    test_set = make_test_set([["a b"], ["c d x y"]], {"s": ["a b c d"]})
    grid = bitext_grid(test_set, "s", 1, Options(tokenize="none", gtm_exponent=2.0), exact=True)
    assert grid.candidate == ["a", "b", "c", "d"]
    assert grid.columns == ["a", "b", None, "c", "d", "x", "y", None]
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
    options = Options(gtm_exponent=2.0)
    scores = score_test_set(make_test_set(refs, system), ["gtm", "gtm_precision"], options)
    grid = bitext_grid(make_test_set(refs, system), "s", 1, options)
    assert grid.greedy.f == scores.corpus()["s"]["gtm"]
    assert grid.greedy.precision == scores.corpus()["s"]["gtm_precision"]


def test_fractional_cut_is_visible():
    grid = bitext_grid(
        make_test_set([["a b c d"], ["a b c d e"]], {"s": ["a b c d e"]}),
        "s",
        1,
        Options(tokenize="none", gtm_exponent=2.0),
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
    options = Options(gtm_exponent=2.0)
    bitext_grid(test_set, "s", 1, options, exact=True)  # imports scipy once
    start = time.perf_counter()
    grid = bitext_grid(test_set, "s", 1, options, exact=True)
    assert time.perf_counter() - start < 0.5
    assert len(grid.candidate) == 150 and grid.exact.weight >= grid.greedy.weight


def test_bad_segment_and_exponent():
    test_set = make_test_set(["a"], {"s": ["a"]})
    with pytest.raises(InputError, match="segment 2 does not exist"):
        bitext_grid(test_set, "s", 2, Options())
    with pytest.raises(InputError, match="at least 1"):
        bitext_grid(test_set, "s", 1, Options(gtm_exponent=0.5), exact=True)


def test_matching_gaps_report_where_greedy_falls_short():
    test_set = make_test_set(
        ["a a a b", "x y z", "a b c d"], {"s": ["a b a a", "x y z", "a b c d"]}
    )
    gaps = matching_gaps(test_set, "s", Options(tokenize="none", gtm_exponent=2.0))
    np.testing.assert_allclose(gaps.greedy, [math.sqrt(6), 3, 4])
    np.testing.assert_allclose(gaps.exact, [math.sqrt(8), 3, 4])
    assert gaps.shortfall[0] > 0 and (gaps.shortfall[1:] == 0).all()
    assert gaps.methods[0] == "milp"
