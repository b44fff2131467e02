"""The server on graphs nested to protobuf's limit and far beyond it: diagnostics (L009 past it,
at the first statement past the limit) and every document request answer, no error logged."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from lsprotocol import types as L
from pytest_lsp import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_deep_nesting import LIMIT, _first_past_limit, nested_if  # noqa: E402


async def _published(client: LanguageClient, uri: str) -> list[L.Diagnostic]:
    async def wait() -> list[L.Diagnostic]:
        while uri not in client.diagnostics:
            await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(wait(), timeout=120)


@pytest.mark.asyncio
async def test_server_at_and_past_the_limit(client: LanguageClient, tmp_path: Path) -> None:
    for depth in (LIMIT, LIMIT + 1, 3000):
        uri = (tmp_path / f"d{depth}.onnxtxt").as_uri()
        text = nested_if(depth)
        client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, text)))
        diags = await _published(client, uri)
        if depth == LIMIT:
            assert diags == []
        else:
            located = [(d.code, d.range.start.line + 1, d.range.start.character + 1) for d in diags if d.code == "L009"]
            assert located == [("L009", 3, _first_past_limit(depth))]
        doc = L.TextDocumentIdentifier(uri)
        assert await client.text_document_document_symbol_async(L.DocumentSymbolParams(doc))
        assert await client.text_document_folding_range_async(L.FoldingRangeParams(doc)) is not None
        assert await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))
        end = L.Position(2, len(text.splitlines()[2]) - 20)
        await client.text_document_hover_async(L.HoverParams(doc, end))
        await client.text_document_completion_async(L.CompletionParams(doc, end))
        await client.text_document_inlay_hint_async(L.InlayHintParams(doc, L.Range(L.Position(0, 0), L.Position(4, 0))))
        edits = await client.text_document_formatting_async(
            L.DocumentFormattingParams(doc, L.FormattingOptions(3, True))
        )
        assert bool(edits) == (
            depth != 3000
        )  # the formatter needs no protobuf: it stops only where no graph can be read
    assert not [m for m in client.log_messages if m.type == L.MessageType.Error]
