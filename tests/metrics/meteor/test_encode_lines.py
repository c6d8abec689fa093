"""WordTable.encode_lines, the compiled tokenizer's encoding of METEOR's lines straight from the
text, gives the arrays that encoding the lines' Java words gives (``encode``), on real data, on
random lines with every kind of whitespace, and mixed with ``encode`` on one table; and METEOR's
statistics are the same bytes with it and without it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.metrics.meteor import corpus_alignment, metric
from mteval_core.metrics.meteor.availability import jar_path
from mteval_core.metrics.meteor.corpus_alignment import EncodedLines, WordTable
from mteval_core.metrics.meteor.java_strings import java_tokenize
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.text.tokenizers import token_table
from tests.helpers import make_test_set

pytestmark = pytest.mark.skipif(
    token_table(lambda word: 0) is None or corpus_alignment.compiled_module() is None,
    reason="the compiled tokenizer or METEOR loops are not built",
)
FUNCTION_WORDS = frozenset({"der", "die", "das", "und", "the", "a"})


def four_letters(word: str) -> str:
    """A stand-in stemmer: what matters here is that stems differ from words."""
    return word[:4]


def assert_same(direct: EncodedLines | None, from_words: EncodedLines) -> None:
    assert direct is not None
    for name in ("keys", "stems", "function", "offsets"):
        np.testing.assert_array_equal(getattr(direct, name), getattr(from_words, name), name)


def test_real_lines_encode_as_their_words_do(wmt17):
    lines = [text for column in wmt17.systems[:6] for text in column.segments]
    direct = WordTable(four_letters, FUNCTION_WORDS).encode_lines(lines)
    from_words = WordTable(four_letters, FUNCTION_WORDS).encode([java_tokenize(t) for t in lines])
    assert_same(direct, from_words)


def test_one_table_serves_both_ways_in_any_order(wmt17):
    """Words first met by ``encode`` and then by the scanner (and the other way round) keep one
    row: the scanner asks the table, which knows them."""
    first, second, third = (list(column.segments[:500]) for column in wmt17.systems[:3])
    mixed = WordTable(four_letters, FUNCTION_WORDS)
    mixed.encode([java_tokenize(t) for t in first])
    direct = mixed.encode_lines(second)
    again = mixed.encode([java_tokenize(t) for t in third])
    plain = WordTable(four_letters, FUNCTION_WORDS)
    plain.encode([java_tokenize(t) for t in first])
    assert_same(direct, plain.encode([java_tokenize(t) for t in second]))
    assert_same(again, plain.encode([java_tokenize(t) for t in third]))


# Java's five separators, whitespace only Python splits on (NBSP, em space, NEL, U+001C), control
# characters the direct path refuses, letters (one outside the BMP: two UTF-16 units to hash)
ALPHABET = " \t\n\r\f" + "\xa0\u2003\x85\x1c" + "\x00\x0b\x1f" + "aAbßÉé𝄞"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, max_size=30), max_size=8))
def test_random_lines_encode_as_their_words_do_or_are_refused(lines):
    direct = WordTable(four_letters, FUNCTION_WORDS).encode_lines(lines)
    from_words = WordTable(four_letters, FUNCTION_WORDS).encode([java_tokenize(t) for t in lines])
    if any(character in line for line in lines for character in "\x00\x0b\x1c\x1f"):
        assert direct is None  # the scanner would trim them at a line's ends; Java keeps them
    else:
        assert_same(direct, from_words)


def meteor_statistics(test_set, monkeypatch, direct: bool) -> dict[str, bytes]:
    with monkeypatch.context() as patch:
        if not direct:
            patch.setattr(metric, "matched_from_keys", lambda *_: False)
        scores = score_test_set(test_set, ["meteor"], Options.from_flags(meteor_language="de"))
    return {s: scores.statistics["meteor"][s].tobytes() for s in scores.systems}


@pytest.mark.skipif(jar_path(None) is None, reason="pycocoevalcap (METEOR's data) is missing")
def test_meteor_gives_the_same_bytes_with_and_without_the_direct_encoding(wmt17, monkeypatch):
    references = [reference.segments[:400] for reference in wmt17.references]
    systems = {column.name: column.segments[:400] for column in wmt17.systems[:4]}
    systems["with a control character"] = ("\x0bEin Satz\x01", *systems[wmt17.systems[0].name][1:])
    test_set = make_test_set(references, systems)
    assert meteor_statistics(test_set, monkeypatch, direct=True) == meteor_statistics(
        test_set, monkeypatch, direct=False
    )
