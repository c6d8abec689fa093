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

from mteval_core.errors import InputError
from mteval_core.io.archive_tar import open_tar
from mteval_core.io.archive_tree import ARCHIVE_HINT, ArchiveTree, unpacked_bound
from mteval_core.io.archive_zip import ZIP_END, ZIP_START, open_zip, zip_after_other_data

__all__ = ["ARCHIVE_HINT", "ARCHIVE_SUFFIXES", "ArchiveTree", "open_archive", "unpacked_bound"]

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
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


def open_archive(data: bytes, name: str, read_xz: bool = False) -> ArchiveTree:
    """The archive ``name`` (its bytes) as a tree, or an InputError naming the archive (and the
    member) that says what is wrong: not an archive (and what it is, where we can tell),
    damaged, too large, a bomb, a member that climbs out of the archive, a name too long, too
    deep or not UTF-8, a link. With ``read_xz``, a .tar.xz is read too."""
    if data.startswith(ZIP_START) or data.startswith(ZIP_END):
        return open_zip(data, name)
    if data.startswith(b"\x1f\x8b"):
        return open_tar(data, name, compressed="gzip")
    if read_xz and data.startswith(_XZ_MAGIC):
        return open_tar(data, name, compressed="xz")
    if len(data) > 262 and data[257:262] == b"ustar":
        return open_tar(data, name, compressed=None)
    start = zip_after_other_data(data)
    if start is not None:  # zipfile reads a zip with data before it, as unzip does
        tree = open_zip(data, name)
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
