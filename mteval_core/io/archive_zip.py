"""A zip archive read in memory: its central directory counted before :mod:`zipfile` builds an
object per member, its declared sizes bounded before any member is unpacked, and each member's
bytes checked against its declared size as it is read."""

from __future__ import annotations

import io
import stat
import struct
import zipfile
import zlib

from mteval_core.errors import InputError
from mteval_core.io.archive_tree import (
    MB,
    ArchiveTree,
    damaged,
    duplicates_note,
    member_path,
    member_too_large,
    refuse_link,
    shown_name,
    too_large,
    too_many,
    unpacked_bound,
)
from mteval_core.settings.limits import MAX_ARCHIVE_MEMBERS, MAX_UPLOAD_MB

ZIP_START = b"PK\x03\x04"
ZIP_END = b"PK\x05\x06"
ZIP_ENTRY = b"PK\x01\x02"
ZIP_END_SEARCH = 65_557  # the end record (22 bytes) and a comment of at most 65,535


def zip_after_other_data(data: bytes) -> int | None:
    """Where a zip's first member starts in ``data`` when other data comes before it (a
    self-extracting archive's program), else None. Its end record says where its directory
    is; the directory's first entry says where that member's local header is, counted from
    the zip's first byte (or, after ``zip -A``, from the file's)."""
    end = data.rfind(ZIP_END, max(0, len(data) - ZIP_END_SEARCH))
    if end < 0 or end + 22 > len(data):
        return None
    size, offset = struct.unpack_from("<II", data, end + 12)
    directory = end - size
    if directory < 0 or data[directory : directory + 4] != ZIP_ENTRY:
        return None
    (first,) = struct.unpack_from("<I", data, directory + 42)
    start = directory - offset + first  # what comes before the zip, where offsets omit it
    if start <= 0 or data[start : start + 4] != ZIP_START:
        return None
    return start


def _zip_entries(data: bytes, archive: str) -> int:
    """The number of central-directory entries, counted without building an object for each:
    refused as soon as it passes the limit (a 50 MB central directory holds a million)."""
    end = data.rfind(ZIP_END, max(0, len(data) - ZIP_END_SEARCH))
    if end < 0 or end + 22 > len(data):
        raise damaged(archive, ValueError("no end of central directory"))
    (size,) = struct.unpack_from("<I", data, end + 12)
    position = max(0, end - size)  # where the directory starts, data prepended or not
    count = 0
    while position + 46 <= end and data[position : position + 4] == ZIP_ENTRY:
        names, extra, comment = struct.unpack_from("<HHH", data, position + 28)
        position += 46 + names + extra + comment
        count += 1
        if count > MAX_ARCHIVE_MEMBERS:
            raise too_many(f"more than {MAX_ARCHIVE_MEMBERS:,}", archive)
    return count


def _zip_file(data: bytes, name: str) -> tuple[zipfile.ZipFile, tuple[str, ...]]:
    """The zip, its names read as UTF-8 where it does not mark them so (what zip writes on
    Linux and macOS, and unzip shows there), else as the format's own default, IBM code page
    437, with a note; a name marked as UTF-8 that is not is refused."""
    damaged = (zipfile.BadZipFile, ValueError, OSError, EOFError)
    try:
        return zipfile.ZipFile(io.BytesIO(data), metadata_encoding="utf-8"), ()
    except UnicodeDecodeError:
        pass  # a name that is not UTF-8: read every unmarked name as code page 437
    except damaged as error:
        raise damaged(name, error) from None
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except UnicodeDecodeError as error:  # marked as UTF-8: nothing else to read it as
        raise InputError(
            f"a member's name is marked as UTF-8 but is not UTF-8 ({error})",
            origin=name,
            hint="Rename the file with a UTF-8 name and make the archive again.",
        ) from None
    except damaged as error:
        raise damaged(name, error) from None
    note = (
        f"{name}: the names of its members are not UTF-8; they are read as IBM code page 437, "
        "the zip format's default (names with accents may read otherwise than they were written)"
    )
    return archive, (note,)


def open_zip(data: bytes, name: str) -> ArchiveTree:  # long: one check per kind of member
    _zip_entries(data, name)
    archive, notes = _zip_file(data, name)
    infos = archive.infolist()
    if len(infos) > MAX_ARCHIVE_MEMBERS:
        raise too_many(f"{len(infos):,}", name)
    sizes: dict[str, int] = {}
    members: dict[str, zipfile.ZipInfo] = {}
    counts: dict[str, int] = {}
    declared = 0
    for info in infos:
        mode = info.external_attr >> 16
        if info.create_system == 3 and stat.S_ISLNK(mode):
            refuse_link(info.filename, name)
        path = member_path(info.filename, name)
        if path is None or info.is_dir():
            continue
        if info.flag_bits & 0x1:
            raise InputError(
                f"the member {shown_name(info.filename)} is encrypted",
                origin=name,
                hint="Upload an archive without a password.",
            )
        if info.file_size > MAX_UPLOAD_MB * MB:
            raise member_too_large(info.filename, info.file_size, name)
        declared += info.file_size
        if declared > unpacked_bound(len(data)):
            raise too_large(declared, data, name, declared=True)
        sizes[path], members[path] = info.file_size, info
        counts[path] = counts.get(path, 0) + 1

    def read(path: str) -> bytes:
        info = members[path]
        try:
            with archive.open(info) as member:
                content = member.read(info.file_size + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as error:
            raise damaged(f"{path} in {name}", error) from None
        if len(content) > info.file_size:  # zipfile stops at the declared size; never trusted
            raise member_too_large(info.filename, len(content), name)
        return content

    return ArchiveTree(name, sizes, read, notes=(*notes, *duplicates_note(counts, name)))
