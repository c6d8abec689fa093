"""Preprocessing: our 13a equals sacreBLEU's, GTM's whitespace, mteval's ASCII case, signatures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from mteval_core.errors import InputError
from mteval_core.settings.options import Options, signature
from mteval_core.text.tokenizers import split_whitespace, tokenize, tokenize_13a
from tests.text.shared_tokens import assert_tokens_equal_sacrebleu

SACRE_13A = Tokenizer13a()
TRICKY = "ab09.,-&;quotampltg<>{}[]\\/ \t\n\r\x0b\xa0\u2028!\"#$%'()*+:=?@^_`|~éÄ"


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=TRICKY, max_size=30) | st.text(max_size=30))
def test_13a_equals_sacrebleu_on_random_strings(text):
    assert tokenize_13a(text) == SACRE_13A(text.rstrip()).split()


def test_13a_equals_sacrebleu_on_every_shared_file():
    def ours(lines: list[str]) -> list[list[str]]:
        return [tokenize_13a(line) for line in lines]

    assert_tokens_equal_sacrebleu("tokens-13a-python", ours, SACRE_13A)


def test_gtm_whitespace_split():
    assert split_whitespace("  a\tb\nc\rd\fe  ") == ["a", "b", "c", "d", "e"]
    assert split_whitespace("a\xa0b c\x0bd") == ["a\xa0b", "c\x0bd"]  # NBSP and VT are not spaces
    assert split_whitespace(" \t ") == []
    assert split_whitespace("\x01a\x02") == ["a"]  # Java's trim() drops everything <= U+0020


def test_mteval_tokenizer_lowercases_ascii_only():
    assert tokenize(["Äpfel UND Birnen."], Options(tokenize="mteval")) == [
        ["Äpfel", "und", "birnen", "."]
    ]
    assert tokenize(["Äpfel UND Birnen."], Options(lowercase=True)) == [
        ["äpfel", "und", "birnen", "."]
    ]


def test_signature_names_every_option():
    text = signature(Options(), 2)
    assert text.startswith("nrefs:2|case:mixed|tok:13a|stem:none|version:")
    options = Options(tokenize="intl", lowercase=True, stem="snowball", stem_language="german")
    assert "case:lc|tok:intl|stem:snowball-german" in signature(options, 1)
    assert "stem:porter-nltk" in signature(Options(stem="porter"), 1)
    assert "case:lc-ascii|tok:mteval" in signature(Options(tokenize="mteval"), 1)


@pytest.mark.parametrize(
    "changes",
    [
        {"tokenize": "moses"},
        {"stem": "lancaster"},
        {"bleu_bp": "longest"},
        {"fmean_alpha": 1.5},
        {"fmean_alpha": float("nan")},
        {"stem": "snowball", "stem_language": "klingon"},
    ],
)
def test_bad_options_are_refused_with_advice(changes):
    with pytest.raises(InputError) as error:
        Options.from_flags(**changes)
    assert "hoose" in str(error.value) or "from 0 to 1" in str(error.value)
