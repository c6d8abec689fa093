"""Shared helpers for the reader tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    """The real WMT data next to the repository, or a clean skip where it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture
def write_tree() -> Callable[[Path, dict[str, str | bytes]], Path]:
    """A function that creates files (relative path -> content) under a root and returns it."""

    def write(root: Path, files: dict[str, str | bytes]) -> Path:
        for relative, content in files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return root

    return write
