"""An uploaded archive (.zip, .tar.gz, .tgz, .tar) read in memory as a tree of files.

The dashboard takes mt-metrics-eval's folders as one upload, and reads them through the same
:class:`mteval_core.io.mtme.FileTree` interface as a folder on disk, so nothing is written to the
shared server's disk. What an archive could do to that server is bounded before the work that
grows with it:

- members: at most :data:`MAX_ARCHIVE_MEMBERS`, counted in the zip's central directory before
  :mod:`zipfile` builds an object per member, and as a tar is read;
- unpacked size: the members together at most :data:`MAX_ARCHIVE_RATIO` times the archive's size
  (a zip bomb unpacks to a thousand times its size) and never more than
  :data:`MAX_ARCHIVE_UNPACKED_MB`; a member at most :data:`MAX_UPLOAD_MB`. A zip declares its
  sizes in its central directory, so a bomb is refused before any member is unpacked; a gzip
  stream declares nothing, so a .tar.gz is unpacked in small reads, counted, and refused as soon
  as it passes the bound. Bytes are counted as they are unpacked, whatever the headers say;
- names: a member whose path is absolute or climbs out with ``..`` is refused with its name (it
  would be harmless here, since nothing is extracted, but such an archive was made to attack
  whoever unpacks it); links, devices and encrypted members are refused too.

An archive may hold the test set's folder (``wmt23/...``), the data root
(``mt-metrics-eval-v2/wmt23/...``), several test sets, or one language pair's files in the
test set's sub-folders; :meth:`ArchiveTree.test_set_folders` finds every folder that holds a
``system-outputs`` folder. macOS's ``__MACOSX`` copies and hidden files are skipped.
"""

from __future__ import annotations

import gzip
import io
import re
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import PurePosixPath

from mteval_core.errors import InputError
from mteval_core.settings.limits import (
    MAX_ARCHIVE_MEMBERS,
    MAX_ARCHIVE_RATIO,
    MAX_ARCHIVE_UNPACKED_MB,
    MAX_UPLOAD_MB,
)

MB = 2**20
ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
ARCHIVE_HINT = (
    "Upload a .zip or .tar.gz of mt-metrics-eval's folders as they are on disk, e.g. "
    "`zip -r wmt23.zip wmt23` or `tar czf wmt23-en-de.tgz wmt23/sources/en-de.txt ...`."
)
LARGE_HINT = (
    "Put fewer files in the archive (one language pair: its sources, references, "
    "system-outputs, documents, human-scores and metric-scores), or score the folder with the "
    "command line: mteval score --mtme DIR --test-set NAME --lp LP."
)
_HIDDEN = re.compile(r"(^|/)(__MACOSX|\.[^/]*)(/|$)")  # macOS's copies, .DS_Store, ._*, .git
_ZIP_END = b"PK\x05\x06"
_ZIP_ENTRY = b"PK\x01\x02"
_TAR_BLOCK = 512


def unpacked_bound(archive_bytes: int) -> int:
    """How many bytes an archive of this size may unpack to: :data:`MAX_ARCHIVE_RATIO` times
    its size, at least one upload's worth, at most :data:`MAX_ARCHIVE_UNPACKED_MB`."""
    ratio_bound = max(MAX_ARCHIVE_RATIO * archive_bytes, MAX_UPLOAD_MB * MB)
    return min(ratio_bound, MAX_ARCHIVE_UNPACKED_MB * MB)


class ArchiveTree:
    """The files of an archive, under ``prefix`` (a test set's folder, or the whole archive).

    Paths are relative to ``prefix``, with ``/`` between folders, as
    :class:`mteval_core.io.mtme.FileTree` asks; a message names a file as ``PATH in ARCHIVE``.
    """

    def __init__(
        self,
        name: str,
        sizes: dict[str, int],
        reader: Callable[[str], bytes],
        prefix: str = "",
    ) -> None:
        self.name = name
        self._sizes = sizes  # member path -> unpacked size, files only
        self._reader = reader
        self.prefix = prefix
        self._folders = {
            str(parent) for path in sizes for parent in PurePosixPath(path).parents
        } - {"."}

    def at(self, folder: str) -> ArchiveTree:
        """The same archive seen from one of its folders (``''``: the whole archive)."""
        return ArchiveTree(self.name, self._sizes, self._reader, folder)

    def _full(self, path: str) -> str:
        return "/".join(part for part in (self.prefix, path.strip("/")) if part)

    def is_folder(self, path: str) -> bool:
        full = self._full(path)
        return full == "" or full in self._folders

    def files(self, folder: str) -> list[str]:
        """The names of the files directly inside ``folder``, sorted."""
        base = self._full(folder)
        start = f"{base}/" if base else ""
        return sorted(
            path[len(start) :]
            for path in self._sizes
            if path.startswith(start) and "/" not in path[len(start) :]
        )

    def read(self, path: str) -> bytes:
        full = self._full(path)
        if full not in self._sizes:
            raise InputError("there is no such file in the archive", origin=self.origin(path))
        return self._reader(full)

    def origin(self, path: str) -> str:
        """How a message names the file: its path in the archive, and the archive."""
        full = self._full(path)
        return f"{full} in {self.name}" if full else self.name

    def test_set_folders(self) -> list[str]:
        """Every folder (``''`` for the archive's top) that holds a ``system-outputs`` folder:
        mt-metrics-eval's test set folders, whatever folders they sit in."""
        found = [
            str(PurePosixPath(folder).parent)
            for folder in self._folders
            if PurePosixPath(folder).name == "system-outputs"
        ]
        return sorted("" if folder == "." else folder for folder in found)

    @property
    def file_paths(self) -> list[str]:
        """Every file of the whole archive, by its path there, sorted."""
        return sorted(self._sizes)

    @property
    def unpacked_bytes(self) -> int:
        return sum(self._sizes.values())


def open_archive(data: bytes, name: str) -> ArchiveTree:
    """The archive ``name`` (its bytes) as a tree, or an InputError naming the archive (and the
    member) that says what is wrong: not an archive, damaged, too large, a bomb, a member
    that climbs out of the archive, a link."""
    if data.startswith(b"PK\x03\x04") or data.startswith(_ZIP_END):
        return _open_zip(data, name)
    if data.startswith(b"\x1f\x8b"):
        return _open_tar(data, name, compressed=True)
    if len(data) > 262 and data[257:262] == b"ustar":
        return _open_tar(data, name, compressed=False)
    raise InputError(
        "this is not a .zip, .tar.gz or .tar archive",
        origin=name,
        hint=ARCHIVE_HINT,
    )


# ------------------------------------------------------------------------------------------ names
def member_path(raw: str, archive: str) -> str | None:
    """The member's path with ``/`` between folders, or None for a folder entry or a file to
    skip (macOS's ``__MACOSX`` copies, hidden files). An absolute path, a drive letter or ``..``
    is refused with the member's name."""
    name = raw.replace("\\", "/")
    if "\0" in name or name.startswith("/") or re.match(r"[A-Za-z]:", name):
        raise InputError(
            f"the member {raw!r} has an absolute path",
            origin=archive,
            hint="An archive for the dashboard holds relative paths only. " + ARCHIVE_HINT,
        )
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise InputError(
            f"the member {raw!r} climbs out of the archive ('..' in its path)",
            origin=archive,
            hint="An archive for the dashboard holds relative paths inside it only. "
            + ARCHIVE_HINT,
        )
    path = "/".join(parts)
    if not path or _HIDDEN.search(path):
        return None
    return path


def _refuse_link(raw: str, archive: str) -> None:
    raise InputError(
        f"the member {raw!r} is a link, not a file",
        origin=archive,
        hint="Archive the files themselves (zip without -y, tar without -h keeps links as "
        "links: copy the files first).",
    )


def _too_many(count: str, archive: str) -> InputError:
    return InputError(
        f"the archive has {count} members; the dashboard takes archives of up to "
        f"{MAX_ARCHIVE_MEMBERS:,}",
        origin=archive,
        hint=LARGE_HINT,
    )


def _too_large(unpacked: int, data: bytes, archive: str, declared: bool) -> InputError:
    verb = "would unpack" if declared else "unpacks"
    bound = unpacked_bound(len(data))
    ratio = unpacked / max(len(data), 1)
    return InputError(
        f"the archive {verb} to more than {unpacked / MB:,.1f} MB ({ratio:,.0f} times its "
        f"size); the dashboard unpacks up to {bound / MB:,.0f} MB from an archive of this size "
        f"({MAX_ARCHIVE_RATIO} times its size, at most {MAX_ARCHIVE_UNPACKED_MB} MB): it is "
        "refused before it is unpacked, as a zip bomb would be",
        origin=archive,
        hint=LARGE_HINT,
    )


def _member_too_large(raw: str, size: int, archive: str) -> InputError:
    return InputError(
        f"the member {raw!r} is {size / MB:,.1f} MB; the dashboard takes files of up to "
        f"{MAX_UPLOAD_MB} MB, in an archive or not",
        origin=archive,
        hint=LARGE_HINT,
    )


def _damaged(archive: str, error: Exception) -> InputError:
    return InputError(
        f"the archive is damaged or uses a format Python cannot read ({error})",
        origin=archive,
        hint="Make the archive again and upload it again. " + ARCHIVE_HINT,
    )


# -------------------------------------------------------------------------------------------- zip
def _zip_entries(data: bytes, archive: str) -> int:
    """The number of central-directory entries, counted without building an object for each:
    refused as soon as it passes the limit (a 50 MB central directory holds a million)."""
    end = data.rfind(_ZIP_END, max(0, len(data) - 65_557))
    if end < 0 or end + 22 > len(data):
        raise _damaged(archive, ValueError("no end of central directory"))
    (size,) = struct.unpack_from("<I", data, end + 12)
    position = max(0, end - size)  # where the directory starts, data prepended or not
    count = 0
    while position + 46 <= end and data[position : position + 4] == _ZIP_ENTRY:
        names, extra, comment = struct.unpack_from("<HHH", data, position + 28)
        position += 46 + names + extra + comment
        count += 1
        if count > MAX_ARCHIVE_MEMBERS:
            raise _too_many(f"more than {MAX_ARCHIVE_MEMBERS:,}", archive)
    return count


def _open_zip(data: bytes, name: str) -> ArchiveTree:  # long: one check per kind of member
    _zip_entries(data, name)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as error:
        raise _damaged(name, error) from None
    infos = archive.infolist()
    if len(infos) > MAX_ARCHIVE_MEMBERS:
        raise _too_many(f"{len(infos):,}", name)
    sizes: dict[str, int] = {}
    declared = 0
    for info in infos:
        mode = info.external_attr >> 16
        if info.create_system == 3 and stat.S_ISLNK(mode):
            _refuse_link(info.filename, name)
        path = member_path(info.filename, name)
        if path is None or info.is_dir():
            continue
        if info.flag_bits & 0x1:
            raise InputError(
                f"the member {info.filename!r} is encrypted",
                origin=name,
                hint="Upload an archive without a password.",
            )
        if info.file_size > MAX_UPLOAD_MB * MB:
            raise _member_too_large(info.filename, info.file_size, name)
        declared += info.file_size
        if declared > unpacked_bound(len(data)):
            raise _too_large(declared, data, name, declared=True)
        sizes[path] = info.file_size
    members = {member_path(i.filename, name): i for i in infos if not i.is_dir()}

    def read(path: str) -> bytes:
        info = members[path]
        try:
            with archive.open(info) as member:
                content = member.read(info.file_size + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as error:
            raise _damaged(f"{path} in {name}", error) from None
        if len(content) > info.file_size:  # zipfile stops at the declared size; never trusted
            raise _member_too_large(info.filename, len(content), name)
        return content

    return ArchiveTree(name, sizes, read)


# -------------------------------------------------------------------------------------------- tar
class _Counted(io.RawIOBase):
    """A stream that counts the bytes read through it and stops past ``bound``: a gzip stream
    says nothing of its size, so this is how a .tar.gz bomb is stopped part way."""

    def __init__(self, stream: io.BufferedIOBase, bound: int) -> None:
        self.stream = stream
        self.bound = bound
        self.count = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        want = 1 << 16 if size is None or size < 0 else min(size, 1 << 16)
        chunk = self.stream.read(want)
        self.count += len(chunk)
        if self.count > self.bound:
            raise _Exceeded(self.count)
        return chunk


class _Exceeded(Exception):
    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


def _open_tar(data: bytes, name: str, compressed: bool) -> ArchiveTree:
    bound = unpacked_bound(len(data))
    # tar headers and padding: a block or two per member, and the end of the archive
    stream_bound = bound + (MAX_ARCHIVE_MEMBERS + 4) * 2 * _TAR_BLOCK
    raw: io.BufferedIOBase = io.BytesIO(data)
    if compressed:
        raw = gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[assignment]
    counted = _Counted(raw, stream_bound)
    contents: dict[str, bytes] = {}
    unpacked = 0
    try:
        with tarfile.open(fileobj=counted, mode="r|") as archive:
            for count, member in enumerate(_members(archive), start=1):
                if count > MAX_ARCHIVE_MEMBERS:
                    raise _too_many(f"more than {MAX_ARCHIVE_MEMBERS:,}", name)
                unpacked += _read_tar_member(archive, member, name, unpacked, data, contents)
    except _Exceeded as exceeded:
        raise _too_large(exceeded.count, data, name, declared=False) from None
    except (tarfile.TarError, zlib.error, EOFError, OSError) as error:
        if compressed and not contents and isinstance(error, tarfile.ReadError):
            raise InputError(
                "this gzip file holds no tar archive",
                origin=name,
                hint=ARCHIVE_HINT,
            ) from None
        raise _damaged(name, error) from None
    sizes = {path: len(content) for path, content in contents.items()}
    return ArchiveTree(name, sizes, contents.__getitem__)


def _members(archive: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    while (member := archive.next()) is not None:
        yield member


def _read_tar_member(
    archive: tarfile.TarFile,
    member: tarfile.TarInfo,
    name: str,
    unpacked: int,
    data: bytes,
    contents: dict[str, bytes],
) -> int:
    """Check one member and keep its bytes (files only; the stream moves on past it); the
    bytes it adds to the ``unpacked`` so far."""
    if member.issym() or member.islnk():
        _refuse_link(member.name, name)
    path = member_path(member.name, name)
    if member.isdir():
        return 0
    if not member.isfile():
        raise InputError(
            f"the member {member.name!r} is not a file (a device or a pipe)",
            origin=name,
            hint=ARCHIVE_HINT,
        )
    if member.size > MAX_UPLOAD_MB * MB:
        raise _member_too_large(member.name, member.size, name)
    if unpacked + member.size > unpacked_bound(len(data)):
        raise _too_large(unpacked + member.size, data, name, declared=True)
    file = archive.extractfile(member)
    content = file.read() if file is not None else b""
    if path is not None:
        contents[path] = content
    return len(content)
