"""The compiled n-gram matches (engine/_ngram_matches.pyx) give numpy's pass's numbers
(engine/ngrams.py, its fallback) to the bit: clipped matches, NIST information and unigram
matches per reference, on real test sets, on random text with repeats and on the edges (empty
segments and references, segments longer than the insertion sort's 32 n-grams, n-grams no
reference has, ranges of segments split over threads)."""

from __future__ import annotations

import random
import secrets

import numpy as np
import pytest

from mteval_core.engine import ngrams
from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.io import read_directory
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options
from tests.helpers import shared_dataset

pytestmark = pytest.mark.skipif(ngrams.compiled is None, reason="built without a C compiler")


def matches(test_set: TestSet, options: Options) -> dict[str, list[bytes]]:
    """Every match statistic of every system, as bytes (so -0.0 and NaN would count too)."""
    corpus = EncodedCorpus(test_set, options)
    result = {}
    for system in corpus.systems:
        orders = range(1, corpus.max_order + 1)
        arrays = [
            *(corpus.clipped_matches(system, n) for n in orders),
            *(corpus.nist_information(system, n) for n in orders),
            corpus.unigram_matches_per_reference(system),
        ]
        result[system] = [(a.dtype.str, a.shape, a.tobytes()) for a in arrays]
    return result


def assert_both_passes_agree(test_set: TestSet, monkeypatch, options: Options | None = None):
    options = options or Options()
    compiled = matches(test_set, options)
    with monkeypatch.context() as patch:
        patch.setattr(ngrams, "compiled", None)
        fallback = matches(test_set, options)
    assert compiled.keys() == fallback.keys()
    for system in compiled:
        assert compiled[system] == fallback[system], system


@pytest.mark.parametrize("options", [Options(), Options(stem="porter", lowercase=True)])
def test_wmt21_ted_every_system(ted, monkeypatch, options):
    assert_both_passes_agree(ted, monkeypatch, options)


def test_wmt21_news_three_references(monkeypatch):
    test_set = read_directory(shared_dataset("wmt21-newstest2021-ende")).test_set
    assert len(test_set.references) == 3
    small = TestSet(references=test_set.references, systems=test_set.systems[:4])
    assert_both_passes_agree(small, monkeypatch)


def random_column(name: str, rng: random.Random, n_segments: int, words: list[str]) -> TextColumn:
    """Segments of 0 to 80 words from a small vocabulary: many repeats, clipping, long n-grams
    shared with the references, empty segments."""
    segments = []
    for _ in range(n_segments):
        length = rng.choice([0, 1, 2, 5, 12, 30, 33, 80])
        segments.append(" ".join(rng.choice(words) for _ in range(length)))
    return TextColumn(name, tuple(segments), name)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_text_with_repeats_and_several_references(monkeypatch, seed):
    rng = random.Random(seed)
    words = [f"w{k}" for k in range(rng.choice([3, 8, 40]))]
    test_set = TestSet(
        references=[random_column(f"ref{r}", rng, 300, words) for r in range(1 + seed % 3)],
        systems=[random_column(f"sys{s}", rng, 300, [*words, "unseen"]) for s in range(3)],
    )
    monkeypatch.setattr(ngrams, "COMPILED_SPAN_SEGMENTS", 7)  # many ranges, on every core
    assert_both_passes_agree(test_set, monkeypatch)


def test_edges_empty_references_and_segments(monkeypatch):
    test_set = TestSet(
        references=[
            TextColumn("a", ("", "", "a b a b a", "x y z"), "a"),
            TextColumn("b", ("", "q", "", "x y"), "b"),
        ],
        systems=[
            TextColumn("s", ("the cat", "q q", "", "x y z x y z"), "s"),
            TextColumn("t", ("", "", "", ""), "t"),
        ],
    )
    assert_both_passes_agree(test_set, monkeypatch)
    corpus = EncodedCorpus(test_set, Options())
    assert corpus.clipped_matches("s", 1).tolist() == [0, 1, 0, 3]  # clipped by the max count
    assert corpus.clipped_matches("s", 2).tolist() == [0, 0, 0, 2]


def test_no_reference_words_at_all(monkeypatch):
    test_set = TestSet(
        references=[TextColumn("r", ("", ""), "r")],
        systems=[TextColumn("s", ("a b c", ""), "s")],
    )
    assert_both_passes_agree(test_set, monkeypatch)


def test_the_hash_tables_salt_changes_no_number(ted, monkeypatch):
    """The dictionaries' salt is drawn per corpus: any salt, including none, finds the same
    n-grams."""
    small = ted.with_systems(ted.systems[:2])
    first = matches(small, Options())
    for salt in (0, 1, secrets.randbits(64)):
        monkeypatch.setattr(secrets, "randbits", lambda bits, salt=salt: salt)
        assert matches(small, Options()) == first


def test_hash_table_slots():
    keys = np.array([-5, 0, 7, 1 << 40, 3], np.int64)
    slot_keys, slot_ids = ngrams.compiled.hash_table(keys, 12345)
    assert len(slot_keys) == 16 and (slot_ids >= 0).sum() == 5  # a power of two, at most half full
    assert sorted(slot_keys[slot_ids >= 0].tolist()) == sorted(keys.tolist())
    assert all(keys[i] == k for k, i in zip(slot_keys, slot_ids, strict=True) if i >= 0)
    empty_keys, empty_ids = ngrams.compiled.hash_table(np.zeros(0, np.int64), 1)
    assert len(empty_keys) == 2 and (empty_ids == -1).all()


def test_counts_past_one_byte(monkeypatch):
    """A reference segment that repeats an n-gram 256 times or more keeps int32 counts."""
    test_set = TestSet(
        references=[TextColumn("r", (" ".join(["a"] * 300), "a b"), "r")],
        systems=[TextColumn("s", (" ".join(["a"] * 400), "a a b"), "s")],
    )
    corpus = EncodedCorpus(test_set, Options())
    assert corpus._reference_index.max_counts[0].counts.dtype == np.int32
    assert corpus.clipped_matches("s", 1).tolist() == [300, 2]
    assert corpus.clipped_matches("s", 2).tolist() == [299, 1]
    assert_both_passes_agree(test_set, monkeypatch)


def test_the_dictionaries_and_totals_go_once_hashed(ted, monkeypatch):
    """The compiled index holds the dictionaries' keys (hash tables) and NIST's weights: the
    sorted keys and the totals are dropped, and every system asked for after that still gets
    numpy's pass's numbers (assert_both_passes_agree scores them all from one corpus)."""
    corpus = EncodedCorpus(ted, Options())
    index = corpus._reference_index
    assert sum(array.nbytes for array in [*index.dictionaries, *index.totals]) > 100_000
    weights = [corpus.nist_weights(n).copy() for n in range(1, corpus.max_order + 1)]
    corpus.clipped_matches(ted.system_names[0], 1)  # builds the compiled index
    assert index.dictionaries == [] and index.totals == []
    for n, before in enumerate(weights, start=1):  # kept in the cache, not recomputed
        assert np.array_equal(corpus.nist_weights(n), before)
    assert_both_passes_agree(ted, monkeypatch)
