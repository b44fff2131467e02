"""The custom requests through a real client, given params they cannot read: each answers
invalid-params (-32602) with a message saying what it needs, never an internal error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as L
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

TEXT = """<ir_version: 9, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
   y = Relu (x)
}
"""
INVALID_PARAMS = -32602


async def _refused(client: LanguageClient, method: str, params: dict[str, Any]) -> str:
    with pytest.raises(JsonRpcException) as raised:
        await client.protocol.send_request_async(method, params)
    assert raised.value.code == INVALID_PARAMS, (method, params, raised.value)
    return str(raised.value.message)


@pytest.mark.asyncio
async def test_custom_requests_refuse_bad_params_with_a_message(client: LanguageClient, uri: str) -> None:
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, TEXT)))
    doc = {"uri": uri}
    at = {"line": 2, "character": 3}
    cases: list[tuple[str, dict[str, Any]]] = [
        ("onnxtext/graph", {}),
        ("onnxtext/graphProperties", {"textDocument": doc}),
        ("onnxtext/graphProperties", {"textDocument": doc, "position": 3}),
        ("onnxtext/graphProperties", {"textDocument": doc, "position": {"line": "2", "character": 3}}),
        ("onnxtext/saveTensor", {"textDocument": doc, "position": at}),
        ("onnxtext/saveTensor", {"textDocument": doc, "position": {"line": 2}, "path": "/tmp/w.npy"}),
        ("onnxtext/compare", {"textDocument": doc}),
        ("onnxtext/compare", {"textDocument": doc, "a": "x"}),
        ("onnxtext/compareValues", {"textDocument": doc, "a": {"uri": uri, "text": TEXT}, "rtol": -1}),
        ("onnxtext/compareValues", {"textDocument": doc, "a": {"uri": uri}}),
        ("onnxtext/insertNode", {"textDocument": doc}),
        ("onnxtext/insertNode", {"textDocument": doc, "value": "x", "op": {"domain": 1, "name": "Relu"}}),
        ("onnxtext/pasteNodes", {"textDocument": doc, "position": at}),
        ("onnxtext/pasteNodes", {"textDocument": doc, "position": 3, "source": {"uri": uri, "text": TEXT, "range": 1}}),
    ]
    for method, params in cases:
        assert await _refused(client, method, params)


@pytest.mark.asyncio
async def test_a_document_neither_open_nor_readable_is_refused(client: LanguageClient, tmp_path: Path) -> None:
    """A document the client did not open is read from its file: none there, or one that is not text,
    answers invalid-params saying so (not an internal error with the server's traceback)."""
    absent = (tmp_path / "absent.onnxtxt").as_uri()
    binary = tmp_path / "binary.onnxtxt"
    binary.write_bytes(b"\xff\xfe\x00graph")
    for uri in (absent, binary.as_uri()):
        assert uri in await _refused(client, "onnxtext/graph", {"textDocument": {"uri": uri}})
        with pytest.raises(JsonRpcException) as raised:
            await client.text_document_hover_async(L.HoverParams(L.TextDocumentIdentifier(uri), L.Position(0, 0)))
        assert raised.value.code == INVALID_PARAMS
