"""Compiled loops run on every core the process may use, in threads.

The n-gram matches' (BLEU, NIST, P/R/F), GTM's greedy, chrF's, TER's and METEOR's compiled loops
release the interpreter lock while they work, so parts of one test set (blocks of segments,
ranges of segment pairs) can run at once in threads of the same process: no copies of the data,
no processes to start, and the same numbers, because each segment is computed on its own
whichever thread takes it. Each item runs in a copy of the caller's context, so what it says
(``errors.say``) joins the caller's notes."""

from __future__ import annotations

import contextvars
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from threading import Event
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def spans(n_items: int, fewest: int, most: int | None = None) -> list[tuple[int, int]]:
    """[first, last) ranges covering ``range(n_items)`` in order: one per usable core, each of
    at least ``fewest`` items (a thread costs more than a few segments' work: on tiny inputs
    one range, no thread) and at most ``most``. No items: one empty range."""
    size = max(fewest, -(-n_items // usable_cores()), 1)
    if most is not None:
        size = min(size, max(most, 1))
    return [(first, min(first + size, n_items)) for first in range(0, n_items, size)] or [(0, 0)]


def map_on_cores(
    function: Callable[[Item], Result], items: Sequence[Item], stop: Event | None = None
) -> list[Result]:
    """``[function(item) for item in items]``, up to one thread per usable core at a time; an
    error in any item is raised here. With one item or one core no thread is started.

    Ctrl-C reaches only the main thread, waiting here; before it is raised, the items not
    started are dropped and ``stop`` is set, for a ``function`` whose items can take long to
    look at it (GTM's greedy, where one segment can take seconds) and end early: the raise
    waits for the threads' items to end."""
    workers = min(usable_cores(), len(items))
    if workers <= 1:
        return [function(item) for item in items]
    # each item in a copy of this context (one each: one thread at a time may enter a context)
    in_context = [(contextvars.copy_context(), item) for item in items]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mteval-loops") as pool:
        try:
            return list(pool.map(lambda pair: pair[0].run(function, pair[1]), in_context))
        except BaseException:
            if stop is not None:
                stop.set()
            raise
