"""Helpers shared by the tests: where ../shared/data lives, and small test sets built in memory.

Imported as ``from tests.helpers import ...``; the fixtures built on them live in conftest.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from mteval_core.io import DirectoryRead, read_directory
from mteval_core.model.testset import TestSet, TextColumn

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
SAMPLE_DATA = ROOT / "sample_data"


def shared_dataset(name: str) -> Path:
    """A folder of ../shared/data, or a clean skip where it is absent (e.g. outside CI)."""
    path = SHARED_DATA / name
    if not path.is_dir():
        pytest.skip(f"{path} is not available")
    return path


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def make_test_set(
    references: Sequence[Sequence[str]] | Sequence[str],
    systems: dict[str, Sequence[str]],
) -> TestSet:
    """references: one list of segments per reference (or a single list for one reference)."""
    if references and isinstance(references[0], str):
        references = [references]  # type: ignore[list-item]
    return TestSet(
        references=[
            TextColumn(f"ref{i + 1}", tuple(r), f"ref{i + 1}.txt") for i, r in enumerate(references)
        ],
        systems=[TextColumn(name, tuple(s), f"{name}.txt") for name, s in systems.items()],
    )


@cache
def load_sample() -> DirectoryRead:
    """The dashboard's sample test set (sample_data/), read once per test run."""
    return read_directory(SAMPLE_DATA)


def cell_pixels(figure) -> tuple[float, float]:
    """The room per cell of a bitext grid figure, across and down (a short grid may get more
    across: its figure keeps a minimum width)."""
    layout, (cells,) = figure.layout, figure.data
    rows, columns = len(cells.z), len(cells.z[0])
    width = (layout.width - layout.margin.l - layout.margin.r) / columns
    height = (layout.height - layout.margin.t - layout.margin.b) / rows
    return width, height
