"""The cache every session shares, and the keys of its results.

Caches are keyed by the test set's content hash, never by a file name: two users who upload the
same bytes share a result, and nobody ever receives a result computed from another user's data.
``cache_key`` is the one place a key is made (tests/test_architecture.py keeps it so): it always
adds the session's content, options and metrics.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from mteval_core.metrics.scoring import Progress
from mteval_core.settings.options import Options
from pages.ui.cache import CacheKey, ContentCache
from pages.ui.session import (
    session_external_metrics,
    session_metrics,
    session_options,
    session_test_set,
)


@st.cache_resource
def shared_cache() -> ContentCache:
    """One cache per server process, shared by every session (``st.cache_resource``)."""
    return ContentCache()


def cache_key(
    view: str,
    *choices: Hashable,
    content: Hashable | None = None,
    options: Options | None = None,
    metrics: tuple[str, ...] | None = None,
    external: tuple[str, ...] | None = None,
) -> CacheKey:
    """The key of a result of ``view`` for this session: ``content`` (by default the session's
    test set's content hash, which covers its judgments), ``options`` (by default the session's),
    the session's chosen and external metrics, and the view's own ``choices``. Every cached
    result is keyed here, so that two sessions share a result only when everything that changes
    it is equal. ``metrics`` and ``external`` narrow a key to the metrics a result depends
    on (one statistics kind's, none), so that it outlives a change of the others."""
    return CacheKey(
        view,
        session_test_set().content_hash if content is None else content,
        session_options() if options is None else options,
        tuple(session_metrics()) if metrics is None else metrics,
        tuple(session_external_metrics()) if external is None else external,
        choices,
    )


def cached(
    key: CacheKey, compute: Callable[[Progress], Any], label: str | None = None, keep: bool = True
) -> Any:
    """``compute(progress)`` once per key (shared by every session), behind a progress bar
    labelled ``label`` (none for quick work, ``label=None``). A session that asks while another
    computes the same key waits for that result, following its progress on its own bar. With
    ``keep`` False the result is shared with those waiting but not kept (see ContentCache)."""

    def with_bar(report: Progress) -> Any:
        if label is None:
            return compute(report)
        bar = st.progress(0.0, text=label)

        def progress(share: float) -> None:
            share = min(max(share, 0.0), 1.0)
            report(share)
            bar.progress(share, text=label)

        try:
            return compute(progress)
        finally:
            bar.empty()

    @contextmanager
    def waiting() -> Iterator[Progress]:
        bar = st.progress(0.0, text=label)
        try:
            yield lambda share: bar.progress(min(max(share, 0.0), 1.0), text=label)
        finally:
            bar.empty()

    return shared_cache().get_or_compute(
        key, with_bar, waiting if label is not None else None, keep
    )


def deferred(key: CacheKey, build: Callable[[], str | bytes]) -> Callable[[], str | bytes]:
    """A download's content made only when somebody asks for it: ``st.download_button(...,
    data=deferred(key, build))`` runs ``build()`` on the click, once per key for every session,
    so that no page run spends time (or a session's memory) on files nobody downloads."""
    cache = shared_cache()  # the click runs in a thread of its own, outside the page's run
    return lambda: cache.get_or_compute(key, lambda _progress: build())
