"""The dashboard's server settings (.streamlit/config.toml), which `streamlit run` reads from the
project folder: each one below is there for a reason that a test elsewhere cannot see."""

from __future__ import annotations

import tomllib
from pathlib import Path

from mteval_core.settings.limits import MAX_UPLOAD_MB

CONFIG = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"


def settings() -> dict:
    return tomllib.loads(CONFIG.read_text(encoding="utf-8"))


def test_the_upload_limit_is_the_one_the_readers_name():
    """Streamlit refuses larger files on the chip; the Data page's messages quote the core's."""
    assert settings()["server"]["maxUploadSize"] == MAX_UPLOAD_MB


def test_no_traceback_reaches_a_user():
    assert settings()["client"]["showErrorDetails"] == "none"


def test_no_full_garbage_collection_after_every_run():
    """Streamlit's default collects all generations after each run of a page: 0.15-0.5 s of
    every click with the server's libraries loaded (bench/bench_dashboard.py, compare-pair)."""
    assert settings()["runner"]["postScriptGC"] is False
