"""mteval_core.compare against compare-mt 0.2.10's own numbers, pinned in
compare_mt_expected.json by scripts/compare_mt_fixture.py (the TED sk-en set of compare-mt's
example, 2,445 sentences, and the first 600 sentences of WMT17 en-de, LIUM-NMT against
uedin-nmt): every bucket of every analysis (word accuracy also with the frequencies of a
training corpus), the salient n-grams and the example sentences."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from mteval_core.compare.analysis import Comparison, compare_pair
from mteval_core.compare.readings import COMPARE_MT
from tests.helpers import SHARED_DATA, read_lines, shared_dataset

FIXTURE = Path(__file__).with_name("compare_mt_expected.json")
EXPECTED = json.loads(FIXTURE.read_text(encoding="utf-8"))
DATASETS = sorted(EXPECTED["datasets"])
# every number equals compare-mt's to the last bit (engine.libm: the C library's log and exp)
TOLERANCE = 0.0


@cache
def compared(name: str) -> Comparison:
    dataset = EXPECTED["datasets"][name]
    shared_dataset(dataset["files"][0].split("/")[0])
    texts = [read_lines(SHARED_DATA / path)[: dataset["lines"]] for path in dataset["files"]]
    return compare_pair(texts[0], [("a", texts[1]), ("b", texts[2])], COMPARE_MT)


def expected(name: str) -> dict:
    return EXPECTED["datasets"][name]["expected"]


@pytest.mark.parametrize("name", DATASETS)
def test_corpus_bleu_and_length_ratio(name):
    values = compared(name).analysis("scores").values  # (2, 1, 2)
    want = expected(name)["scores"]
    np.testing.assert_allclose(values[:, 0, 0], want["bleu"], rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(values[:, 0, 1], want["length"], rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("name", DATASETS)
def test_word_accuracy_by_frequency_bucket(name):
    result = compared(name).analysis("word_accuracy")
    want = expected(name)["word_accuracy"]
    assert list(result.labels) == want["labels"]
    statistics = np.array(want["statistics"])  # (2, buckets, [match, ref, out, rec, prec, f])
    np.testing.assert_allclose(result.values, statistics[:, :, 3:], rtol=0, atol=TOLERANCE)
    for s in range(2):
        assert result.sizes[s]["matches"] == statistics[s, :, 0].astype(int).tolist()
        assert result.sizes[s]["reference_words"] == statistics[s, :, 1].astype(int).tolist()
        assert result.sizes[s]["words"] == statistics[s, :, 2].astype(int).tolist()


@pytest.mark.parametrize("name", DATASETS)
def test_word_accuracy_with_frequencies_from_a_training_corpus(name):
    dataset = EXPECTED["datasets"][name]
    shared_dataset(dataset["files"][0].split("/")[0])
    texts = [read_lines(SHARED_DATA / path)[: dataset["lines"]] for path in dataset["files"]]
    training = read_lines(SHARED_DATA / dataset["training"])
    result = compare_pair(
        texts[0], [("a", texts[1]), ("b", texts[2])], COMPARE_MT, training=training
    )
    values = result.analysis("word_accuracy").values
    statistics = np.array(expected(name)["word_accuracy_training"]["statistics"])
    np.testing.assert_allclose(values, statistics[:, :, 3:], rtol=0, atol=TOLERANCE)
    assert result.frequencies_from == "training corpus"


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize(
    "key", ["length_buckets", "length_difference_buckets", "sentence_bleu_buckets"]
)
def test_sentence_buckets(name, key):
    result = compared(name).analysis(key)
    want = expected(name)["sentence_buckets"][key]
    assert list(result.labels) == want["labels"]
    np.testing.assert_allclose(result.values[:, :, 0], want["values"], rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("name", DATASETS)
def test_example_sentences(name):
    a_better, b_better = compared(name).examples
    want = expected(name)["examples"]
    assert [[e.line, e.score_a, e.score_b] for e in a_better] == want["a_better"]
    # compare-mt lists b's from the smallest difference up; we list them from the largest
    assert [[e.line, e.score_a, e.score_b] for e in b_better] == want["b_better"][::-1]


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("side", [0, 1])
def test_salient_ngrams(name, side):
    ours = compared(name).ngrams[side]
    want = expected(name)["ngrams"]["a_better" if side == 0 else "b_better"]
    listed = want["listed"]
    assert [d.salience for d in ours] == [row[1] for row in listed]
    boundary = want["boundary_salience"]
    above = {(row[0], row[2], row[3]) for row in listed if row[1] != boundary}
    assert {(d.ngram, d.matches_a, d.matches_b) for d in ours if d.salience != boundary} == above
    ties = set(want["boundary_ties"])
    assert {d.ngram for d in ours if d.salience == boundary} <= ties
