"""``onnxtext lsp``: the language server, built from one table of handlers (``lsp/requests.py``).

A request about a document reads the snapshot its feature declares (``Feature.freshness``): the
handler is given it and never chooses among analyses itself. Where an older snapshot has no say
(the change since touched the position or the answer) the same handler is asked again over the
fresher one the freshness falls back to; a snapshot whose document was handed over meanwhile is
taken again (``onnxtext.host.snapshot``).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from pygls.exceptions import JsonRpcInternalError, JsonRpcInvalidParams

from onnxtext._gc import pausing_allowed
from onnxtext.host import SnapshotGone, Unanswerable
from onnxtext.lsp.requests import COMMANDS, FEATURES, Feature
from onnxtext.lsp.session import OnnxTextServer

__all__ = ["OnnxTextServer", "build_server", "serve"]

READS = "onnxtext_reads"
"""The attribute of a registered reader naming the handler it calls (what ``tests/lsp/test_requests.py`` checks)."""
_ATTEMPTS = 8
"""Snapshots taken for one request at most (each handed over to a newer version before it was read)."""


def build_server() -> OnnxTextServer:
    """A server with every feature of the table registered (one per process)."""
    server = OnnxTextServer()
    for feature in FEATURES:
        handler = feature.handler if feature.freshness is None else reading(feature)
        server.feature(feature.name, feature.options)(handler)
    for name, handler in COMMANDS:
        server.command(name)(handler)
    return server


def reading(feature: Feature) -> Callable[[OnnxTextServer, Any], Awaitable[Any]]:
    """``feature``'s handler over the snapshot of its document its freshness declares."""
    handler, freshness = feature.handler, feature.freshness
    assert freshness is not None

    async def ls_reads(ls: OnnxTextServer, params: Any) -> Any:
        document = ls.document(document_uri(feature.name, params))
        wanted = freshness
        for _ in range(_ATTEMPTS):
            snapshot = await document.snapshot(wanted)
            try:
                found = handler(ls, params, snapshot)
                if inspect.isawaitable(found):
                    found = await found
            except Unanswerable:
                wanted = wanted.fallback
                continue
            except SnapshotGone:
                continue
            if feature.view:
                document.answered_stale = not snapshot.current
            return found
        raise JsonRpcInternalError(f"{feature.name}: no snapshot of the document held still")

    ls_reads.__name__ = ls_reads.__qualname__ = handler.__name__
    setattr(ls_reads, READS, handler)
    return ls_reads


def document_uri(method: str, params: Any) -> str:
    """The document a request is about (``textDocument.uri``)."""
    document = getattr(params, "text_document", None) or getattr(params, "textDocument", None)
    uri = getattr(document, "uri", None)
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams(f"{method} needs 'textDocument': {{'uri': ...}}")
    return uri


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Run the server on stdio, or on a TCP port (for debugging). The process is the server's: onnxtext
    may hold the cyclic collector while it builds a document (``onnxtext._gc``)."""
    server = build_server()
    server.host.settle_heap = True  # the process is the server's: its collector too
    with pausing_allowed():
        if tcp is not None:
            server.start_tcp(*tcp)
        else:
            server.start_io()
