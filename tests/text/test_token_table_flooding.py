"""The compiled token table resists hash flooding (issue 26): tokens crafted to collide in a hash
keep short probe sequences, and get the Python path's ids.

With the old unkeyed FNV-1a table, the 65,536 crafted tokens below all started at slot 0: the
longest probe sequence was 65,536 slots and encoding them took minutes (bench/bench_token_flood.py
measures it). The table's counters say how long its chains got, so no test here is timed.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from mteval_core.engine.tokens import Vocabulary
from mteval_core.settings.options import Options
from mteval_core.text import tokenizers
from tests.text.flooding import (
    BITS,
    colliding_tokens,
    fnv1a,
    fnv1a_colliding_tokens,
    lines_of,
)

scan = pytest.importorskip("mteval_core.text._scan", reason="built without a C compiler")

SLOTS = 1 << 12  # a new table's size: it doubles only past 2,048 tokens


@pytest.fixture(scope="module")
def fnv1a_tokens() -> list[str]:
    """65,536 tokens that all started at slot 0 of the old table."""
    return fnv1a_colliding_tokens(1 << 16)


def python_ids(lines: list[str], options: Options, monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    with monkeypatch.context() as patch:
        patch.setattr(tokenizers, "_scan", None)
        return Vocabulary().encode(tokenizers.tokenize(lines, options)).ids


@pytest.mark.parametrize("name", ["13a", "intl", "none"])
def test_tokens_crafted_for_fnv1a_keep_probes_short(name, fnv1a_tokens, monkeypatch):
    tokens = fnv1a_tokens
    assert all(fnv1a(token) % (1 << BITS) == 0 for token in tokens)  # they collide in FNV-1a
    lines, options = lines_of(tokens), Options(tokenize=name)
    vocabulary = Vocabulary()
    ids = vocabulary.encode_texts(lines, options).ids
    assert np.array_equal(ids, python_ids(lines, options, monkeypatch))
    assert ids.tolist() == list(range(len(tokens)))  # each crafted token is one token
    table = vocabulary._compiled_table
    assert table.rekeys == 0  # the random key alone spreads them
    assert table.longest_probe < scan.PROBE_LIMIT


def test_tokens_crafted_for_a_known_key_make_the_table_draw_a_fresh_one(monkeypatch):
    """Were the key known (fixed here: zero), crafted tokens would share one cluster; the table
    walks at most PROBE_LIMIT slots before it draws a fresh key, and the ids stay the same."""
    known = bytes(16)
    tokens = colliding_tokens(scan.TokenIds(len, known).hash_of, 600, SLOTS)
    lines = lines_of(tokens)
    vocabulary = Vocabulary()
    vocabulary._compiled_table = scan.TokenIds(vocabulary._add_form, known)
    ids = vocabulary.encode_texts(lines, Options()).ids
    assert np.array_equal(ids, python_ids(lines, Options(), monkeypatch))
    table = vocabulary._compiled_table
    assert table.rekeys >= 1
    assert table.longest_probe <= 2 * scan.PROBE_LIMIT  # 600 without a fresh key
    assert len(table) == len(tokens)
    # every token is still found after the rehash: the same ids, nothing added twice
    assert np.array_equal(vocabulary.encode_texts(lines, Options()).ids, ids)
    assert len(vocabulary.words) == len(tokens)


def test_every_table_draws_its_own_key():
    assert scan.TokenIds(len).hash_of("token") != scan.TokenIds(len).hash_of("token")
    with pytest.raises(ValueError, match="16 bytes"):
        scan.TokenIds(len, b"short")


@pytest.mark.skipif(sys.hash_info.algorithm != "siphash13", reason="CPython hashes otherwise")
def test_the_hash_is_siphash13_of_the_code_points():
    """CPython hashes bytes with SipHash-1-3, under a zero key when PYTHONHASHSEED=0: the table's
    hash of a token is that of its UTF-32-LE bytes (CPython maps only b"" to 0)."""
    tokens = ["a", "ab", "abc", "Haus", "😀x", "日本語のテキスト", "a" * 33]
    program = "import sys\nfor t in sys.argv[1:]: print(hash(t.encode('utf-32-le')))"
    python = subprocess.run(
        [sys.executable, "-c", program, *tokens],
        env={"PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    table = scan.TokenIds(len, bytes(16))
    signed = [h - (1 << 64) if h >= 1 << 63 else h for h in map(table.hash_of, tokens)]
    assert signed == [int(value) for value in python]
