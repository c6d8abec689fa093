"""NIST against hand computation, an independent port of mteval-v13a's loops, and NLTK.

NLTK's corpus_nist is an oracle only where mteval's "0" quirk cannot fire (single reference, no
bigram starting with the token "0"); everywhere else the independent port below is the check.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from nltk.translate.nist_score import corpus_nist

from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.text.tokenizers import tokenize
from tests.helpers import make_test_set, read_lines, shared_dataset

BETA = -math.log(0.5) / math.log(1.5) ** 2


def penalty(ratio: float) -> float:
    return 1.0 if ratio >= 1 else math.exp(-BETA * math.log(ratio) ** 2)


def nist(references, hypothesis) -> float:
    scores = score_test_set(make_test_set(references, {"sys": hypothesis}), ["nist"], Options())
    return scores.corpus()["sys"]["nist"]


def test_hand_computed_case_with_the_zero_quirk():
    # Reference "0 b c 0 b" (5 words): counts 0:2 b:2 c:1, "0 b":2 "b c":1, "0 b c":1.
    # Hypothesis "0 b c": unigram info log2(5/2) + log2(5/2) + log2(5/1);
    # bigram "0 b" would have info log2(count("0") / count("0 b")) = log2(2/2) = 0, but mteval's
    # Perl reads the prefix "0" as false and uses log2(total words / 2) = log2(5/2) instead;
    # bigram "b c": log2(2/1) = 1; trigram "0 b c": log2(count("0 b") / 1) = 1.
    unigram = (2 * math.log2(5 / 2) + math.log2(5)) / 3
    bigram_with_quirk = (math.log2(5 / 2) + 1) / 2
    trigram = 1 / 1
    expected = (unigram + bigram_with_quirk + trigram) * penalty(3 / 5)
    assert nist(["0 b c 0 b"], ["0 b c"]) == pytest.approx(expected, abs=1e-12)
    without_quirk = (unigram + 1 / 2 + trigram) * penalty(3 / 5)
    assert abs(expected - without_quirk) > 0.2


def test_quirk_is_only_for_the_token_zero_and_only_for_bigrams():
    # "00" and "0.0" are true in Perl: no quirk; the same text with "x" for "0" scores the same
    for token in ("00", "x", "0.0"):
        unigram = (2 * math.log2(5 / 2) + math.log2(5)) / 3
        expected = (unigram + (0 + 1) / 2 + 1) * penalty(3 / 5)
        text = f"{token} b c {token} b"
        assert nist([text], [f"{token} b c"]) == pytest.approx(expected, abs=1e-12), token


def test_hand_computed_two_references():
    # References "a b" and "a b c d": 6 words, mean length 3, so a 3-word hypothesis has no
    # penalty. Counts over both: a:2 b:2 c:1 d:1, "a b":2 "b c":1 "c d":1, "a b c":1 "b c d":1.
    expected = (2 * math.log2(6 / 2) + math.log2(6)) / 3 + (0 + 1) / 2 + 1 / 1
    assert nist([["a b"], ["a b c d"]], ["a b c"]) == pytest.approx(expected, abs=1e-12)


def test_segment_scores_use_corpus_weights():
    refs = ["a b c d", "a a b e"]
    scores = score_test_set(make_test_set(refs, {"sys": ["a b", "a e"]}), ["nist"], Options())
    segments = scores.segments()["sys"]["nist"]
    # 8 reference words: a:3 b:2 c:1 d:1 e:1; "a b" has info log2(count(a)/count("a b")) = log2(3/2)
    first = ((math.log2(8 / 3) + math.log2(8 / 2)) / 2 + math.log2(3 / 2) / 1) * penalty(2 / 4)
    second = ((math.log2(8 / 3) + math.log2(8 / 1)) / 2 + 0 / 1) * penalty(2 / 4)
    np.testing.assert_allclose(segments, [first, second], atol=1e-12)


def mteval_nist(references: list[list[list[str]]], hypotheses: list[list[str]]) -> float:
    """An independent port of mteval-v13a's NIST loops (dictionaries, as the Perl does).

    references[r][i] are the tokens of reference r for segment i.
    """

    def ngrams(words: list[str]) -> Counter:
        return Counter(
            " ".join(words[i : i + n]) for n in range(1, 6) for i in range(len(words) - n + 1)
        )

    counts: Counter = Counter()
    total_words = 0
    for reference in references:
        for words in reference:
            total_words += len(words)
            counts.update(ngrams(words))
    info = {}
    for gram, count in counts.items():
        prefix = " ".join(gram.split(" ")[:-1])
        truthy = prefix not in ("", "0")  # Perl's truth of a string
        info[gram] = -math.log(
            (count / counts[prefix]) if truthy else (count / total_words)
        ) / math.log(2)
    tst_info = [0.0] * 6
    tst_count = [0] * 6
    ref_words = 0
    for i, words in enumerate(hypotheses):
        hyp = ngrams(words)
        best: dict[str, int] = {}
        for reference in references:
            ref_words += len(reference[i])
            for gram, count in ngrams(reference[i]).items():
                best[gram] = max(best.get(gram, 0), count)
        for n in range(1, 6):
            tst_count[n] += max(len(words) - n + 1, 0)
        for gram, count in hyp.items():
            if gram in best:
                tst_info[len(gram.split(" "))] += info[gram] * min(count, best[gram])
    score = sum(tst_info[n] / max(tst_count[n], 1) for n in range(1, 6))
    ratio = tst_count[1] / (ref_words / len(references))
    return score * (penalty(ratio) if ratio > 0 else 0.0)


def test_wmt17_equals_independent_port(wmt17):
    small = wmt17.with_systems(wmt17.systems[:4])
    options = Options()
    refs = [tokenize(wmt17.references[0].segments, options)]
    scores = score_test_set(small, ["nist"], options).corpus()
    for system in small.systems:
        expected = mteval_nist(refs, tokenize(system.segments, options))
        assert scores[system.name]["nist"] == pytest.approx(expected, abs=1e-9)


def test_three_references_equal_independent_port():
    folder = shared_dataset("wmt21-newstest2021-ende")
    options = Options(tokenize="mteval")
    raw_refs = [read_lines(folder / "ref" / f"ref-{x}.de") for x in "ACD"]
    systems = {p.stem: read_lines(p) for p in sorted((folder / "sys").iterdir())[:3]}
    scores = score_test_set(make_test_set(raw_refs, systems), ["nist"], options).corpus()
    refs = [tokenize(r, options) for r in raw_refs]
    for name, hyp in systems.items():
        expected = mteval_nist(refs, tokenize(hyp, options))
        assert scores[name]["nist"] == pytest.approx(expected, abs=1e-9)


def test_equals_nltk_where_the_quirk_cannot_fire(wmt17):
    options = Options()
    ref_tokens = tokenize(wmt17.references[0].segments, options)
    keep = [i for i, tokens in enumerate(ref_tokens) if "0" not in tokens][:1500]
    refs = [wmt17.references[0].segments[i] for i in keep]
    for system in wmt17.systems[:2]:
        hyp = [system.segments[i] for i in keep]
        ours = nist([refs], hyp)
        theirs = corpus_nist([[t] for t in tokenize(refs, options)], tokenize(hyp, options), n=5)
        assert ours == pytest.approx(theirs, abs=1e-9)
