"""The server's memory between analyses: the cyclic collector run once per analysis, at a chosen
time, and the C allocator's free pages given back (#24).

A version's analysis makes a few million objects, and some of a document's structures are
reference cycles (the symbol tables' scopes and values, the lowering's sink and its callback):
a document the server lets go of is freed only by a full pass of the cyclic collector. Left to
itself the collector made those passes at random times (1 to 2.7 s holding the GIL at 30,000
statements, requests waiting) and, between them, kept several dead documents resident: the
server's memory grew with the number of edits (RSS 244 MB after 50 edits, 311 MB after 300)
while the memory Python traces after a collection stayed flat. ``malloc_trim`` alone, or fewer
glibc arenas (``MALLOC_ARENA_MAX=2``), changed nothing measurable.

So :class:`Collector` keeps the collector off while an analysis runs (its passes over the new
tree would delay the diagnostics: 0.15 to 0.45 s on the open of that text), and once the
analysis is published and its tokens made, runs one full pass that frees the documents let go
of, then freezes the survivors (``gc.freeze``: later automatic passes skip them; the next
settling pass unfreezes them first, so a cycle among them waits at most one analysis), and
returns the C allocator's free pages (``malloc_trim`` through ctypes, glibc only).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import sys
import threading
from collections.abc import Callable
from functools import cache

__all__ = ["Collector", "release_memory"]


class Collector:
    """The cyclic collector held off while analyses run, and settled once after each."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holds = 0

    def hold(self) -> None:
        """An analysis starts: no collector pass until every running one is :meth:`release`\\ d."""
        with self._lock:
            self._holds += 1
            gc.disable()

    def release(self) -> None:
        with self._lock:
            self._holds -= 1
            if self._holds <= 0:
                self._holds = 0
                gc.enable()

    def settle(self) -> None:
        """One full pass over everything (frozen survivors included), the survivors frozen, the C
        allocator's free pages returned: run after an analysis was published."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        release_memory()


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None (another C library, another system, or turned off with
    ``ONNXTEXT_MALLOC_TRIM=0``)."""
    if not sys.platform.startswith("linux") or os.environ.get("ONNXTEXT_MALLOC_TRIM") == "0":
        return None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim  # musl and others have none: AttributeError
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def release_memory() -> bool:
    """Return the C allocator's free pages to the system; False where there is no way to."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
