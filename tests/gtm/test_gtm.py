"""GTM: the GTM 1.4 facts of ../shared/specs/gtm.md, an independent port of its greedy, and the
exact maximum matching proven against brute force (hypothesis)."""

from __future__ import annotations

import math
from collections import Counter
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.errors import InputError
from mteval_core.gtm.matching import exact_matching, greedy_matching, greedy_sizes
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.text.tokenizers import split_whitespace
from tests.helpers import make_test_set, read_lines, shared_dataset

GTM = ["gtm", "gtm_precision", "gtm_recall"]
pytestmark = pytest.mark.usefixtures("gtm_loops")  # every test on both implementations


def gtm(references, candidate, e=1.0, matching="greedy", tokenize="none"):
    options = Options.from_flags(tokenize=tokenize, gtm_exponent=e, gtm_matching=matching)
    result = score_test_set(make_test_set(references, {"s": candidate}), GTM, options)
    return result.corpus()["s"]


def grid(candidate: str, references: list[str]) -> tuple[np.ndarray, np.ndarray, float]:
    """Token ids of a candidate and of Rcat (references with barriers -1), and GTM's cap."""
    vocabulary: dict[str, int] = {}

    def ids(text: str) -> list[int]:
        return [vocabulary.setdefault(t, len(vocabulary)) for t in split_whitespace(text)]

    rcat: list[int] = []
    for reference in references:
        rcat += [*ids(reference), -1]
    c = np.array(ids(candidate), np.int64)
    mean = sum(len(split_whitespace(r)) for r in references) / len(references)
    return c, np.array(rcat, np.int64), min(len(c), mean)


# ---------------------------------------------------------------------- GTM 1.4 facts (the spec)
def test_identical_six_tokens_at_e3_gives_gtm14s_float():
    scores = gtm(["a b c d e f"], ["a b c d e f"], e=3.0)
    assert scores["gtm"] == 0.9999999999999999  # 216 ** (1/3) = 5.999999999999999


def test_empty_against_empty_is_zero():
    assert gtm([""], [""]) == {"gtm": 0.0, "gtm_precision": 0.0, "gtm_recall": 0.0}
    assert gtm(["a b"], [""])["gtm"] == 0.0


@pytest.mark.parametrize("e", [1.0, 2.0, 3.0])
def test_fractional_cap_cuts_the_last_block(e):
    # references of 4 and 5 tokens: mean 4.5 = cap; the 5-token block is cut to 4.5
    scores = gtm([["a b c d"], ["a b c d e"]], ["a b c d e"], e=e)
    size = 4.5  # (4.5 ** e) ** (1 / e)
    assert scores["gtm_precision"] == pytest.approx(size / 5, abs=1e-15)
    assert scores["gtm_recall"] == pytest.approx(size / 4.5, abs=1e-15)
    exact = gtm([["a b c d"], ["a b c d e"]], ["a b c d e"], e=e, matching="exact")
    assert exact["gtm_precision"] == pytest.approx(4 / 5)  # whole cells only: floor(4.5) = 4


def test_barrier_and_selection_order():
    # Rcat = a b | c d x y | ; cap = min(4, mean 3) = 3. Both blocks have length 2; the later one
    # in the candidate ("c d", rows 2-3) goes first, then "a b" is cut to the remaining 1 cell.
    c, rcat, cap = grid("a b c d", ["a b", "c d x y"])
    total, blocks = greedy_matching(c, rcat, cap, 2.0)
    assert blocks.tolist() == [[2, 3, 2], [0, 0, 1]]
    assert total == 2**2 + 1**2
    scores = gtm([["a b"], ["c d x y"]], ["a b c d"], e=2.0)
    assert scores["gtm_precision"] == math.sqrt(5) / 4
    # without the barrier the four words would be one run of length 4 cut to 3
    assert gtm(["a b c d x y"], ["a b c d"], e=2.0)["gtm_precision"] == 1.0


def test_hits_from_two_references_in_one_segment():
    # "a b" matches in reference 1 and "c" in reference 2; cap min(3, 2.5) = 2.5
    c, rcat, cap = grid("a b c", ["x a b", "c y"])
    total, blocks = greedy_matching(c, rcat, cap, 2.0)
    assert blocks.tolist() == [[0, 1, 2], [2, 4, 0.5]]
    assert total == 4 + 0.25


def test_equal_length_blocks_later_in_the_candidate_first():
    c, rcat, cap = grid("a b a b", ["a b"])
    _, blocks = greedy_matching(c, rcat, cap, 2.0)
    assert blocks[0].tolist() == [2, 0, 2]


def test_closed_form_at_e1():
    # size = min(sum over words of min(count in C, count in all references), cap)
    scores = gtm([["the cat the"], ["a cat sat"]], ["the the the cat cat sat"])
    # the: min(3, 2) = 2, cat: min(2, 2) = 2, sat: 1 -> 5; cap = min(6, 3) = 3
    assert scores["gtm_precision"] == 3 / 6 and scores["gtm_recall"] == 3 / 3


def test_exact_finds_more_than_greedy_at_e2():
    # candidate "a b a a" against "a a a b": greedy takes the last 2-run first ("a a", rows 2-3,
    # columns 1-2), which blocks both other 2-runs; 2**2 + 1 + 1 = 6. The optimum pairs
    # "a b" (rows 0-1, columns 2-3) with "a a" (rows 2-3, columns 0-1): 2**2 + 2**2 = 8.
    c, rcat, cap = grid("a b a a", ["a a a b"])
    greedy_total, greedy = greedy_matching(c, rcat, cap, 2.0)
    assert greedy_total == 6.0 and greedy[0].tolist() == [2, 1, 2]
    exact = exact_matching(c, rcat, cap, 2.0)
    assert exact.total == 8.0 and exact.method == "search"
    assert sorted(exact.blocks.tolist()) == [[0, 2, 2], [2, 0, 2]]
    exact_scores = gtm(["a a a b"], ["a b a a"], e=2.0, matching="exact")
    assert exact_scores["gtm_precision"] == math.sqrt(8) / 4


def test_below_one_gtm14_scores_can_exceed_one():
    # two separate hits: (1 ** 0.5 + 1 ** 0.5) ** 2 = 4 > 2 matched words; GTM 1.4 prints R = 2
    assert gtm(["a a"], ["a b a"], e=0.5)["gtm_recall"] == 2.0


def test_exact_mode_refuses_exponents_below_one():
    with pytest.raises(InputError, match="at least 1"):
        Options.from_flags(gtm_exponent=0.5, gtm_matching="exact")
    assert gtm(["a b c"], ["a b c"], e=0.5)["gtm"] == pytest.approx(1.0)  # greedy is fine


# ---------------------------------------------------------------------- an independent port
def gtm14_port_blocks(c: np.ndarray, rcat: np.ndarray, cap: float, e: float):
    """The spec's greedy over every block ((i, j), l), on id arrays with any cap: the total and
    the blocks (i, j, len) in the order taken."""
    m, x = len(c), len(rcat)
    chain = np.zeros((m + 1, x + 1), np.int64)
    for i in range(m - 1, -1, -1):
        for j in range(x - 1, -1, -1):
            if rcat[j] != -1 and c[i] == rcat[j]:
                chain[i, j] = chain[i + 1, j + 1] + 1
    cells = [(i, j) for i in range(m) for j in range(x)]
    order = sorted(
        ((n, i * x + j, i, j) for i, j in cells for n in range(1, chain[i, j] + 1)), reverse=True
    )
    rows, cols = set(), set()
    remaining, total, taken = cap, 0.0, []
    for n, _, i, j in order:
        if remaining <= 0:
            break
        length = min(n, remaining)
        cells = math.ceil(length)
        if any(i + t in rows or j + t in cols for t in range(cells)):
            continue
        rows.update(range(i, i + cells))
        cols.update(range(j, j + cells))
        remaining -= length
        total += length**e
        taken.append((i, j, length))
    return total, taken


def gtm14_port(candidate: list[str], references: list[list[str]], e: float) -> float:
    """GTM 1.4's greedy written plainly from the spec (see gtm14_port_blocks): sum of len ** e."""
    ids: dict[str, int] = {}
    rcat: list[int] = []
    for reference in references:
        rcat += [ids.setdefault(token, len(ids)) for token in reference] + [-1]
    c = [ids.setdefault(token, len(ids)) for token in candidate]
    cap = min(len(candidate), sum(len(r) for r in references) / len(references))
    return gtm14_port_blocks(np.array(c, np.int64), np.array(rcat, np.int64), cap, e)[0]


def test_wmt_segments_equal_the_independent_port():
    folder = shared_dataset("wmt21-newstest2021-ende")
    refs = [read_lines(folder / "ref" / f"ref-{x}.de")[:150] for x in "AC"]
    systems = {p.stem: read_lines(p)[:150] for p in sorted((folder / "sys").iterdir())[:3]}
    for e in (2.0, 3.0, 0.5):
        options = Options.from_flags(tokenize="13a", gtm_exponent=e)
        result = score_test_set(make_test_set(refs, systems), ["gtm_precision"], options)
        for name, hyp in systems.items():
            stats = result.statistics["gtm_precision"][name]
            from mteval_core.text.tokenizers import tokenize

            hyp_tokens = tokenize(hyp, options)
            ref_tokens = [tokenize(r, options) for r in refs]
            for s, tokens in enumerate(hyp_tokens):
                expected = gtm14_port(tokens, [r[s] for r in ref_tokens], e) ** (1 / e)
                assert stats[s, 0] == expected, (name, s, e)


# ---------------------------------------------------------------------- properties
TOKENS = st.lists(st.sampled_from("abc"), max_size=6)


@st.composite
def small_grids(draw):
    candidate = draw(TOKENS)
    references = draw(st.lists(TOKENS, min_size=1, max_size=3))
    return candidate, references


def as_arrays(candidate, references):
    return grid(" ".join(candidate), [" ".join(r) for r in references])


def brute_force(c: np.ndarray, rcat: np.ndarray, budget: int, e: float) -> float:
    """Try every set of non-conflicting blocks with at most ``budget`` cells.

    A branch stops where it cannot beat the best set found so far: blocks of lengths l1..lk on
    the R cells left add at most R ** e, since l1 ** e + ... + lk ** e <= (l1 + ... + lk) ** e
    for e >= 1. Without this bound, a grid of one repeated word took minutes."""
    assert e >= 1, "the bound holds for e >= 1 only"
    m, x = len(c), len(rcat)
    blocks = [
        (i, j, n)
        for i in range(m)
        for j in range(x)
        for n in range(1, min(m - i, x - j) + 1)
        if all(c[i + t] == rcat[j + t] != -1 for t in range(n))
    ]
    best = 0.0

    def search(k: int, rows: frozenset, cols: frozenset, cells: int, total: float) -> None:
        nonlocal best
        best = max(best, total)
        if total + (budget - cells) ** e <= best:
            return
        for n in range(k, len(blocks)):
            i, j, length = blocks[n]
            if cells + length > budget:
                continue
            r, q = set(range(i, i + length)), set(range(j, j + length))
            if rows & r or cols & q:
                continue
            search(n + 1, rows | r, cols | q, cells + length, total + length**e)

    search(0, frozenset(), frozenset(), 0, 0.0)
    return best


# 150 grids for each loops build: tests/gtm/test_gtm_exact_solver.py holds the search's own
# brute-force battery besides, and the Python loops' search is slow on the largest grids
@settings(max_examples=150, deadline=None)
@given(small_grids(), st.sampled_from([1.0, 1.5, 2.0, 3.0]))
def test_exact_equals_brute_force(data, e):
    c, rcat, cap = as_arrays(*data)
    assert exact_matching(c, rcat, cap, e).total == pytest.approx(
        brute_force(c, rcat, math.floor(cap), e), abs=1e-9
    )


@settings(max_examples=300, deadline=None)
@given(small_grids(), st.sampled_from([1.0, 2.0, 3.0]))
def test_exact_is_at_least_greedy_under_an_integer_cap(data, e):
    c, rcat, cap = as_arrays(*data)
    budget = float(math.floor(cap))
    greedy_total, _ = greedy_matching(c, rcat, budget, e)
    exact_total = exact_matching(c, rcat, budget, e).total
    assert exact_total >= greedy_total - 1e-9
    if e == 1.0:
        assert exact_total == greedy_total


@settings(max_examples=300, deadline=None)
@given(small_grids(), st.sampled_from([0.5, 1.0, 2.0, 3.0]))
def test_compiled_greedy_equals_the_port_and_scores_stay_in_range(data, e):
    candidate, references = data
    c, rcat, cap = as_arrays(candidate, references)
    total, _ = greedy_matching(c, rcat, cap, e)
    assert total == gtm14_port(candidate, references, e)
    if e < 1:  # GTM 1.4's size can exceed the matched cells then (see test_below_one_...)
        return
    scores = gtm([[" ".join(r)] for r in references], [" ".join(candidate)], e=e)
    for value in scores.values():
        # GTM 1.4's pow round trip may overshoot by an ulp: (0.5 ** 0.5) ** 2 = 0.5000000000000001
        assert 0.0 <= value <= 1.0 + 1e-12


@settings(max_examples=300, deadline=None)
@given(small_grids())
def test_greedy_at_e1_has_the_closed_form(data):
    # size = min(sum over words of min(count in C, count in all references), cap), to the bit
    candidate, references = data
    c, rcat, cap = as_arrays(candidate, references)
    in_references = Counter(token for reference in references for token in reference)
    matched = sum(min(n, in_references[token]) for token, n in Counter(candidate).items())
    offsets = np.array([0, len(c)]), np.array([0, len(rcat)])
    size = greedy_sizes(c, offsets[0], rcat, offsets[1], np.array([cap], float), 1.0)[0]
    assert size == min(matched, cap)


@settings(max_examples=100, deadline=None)
@given(small_grids())
def test_reference_order_does_not_matter_at_e1(data):
    candidate, references = data
    results = {
        tuple(gtm([[" ".join(r)] for r in order], [" ".join(candidate)]).values())
        for order in permutations(references)
    }
    assert len(results) == 1


def test_huge_grids_fall_back_to_greedy_with_a_warning(monkeypatch):
    import mteval_core.gtm.matching as matching

    monkeypatch.setattr(matching, "GTM_EXACT_MAX_STEPS", 0)  # past the search, to the program
    monkeypatch.setattr(matching, "MAX_EXACT_BLOCKS", 3)
    test_set = make_test_set(["a a a b"], {"s": ["a b a a"]})
    options = Options.from_flags(tokenize="none", gtm_exponent=2.0, gtm_matching="exact")
    with pytest.warns(UserWarning, match="1 segment"):
        scores = score_test_set(test_set, ["gtm_precision"], options).corpus()
    assert scores["s"]["gtm_precision"] == math.sqrt(6) / 4  # the greedy size, a lower bound


# ------------------------------------------- the run-based greedy against the port, block by block
@st.composite
def larger_grids(draw):
    alphabet = draw(st.integers(1, 4))
    words = st.integers(0, alphabet - 1)
    c = draw(st.lists(words, max_size=30))
    rcat: list[int] = []
    for reference in draw(st.lists(st.lists(words, max_size=30), min_size=1, max_size=3)):
        rcat += [*reference, -1]
    fractional = st.floats(0, 30).map(lambda v: round(v, 2))
    cap = draw(st.one_of(st.integers(0, 30).map(float), fractional))
    return np.array(c, np.int64), np.array(rcat, np.int64), cap


@settings(max_examples=400, deadline=None)
@given(larger_grids(), st.sampled_from([0.5, 1.0, 2.0, 3.0]))
def test_run_based_greedy_takes_gtm14s_blocks_in_gtm14s_order(data, e):
    # repeated words and arbitrary caps: where runs overlap and the cap cuts a block mid-run
    c, rcat, cap = data
    total, blocks = greedy_matching(c, rcat, cap, e)
    expected_total, expected_blocks = gtm14_port_blocks(c, rcat, cap, e)
    assert total == expected_total
    assert [tuple(b) for b in blocks.tolist()] == [tuple(map(float, b)) for b in expected_blocks]
