"""The tree of files an uploaded archive holds, and what every archive reader refuses alike.

:func:`mteval_core.io.archives.open_archive` tells the kinds of archive apart; the zip and tar
readers (:mod:`archive_zip`, :mod:`archive_tar`) list their members into an
:class:`ArchiveTree` and share the checks here: a member's path (:func:`member_path`) and the
messages for too many members, too many bytes, links and damage, each naming the archive.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mteval_core.errors import InputError, listed_names
from mteval_core.io.system_names import refuse_undecodable_name
from mteval_core.settings.limits import (
    MAX_ARCHIVE_DEPTH,
    MAX_ARCHIVE_MEMBERS,
    MAX_ARCHIVE_PATH_CHARS,
    MAX_ARCHIVE_RATIO,
    MAX_ARCHIVE_UNPACKED_MB,
    MAX_UPLOAD_MB,
)

KB, MB = 2**10, 2**20
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


def member_path(raw: str, archive: str) -> str | None:
    """The member's path with ``/`` between folders, or None for a folder entry or a file to
    skip (macOS's ``__MACOSX`` copies, hidden files). A name that is not UTF-8, too long or too
    deep, an absolute path, a drive letter or ``..`` is refused with the member's name."""
    refuse_undecodable_name(raw, archive, "member")
    name = raw.replace("\\", "/")
    if len(name) > MAX_ARCHIVE_PATH_CHARS:
        raise InputError(
            f"the member {shown_name(raw)} has a path of {len(name):,} characters; the dashboard "
            f"takes paths of up to {MAX_ARCHIVE_PATH_CHARS:,} characters",
            origin=archive,
            hint=NAME_HINT + ARCHIVE_HINT,
        )
    if "\0" in name or name.startswith("/") or re.match(r"[A-Za-z]:", name):
        raise InputError(
            f"the member {shown_name(raw)} has an absolute path",
            origin=archive,
            hint="An archive for the dashboard holds relative paths only. " + ARCHIVE_HINT,
        )
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise InputError(
            f"the member {shown_name(raw)} climbs out of the archive ('..' in its path)",
            origin=archive,
            hint="An archive for the dashboard holds relative paths inside it only. "
            + ARCHIVE_HINT,
        )
    if len(parts) - 1 > MAX_ARCHIVE_DEPTH:
        raise InputError(
            f"the member {shown_name(raw)} is {len(parts) - 1:,} folders deep; the dashboard takes "
            f"paths of up to {MAX_ARCHIVE_DEPTH} folders",
            origin=archive,
            hint=NAME_HINT + ARCHIVE_HINT,
        )
    path = "/".join(parts)
    if not path or _HIDDEN.search(path):
        return None
    return path


def shown_name(raw: str) -> str:
    """A member's name as a message shows it: quoted, its first :data:`SHOWN_NAME` characters."""
    if len(raw) <= SHOWN_NAME:
        return repr(raw)
    return f"{raw[:SHOWN_NAME]!r}... ({len(raw):,} characters)"


def duplicates_note(counts: dict[str, int], archive: str) -> tuple[str, ...]:
    """The note for members that occur more than once (``tar -r`` appends a file again; some
    zip writers do too): unpacking leaves the last copy, and so it is read."""
    twice = [f"{path} ({count} times)" for path, count in counts.items() if count > 1]
    if not twice:
        return ()
    return (
        f"{archive}: {len(twice):,} member(s) occur more than once: {listed_names(twice)}; the "
        "last copy of each is read, as unpacking the archive would leave it",
    )


def refuse_link(raw: str, archive: str) -> None:
    raise InputError(
        f"the member {shown_name(raw)} is a link, not a file",
        origin=archive,
        hint="Archive the files themselves (zip without -y, tar without -h keeps links as "
        "links: copy the files first).",
    )


def too_many(count: str, archive: str) -> InputError:
    return InputError(
        f"the archive has {count} members; the dashboard takes archives of up to "
        f"{MAX_ARCHIVE_MEMBERS:,}",
        origin=archive,
        hint=LARGE_HINT,
    )


def too_large(unpacked: int, data: bytes, archive: str, declared: bool) -> InputError:
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


def member_too_large(raw: str, size: int, archive: str) -> InputError:
    return InputError(
        f"the member {shown_name(raw)} is {size / MB:,.1f} MB; the dashboard takes files of up to "
        f"{MAX_UPLOAD_MB} MB, in an archive or not",
        origin=archive,
        hint=LARGE_HINT,
    )


def damaged(archive: str, error: Exception) -> InputError:
    return InputError(
        f"the archive is damaged or uses a format Python cannot read ({error})",
        origin=archive,
        hint="Make the archive again and upload it again. " + ARCHIVE_HINT,
    )
