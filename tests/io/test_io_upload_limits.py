"""The dashboard's limits on one uploaded test set: segments, texts (segments x columns) and
systems (their pairs)."""

from __future__ import annotations

import gzip

import pytest

from mteval_core.errors import InputError
from mteval_core.io.uploads import MAX_UPLOAD_MB, test_set_from_archive
from mteval_core.io.uploads import test_set_from_uploads as from_uploads
from mteval_core.settings.limits import (
    MAX_SYSTEM_PAIRS,
    MAX_UPLOAD_SEGMENTS,
    MAX_UPLOAD_SYSTEMS,
    MAX_UPLOAD_TEXTS,
)
from tests.helpers import archive_of, tiny


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


def test_a_test_set_at_the_systems_limit_is_taken() -> None:
    systems = [(f"mt-{k}.en", lines(3)) for k in range(MAX_UPLOAD_SYSTEMS)]
    test_set = from_uploads([("ref.en", lines(3))], systems)
    assert len(test_set.systems) == MAX_UPLOAD_SYSTEMS == 50
    assert MAX_SYSTEM_PAIRS == 1_225


def test_one_system_more_is_refused_before_the_next_file_is_read() -> None:
    """1,000 systems of 10 segments (5% of the texts) took the Scores page past 1.5 GB: the
    51st system file is refused by name, and the one after it (not even text) is never read."""
    systems = [(f"mt-{k}.en", lines(10)) for k in range(MAX_UPLOAD_SYSTEMS + 1)]
    with pytest.raises(InputError) as caught:
        from_uploads([("ref.en", lines(10))], [*systems, ("later.en", gzip.compress(b"x"))])
    error = caught.value
    assert error.origin == "mt-50.en"
    assert error.problem == (
        "with this file the test set has 51 systems (1,275 pairs of systems); the dashboard "
        "takes test sets of up to 50 systems (1,225 pairs, each compared under every metric)"
    )
    assert "mteval score" in error.hint and "no such limit" in error.hint


def test_the_systems_of_one_file_are_counted_each() -> None:
    """One WMT XML file of 51 systems and 10 segments (561 texts, far under that limit)."""
    many = wmt_xml(n_systems=MAX_UPLOAD_SYSTEMS + 1, n_segments=10)
    with pytest.raises(InputError) as caught:
        from_uploads([("t.xml", many)], [("t.xml", many)])
    assert caught.value.origin == "t.xml"
    assert "the test set has 51 systems (1,275 pairs of systems)" in caught.value.problem


def test_an_archive_of_too_many_systems_is_refused_before_they_are_read(tmp_path) -> None:
    """mt-metrics-eval's folder: the systems are counted from the folder's file names, so none
    is read; the references' texts shown as systems (refB here) are not counted."""
    folder = tiny(tmp_path) / "wmt22/system-outputs/de-en"
    for k in range(3, MAX_UPLOAD_SYSTEMS + 2):  # s1, s2 and these: 51 systems
        (folder / f"s{k}.txt").write_bytes(b"\xff not even UTF-8\n")
    with pytest.raises(InputError) as caught:
        test_set_from_archive(("a.zip", archive_of(tmp_path)), None)
    error = caught.value
    assert error.origin == "wmt22/system-outputs/de-en in a.zip"
    assert error.problem.startswith("the folder has 51 systems (1,275 pairs of systems); ")
    assert "command line (mteval score)" in error.hint  # the dashboard names no flag
    assert "--" not in error.hint
    (folder / f"s{MAX_UPLOAD_SYSTEMS + 1}.txt").unlink()
    (folder / "s3.txt").unlink()
    with pytest.raises(InputError, match="not valid UTF-8"):  # at the limit, the files are read
        test_set_from_archive(("a.zip", archive_of(tmp_path)), None)
