"""A tar archive read in memory, plain, gzip- or xz-compressed, as a stream: a compressed stream
declares no size, so its bytes are counted as they are unpacked and refused past the bound, and
tar's extended headers (long names) are bounded before :mod:`tarfile` reads them."""

from __future__ import annotations

import gzip
import io
import lzma
import tarfile
import zlib
from collections.abc import Iterator

from mteval_core.errors import InputError
from mteval_core.io.archive_tree import (
    ARCHIVE_HINT,
    KB,
    MB,
    NAME_HINT,
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
from mteval_core.settings.limits import (
    MAX_ARCHIVE_EXTENDED_HEADERS,
    MAX_ARCHIVE_HEADER_KB,
    MAX_ARCHIVE_MEMBERS,
    MAX_ARCHIVE_PATH_CHARS,
    MAX_UPLOAD_MB,
    MAX_XZ_DECODER_MB,
)

_TAR_BLOCK = 512


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


def open_tar(data: bytes, name: str, compressed: str | None) -> ArchiveTree:
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
                    raise too_many(f"more than {MAX_ARCHIVE_MEMBERS:,}", name)
                path, added = _read_tar_member(archive, member, name, unpacked, data, contents)
                unpacked += added
                if path is not None:
                    counts[path] = counts.get(path, 0) + 1
    except _Exceeded as exceeded:
        raise too_large(exceeded.count, data, name, declared=False) from None
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
        raise damaged(name, error) from None
    sizes = {path: len(content) for path, content in contents.items()}
    notes = duplicates_note(counts, name)
    return ArchiveTree(name, sizes, contents.__getitem__, notes=notes)


def _xz_refused(name: str, error: lzma.LZMAError) -> InputError:
    if "memory" in str(error).lower():
        return InputError(
            f"the xz stream's decoder asks for more than {MAX_XZ_DECODER_MB} MB of memory; "
            "the dashboard decodes xz streams that need up to that (xz -9 needs 65 MB)",
            origin=name,
            hint="Compress the archive again with xz -9 or less, or upload a .zip or .tar.gz.",
        )
    return damaged(name, error)


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
        refuse_link(member.name, name)
    path = member_path(member.name, name)
    if member.isdir():
        return None, 0
    if not member.isfile():
        raise InputError(
            f"the member {shown_name(member.name)} is not a file (a device or a pipe)",
            origin=name,
            hint=ARCHIVE_HINT,
        )
    if member.size > MAX_UPLOAD_MB * MB:
        raise member_too_large(member.name, member.size, name)
    if unpacked + member.size > unpacked_bound(len(data)):
        raise too_large(unpacked + member.size, data, name, declared=True)
    file = archive.extractfile(member)
    content = file.read() if file is not None else b""
    if path is not None:
        contents[path] = content
    return path, len(content)
