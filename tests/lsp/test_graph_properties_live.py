"""``onnxtext/graphProperties`` and hover through a real client with live values on: every value's
statistics (std and histogram too) in the panel as a weight's, and in the hover."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from lsprotocol import types as L
from pytest_lsp import LanguageClient

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] x) => (float[N, 3] y)
   <float[3] w = {1, 2, 3}>
{
   a = Add (x, w)
   y = Neg (a)
}
"""


@pytest.mark.asyncio
async def test_the_panel_and_the_hover_of_a_live_value(client: LanguageClient, uri: str) -> None:
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, TEXT)))
    doc = {"textDocument": {"uri": uri}}
    at_neg = {**doc, "position": {"line": 5, "character": 8}}
    before = await client.protocol.send_request_async("onnxtext/graphProperties", at_neg)
    assert before.op == "Neg" and before.inputs[0].live == "" and getattr(before.inputs[0], "stats", None) is None
    on = await client.workspace_execute_command_async(
        L.ExecuteCommandParams(command="onnxtext.toggleLiveValues", arguments=[uri])
    )
    assert on is True

    async def panel() -> Any:
        while True:  # the run takes a moment: ask until its values are there
            published = asyncio.ensure_future(client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))
            found = await client.protocol.send_request_async("onnxtext/graphProperties", at_neg)
            if found.inputs[0].live:
                published.cancel()
                return found
            await published

    found = await asyncio.wait_for(panel(), timeout=60)
    (a,) = found.inputs
    (y,) = found.outputs
    assert a.live.startswith("float32[2, 3] min=") and y.live.startswith("float32[2, 3] min=")
    for port in (a, y):
        s = port.stats
        assert (s.count, s.nonfinite) == (6, 0)
        assert s.min <= s.mean <= s.max and s.std > 0
        assert len(s.histogram.counts) == 24 and sum(s.histogram.counts) == 6
        assert (s.histogram.lo, s.histogram.hi) == (s.min, s.max)
    assert y.stats.min == pytest.approx(-a.stats.max, abs=1e-5) and y.stats.std == pytest.approx(a.stats.std, 1e-5)
    assert f"min={a.stats.min:.6g}" in a.live  # the same numbers as the summary's
    # the hover of the value says the same, and the weight its own statistics
    hover = await client.text_document_hover_async(L.HoverParams(L.TextDocumentIdentifier(uri), L.Position(5, 12)))
    assert hover is not None and isinstance(hover.contents, L.MarkupContent)
    assert "live value: `float32[2, 3]" in hover.contents.value and f"std {a.stats.std:.4g}" in hover.contents.value
    weight = await client.text_document_hover_async(L.HoverParams(L.TextDocumentIdentifier(uri), L.Position(4, 15)))
    assert weight is not None and isinstance(weight.contents, L.MarkupContent)
    assert "data: in the text" in weight.contents.value
    assert "3 values: min 1 · max 3 · mean 2 · std 0.8165" in weight.contents.value
