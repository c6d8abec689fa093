"""Fixtures of the page tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import streamlit.testing.v1.app_test as app_test
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest


@pytest.fixture
def downloads(monkeypatch) -> Callable[[AppTest], dict[str, str]]:
    """label -> text of every download button; AppTest keeps the files in a media store that
    lives for one run, so each store (and the manager holding the buttons whose content is made
    on the click, ``pages.ui.caching.deferred``) is recorded as it is made. A deferred file is made
    here as a click makes it."""
    stores: list[MemoryMediaFileStorage] = []
    managers: list[MediaFileManager] = []

    class RecordedStorage(MemoryMediaFileStorage):
        def __init__(self, endpoint: str) -> None:
            super().__init__(endpoint)
            stores.append(self)

    class RecordedManager(MediaFileManager):
        def __init__(self, storage: MemoryMediaFileStorage) -> None:
            super().__init__(storage)
            managers.append(self)

    monkeypatch.setattr(app_test, "MemoryMediaFileStorage", RecordedStorage)
    monkeypatch.setattr(app_test, "MediaFileManager", RecordedManager)

    def text(button) -> str:
        url = button.proto.url
        if button.proto.deferred_file_id:
            url = managers[-1].execute_deferred(button.proto.deferred_file_id)
        return stores[-1].get_file(url.rsplit("/", 1)[1]).content.decode("utf-8")

    def texts(app: AppTest) -> dict[str, str]:
        return {button.proto.label: text(button) for button in app.get("download_button")}

    return texts
