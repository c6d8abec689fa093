"""Statistics without a value, and how to show them.

A correlation over constant scores is 0/0, an interval that no resample defines has no bounds: such
a statistic is None in a result dict, and the same dict gives the reason under "undefined", e.g.
``{"pearson": None, "n": 4, "undefined": {"pearson": "constant human scores"}}``. JSON gets null
and the reason, never NaN; people get ``format_statistic``'s text. This module imports nothing
heavy, so that pages and writers can use it freely.
"""

from __future__ import annotations

from collections.abc import Mapping

UNDEFINED = "undefined"  # the key under which a result dict gives the reason for each None
NO_DEFINED_RESAMPLE = "undefined in every resample"


def format_statistic(statistics: Mapping, key: str, digits: int = 3) -> str:
    """``statistics[key]`` for people: '0.912', '[0.500, 0.990]' for an interval, or
    'undefined (constant human scores)' with the reason that ``statistics`` gives."""
    value = statistics[key]
    if value is None:
        return f"{UNDEFINED} ({statistics[UNDEFINED][key]})"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(f"{bound:.{digits}f}" for bound in value) + "]"
    return f"{value:.{digits}f}"
