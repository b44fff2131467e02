"""Semantic tokens for big documents (their one-pass encoding, the cache, deltas) and snapshot answers: plain tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from onnxtext.document import parse_document
from onnxtext.host.analyse import Outcome
from onnxtext.host.change import Change
from onnxtext.host.snapshot import Snapshot, Unanswerable
from onnxtext.host.tokens import TokenCache, encode_tokens, token_delta
from onnxtext.ide.semantic import TOKEN_TYPES, Token, document_tokens
from onnxtext.span import SourceFile, Span


def _apply(old: list[int], new: list[int]) -> list[int]:
    out = list(old)
    for edit in reversed(token_delta(old, new)):
        out[edit.start : edit.start + edit.delete_count] = edit.data or []
    return out


def test_delta_replaces_whole_tokens_between_the_common_ends() -> None:
    old = [0, 3, 1, 0, 0, 1, 3, 4, 2, 0, 1, 3, 1, 0, 0]
    new = [0, 3, 1, 0, 0, 1, 3, 5, 2, 0, 1, 3, 1, 0, 0]
    (edit,) = token_delta(old, new)
    assert (edit.start, edit.delete_count, edit.data) == (5, 5, new[5:10])
    assert _apply(old, new) == new


def test_delta_of_inserted_and_removed_tokens() -> None:
    old = [0, 3, 1, 0, 0] * 4
    for new in ([0, 3, 1, 0, 0] * 6, [0, 3, 1, 0, 0] * 1, [], [1, 1, 1, 1, 1] + old):
        assert _apply(old, new) == new
        assert _apply(new, old) == old
    assert token_delta(old, list(old)) == []


def test_cache_encodes_once_per_document_and_keeps_one() -> None:
    calls = []
    cache = TokenCache()
    first = parse_document('<ir_version: 8, opset_import: ["" : 18]>\ng (float x) => (float y) {\n   y = Relu (x)\n}\n')
    second = parse_document(first.source.text.replace("Relu", "Neg"))

    def encode(doc: object) -> list[int]:
        calls.append(doc)
        return [len(calls)] * 5

    assert cache.full(first, encode)[0] == cache.full(first, encode)[0]
    assert len(calls) == 1
    result_id, _, edits = cache.delta(second, encode, "1")
    assert len(calls) == 2 and result_id == "2" and edits is not None
    result_id, _, edits = cache.delta(second, encode, "1")
    assert result_id == "2" and edits is None and len(calls) == 2  # an old id: everything, not re-encoded


def test_snapshot_carries_answers_through_the_edit() -> None:
    old = '<ir_version: 8, opset_import: ["" : 18]>\ng (float x) => (float y) {\n   a = Relu (x)\n   y = Neg (a)\n}\n'
    new = old.replace("   a = Relu", "   b = Abs (x)\n   a = Relu")
    snap = Snapshot(2, SourceFile(new), Outcome(parse_document(old)), None, Change.between(old, new))
    use = new.index("(a)") + 1

    def definition(outcome: Outcome, offset: int) -> tuple[None, list[Span]]:
        return None, outcome.document.definition_at(offset)

    found = snap.answer(use, definition)
    assert [new[s.start : s.start + 8] for s in found[1]] == ["a = Relu"]
    with pytest.raises(Unanswerable):  # inside the edit: the snapshot cannot say
        snap.answer(new.index("b = Abs"), definition)


K = {name: i for i, name in enumerate(TOKEN_TYPES)}
GOLDEN = [
    p for p in sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.onnxtxt")) if p.read_text().isascii()
]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_ascii_encoding_is_the_exact_one(path: Path) -> None:
    """The one-pass encoding of an ASCII text gives the exact (UTF-16) encoding's integers, multi-line
    tokens (comments, strings) cut per line as it cuts them."""
    doc = parse_document(path.read_text(), path=str(path))
    tokens = document_tokens(doc)
    fast = encode_tokens(tokens, doc.source)
    exact = encode_tokens(tokens, SourceFile(doc.source.text + "\u00e9"))  # no longer ASCII: the exact path
    assert fast == exact and fast


def test_ascii_encoding_of_a_token_over_lines() -> None:
    text = 'a\n"x\ny"  b\n'
    tokens = [Token(Span(0, 1), "variable"), Token(Span(2, 7), "string"), Token(Span(9, 10), "variable")]
    assert encode_tokens(tokens, SourceFile(text)) == encode_tokens(tokens, SourceFile(text + "\u00e9"))
    assert encode_tokens(tokens, SourceFile(text)) == [
        0,
        0,
        1,
        K["variable"],
        0,
        1,
        0,
        2,
        K["string"],
        0,
        1,
        0,
        2,
        K["string"],
        0,
        0,
        4,
        1,
        K["variable"],
        0,
    ]
