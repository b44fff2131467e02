"""Requests right after a keystroke: answered from the last analysis, positions carried through the edit.

Through a real client with a 5 s debounce, so each request surely comes before the
change's analysis: the stale type in a hover shows the snapshot answered (the current
text would say otherwise); a position inside the edit is answered from the current text.
"""

from __future__ import annotations

import asyncio

import pytest
from lsp.test_server import _change, _diagnostics, _ready, _slow_analysis
from lsprotocol import types as L
from pytest_lsp import LanguageClient

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x) => (float[N, 4] y) {
   a = Relu (x)
   y = Neg (a)
}
"""


async def _hover(client: LanguageClient, uri: str, line: int, column: int) -> L.Hover | None:
    return await client.text_document_hover_async(
        L.HoverParams(L.TextDocumentIdentifier(uri), L.Position(line, column))
    )


def _markdown(hover: L.Hover | None) -> str:
    assert hover is not None and isinstance(hover.contents, L.MarkupContent)
    return hover.contents.value


@pytest.mark.asyncio
async def test_hover_right_after_a_change_comes_from_the_last_analysis(client: LanguageClient, uri: str) -> None:
    await _ready(client, uri, TEXT)
    await _slow_analysis(client, uri)
    _change(client, uri, 2, (1, 3), (1, 8), "double")  # x: float -> double, the analysis 5 s away
    _change(client, uri, 3, (2, 0), (2, 0), "  ")  # and `a` two columns to the right
    hover = await _hover(client, uri, 2, 6)
    assert "float[N, 4]" in _markdown(hover)  # the last analysis's type: it answered
    assert hover is not None and hover.range == L.Range(L.Position(2, 5), L.Position(2, 6))  # moved with the edit


@pytest.mark.asyncio
async def test_hover_inside_the_edit_asks_the_current_text(client: LanguageClient, uri: str) -> None:
    await _ready(client, uri, TEXT)
    await _slow_analysis(client, uri)
    _change(client, uri, 2, (2, 7), (2, 11), "Tanh")
    assert "Tanh" in _markdown(await _hover(client, uri, 2, 8))


@pytest.mark.asyncio
async def test_definition_and_references_right_after_a_line_is_inserted(client: LanguageClient, uri: str) -> None:
    await _ready(client, uri, TEXT)
    await _slow_analysis(client, uri)
    _change(client, uri, 2, (2, 0), (2, 0), "   b = Abs (x)\n")  # `a` now on line 3, `y` on 4
    doc = L.TextDocumentIdentifier(uri)
    found = await client.text_document_definition_async(L.DefinitionParams(doc, L.Position(4, 12)))
    assert isinstance(found, list) and [d.range.start for d in found] == [L.Position(3, 3)]
    refs = await client.text_document_references_async(
        L.ReferenceParams(
            context=L.ReferenceContext(include_declaration=True), text_document=doc, position=L.Position(3, 3)
        )
    )
    assert refs is not None and sorted((r.range.start.line, r.range.start.character) for r in refs) == [(3, 3), (4, 12)]
    lit = await client.text_document_document_highlight_async(L.DocumentHighlightParams(doc, L.Position(3, 3)))
    assert lit is not None and [(h.range.start.line, h.kind) for h in lit] == [
        (3, L.DocumentHighlightKind.Write),
        (4, L.DocumentHighlightKind.Read),
    ]


@pytest.mark.asyncio
async def test_semantic_tokens_delta(client: LanguageClient, uri: str) -> None:
    await _ready(client, uri, TEXT)
    doc = L.TextDocumentIdentifier(uri)
    full = await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))
    assert full is not None and full.result_id is not None
    _change(client, uri, 2, (2, 7), (2, 11), "Sigmoid")  # one token longer
    await _diagnostics(client, uri)
    delta = await client.text_document_semantic_tokens_full_delta_async(
        L.SemanticTokensDeltaParams(doc, full.result_id)
    )
    assert isinstance(delta, L.SemanticTokensDelta)
    assert len(delta.edits) == 1 and len(delta.edits[0].data or []) < len(full.data)  # only what changed
    again = await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))
    assert again is not None
    data = list(full.data)
    for edit in delta.edits:
        data[edit.start : edit.start + edit.delete_count] = edit.data or []
    assert data == list(again.data)  # the delta applied gives the full answer
    stale = await client.text_document_semantic_tokens_full_delta_async(L.SemanticTokensDeltaParams(doc, "no such id"))
    assert isinstance(stale, L.SemanticTokens) and list(stale.data) == data  # an unknown id: everything


@pytest.mark.asyncio
async def test_outline_and_tokens_after_a_change_start_the_analysis_at_once(client: LanguageClient, uri: str) -> None:
    """What the editor asks for after each change waits for the change's analysis, started at once
    rather than after the (here 5 s) debounce, and answers for the new text; no parse on the
    event loop in between."""
    await _ready(client, uri, TEXT)
    await _slow_analysis(client, uri)
    client.diagnostics.pop(uri, None)
    _change(client, uri, 2, (2, 0), (2, 0), "   b = Abs (x)\n")
    doc = L.TextDocumentIdentifier(uri)
    symbols = await asyncio.wait_for(client.text_document_document_symbol_async(L.DocumentSymbolParams(doc)), timeout=4)
    assert symbols is not None and "b" in _names(symbols)
    assert uri in client.diagnostics  # the change's analysis ran (and published) before the answer
    tokens = await asyncio.wait_for(
        client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc)), timeout=4
    )
    assert tokens is not None and _token_lines(list(tokens.data)) >= {2, 3, 4}


def _names(symbols: object) -> set[str]:
    out: set[str] = set()
    for s in symbols or []:  # type: ignore[attr-defined]
        out.add(s.name)
        out |= _names(getattr(s, "children", None))
    return out


def _token_lines(data: list[int]) -> set[int]:
    line, lines = 0, set()
    for i in range(0, len(data), 5):
        line += data[i]
        lines.add(line)
    return lines
