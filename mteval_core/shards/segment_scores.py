"""Segment scores written as shards, one output file per input shard, e.g. to filter data.

Columns: system, segment (the shard's segment id) and one column per metric, named as the metric
(bleu, chrf, ...), holding the metric's segment score (sentence BLEU for BLEU, as ``mteval score
--segments`` prints it). Parquet where pyarrow is installed, otherwise TSV.

A run writes every file or none (``writing``): before any work it refuses every output it can tell
is unusable (a folder under a file, a file name taken by a folder, a folder it cannot write in);
workers write under a staging name; the files get their names only once every shard has been
scored and the checks across shards have passed, and a failed run removes what it wrote.
"""

from __future__ import annotations

import csv
import errno
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mteval_core.errors import InputError

SUFFIX = ".segment-scores"  # part-0.tsv -> part-0.segment-scores.parquet
PARTIAL = ".partial"  # what a file is called until the whole run has passed its checks
OPTION = "--segment-scores-out"
FOLDER_HINT = "Give a folder that exists or can be created; it is created if it does not exist."
FULL = (errno.ENOSPC, errno.EDQUOT)
FORBIDDEN = (errno.EACCES, errno.EPERM, errno.EROFS)


def default_format() -> str:
    """Parquet where pyarrow is installed (it reads Parquet shards too), otherwise TSV."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return "tsv"
    return "parquet"


@dataclass(frozen=True)
class SegmentScoresOut:
    folder: str
    format: str  # "parquet" or "tsv"

    def path_for(self, shard: str | Path) -> Path:
        return Path(self.folder) / f"{Path(shard).stem}{SUFFIX}.{self.format}"

    def staging_path_for(self, shard: str | Path) -> Path:
        """Where a worker writes: the file gets its name only once every shard has been read
        and the checks across shards have passed (``publish``)."""
        path = self.path_for(shard)
        return path.with_name(path.name + PARTIAL)

    @contextmanager
    def writing(self, shards: Sequence[Path]) -> Iterator[None]:
        """The scoring of ``shards`` runs in this context: the checks come before it, and after
        it every shard's file is published, or, if it (or publishing) fails, none is and the
        files and folders this run made are removed."""
        self.check(shards)
        made = self.create()
        try:
            yield
            self.publish(shards)
        except BaseException:  # a bad shard, a full disk, Ctrl-C
            self.discard(shards, made)
            raise

    def check(self, shards: Sequence[Path]) -> None:
        """Before any work, without writing: a usable folder name, one distinct output per
        shard, none inside an input folder (where a later run would read the scores as shards)
        and no output name taken by a folder."""
        folder = self._checked_folder()
        seen: dict[Path, Path] = {}
        for shard in shards:
            if shard.resolve().parent == folder:
                raise InputError(
                    f"{OPTION} is a folder of input shards",
                    origin=self.folder,
                    hint="Write the segment scores to another folder: a later run over this "
                    "one would read them as shards.",
                )
            target = self.path_for(shard)
            if target in seen:
                raise InputError(
                    f"the shards {seen[target]} and {shard} would write the same segment-score "
                    f"file {target.name}",
                    origin=str(shard),
                    hint="Give the shards distinct file names (without their extensions).",
                )
            seen[target] = shard
        self._check_names(shards)

    def create(self) -> list[Path]:
        """Make the folder and write a file in it (removed at once), so that a folder nobody may
        write in is refused before any work; returns the folders made, deepest first."""
        folder = Path(self.folder)
        made = [path for path in (folder, *folder.parents) if not path.exists()]
        try:
            folder.mkdir(parents=True, exist_ok=True)
            descriptor, probe = tempfile.mkstemp(prefix=".mteval-probe-", dir=folder)
            os.close(descriptor)
            os.unlink(probe)
        except OSError as error:
            _remove_empty(made)
            raise self._os_error("cannot write in this folder", error) from None
        return made

    def publish(self, shards: Sequence[str | Path]) -> None:
        """The run is good: every shard's file takes its name (replacing an older one). The
        names are checked again first, so that one refused name publishes none."""
        self._check_names(shards)
        for shard in shards:
            if not self.staging_path_for(shard).is_file():
                raise InputError(
                    f"the segment scores of {shard} were not written "
                    f"({self.staging_path_for(shard).name} is missing)",
                    origin=self.folder,
                    hint="Was the file moved or removed during the run? Run again.",
                )
        for done, shard in enumerate(shards):
            try:
                self.staging_path_for(shard).replace(self.path_for(shard))
            except OSError as error:
                raise self._os_error(
                    f"cannot name {self.path_for(shard).name} ({done} of {len(shards)} files "
                    "are already published)",
                    error,
                ) from None

    def discard(self, shards: Sequence[str | Path], made: Sequence[Path] = ()) -> None:
        """The run failed: remove what it wrote, so no file holds scores of a rejected corpus,
        and the folders it made, if they are empty."""
        for shard in shards:
            with suppress(OSError):
                self.staging_path_for(shard).unlink(missing_ok=True)
        _remove_empty(made)

    def write(
        self,
        shard: str,
        systems: Sequence[str],
        segments: np.ndarray,
        scores: Mapping[str, np.ndarray],
    ) -> None:
        """One row per (system, segment), in the order given, to the staging path; a failed
        write (a full disk) leaves no file."""
        path = self.staging_path_for(shard)
        try:
            _write_table(path, self.format, systems, segments, scores)
        except OSError as error:
            with suppress(OSError):
                path.unlink(missing_ok=True)
            raise self._os_error(f"cannot write {self.path_for(shard).name}", error) from None

    def _checked_folder(self) -> Path:
        """The folder, resolved, once its name is one: no NUL byte, no file on its path."""
        if "\0" in self.folder:
            raise InputError(
                f"{OPTION}: a folder name cannot hold a NUL byte",
                origin=self.folder.replace("\0", "\\0"),
                hint=FOLDER_HINT,
            )
        folder = Path(self.folder)
        try:
            existing = next(path for path in (folder, *folder.parents) if path.exists())
        except OSError as error:  # a name too long
            raise self._os_error("this is no folder name", error) from None
        if not existing.is_dir():
            what = "this is" if existing == folder else f"{existing} is"
            raise InputError(
                f"{OPTION}: {what} a file, not a folder", origin=self.folder, hint=FOLDER_HINT
            )
        return folder.resolve()

    def _check_names(self, shards: Sequence[str | Path]) -> None:
        """No file name of this run is taken by a folder (which no file can replace)."""
        for shard in shards:
            for path in (self.path_for(shard), self.staging_path_for(shard)):
                if path.is_dir():
                    raise InputError(
                        f"{OPTION}: {path.name} is a folder, where the segment scores of "
                        f"{shard} go",
                        origin=self.folder,
                        hint="Move or rename that folder, or give another folder.",
                    )

    def _os_error(self, problem: str, error: OSError) -> InputError:
        """An operating system's refusal, in words, with what to do."""
        if error.errno in FULL:
            return InputError(
                f"{OPTION}: {problem}: the disk is full",
                origin=self.folder,
                hint="Free space on that disk, or give a folder on another one. No segment-score "
                "file of this run is kept.",
            )
        if error.errno in FORBIDDEN:
            return InputError(
                f"{OPTION}: {problem}: {error.strerror or 'not allowed'}",
                origin=self.folder,
                hint="Give a folder you may write in.",
            )
        return InputError(
            f"{OPTION}: {problem}: {error.strerror or error}", origin=self.folder, hint=FOLDER_HINT
        )


def _remove_empty(folders: Sequence[Path]) -> None:
    """Remove ``folders`` (deepest first) where they are empty."""
    for folder in folders:
        with suppress(OSError):
            folder.rmdir()


def _write_table(
    path: Path,
    form: str,
    systems: Sequence[str],
    segments: np.ndarray,
    scores: Mapping[str, np.ndarray],
) -> None:
    if form == "parquet":
        import pyarrow
        import pyarrow.parquet

        columns = {"system": list(systems), "segment": segments, **scores}
        pyarrow.parquet.write_table(pyarrow.table(columns), path)
        return
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["system", "segment", *scores])
        values = [column.tolist() for column in scores.values()]
        for row, (system, segment) in enumerate(zip(systems, segments.tolist())):
            writer.writerow([system, segment, *(repr(v[row]) for v in values)])
