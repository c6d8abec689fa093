"""The dashboard's limits on one uploaded test set: segments, and texts (segments x columns)."""

from __future__ import annotations

import gzip

import pytest

from mteval_core.errors import InputError
from mteval_core.io.uploads import MAX_UPLOAD_MB
from mteval_core.io.uploads import test_set_from_uploads as from_uploads
from mteval_core.settings.limits import MAX_UPLOAD_SEGMENTS, MAX_UPLOAD_TEXTS


def lines(n: int, word: bytes = b"x") -> bytes:
    return word + b"\n" + b"y\n" * (n - 1)


def test_the_size_limit_is_still_importable_from_uploads() -> None:
    assert MAX_UPLOAD_MB == 50  # pages/0_Data.py shows it


def test_a_test_set_at_the_segment_limit_is_taken() -> None:
    full = lines(MAX_UPLOAD_SEGMENTS)
    test_set = from_uploads([("ref.en", full)], [("mt.en", full)])
    assert test_set.n_segments == MAX_UPLOAD_SEGMENTS


def test_more_segments_are_refused_with_the_figures() -> None:
    too_many = MAX_UPLOAD_SEGMENTS + 1
    with pytest.raises(InputError) as caught:
        from_uploads([("ref.en", lines(too_many))], [("mt.en", gzip.compress(b"never read"))])
    error = caught.value
    assert error.origin == "ref.en"
    assert error.problem == (
        "the file has 20,001 segments; the dashboard takes test sets of up to 20,000 segments"
    )
    assert "mteval score" in error.hint and "no such limit" in error.hint


def test_more_texts_are_refused_as_soon_as_a_file_crosses_the_limit() -> None:
    """11 files of 20,000 segments: the eleventh crosses 200,000 texts; the twelfth, which
    is not even text, is never read."""
    per_file = MAX_UPLOAD_TEXTS // 10
    references = [(f"ref-{i}.en", lines(per_file)) for i in range(2)]
    systems = [(f"mt-{i}.en", lines(per_file)) for i in range(9)]
    with pytest.raises(InputError) as caught:
        from_uploads(references, [*systems, ("later.en", gzip.compress(b"x"))])
    error = caught.value
    assert error.origin == "mt-8.en"
    assert error.problem == (
        "with this file the test set has 220,000 texts (segments x (systems + references)) so "
        "far; the dashboard takes up to 200,000"
    )
    assert "mteval score" in error.hint


def wmt_xml(n_systems: int, n_segments: int) -> bytes:
    segments = "".join(f'<seg id="{i}">x</seg>' for i in range(1, n_segments + 1))
    hyps = "".join(f'<hyp system="s{k}"><p>{segments}</p></hyp>' for k in range(n_systems))
    return (
        f'<dataset><collection><doc id="d"><src><p>{segments}</p></src>'
        f'<ref translator="A"><p>{segments}</p></ref>{hyps}</doc></collection></dataset>'
    ).encode()


def test_a_file_with_several_columns_counts_each(monkeypatch) -> None:
    """One WMT XML file holds the reference and every system: each is a text column. (A lower
    limit keeps the test fast; the counting is the same.)"""
    monkeypatch.setattr("mteval_core.io.uploads.MAX_UPLOAD_TEXTS", 1_000)
    fits = wmt_xml(n_systems=9, n_segments=100)  # 100 x (9 + 1) texts
    assert len(from_uploads([("t.xml", fits)], [("t.xml", fits)]).systems) == 9
    too_many = wmt_xml(n_systems=11, n_segments=100)
    with pytest.raises(InputError) as caught:
        from_uploads([("t.xml", too_many)], [("t.xml", too_many)])
    assert caught.value.origin == "t.xml"
    assert "the test set has 1,200 texts" in caught.value.problem
