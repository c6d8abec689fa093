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
- names: a member's path has at most :data:`MAX_ARCHIVE_PATH_CHARS` characters and
  :data:`MAX_ARCHIVE_DEPTH` folders, checked before it is split, and a tar's extended headers
  (which carry long names) at most :data:`MAX_ARCHIVE_HEADER_KB` each and
  :data:`MAX_ARCHIVE_EXTENDED_HEADERS` before one member, checked before tarfile reads them. So
  an archive has at most members x depth folders, and they are listed once (:class:`_Listing`).
  A member whose path is absolute or climbs out with ``..`` is refused with its name (it would
  be harmless here, since nothing is extracted, but such an archive was made to attack whoever
  unpacks it), and so is a tar member whose name is not UTF-8 (made where file names are
  Latin-1, say): no system or message could name it. Links, devices and encrypted members are
  refused too.

The Rankings page reads a .tar.xz too (``open_archive(..., read_xz=True)``: WMT25 ships its
automatic scores so), its decoder's memory bounded by :data:`MAX_XZ_DECODER_MB` and its bytes
counted as a .tar.gz's are; the Data page's archives stay .zip, .tar.gz and .tar.

A member that occurs twice is read as unpacking the archive would leave it (the last copy), with
a note that names it. A zip with other data before it (a self-extracting archive's program) is
read as the zip, with a note; a file of another kind (xz, bzip2, 7z, RAR, ...) is refused as
what it is.

An archive may hold the test set's folder (``wmt23/...``), the data root
(``mt-metrics-eval-v2/wmt23/...``), several test sets, or one language pair's files in the
test set's sub-folders; :meth:`ArchiveTree.test_set_folders` finds every folder that holds a
``system-outputs`` folder. macOS's ``__MACOSX`` copies and hidden files are skipped.
"""

from __future__ import annotations

import gzip
import io
import lzma
import re
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from mteval_core.errors import InputError, listed_names
from mteval_core.io.system_names import refuse_undecodable_name
from mteval_core.settings.limits import (
    MAX_ARCHIVE_DEPTH,
    MAX_ARCHIVE_EXTENDED_HEADERS,
    MAX_ARCHIVE_HEADER_KB,
    MAX_ARCHIVE_MEMBERS,
    MAX_ARCHIVE_PATH_CHARS,
    MAX_ARCHIVE_RATIO,
    MAX_ARCHIVE_UNPACKED_MB,
    MAX_UPLOAD_MB,
    MAX_XZ_DECODER_MB,
)

KB, MB = 2**10, 2**20
ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
ARCHIVE_HINT = (
    "Upload a .zip or .tar.gz of mt-metrics-eval's folders as they are on disk, e.g. "
    "`zip -r wmt23.zip wmt23` or `tar czf wmt23-en-de.tgz wmt23/sources/en-de.txt ...`."
)
LARGE_HINT = (
    "Put fewer files in the archive (one language pair: its sources, references, "
    "system-outputs, documents, human-scores and metric-scores), or score the folder from disk "
    "with the command line (mteval score), which reads mt-metrics-eval's folders as they are."
)
NAME_HINT = (
    "Archive the test set's folder from nearer to it (mt-metrics-eval's paths are a few "
    "folders deep and about 100 characters long). "
)
_HIDDEN = re.compile(r"(^|/)(__MACOSX|\.[^/]*)(/|$)")  # macOS's copies, .DS_Store, ._*, .git
_ZIP_START = b"PK\x03\x04"
_ZIP_END = b"PK\x05\x06"
_ZIP_ENTRY = b"PK\x01\x02"
_ZIP_END_SEARCH = 65_557  # the end record (22 bytes) and a comment of at most 65,535
_TAR_BLOCK = 512
_XZ_MAGIC = b"\xfd7zXZ\x00"
# What other files start with, to say what was uploaded instead of an archive that is read here
_OTHER_KINDS = (
    (_XZ_MAGIC, "an xz file (.xz, .tar.xz)"),
    (b"BZh", "a bzip2 file (.bz2, .tar.bz2)"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive (.7z)"),
    (b"Rar!\x1a\x07", "a RAR archive (.rar)"),
    (b"\x28\xb5\x2f\xfd", "a Zstandard file (.zst)"),
    (b"MZ", "a Windows program (.exe) with no zip archive inside"),
    (b"\x7fELF", "a Linux program with no zip archive inside"),
)
SHOWN_NAME = 80  # characters of a member's name that a message shows


def unpacked_bound(archive_bytes: int) -> int:
    """How many bytes an archive of this size may unpack to: :data:`MAX_ARCHIVE_RATIO` times
    its size, at least one upload's worth, at most :data:`MAX_ARCHIVE_UNPACKED_MB`."""
    ratio_bound = max(MAX_ARCHIVE_RATIO * archive_bytes, MAX_UPLOAD_MB * MB)
    return min(ratio_bound, MAX_ARCHIVE_UNPACKED_MB * MB)


class ArchiveTree:
    """The files of an archive, under ``prefix`` (a test set's folder, or the whole archive).

    Paths are relative to ``prefix``, with ``/`` between folders, as
    :class:`mteval_core.io.mtme.FileTree` asks; a message names a file as ``PATH in ARCHIVE``.
    The folders and the files directly in each are listed once, when the archive is opened
    (:class:`_Listing`), and every view of the archive (:meth:`at`) shares that listing, so
    listing an archive's test sets and language pairs is linear in its members. ``notes`` says
    what a reader of the archive must know (members that occur twice, data before a zip).
    """

    def __init__(
        self,
        name: str,
        sizes: dict[str, int],
        reader: Callable[[str], bytes],
        prefix: str = "",
        notes: tuple[str, ...] = (),
        listing: _Listing | None = None,
    ) -> None:
        self.name = name
        self._sizes = sizes  # member path -> unpacked size, files only
        self._reader = reader
        self.prefix = prefix
        self.notes = notes
        self._listing = listing if listing is not None else _Listing.of(sizes)

    def at(self, folder: str) -> ArchiveTree:
        """The same archive seen from one of its folders (``''``: the whole archive)."""
        return ArchiveTree(self.name, self._sizes, self._reader, folder, self.notes, self._listing)

    def with_note(self, note: str) -> ArchiveTree:
        """The same archive, with ``note`` first among its notes."""
        return ArchiveTree(
            self.name, self._sizes, self._reader, self.prefix, (note, *self.notes), self._listing
        )

    def _full(self, path: str) -> str:
        return "/".join(part for part in (self.prefix, path.strip("/")) if part)

    def is_folder(self, path: str) -> bool:
        return self._full(path) in self._listing.folders

    def files(self, folder: str) -> list[str]:
        """The names of the files directly inside ``folder``, sorted."""
        return list(self._listing.files.get(self._full(folder), ()))

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
            folder.rpartition("/")[0]
            for folder in self._listing.folders
            if folder.rpartition("/")[2] == "system-outputs"
        ]
        return sorted(found)

    @property
    def file_paths(self) -> list[str]:
        """Every file of the whole archive, by its path there, sorted."""
        return sorted(self._sizes)

    @property
    def unpacked_bytes(self) -> int:
        return sum(self._sizes.values())


@dataclass(frozen=True)
class _Listing:
    """Every folder of an archive (``''`` its top) and the sorted names of the files directly
    in each, made in one pass over the members: each member adds its file to its folder and
    its folders up to the first one already listed, so the work is at most members x
    :data:`MAX_ARCHIVE_DEPTH` (the paths were bounded when they were read)."""

    folders: frozenset[str]
    files: dict[str, tuple[str, ...]]

    @staticmethod
    def of(paths: Iterable[str]) -> _Listing:
        folders: set[str] = {""}
        files: dict[str, list[str]] = {}
        for path in paths:
            folder, _, name = path.rpartition("/")
            files.setdefault(folder, []).append(name)
            while folder not in folders:
                folders.add(folder)
                folder = folder.rpartition("/")[0]
        return _Listing(frozenset(folders), {k: tuple(sorted(v)) for k, v in files.items()})


def open_archive(data: bytes, name: str, read_xz: bool = False) -> ArchiveTree:
    """The archive ``name`` (its bytes) as a tree, or an InputError naming the archive (and the
    member) that says what is wrong: not an archive (and what it is, where we can tell),
    damaged, too large, a bomb, a member that climbs out of the archive, a name too long, too
    deep or not UTF-8, a link. With ``read_xz``, a .tar.xz is read too."""
    if data.startswith(_ZIP_START) or data.startswith(_ZIP_END):
        return _open_zip(data, name)
    if data.startswith(b"\x1f\x8b"):
        return _open_tar(data, name, compressed="gzip")
    if read_xz and data.startswith(_XZ_MAGIC):
        return _open_tar(data, name, compressed="xz")
    if len(data) > 262 and data[257:262] == b"ustar":
        return _open_tar(data, name, compressed=None)
    start = _zip_after_other_data(data)
    if start is not None:  # zipfile reads a zip with data before it, as unzip does
        tree = _open_zip(data, name)
        note = (
            f"{name}: the zip archive starts after {start:,} bytes of other data (the program "
            "of a self-extracting archive, or data put before the zip); the zip is read"
        )
        return tree.with_note(note)
    kind = next((kind for magic, kind in _OTHER_KINDS if data.startswith(magic)), None)
    raise InputError(
        f"this is {kind}, not a .zip, .tar.gz or .tar archive"
        if kind
        else "this is not a .zip, .tar.gz or .tar archive",
        origin=name,
        hint=ARCHIVE_HINT,
    )


def _zip_after_other_data(data: bytes) -> int | None:
    """Where a zip's first member starts in ``data`` when other data comes before it (a
    self-extracting archive's program), else None. Its end record says where its directory
    is; the directory's first entry says where that member's local header is, counted from
    the zip's first byte (or, after ``zip -A``, from the file's)."""
    end = data.rfind(_ZIP_END, max(0, len(data) - _ZIP_END_SEARCH))
    if end < 0 or end + 22 > len(data):
        return None
    size, offset = struct.unpack_from("<II", data, end + 12)
    directory = end - size
    if directory < 0 or data[directory : directory + 4] != _ZIP_ENTRY:
        return None
    (first,) = struct.unpack_from("<I", data, directory + 42)
    start = directory - offset + first  # what comes before the zip, where offsets omit it
    if start <= 0 or data[start : start + 4] != _ZIP_START:
        return None
    return start


# ------------------------------------------------------------------------------------------ names
def member_path(raw: str, archive: str) -> str | None:
    """The member's path with ``/`` between folders, or None for a folder entry or a file to
    skip (macOS's ``__MACOSX`` copies, hidden files). A name that is not UTF-8, too long or too
    deep, an absolute path, a drive letter or ``..`` is refused with the member's name."""
    refuse_undecodable_name(raw, archive, "member")
    name = raw.replace("\\", "/")
    if len(name) > MAX_ARCHIVE_PATH_CHARS:
        raise InputError(
            f"the member {_shown(raw)} has a path of {len(name):,} characters; the dashboard "
            f"takes paths of up to {MAX_ARCHIVE_PATH_CHARS:,} characters",
            origin=archive,
            hint=NAME_HINT + ARCHIVE_HINT,
        )
    if "\0" in name or name.startswith("/") or re.match(r"[A-Za-z]:", name):
        raise InputError(
            f"the member {_shown(raw)} has an absolute path",
            origin=archive,
            hint="An archive for the dashboard holds relative paths only. " + ARCHIVE_HINT,
        )
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise InputError(
            f"the member {_shown(raw)} climbs out of the archive ('..' in its path)",
            origin=archive,
            hint="An archive for the dashboard holds relative paths inside it only. "
            + ARCHIVE_HINT,
        )
    if len(parts) - 1 > MAX_ARCHIVE_DEPTH:
        raise InputError(
            f"the member {_shown(raw)} is {len(parts) - 1:,} folders deep; the dashboard takes "
            f"paths of up to {MAX_ARCHIVE_DEPTH} folders",
            origin=archive,
            hint=NAME_HINT + ARCHIVE_HINT,
        )
    path = "/".join(parts)
    if not path or _HIDDEN.search(path):
        return None
    return path


def _shown(raw: str) -> str:
    """A member's name as a message shows it: quoted, its first :data:`SHOWN_NAME` characters."""
    if len(raw) <= SHOWN_NAME:
        return repr(raw)
    return f"{raw[:SHOWN_NAME]!r}... ({len(raw):,} characters)"


def _duplicates_note(counts: dict[str, int], archive: str) -> tuple[str, ...]:
    """The note for members that occur more than once (``tar -r`` appends a file again; some
    zip writers do too): unpacking leaves the last copy, and so it is read."""
    twice = [f"{path} ({count} times)" for path, count in counts.items() if count > 1]
    if not twice:
        return ()
    return (
        f"{archive}: {len(twice):,} member(s) occur more than once: {listed_names(twice)}; the "
        "last copy of each is read, as unpacking the archive would leave it",
    )


def _refuse_link(raw: str, archive: str) -> None:
    raise InputError(
        f"the member {_shown(raw)} is a link, not a file",
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
        f"the member {_shown(raw)} is {size / MB:,.1f} MB; the dashboard takes files of up to "
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
    end = data.rfind(_ZIP_END, max(0, len(data) - _ZIP_END_SEARCH))
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
        raise _damaged(name, error) from None
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except UnicodeDecodeError as error:  # marked as UTF-8: nothing else to read it as
        raise InputError(
            f"a member's name is marked as UTF-8 but is not UTF-8 ({error})",
            origin=name,
            hint="Rename the file with a UTF-8 name and make the archive again.",
        ) from None
    except damaged as error:
        raise _damaged(name, error) from None
    note = (
        f"{name}: the names of its members are not UTF-8; they are read as IBM code page 437, "
        "the zip format's default (names with accents may read otherwise than they were written)"
    )
    return archive, (note,)


def _open_zip(data: bytes, name: str) -> ArchiveTree:  # long: one check per kind of member
    _zip_entries(data, name)
    archive, notes = _zip_file(data, name)
    infos = archive.infolist()
    if len(infos) > MAX_ARCHIVE_MEMBERS:
        raise _too_many(f"{len(infos):,}", name)
    sizes: dict[str, int] = {}
    members: dict[str, zipfile.ZipInfo] = {}
    counts: dict[str, int] = {}
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
                f"the member {_shown(info.filename)} is encrypted",
                origin=name,
                hint="Upload an archive without a password.",
            )
        if info.file_size > MAX_UPLOAD_MB * MB:
            raise _member_too_large(info.filename, info.file_size, name)
        declared += info.file_size
        if declared > unpacked_bound(len(data)):
            raise _too_large(declared, data, name, declared=True)
        sizes[path], members[path] = info.file_size, info
        counts[path] = counts.get(path, 0) + 1

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

    return ArchiveTree(name, sizes, read, notes=(*notes, *_duplicates_note(counts, name)))


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


class _XzStream(io.RawIOBase):
    """An xz stream decoded as it is read, its decoder's memory at most
    :data:`MAX_XZ_DECODER_MB` (``lzma.LZMAFile`` takes no such limit)."""

    def __init__(self, data: bytes) -> None:
        self.data = memoryview(data)
        self.position = 0
        self.decoder = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=MAX_XZ_DECODER_MB * MB)

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        want = 1 << 16 if size is None or size < 0 else size
        while not self.decoder.eof:
            if self.decoder.needs_input:
                chunk = bytes(self.data[self.position : self.position + (1 << 16)])
                self.position += len(chunk)
                if not chunk:
                    raise EOFError("the xz stream ends early")
            else:
                chunk = b""
            decoded = self.decoder.decompress(chunk, max_length=want)
            if decoded:
                return decoded
        return b""


class _Exceeded(Exception):
    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


_EXTENDED_TYPES = (
    tarfile.GNUTYPE_LONGNAME,
    tarfile.GNUTYPE_LONGLINK,
    tarfile.XHDTYPE,
    tarfile.XGLTYPE,
    tarfile.SOLARIS_XHDTYPE,
)


class _ExtendedHeaders(Exception):
    """An extended header too large, or too many before one member."""

    def __init__(self, size: int, chained: int) -> None:
        super().__init__(size, chained)
        self.size = size
        self.chained = chained


class _BoundedTarInfo(tarfile.TarInfo):
    """tarfile's member header, with its extended headers (pax, GNU long names) bounded before
    tarfile reads them: it reads each one whole, and recurses once for each before a member."""

    def _proc_member(self, tarfile: tarfile.TarFile) -> tarfile.TarInfo:  # tarfile's hook
        chained = getattr(tarfile, "mteval_extended", 0) + 1 if self.type in _EXTENDED_TYPES else 0
        if self.size > MAX_ARCHIVE_HEADER_KB * KB and chained:
            raise _ExtendedHeaders(self.size, chained)
        if chained > MAX_ARCHIVE_EXTENDED_HEADERS:
            raise _ExtendedHeaders(self.size, chained)
        tarfile.mteval_extended = chained  # type: ignore[attr-defined]
        return super()._proc_member(tarfile)


def _refused_headers(refused: _ExtendedHeaders, name: str) -> InputError:
    if refused.chained > MAX_ARCHIVE_EXTENDED_HEADERS:
        problem = (
            f"more than {MAX_ARCHIVE_EXTENDED_HEADERS} extended headers come before one member; "
            f"the dashboard reads up to {MAX_ARCHIVE_EXTENDED_HEADERS}"
        )
    else:
        problem = (
            f"a member's extended header (its long name or attributes) is {refused.size:,} "
            f"bytes; the dashboard reads headers of up to {MAX_ARCHIVE_HEADER_KB} KB, enough "
            f"for a path of {MAX_ARCHIVE_PATH_CHARS:,} characters"
        )
    return InputError(problem, origin=name, hint=NAME_HINT + ARCHIVE_HINT)


def _open_tar(data: bytes, name: str, compressed: str | None) -> ArchiveTree:
    """A tar, gzip- or xz-compressed or not (``compressed``: "gzip", "xz" or None)."""
    bound = unpacked_bound(len(data))
    # tar headers and padding: a block or two per member, and the end of the archive
    stream_bound = bound + (MAX_ARCHIVE_MEMBERS + 4) * 2 * _TAR_BLOCK
    raw: io.BufferedIOBase = io.BytesIO(data)
    if compressed == "gzip":
        raw = gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[assignment]
    elif compressed == "xz":
        raw = _XzStream(data)  # type: ignore[assignment]
    counted = _Counted(raw, stream_bound)
    contents: dict[str, bytes] = {}
    counts: dict[str, int] = {}
    unpacked = 0
    try:
        with tarfile.open(fileobj=counted, mode="r|", tarinfo=_BoundedTarInfo) as archive:
            for count, member in enumerate(_members(archive), start=1):
                if count > MAX_ARCHIVE_MEMBERS:
                    raise _too_many(f"more than {MAX_ARCHIVE_MEMBERS:,}", name)
                path, added = _read_tar_member(archive, member, name, unpacked, data, contents)
                unpacked += added
                if path is not None:
                    counts[path] = counts.get(path, 0) + 1
    except _Exceeded as exceeded:
        raise _too_large(exceeded.count, data, name, declared=False) from None
    except _ExtendedHeaders as refused:
        raise _refused_headers(refused, name) from None
    except lzma.LZMAError as error:
        raise _xz_refused(name, error) from None
    except (tarfile.TarError, zlib.error, EOFError, OSError) as error:
        if compressed and not contents and isinstance(error, tarfile.ReadError):
            raise InputError(
                f"this {compressed} file holds no tar archive",
                origin=name,
                hint=ARCHIVE_HINT,
            ) from None
        raise _damaged(name, error) from None
    sizes = {path: len(content) for path, content in contents.items()}
    notes = _duplicates_note(counts, name)
    return ArchiveTree(name, sizes, contents.__getitem__, notes=notes)


def _xz_refused(name: str, error: lzma.LZMAError) -> InputError:
    if "memory" in str(error).lower():
        return InputError(
            f"the xz stream's decoder asks for more than {MAX_XZ_DECODER_MB} MB of memory; "
            "the dashboard decodes xz streams that need up to that (xz -9 needs 65 MB)",
            origin=name,
            hint="Compress the archive again with xz -9 or less, or upload a .zip or .tar.gz.",
        )
    return _damaged(name, error)


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
) -> tuple[str | None, int]:
    """Check one member and keep its bytes (files only; the stream moves on past it): its
    path (None for a folder or a file skipped) and the bytes it adds to the ``unpacked`` so
    far."""
    if member.issym() or member.islnk():
        _refuse_link(member.name, name)
    path = member_path(member.name, name)
    if member.isdir():
        return None, 0
    if not member.isfile():
        raise InputError(
            f"the member {_shown(member.name)} is not a file (a device or a pipe)",
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
    return path, len(content)
