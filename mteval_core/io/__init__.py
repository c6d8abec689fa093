"""Readers that turn files (or uploaded bytes) into the pieces of a :class:`TestSet`.

Formats are recognised by a file's extension or its whole structure, never by its first line alone
(:func:`detect_format`); every problem is an :class:`InputError` that names the file, the line or
column, what is wrong and what to do.
"""

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode, read_bytes, split_lines
from mteval_core.io.detect import ColumnsRead, detect_format, read_columns
from mteval_core.io.directory import DirectoryRead, read_directory
from mteval_core.io.human_judgments import read_human, read_human_for
from mteval_core.io.human_read import HumanRead, keep_known_systems
from mteval_core.io.jsonl import read_jsonl
from mteval_core.io.metric_scores import (
    parse_direction,
    read_metric_scores,
    read_metric_scores_file,
)
from mteval_core.io.tabular import read_tabular

__all__ = [
    "ColumnsRead",
    "DirectoryRead",
    "HumanRead",
    "InputError",
    "decode",
    "detect_format",
    "keep_known_systems",
    "parse_direction",
    "read_bytes",
    "read_columns",
    "read_directory",
    "read_human",
    "read_human_for",
    "read_jsonl",
    "read_metric_scores",
    "read_metric_scores_file",
    "read_tabular",
    "split_lines",
]
