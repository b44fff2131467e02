"""Holding the cyclic garbage collector while building large trees, when the program allows it.

Parsing or printing a big model allocates millions of small objects, none of them garbage;
the collector's full passes over them cost from a third to three quarters of the run time.
But the collector is the whole process's: a library call that turned it off would turn it off
for every thread of its caller. So the library only marks where it builds (``collector_paused``)
and holds the collector there only inside :func:`pausing_allowed`, which the programs that own
their process enter: the command line (``cli.app.main``) and the language server
(``lsp.server.serve``). ``onnxtext.parse_model`` or ``to_text`` called from anyone else's
program leave ``gc`` as they found it (``tests/test_gc_state.py``).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused", "pausing_allowed"]

_lock = threading.Lock()
_allowed = 0
"""How many :func:`pausing_allowed` blocks are open (`onnxtext lsp` opens two: the command line's, the server's)."""
_held = 0
"""How many :func:`collector_paused` blocks hold the collector now, in every thread."""
_was_enabled = False
"""Whether the collector ran when the first of them took it (it runs again when the last one leaves)."""


@contextmanager
def pausing_allowed() -> Iterator[None]:
    """Let onnxtext hold the cyclic collector while it builds large structures, inside the block:
    what a program decides for its own process (the command line, the language server)."""
    global _allowed
    with _lock:
        _allowed += 1
    try:
        yield
    finally:
        with _lock:
            _allowed -= 1


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold the cyclic collector inside the block if the program allows it (:func:`pausing_allowed`),
    else nothing. Re-entrant and shared between threads: the collector runs again, if it ran
    before, when the last block holding it leaves, whichever thread entered first."""
    global _held, _was_enabled
    with _lock:
        holds = _allowed > 0
        if holds:
            if _held == 0:
                _was_enabled = gc.isenabled()
                gc.disable()
            _held += 1
    try:
        yield
    finally:
        if holds:
            with _lock:
                _held -= 1
                if _held == 0 and _was_enabled:
                    gc.enable()
