"""Where the paraphrase cache goes (issue 42, point 4: the tests wrote a 108 MB cache into the
user's ~/.cache/mteval). tests/conftest.py's session fixture points MTEVAL_CACHE_DIR, which
``paraphrases.cache_root`` honours, at a folder of the system's temporary directory, for the
test processes and for every server and command line they start; users keep ~/.cache/mteval."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from mteval_core.metrics.meteor.paraphrases import cache_root
from tests.conftest import TEST_CACHE

ROOT = Path(__file__).resolve().parents[3]


def test_the_tests_cache_lies_in_the_temporary_directory_not_the_home():
    root = cache_root()
    assert root == TEST_CACHE / "meteor"
    assert Path(tempfile.gettempdir()) in root.parents
    assert not root.is_relative_to(Path.home() / ".cache")


def test_processes_the_tests_start_inherit_it():
    """A command line or `streamlit run` started by a test (tests/e2e/harness.start_server
    passes the environment on) writes where the test process does."""
    code = "from mteval_core.metrics.meteor.paraphrases import cache_root; print(cache_root())"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert Path(done.stdout.strip()) == TEST_CACHE / "meteor"


def test_users_keep_the_documented_place(monkeypatch):
    monkeypatch.delenv("MTEVAL_CACHE_DIR")
    assert cache_root() == Path.home() / ".cache" / "mteval" / "meteor"
    monkeypatch.setenv("MTEVAL_CACHE_DIR", "/srv/cache")
    assert cache_root() == Path("/srv/cache/meteor")
