"""Issue #26: sessions that ask the shared cache for the same result at once share one
computation: the others wait for it and follow its progress, and take over when it stops."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mteval_core.settings.options import Options
from pages.ui.cache import CacheKey, ContentCache

KEY = CacheKey("bootstrap", "content", Options(), (), (), (1000,))


class SessionStopped(BaseException):
    """As Streamlit stops a session's run when its user goes elsewhere (not an Exception)."""


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (another thread's doing); fail after 30 s rather than hang."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)


def in_thread(results: dict[str, Any], name: str, call: Callable[[], Any]) -> threading.Thread:
    def target() -> None:
        try:
            results[name] = call()
        except SessionStopped:
            results[name] = "stopped"

    thread = threading.Thread(target=target)
    thread.start()
    return thread


def test_a_second_session_waits_for_the_first_ones_result_and_follows_its_progress():
    cache = ContentCache()
    release, calls, shown, results = threading.Event(), [], [], {}

    def first(progress: Callable[[float], None]) -> str:
        calls.append("first")
        progress(0.5)
        release.wait(30)
        return "resampled"

    def second(progress: Callable[[float], None]) -> str:
        calls.append("second")
        return "resampled again"

    @contextmanager
    def waiting() -> Iterator[Callable[[float], None]]:
        yield shown.append

    threads = [in_thread(results, "first", lambda: cache.get_or_compute(KEY, first))]
    until(lambda: calls == ["first"], "the first session computes")
    threads.append(in_thread(results, "second", lambda: cache.get_or_compute(KEY, second, waiting)))
    until(lambda: cache.waiting(KEY) == 1 and 0.5 in shown, "the second follows the first")
    release.set()
    for thread in threads:
        thread.join(30)
    assert calls == ["first"]  # computed once
    assert results == {"first": "resampled", "second": "resampled"}
    assert cache.waiting(KEY) == 0 and KEY in cache


def test_when_the_computing_session_stops_a_waiting_one_computes_it():
    cache = ContentCache()
    release, calls, results = threading.Event(), [], {}

    def stopped(progress: Callable[[float], None]) -> str:
        calls.append("first")
        release.wait(30)
        raise SessionStopped

    def second(progress: Callable[[float], None]) -> str:
        calls.append("second")
        return "resampled"

    threads = [in_thread(results, "first", lambda: cache.get_or_compute(KEY, stopped))]
    until(lambda: calls == ["first"], "the first session computes")
    threads.append(in_thread(results, "second", lambda: cache.get_or_compute(KEY, second)))
    until(lambda: cache.waiting(KEY) == 1, "the second waits")
    release.set()
    for thread in threads:
        thread.join(30)
    assert calls == ["first", "second"]
    assert results == {"first": "stopped", "second": "resampled"}
    assert cache.get_or_compute(KEY, lambda _: "not again") == "resampled"
