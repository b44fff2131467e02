"""Edits re-read incrementally in the server answer as a fresh open of the same text does.

Through a real client: a document is edited keystroke by keystroke and line by line (each
analysis made from the one before, ``DocumentHost._edited``); its diagnostics and hovers then
equal those of the same final text opened fresh. The host's own tests, without a client, are in
``tests/host/``.
"""

from __future__ import annotations

import pytest
from lsp.test_server import _change, _diagnostics, _open, _ready
from lsprotocol import types as L
from pytest_lsp import LanguageClient

STATEMENTS = 400


def _text() -> str:
    lines = ['<ir_version: 8, opset_import: ["" : 18]>', f"main (float[N, 16] X0) => (float[N, 16] X{STATEMENTS})", "{"]
    lines += [f"   X{i + 1} = Relu (X{i})" for i in range(STATEMENTS)]
    return "\n".join([*lines, "}"]) + "\n"


def _offset(text: str, line: int, column: int) -> int:
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return starts[line] + column


def _key(d: L.Diagnostic) -> tuple[object, ...]:
    return (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.message)


async def _hover(client: LanguageClient, uri: str, line: int, column: int) -> str | None:
    found = await client.text_document_hover_async(
        L.HoverParams(L.TextDocumentIdentifier(uri), L.Position(line, column))
    )
    if found is None:
        return None
    assert isinstance(found.contents, L.MarkupContent)
    return f"{found.range}: {found.contents.value}"


@pytest.mark.asyncio
async def test_typing_into_a_big_document_answers_as_a_fresh_open(client: LanguageClient, uri: str) -> None:
    text = _text()
    await _ready(client, uri, text)
    version = 1
    middle = 3 + STATEMENTS // 2
    op = text.split("\n")[middle].index("Relu")
    edits: list[tuple[tuple[int, int], tuple[int, int], str]] = [((middle, op), (middle, op + 4), "Tanh")]
    # a new statement typed a character at a time at the start of the middle line
    typed = "   Y = Add (X5, Z)\n"
    edits += [((middle, i), (middle, i), ch) for i, ch in enumerate(typed)]
    edits.append(((middle + 5, 0), (middle + 6, 0), ""))  # a line deleted: its value is used below
    edits.append(((middle + 1, op), (middle + 1, op + 4), "Sigmoid"))
    current = text
    for start, end, new in edits:
        version += 1
        _change(client, uri, version, start, end, new)
        edited = await _diagnostics(client, uri)
        current = current[: _offset(current, *start)] + new + current[_offset(current, *end) :]
    fresh = uri.replace("model.onnxtxt", "fresh.onnxtxt")
    _open(client, fresh, current)
    opened = await _diagnostics(client, fresh)
    assert {_key(d) for d in edited} == {_key(d) for d in opened}
    assert any(d.code for d in opened)  # the undefined Z and the deleted value's uses
    for line, column in ((middle, 4), (middle + 1, 8), (middle + 3, 4), (middle + 20, 12), (3, 4)):
        assert await _hover(client, uri, line, column) == await _hover(client, fresh, line, column)
