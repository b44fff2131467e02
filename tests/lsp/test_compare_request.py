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


WEIGHTED = """<ir_version: 9, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y)
   <float[2] w = {1, 2}>
{
   a = Abs (x)
   h = Mul (a, w)
   t = Tanh (h)
   y = Neg (t)
}
"""


def _values(b_uri: str, a_uri: str, text: str, **tolerance: float) -> dict[str, object]:
    return {"textDocument": {"uri": b_uri}, "a": {"uri": a_uri, "text": text}, **tolerance}


@pytest.mark.asyncio
async def test_compare_values_finds_the_first_value_that_differs(client: LanguageClient, uri: str) -> None:
    # B's weight perturbed: the node reading it is where the models part, nothing before it differs
    _open(client, uri, WEIGHTED.replace("{1, 2}", "{1, 2.5}"))
    found = await client.protocol.send_request_async("onnxtext/compareValues", _values(uri, uri, WEIGHTED))
    assert found.reason is None, found.reason
    by_name = {v.b: v for v in found.values}
    assert [v.b for v in found.values] == ["a", "h", "t", "y"]
    assert [(v.b, v.differs) for v in found.values] == [("a", False), ("h", True), ("t", True), ("y", True)]
    assert by_name["a"].max_abs == 0.0 and by_name["h"].max_abs > 0 and by_name["h"].op == "Mul"
    assert found.first == ["h"]
    assert (by_name["h"].at.line, by_name["h"].at.character) == (5, 4)  # right after `h` in `   h = Mul (a, w)`
    assert [o.b for o in found.outputs] == ["y"] and found.compared == 4
    assert found.inputs.startswith("made-up inputs x")
    differs = {e.value: e.live for e in found.graph.edges if getattr(e, "mark", None) == "differs"}
    assert set(differs) == {"h", "t", "y"} and differs["h"] == f"Δ {by_name['h'].max_abs:.3g}"
    # the request's tolerance: the same run agrees within a wide one
    wide = await client.protocol.send_request_async("onnxtext/compareValues", _values(uri, uri, WEIGHTED, atol=10.0))
    assert [v.differs for v in wide.values] == [False] * 4 and wide.first == [] and wide.outputs == []


@pytest.mark.asyncio
async def test_compare_values_needs_two_valid_models(client: LanguageClient, uri: str) -> None:
    _open(client, uri, WEIGHTED)
    damaged = await client.protocol.send_request_async(
        "onnxtext/compareValues", _values(uri, uri, WEIGHTED.replace("Abs (x)", "Abs (x"))
    )
    assert damaged.values is None and damaged.reason.startswith("A not a valid model")
    # a model that fails to run: the reason says which and why
    failing = WEIGHTED.replace("float[2] w = {1, 2}", "float[3] w = {1, 2, 3}")
    failed = await client.protocol.send_request_async("onnxtext/compareValues", _values(uri, uri, failing))
    assert failed.values is None and failed.reason.startswith("A failed to run"), failed.reason
    with pytest.raises(Exception, match="atol"):
        await client.protocol.send_request_async("onnxtext/compareValues", _values(uri, uri, WEIGHTED, atol=-1.0))


@pytest.mark.asyncio
async def test_compare_values_runs_on_the_inputs_b_runs_on(client: LanguageClient, tmp_path) -> None:
    # B's inputs file (as its live values): x = 0, so the perturbed weight multiplies zeros and nothing differs
    path = tmp_path / "model.onnxtxt"
    uri = path.as_uri()
    _open(client, uri, WEIGHTED.replace("{1, 2}", "{1, 2.5}"))
    (tmp_path / "model.onnxtxt.inputs.json").write_text('{"x": [0, 0]}')
    found = await client.protocol.send_request_async("onnxtext/compareValues", _values(uri, uri, WEIGHTED))
    assert found.inputs == "the inputs given"
    assert [v.max_abs for v in found.values] == [0.0] * 4 and found.first == [] and found.outputs == []
    (tmp_path / "model.onnxtxt.inputs.json").write_text('{"z": [0, 0]}')
    unknown = await client.protocol.send_request_async("onnxtext/compareValues", _values(uri, uri, WEIGHTED))
    assert unknown.values is None and "no input named 'z'" in unknown.reason, unknown.reason
