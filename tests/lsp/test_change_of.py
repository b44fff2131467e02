"""The client's content changes of one ``didChange`` as the one ``Change`` the host takes (``convert.change_of``).

pygls's own document is the oracle: it applies the same content changes to its copy of the text,
and the change made here, applied to the text before, must give that text.
"""

from __future__ import annotations

import random

from lsprotocol import types as L
from pygls.workspace import TextDocument

from onnxtext.host.change import Change
from onnxtext.lsp.convert import change_of
from onnxtext.span import SourceFile

_CHARS = "ab =()\n\u00e9\U0001f600"  # a character outside the BMP: two UTF-16 units


def _position(text: str, offset: int) -> L.Position:
    before = text[:offset]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return L.Position(line, len(column.encode("utf-16-le")) // 2)


def _random_changes(rng: random.Random, text: str) -> list[L.TextDocumentContentChangeEvent]:
    out: list[L.TextDocumentContentChangeEvent] = []
    for _ in range(rng.randrange(1, 4)):
        if rng.random() < 0.15:
            text = "".join(rng.choice(_CHARS) for _ in range(rng.randrange(0, 20)))
            out.append(L.TextDocumentContentChangeWholeDocument(text=text))
            continue
        lo = rng.randrange(0, len(text) + 1)
        hi = rng.randrange(lo, len(text) + 1)
        new = "".join(rng.choice(_CHARS) for _ in range(rng.randrange(0, 4)))
        out.append(L.TextDocumentContentChangePartial(L.Range(_position(text, lo), _position(text, hi)), new))
        text = text[:lo] + new + text[hi:]
    return out


def test_the_changes_of_a_notification_make_one_change_that_gives_the_clients_text() -> None:
    rng = random.Random(5)
    for _ in range(400):
        text = "".join(rng.choice(_CHARS) for _ in range(rng.randrange(0, 30)))
        events = _random_changes(rng, text)
        client = TextDocument("file:///m.onnxtxt", text)
        for event in events:
            client.apply_change(event)
        found = change_of(SourceFile(text), events)
        assert found is not None
        change, after = found
        assert after == client.source and change.apply(text) == client.source


def test_a_whole_text_becomes_the_smallest_change() -> None:
    found = change_of(SourceFile("y = Relu (x)"), [L.TextDocumentContentChangeWholeDocument(text="y = Tanh (x)")])
    assert found is not None and found[0] == Change(4, 8, 8, "Tanh")


def test_no_content_changes_make_no_change() -> None:
    assert change_of(SourceFile("abc"), []) is None


def test_a_whole_text_is_the_clients_own_string_not_built_again() -> None:
    new = "y = Tanh (x)\n" * 3
    found = change_of(SourceFile("y = Relu (x)\n" * 3), [L.TextDocumentContentChangeWholeDocument(text=new)])
    assert found is not None and found[1] is new
