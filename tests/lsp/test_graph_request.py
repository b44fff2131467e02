"""``onnxtext/graph`` through a real client: the graph of the open text, with LSP ranges."""

from __future__ import annotations

import pytest
from lsprotocol import types as L
from pytest_lsp import LanguageClient

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
   h = Relu (x)
   y = Neg (h)
}
"""


@pytest.mark.asyncio
async def test_graph_of_the_open_text(client: LanguageClient, uri: str) -> None:
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, TEXT)))
    found = await client.protocol.send_request_async("onnxtext/graph", {"textDocument": {"uri": uri}})
    ops = [n for n in found.nodes if n.kind == "op"]
    assert [(n.op, n.range.start.line, n.range.start.character) for n in ops] == [("Relu", 2, 3), ("Neg", 3, 3)]
    edges = {(e.value, e.source, e.target, e.type) for e in found.edges}
    assert ("h", "h", "y", "float[2]") in edges and ("x", "x", "h", "float[2]") in edges
    client.text_document_did_change(
        L.DidChangeTextDocumentParams(
            L.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [L.TextDocumentContentChangePartial(L.Range(L.Position(3, 7), L.Position(3, 10)), "Abs")],
        )
    )
    again = await client.protocol.send_request_async("onnxtext/graph", {"textDocument": {"uri": uri}})
    assert [n.op for n in again.nodes if n.kind == "op"] == ["Relu", "Abs"]
    with pytest.raises(Exception, match="textDocument"):
        await client.protocol.send_request_async("onnxtext/graph", {"uri": uri})
