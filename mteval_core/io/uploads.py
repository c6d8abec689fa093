"""A test set from uploaded files (name and bytes), as the dashboard's Data page receives them."""

from __future__ import annotations

from collections.abc import Sequence

from mteval_core.errors import InputError
from mteval_core.io.detect import read_columns
from mteval_core.io.directory import parse_segment_ids
from mteval_core.io.human import read_human
from mteval_core.testset import TestSet, TextColumn

Upload = tuple[str, bytes]  # file name, content

# The dashboard's limit per file, in MB; .streamlit/config.toml (server.maxUploadSize) makes the
# browser refuse larger files with the same number before they are sent.
MAX_UPLOAD_MB = 50


def check_upload_sizes(uploads: Sequence[Upload], limit_mb: int = MAX_UPLOAD_MB) -> None:
    """Refuse a file over the limit by name, with the way round it (the command line)."""
    for name, data in uploads:
        if len(data) > limit_mb * 2**20:
            raise InputError(
                f"the file is {len(data) / 2**20:.1f} MB; the dashboard takes files of up to "
                f"{limit_mb} MB",
                origin=name,
                hint="Score larger test sets with the command line (mteval score --refs ... "
                "--hyps ...), or upload a part of the test set.",
            )


def _columns(uploads: Sequence[Upload], role: str) -> tuple[list[TextColumn], tuple | None]:
    """Every file's columns; document ids from the first file that has them."""
    columns: list[TextColumn] = []
    documents = None
    for name, data in uploads:
        read = read_columns(data, name, role)
        columns += read.columns
        documents = documents or read.documents
    return columns, documents


def test_set_from_uploads(
    references: Sequence[Upload],
    systems: Sequence[Upload],
    source: Upload | None = None,
    human: Upload | None = None,
    human_lower_is_better: bool = False,
    segment_ids: Upload | None = None,
) -> TestSet:
    """Validate and combine the uploads; any problem is an InputError naming the file.

    ``segment_ids`` is a segment-id map (line, segment_id, doc), needed when the human scores use
    a data set's own segment ids rather than line numbers (as the WMT21 TED sets do).
    """
    uploads = [*references, *systems, *(u for u in (source, human, segment_ids) if u)]
    check_upload_sizes(uploads)
    if not references or not systems:
        raise InputError(
            "a test set needs at least one reference and one system output",
            hint="Upload the reference file(s) and the system output file(s).",
        )
    reference_columns, documents = _columns(references, "ref")
    system_columns, system_documents = _columns(systems, "sys")
    n_segments = len(reference_columns[0])
    id_map = parse_segment_ids(segment_ids[1], segment_ids[0], n_segments) if segment_ids else None
    test_set = TestSet(
        references=reference_columns,
        systems=system_columns,
        source=_columns([source], "src")[0][0] if source else None,
        documents=documents or system_documents or (id_map.documents if id_map else None),
        name="uploaded test set",
    )
    if human is None:
        return test_set
    name, data = human
    judgments = read_human(
        data,
        name,
        documents=test_set.documents,
        lower_is_better=human_lower_is_better,
        segment_ids=id_map.lines if id_map else None,
    )
    return test_set.with_human(judgments)


test_set_from_uploads.__test__ = False  # a function, not a pytest test, despite its name
