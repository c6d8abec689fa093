"""A test set from reference, system and source files: the one path from files to a TestSet that
`mteval score` and the Python API (mteval_core.api) share.

SGML/XML files may carry several columns and doc ids, and their segments are matched by id
(io.alignment), plain text by position. What a reader should know but need not stop for (which
reading was used, skipped test-suite documents, names that look alike) goes to ``note``, which the
command line prints on stderr and the API turns into warnings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mteval_core.io.alignment import align_by_ids
from mteval_core.io.decoding import read_bytes
from mteval_core.io.detect import ColumnsRead, name_systems_after_files, read_columns
from mteval_core.io.system_names import name_notes
from mteval_core.model.testset import TestSet

# (NAME or None, PATH): None names the system after its file (io.detect)
SystemFile = tuple[str | None, str]


def read_test_set_files(
    references: Sequence[str],
    systems: Sequence[SystemFile],
    source: str | None = None,
    carriage_returns: str = "refuse",
    byte_order_mark: str = "keep",
    note: Callable[[str], None] = lambda _: None,
    naming_hint: str = "",
) -> TestSet:
    """Read every reference and system file (and the source, which is not scored: it places MQM
    annotations by their source text). ``carriage_returns`` and ``byte_order_mark`` are the
    reading choices of io.decoding; a lone carriage return raises LoneCarriageReturn, which the
    caller may offer its own way out of. ``naming_hint`` ends the note that systems were named
    after their files: how the caller's user names them instead."""
    reads = [
        _read(path, "ref", None, carriage_returns, byte_order_mark, note) for path in references
    ]
    system_reads = [
        _read(path, "sys", name, carriage_returns, byte_order_mark, note) for name, path in systems
    ]
    system_reads, naming = name_systems_after_files(system_reads)
    if naming:
        note(f"{naming} ({naming_hint})" if naming_hint else naming)
    source_read = None
    if source is not None:
        source_read = _read(source, "src", None, carriage_returns, byte_order_mark, note)
    aligned = align_by_ids(reads, system_reads, source_read)
    test_set = TestSet(
        references=aligned.references,
        systems=aligned.systems,
        source=aligned.source,
        documents=aligned.documents,
    )
    for name_note in name_notes(test_set):  # names that look alike, or hold invisible characters
        note(name_note)
    return test_set


def _read(
    path: str,
    role: str,
    name: str | None,
    carriage_returns: str,
    byte_order_mark: str,
    note: Callable[[str], None],
) -> ColumnsRead:
    read = read_columns(read_bytes(path), path, role, name, carriage_returns, byte_order_mark)
    for read_note in read.notes:
        note(read_note)
    return read
