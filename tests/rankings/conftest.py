"""WMT25's automatic scores and systems metadata as shipped, unpacked once per session into a
temporary folder (never into the repository)."""

from __future__ import annotations

import lzma
import tarfile
from pathlib import Path

import pytest

from tests.helpers import shared_dataset


@pytest.fixture(scope="session")
def wmt25(tmp_path_factory) -> Path:
    """A folder holding data/automatic_scores/*.jsonl, meta.json and report.tex."""
    source = shared_dataset("wmt-rankings") / "wmt25-general-mt"
    folder = tmp_path_factory.mktemp("wmt25")
    with tarfile.open(source / "data" / "automatic_scores.tar.xz") as tar:
        tar.extractall(folder, filter="data")
    meta = source / "data" / "systems_metadata_updated3.json.xz"
    report = source / "preliminary_ranking" / "latex_source" / "generated_report.tex.xz"
    (folder / "meta.json").write_bytes(lzma.decompress(meta.read_bytes()))
    (folder / "report.tex").write_bytes(lzma.decompress(report.read_bytes()))
    return folder


@pytest.fixture(scope="session")
def wmt24(tmp_path_factory) -> Path:
    """WMT24's ESA waves 2-3 and the four .docs files, decompressed (waves/, documents/)."""
    source = shared_dataset("wmt-rankings") / "wmt24-news-systems"
    folder = tmp_path_factory.mktemp("wmt24")
    for sub, pattern in (("waves", "humeval/esa_*.csv.xz"), ("documents", "txt/documents/*.xz")):
        (folder / sub).mkdir()
        for path in sorted(source.glob(pattern)):
            (folder / sub / path.name[:-3]).write_bytes(lzma.decompress(path.read_bytes()))
    return folder
