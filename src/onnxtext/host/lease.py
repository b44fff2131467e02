"""Who may read an analysed document off the event loop, and its handing over to the next version.

The leases are the host's (:class:`Leases`, one table for every open document), not the
documents': a :class:`~onnxtext.document.Document` is one text version and carries no threading state.

An edit's document is made from the previous one in place (``onnxtext.incremental``): the
previous document is consumed, and nobody may read it after that. The event loop hands it
over only when no worker thread holds it (:meth:`Lease.consume`); a worker that reads it
(the tokens and types made ahead of requests, a live run) holds it for as long as it reads
(:meth:`Lease.reading`), and finds it gone if it was handed over before it started.
Readers on the event loop itself need nothing: the hand-over runs there, between them.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Lease", "Leases"]


class Lease:
    """The readers of one document in worker threads, and whether it was handed over."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._readers = 0
        self.consumed = False

    @contextmanager
    def reading(self) -> Iterator[bool]:
        """Hold the document while the block runs; yields False (do not read it) if it was handed over."""
        with self._lock:
            held = not self.consumed
            self._readers += held
        try:
            yield held
        finally:
            if held:
                with self._lock:
                    self._readers -= 1

    def consume(self) -> bool:
        """Hand the document over if no worker holds it; False (keep off it) otherwise."""
        with self._lock:
            if self._readers or self.consumed:
                return False
            self.consumed = True
            return True

    def restore(self) -> None:
        """Take back a document handed over and left untouched (the edit was not made from it)."""
        with self._lock:
            self.consumed = False


class Leases:
    """The lease of each document the host made, by identity (a document is no dictionary key: it
    compares by value), dropped with the document."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_id: dict[int, Lease] = {}

    def of(self, document: object) -> Lease:
        """``document``'s lease (made on first use; any thread may ask)."""
        key = id(document)
        with self._lock:
            lease = self._by_id.get(key)
            if lease is None:
                lease = self._by_id[key] = Lease()
                # called as the document goes, before its id can name another object
                weakref.finalize(document, self._forget, key)
            return lease

    def _forget(self, key: int) -> None:
        # no lock: the collector may call this in any thread, the one holding the lock in `of` included
        self._by_id.pop(key, None)

    def __len__(self) -> int:
        return len(self._by_id)
