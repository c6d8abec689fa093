"""PackedTexts (model.packed_texts) reads like the tuple of str it replaces: every str back as
it went in, equality with tuples and lists, slicing, pickling, and the same content_hash."""

from __future__ import annotations

import hashlib
import pickle
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mteval_core.io.decoding import split_lines
from mteval_core.io.plain import read_plain
from mteval_core.model.packed_texts import PackedTexts, offset_type
from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import shared_dataset

# any code points but surrogates (readers refuse those), astral ones included
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
SEGMENTS = st.lists(TEXT, max_size=20)


@given(SEGMENTS)
def test_every_segment_comes_back_as_it_went_in(segments):
    texts = PackedTexts.of(segments)
    assert len(texts) == len(segments)
    assert list(texts) == segments
    assert [texts[i] for i in range(len(segments))] == segments
    assert [texts[-i] for i in range(1, len(segments) + 1)] == segments[::-1]
    assert texts == segments and texts == tuple(segments) and tuple(segments) == texts
    assert hash(texts) == hash(tuple(segments))


@given(SEGMENTS, st.integers(-25, 25), st.integers(-25, 25), st.sampled_from([None, 1, 2, -1]))
def test_a_slice_is_the_tuple_slice(segments, start, stop, step):
    texts = PackedTexts.of(segments)
    assert texts[start:stop:step] == tuple(segments)[start:stop:step]
    assert isinstance(texts[start:stop:step], tuple)


@given(SEGMENTS)
def test_pickling_keeps_the_segments(segments):
    texts = PackedTexts.of(segments)
    again = pickle.loads(pickle.dumps(texts))
    assert again == texts and list(again) == segments


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"))))
def test_lines_of_bytes_are_split_lines_of_the_text(lines):
    for text in ("".join(line + "\n" for line in lines), "\n".join(lines)):
        assert list(PackedTexts.from_lines(text.encode())) == split_lines(text)
    assert list(PackedTexts.from_lines("".join(line + "\n" for line in lines).encode())) == lines


def test_lone_surrogates_survive_the_round_trip():
    segments = ["a\ud800b", "\udfff", ""]
    assert list(PackedTexts.of(segments)) == segments


def test_differences_are_seen():
    texts = PackedTexts.of(["a", "b"])
    assert texts != ("a", "c") and texts != ["a"] and texts != ("a", "b", "")
    assert texts != PackedTexts.of(["ab", ""])  # the same bytes, cut elsewhere
    assert "b" in texts and "c" not in texts and texts.index("b") == 1
    with pytest.raises(IndexError, match="segment index 2 out of range for 2 segments"):
        texts[2]


def test_segments_that_are_not_text_are_refused():
    with pytest.raises(TypeError, match="segments are str, not float"):
        PackedTexts.of(["a", 0.5])


def test_offsets_that_do_not_fit_the_buffer_are_refused():
    with pytest.raises(ValueError, match="must not decrease"):
        PackedTexts(b"abc", np.array([0, 2, 1, 3]))
    with pytest.raises(ValueError, match="end at the buffer's length"):
        PackedTexts(b"abc", np.array([0, 2]))
    assert offset_type(2**32 - 1) is np.uint32 and offset_type(2**32) is np.int64


def test_a_text_column_keeps_its_segments_packed_and_its_content_hash():
    column = TextColumn("ref", ("Es regnet.", "Ünïcödé 😀", ""), "ref.de")
    assert isinstance(column.segments, PackedTexts)
    assert column.segments == ("Es regnet.", "Ünïcödé 😀", "")
    test_set = TestSet(references=(column,), systems=(TextColumn("A", ["x", "y", "z"], "a"),))
    # SHA-256 of the fields as content_hash has always joined them: "\0" after each
    expected = hashlib.sha256()
    for piece in ("ref", "ref", "Es regnet.", "Ünïcödé 😀", "", "sys", "A", "x", "y", "z"):
        expected.update(piece.encode() + b"\x00")
    assert test_set.content_hash == expected.hexdigest()


def test_packed_wmt17_reference_takes_less_than_its_strings():
    """On the released WMT17 en-de reference: the same lines as Python splits them, in about
    the file's size, where a tuple of str took half as much again."""
    folder = shared_dataset("wmt17-newstest2017-ende")
    data = (folder / "ref" / "ref.de").read_bytes()
    column = read_plain(data, "ref.de", "ref")
    lines = data.decode().split("\n")[:-1]
    assert column.segments == lines
    as_strings = sum(map(sys.getsizeof, lines)) + 8 * len(lines)  # and the tuple's pointers
    assert column.segments.nbytes < 1.05 * len(data) < 0.8 * as_strings
