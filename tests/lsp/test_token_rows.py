"""Semantic tokens a statement at a time (``host/tokens.StatementRows``) and spliced through a
re-read window (``host/tokens.splice_rows``): after any edit, the integers of the whole tree's walk
(``encoded_tokens``, the definition), rows reused or not."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from differential_edits import WELL_FORMED, edit, statements
from lsprotocol import types as L
from pytest_lsp import LanguageClient

from onnxtext.document import Document, parse_document
from onnxtext.host.tokens import (
    StatementRows,
    TokenCache,
    encode_tokens,
    encoded_tokens,
    row_offsets,
    splice_rows,
)
from onnxtext.ide.semantic import frame_tokens, semantic_tokens
from onnxtext.incremental import reread
from onnxtext.syntax import ast as A

ROOT = Path(__file__).resolve().parents[2]
TEXTS = sorted((ROOT / "tests" / "golden").glob("*.onnxtxt")) + sorted((ROOT / "examples").glob("*.onnxtxt"))

DEPRECATED = """<ir_version: 8, opset_import: ["" : 11, "local" : 1]>
g (float[4] x, float[4] s) => (float[4] y)
<float[4] w = {1, 2, 3, 4}>
{
   # Upsample is deprecated from opset 10
   u = Upsample (x, s)
   v = local.Upsample (u)
   a = Add (v, w)
   y = If (c) <then_branch = t () => (float[4] p) {
      p = Scatter (a, w, w)
   }, else_branch = e () => (float[4] q) {
      q = Neg (a)
   }>
}
<domain: "local", opset_import: ["" : 10]>
Upsample (p) => (q)
{
   q = Upsample (p, p)
}
"""


HEAD = '<ir_version: 8, opset_import: ["" : 18, "local" : 1]>\n'


def _before(doc: Document) -> list[int]:
    """The tokens as the server made them before rows: every node's resolution looked up."""

    def deprecated(node: A.Node) -> bool:
        resolution = doc.resolutions.get(node)
        return resolution is not None and resolution.schema is not None and resolution.schema.deprecated

    return encode_tokens(semantic_tokens(doc.tree, doc.comments, deprecated), doc.source)


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_rows_give_the_whole_walk_cold_and_warm(path: Path) -> None:
    doc = parse_document(path.read_text(encoding="utf-8"), path=str(path))
    expected = encoded_tokens(doc)
    assert expected == _before(doc)
    cold, rows = StatementRows().encode(doc)
    assert cold == expected
    # the rows cut out of the whole encoding (a first document) are those made a statement at a time
    _, other = StatementRows().encode(parse_document("g (float x) => (float y)\n{\n   y = Neg (x)\n}\n"))
    one_by_one, by_statement = other.encode(doc)
    assert one_by_one == expected
    assert {k: v for k, v in by_statement.rows.items() if v} == {k: v for k, v in rows.rows.items() if v}
    again = parse_document(doc.source.text)
    warm, kept = rows.encode(again)
    assert warm == expected
    assert len(kept) <= len(rows)


def test_deprecated_operators_as_their_scope_resolves_them() -> None:
    doc = parse_document(DEPRECATED)
    data, rows = StatementRows().encode(doc)
    assert data == _before(doc) == encoded_tokens(doc)
    deprecated = 1 << 2
    marked = [data[i + 2] for i in range(0, len(data), 5) if data[i + 4] & deprecated]
    assert marked == [len("Upsample"), len("Scatter"), len("Upsample")]  # not the local function's call
    # An edit of the imports alone changes whether the unchanged statements are deprecated.
    older = parse_document(DEPRECATED.replace('"" : 11', '"" : 9').replace('"" : 10', '"" : 9'))
    assert rows.encode(older)[0] == _before(older) != data


def test_an_initializer_added_makes_unchanged_uses_read_only() -> None:
    text = "g (float[4] x) => (float[4] y)\n{\n   a = Add (x, k)\n   y = Neg (a)\n}\n"
    doc = parse_document(text)
    _, rows = StatementRows().encode(doc)
    edited = parse_document(text.replace("{\n", "<float[4] k = {1, 2, 3, 4}>\n{\n", 1))
    assert rows.encode(edited)[0] == encoded_tokens(edited)


def _edit(rng: random.Random, text: str) -> str:
    pos = rng.randrange(len(text) + 1)
    line = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end + 1
    kind = rng.choice(("insert", "insert", "delete", "cut", "copy", "rename", "comment"))
    if kind == "insert":
        return text[:pos] + rng.choice(["(", ")", '"', "{", "}", "<", ">", "#", "\n", " ", "=", ",", "x"]) + text[pos:]
    if kind == "delete":
        return text[:pos] + text[pos + 1 :]
    if kind == "cut":
        return text[:line] + text[end:]
    if kind == "copy":
        return text[:line] + text[line:end] + text[line:]
    if kind == "rename":
        return text.replace(rng.choice(["Relu", "Add", "Neg", "MatMul", "x", "a"]), rng.choice(["Upsample", "Tanh"]), 1)
    return text[:line] + "   # a comment\n" + text[line:]


@pytest.mark.parametrize("seed", range(4))
def test_rows_after_many_edits_equal_a_fresh_walk(seed: int) -> None:
    """Chains of random edits (damage, comments, copies, deprecated names), each version encoded
    from the rows of the one before, against the definition on the fresh text."""
    rng = random.Random(seed)
    originals = [DEPRECATED] + [p.read_text(encoding="utf-8") for p in TEXTS if p.stat().st_size < 4000]
    rows = StatementRows()
    text = rng.choice(originals)
    reused = statements = 0
    for step in range(150):
        if step % 10 == 0:
            text = rng.choice(originals)
        text = _edit(rng, text)
        doc = parse_document(text)
        data, rows = rows.encode(doc)
        assert data == encoded_tokens(doc), (seed, step, text)
        reused += rows.reused
        statements += sum(len(b.nodes) for b in frame_tokens(doc.tree)[1])
    assert reused > statements / 3, (reused, statements)  # a broken text keeps fewer


@pytest.mark.parametrize("seed", range(4))
def test_tokens_spliced_through_each_window_equal_a_fresh_walk(seed: int) -> None:
    """Chains of typing-style edits, each version re-read in place from the one before (``reread``) and its
    tokens made from the last ones by position, the window's rows alone encoded anew, against the
    definition on the fresh text; where re-reading declines, the text is parsed and encoded whole."""
    rng = random.Random(seed)
    chain = "\n".join(f"   x{i + 1} = {('Relu', 'Add', 'MatMul')[i % 3]} (x{i}, w)  # step {i}" for i in range(40))
    body = f"{{\n{chain}\n   y = Identity (x40)\n}}\n"
    local = '<domain: "local", opset_import: ["" : 18]>\nf (p) => (q)\n{\n   r = Neg (p)\n   q = Add (r, p)\n}\n'
    originals = [DEPRECATED, f"{HEAD}g (float[4] x0) => (float[4] y)\n<float[4] w = {{1, 2, 3, 4}}>\n{body}{local}"]
    spliced = reread_versions = 0
    doc: Document | None = None
    data: list[int] = []
    offsets: list[int] | None = None
    for step in range(200):
        if step % 20 == 0 or doc is None:
            doc = parse_document(rng.choice(originals))
            data, offsets = encoded_tokens(doc), None
        typed = edit(rng, doc.source.text, statements(doc), WELL_FORMED)
        text = typed.apply(doc.source.text)
        found = reread(doc, text, typed.start, typed.end, typed.start + len(typed.new))
        made = None
        if found is not None:  # every text here is ASCII: its rows' offsets are known
            reread_versions += 1
            offsets = offsets if offsets is not None else row_offsets(data, doc.source)
            assert offsets is not None
            window = found[1]
            made = splice_rows(data, offsets, found[0], window.start, window.end, window.delta)
        doc = found[0] if found is not None else parse_document(text)
        if made is not None:
            (data, offsets), spliced = made, spliced + 1
        else:
            data, offsets = encoded_tokens(doc), None
        assert data == encoded_tokens(parse_document(text)), (seed, step, text)
    assert spliced == reread_versions > 20  # every version re-read in place is spliced


def test_the_cache_splices_only_from_the_document_its_data_is_of() -> None:
    lines = [f"   x{i + 1} = Relu (x{i})  # n{i}" for i in range(300)]
    text = "g (float x0) => (float x300)\n{\n" + "\n".join(lines) + "\n}\n"
    cache = TokenCache()
    doc = parse_document(text)
    cache.data(doc)
    for i, (old, new) in enumerate((("x11 = Relu", "x11 = Tanh"), ("  # n40", ""), ("(x200)", "(x200, x1)"))):
        at = doc.source.text.index(old)
        after = doc.source.text[:at] + new + doc.source.text[at + len(old) :]
        found = reread(doc, after, at, at + len(old), at + len(new))
        assert found is not None
        edited, window = found
        if i != 1:  # told; the second is not: its tokens are encoded from the rows, as before
            cache.spliced(doc, edited, window.start, window.end, window.delta)
        assert cache.data(edited)[1] == encoded_tokens(parse_document(after))
        doc = edited
    stranger = parse_document(text)
    cache.spliced(stranger, doc, 0, 0, 0)  # not the document the data is of: nothing to splice from
    assert cache._pending is None


def test_a_text_that_is_not_ascii_is_not_spliced() -> None:
    doc = parse_document("g (float x) => (float y)\n{\n   y = Relu (x)  # é\n}\n")
    assert row_offsets(encoded_tokens(doc), doc.source) is None


def test_the_rows_kept_are_those_of_the_latest_text() -> None:
    lines = [f"   x{i + 1} = Relu (x{i})" for i in range(200)]
    text = "g (float x0) => (float x200)\n{\n" + "\n".join(lines) + "\n}\n"
    rows = StatementRows()
    for i in range(60):  # every version differs: the table never holds more than one text's statements
        edited = text.replace(f"x{i + 1} = Relu", f"x{i + 1} = Tanh")
        data, rows = rows.encode(parse_document(edited))
        assert len(rows) == 200 and rows.reused >= 198 * (i > 0)
    assert data == encoded_tokens(parse_document(edited))


async def _published(client: LanguageClient, version: int) -> None:
    while (await client.wait_for_notification(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)).version != version:
        pass


@pytest.mark.asyncio
async def test_tokens_through_a_client_after_edits_are_the_fresh_texts(client: LanguageClient, uri: str) -> None:
    """Full answers and deltas (applied as a client applies them), asked right after each edit or
    after its diagnostics, are the tokens of the edited text analysed afresh."""
    lines = [
        f"   x{i + 1} = Relu (x{i})  # step {i}" if i % 7 == 0 else f"   x{i + 1} = Relu (x{i})" for i in range(300)
    ]
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x0) => (float[2] x300)\n{\n' + "\n".join(lines) + "\n}\n"
    )
    client.text_document_did_open(L.DidOpenTextDocumentParams(L.TextDocumentItem(uri, "onnxtext", 1, text)))
    doc = L.TextDocumentIdentifier(uri)
    full = await client.text_document_semantic_tokens_full_async(L.SemanticTokensParams(doc))
    assert full is not None and full.result_id is not None
    held, result_id = list(full.data), full.result_id
    assert held == encoded_tokens(parse_document(text))
    rng = random.Random(5)
    for version in range(2, 14):
        line = rng.randrange(3, 300)
        column = rng.choice((3, 8, 10))
        new = rng.choice(("Tanh", "Upsample", "(", "# c", "\n", "y = Neg (x0)\n   "))
        change = L.TextDocumentContentChangePartial(
            range=L.Range(L.Position(line, column), L.Position(line, column + 4)), text=new
        )
        client.text_document_did_change(
            L.DidChangeTextDocumentParams(L.VersionedTextDocumentIdentifier(uri=uri, version=version), [change])
        )
        starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        at = starts[line] + column
        text = text[:at] + new + text[at + 4 :]
        if version % 3 == 0:  # else asked at once, before the diagnostics
            await asyncio.wait_for(_published(client, version), timeout=60)
        answer = await client.text_document_semantic_tokens_full_delta_async(
            L.SemanticTokensDeltaParams(doc, result_id)
        )
        if isinstance(answer, L.SemanticTokensDelta):
            for edit in reversed(answer.edits):
                held[edit.start : edit.start + edit.delete_count] = edit.data or []
        else:
            assert answer is not None
            held = list(answer.data)
        assert answer.result_id is not None
        result_id = answer.result_id
        assert held == encoded_tokens(parse_document(text)), version
