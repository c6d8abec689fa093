"""Shared fixtures: where ../shared/data lives, and small helpers to build test sets."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from mteval_core.testset import TestSet, TextColumn

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


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


@pytest.fixture(scope="session")
def wmt17() -> TestSet:
    folder = shared_dataset("wmt17-newstest2017-ende")
    ref = read_lines(folder / "ref" / "ref.de")
    systems = [
        TextColumn(path.name.rsplit(".", 1)[0], tuple(read_lines(path)), str(path))
        for path in sorted((folder / "sys").iterdir())
    ]
    return TestSet(references=[TextColumn("ref", tuple(ref), "ref.de")], systems=systems)


@pytest.fixture(scope="session")
def ted() -> TestSet:
    """WMT21 TED en-de: the reference and the 13 systems, text only (skips where absent)."""
    folder = shared_dataset("wmt21-ted-mqm-ende")
    return TestSet(
        references=[TextColumn("ref-A", tuple(read_lines(folder / "ref" / "ref-A.de")), "ref")],
        systems=[
            TextColumn(path.stem, tuple(read_lines(path)), str(path))
            for path in sorted((folder / "sys").iterdir())
        ],
    )


@pytest.fixture(params=["compiled", "python"])
def gtm_loops(request, monkeypatch):
    """Run a GTM test twice: on the compiled loops and on the pure-Python fallback that installs
    without a C compiler; both must give the same numbers to the bit."""
    import mteval_core.gtm.matching as matching
    from mteval_core.gtm import _loops_python

    if request.param == "python":
        monkeypatch.setattr(matching, "loops", _loops_python)
    return request.param
