"""Long-format CSV or TSV: one row per (segment, system), see :mod:`long_format` for the columns."""

from __future__ import annotations

from mteval_core.io.decoding import decode
from mteval_core.io.delimited import read_table
from mteval_core.io.long_format import LongColumns, Record, columns_from_records
from mteval_core.model.testset import TestSet


def read_tabular_columns(data: bytes, origin: str) -> LongColumns:
    """The columns of a long-format table (CSV or TSV, decided by the header line)."""
    table = read_table(decode(data, origin), origin)
    records = [Record(row.line, dict(row.cells)) for row in table.rows]
    return columns_from_records(records, table.header, table.header_line, origin)


def read_tabular(data: bytes, origin: str) -> TestSet:
    """A complete test set from one long-format table; it needs at least one reference column."""
    return read_tabular_columns(data, origin).test_set(origin)
