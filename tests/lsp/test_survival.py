"""The server never dies: random edit sequences, then every request at random places.

Edits are what editing produces: garbage characters, half-typed lines, deleted ranges,
non-ASCII (including characters outside the BMP, two UTF-16 units), huge pastes. After
them the server must still answer every request without an error and give the right
diagnostics for a clean text.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lsprotocol import types as L
from pytest_lsp import LanguageClient

from onnxtext.span import SourceFile

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.onnxtxt"))
PIECES = [
    "(",
    ")",
    "{",
    "}",
    "<",
    ">",
    "[",
    "]",
    ",",
    "=",
    "=>",
    "@{",
    '"',
    "#",
    "\n",
    "é",
    "😀",
    "\x00",
    "Relu",
    "y = ",
    " ",
    "\t",
]


def _random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    """A character range of ``text`` and its replacement."""
    start = rng.randrange(len(text) + 1)
    end = min(len(text), start + rng.choice([0, 0, 1, 3, 20]))
    kind = rng.random()
    if kind < 0.6:
        new = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 4)))
    elif kind < 0.8:
        new = ""
    elif kind < 0.95:
        line = rng.choice(text.splitlines() or [""])
        new = line[: rng.randrange(len(line) + 1)]  # half-typed copy of a line
    else:
        new = rng.choice(["x" * 20_000, "a = Relu (b)\n" * 2_000, "<" * 5_000])
    return start, end, new


async def _answers_everything(client: LanguageClient, uri: str, text: str, rng: random.Random) -> None:
    source = SourceFile(text)
    doc = L.TextDocumentIdentifier(uri)
    for _ in range(3):
        line, char = source.lsp_position(rng.randrange(len(text) + 1))
        pos = L.Position(line, char)
        await client.text_document_completion_async(L.CompletionParams(doc, pos))
        await client.text_document_signature_help_async(L.SignatureHelpParams(doc, pos))
        await client.text_document_code_action_async(
            L.CodeActionParams(doc, L.Range(pos, pos), L.CodeActionContext(diagnostics=[]))
        )
    await client.text_document_document_symbol_async(L.DocumentSymbolParams(doc))
    await client.text_document_folding_range_async(L.FoldingRangeParams(doc))
    await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))
    await client.text_document_code_lens_async(L.CodeLensParams(doc))
    await client.text_document_formatting_async(L.DocumentFormattingParams(doc, L.FormattingOptions(3, True)))


@pytest.mark.slow
@pytest.mark.asyncio
async def test_random_edit_sequences_leave_the_server_answering(client: LanguageClient, tmp_path: Path) -> None:
    rng = random.Random(20261123)
    sequences = 1_000
    for n in range(sequences):
        uri = (tmp_path / f"m{n}.onnxtxt").as_uri()
        text = rng.choice(EXAMPLES).read_text(encoding="utf-8")
        client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, text)))
        for version in range(2, 2 + rng.randint(1, 6)):
            start, end, new = _random_edit(rng, text)
            source = SourceFile(text)
            change = L.TextDocumentContentChangePartial(
                range=L.Range(L.Position(*source.lsp_position(start)), L.Position(*source.lsp_position(end))), text=new
            )
            client.text_document_did_change(
                L.DidChangeTextDocumentParams(L.VersionedTextDocumentIdentifier(uri=uri, version=version), [change])
            )
            text = text[:start] + new + text[end:]
        if n % 50 == 0:  # every request, at random places of the damaged text
            await _answers_everything(client, uri, text, rng)
        client.text_document_did_close(L.DidCloseTextDocumentParams(L.TextDocumentIdentifier(uri)))
    # still alive and still right
    uri = (tmp_path / "clean.onnxtxt").as_uri()
    good = '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n   y = Rleu (x)\n}\n'
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, good)))
    client.diagnostics.pop(uri, None)
    while uri not in client.diagnostics:
        await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert [d.code for d in client.diagnostics[uri]] == ["E301"]
    assert not [m for m in client.log_messages if m.type == L.MessageType.Error]
