"""Readers that turn files (or uploaded bytes) into the pieces of a :class:`TestSet`.

Formats are recognised by a file's extension or its whole structure, never by its first line alone
(:func:`detect_format`); every problem is an :class:`InputError` that names the file, the line or
column, what is wrong and what to do.

The names below load on first use (PEP 562): importing one reader (``mteval_core.io.decoding``,
say) imports that reader alone, not every other one, which a short command's start would pay for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and editors see; at run time __getattr__ loads them
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

# Each public name and the module that defines it
_HOME = {
    "InputError": "mteval_core.errors",
    "decode": "mteval_core.io.decoding",
    "read_bytes": "mteval_core.io.decoding",
    "split_lines": "mteval_core.io.decoding",
    "ColumnsRead": "mteval_core.io.detect",
    "detect_format": "mteval_core.io.detect",
    "read_columns": "mteval_core.io.detect",
    "DirectoryRead": "mteval_core.io.directory",
    "read_directory": "mteval_core.io.directory",
    "read_human": "mteval_core.io.human_judgments",
    "read_human_for": "mteval_core.io.human_judgments",
    "HumanRead": "mteval_core.io.human_read",
    "keep_known_systems": "mteval_core.io.human_read",
    "read_jsonl": "mteval_core.io.jsonl",
    "parse_direction": "mteval_core.io.metric_scores",
    "read_metric_scores": "mteval_core.io.metric_scores",
    "read_metric_scores_file": "mteval_core.io.metric_scores",
    "read_tabular": "mteval_core.io.tabular",
}

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


def __getattr__(name: str) -> Any:
    """A public reader, imported the first time it is asked for."""
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module 'mteval_core.io' has no attribute {name!r}")
