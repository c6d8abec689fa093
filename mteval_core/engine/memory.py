"""Handing memory that numpy has freed back to the operating system.

glibc's allocator keeps freed blocks in the process's heap, and after a large array is freed it
raises the size from which it maps arrays on their own, so the next arrays up to 32 MB come from
the heap too. Building an n-gram index frees several times the index's size in such arrays; the
process then keeps that memory (its resident size stays at the peak) although nothing uses it.
``malloc_trim`` returns it. Dask's workers do the same (distributed's ``trim_memory``).
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from functools import cache


def return_freed_memory() -> None:
    """Give freed heap memory back to the system (glibc); elsewhere, do nothing."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim  # not in musl's libc, for one
    except (OSError, AttributeError):
        return None
