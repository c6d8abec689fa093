"""The documentation site builds as CI builds it: `mkdocs build --strict`, so that a broken link,
a missing page of the nav, a snippet that is not there or a docstring mkdocstrings cannot read
fails the build instead of publishing a page with a hole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_builds_strict(tmp_path: Path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install '.[test]')")
    pytest.importorskip("material", reason="mkdocs-material is not installed")
    pytest.importorskip("mkdocstrings", reason="mkdocstrings is not installed")
    site = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )
    assert build.returncode == 0, build.stderr[-4000:]
    cli = (site / "cli" / "index.html").read_text(encoding="utf-8")
    assert "--refs" in cli  # the hook wrote the parser's reference
    assert "Unreleased" in (site / "changelog" / "index.html").read_text(encoding="utf-8")
