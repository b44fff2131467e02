"""A burst of typing through a real server publishes what a fresh open of the same text does (#30).

Seeded typing-style edits (``differential_edits.edit``) sent as ``didChange``s, a few at a
time without waiting (the server's debounce joins them, or re-reads each from the last), over
texts with typos, functions, subgraphs, a body left unclosed and a brace closing a function
too early. After each burst the published diagnostics, the quick fixes' edits (their ranges
and what they replace in the text) and the semantic tokens equal those of the same text
opened fresh under another name.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from differential_edits import HAND, ROOT, WELL_FORMED, Edit, edit, statements
from lsp.test_server import _change, _open
from lsprotocol import types as L
from pytest_lsp import LanguageClient

from onnxtext.document import parse_document
from onnxtext.host.change import Change
from onnxtext.span import SourceFile

EDITS = 420
"""Edits in all, over the texts (about 10 s)."""
SESSION = 8
"""After this many edits an undo goes back to the original text (damage accumulates otherwise)."""
SECONDS = 90
"""The burst stops early past this (a loaded machine); at least half the edits must be made."""


def _texts() -> list[tuple[str, str]]:
    names = ("typos", "functions", "unclosed", "stray_brace", "subgraphs", "comments")
    texts = [(name, HAND[name]) for name in names]
    return texts + [(p.name, p.read_text(encoding="utf-8")) for p in (ROOT / "examples").glob("local_function.onnxtxt")]


def _key(d: L.Diagnostic) -> tuple[Any, ...]:
    r = d.range
    return (d.code, r.start.line, r.start.character, r.end.line, r.end.character, d.message)


async def _answers(client: LanguageClient, uri: str, text: str) -> dict[str, Any]:
    """What the server says of ``uri`` once its current version is analysed."""
    doc = L.TextDocumentIdentifier(uri)
    await client.text_document_document_symbol_async(L.DocumentSymbolParams(doc))  # waits for the analysis
    published = sorted(_key(d) for d in client.diagnostics.get(uri, []))  # sent before that answer
    source = SourceFile(text)
    whole = L.Range(L.Position(0, 0), L.Position(*source.lsp_position(len(text))))
    actions = await client.text_document_code_action_async(
        L.CodeActionParams(doc, whole, L.CodeActionContext(diagnostics=[]))
    )
    fixes = []
    for action in actions or []:
        assert isinstance(action, L.CodeAction) and action.edit is not None
        edits = []
        for change in action.edit.document_changes or []:
            assert isinstance(change, L.TextDocumentEdit)
            for e in change.edits:
                start = source.offset_of_lsp(e.range.start.line, e.range.start.character)
                end = source.offset_of_lsp(e.range.end.line, e.range.end.character)
                edits.append((start, end, text[start:end], e.new_text))
        fixes.append((action.title, edits))
    tokens = await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))
    return {"published": published, "fixes": sorted(fixes), "tokens": tokens.data if tokens is not None else None}


def _before(text: str, edits: list[Edit]) -> str:
    for change in edits:
        text = change.apply(text)
    return text


def _lsp_change(client: LanguageClient, uri: str, version: int, text: str, change: Edit) -> None:
    source = SourceFile(text)
    _change(client, uri, version, source.lsp_position(change.start), source.lsp_position(change.end), change.new)


@pytest.mark.asyncio
async def test_a_burst_of_typing_publishes_what_a_fresh_open_does(client: LanguageClient, uri: str) -> None:
    rng = random.Random("didChange")
    texts = _texts()
    per_text = EDITS // len(texts)
    made = compared = 0
    began = time.monotonic()
    for n, (name, original) in enumerate(texts):
        edited = uri.replace("model.onnxtxt", f"edited{n}.onnxtxt")
        _open(client, edited, original)
        text, version, done = original, 1, 0
        trail: list[Edit] = []  # the edits from the original text
        history: list[Edit] = []  # every edit sent (the failure's message)
        while done < per_text and time.monotonic() - began < SECONDS:
            for _ in range(rng.choice((1, 1, 2, 3, 4))):  # sent without waiting: typing
                if trail and rng.random() < 0.2:  # an undo of the last few edits (or all), as one change
                    back = _before(original, trail[: len(trail) - rng.randint(1, min(4, len(trail)))])
                    back = original if len(trail) > SESSION else back
                    trail = [] if back is original else trail
                    shift = Change.between(text, back)
                    change = Edit(shift.start, shift.old_end, back[shift.start : shift.new_end], "undo")
                else:
                    kinds = WELL_FORMED if rng.random() < 0.5 else ()  # damage hides what the cache reuses
                    change = edit(rng, text, statements(parse_document(text, "model", "m")), kinds)
                version += 1
                _lsp_change(client, edited, version, text, change)
                text = change.apply(text)
                history.append(change)
                if change.kind != "undo" or trail:
                    trail.append(change)
                done += 1
            got = await _answers(client, edited, text)
            fresh = uri.replace("model.onnxtxt", f"fresh{n}_{version}.onnxtxt")
            _open(client, fresh, text)
            want = await _answers(client, fresh, text)
            client.text_document_did_close(L.DidCloseTextDocumentParams(L.TextDocumentIdentifier(fresh)))
            differ = [key for key in want if got[key] != want[key]]
            assert not differ, f"{name}: {differ} differ after {history}\n--- text\n{text}"
            compared += 1
        made += done
    assert made >= EDITS // 2 and compared >= made // 4
