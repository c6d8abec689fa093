"""The dashboard's process-wide cache of results, bounded by memory.

Every session of a server shares one process, so the cache decides how much memory results may
hold: a count of entries says nothing when one entry is the scores of a 100,000-segment upload and
another a five-system table. Each entry's size is estimated when it is stored (numpy buffers,
pandas memory, the containers and objects that hold them), and the least recently used entries are
dropped while the total is over the budget.

Sessions asking for the same result at once share one computation: the first computes, the
others wait for its value (following its progress bar), so a result costs the server once
however many users open the page together.
"""

from __future__ import annotations

import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from mteval_core.metrics.scoring import Progress
from mteval_core.settings.limits import CACHE_BYTES
from mteval_core.settings.options import Options

CACHE_ENTRIES = 128  # results kept per server process at most, however small
WAIT_POLL_SECONDS = 0.2  # how often a session waiting for another's computation shows progress


@dataclass(frozen=True)
class CacheKey:
    """What a cached result depends on, all of it: the view that computed it, the content it was
    computed from (the test set's SHA-256 with its judgments, or an uploaded table's bytes), the
    options that change a number, the built-in metrics chosen on the Data page (every page
    computes them), the external metrics loaded beside the test set, and the view's own
    choices (criterion, excluded systems, resamples, ...). Pages get one from
    ``pages.ui.caching.cache_key``, which fills in the session's parts, so no page can leave one
    out."""

    view: str
    content: Hashable
    options: Options
    metrics: tuple[str, ...]
    external: tuple[str, ...]
    choices: tuple[Hashable, ...]


_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
_ATOMS = (str, bytes, bytearray, int, float, complex, bool, type(None))


def estimate_bytes(value: object) -> int:
    """About how many bytes ``value`` keeps alive: numpy arrays by their buffers (a view by the
    array it views), pandas objects by ``memory_usage(deep=True)``, containers, dataclasses and
    other objects by what they hold. An object referenced twice counts once; classes, modules and
    functions are shared code, not data, and count nothing."""
    seen: set[int] = set()
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, _SHARED):
            continue
        seen.add(id(item))
        size, held = _own_bytes(item)
        total += size
        stack.extend(held)
    return total


def _own_bytes(item: object) -> tuple[int, list[object]]:
    """The bytes ``item`` itself takes, and the objects it holds (counted separately)."""
    if isinstance(item, np.ndarray):
        if isinstance(item.base, np.ndarray):  # a view keeps the array it views alive
            return 0, [item.base]
        return item.nbytes, item.ravel().tolist() if item.dtype == object else []
    if isinstance(item, pd.DataFrame | pd.Series):  # a Series's memory_usage is one number
        return int(np.sum(item.memory_usage(deep=True))), []
    if isinstance(item, pd.Index):
        return int(item.memory_usage(deep=True)), []
    if isinstance(item, _ATOMS):
        return sys.getsizeof(item), []
    if isinstance(item, dict):
        return sys.getsizeof(item), [*item.keys(), *item.values()]
    if isinstance(item, list | tuple | set | frozenset):
        return sys.getsizeof(item), list(item)
    # dataclasses and other objects: their attributes
    held = list(getattr(item, "__dict__", {}).values())
    for cls in type(item).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot not in ("__dict__", "__weakref__") and hasattr(item, slot):
                held.append(getattr(item, slot))
    return sys.getsizeof(item), held


class ContentCache:
    """A process-wide LRU cache of results keyed by content (hashes and options), bounded by the
    estimated bytes of its entries and by their number.

    Streamlit's st.cache_data replays the elements a cached function drew, so a progress bar fed
    from inside it breaks on a cache hit; this cache only stores values, and a progress bar is
    drawn only while something is really computed. A result larger than the whole budget is
    returned but not kept.

    A key is computed by one session at a time: a session that asks for a key while another is
    computing it waits for that result (and may follow its progress) instead of computing it
    again, so ten users who open the same page on the same upload cost one computation, not ten.
    If the computing session stops (its user went elsewhere, or the computation failed), one of
    those waiting computes it.
    """

    def __init__(self, entries: int = CACHE_ENTRIES, max_bytes: int = CACHE_BYTES) -> None:
        self._values: OrderedDict[CacheKey, tuple[Any, int]] = OrderedDict()
        self._flights: dict[CacheKey, _Flight] = {}  # keys being computed now
        self._entries = entries
        self._max_bytes = max_bytes
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        """The estimated size of what the cache holds now."""
        return self._bytes

    def __contains__(self, key: CacheKey) -> bool:
        return key in self._values

    def waiting(self, key: CacheKey) -> int:
        """How many sessions are waiting for another session's computation of ``key``."""
        with self._lock:
            flight = self._flights.get(key)
            return flight.waiting if flight else 0

    def get_or_compute(
        self,
        key: CacheKey,
        compute: Callable[[Progress], Any],
        waiting: Callable[[], AbstractContextManager[Progress]] | None = None,
        keep: bool = True,
    ) -> Any:
        """The value of ``key``: cached, or ``compute(progress)`` (told the share done, which
        sessions waiting for the same key follow), or the value another session is computing,
        waited for inside ``waiting()`` (which shows that session's progress). With ``keep``
        False the value is handed to the sessions waiting for it but not kept: a computation
        whose parts the caller keeps under keys of their own (``put``)."""
        if not isinstance(key, CacheKey):
            raise TypeError(
                f"cache keys come from pages.ui.caching.cache_key, not {type(key).__name__}"
            )
        while True:
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    return self._values[key][0]
                flight = self._flights.get(key)
                if flight is None:
                    flight = self._flights[key] = _Flight()
                    leading = True
                else:
                    flight.waiting += 1
                    leading = False
            if leading:
                return self._compute(key, flight, compute, keep)
            try:
                flight.wait(waiting)
            finally:
                with self._lock:
                    flight.waiting -= 1
            if flight.succeeded:
                return flight.value
            # the session computing it stopped: this one (or another waiting) computes it

    def _compute(
        self, key: CacheKey, flight: _Flight, compute: Callable[[Progress], Any], keep: bool
    ) -> Any:
        """``compute`` outside the lock (other sessions and keys go on meanwhile), then keep
        the value within the budget and hand it to the sessions waiting for it."""
        try:
            value = compute(flight.report)
            with self._lock:
                flight.value, flight.succeeded = value, True
            if keep:
                self.put(key, value)
        finally:  # also when the computing session stops: the sessions waiting take over
            with self._lock:
                self._flights.pop(key, None)
            flight.done.set()
        return value

    def put(self, key: CacheKey, value: Any) -> None:
        """Keep ``value`` under ``key`` (unless it is larger than the whole budget)."""
        size = estimate_bytes((key, value))
        if size <= self._max_bytes:
            with self._lock:
                self._store(key, value, size)

    def _store(self, key: CacheKey, value: Any, size: int) -> None:
        """Keep ``value``, dropping the least recently used entries over the limits (under the
        lock)."""
        if key in self._values:
            self._bytes -= self._values.pop(key)[1]
        self._values[key] = (value, size)
        self._bytes += size
        while len(self._values) > self._entries or self._bytes > self._max_bytes:
            self._bytes -= self._values.popitem(last=False)[1][1]


@dataclass(eq=False)
class _Flight:
    """One computation under way, and the sessions waiting for its value."""

    done: threading.Event = field(default_factory=threading.Event)
    share: float = 0.0  # of the work done, as the computing session last said
    value: Any = None
    succeeded: bool = False
    waiting: int = 0  # sessions waiting for it (under the cache's lock)

    def report(self, share: float) -> None:
        """What the computing session says of its progress, for those waiting."""
        self.share = share

    def wait(self, waiting: Callable[[], AbstractContextManager[Progress]] | None) -> None:
        """Until the computation has ended, showing its progress inside ``waiting()``: the
        progress bar is updated every ``WAIT_POLL_SECONDS``, which also lets Streamlit stop a
        session that is waiting when its user goes elsewhere."""
        if waiting is None:
            self.done.wait()
            return
        with waiting() as show:
            while not self.done.wait(WAIT_POLL_SECONDS):
                show(self.share)
