"""BLEU against sacreBLEU (the oracle), and hand-checked cases of what sacreBLEU does not offer."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU

from mteval_core.metrics.bleu import reference_length
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import make_test_set, read_lines, shared_dataset
from tests.oracle_pins import inputs_key, oracle_values


def sacrebleu_bleu_pins(test_set, lowercase: bool = False, tag: str = "") -> tuple:
    """sacreBLEU's corpus BLEU of every system and sentence BLEU (effective order) of every
    segment against the first reference, pinned (tests/oracle_pins.py)."""
    refs = [list(reference.segments) for reference in test_set.references]
    systems = [list(system.segments) for system in test_set.systems]
    texts = [text for column in (*refs, *systems) for text in column]
    key = inputs_key(f"sacrebleu {sacrebleu.__version__} bleu lowercase={lowercase}", texts)
    name = f"bleu-{tag}-{'lc' if lowercase else 'cased'}"

    def corpus(indices):
        return [sacrebleu.corpus_bleu(systems[i], refs, lowercase=lowercase).score for i in indices]

    sentence = SacreBLEU(lowercase=lowercase, effective_order=True)
    n = len(refs[0])

    def sentences(indices):
        return [
            sentence.sentence_score(systems[i // n][i % n], [refs[0][i % n]]).score for i in indices
        ]

    corpus_values = oracle_values(f"{name}-corpus", key, len(systems), corpus, spot_checks=2)
    sentence_values = oracle_values(f"{name}-sentences", key, len(systems) * n, sentences)
    return corpus_values, sentence_values.reshape(len(systems), n)


@pytest.mark.parametrize("lowercase", [False, True], ids=["cased", "lowercased"])
def test_wmt17_corpus_and_sentence_bleu_equal_sacrebleu(wmt17, lowercase):
    """Every system's corpus BLEU and every segment's sentence BLEU, 16 x 3,004 segments."""
    scores = score_test_set(wmt17, ["bleu"], Options(lowercase=lowercase))
    corpus, segments = scores.corpus(), scores.segments()
    expected_corpus, expected_segments = sacrebleu_bleu_pins(wmt17, lowercase, "wmt17")
    assert len(wmt17.systems) == 16
    for i, system in enumerate(wmt17.systems):
        assert corpus[system.name]["bleu"] == expected_corpus[i]
        np.testing.assert_array_equal(segments[system.name]["bleu"], expected_segments[i])


def test_three_references_equal_sacrebleu():
    folder = shared_dataset("wmt21-newstest2021-ende")
    refs = [read_lines(folder / "ref" / f"ref-{x}.de") for x in "ACD"]
    systems = {p.stem: read_lines(p) for p in sorted((folder / "sys").iterdir())[:5]}
    test_set = make_test_set(refs, systems)
    scores = score_test_set(test_set, ["bleu"], Options()).corpus()
    refs_joined = [text for ref in refs for text in ref]
    texts = [*refs_joined, *(text for hyp in systems.values() for text in hyp)]
    hyps = list(systems.values())
    expected = oracle_values(
        "bleu-wmt21-3refs-corpus",
        inputs_key(f"sacrebleu {sacrebleu.__version__} bleu", texts),
        len(hyps),
        lambda indices: [sacrebleu.corpus_bleu(hyps[i], refs).score for i in indices],
        spot_checks=1,
    )
    for i, name in enumerate(systems):
        assert scores[name]["bleu"] == expected[i]


@pytest.mark.parametrize("tokenize", ["intl", "none"])
def test_other_tokenizers_equal_sacrebleu(wmt17, tokenize):
    refs = [list(wmt17.references[0].segments)]
    small = wmt17.with_systems(wmt17.systems[:3])
    scores = score_test_set(small, ["bleu"], Options(tokenize=tokenize)).corpus()
    for system in small.systems:
        expected = sacrebleu.corpus_bleu(list(system.segments), refs, tokenize=tokenize).score
        assert scores[system.name]["bleu"] == expected


def test_edge_cases_equal_sacrebleu():
    """Empty hypotheses, empty references, short segments and no matches at all."""
    refs = [["a b c d e", "", "x y", "p q r s t u v", "same words here now"]]
    cases = {
        "empty": ["", "", "", "", ""],
        "short": ["a", "x", "x y", "p", "same"],
        "nomatch": ["z z z z z", "k", "m n", "o o o", "w v u t"],
        "perfect": ["a b c d e", "", "x y", "p q r s t u v", "same words here now"],
    }
    scores = score_test_set(make_test_set(refs, cases), ["bleu"], Options())
    corpus, segments = scores.corpus(), scores.segments()
    sentence = SacreBLEU(effective_order=True)
    for name, hyp in cases.items():
        assert corpus[name]["bleu"] == pytest.approx(sacrebleu.corpus_bleu(hyp, refs).score)
        expected = [sentence.sentence_score(h, [r]).score for h, r in zip(hyp, refs[0])]
        np.testing.assert_array_equal(segments[name]["bleu"], expected)
    assert corpus["perfect"]["bleu"] == pytest.approx(100.0)


def test_closest_and_shortest_reference_length():
    # mteval-v13a's documented example: 7 tokens against 11, 8, 6 and 7 -> 7; without the 7,
    # 8 and 6 tie and the shorter one wins
    assert reference_length(np.array([7]), np.array([[11], [8], [6], [7]]), "closest")[0] == 7
    assert reference_length(np.array([7]), np.array([[11], [8], [6]]), "closest")[0] == 6
    hyp = np.array([7, 3])
    refs = np.array([[11, 3], [8, 9], [6, 1]])
    assert reference_length(hyp, refs, "closest").tolist() == [6, 3]
    assert reference_length(hyp, refs, "shortest").tolist() == [6, 1]


def test_shortest_brevity_penalty_by_hand():
    # 10 hypothesis tokens, all in the second reference; references of 6 and 12 tokens.
    refs = [["a b c d e f"], ["a b c d e f g h i j k l"]]
    test_set = make_test_set(refs, {"sys": ["a b c d e f g h i j"]})
    closest = score_test_set(test_set, ["bleu"], Options.from_flags(bleu_bp="closest")).corpus()[
        "sys"
    ]["bleu"]
    shortest = score_test_set(test_set, ["bleu"], Options.from_flags(bleu_bp="shortest")).corpus()[
        "sys"
    ]["bleu"]
    assert closest == pytest.approx(100 * math.exp(1 - 12 / 10))  # closest length is 12
    assert shortest == pytest.approx(100.0)  # shortest length is 6: no penalty


def test_arithmetic_mean_variant_by_hand():
    # hypothesis "a b c x" against "a b c d": precisions 3/4, 2/3, 1/2, 0/1; equal lengths, bp 1
    test_set = make_test_set(["a b c d"], {"sys": ["a b c x"]})
    scores = score_test_set(test_set, ["bleu_arith", "bleu"], Options())
    corpus = scores.corpus()["sys"]
    assert corpus["bleu_arith"] == pytest.approx(100 * (3 / 4 + 2 / 3 + 1 / 2 + 0) / 4)
    # the geometric mean is not zero thanks to sacreBLEU's exp smoothing (1/2 a match at n = 4)
    logs = math.log(3 / 4) + math.log(2 / 3) + math.log(1 / 2) + math.log(1 / 2)
    geometric = 100 * math.exp(logs / 4)
    assert corpus["bleu"] == pytest.approx(geometric)
