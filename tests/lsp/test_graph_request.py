"""``onnxtext/graph`` through a real client: the graph of the open text, with LSP ranges."""

from __future__ import annotations

import asyncio

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


def _scoped(nodes: int) -> str:
    lines = ['<ir_version: 8, opset_import: ["" : 18]>', "g (float[2] x0) => (float[2] y) {"]
    lines += [f'   ["/encoder/layer.{i * 2 // nodes}/Relu_{i}"] x{i + 1} = Relu (x{i})' for i in range(nodes)]
    return "\n".join([*lines, f"   y = Identity (x{nodes})", "}", ""])


@pytest.mark.asyncio
async def test_a_big_graph_folded_first_then_whole(client: LanguageClient, uri: str) -> None:
    """``folded: true`` answers a big graph's folded top level (what a view opening it draws), then
    the whole graph; a small graph is whole either way; a ``folded`` not a boolean is invalid."""
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, _scoped(500))))
    doc = {"textDocument": {"uri": uri}}
    part = await client.protocol.send_request_async("onnxtext/graph", {**doc, "folded": True})
    assert part.total == 503 and [(g.id, g.count) for g in part.groups] == [("group:scope:/encoder", 500)]
    assert sorted(n.id for n in part.nodes) == ["output:y", "x0", "y"]
    assert {(e.value, e.source, e.target) for e in part.edges} == {
        ("x0", "x0", "group:scope:/encoder"),
        ("x500", "group:scope:/encoder", "y"),
        ("y", "y", "output:y"),
    }
    whole = await client.protocol.send_request_async("onnxtext/graph", {**doc, "folded": False})
    assert len(whole.nodes) == 503 and len(whole.groups) == 3 and not hasattr(whole, "total")
    version = L.VersionedTextDocumentIdentifier(version=2, uri=uri)
    small_text = L.TextDocumentContentChangeWholeDocument(TEXT)
    client.text_document_did_change(L.DidChangeTextDocumentParams(version, [small_text]))
    small = await client.protocol.send_request_async("onnxtext/graph", {**doc, "folded": True})
    assert [n.op for n in small.nodes if n.kind == "op"] == ["Relu", "Neg"] and not hasattr(small, "total")
    with pytest.raises(Exception, match="folded"):
        await client.protocol.send_request_async("onnxtext/graph", {**doc, "folded": "yes"})


_SEVERITY = {L.DiagnosticSeverity.Error: "error", L.DiagnosticSeverity.Warning: "warning"}
_SEVERITY |= {L.DiagnosticSeverity.Information: "info", L.DiagnosticSeverity.Hint: "hint"}
_RANK = ["hint", "info", "warning", "error"]


def _badges(nodes: list, diagnostics: list[L.Diagnostic]) -> dict[str, str]:
    """The node of each diagnostic (the innermost statement holding its start) and its worst severity."""

    def key(p: L.Position) -> tuple[int, int]:
        return p.line, p.character

    found: dict[str, str] = {}
    for d in diagnostics:
        at = key(d.range.start)
        holding = [n for n in nodes if key(n.range.start) <= at < key(n.range.end)]
        if not holding:
            continue
        node = max(holding, key=lambda n: key(n.range.start))
        severity = _SEVERITY[d.severity]
        if node.id not in found or _RANK.index(found[node.id]) < _RANK.index(severity):
            found[node.id] = severity
    return found


@pytest.mark.asyncio
async def test_the_graph_of_a_view_by_reference_marks_what_is_published(client: LanguageClient, tmp_path) -> None:
    """A model whose text is too big for the editor is shown with its weights by reference: the
    graph badges exactly the diagnostics the Problems panel shows (none on the references)."""
    import numpy as np

    import onnxtext
    from onnxtext.io import model_bytes
    from onnxtext.proto import TensorProto

    model = onnxtext.parse_model(
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[500, 1000] x) => (float[500, 1000] y) {\n'
        "   h = Add (x, w0)\n   k = Relu <alpha = 1.0> (h)\n   y = Add (k, w1)\n}\n"
    )
    rng = np.random.default_rng(0)
    for name in ("w0", "w1"):  # 4 MB of weights: a text of 18 MB, above the editor's limit
        t = model.graph.initializer.add(name=name, data_type=TensorProto.FLOAT, dims=[500, 1000])
        t.raw_data = rng.standard_normal(500_000).astype(np.float32).tobytes()
    path = tmp_path / "m.onnx"
    path.write_bytes(model_bytes(model))
    opened = await client.protocol.send_request_async("onnxtext/openBinary", {"uri": path.as_uri()})
    assert opened.note is not None and opened.text.count('["digest": "sha256:') == 2  # by reference
    uri = "onnx-model:" + path.as_uri().removeprefix("file:")
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, opened.text)))
    while uri not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=60)
    published = list(client.diagnostics[uri])
    found = await client.protocol.send_request_async("onnxtext/graph", {"textDocument": {"uri": uri}})
    marked = {n.id: n.severity for n in found.nodes if n.severity is not None}
    assert marked == _badges(found.nodes, published)
    assert marked == {"k": "error"}  # the unknown attribute, and nothing on the weights w0, w1


WEIGHTED = """<ir_version: 8, opset_import: ["" : 18]>
g (float[1, 2] x) => (float[1, 3] y)
   <float[3, 2] w = {1, 2, 3, 4, 5, 6}>
{
   y = Gemm <transB = 1> (x, w)
}
"""


@pytest.mark.asyncio
async def test_the_properties_of_a_node_and_a_weight_saved_as_npy(client: LanguageClient, uri: str, tmp_path) -> None:
    """``onnxtext/graphProperties`` answers the panel of the statement at a position (a node: its
    attributes and its weight's statistics); ``onnxtext/saveTensor`` writes a weight as ``.npy``."""
    import numpy as np

    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, WEIGHTED)))
    doc = {"textDocument": {"uri": uri}}
    found = await client.protocol.send_request_async(
        "onnxtext/graphProperties", {**doc, "position": {"line": 4, "character": 8}}
    )
    assert (found.op, found.attributes) == ("Gemm", [["transB", "1"]])
    weight = found.inputs[1].weight
    assert (weight.name, weight.shape, weight.stats.min, weight.stats.max, weight.stats.mean) == (
        "w",
        [3, 2],
        1,
        6,
        3.5,
    )
    target = tmp_path / "w.npy"
    said = await client.protocol.send_request_async(
        "onnxtext/saveTensor", {**doc, "position": {"line": 2, "character": 16}, "path": str(target)}
    )
    assert said.written == f"float32[3, 2] to {target}"
    assert np.load(target).tolist() == [[1, 2], [3, 4], [5, 6]]
    refused = await client.protocol.send_request_async(
        "onnxtext/saveTensor", {**doc, "position": {"line": 4, "character": 8}, "path": str(tmp_path / "g.npy")}
    )
    assert refused.refused == "no weight or constant here"
    with pytest.raises(Exception, match="absolute"):
        await client.protocol.send_request_async(
            "onnxtext/saveTensor", {**doc, "position": {"line": 2, "character": 16}, "path": "w.npy"}
        )
