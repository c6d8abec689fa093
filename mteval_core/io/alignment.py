"""Match the segments of several files by their ids, not by their positions.

NIST mteval SGML and WMT XML name every segment by its document and its id within the document.
Files of one test set may list documents, or segments, in different orders; pairing them by
position would score each hypothesis against another segment's reference and give a wrong number
without any error. So the first file with ids defines the order, every other file with ids is put
into that order, and a file whose ids differ (some missing, some extra) is refused with the
documents and segments named. The readers already refuse an id that occurs twice in one file.

Plain text and long-format files have no ids: they stay positional, and need the same number of
segments as the others (:class:`TestSet` checks it). Mixed with files that have ids, such a file
is taken to be in the order of the first file with ids; its documents (long format may have them)
must then be that order's.

The command line (``mteval score``) and the dashboard's uploads both go through
:func:`align_by_ids`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from mteval_core.errors import InputError
from mteval_core.io.detect import ColumnsRead
from mteval_core.model.testset import TextColumn

SHOWN = 3  # ids named in a message; the others are counted
Key = tuple[str, str]  # (document id, segment id)
T = TypeVar("T")


@dataclass(frozen=True)
class AlignedColumns:
    """Every file's columns in one segment order, and the document of every segment."""

    references: list[TextColumn]
    systems: list[TextColumn]
    source: TextColumn | None  # the first column of the source file
    documents: tuple[str, ...] | None


def align_by_ids(
    references: Sequence[ColumnsRead],
    systems: Sequence[ColumnsRead],
    source: ColumnsRead | None = None,
) -> AlignedColumns:
    """Put every file's segments into the order of the first file with segment ids.

    Files are taken in the order references, systems, source. A file without ids (plain text,
    long format) is positional: it is taken to be in that order already, and only its number of
    segments (checked by :class:`TestSet`) and its documents, if it has some, can be checked.
    Without ids anywhere the files keep their order, with the documents of the first file that
    has some; every other file with documents must have the same.
    """
    reads = [*references, *systems, *([source] if source else [])]
    first = next((read for read in reads if read.segment_ids is not None), None)
    order = _keys(first) if first else []
    documents_from = first or next((read for read in reads if read.documents is not None), None)
    documents = documents_from.documents if documents_from else None

    def aligned(read: ColumnsRead) -> list[TextColumn]:
        if first is not None and read.segment_ids is not None:
            return _in_order(read, order, first.origin)
        if documents_from is not None and read.documents not in (None, documents):
            raise InputError(
                f"its documents differ from those of {documents_from.origin}",
                origin=read.origin,
                hint="A file without segment ids (long format) must give the documents in the "
                "order of the other files, segment by segment.",
            )
        return read.columns

    return AlignedColumns(
        references=[column for read in references for column in aligned(read)],
        systems=[column for read in systems for column in aligned(read)],
        source=aligned(source)[0] if source else None,
        documents=documents,
    )


def _keys(read: ColumnsRead) -> list[Key]:
    assert read.documents is not None and read.segment_ids is not None  # SGML and XML have both
    return list(zip(read.documents, read.segment_ids, strict=True))


def _in_order(read: ColumnsRead, order: list[Key], order_origin: str) -> list[TextColumn]:
    """The file's columns with their segments in ``order``; it must have exactly those ids."""
    keys = _keys(read)
    if keys == order:
        return read.columns
    position = {key: index for index, key in enumerate(keys)}
    assert len(position) == len(keys)  # the readers refuse an id that occurs twice
    if len(keys) != len(order) or any(key not in position for key in order):
        raise _mismatch(keys, order, read.origin, order_origin)
    permutation = [position[key] for key in order]
    return [
        replace(column, segments=tuple(column.segments[i] for i in permutation))
        for column in read.columns
    ]


def _mismatch(keys: list[Key], order: list[Key], origin: str, order_origin: str) -> InputError:
    """Name what the file lacks and has in excess: whole documents first, then segments."""
    found, wanted = set(keys), set(order)
    found_documents = {doc for doc, _ in keys}
    wanted_documents = {doc for doc, _ in order}
    missing_documents = list(dict.fromkeys(d for d, _ in order if d not in found_documents))
    extra_documents = list(dict.fromkeys(d for d, _ in keys if d not in wanted_documents))
    missing = [key for key in order if key not in found and key[0] in found_documents]
    extra = [key for key in keys if key not in wanted and key[0] in wanted_documents]
    parts = [
        f"{_count(len(items), description)} ({_first(items, show)})"
        for items, description, show in (
            (missing_documents, "missing document", repr),
            (missing, "missing segment", _segment),
            (extra_documents, "extra document", repr),
            (extra, "extra segment", _segment),
        )
        if items
    ]
    return InputError(
        f"its segment ids differ from those of {order_origin}: {'; '.join(parts)}",
        origin=origin,
        hint="SGML and XML segments are matched by document and segment id, in any order, so "
        "every file needs the same ids: check that the file belongs to this test set, or add "
        "the missing segments and remove the extra ones.",
    )


def _segment(key: Key) -> str:
    doc, segment = key
    return f"document {doc!r} segment {segment}"


def _first(items: Sequence[T], show: Callable[[T], str]) -> str:
    """The first few items, and how many more there are."""
    shown = ", ".join(show(item) for item in items[:SHOWN])
    return f"{shown} and {len(items) - SHOWN:,} more" if len(items) > SHOWN else shown


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"
