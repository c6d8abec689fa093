"""Uploaded archives of mt-metrics-eval's folders (issue 22, part 4): read in memory as the same
files a folder gives, wherever the test set folder sits in the archive; and whatever an archive
could do to a shared server (climb out with '..', a bomb, too many members, links) refused with
one message that names the archive and the member."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile
from pathlib import Path

import pytest

from mteval_core.errors import InputError
from mteval_core.io.archives import open_archive, unpacked_bound
from mteval_core.io.mtme import read_mtme
from mteval_core.io.uploads import archive_pairs, test_set_from_archive
from mteval_core.settings.limits import (
    MAX_ARCHIVE_DEPTH,
    MAX_ARCHIVE_EXTENDED_HEADERS,
    MAX_ARCHIVE_HEADER_KB,
    MAX_ARCHIVE_MEMBERS,
    MAX_ARCHIVE_PAIRS,
    MAX_ARCHIVE_PATH_CHARS,
    MAX_ARCHIVE_RATIO,
    MAX_ARCHIVE_UNPACKED_MB,
    MAX_UPLOAD_MB,
)
from tests.helpers import archive_of, tiny

MB = 2**20


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def tgz_of(members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            archive.addfile(info)
    return buffer.getvalue()


def refused(data: bytes, name: str = "up.zip") -> InputError:
    with pytest.raises(InputError) as caught:
        open_archive(data, name)
    assert caught.value.origin == name
    return caught.value


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_an_archive_gives_what_the_folder_gives(tmp_path, kind) -> None:
    tiny(tmp_path)
    name = f"wmt22.{kind}"
    data = archive_of(tmp_path, kind)
    (pair,) = archive_pairs((name, data))
    assert (pair.folder, pair.test_set, pair.lp) == ("wmt22", "wmt22", "de-en")
    assert pair.references == ("refA", "refB") and pair.standard == "refA"
    read = test_set_from_archive((name, data), pair)
    on_disk = read_mtme(tmp_path, "wmt22", "de-en")
    assert read.test_set.content_hash == on_disk.test_set.content_hash
    assert read.reference == "refA" and read.criterion == "mqm"
    assert any(f"wmt22/human-scores/de-en.mqm.seg.score in {name}" in n for n in read.notes)
    assert any("choose another under 'Reference of the archive'" in n for n in read.notes)
    other = test_set_from_archive((name, data), pair, "refB")
    assert (
        other.test_set.content_hash
        == read_mtme(tmp_path, "wmt22", "de-en", "refB").test_set.content_hash
    )


def test_the_test_set_folder_is_found_at_any_depth(tmp_path) -> None:
    tiny(tmp_path / "mt-metrics-eval-v2")
    tiny(tmp_path / "mt-metrics-eval-v2" / "more")  # a second test set, deeper
    pairs = archive_pairs(("root.zip", archive_of(tmp_path)))
    assert [(p.folder, p.test_set) for p in pairs] == [
        ("mt-metrics-eval-v2/more/wmt22", "wmt22"),
        ("mt-metrics-eval-v2/wmt22", "wmt22"),
    ]
    # one language pair's files at the archive's top: the set is named after the archive
    folder = tmp_path / "mt-metrics-eval-v2" / "wmt22"
    (pair,) = archive_pairs(("wmt22.tgz", archive_of(folder, "tar.gz")))
    assert (pair.folder, pair.test_set) == ("", "wmt22")
    read = test_set_from_archive(("wmt22.tgz", archive_of(folder, "tar.gz")), pair)
    assert read.test_set.system_names == ["s1", "s2"]


def test_macos_copies_and_hidden_files_are_skipped(tmp_path) -> None:
    tiny(tmp_path)
    members = {
        p.relative_to(tmp_path).as_posix(): p.read_bytes()
        for p in tmp_path.rglob("*")
        if p.is_file()
    }
    members["__MACOSX/wmt22/system-outputs/de-en/._s1.txt"] = b"\x00\x05"
    members["wmt22/system-outputs/de-en/.DS_Store"] = b"\x00"
    pairs = archive_pairs(("mac.zip", zip_of(members)))
    assert [p.folder for p in pairs] == ["wmt22"]
    read = test_set_from_archive(("mac.zip", zip_of(members)), pairs[0])
    assert read.test_set.system_names == ["s1", "s2"]


@pytest.mark.parametrize("member", ["../evil.txt", "wmt22/../../evil.txt", "/etc/passwd", "C:/x"])
@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_a_member_that_climbs_out_is_refused_by_name(member, kind) -> None:
    data = (zip_of if kind == "zip" else tgz_of)({"ok.txt": b"x", member: b"y"})
    error = refused(data, f"up.{kind}")
    assert repr(member) in error.problem
    assert "absolute path" in error.problem or "climbs out" in error.problem


ARCHIVE_MODULES = ("archive_tree", "archive_zip", "archive_tar")


def lower_limit(monkeypatch, limit: str, value: int) -> None:
    """Set one limit in every archive module that reads it (each imported it by name)."""
    for module in ARCHIVE_MODULES:
        path = f"mteval_core.io.{module}"
        if hasattr(__import__(path, fromlist=[limit]), limit):
            monkeypatch.setattr(f"{path}.{limit}", value)


def test_a_zip_bomb_is_refused_before_it_is_unpacked(monkeypatch) -> None:
    data = zip_of({f"wmt/part{k}.txt": b"\0" * MB for k in range(8)})  # 8 MB in 8 kB
    assert len(data) < 20_000
    unpacked = []
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda *a, **k: unpacked.append(a))
    # within one upload's worth the ratio is not asked: lower the bound to see the refusal
    lower_limit(monkeypatch, "MAX_UPLOAD_MB", 1)
    error = refused(data)
    assert "refused before it is unpacked" in error.problem and "times its size" in error.problem
    assert unpacked == []


def test_a_tgz_bomb_stops_while_it_is_unpacked(monkeypatch) -> None:
    lower_limit(monkeypatch, "MAX_UPLOAD_MB", 1)
    data = tgz_of({f"part{k}.txt": b"\0" * MB for k in range(12)})  # 12 MB in about 12 kB
    error = refused(data, "bomb.tgz")
    assert "times its size" in error.problem


def test_the_bound_is_a_ratio_between_one_upload_and_the_cap() -> None:
    assert unpacked_bound(1_000) == MAX_UPLOAD_MB * MB
    assert unpacked_bound(MAX_UPLOAD_MB * MB) == MAX_ARCHIVE_UNPACKED_MB * MB
    assert unpacked_bound(MB) == min(MAX_ARCHIVE_RATIO * MB, MAX_ARCHIVE_UNPACKED_MB * MB)


def test_a_member_larger_than_one_upload_is_refused(monkeypatch) -> None:
    lower_limit(monkeypatch, "MAX_UPLOAD_MB", 1)
    lower_limit(monkeypatch, "MAX_ARCHIVE_RATIO", 10_000)
    error = refused(zip_of({"big.txt": b"a" * (2 * MB)}))
    assert "'big.txt' is 2.0 MB" in error.problem


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_too_many_members(kind) -> None:
    members = {f"f{k}": b"" for k in range(MAX_ARCHIVE_MEMBERS + 1)}
    data = (zip_of if kind == "zip" else tgz_of)(members)
    error = refused(data, f"many.{kind}")
    assert f"up to {MAX_ARCHIVE_MEMBERS:,}" in error.problem


def test_links_are_refused() -> None:
    error = refused(
        tgz_of({"a.txt": b"x"}, links={"wmt/sources/en-de.txt": "/etc/passwd"}), "l.tgz"
    )
    assert "'wmt/sources/en-de.txt' is a link" in error.problem
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo("link.txt")
        info.create_system = 3
        info.external_attr = (0o120777) << 16
        archive.writestr(info, "/etc/passwd")
    assert "'link.txt' is a link" in refused(buffer.getvalue()).problem


def test_no_system_outputs_folder(tmp_path) -> None:
    tiny(tmp_path)
    members = [p for p in tmp_path.rglob("*") if p.is_file() and "system-outputs" not in p.parts]
    with pytest.raises(InputError, match="no system-outputs folder") as caught:
        archive_pairs(("no.zip", archive_of(tmp_path, members=members)))
    assert caught.value.origin == "no.zip"


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"plain text\n", "not a .zip, .tar.gz or .tar archive"),
        (b"\x1f\x8b" + b"\0" * 30, "damaged"),
        (zip_of({"a.txt": b"x" * 1000})[:-30], "damaged"),
    ],
    ids=["plain-text", "gzip-header-only", "cut-zip"],  # a zip's bytes hold the time it was made
)
def test_not_an_archive_or_damaged(data, says) -> None:
    assert says in refused(data).problem


def test_an_archive_and_text_files_together_are_refused(tmp_path) -> None:
    tiny(tmp_path)
    archive = ("a.zip", archive_of(tmp_path))
    with pytest.raises(InputError, match=r"archive and text files \(ref\.de\)"):
        test_set_from_archive(archive, None, text_files=["ref.de"])


def test_a_set_over_the_dashboards_limits_is_refused_before_its_texts_are_read(
    tmp_path, monkeypatch
) -> None:
    tiny(tmp_path)
    monkeypatch.setattr("mteval_core.io.uploads.MAX_UPLOAD_TEXTS", 5)
    with pytest.raises(InputError, match="texts") as caught:
        test_set_from_archive(("a.zip", archive_of(tmp_path)), None)
    assert "command line (mteval score)" in caught.value.hint  # the dashboard names no flag
    assert "--" not in caught.value.hint
    assert caught.value.origin == "wmt22/sources/de-en.txt in a.zip"


def test_judgments_uploaded_beside_the_archive_add_a_criterion(tmp_path: Path) -> None:
    tiny(tmp_path)
    human = ("extra.csv", b"system,segment_id,score,criterion\ns1,1,3,esa\ns2,1,2,esa\n")
    read = test_set_from_archive(("a.zip", archive_of(tmp_path)), None, human=human)
    assert read.test_set.human is not None
    assert read.test_set.human.criteria == ["mqm", "esa"]
    clash = ("clash.csv", b"system,segment_id,score,criterion\ns1,1,3,mqm\n")
    with pytest.raises(InputError, match="human scores named mqm too"):
        test_set_from_archive(("a.zip", archive_of(tmp_path)), None, human=clash)


def test_metric_scores_are_keyed_by_the_archive_and_the_reference(tmp_path) -> None:
    tiny(tmp_path)
    metric = tmp_path / "wmt22/metric-scores/de-en/BLEU-refA.seg.score"
    metric.write_text("s1\t1\ns1\t2\ns1\t3\ns2\t1\ns2\t1\ns2\t1\n", encoding="utf-8")
    archive = ("a.zip", archive_of(tmp_path))
    read = test_set_from_archive(archive, None)
    ((key, loaded),) = read.external.items()
    assert loaded.name == "BLEU-refA" and loaded.system_score("s1") == 2.0
    assert test_set_from_archive(archive, None).external.keys() == {key}
    assert test_set_from_archive(archive, None, "refB").external == {}  # another reference


# ------------------------------------------------------------------ issue 42: hostile archives
def deep_tgz(depth: int) -> bytes:
    """One member ``depth`` folders deep, its name in a pax header (682 bytes at 100,000)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        info = tarfile.TarInfo("a/" * depth + "x.txt")
        info.size = 1
        archive.addfile(info, io.BytesIO(b"x"))
    return buffer.getvalue()


def many_sets(sets: int, pairs: int, systems: int = 1) -> dict[str, bytes]:
    """``sets`` test set folders of ``pairs`` language pairs each, one line per file."""
    members = {}
    for s in range(sets):
        for p in range(pairs):
            lp = f"l{p}-en"
            members[f"set{s}/sources/{lp}.txt"] = b"a\n"
            members[f"set{s}/references/{lp}.refA.txt"] = b"a\n"
            for k in range(systems):
                members[f"set{s}/system-outputs/{lp}/sys{k}.txt"] = b"a\n"
    return members


def test_a_member_100000_folders_deep_is_refused_at_once_in_bounded_memory() -> None:
    """It took the server to its memory cap (every parent of the path, again for each view)."""
    import time
    import tracemalloc

    data = deep_tgz(100_000)
    assert len(data) < 1_000
    tracemalloc.start()
    started = time.perf_counter()
    try:
        error = refused(data, "deep.tgz")
        seconds = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "extended header" in error.problem and "200,018 bytes" in error.problem
    assert f"up to {MAX_ARCHIVE_HEADER_KB} KB" in error.problem
    assert seconds < 5 and peak < 5 * MB  # measured: under 10 ms and about 1 MB


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_depth_and_path_length_are_bounded_by_name(kind) -> None:
    make = zip_of if kind == "zip" else tgz_of
    deep = "a/" * (MAX_ARCHIVE_DEPTH + 1) + "x.txt"
    error = refused(make({deep: b"x"}), f"deep.{kind}")
    assert f"is {MAX_ARCHIVE_DEPTH + 1} folders deep" in error.problem
    assert f"up to {MAX_ARCHIVE_DEPTH} folders" in error.problem
    long = "d/" + "n" * MAX_ARCHIVE_PATH_CHARS
    error = refused(make({long: b"x"}), f"long.{kind}")
    assert f"path of {MAX_ARCHIVE_PATH_CHARS + 2:,} characters" in error.problem
    assert "characters)" in error.problem  # the name is shown cut short, with its length
    just = "a/" * MAX_ARCHIVE_DEPTH + "x.txt"
    assert open_archive(make({just: b"x"}), f"ok.{kind}").files("a/" * MAX_ARCHIVE_DEPTH) == [
        "x.txt"
    ]


def test_a_chain_of_extended_headers_is_refused_before_tarfile_recurses() -> None:
    """tarfile reads each pax header before a member by calling itself once more: a long chain
    would end in a RecursionError (an internal error) without this bound."""
    blocks = []
    for _ in range(2_000):
        payload = b"13 comment=x\n"
        header = tarfile.TarInfo("././@PaxHeader")
        header.type, header.size = tarfile.XHDTYPE, len(payload)
        blocks.append(header.tobuf(format=tarfile.USTAR_FORMAT))
        blocks.append(payload.ljust(512, b"\0"))
    member = tarfile.TarInfo("x.txt")
    member.size = 1
    blocks += [member.tobuf(format=tarfile.USTAR_FORMAT), b"x".ljust(512, b"\0"), b"\0" * 1024]
    error = refused(gzip.compress(b"".join(blocks)), "chain.tgz")
    assert f"more than {MAX_ARCHIVE_EXTENDED_HEADERS} extended headers" in error.problem


def test_many_test_sets_are_listed_in_linear_time_or_refused_by_the_pairs_limit() -> None:
    """100 sets x 20 pairs took 163-417 s to list (each view of the archive listed every
    folder again); now the listing is made once, and more pairs than the Data page lists are
    refused by name."""
    import time

    assert 100 * 20 > MAX_ARCHIVE_PAIRS >= 50 * 20
    for kind, make in (("zip", zip_of), ("tgz", tgz_of)):
        many, half = make(many_sets(100, 20)), make(many_sets(50, 20))  # 6,000 and 3,000 files
        started = time.perf_counter()
        with pytest.raises(InputError) as caught:
            archive_pairs((f"many.{kind}", many))
        assert time.perf_counter() - started < 5  # measured: zip 0.17 s, tgz 0.9 s
        assert "holds 2,000 language pairs" in caught.value.problem
        assert f"up to {MAX_ARCHIVE_PAIRS:,}" in caught.value.problem
        started = time.perf_counter()
        pairs = archive_pairs((f"half.{kind}", half))
        assert time.perf_counter() - started < 5  # measured: zip 0.09 s, tgz 0.45 s
        assert len(pairs) == 1_000 and pairs[0].references == ("refA",)


def test_a_tar_member_whose_name_is_not_utf8_is_refused_by_name() -> None:
    """A tar made where file names are Latin-1: its name reached the readers with a lone
    surrogate and ended in an internal error."""
    for layout in (tarfile.GNU_FORMAT, tarfile.PAX_FORMAT):
        buffer = io.BytesIO()
        with tarfile.open(
            fileobj=buffer, mode="w:gz", format=layout, errors="surrogateescape"
        ) as archive:
            info = tarfile.TarInfo("wmt22/system-outputs/de-en/caf\udce9.txt")
            info.size = 2
            archive.addfile(info, io.BytesIO(b"x\n"))
        error = refused(buffer.getvalue(), "latin1.tgz")
        assert "b'wmt22/system-outputs/de-en/caf\\xe9.txt' is not UTF-8" in error.problem
        assert "byte 0xE9" in error.problem and "rename it" in (error.hint or "")


def test_zip_names_not_marked_utf8_are_read_as_utf8_else_as_code_page_437() -> None:
    """zip on Linux and macOS writes UTF-8 names without the flag that says so; a name that is
    not UTF-8 is read as the format's default, code page 437, with a note."""
    plain = zip_of({"wmt/sources/cafX-en.txt": b"x\n"})
    as_utf8 = plain.replace(b"cafX", b"ca\xc3\xa9")
    tree = open_archive(as_utf8, "utf8.zip")
    assert tree.files("wmt/sources") == ["caé-en.txt"] and tree.notes == ()
    latin1 = plain.replace(b"cafX", b"caf\xe9")
    tree = open_archive(latin1, "latin1.zip")
    assert tree.files("wmt/sources") == ["cafΘ-en.txt"]  # 0xE9 in code page 437
    assert any("not UTF-8" in note and "code page 437" in note for note in tree.notes)
    marked = zip_of({"wmt/sources/ca\u00e9-en.txt": b"x\n"})  # zipfile marks it as UTF-8
    error = refused(marked.replace(b"ca\xc3\xa9", b"ca\xff\xfe"), "marked.zip")
    assert error.problem.startswith("a member's name is marked as UTF-8 but is not UTF-8")


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_a_member_that_occurs_twice_is_read_as_unpacking_leaves_it_with_a_note(kind) -> None:
    buffer = io.BytesIO()
    if kind == "zip":
        with (
            pytest.warns(UserWarning, match="Duplicate name"),
            zipfile.ZipFile(buffer, "w") as archive,
        ):
            archive.writestr("w/a.txt", b"first\n")
            archive.writestr("w/a.txt", b"last\n")
    else:
        with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
            for text in (b"first\n", b"last\n"):
                info = tarfile.TarInfo("w/a.txt")
                info.size = len(text)
                archive.addfile(info, io.BytesIO(text))
    tree = open_archive(buffer.getvalue(), f"twice.{kind}")
    assert tree.read("w/a.txt") == b"last\n"
    (note,) = tree.notes
    assert "w/a.txt (2 times)" in note and "last copy" in note and f"twice.{kind}" in note


@pytest.mark.parametrize("adjusted", [False, True], ids=["prepended", "zip -A"])
def test_a_self_extracting_zip_is_read_with_a_note(tmp_path, adjusted) -> None:
    """zipfile reads a zip with a program before it (as unzip does); it was refused as "not an
    archive". ``zip -A`` rewrites the offsets to count from the file's first byte."""
    tiny(tmp_path)
    stub = b"MZ" + b"\0" * 998  # a Windows program's first bytes, 1,000 of them
    if adjusted:
        buffer = io.BytesIO(stub)
        buffer.seek(len(stub))
        with zipfile.ZipFile(buffer, "a", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in tmp_path.rglob("*") if p.is_file()):
                archive.write(path, path.relative_to(tmp_path).as_posix())
        data = buffer.getvalue()
    else:
        data = stub + archive_of(tmp_path)
    (pair,) = archive_pairs(("setup.exe", data))
    read = test_set_from_archive(("setup.exe", data), pair)
    assert read.test_set.content_hash == read_mtme(tmp_path, "wmt22", "de-en").test_set.content_hash
    assert any("starts after 1,000 bytes of other data" in note for note in read.notes)


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (lzma.compress(b"x" * 100), "an xz file (.xz, .tar.xz)"),
        (bz2.compress(b"x" * 100), "a bzip2 file (.bz2, .tar.bz2)"),
        (b"7z\xbc\xaf\x27\x1c" + b"\0" * 30, "a 7-Zip archive (.7z)"),
        (b"MZ" + b"\0" * 100, "a Windows program (.exe) with no zip archive inside"),
    ],
    ids=["xz", "bzip2", "7z", "exe"],
)
def test_another_kind_of_file_is_refused_as_what_it_is(data, kind) -> None:
    error = refused(data, "upload.bin")
    assert error.problem == f"this is {kind}, not a .zip, .tar.gz or .tar archive"
