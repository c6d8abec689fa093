"""The exact matching's branch and bound (compiled and pure-Python loops) proven against scipy's
integer program and against brute force on random grids, and against the integer program on
WMT17 segments; the batch over segments agrees with the segment-by-segment path."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mteval_core.gtm.matching as matching
from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.gtm import _loops_python
from mteval_core.gtm.matching import (
    _integer_program,
    exact_matching,
    exact_sizes,
    greedy_matching,
    run_lengths,
    segment_grids,
)
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options
from tests.helpers import read_lines, shared_dataset

EXPONENTS = st.sampled_from([1.5, 2.0, 3.0])


@st.composite
def grids(draw, max_tokens: int = 12, max_alphabet: int = 4):
    """A candidate and Rcat (2 to 3 references, each followed by the barrier -1) over a small
    alphabet, so that runs overlap, and a whole or fractional cap."""
    words = st.integers(0, draw(st.integers(1, max_alphabet)) - 1)
    c = draw(st.lists(words, max_size=max_tokens))
    rcat: list[int] = []
    for reference in draw(st.lists(st.lists(words, max_size=max_tokens), min_size=2, max_size=3)):
        rcat += [*reference, -1]
    whole = st.integers(0, max_tokens).map(float)
    fractional = st.floats(0, max_tokens).map(lambda v: round(v, 2))
    cap = draw(st.one_of(whole, fractional))
    return np.array(c, np.int64), np.array(rcat, np.int64), cap


def assert_a_matching(c: np.ndarray, rcat: np.ndarray, blocks: np.ndarray, budget: int) -> None:
    """Blocks of hits, no two sharing a row or a column, at most ``budget`` cells."""
    cells = [(i + t, j + t) for i, j, length in blocks.tolist() for t in range(length)]
    assert all(c[i] == rcat[j] != -1 for i, j in cells)
    assert len({i for i, _ in cells}) == len(cells) == len({j for _, j in cells})
    assert len(cells) <= budget


def integer_program_total(c: np.ndarray, rcat: np.ndarray, budget: int, e: float) -> float:
    """scipy's MILP over every candidate block, started from GTM's greedy under the budget."""
    greedy_total, greedy = greedy_matching(c, rcat, float(budget), e)
    if len(greedy) == 0:  # no hit, or no budget
        return 0.0
    program = _integer_program(run_lengths(c, rcat), budget, e, greedy_total, greedy.astype(int))
    assert program.method == "milp"
    return program.total


def brute_force(c: np.ndarray, rcat: np.ndarray, budget: int, e: float) -> float:
    """Every assignment of rows to columns or to nothing; a matching weighs the sum over its
    maximal diagonal chains of len ** e (the best way to cut its cells into blocks)."""
    options = [[-1] + [j for j in range(len(rcat)) if rcat[j] == word != -1] for word in c]
    best = 0.0
    for columns in product(*options):
        used = [j for j in columns if j >= 0]
        if len(used) > budget or len(set(used)) < len(used):
            continue
        total, chain = 0.0, 0
        for i, j in enumerate(columns):
            extends = j > 0 and i > 0 and columns[i - 1] == j - 1
            chain = chain + 1 if extends else (1 if j >= 0 else 0)
            total += chain**e - (chain - 1) ** e if chain else 0.0
        best = max(best, total)
    return best


# ---------------------------------------------------------------------- proofs on random grids
@pytest.mark.usefixtures("gtm_loops")
@settings(max_examples=300, deadline=None)
@given(grids(), EXPONENTS)
def test_the_search_finds_the_integer_programs_optimum(data, e):
    c, rcat, cap = data
    budget = math.floor(cap)
    found = exact_matching(c, rcat, cap, e)
    assert found.method in ("bound", "search")
    assert_a_matching(c, rcat, found.blocks, budget)
    total = 0.0
    for length in found.blocks[:, 2].tolist():  # the total is the blocks' sum, in their order
        total += math.pow(length, e)
    assert found.total == total
    assert found.total == pytest.approx(integer_program_total(c, rcat, budget, e), rel=1e-12)


@pytest.mark.usefixtures("gtm_loops")
@settings(max_examples=300, deadline=None)
@given(grids(max_tokens=5, max_alphabet=3), EXPONENTS)
def test_the_search_equals_brute_force_on_tiny_grids(data, e):
    c, rcat, cap = data
    expected = brute_force(c, rcat, math.floor(cap), e)
    assert exact_matching(c, rcat, cap, e).total == pytest.approx(expected, rel=1e-12)


def test_a_greedy_that_falls_short_is_beaten_by_the_search(gtm_loops):
    # "b b a b" against "a a b a" and "a a b b": the greedy takes "a b" from the second reference
    # first (rows 2-3), which blocks both other 2-blocks: 4 + 1 + 1 = 6. The optimum takes "b b"
    # from the second reference and "a b" from the first: 4 + 4 = 8.
    c = np.array([1, 1, 0, 1], np.int64)
    rcat = np.array([0, 0, 1, 0, -1, 0, 0, 1, 1, -1], np.int64)
    assert greedy_matching(c, rcat, 4.0, 2.0)[0] == 6.0
    found = exact_matching(c, rcat, 4.0, 2.0)
    assert found.method == "search" and found.total == 8.0 == brute_force(c, rcat, 4, 2.0)
    assert found.blocks.tolist() == [[0, 7, 2], [2, 1, 2]]  # longest first, then by row


@pytest.mark.usefixtures("gtm_loops")
@settings(max_examples=60, deadline=None)
@given(grids(max_tokens=15), EXPONENTS)
def test_over_the_node_limit_the_integer_program_decides(data, e):
    c, rcat, cap = data
    searched = exact_matching(c, rcat, cap, e)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(matching, "GTM_EXACT_MAX_STEPS", 0)
        programmed = exact_matching(c, rcat, cap, e)
    assert programmed.method in ("bound", "milp")  # proven at a root, or past the search
    assert programmed.total == pytest.approx(searched.total, rel=1e-12)


# ---------------------------------------------------------------------- both implementations
@settings(max_examples=300, deadline=None)
@given(grids(max_tokens=25, max_alphabet=5), st.sampled_from([1.0, 1.5, 2.0, 3.0]))
def test_compiled_and_python_search_agree_to_the_bit(data, e):
    compiled = pytest.importorskip("mteval_core.gtm._loops")
    c, rcat, cap = data
    limits = (10_000_000, 1_000_000, 1_000_000, 3_000)  # a low step limit: UNSOLVED paths too
    ours = compiled.exact_matching(c, rcat, math.floor(cap), e, limits)
    theirs = _loops_python.exact_matching(c, rcat, math.floor(cap), e, limits)
    assert (ours[0], ours[1].tolist(), ours[2:]) == (theirs[0], theirs[1].tolist(), theirs[2:])


# ---------------------------------------------------------------------- whole test sets
@pytest.fixture(scope="module")
def wmt17_grids():
    """WMT17 en-de, 13a-tokenized: the first 300 segments of two systems."""
    folder = shared_dataset("wmt17-newstest2017-ende")
    systems = sorted((folder / "sys").iterdir())[:2]
    test_set = TestSet(
        references=[TextColumn("ref", tuple(read_lines(folder / "ref" / "ref.de")[:300]), "ref")],
        systems=[TextColumn(p.name, tuple(read_lines(p)[:300]), str(p)) for p in systems],
    )
    corpus = EncodedCorpus(test_set, Options(tokenize="13a"))
    return [segment_grids(corpus, system) for system in corpus.systems]


@pytest.mark.usefixtures("gtm_loops")
def test_wmt17_segments_need_no_integer_program_and_equal_it(wmt17_grids):
    for grids_ in wmt17_grids:
        sizes, methods = exact_sizes(*grids_, 2.0)
        assert "milp" not in methods and methods.count("search") > 0
        for s in [s for s, method in enumerate(methods) if method == "search"]:
            c, rcat = grids_.segment(s)
            program = integer_program_total(c, rcat, math.floor(grids_.caps[s]), 2.0)
            assert sizes[s] == program**0.5  # sums of squares: exact


@pytest.mark.usefixtures("gtm_loops")
def test_the_batch_equals_segment_by_segment(wmt17_grids, monkeypatch):
    monkeypatch.setattr(matching, "GTM_EXACT_MAX_STEPS", 500)  # some go to the program
    grids_ = wmt17_grids[0]
    sizes, methods = exact_sizes(*grids_, 3.0, progress=lambda share: None)
    assert {"bound", "search", "milp"} <= set(methods)
    for s in range(100):
        c, rcat = grids_.segment(s)
        found = exact_matching(c, rcat, float(grids_.caps[s]), 3.0)
        assert (sizes[s], methods[s]) == (found.total ** (1 / 3), found.method)
