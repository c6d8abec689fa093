"""Find the shards, and read one shard into checked rows.

A shard has the columns of the long format (``io.long_format``: system, segment, hypothesis,
reference or ref-A, ref-B, ..., optionally source and document), under the same names. Unlike a
single long-format file it must number its segments: the rows of one segment may be in any shard,
so a row's position says nothing. What one shard can show is checked here, with the file and the
line (row, for Parquet) of the problem; what only all shards together show is ``coverage``'s.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from mteval_core.errors import InputError
from mteval_core.io.decoding import read_bytes, read_text
from mteval_core.io.delimited import read_table
from mteval_core.io.jsonl import json_records
from mteval_core.io.long_format import (
    MAX_SEGMENT_DIGITS,
    Layout,
    Record,
    doubled_row,
    layout_of,
    segment_of,
    text_of,
)
from mteval_core.model.testset import TextColumn

if TYPE_CHECKING:
    import pyarrow

SHARD_SUFFIXES = (".tsv", ".csv", ".jsonl", ".parquet")
PARQUET_HINT = 'Install pyarrow: pip install "mteval-core[dask]" (or pip install pyarrow).'


@dataclass(frozen=True, eq=False)
class ShardRows:
    """One shard's rows, checked: each (system, segment) once, and the shared values (source,
    references, document) of a segment the same on all its rows."""

    origin: str
    unit: str  # what a position counts: "line" (TSV, CSV, JSON Lines) or "row" (Parquet)
    shared_keys: tuple[str, ...]  # source, references and document, as the shard names them
    reference_keys: tuple[str, ...]
    hypotheses: dict[str, dict[int, str]]  # system -> segment -> hypothesis
    shared: dict[int, tuple[tuple[str, ...], int]]  # segment -> (shared values, first position)
    positions: dict[tuple[str, int], int]  # (system, segment) -> its line (or row)

    def reference_columns(self, segments: Sequence[int]) -> list[TextColumn]:
        """The references of ``segments``, one column per reference, in their order."""
        return [
            TextColumn(
                key.strip(),
                tuple(self.shared[s][0][self.shared_keys.index(key)] for s in segments),
                self.origin,
            )
            for key in self.reference_keys
        ]


# ---------------------------------------------------------------------------- finding shards
def find_shards(paths: Sequence[str]) -> list[Path]:
    """The shard files that ``paths`` name: files, folders (their shard files, by name) or glob
    patterns (their matches, by name). Files whose names start with "." or "_" are skipped in a
    folder, as Spark and Hadoop mark their bookkeeping (_SUCCESS, .part-0.crc)."""
    found: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found += _folder_shards(path)
        elif not path.exists() and any(char in text for char in "*?["):
            matches = sorted(Path(match) for match in glob.glob(text) if Path(match).is_file())
            if not matches:
                raise InputError(
                    "no file matches this pattern",
                    origin=text,
                    hint="Check the pattern, or give the folder that holds the shards.",
                )
            found += matches
        elif path.is_file():
            found.append(path)
        else:
            raise InputError("the file does not exist", origin=text, hint="Check the path.")
    for path in found:
        _check_suffix(path)
    _check_distinct(found)
    return found


def _folder_shards(folder: Path) -> list[Path]:
    files = sorted(
        path for path in folder.iterdir() if path.is_file() and not path.name.startswith((".", "_"))
    )
    if not files:
        raise InputError(
            "no shards found: the folder has no files",
            origin=str(folder),
            hint=f"Give a folder of {', '.join(SHARD_SUFFIXES)} files, or the files themselves.",
        )
    return files


def _check_suffix(path: Path) -> None:
    if path.suffix.lower() not in SHARD_SUFFIXES:
        raise InputError(
            f"{path.suffix or 'a name without extension'} is no shard type",
            origin=str(path),
            hint=f"A shard is a {', '.join(SHARD_SUFFIXES)} file (decompress a compressed one), "
            "named so; move other files out of a folder of shards.",
        )


def _check_distinct(paths: list[Path]) -> None:
    """The same file twice would count its rows twice."""
    seen: dict[Path, Path] = {}
    for path in paths:
        key = path.resolve()
        if key in seen:
            raise InputError(
                f"this shard is given twice (also as {seen[key]})",
                origin=str(path),
                hint="Give each shard once: a folder already includes its files.",
            )
        seen[key] = path


# ---------------------------------------------------------------------------- reading a shard
def read_shard(path: str) -> ShardRows:
    """One shard's rows, checked; the reader follows the file's extension."""
    suffix = Path(path).suffix.lower()
    if suffix == ".parquet":
        table = _parquet_table(path)
        fast = _parquet_rows(table, path)
        if fast is not None:
            return fast
        keys, records = _parquet_records(table)
        return _in_rows(lambda: rows_from_records(records, keys, None, path, "row"))
    data = read_bytes(path)
    if suffix == ".jsonl":
        keys, jsonl_records = _jsonl_records(data, path)
        return rows_from_records(jsonl_records, keys, None, path, "line")
    table = read_table(read_text(data, path), path)
    records = (Record(row.line, dict(row.cells)) for row in table.rows)
    return rows_from_records(records, table.header, table.header_line, path, "line")


def rows_from_records(
    records: Iterable[Record],
    keys: Sequence[str],
    header_line: int | None,
    origin: str,
    unit: str,
) -> ShardRows:
    """Check records one by one, with the messages of the long format, and keep their values."""
    layout = layout_of(keys, header_line, origin)
    if layout.segment is None:
        raise InputError(
            "there is no 'segment' column",
            origin=origin,
            line=header_line,
            hint="A shard numbers its segments (1, 2, 3, ... in test set order): the rows of one "
            "segment may be in any shard, so their position cannot number them.",
        )
    if not layout.references:
        raise InputError(
            "there is no reference column",
            origin=origin,
            line=header_line,
            hint="Add a 'reference' column (or ref-A, ref-B, ... for several) to every shard.",
        )
    hypotheses: dict[str, dict[int, str]] = {}
    positions: dict[tuple[str, int], int] = {}
    shared: dict[int, tuple[tuple[str, ...], int]] = {}
    for record in records:
        system = _system(record, layout.system, origin)
        segment = segment_of(record, layout.segment, origin)
        if (system, segment) in positions:
            raise doubled_row(
                system, segment, f"{unit} {positions[system, segment]}", record, origin
            )
        positions[system, segment] = record.line
        hypotheses.setdefault(system, {})[segment] = text_of(record, layout.hypothesis, origin)
        values = tuple(text_of(record, key, origin) for key in layout.shared)
        first = shared.setdefault(segment, (values, record.line))
        if first[0] != values:
            _disagreement(layout.shared, values, first, segment, record.line, origin, unit)
    if not hypotheses:
        raise InputError(
            "the shard has no rows",
            origin=origin,
            hint="Remove the empty shard, or add one row per (segment, system).",
        )
    return ShardRows(origin, unit, layout.shared, layout.references, hypotheses, shared, positions)


def _system(record: Record, key: str, origin: str) -> str:
    system = text_of(record, key, origin).strip()
    if not system:
        raise InputError("the system name is empty", origin=origin, line=record.line, column=key)
    return system


def _disagreement(
    keys: Sequence[str],
    values: tuple[str, ...],
    first: tuple[tuple[str, ...], int],
    segment: int,
    line: int,
    origin: str,
    unit: str,
) -> NoReturn:
    key = next(k for k, a, b in zip(keys, values, first[0], strict=True) if a != b)
    raise InputError(
        f"the {key!r} of segment {segment} differs from {unit} {first[1]}",
        origin=origin,
        line=line,
        column=key,
        hint="All rows of one segment must repeat the same source, references and document.",
    )


def _in_rows(read: Callable[[], ShardRows]) -> ShardRows:
    """Parquet has rows, not lines: the long format's messages say "line", so say "row"."""
    try:
        return read()
    except InputError as error:
        if error.line is None:
            raise
        raise InputError(
            f"row {error.line}: {error.problem}",
            origin=error.origin,
            column=error.column,
            hint=error.hint,
        ) from None


def _jsonl_records(data: bytes, origin: str) -> tuple[list[str], list[Record]]:
    """Every JSON object with its line, and every key seen, in the order first seen."""
    keys, records = json_records(data, origin)
    if not records:  # before the columns are looked for: there are none
        raise InputError(
            "the shard has no rows",
            origin=origin,
            hint="Remove the empty shard, or add one JSON object per (segment, system).",
        )
    return keys, records


def _parquet_table(path: str) -> pyarrow.Table:
    """A Parquet file's table, or a message naming the file."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise InputError(
            "reading Parquet shards needs pyarrow, which is not installed",
            origin=path,
            hint=PARQUET_HINT,
        ) from None
    try:  # not read_table: its first call imports pyarrow.dataset, 2-10 s (machine's load)
        return pyarrow.parquet.ParquetFile(path).read()
    except FileNotFoundError:
        raise InputError(
            "the file does not exist", origin=path, hint="Check the path and the spelling."
        ) from None
    except (OSError, pyarrow.ArrowException) as error:
        raise InputError(
            f"this Parquet file cannot be read ({error})",
            origin=path,
            hint="Check that it is a complete Parquet file (not one still being written).",
        ) from None


def _parquet_records(table: pyarrow.Table) -> tuple[list[str], Iterator[Record]]:
    """The column names and the rows (numbered from 1) of a Parquet table."""
    columns = {name: table.column(name).to_pylist() for name in table.column_names}
    rows = (
        Record(number, {name: values[number - 1] for name, values in columns.items()})
        for number in range(1, table.num_rows + 1)
    )
    return list(columns), rows


def _parquet_rows(table: pyarrow.Table, origin: str) -> ShardRows | None:
    """A well-formed Parquet shard's rows, read column by column: a text column of strings, an
    integer segment column, no missing value. Record by record, the rows of a 100,000-row shard
    took 1.3 s of its 2.5 s (dicts made and looked at per row); this takes 0.1 s. None wherever
    a check fails (or the columns are of other types), so that ``rows_from_records`` reads the
    shard again and says what is wrong, where, in the words of every other format."""
    import pyarrow

    names = table.column_names
    if table.num_rows == 0 or len(set(names)) != len(names):
        return None
    layout = layout_of(names, None, origin)
    if layout.segment is None or not layout.references:
        return None
    texts = (layout.system, layout.hypothesis, *layout.shared)
    if any(_has_nulls(table, name) or not _is_text(table, name) for name in texts):
        return None
    segment_column = table.column(layout.segment)
    if _has_nulls(table, layout.segment) or not pyarrow.types.is_integer(segment_column.type):
        return None
    segments = segment_column.to_pylist()
    if min(segments) < 1 or max(segments) >= 10**MAX_SEGMENT_DIGITS:
        return None
    stripped = {name: name.strip() for name in set(table.column(layout.system).to_pylist())}
    if not all(stripped.values()):
        return None
    return _rows_by_columns(table, layout, segments, stripped, origin)


def _rows_by_columns(
    table: pyarrow.Table,
    layout: Layout,
    segments: list[int],
    stripped: dict[str, str],
    origin: str,
) -> ShardRows | None:
    """``rows_from_records``' loop on checked columns; None at a doubled row or a segment whose
    shared values disagree (the records' reading then names them)."""
    hypotheses: dict[str, dict[int, str]] = {}
    positions: dict[tuple[str, int], int] = {}
    shared: dict[int, tuple[tuple[str, ...], int]] = {}
    systems = [stripped[name] for name in table.column(layout.system).to_pylist()]
    texts = table.column(layout.hypothesis).to_pylist()
    values = zip(*(table.column(key).to_pylist() for key in layout.shared), strict=True)
    rows = zip(systems, segments, texts, values, strict=True)
    for row, (system, segment, text, shared_values) in enumerate(rows, 1):
        if (system, segment) in positions:
            return None
        positions[system, segment] = row
        by_segment = hypotheses.get(system)
        if by_segment is None:
            by_segment = hypotheses[system] = {}
        by_segment[segment] = text
        first = shared.setdefault(segment, (shared_values, row))
        if first[0] != shared_values:
            return None
    return ShardRows(origin, "row", layout.shared, layout.references, hypotheses, shared, positions)


def _has_nulls(table: pyarrow.Table, name: str) -> bool:
    return table.column(name).null_count > 0


def _is_text(table: pyarrow.Table, name: str) -> bool:
    import pyarrow

    kind = table.column(name).type
    return pyarrow.types.is_string(kind) or pyarrow.types.is_large_string(kind)
