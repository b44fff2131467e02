"""Every exporter model's printed text (``corpus.exporters``) opened in the language server.

One session opens them one after the other; for each: the diagnostics published have no error
where onnx.checker accepts the model (our checker may warn more, never refuse a valid model),
and the requests an editor makes on opening (symbols, folding, semantic tokens, code lenses,
inlay hints, a hover, the graph view) all answer. Nothing is logged as an error.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from lsprotocol import types as L
from pytest_lsp import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from corpus.backend import onnx_checker_rejection  # noqa: E402
from corpus.exporters import GENERATORS  # noqa: E402
from test_deep_nesting_lsp import _published  # noqa: E402

from onnxtext import to_text  # noqa: E402
from onnxtext.proto import ModelProto  # noqa: E402

onnx = pytest.importorskip("onnx")

OPERATOR = re.compile(r"^\s+(?:\[[^]]*\] )?[\w\", /.:-]+ = ([A-Za-z][\w.]*) ?[<(]")


@pytest.mark.slow
@pytest.mark.asyncio
async def test_every_exported_model_opens_in_the_server(client: LanguageClient, tmp_path: Path) -> None:
    opened = 0
    for name, gen in GENERATORS.items():
        if not gen.installed():
            continue
        data = gen.ensure().read_bytes()
        text = to_text(ModelProto.FromString(data))
        uri = (tmp_path / f"{name}.onnxtxt").as_uri()
        doc = L.TextDocumentIdentifier(uri)
        client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, text)))
        diagnostics = await _published(client, uri)
        if onnx_checker_rejection(onnx.ModelProto.FromString(data)) is None:
            errors = [d for d in diagnostics if d.severity == L.DiagnosticSeverity.Error]
            assert not errors, (name, [(d.code, d.message) for d in errors[:5]])
        symbols = await client.text_document_document_symbol_async(L.DocumentSymbolParams(doc))
        assert symbols, name
        assert await client.text_document_folding_range_async(L.FoldingRangeParams(doc)), name
        tokens = await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))
        assert tokens is not None and tokens.data, name
        await client.text_document_code_lens_async(L.CodeLensParams(doc))
        lines = text.count("\n")
        await client.text_document_inlay_hint_async(
            L.InlayHintParams(doc, L.Range(L.Position(0, 0), L.Position(lines, 0)))
        )
        # a hover on the first node statement's operator
        line, column = next(
            (i, m.start(1)) for i, s in enumerate(text.splitlines()) if (m := OPERATOR.search(s)) is not None
        )
        hover = await client.text_document_hover_async(L.HoverParams(doc, L.Position(line, column)))
        assert hover is not None, (name, line, column)
        graph = await client.protocol.send_request_async("onnxtext/graph", {"textDocument": {"uri": uri}})
        assert graph, name
        client.text_document_did_close(L.DidCloseTextDocumentParams(doc))
        opened += 1
    if not opened:
        pytest.skip("no exporter installed")
    assert not [m.message for m in client.log_messages if m.type == L.MessageType.Error]
