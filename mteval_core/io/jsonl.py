"""Long-format JSON Lines: one JSON object per line and per (segment, system).

The keys are the column names of :mod:`long_format`; blank lines are allowed.
"""

from __future__ import annotations

import json

from mteval_core.errors import InputError
from mteval_core.io.decoding import read_text, split_lines
from mteval_core.io.long_format import LongColumns, Record, columns_from_records
from mteval_core.io.strings import refuse_lone_surrogates
from mteval_core.model.testset import TestSet


def read_jsonl_columns(data: bytes, origin: str) -> LongColumns:
    """The columns of a long-format JSON Lines file."""
    keys, records = json_records(data, origin)
    if not records:
        raise InputError("the file is empty", origin=origin, hint="Give one JSON object per line.")
    return columns_from_records(records, keys, None, origin)


def json_records(data: bytes, origin: str) -> tuple[list[str], list[Record]]:
    """Every JSON object with its line number, and every key seen, in order of first appearance
    (the long-format file and the shards of ``mteval score --shards`` read lines alike)."""
    records = []
    keys: dict[str, None] = {}
    for number, line in enumerate(split_lines(read_text(data, origin)), start=1):
        if not line.strip():
            continue
        value = parse_json_line(line, number, origin)
        if "\\u" in line:  # only an escape can make a lone surrogate, which no output can write
            refuse_lone_surrogates(value, origin, number)
        if not isinstance(value, dict):
            raise InputError(
                "this line is valid JSON but not an object ({...})",
                origin=origin,
                line=number,
                hint="Each line must be one JSON object with keys such as system and hypothesis.",
            )
        records.append(Record(number, value))
        keys.update(dict.fromkeys(value))
    return list(keys), records


LINE_HINT = (
    "Each line must be one complete JSON object, such as "
    '{"system": "A", "segment": 1, "hypothesis": "..."}.'
)


def parse_json_line(line: str, number: int, origin: str, hint: str = LINE_HINT) -> object:
    """One line's JSON value; Python's own limits (deep nesting, huge integers) are errors too,
    with the file, line and ``hint`` (what the file's format wants)."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        problem, column = f"this line is not valid JSON: {error.msg}", error.colno
    except RecursionError:
        problem, column = "this line's JSON is nested too deeply to read", None
    except ValueError:  # Python refuses to convert integers of more than 4,300 digits
        problem, column = "a number on this line has too many digits to read", None
    raise InputError(problem, origin=origin, line=number, column=column, hint=hint)


def read_jsonl(data: bytes, origin: str) -> TestSet:
    """A complete test set from one JSON Lines file; it needs at least one reference key."""
    return read_jsonl_columns(data, origin).test_set(origin)
