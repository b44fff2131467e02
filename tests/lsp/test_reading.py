"""How a request reads the snapshot its feature declares (``lsp.server.reading``), without a client."""

from __future__ import annotations

from typing import Any

import pytest
from lsprotocol import types as L
from pygls.exceptions import JsonRpcInvalidParams

from onnxtext.host import Change, DocumentHost, Freshness, Host, Settings, Snapshot, SnapshotGone, Unanswerable
from onnxtext.lsp.requests import Feature
from onnxtext.lsp.server import document_uri, reading

URI = "file:///m.onnxtxt"
TEXT = (
    '<ir_version: 8, opset_import: ["" : 18]>\ng (float[N] x) => (float[N] y) {\n   a = Relu (x)\n   y = Neg (a)\n}\n'
)


class _Server:
    """What ``reading`` asks of the server: the host of a document."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def document(self, uri: str) -> DocumentHost:
        return self.host.documents[uri]


async def _edited() -> tuple[Host, DocumentHost]:
    """A host (its runs waiting) whose document was analysed at version 1 and edited since (version 2)."""
    host = Host(lambda document, snapshot: None, lambda message: None, lambda: None)
    host.settings = Settings(debounce_ms=10_000, evaluate=False)
    document = host.open(URI, TEXT, 1)
    await document.analysed()
    document.apply(Change.replacing(0, 0, " "), 2)
    return host, document


def _params() -> L.HoverParams:
    return L.HoverParams(L.TextDocumentIdentifier(URI), L.Position(2, 4))


@pytest.mark.asyncio
async def test_where_the_last_snapshot_has_no_say_the_handler_reads_the_fallback() -> None:
    host, _ = await _edited()
    seen: list[Snapshot] = []

    def handler(ls: Any, params: Any, snap: Snapshot) -> str:
        seen.append(snap)
        if not snap.current:
            raise Unanswerable
        return snap.source.text

    read = reading(Feature("test/last", None, handler, Freshness.LAST))
    assert await read(_Server(host), _params()) == " " + TEXT  # type: ignore[arg-type]
    assert [s.current for s in seen] == [False, True] and seen[1].version == 2
    host.close(URI)


@pytest.mark.asyncio
async def test_a_snapshot_handed_over_meanwhile_is_taken_again_and_a_view_answered_stale_is_refreshed() -> None:
    host, document = await _edited()
    calls: list[Snapshot] = []

    def handler(ls: Any, params: Any, snap: Snapshot) -> int:
        calls.append(snap)
        if len(calls) == 1:
            raise SnapshotGone
        return len(calls)

    read = reading(Feature("test/view", None, handler, Freshness.LAST, view=True))
    assert await read(_Server(host), _params()) == 2  # type: ignore[arg-type]
    assert document.answered_stale  # answered from version 1: asked again once version 2 lands
    host.close(URI)


def test_a_request_without_its_document_is_refused() -> None:
    assert document_uri("x", _params()) == URI
    with pytest.raises(JsonRpcInvalidParams):
        document_uri("onnxtext/graph", object())
