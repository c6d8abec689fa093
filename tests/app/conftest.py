"""Fixtures of the page tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import streamlit.testing.v1.app_test as app_test
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest


@pytest.fixture
def downloads(monkeypatch) -> Callable[[AppTest], dict[str, str]]:
    """label -> text of every download button; AppTest keeps the files in a media store that
    lives for one run, so each store is recorded as it is made."""
    stores: list[MemoryMediaFileStorage] = []

    class RecordedStorage(MemoryMediaFileStorage):
        def __init__(self, endpoint: str) -> None:
            super().__init__(endpoint)
            stores.append(self)

    monkeypatch.setattr(app_test, "MemoryMediaFileStorage", RecordedStorage)

    def texts(app: AppTest) -> dict[str, str]:
        return {
            button.proto.label: stores[-1]
            .get_file(button.proto.url.rsplit("/", 1)[1])
            .content.decode("utf-8")
            for button in app.get("download_button")
        }

    return texts
