"""A system's matches are computed a block of segments at a time (ngrams.MATCH_BLOCK_TOKENS):
any block size, down to one segment a block, gives every statistic to the bit."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core import ngrams
from mteval_core.config import Options
from mteval_core.ngrams import EncodedCorpus, TokenStream
from mteval_core.testset import TestSet, TextColumn


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


@pytest.mark.parametrize("block_tokens", [1, 7, 100, 5_000])
def test_blocks_give_the_statistics_of_one_pass(ted, monkeypatch, block_tokens):
    """WMT21 TED: 13 systems x 529 segments (about 10,000 tokens each), in one pass and in
    blocks of 1 token (one segment a block), 7, 100 and 5,000 tokens."""
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
