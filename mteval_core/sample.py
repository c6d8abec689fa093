"""The project's own sample test set, which the dashboard opens with."""

from __future__ import annotations

from pathlib import Path

from mteval_core.io import DirectoryRead, read_directory

SAMPLE_DATA = Path(__file__).resolve().parents[1] / "sample_data"


def load_sample() -> DirectoryRead:
    """German-English, 40 segments, 2 references, 4 systems, TIDES-style adequacy and fluency."""
    return read_directory(SAMPLE_DATA)
