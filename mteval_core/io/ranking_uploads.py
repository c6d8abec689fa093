"""The Rankings page's uploads, read within the dashboard's limits: WMT25's automatic scores (its
``<SYSTEM>.jsonl`` files, or an archive of them as WMT25 ships them: .tar.xz, .tar.gz, .zip),
its systems metadata, and Appraise ESA waves with their ``<LP>.docs`` files.

Every file is at most :data:`MAX_UPLOAD_MB` (as on the Data page); the files, counted inside
archives too, at most :data:`MAX_RANKING_FILES`, and their bytes together (unpacked) at most
:data:`MAX_RANKING_UPLOAD_MB`: both checked before any file is parsed. An archive is read by
``io.archives`` (its own bounds on members, ratio and names); its ``.jsonl`` members are the
score files, anything else in it (a README) is left out and counted in a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mteval_core.errors import InputError
from mteval_core.io.appraise_esa import ESAExport, documents_of, esa_exports_of
from mteval_core.io.archive_tree import LARGE_HINT
from mteval_core.io.archives import ARCHIVE_HINT, ARCHIVE_SUFFIXES, ArchiveTree, open_archive
from mteval_core.io.uploads import Upload, check_upload_sizes
from mteval_core.io.wmt25_automatic_scores import (
    SUFFIX,
    automatic_scores_of,
    systems_metadata_of,
)
from mteval_core.model.metric_segments import MetricSegments
from mteval_core.settings.limits import MAX_RANKING_FILES, MAX_RANKING_UPLOAD_MB

SCORE_ARCHIVES = (*ARCHIVE_SUFFIXES, ".tar.xz", ".txz")
MB = 2**20


@dataclass(frozen=True)
class ScoreFiles:
    files: tuple[tuple[str, str, bytes], ...]  # file name, how messages name it, bytes
    notes: tuple[str, ...]


def score_files(uploads: Sequence[Upload]) -> ScoreFiles:
    """The ``.jsonl`` score files of ``uploads`` (each a file or an archive of them), bounded."""
    check_upload_sizes(uploads)
    files: list[tuple[str, str, bytes]] = []
    notes = []
    for name, data in uploads:
        if not name.lower().endswith(SCORE_ARCHIVES):
            files.append((name, name, data))
            _check_totals(files, name)
            continue
        tree = _opened(data, name)
        notes += tree.notes
        members = [p for p in tree.file_paths if p.endswith(SUFFIX)]
        if not members:
            raise InputError(
                f"the archive holds no {SUFFIX} files",
                origin=name,
                hint="Upload WMT25's data/automatic_scores/ as an archive: one SYSTEM.jsonl "
                "per system.",
            )
        if len(members) < len(tree.file_paths):
            left = len(tree.file_paths) - len(members)
            notes.append(f"{name}: {left:,} file(s) that are not {SUFFIX} left out")
        for path in members:
            files.append((path.rpartition("/")[2], tree.origin(path), tree.read(path)))
            _check_totals(files, name)
    return ScoreFiles(tuple(files), tuple(notes))


def _opened(data: bytes, name: str) -> ArchiveTree:
    """The archive, or its refusal with this page's way round it: the archive reader's own
    hints speak of mt-metrics-eval's folders, which this upload is not."""
    try:
        return open_archive(data, name, read_xz=True)
    except InputError as error:
        hint = (error.hint or "").replace(ARCHIVE_HINT, SCORES_HINT)
        hint = hint.replace(LARGE_HINT, SCORES_HINT)
        raise InputError(error.problem, origin=error.origin, line=error.line, hint=hint) from None


SCORES_HINT = (
    "Upload WMT25's data/automatic_scores/ as it is shipped (automatic_scores.tar.xz) or as "
    "its SYSTEM.jsonl files, or rank them with the command line (mteval rank), which reads "
    "the folder from disk."
)


def _check_totals(files: list[tuple[str, str, bytes]], name: str) -> None:
    if len(files) > MAX_RANKING_FILES:
        raise InputError(
            f"with this upload there are more than {MAX_RANKING_FILES:,} score files; the "
            f"Rankings page takes up to {MAX_RANKING_FILES:,}",
            origin=name,
            hint="Upload the score files of fewer systems, or rank them with the command line.",
        )
    total = sum(len(data) for _, _, data in files)
    if total > MAX_RANKING_UPLOAD_MB * MB:
        raise InputError(
            f"with this upload the files come to more than {total / MB:,.0f} MB; the Rankings "
            f"page takes up to {MAX_RANKING_UPLOAD_MB} MB together",
            origin=name,
            hint="Upload the score files of fewer systems, or rank them with the command line.",
        )


def automatic_scores_of_uploads(
    uploads: Sequence[Upload],
) -> tuple[dict[str, MetricSegments], tuple[str, ...]]:
    """WMT25's automatic scores of every language pair in ``uploads``, and the notes."""
    found = score_files(uploads)
    return automatic_scores_of(found.files), found.notes


def systems_metadata_of_upload(upload: Upload) -> dict[str, frozenset[str]]:
    check_upload_sizes([upload])
    return systems_metadata_of(upload[1], upload[0])


def check_human_uploads(uploads: Sequence[Upload], origin: str) -> None:
    """The human upload's bounds, before any file is read: each file's size, their number and
    their total."""
    check_upload_sizes(uploads)
    if len(uploads) > MAX_RANKING_FILES:
        raise InputError(
            f"{len(uploads):,} files; the Rankings page takes up to {MAX_RANKING_FILES:,}",
            origin=origin,
            hint="Upload fewer annotation or documents files.",
        )
    total = sum(len(data) for _, data in uploads)
    if total > MAX_RANKING_UPLOAD_MB * MB:
        raise InputError(
            f"the files come to {total / MB:,.0f} MB; the Rankings page takes up to "
            f"{MAX_RANKING_UPLOAD_MB} MB together",
            origin=origin,
            hint="Upload fewer annotation files, or rank them with the command line.",
        )


def esa_of_uploads(
    waves: Sequence[Upload], documents: Sequence[Upload]
) -> tuple[ESAExport, dict[str, list[tuple[str, str]]]]:
    """The ESA waves' kept ratings and each pair's ``.docs`` lines, bounded as above."""
    check_human_uploads([*waves, *documents], "the ESA upload")
    for name, _ in documents:
        if not name.endswith(".docs"):
            raise InputError(
                "is not named <LP>.docs",
                origin=name,
                hint="WMT24's documents files are named after their language pair, e.g. "
                "en-cs.docs (txt/documents/ of wmt24-news-systems).",
            )
    export = esa_exports_of([(name, name, data) for name, data in waves])
    lines = dict(documents_of(name, name, data) for name, data in documents)
    return export, lines
