"""Long format: one record per (segment, system), as CSV/TSV rows or JSON Lines objects.

Each record repeats the segment's source, references and document, so they must agree between
the records of one segment; every system must have exactly one record per segment. Anything else
is refused with the line that shows the problem, because a missing or doubled row would otherwise
shift or silently change the scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mteval_core.errors import InputError
from mteval_core.io.delimited import pick_column
from mteval_core.io.plain import system_name_from_path
from mteval_core.model.testset import TestSet, TextColumn

SEGMENT_KEYS = ("segment", "segment_id", "seg_id", "seg")
SYSTEM_KEYS = ("system",)
HYPOTHESIS_KEYS = ("hypothesis", "hyp", "translation", "target")
SOURCE_KEYS = ("source", "src")
DOCUMENT_KEYS = ("doc", "document", "docid", "doc_id")
SINGLE_REFERENCE_KEYS = ("reference", "ref")
MAX_SEGMENT_DIGITS = 18  # larger numbers are no segment, and would not fit an int64


@dataclass(frozen=True)
class Record:
    line: int  # 1-based line in the file where the record starts
    fields: dict[str, object]  # key as written -> value (str for CSV; any JSON value for JSONL)


@dataclass(frozen=True)
class LongColumns:
    """The columns found in a long-format file; references may be absent (hypotheses only)."""

    systems: tuple[TextColumn, ...]
    references: tuple[TextColumn, ...]
    source: TextColumn | None
    documents: tuple[str, ...] | None

    def test_set(self, origin: str) -> TestSet:
        if not self.references:
            raise InputError(
                "there is no reference column",
                origin=origin,
                hint="Add a 'reference' column (or ref-A, ref-B, ... for several), "
                "or give the references as separate files.",
            )
        return TestSet(
            references=self.references,
            systems=self.systems,
            source=self.source,
            documents=self.documents,
            name=system_name_from_path(origin),
        )


@dataclass(frozen=True)
class Layout:
    """Which key of the file plays which role."""

    system: str
    hypothesis: str
    segment: str | None
    shared: tuple[str, ...]  # source, references and document: one value per segment
    source: str | None
    references: tuple[str, ...]
    document: str | None


def columns_from_records(
    records: Sequence[Record], keys: Sequence[str], header_line: int | None, origin: str
) -> LongColumns:
    """Turn records into columns.

    ``keys`` are the keys (column names) in file order; ``header_line`` is where they are
    named, for messages (None for JSON Lines, which has no header).
    """
    if not records:
        raise InputError(
            "there are no records, only a header",
            origin=origin,
            hint="Add one row per (segment, system).",
        )
    layout = layout_of(keys, header_line, origin)
    hypotheses: dict[str, dict[int, str]] = {}  # system -> segment -> text
    first_lines: dict[tuple[str, int], int] = {}
    shared: dict[int, tuple[tuple[str, ...], int]] = {}  # segment -> (values, first line)
    for record in records:
        system = text_of(record, layout.system, origin).strip()
        if not system:
            raise InputError(
                "the system name is empty", origin=origin, line=record.line, column=layout.system
            )
        per_system = hypotheses.setdefault(system, {})
        if layout.segment is None:
            segment = len(per_system) + 1
        else:
            segment = segment_of(record, layout.segment, origin)
        if (system, segment) in first_lines:
            raise doubled_row(
                system, segment, f"line {first_lines[system, segment]}", record, origin
            )
        first_lines[system, segment] = record.line
        per_system[segment] = text_of(record, layout.hypothesis, origin)
        values = tuple(text_of(record, key, origin) for key in layout.shared)
        if segment not in shared:
            shared[segment] = (values, record.line)
        elif shared[segment][0] != values:
            first_values, first_line = shared[segment]
            key = next(
                k for k, a, b in zip(layout.shared, values, first_values, strict=True) if a != b
            )
            raise InputError(
                f"the {key!r} of segment {segment} differs from line {first_line}",
                origin=origin,
                line=record.line,
                column=key,
                hint="All rows of one segment must repeat the same source, references and "
                "document.",
            )
    n_segments = _check_complete(hypotheses, shared, layout, origin)
    return _columns(hypotheses, shared, layout, n_segments, origin)


def doubled_row(system: str, segment: int, first: str, record: Record, origin: str) -> InputError:
    """The error for a second row of one (system, segment); ``first`` says where the first was."""
    return InputError(
        f"system {system!r} has segment {segment} twice (first on {first})",
        origin=origin,
        line=record.line,
        hint="Keep one row per (segment, system).",
    )


def layout_of(keys: Sequence[str], header_line: int | None, origin: str) -> Layout:
    by_lower = {key.strip().lower(): key for key in keys}

    def optional(aliases: tuple[str, ...]) -> str | None:
        return pick_column(by_lower, aliases, origin, header_line)

    def required(aliases: tuple[str, ...]) -> str:
        key = optional(aliases)
        if key is None:
            raise InputError(
                f"there is no {aliases[0]!r} column",
                origin=origin,
                line=header_line,
                hint="Long format needs a system and a hypothesis column (also called hyp, "
                "translation or target), one row per (segment, system). A file of human scores "
                "is read as human scores, not as translations.",
            )
        return key

    source = optional(SOURCE_KEYS)
    document = optional(DOCUMENT_KEYS)
    optional(SINGLE_REFERENCE_KEYS)  # refuses 'ref' next to 'reference'
    references = tuple(key for key in keys if key.strip().lower().startswith("ref"))
    return Layout(
        system=required(SYSTEM_KEYS),
        hypothesis=required(HYPOTHESIS_KEYS),
        segment=optional(SEGMENT_KEYS),
        shared=tuple(k for k in (source, *references, document) if k is not None),
        source=source,
        references=references,
        document=document,
    )


def text_of(record: Record, key: str, origin: str) -> str:
    if key not in record.fields:
        raise InputError(
            f"the record has no {key!r}",
            origin=origin,
            line=record.line,
            hint="Every record needs the same keys; other lines have this one.",
        )
    value = record.fields[key]
    if isinstance(value, str):
        return value
    raise InputError(
        f"the value of {key!r} is {_json_kind(value)}, not a string",
        origin=origin,
        line=record.line,
        column=key,
        hint='Write texts and names as JSON strings ("...").',
    )


def segment_of(record: Record, key: str, origin: str) -> int:
    """The segment number of ``record``: a whole number from 1 with at most MAX_SEGMENT_DIGITS
    digits, written as text or as a JSON or Parquet integer (which have no length limit of their
    own: Parquet's uint64 goes to 2**64 - 1)."""
    value = record.fields.get(key)
    if isinstance(value, str) and is_segment_number(value.strip()):
        value = int(value.strip())
    is_whole = isinstance(value, int) and not isinstance(value, bool)
    if is_whole and 1 <= value < 10**MAX_SEGMENT_DIGITS:
        return value
    is_number = isinstance(value, str | int | float) and not isinstance(value, bool)
    shown = f"{value!r}" if is_number else _json_kind(value)
    why = f" (more than {MAX_SEGMENT_DIGITS} digits)" if is_whole and value > 0 else ""
    floating = " (a column with an empty cell is read as decimals: write whole numbers)"
    raise InputError(
        f"segment {shown} is not a segment number{why}",
        origin=origin,
        line=record.line,
        column=key,
        hint="Segments are numbered 1, 2, 3, ... in test set order"
        + (floating if isinstance(value, float) else "")
        + ".",
    )


def is_segment_number(text: str) -> bool:
    """ASCII digits, few enough to be a segment number (int() refuses 4,300 digits or more)."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_SEGMENT_DIGITS


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {value}"
    return "a list" if isinstance(value, list) else "an object"


def _check_complete(
    hypotheses: dict[str, dict[int, str]],
    shared: dict[int, tuple[tuple[str, ...], int]],
    layout: Layout,
    origin: str,
) -> int:
    """Segments must be 1..n and every system must have all of them; returns n."""
    n_segments = max(shared)
    for segment in range(1, n_segments + 1):
        if segment not in shared:
            raise InputError(
                f"no row has segment {segment}, but segments go up to {n_segments}",
                origin=origin,
                column=layout.segment,
                hint="Number the segments 1, 2, 3, ... without gaps.",
            )
        for system, per_system in hypotheses.items():
            if segment not in per_system:
                raise InputError(
                    f"segment {segment} has a row here, but none for system {system!r}",
                    origin=origin,
                    line=shared[segment][1],
                    hint="Every system needs one row per segment; add the missing row "
                    "(an empty hypothesis is allowed) or remove that system.",
                )
    return n_segments


def _columns(
    hypotheses: dict[str, dict[int, str]],
    shared: dict[int, tuple[tuple[str, ...], int]],
    layout: Layout,
    n_segments: int,
    origin: str,
) -> LongColumns:
    order = range(1, n_segments + 1)

    def shared_column(key: str) -> tuple[str, ...]:
        index = layout.shared.index(key)
        return tuple(shared[segment][0][index] for segment in order)

    def reference_name(key: str) -> str:
        return "ref" if key.strip().lower() in SINGLE_REFERENCE_KEYS else key.strip()

    systems = tuple(
        TextColumn(name, tuple(per_system[s] for s in order), origin)
        for name, per_system in hypotheses.items()
    )
    references = tuple(
        TextColumn(reference_name(key), shared_column(key), origin) for key in layout.references
    )
    source = (
        None
        if layout.source is None
        else TextColumn("source", shared_column(layout.source), origin)
    )
    documents = None if layout.document is None else shared_column(layout.document)
    return LongColumns(systems, references, source, documents)
