"""A test set from uploaded files (name and bytes), as the dashboard's Data page receives them."""

from __future__ import annotations

from collections.abc import Sequence

from mteval_core.errors import InputError
from mteval_core.io.detect import read_columns
from mteval_core.io.human import read_human
from mteval_core.testset import TestSet, TextColumn

Upload = tuple[str, bytes]  # file name, content


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
) -> TestSet:
    """Validate and combine the uploads; any problem is an InputError naming the file."""
    if not references or not systems:
        raise InputError(
            "a test set needs at least one reference and one system output",
            hint="Upload the reference file(s) and the system output file(s).",
        )
    reference_columns, documents = _columns(references, "ref")
    system_columns, system_documents = _columns(systems, "sys")
    test_set = TestSet(
        references=reference_columns,
        systems=system_columns,
        source=_columns([source], "src")[0][0] if source else None,
        documents=documents or system_documents,
        name="uploaded test set",
    )
    if human is None:
        return test_set
    name, data = human
    judgments = read_human(
        data, name, documents=test_set.documents, lower_is_better=human_lower_is_better
    )
    return test_set.with_human(judgments)


test_set_from_uploads.__test__ = False  # a function, not a pytest test, despite its name
