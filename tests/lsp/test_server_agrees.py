"""The real server publishes what ``onnxtext check`` and ``onnxtext.check`` report (one policy)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types as L
from pytest_lsp import LanguageClient

import onnxtext
from onnxtext.lsp.convert import lsp_diagnostic

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = '<ir_version: 8, opset_import: ["" : 18]>\ng (flaot[2] x) => (float[2] y) { y = Rleu (x) }\n'


async def _published(client: LanguageClient, uri: str, text: str) -> set[tuple[object, int, int]]:
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, text)))

    async def wait() -> list[L.Diagnostic]:
        while uri not in client.diagnostics:
            await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])

    return {(d.code, d.range.start.line, d.range.start.character) for d in await asyncio.wait_for(wait(), timeout=60)}


def _checked(path: Path) -> set[tuple[object, int, int]]:
    """What the API reports, in the protocol's positions (0-based, UTF-16 columns)."""
    doc = onnxtext.parse_document(path.read_text(encoding="utf-8"), "model", str(path))
    found = [lsp_diagnostic(d, doc.source, path.as_uri()) for d in onnxtext.check(path)]
    return {(d.code, d.range.start.line, d.range.start.character) for d in found}


@pytest.mark.asyncio
async def test_the_issue_example_gives_l001_and_e301_only(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "m.onnxtxt"
    path.write_text(EXAMPLE, encoding="utf-8")
    assert await _published(client, path.as_uri(), EXAMPLE) == {("L001", 1, 3), ("E301", 1, 37)} == _checked(path)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_server_agrees_with_the_api_on_every_golden_and_example(client: LanguageClient, tmp_path: Path) -> None:
    files = sorted((ROOT / "tests" / "golden").glob("*.onnxtxt")) + sorted((ROOT / "examples").glob("*.onnxtxt"))
    assert len(files) > 30
    for k, source in enumerate(files):
        text = source.read_text(encoding="utf-8")
        broken = text.replace("float", "flaot", 1)  # and a lowering error in each, with its knock-ons
        for j, body in enumerate((text, broken)):
            folder = tmp_path / f"{k}-{j}"
            folder.mkdir()
            path = folder / source.name
            path.write_text(body, encoding="utf-8")
            assert await _published(client, path.as_uri(), body) == _checked(path), source.name
