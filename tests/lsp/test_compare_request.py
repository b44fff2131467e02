"""``onnxtext/compare`` through a real client: B's open text against A's text as the client holds it, the
graph of B marked and each change with its statement in both texts."""

from __future__ import annotations

import pytest
from lsprotocol import types as L
from pytest_lsp import LanguageClient

A = """<ir_version: 9, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
   h = Relu (x)
   y = Neg (h)
}
"""
B = A.replace("Relu (x)", "Tanh (x)")


def _open(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, text)))


@pytest.mark.asyncio
async def test_compare_a_given_text_with_the_open_one(client: LanguageClient, uri: str) -> None:
    _open(client, uri, B)
    found = await client.protocol.send_request_async(
        "onnxtext/compare", {"textDocument": {"uri": uri}, "a": {"uri": uri, "text": A}}
    )
    assert not found.same
    assert [c.text for c in found.changes] == ["~ node 'h' (Relu → Tanh)"]
    change = found.changes[0]
    assert (change.a.start.line, change.b.start.line) == (2, 2)
    marked = {n.id: n.mark for n in found.graph.nodes if hasattr(n, "mark")}
    assert marked == {"h": "changed"}
    same = await client.protocol.send_request_async(
        "onnxtext/compare", {"textDocument": {"uri": uri}, "a": {"uri": uri, "text": B}}
    )
    assert same.same and same.changes == []


@pytest.mark.asyncio
async def test_compare_two_open_texts_and_a_damaged_one(client: LanguageClient, tmp_path) -> None:
    a_uri, b_uri = (tmp_path / "a.onnxtxt").as_uri(), (tmp_path / "b.onnxtxt").as_uri()
    _open(client, a_uri, A)
    _open(client, b_uri, A.replace("   y = Neg (h)\n", "   t = Abs (h)\n   y = Neg (t)\n"))
    found = await client.protocol.send_request_async(
        "onnxtext/compare", {"textDocument": {"uri": b_uri}, "a": {"uri": a_uri, "text": A}}
    )
    added = [c for c in found.changes if c.sign == "+"]
    assert len(added) == 1 and added[0].a is None and added[0].b.start.line == 3
    assert {n.id: n.mark for n in found.graph.nodes if hasattr(n, "mark")}["t"] == "added"
    damaged = {"textDocument": {"uri": b_uri}, "a": {"uri": a_uri, "text": A.replace("Relu (x)", "Relu (x")}}
    assert await client.protocol.send_request_async("onnxtext/compare", damaged) is None
    with pytest.raises(Exception, match="'a'"):
        no_text = {"textDocument": {"uri": b_uri}, "a": {"uri": a_uri}}
        await client.protocol.send_request_async("onnxtext/compare", no_text)
