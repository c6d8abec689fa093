"""The compiled tokenizer (text/_scan.pyx) gives sacreBLEU's tokens and the Python path's ids.

The oracles: sacreBLEU's own 13a and intl tokenizers, and for mteval's ASCII case and GTM's
whitespace our Python reference functions (tested against the original programs elsewhere).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.engine.tokens import Vocabulary
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options
from mteval_core.text import character_classes, stemming, tokenizers
from tests.text.shared_tokens import assert_tokens_equal_sacrebleu

scan = pytest.importorskip("mteval_core.text._scan", reason="built without a C compiler")

SACRE_13A = Tokenizer13a()
SACRE_INTL = TokenizerV14International()
# 13a's and intl's special characters, digits of other scripts, Unicode punctuation, symbols and
# whitespace (NBSP, line separator, the \x1c-\x1f separators str.split() knows), entities.
TRICKY = (
    "ab09.,-&;quotampltg<>{}[]\\/ \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000"
    "!\"#$%'()*+:=?@^_`|~éÄ٣٫¼…«»€™\u00b7\u2010"
)
TEXTS = st.text(alphabet=TRICKY, max_size=40) | st.text(max_size=40)


def compiled(texts: list[str], options: Options) -> list[list[str]]:
    return scan.scan(*tokenizers._compiled_arguments(texts, options))


def python(texts: list[str], options: Options, monkeypatch: pytest.MonkeyPatch) -> list:
    with monkeypatch.context() as patch:
        patch.setattr(tokenizers, "_scan", None)
        return tokenizers.tokenize(texts, options)


@settings(max_examples=1000, deadline=None)
@given(TEXTS)
def test_13a_equals_sacrebleu_on_random_strings(line):
    assert compiled([line], Options()) == [SACRE_13A(line.rstrip()).split()]


@settings(max_examples=1000, deadline=None)
@given(TEXTS)
def test_intl_equals_sacrebleu_on_random_strings(line):
    assert compiled([line], Options(tokenize="intl")) == [SACRE_INTL(line.rstrip()).split()]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(TEXTS, max_size=4),
    st.sampled_from(["13a", "mteval", "intl", "none", "gtm14"]),
    st.booleans(),
)
def test_every_scheme_equals_the_python_reference(lines, name, lowercase):
    options = Options(tokenize=name, lowercase=lowercase)
    with pytest.MonkeyPatch.context() as patch:
        assert compiled(lines, options) == python(lines, options, patch)


def test_mteval_lowercases_ascii_only():
    assert compiled(["Äpfel UND Birnen &QUOT;x&QUOT;"], Options(tokenize="mteval")) == [
        ["Äpfel", "und", "birnen", '"', "x", '"']
    ]
    same = "schon klein"
    assert scan.ascii_lower(same) is same  # nothing to change: no new string


@pytest.mark.parametrize("name", ["13a", "intl"])
def test_equals_sacrebleu_on_every_shared_line(name):
    oracle = SACRE_13A if name == "13a" else SACRE_INTL
    assert_tokens_equal_sacrebleu(
        f"tokens-{name}", lambda lines: compiled(lines, Options(tokenize=name)), oracle
    )


@pytest.mark.parametrize(
    "options",
    [
        Options(),
        Options(tokenize="mteval"),
        Options(tokenize="intl", lowercase=True),
        Options(tokenize="none"),
        Options(lowercase=True, stem="snowball", stem_language="german"),
        Options(stem="porter"),
    ],
    ids=["13a", "mteval", "intl-lc", "none", "lc-snowball-german", "porter"],
)
def test_ids_equal_the_python_path_on_wmt17(wmt17, options, monkeypatch):
    """References then every system through one vocabulary, as EncodedCorpus does: every id,
    every offset and the vocabulary's words (its first-seen order) are the Python path's.

    The reference and 4 of the 16 systems (15,020 lines): the Python path is the slow part, and
    the compiled tokens of every shared line are compared with sacreBLEU's in shared_tokens."""
    columns = [wmt17.references[0], *wmt17.systems[:4]]
    stemmer = stemming.stemmer(options.stem, options.stem_language)
    fast, slow = Vocabulary(stemmer), Vocabulary(stemmer)
    for column in columns:
        a = fast.encode_texts(column.segments, options)
        b = slow.encode(python(list(column.segments), options, monkeypatch))
        assert np.array_equal(a.ids, b.ids) and np.array_equal(a.offsets, b.offsets)
    assert fast.words == slow.words


def test_both_ways_of_encoding_share_one_vocabulary():
    """Token lists (the grid viewer) and texts (the corpus) may meet in one vocabulary."""
    vocabulary = Vocabulary()
    first = vocabulary.encode([["b", "a"]])
    second = vocabulary.encode_texts(["a c b", "d"], Options())
    assert first.ids.tolist() == [0, 1]
    assert second.ids.tolist() == [1, 2, 0, 3] and second.offsets.tolist() == [0, 3, 4]
    assert vocabulary.encode([["d", "e"]]).ids.tolist() == [3, 4]
    assert vocabulary.words == ["b", "a", "c", "d", "e"]


def test_the_table_grows_past_its_first_size():
    distinct = [f"w{i}" for i in range(50_000)]
    vocabulary = Vocabulary()
    stream = vocabulary.encode_texts([" ".join(distinct), " ".join(reversed(distinct))], Options())
    assert stream.ids[:50_000].tolist() == list(range(50_000))
    assert stream.ids[50_000:].tolist() == list(reversed(range(50_000)))


def test_an_invalid_id_is_refused():
    with pytest.raises(ValueError, match=">= 0"):
        scan.scan(["a"], 0, b"", scan.TokenIds(lambda form: -1))


def test_corpus_statistics_equal_without_the_compiled_module(ted, monkeypatch):
    options = Options(stem="snowball", stem_language="german")
    fast = EncodedCorpus(ted, options)
    fast_ids = {name: fast.systems[name].ids for name in fast.systems}  # encoded when asked
    monkeypatch.setattr(tokenizers, "_scan", None)
    monkeypatch.setattr(
        "mteval_core.engine.tokens.token_table", lambda add: None
    )  # the fallback Vocabulary: tokenize, then look up
    slow = EncodedCorpus(ted, options)
    assert slow.vocabulary._compiled_table is None
    for name, ids in fast_ids.items():
        assert np.array_equal(ids, slow.systems[name].ids)
    assert np.array_equal(fast.references[0].ids, slow.references[0].ids)


def test_empty_input():
    assert compiled([], Options()) == []
    ids, lengths = scan.scan([], 1, character_classes.table_13a(), scan.TokenIds(len))
    assert ids.shape == (0,) and lengths.shape == (0,)
    corpus_test = TestSet(
        references=[TextColumn("ref", ("", " "), "ref")],
        systems=[TextColumn("sys", ("", "a"), "sys")],
    )
    assert EncodedCorpus(corpus_test, Options()).systems["sys"].offsets.tolist() == [0, 0, 1]


def test_stems_are_remembered_across_vocabularies():
    """Every Vocabulary of a process (every system, page and upload) shares its stemmer's memory:
    a word is stemmed once, and what it gives does not change."""
    stem = stemming.stemmer("porter")
    stem.cache_clear()
    first, second = Vocabulary(stem), Vocabulary(stem)
    first.encode([["running", "runs"], ["running"]])
    second.encode([["runs", "ran"]])
    assert stem.cache_info().misses == 3 and stem.cache_info().hits == 1
    assert [first.words[i] for i in first.encode([["running", "runs"]]).ids] == ["run", "run"]
    assert stem.cache_info().maxsize == stemming.STEM_MEMORY
