"""TER's Tercom tokenization (text/tercom.py) equals sacreBLEU 2.6's TercomTokenizer under every
combination of its options, on random strings and on every line of WMT23's Chinese and Japanese
references and system outputs."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

from mteval_core.text.tercom import changes_words, tercom_words
from tests.helpers import wmt23_pair

FLAGS = ("normalized", "no_punct", "asian_support", "case_sensitive")
COMBINATIONS = [dict(zip(FLAGS, values)) for values in itertools.product([False, True], repeat=4)]
# Western punctuation and entities, digits, possessives, line ends; CJK ideographs, strokes,
# compatibility forms, the U+3200-U+3F22 range, hiragana, katakana and their extensions, CJK and
# fullwidth punctuation; whitespace; letters with case (Σ's final form)
TRICKY = (
    "ab AB 09.,-'s &quot;&amp;&lt;&gt;!?:;\"()[]{}~`@#$%^*+=|\\/_\n\t\xa0\u3000"
    "中文我們説\u3400\u4dbf\u9fff\u31c0\u2e80\u3300\uf900\ufe30\u3200\u3f22\u3f23"
    "ひらがなカタカナ\u31f0ー、。〈〉「」【】〔〕・｡､･．，？：；！＂（）ΣΑΣ"
)
TEXTS = st.text(alphabet=TRICKY, max_size=40) | st.text(max_size=20)


def sacre(line: str, options: dict[str, bool]) -> str:
    """sacreBLEU's TER preprocessing of a segment (``TER._preprocess_segment``)."""
    return TercomTokenizer(**options)(line.rstrip())


@settings(max_examples=1500, deadline=None)
@given(TEXTS, st.sampled_from(COMBINATIONS))
def test_tercom_equals_sacrebleu_on_random_strings(line, options):
    assert tercom_words(line, **options) == sacre(line, options)


@pytest.mark.parametrize("pair", ["en-zh", "en-ja"])
@pytest.mark.parametrize(
    "options",
    [
        {"normalized": True, "no_punct": False, "asian_support": True},
        {"normalized": False, "no_punct": True, "asian_support": True},
        {"normalized": True, "no_punct": True, "asian_support": False},
    ],
    ids=["normalized-asian", "no-punct-asian", "normalized-no-punct"],
)
def test_tercom_equals_sacrebleu_on_wmt23_chinese_and_japanese(pair, options):
    lines = [line for column in wmt23_pair(pair).values() for line in column]
    assert len(lines) > 30_000
    options = {**options, "case_sensitive": False}
    ours = [tercom_words(line, **options) for line in lines]
    assert ours == [sacre(line, options) for line in lines]


def test_only_normalized_and_no_punct_change_words():
    """With neither, sacreBLEU's Tercom only lowercases and splits (the compiled TER's own
    path): asian_support alone changes nothing."""
    line = "中文的句子，没有空格。カタカナ ひらがな"
    assert not changes_words(normalized=False, no_punct=False)
    alone = {"normalized": False, "no_punct": False, "case_sensitive": False}
    assert sacre(line, {**alone, "asian_support": True}) == " ".join(line.lower().split())
    assert changes_words(normalized=True, no_punct=False)
    assert changes_words(normalized=False, no_punct=True)
