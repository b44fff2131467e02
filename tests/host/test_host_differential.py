"""Through the host itself: typing-style changes applied to a :class:`DocumentHost`, each published
version equal to a fresh analysis of its text (#30).

``differential_edits`` makes the edits (characters inside names, numbers, strings, attribute
lists and brackets, lines joined and split, comments, pasted and cut lines) and compares
(document, diagnostics with their fixes' ranges, types, tokens, graph). Here they go the way the
server sends them: one :class:`Change` per notification, sometimes several before the run (typing
inside the debounce: only the last version is analysed, its document re-read from the last one
made), through the host's own scheduling, re-reading, analysis cache and token rows.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from differential_edits import HAND, WELL_FORMED, _long, analysis_data, edit, fresh_data, statements

import onnxtext.host.documents as documents
from onnxtext.analysis.lineup import Splice
from onnxtext.document import Document
from onnxtext.host import Change, Host, Settings

SESSIONS = 3
STEPS = 8


def _texts() -> list[tuple[str, str]]:
    return [*sorted(HAND.items()), ("long", _long())]


async def _session(name: str, text: str, seed: str) -> int:
    """``STEPS`` bursts of changes over ``text``, each burst's version compared with a fresh analysis."""
    rng = random.Random(seed)
    host = Host(lambda document, snapshot: None, lambda message: None, lambda: None)
    host.settings = Settings(debounce_ms=10_000, evaluate=False)  # the bursts come inside the debounce
    document = host.open("file:///m.onnxtxt", text, 1)
    snap = await document.analysed()
    version, compared = 1, 0
    for _ in range(STEPS):
        burst = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            current = document.text
            kinds = WELL_FORMED if rng.random() < 0.7 else ()  # damage hides what the host re-reads
            made = edit(rng, current, statements(snap.outcome.document) if snap.current else None, kinds)
            version += 1
            burst.append(made)
            document.apply(Change.replacing(made.start, made.end, made.new), version)
        snap = await document.analysed()
        assert snap.current and snap.version == version
        preparing = document.preparing
        if preparing is not None:
            await asyncio.wrap_future(preparing)  # the tokens made ahead, from the last rows
        outcome = snap.outcome
        got = analysis_data(outcome, document.tokens.data(outcome.document)[1])
        want = fresh_data(document.text)
        differ = [key for key in want if got[key] != want[key]]
        assert not differ, f"{name} ({seed}): {differ} differ after {burst}\n--- text\n{document.text}"
        compared += 1
    host.close("file:///m.onnxtxt")
    return compared


@pytest.mark.asyncio
async def test_changes_through_the_host_analyse_as_a_fresh_text(monkeypatch: pytest.MonkeyPatch) -> None:
    reread: list[Document] = []
    real = documents.reread

    def counted(
        previous: Document, text: str, start: int, old_end: int, new_end: int
    ) -> tuple[Document, Splice] | None:
        found = real(previous, text, start, old_end, new_end)
        if found is not None:
            reread.append(found[0])
        return found

    monkeypatch.setattr(documents, "reread", counted)
    compared = 0
    for name, text in _texts():
        for i in range(SESSIONS):
            compared += await _session(name, text, f"host:{name}:{i}")
    assert compared == len(_texts()) * SESSIONS * STEPS
    assert len(reread) >= 5  # the host re-read the changed statements (9 here: a damaged text is parsed whole)
