"""Issue #24: what the server keeps for incremental work must not grow with the number of edits.

In process, the work the server does per version (``lsp/session.py``: diagnose, then the
precomputed types and semantic tokens kept in the document's :class:`TokenCache`, and the
formatter) over 50 changing versions of one text: the live ``Document`` objects stay at the
one the server holds, and the traced memory after the last version is what it was after the
tenth (a cache holding every analysis would add a document's worth per version).
"""

from __future__ import annotations

import asyncio
import gc
import threading
import tracemalloc

from onnxtext.api import format_text
from onnxtext.document import Document
from onnxtext.host.analyse import Outcome, Settings, diagnose
from onnxtext.host.documents import prepare
from onnxtext.host.tokens import TokenCache

STATEMENTS = 100


def _text(version: int) -> str:
    op = "Relu" if version % 2 else "Tanh"  # the bench's edit: one operator replaced in the middle
    lines = ['<ir_version: 8, opset_import: ["" : 18]>', f"main (float[N, 16] X0) => (float[N, 16] X{STATEMENTS})", "{"]
    lines += [f"   X{i + 1} = {op if i == STATEMENTS // 2 else 'Relu'} (X{i})" for i in range(STATEMENTS)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _live_documents() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Document))


def test_live_documents_and_memory_stay_bounded_over_50_versions() -> None:
    settings = Settings()
    settings.evaluate = False
    tokens = TokenCache()
    held: Outcome | None = None
    before = _live_documents()
    tracemalloc.start()
    try:
        after_ten = 0
        for version in range(1, 51):
            held = diagnose(_text(version), "m.onnxtxt", settings, threading.Event())  # the state's outcome
            prepare(tokens, held.document, threading.Event())
            format_text(_text(version), "model", "m.onnxtxt")
            if version == 10:
                gc.collect()
                after_ten = tracemalloc.get_traced_memory()[0]
        gc.collect()
        after_fifty = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held is not None
    assert _live_documents() - before <= 1  # only the one the server holds
    # 40 more analyses: a leak of one document each would be tens of MB; allow 1 MB of noise
    assert after_fifty - after_ten < 1_000_000, (after_ten, after_fifty)


def test_per_edit_notifications_are_handled_by_plain_functions() -> None:
    """pygls 2 stores an async notification handler's task under a fresh id in the protocol's
    ``_request_futures`` and never removes it: a Task, a Future, a coroutine and their
    callbacks kept per ``didChange``. The handlers of notifications sent per edit (all but the
    once-only ``initialized``) must be plain functions."""
    from lsprotocol import types as L

    from onnxtext.lsp.requests import FEATURES

    notifications = [f for f in FEATURES if f.name in L.METHOD_TO_TYPES and L.METHOD_TO_TYPES[f.name][1] is None]
    assert {L.TEXT_DOCUMENT_DID_CHANGE, L.TEXT_DOCUMENT_DID_OPEN} <= {f.name for f in notifications}
    coroutines = [f.name for f in notifications if f.name != L.INITIALIZED and asyncio.iscoroutinefunction(f.handler)]
    assert coroutines == []


def test_protocol_keeps_no_future_per_handled_notification() -> None:
    """pygls files the future of each handled message in ``_request_futures``; a notification's
    (a fresh id each, as pygls's own generator handler of ``didChange`` makes) is never taken out
    there. The server's protocol takes every finished one out."""
    from onnxtext.lsp.server import build_server

    protocol = build_server().protocol

    def builtin_then_user(params: object) -> object:  # the shape of pygls's didChange handler
        yield (lambda p: None), (params,), None

    for n in range(50):
        protocol._execute_handler(f"notification-{n}", builtin_then_user, lambda future: None, (None,))
    assert protocol._request_futures == {}
