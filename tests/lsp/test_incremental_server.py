"""Edits re-read incrementally in the server answer as a fresh open of the same text does.

Through a real client: a document is edited keystroke by keystroke and line by line (each
analysis made from the one before, ``OnnxTextServer._edited``); its diagnostics and hovers
then equal those of the same final text opened fresh. In process: the hand-over of the last
analysed document (``onnxtext/lease.py``) happens only when no worker holds it.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future

import pytest
from lsp.test_server import _change, _diagnostics, _open, _ready
from lsprotocol import types as L
from pytest_lsp import LanguageClient

from onnxtext.lsp.diagnose import Outcome, Settings, diagnose
from onnxtext.lsp.session import OnnxTextServer, State, _cache_for

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


def _analysed() -> tuple[OnnxTextServer, str, str, State]:
    """A server (not started) holding an analysed version 1 of the text."""
    server = OnnxTextServer()
    uri = "file:///m.onnxtxt"
    text = _text()
    state = State()
    server.states[uri] = state
    state.outcome = diagnose(text, uri, Settings(), threading.Event())
    state.outcome_version = 1
    return server, uri, text, state


@pytest.mark.asyncio
async def test_the_last_analysis_is_handed_over_only_when_no_worker_reads_it() -> None:
    server, uri, text, state = _analysed()
    edited = text.replace("X7 = Relu", "X7 = Tanh")

    held = state.outcome
    with held.document.lease.reading():
        assert await server._edited(uri, state, 2, edited) is None  # a worker reads it: left alone
    assert state.outcome is held and not held.document.lease.consumed

    doc = await server._edited(uri, state, 2, edited)
    assert doc is not None and doc.source.text == edited
    assert state.outcome is None and state.parsed is doc and state.parsed_version == 2
    assert held.document.lease.consumed
    with held.document.lease.reading() as readable:
        assert not readable  # a worker starting late finds it gone

    state.outcome = diagnose(edited, uri, Settings(), threading.Event(), doc)
    declined = state.outcome
    assert await server._edited(uri, state, 3, "<ir_version: 7>" + edited[len("<ir_version: 8>") :]) is None
    assert state.outcome is declined and not declined.document.lease.consumed  # the header: parsed whole, untouched


@pytest.mark.asyncio
async def test_typing_on_makes_each_version_from_the_last_one_made() -> None:
    """Versions that come faster than their analyses: each is made from the last one made (its
    analysis superseded and stopped), not parsed whole."""
    server, uri, text, state = _analysed()
    for version, op in ((2, "Tanh"), (3, "Sigmoid"), (4, "Relu")):
        edited = text.replace("X7 = Relu", f"X7 = {op}") if op != "Relu" else text
        doc = await server._edited(uri, state, version, edited)
        assert doc is not None and state.parsed is doc and state.outcome is None
        assert doc.source.text == edited and [n.op_type.value for n in doc.tree.graph.nodes][6] == op


@pytest.mark.asyncio
async def test_typing_back_to_the_analysed_text_keeps_its_document() -> None:
    """A letter typed and deleted before the run (an undo, a burst of edits that cancel out): the
    version's text is the analysed one, and so is its document, not a whole parse (declined before)."""
    server, uri, text, state = _analysed()
    held = state.outcome
    doc = await server._edited(uri, state, 2, text)
    assert doc is held.document and state.parsed is doc and state.parsed_version == 2
    assert not held.document.lease.consumed  # nothing was made from it in place

    edited = text.replace("X7 = Relu", "X7 = Tanh")
    later = await server._edited(uri, state, 3, edited)  # typing on: made from it as usual
    assert later is not None and later.source.text == edited and held.document.lease.consumed


@pytest.mark.asyncio
async def test_type_requests_wait_for_the_running_check_of_a_handed_over_document() -> None:
    """After the hand-over and before the new document's check lands, a hover or the inlay hints
    wait for that check (the worker infers the types from the last version's) instead of
    inferring the whole model again on the event loop; with the last analysis still there they
    are answered from it at once."""
    server, uri, text, state = _analysed()
    await server.settled(uri)  # analysed: nothing to wait for

    doc = await server._edited(uri, state, 2, text.replace("X7 = Relu", "X7 = Tanh"))
    assert doc is not None and state.outcome is None
    job: Future[Outcome] = Future()
    state.analysing = job
    waiting = asyncio.ensure_future(server.settled(uri))
    await asyncio.sleep(0)
    assert not waiting.done()  # the check runs: the types come from it
    job.set_result(diagnose(doc.source.text, uri, Settings(), threading.Event(), doc))
    await asyncio.wait_for(waiting, 5)

    state.outcome, state.outcome_version = job.result(), 2
    state.analysing = Future()  # a newer version's check runs: the last analysis answers meanwhile
    await asyncio.wait_for(server.settled(uri), 5)


def test_a_skipped_recording_is_made_by_the_next_analysis() -> None:
    """The first analysis is published without the cache and recorded after it; when an edit
    came before that recording was done (typing right after opening, a typo and its fix), the
    next version records as it is analysed, so the one after reuses every untouched node
    (it was analysed whole, edit after edit, while each recording was skipped in turn, #30)."""
    server, uri, text, state = _analysed()
    assert _cache_for(State()) is None  # a document's first analysis: published first, recorded after
    state.analysed = True  # published; its recording skipped (the cache still empty)
    settings = Settings()
    middle = 3 + STATEMENTS // 2
    lines = text.split("\n")
    typo = "\n".join([*lines[:middle], lines[middle].replace("(X", "(Q"), *lines[middle + 1 :]])
    for version, edited in ((2, typo), (3, text), (4, text.replace(f"X{middle - 2} = Relu", f"X{middle - 2} = Tanh"))):
        cache = _cache_for(state)
        assert cache is state.analysis
        state.outcome = diagnose(edited, uri, settings, threading.Event(), None, None, cache)
        if version > 2:  # recorded by the version before: only the changed nodes analysed again
            changed = STATEMENTS // 2 if version == 3 else 1  # the fix: the typo's node and all after it
            assert cache.reused == {"infer": STATEMENTS - changed, "check": STATEMENTS - 1}
