"""Matches (numpy's pass, the fallback of the compiled one), the reference index and GTM's
sizes are computed a block of segments at a time (ngrams.MATCH_BLOCK_TOKENS): any block size,
down to one segment a block, gives every statistic to the bit. Systems are encoded when asked
for, with ids that do not depend on the order."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.engine import ngrams
from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.engine.tokens import TokenStream
from mteval_core.metrics.gtm import segment_sizes
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options


def all_matches(test_set: TestSet) -> dict[str, list[np.ndarray]]:
    corpus = EncodedCorpus(test_set, Options())
    result = {}
    for system in corpus.systems:
        orders = range(1, corpus.max_order + 1)
        result[system] = [
            *(corpus.clipped_matches(system, n) for n in orders),
            *(corpus.nist_information(system, n) for n in orders),
            corpus.unigram_matches_per_reference(system),
        ]
    return result


@pytest.fixture(autouse=True)
def numpy_matches(monkeypatch):
    """numpy's pass, whose blocks these tests are about (tests/metrics/test_ngram_matches.py
    compares the compiled pass with it)."""
    monkeypatch.setattr(ngrams, "compiled", None)


@pytest.mark.parametrize("block_tokens", [1, 7, 100, 5_000])
def test_blocks_give_the_statistics_of_one_pass(ted, monkeypatch, block_tokens):
    """WMT21 TED: 13 systems x 529 segments (about 10,000 tokens each), in one pass and in
    blocks of 1 token (one segment a block), 7, 100 and 5,000 tokens; the tiny blocks, thousands
    of them per system, on 3 systems."""
    if block_tokens < 100:
        ted = TestSet(references=ted.references, systems=ted.systems[:3])
    whole = all_matches(ted)
    monkeypatch.setattr(ngrams, "MATCH_BLOCK_TOKENS", block_tokens)
    blocked = all_matches(ted)
    for system, arrays in whole.items():
        for one_pass, in_blocks in zip(arrays, blocked[system], strict=True):
            assert np.array_equal(one_pass, in_blocks), system


def test_blocks_with_two_references_and_empty_segments(monkeypatch):
    test_set = TestSet(
        references=[
            TextColumn("a", ("the cat sat", "", "a b a b a", "x y z"), "a"),
            TextColumn("b", ("a cat sat on", "q", "", "x y"), "b"),
        ],
        systems=[TextColumn("s", ("the cat sat on", "q q", "", "x y z x y z"), "s")],
    )
    whole = all_matches(test_set)["s"]
    monkeypatch.setattr(ngrams, "MATCH_BLOCK_TOKENS", 3)
    for one_pass, in_blocks in zip(whole, all_matches(test_set)["s"], strict=True):
        assert np.array_equal(one_pass, in_blocks)
    assert whole[0].tolist() == [4, 1, 0, 3]  # unigram matches, clipped by the max reference count


def test_block_ranges_cover_every_segment_once():
    stream = TokenStream(np.zeros(10, np.int32), np.array([0, 3, 3, 4, 9, 10]))
    assert stream.blocks(4) == [(0, 3), (3, 4), (4, 5)]  # a 5-token segment is a block alone
    assert stream.blocks(100) == [(0, 5)]
    assert stream.blocks(1) == [(0, 1), (1, 3), (3, 4), (4, 5)]  # empty segment 1 joins 2
    block = stream.block(1, 4)
    assert block.offsets.tolist() == [0, 0, 1, 6] and len(block.ids) == 6
    empty = TokenStream(np.zeros(0, np.int32), np.zeros(1, np.int64))
    assert empty.blocks(4) == [(0, 0)]


@pytest.mark.parametrize(
    ("exponent", "matching"), [(1.0, "greedy"), (2.0, "greedy"), (2.0, "exact")]
)
def test_gtm_sizes_in_blocks(ted, monkeypatch, exponent, matching):
    """GTM's loops take a block of segments at a time too: the same size for every segment."""
    options = Options.from_flags(gtm_exponent=exponent, gtm_matching=matching)
    small = ted.with_systems(ted.systems[:3])

    def sizes() -> list[np.ndarray]:
        corpus = EncodedCorpus(small, options)
        return [segment_sizes(corpus, system, options) for system in corpus.systems]

    whole = sizes()
    monkeypatch.setattr(ngrams, "MATCH_BLOCK_TOKENS", 50)
    assert all(np.array_equal(a, b) for a, b in zip(whole, sizes(), strict=True))


def test_reference_counts_give_back_their_blocks():
    """The compact reference table (int32 ids and segment offsets) gives back the keys and
    counts of any range of segments, as the blocks it was built from had them."""
    n_ids = np.int64(10)
    blocks = [
        ngrams._SegmentCounts(np.array([3, 17, 19]), np.array([1, 2, 1], np.uint8), n_ids),
        ngrams._SegmentCounts(np.array([40, 41]), np.array([300, 1], np.int32), n_ids),
    ]
    table = ngrams._ReferenceCounts.of(blocks, n_segments=5)
    assert table.ids.dtype == np.int32 and table.ids.tolist() == [3, 7, 9, 0, 1]
    assert table.offsets.tolist() == [0, 1, 3, 3, 3, 5]  # segments 2 and 3 have no n-grams
    middle = table.block(1, 5)
    assert middle.keys.tolist() == [17, 19, 40, 41] and middle.counts.tolist() == [2, 1, 300, 1]
    assert table.block(2, 4).keys.tolist() == []


def test_systems_are_encoded_when_asked_with_ids_of_the_test_set_order(ted):
    """A system's tokens are encoded when asked for and dropped on release; the ids do not
    depend on the order systems are asked in, nor on a release."""
    small = ted.with_systems(ted.systems[:3])
    names = small.system_names
    in_order = EncodedCorpus(small, Options())
    expected = {name: in_order.systems[name].ids.copy() for name in names}
    backwards = EncodedCorpus(small, Options())
    for name in reversed(names):
        assert np.array_equal(backwards.systems[name].ids, expected[name]), name
        backwards.release(name)
    assert np.array_equal(backwards.systems[names[0]].ids, expected[names[0]])
    assert list(backwards.systems) == names and len(backwards.systems) == 3
    with pytest.raises(KeyError):
        backwards.systems["no such system"]
