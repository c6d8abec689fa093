"""The project's own sample test set, which the dashboard opens with.

It lives with the dashboard, not in ``mteval_core``: an installed wheel has no ``sample_data``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from mteval_core.io import DirectoryRead, read_directory
from mteval_core.model.testset import TestSet

SAMPLE_DATA = Path(__file__).resolve().parents[2] / "sample_data"


@cache  # read once per process: test sets are immutable, so every session may share it
def load_sample() -> DirectoryRead:
    """German-English, 40 segments, 2 references, 4 systems, TIDES-style adequacy and fluency."""
    return read_directory(SAMPLE_DATA)


def current_test_set(state: Mapping) -> TestSet:
    """The test set a dashboard session works on: its upload (key 'test_set'), else the sample."""
    return state.get("test_set") or load_sample().test_set
