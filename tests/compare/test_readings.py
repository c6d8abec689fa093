"""The comparison's two readings (issue 42) on WMT23 en-zh, en-ja and zh-en as released: read as
Scores reads the text (the tokenizer WMT used: zh for Chinese, char for Japanese, 13a for
English), the comparison's corpus BLEU is `mteval score`'s BLEU and the organisers' to the last
bit, every sentence BLEU is Scores' segment BLEU, and every length bucket's BLEU is the BLEU of
its sentences; read as compare-mt reads it, Chinese and Japanese as written are one "word" per run
of characters, and the comparison says so instead of showing near-zero buckets silently."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from mteval_core.compare.analysis import Comparison, compare_pair
from mteval_core.compare.readings import (
    COMPARE_MT,
    WORD_CHARACTERS,
    Reading,
    TokenizedReading,
    unsplit_note,
)
from mteval_core.metrics.bleu import BLEU
from mteval_core.metrics.scoring import Scores, score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from tests.wmt23_general import SYSTEMS, TOKENIZERS, wmt23_pair

PAIRS = sorted(TOKENIZERS)


def options_of(pair: str) -> Options:
    return Options(tokenize=TOKENIZERS[pair])


@cache
def compared(pair: str, reading: Reading) -> Comparison:
    released = wmt23_pair(pair)
    systems = [(name, released.systems[name][1]) for name in SYSTEMS[pair]]
    return compare_pair(released.reference[1], systems, reading, bootstrap=BootstrapOptions(200))


@cache
def scored(pair: str) -> Scores:
    return score_test_set(wmt23_pair(pair).test_set(SYSTEMS[pair]), ["bleu"], options_of(pair))


@pytest.mark.parametrize("pair", PAIRS)
def test_the_corpus_bleu_is_scores_and_the_organisers(pair):
    comparison = compared(pair, TokenizedReading(options_of(pair)))
    corpus = scored(pair).corpus()
    released = wmt23_pair(pair)
    for side, system in enumerate(SYSTEMS[pair]):
        bleu = float(comparison.analysis("scores").values[side, 0, 0])
        assert bleu == corpus[system]["bleu"] == released.official_bleu[system]
        low, high = comparison.analysis("scores").intervals[side, 0, 0]
        assert low < bleu < high
    assert comparison.notes == ()


@pytest.mark.parametrize("pair", PAIRS)
def test_sentence_bleu_and_length_buckets_are_scores_bleu_of_their_sentences(pair):
    reading = TokenizedReading(options_of(pair))
    comparison = compared(pair, reading)
    scores = scored(pair)
    bleu = BLEU(options_of(pair))
    lengths = comparison.analysis("length_buckets")
    for side, system in enumerate(SYSTEMS[pair]):
        np.testing.assert_array_equal(
            comparison.sentence_bleu[side], scores.segment_scores(system, "bleu")
        )
        statistics = scores.statistics["bleu"][system]
        for bucket in range(len(lengths.labels)):
            lines = np.array(comparison.lines_in("length_buckets", bucket, side), dtype=int)
            if len(lines):
                expected = bleu.corpus_score(statistics[lines - 1])
                assert lengths.values[side, bucket, 0] == expected
            else:
                assert lengths.values[side, bucket, 0] == 0.0


@pytest.mark.parametrize("pair", ["en-zh", "en-ja"])
def test_compare_mts_reading_of_unsplit_text_says_why_its_bleu_is_near_zero(pair):
    comparison = compared(pair, COMPARE_MT)
    (note,) = comparison.notes
    assert "not split into words" in note and "near zero" in note
    assert f"{WORD_CHARACTERS:g}" not in note  # the figure is the text's, not the threshold
    tokens = COMPARE_MT.tokens(wmt23_pair(pair).reference[1])
    characters = sum(len(t) for sentence in tokens for t in sentence)
    words = sum(len(sentence) for sentence in tokens)
    assert f"{words:,} words (split on spaces) average {characters / words:.1f}" in note
    assert characters / words > WORD_CHARACTERS
    # the issue's figures: compare-mt's BLEU of HW-TSC is near zero where Scores' is 58.58
    bleu = comparison.analysis("scores").values[:, 0, 0]
    official = wmt23_pair(pair).official_bleu
    assert np.all(bleu < np.array([official[s] for s in SYSTEMS[pair]]) / 5)
    assert comparison.to_dict()["notes"] == [note]
    assert comparison.to_dict()["reading"] == "compare-mt"


def test_english_split_on_spaces_is_words_and_keeps_compare_mts_numbers():
    """zh-en's English reads as words either way: no note; compare-mt's BLEU (punctuation left
    on the words) is its own number, below sacreBLEU's 13a (29.10 against 33.65 in the issue)."""
    comparison = compared("zh-en", COMPARE_MT)
    assert comparison.notes == ()
    ours = compared("zh-en", TokenizedReading(options_of("zh-en")))
    assert f"{comparison.analysis('scores').values[0, 0, 0]:.2f}" == "29.10"
    assert f"{ours.analysis('scores').values[0, 0, 0]:.2f}" == "33.65"
    assert "|tok:whitespace|" in comparison.signature and "|tok:13a|" in ours.signature


def test_a_tokenizer_that_leaves_chinese_unsplit_gets_the_note_too():
    """Scores' reading with 13a on Chinese (a choice on the Data page): its BLEU is Scores' and
    near zero too, and the note names the tokenizer."""
    reading = TokenizedReading(Options(tokenize="13a"))
    tokens = reading.tokens(wmt23_pair("en-zh").reference[1])
    note = unsplit_note(reading, tokens)
    assert note is not None and "the 13a tokenizer does not split this text into words" in note
    assert unsplit_note(TokenizedReading(options_of("en-zh")), tokens[:0]) is None


def test_lowercase_and_stemming_are_read_as_scores_reads_them():
    """The reading's tokens are the options' (lowercased, stemmed), so BLEU stays Scores'."""
    released = wmt23_pair("zh-en")
    options = Options(lowercase=True, stem="porter")
    test_set = released.test_set(SYSTEMS["zh-en"])
    expected = score_test_set(test_set, ["bleu"], options).corpus()
    comparison = compare_pair(
        released.reference[1],
        [(s, released.systems[s][1]) for s in SYSTEMS["zh-en"]],
        TokenizedReading(options),
    )
    bleu = comparison.analysis("scores").values[:, 0, 0].tolist()
    assert bleu == [expected[s]["bleu"] for s in SYSTEMS["zh-en"]]
    assert "case:lc|tok:13a|stem:porter-nltk" in comparison.signature
    assert TokenizedReading(options).split("Running DOGS.") == ("run", "dog", ".")
