"""A test set from uploaded files (name and bytes), as the dashboard's Data page receives them.

The dashboard's server is shared, so an upload is bounded before the work that grows with it:
each file's size (:data:`MAX_UPLOAD_MB`; .streamlit/config.toml makes the browser refuse larger
files with the same number), then, as each file is read, the segments and the texts (segments x
(systems + references)) of the test set. The command line has no such limits.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mteval_core.errors import InputError
from mteval_core.io.alignment import align_by_ids
from mteval_core.io.detect import ColumnsRead, name_systems_after_files, read_columns
from mteval_core.io.directory import parse_segment_ids
from mteval_core.io.human_judgments import read_human_for
from mteval_core.io.metric_scores import parse_direction, read_metric_scores
from mteval_core.metrics.external import ExternalMetric
from mteval_core.model.testset import TestSet
from mteval_core.settings.limits import MAX_UPLOAD_MB, MAX_UPLOAD_SEGMENTS, MAX_UPLOAD_TEXTS

Upload = tuple[str, bytes]  # file name, content


@dataclass(frozen=True)
class TextChoices:
    """How to read what tools read differently, as the user chose on the Data page: a carriage
    return without a line feed (``decoding.CARRIAGE_RETURNS``) and a byte order mark at the start
    of a plain-text file (``plain.BYTE_ORDER_MARKS``)."""

    carriage_returns: str = "refuse"
    byte_order_mark: str = "keep"


COMMAND_LINE_HINT = (
    "Score larger test sets with the command line (mteval score --refs ... --hyps ...), which "
    "has no such limit, or upload a part of the test set."
)


def check_upload_sizes(uploads: Sequence[Upload], limit_mb: int = MAX_UPLOAD_MB) -> None:
    """Refuse a file over the limit by name, with the way round it (the command line)."""
    for name, data in uploads:
        if len(data) > limit_mb * 2**20:
            raise InputError(
                f"the file is {len(data) / 2**20:.1f} MB; the dashboard takes files of up to "
                f"{limit_mb} MB",
                origin=name,
                hint=COMMAND_LINE_HINT,
            )


def test_set_from_uploads(  # long: every kind of upload, read and checked in one place
    references: Sequence[Upload],
    systems: Sequence[Upload],
    source: Upload | None = None,
    human: Upload | None = None,
    human_lower_is_better: bool = False,
    segment_ids: Upload | None = None,
    notes: list[str] | None = None,
    reading: TextChoices | None = None,
) -> TestSet:
    """Validate and combine the uploads; any problem is an InputError naming the file.

    SGML and WMT XML segments are matched across files by document and segment id
    (:func:`mteval_core.io.alignment.align_by_ids`), plain text by position. ``segment_ids`` is
    a segment-id map (line, segment_id, doc), needed when the human scores use a data set's own
    segment ids rather than line numbers (as the WMT21 TED sets do). Human rows of systems
    without text are set aside. ``notes`` (when given) receives a line for each, and the notes
    of the text files (which reading a file that could be read two ways was given, skipped
    test-suite documents) as soon as they are read, so that they are there to show even when the
    files turn out not to fit together. ``reading`` says what a lone CR in a reference,
    system or source file means and what a byte order mark at the start of a plain-text one
    becomes (:func:`mteval_core.io.detect.read_columns`); by default, the CR is refused and the
    mark kept.
    """
    uploads = [*references, *systems, *(u for u in (source, human, segment_ids) if u)]
    check_upload_sizes(uploads)
    if not references or not systems:
        raise InputError(
            "a test set needs at least one reference and one system output",
            hint="Upload the reference file(s) and the system output file(s).",
        )
    counter = _TextCounter(reading or TextChoices())
    reference_reads = [counter.read(data, name, "ref") for name, data in references]
    system_reads, naming = name_systems_after_files(
        [counter.read(data, name, "sys") for name, data in systems]
    )
    source_read = counter.read_source(*source) if source else None
    if notes is not None:
        reads = [*reference_reads, *system_reads, *([source_read] if source_read else [])]
        notes.extend(note for read in reads for note in read.notes)
        notes.extend([naming] if naming else [])
    aligned = align_by_ids(reference_reads, system_reads, source_read)
    n_segments = len(aligned.references[0])
    id_map = parse_segment_ids(segment_ids[1], segment_ids[0], n_segments) if segment_ids else None
    test_set = TestSet(
        references=aligned.references,
        systems=aligned.systems,
        source=aligned.source,
        documents=aligned.documents or (id_map.documents if id_map else None),
        name="uploaded test set",
    )
    if human is None:
        return test_set
    name, data = human
    read = read_human_for(
        test_set,
        data,
        name,
        lower_is_better=human_lower_is_better,
        segment_ids=id_map.lines if id_map else None,
    )
    if notes is not None:
        notes.extend(read.notes)
    return test_set.with_human(read.scores)


test_set_from_uploads.__test__ = False  # a function, not a pytest test, despite its name


class _TextCounter:
    """Reads reference and system files, refusing a test set over the limits as soon as the
    file that crosses one has been read, before the others are read and the set is checked."""

    def __init__(self, reading: TextChoices) -> None:
        self.texts = 0
        self.carriage_returns = reading.carriage_returns
        self.byte_order_mark = reading.byte_order_mark

    def read(self, data: bytes, name: str, role: str) -> ColumnsRead:
        read = read_columns(data, name, role, None, self.carriage_returns, self.byte_order_mark)
        n_segments = len(read.columns[0])
        if n_segments > MAX_UPLOAD_SEGMENTS:
            raise InputError(
                f"the file has {n_segments:,} segments; the dashboard takes test sets of up to "
                f"{MAX_UPLOAD_SEGMENTS:,} segments",
                origin=name,
                hint=COMMAND_LINE_HINT,
            )
        self.texts += n_segments * len(read.columns)
        if self.texts > MAX_UPLOAD_TEXTS:
            raise InputError(
                f"with this file the test set has {self.texts:,} texts (segments x (systems + "
                f"references)) so far; the dashboard takes up to {MAX_UPLOAD_TEXTS:,}",
                origin=name,
                hint=COMMAND_LINE_HINT,
            )
        return read

    def read_source(self, name: str, data: bytes) -> ColumnsRead:
        """The source, outside the limits: they count the texts that are scored."""
        return read_columns(data, name, "src", None, self.carriage_returns, self.byte_order_mark)


def read_uploaded_metric(
    upload: Upload | None,
    name: str,
    direction: str | None,
    test_set: TestSet,
    loaded: Mapping[str, ExternalMetric],
) -> dict[str, ExternalMetric]:
    """An uploaded metric score file as ``{key: metric}``: the key is a hash of the bytes, the
    name and the direction (what cached results are keyed by). Refused with a clear message: no
    file, no name or direction, a name already loaded or built in, a file that does not fit."""
    if upload is None:
        raise InputError("no metric score file was given", hint="Choose the file with the scores.")
    file_name, data = upload
    check_upload_sizes([upload])
    name = name.strip()
    if not name:
        raise InputError(
            "the metric has no name", origin=file_name, hint="Type the name it should show as."
        )
    if name in {metric.name for metric in loaded.values()}:
        raise InputError(
            f"a metric named {name!r} is already loaded",
            origin=file_name,
            hint="Choose another name, or remove the metrics from files first.",
        )
    higher_is_better = parse_direction(direction, name)
    metric = read_metric_scores(
        data, file_name, test_set, name=name, higher_is_better=higher_is_better
    )
    key = hashlib.sha256(data + f"\0{name}\0{higher_is_better}".encode()).hexdigest()
    return {key: metric}
