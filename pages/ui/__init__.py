"""What every dashboard page shares: the session's inputs, cached core calls, friendly errors.

Streamlit treats only the .py files directly in pages/ as pages, so this sub-package is not one.
Caches are keyed by the test set's content hash, never by a file name: two users who upload the
same bytes share a result, and nobody ever receives a result computed from another user's data.
"""

from __future__ import annotations

import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import streamlit as st

from mteval_core.config import Options
from mteval_core.errors import InputError
from mteval_core.io.mqm import MqmAnnotations
from mteval_core.metrics import DEFAULT_METRICS
from mteval_core.sample import current_test_set
from mteval_core.scoring import Progress, Scores, score_test_set
from mteval_core.testset import TestSet

DASHBOARD_METRICS = (*DEFAULT_METRICS, "gtm")  # one list for every page, so they share a cache
CACHE_ENTRIES = 128  # results kept per server process (least recently used dropped)


def session_test_set() -> TestSet:
    """This session's upload (Data page), else the sample."""
    return current_test_set(st.session_state)


def session_options() -> Options:
    """The preprocessing options chosen on the Data page, else the defaults."""
    return st.session_state.get("options", Options())


def session_mqm() -> MqmAnnotations | None:
    """MQM error annotations uploaded on the Data page, if any."""
    return st.session_state.get("mqm")


@contextmanager
def friendly_errors(stop: bool = True) -> Iterator[None]:
    """Show a problem as a message, never as a traceback, and stop the page there (or, with
    ``stop=False``, go on after the block, e.g. to keep showing what is still loaded).

    An InputError says which file and line and what to do; anything else is our fault, so the
    message says so and the details sit in an expander for a bug report.
    """
    try:
        yield
    except InputError as error:
        st.error(f"{error.where() or 'Your input'}: {error.problem}")
        with st.expander("What to do", expanded=True):
            st.write(error.hint or "Check the file named above, then upload it again.")
        if stop:
            st.stop()
    except Exception as error:
        st.error(
            "Something went wrong while computing this view. Your data is still loaded; "
            "try other options, or report the details below."
        )
        with st.expander("Details"):
            st.code("".join(traceback.format_exception(error)), language=None)
        if stop:
            st.stop()


class ContentCache:
    """A small process-wide LRU cache of results keyed by content (hashes and options).

    Streamlit's st.cache_data replays the elements a cached function drew, so a progress bar fed
    from inside it breaks on a cache hit; this cache only stores values, and a progress bar is
    drawn only while something is really computed.
    """

    def __init__(self, entries: int = CACHE_ENTRIES) -> None:
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._entries = entries
        self._lock = threading.Lock()

    def get_or_compute(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = compute()  # outside the lock: other sessions go on meanwhile
        with self._lock:
            self._values[key] = value
            while len(self._values) > self._entries:
                self._values.popitem(last=False)
        return value


@st.cache_resource
def _cache() -> ContentCache:
    return ContentCache()


def cached(key: Hashable, compute: Callable[[Progress], Any], label: str) -> Any:
    """``compute(progress)`` once per key (shared by every session), behind a progress bar."""

    def with_bar() -> Any:
        bar = st.progress(0.0, text=label)
        try:
            return compute(lambda share: bar.progress(min(max(share, 0.0), 1.0), text=label))
        finally:
            bar.empty()

    return _cache().get_or_compute(key, with_bar)


def scores_of(test_set: TestSet, metrics: Sequence[str], options: Options) -> Scores:
    """Every system under ``metrics``, computed once per content and options."""
    return cached(
        ("scores", test_set.content_hash, tuple(metrics), options),
        lambda progress: score_test_set(test_set, metrics, options, progress),
        "Scoring...",
    )
