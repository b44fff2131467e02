"""Corruption corpus: random single edits of real texts never cost more than the damaged statement.

Each case takes a golden text, an example or a printed backend model, applies one seeded
edit (delete a character, insert a bracket or a quote, cut a line) and checks that

* a tree and a protobuf always come back (no traceback, no hang);
* every node statement away from the edit lowers to the same ``NodeProto`` as before
  (statements are matched by their text, shifted by the edit), when the edit falls
  inside a body (``{ ... }``) and the body's braces are untouched;
* when the edit causes a syntax error, no diagnostic (parser's or checker's) appears on an
  undamaged statement that the undamaged text did not have there.

Edits of headers and signatures are checked for the first point only: a damaged graph
signature may legitimately take its body with it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import onnxtext
from onnxtext.document import Document, parse_document
from onnxtext.proto import NodeProto
from onnxtext.syntax import ast as A

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
EDITS = 2400
BACKEND_SAMPLE = 40
SEED = 20261123


def _texts() -> list[tuple[str, str]]:
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "tests" / "golden").glob("*.onnxtxt"))]
    texts += [(p.name, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "examples").glob("*.onnxtxt"))]
    try:
        import onnx  # noqa: F401 - the backend suite comes with onnx

        from tests.corpus.backend import all_model_paths, case_id
    except ImportError:  # pragma: no cover - onnx is a test oracle only
        return texts
    # the same sample whatever order the cache lists them in and wherever the suite lies
    paths = sorted(all_model_paths(), key=case_id)
    rng = random.Random(SEED)
    for path in sorted(rng.sample(paths, min(BACKEND_SAMPLE, len(paths)))):
        try:
            texts.append((case_id(path), onnxtext.to_text(onnxtext.load(str(path)))))
        except onnxtext.OnnxTextError:
            continue
    return [(name, text) for name, text in texts if parse_document(text).ok]


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    new: str

    def apply(self, text: str) -> str:
        return text[: self.start] + self.new + text[self.end :]

    def shift(self, offset: int) -> int:
        """Where an offset after the edit lands in the edited text."""
        return offset + len(self.new) - (self.end - self.start)


def _edit(rng: random.Random, text: str) -> Edit:
    kind = rng.choice(("delete", "insert", "insert", "cut"))
    pos = rng.randrange(len(text))
    if kind == "delete":
        return Edit(pos, pos + 1, "")
    if kind == "insert":
        return Edit(pos, pos, rng.choice('()[]{}<>"'))
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    return Edit(line_start, len(text) if line_end < 0 else line_end + 1, "")


@dataclass(frozen=True)
class Statement:
    span: A.Span
    proto: bytes
    body: A.Span  # the braces of the node list holding it


def _statements(doc: Document) -> list[Statement]:
    """Every node statement of a document (at any depth) with its lowered bytes and its body's span."""
    out = []
    for path, node in doc.source_map.entries.items():
        if isinstance(node, A.Node) and path and path[-1][0] == "node" and len(path[-1]) == 2:
            owner = doc.source_map.entries.get(path.parent) if path.parent is not None else None
            body = _body_span(doc.source.text, owner, node)
            proto = path.resolve(doc.proto)
            assert isinstance(proto, NodeProto)
            out.append(Statement(node.span, proto.SerializeToString(deterministic=True), body))
    return out


def _body_span(text: str, owner: object, node: A.Node) -> A.Span:
    if isinstance(owner, (A.Graph, A.Function)):
        start = text.rfind("{", owner.span.start, node.span.start)
        return A.Span(start, owner.span.end)
    return A.Span(0, len(text))


def _cases() -> list[tuple[str, str, Edit]]:
    texts = _texts()
    rng = random.Random(SEED)
    cases = []
    for k in range(EDITS):
        name, text = texts[k % len(texts)]
        cases.append((name, text, _edit(rng, text)))
    return cases


def test_corpus_is_large_enough() -> None:
    assert len(_texts()) >= 30


# Edits whose neighbours are not fully spared, out of every 1,000. Measured: 3 of the 2,400
# cases with the old one-line layout; 9 of 2,400 once the canonical layout (syntax/layout.py)
# broke long attribute lists and signatures over several lines; 0 of 2,400 since recovery
# keeps to the body and its indentation (recovery.Run: _panic, _stray_opener and
# _close_before_statement). With seeds 1 to 20 instead of SEED: 2 of 48,000, both a repair
# that gives a valid statement of another meaning (a ')' closing an input list early, a ']'
# read as ',' between two outputs) that the checker then follows. One per mille leaves room
# for two such cases when the corpus changes; lower it, never raise it again.
TOLERATED_PER_MILLE = 1


def test_single_edits_cost_only_the_damaged_statement() -> None:
    cases = _cases()
    assert len(cases) >= 2000
    failures: list[str] = []
    for name, text, edit in cases:
        problem = _check_case(text, edit)
        if problem is not None:
            assert problem != "no tree", f"{name} {edit}"
            failures.append(f"{name} {edit}: {problem}")
    assert len(failures) * 1000 <= TOLERATED_PER_MILLE * len(cases), (
        f"{len(failures)} of {len(cases)} edits:\n" + "\n".join(failures[:20])
    )


def _check_case(text: str, edit: Edit) -> str | None:
    before = parse_document(text)
    after_text = edit.apply(text)
    after = parse_document(after_text)
    if after.tree is None or after.proto is None:
        return "no tree"
    old = {(s.span.start, s.span.end): s for s in _statements(before)}
    new = {}
    for s in _statements(after):
        new[(s.span.start, s.span.end)] = s
    syntax = any(d.code.startswith("P0") and d.is_error for d in after.diagnostics)
    checked: list[Statement] = []
    for (start, end), s in old.items():
        if not (s.body.start < edit.start and edit.end < s.body.end - 1):
            continue  # the edit is not inside this statement's body
        if not text[end : edit.start].strip() and not text[edit.end : start].strip():
            continue  # the damaged statement itself (the edit touches it, or only blanks are between)
        key = (start, end) if end < edit.start else (edit.shift(start), edit.shift(end))
        got = new.get(key)
        if got is None:
            return f"statement {text[start:end]!r} is lost"
        if got.proto != s.proto:
            return f"statement {text[start:end]!r} lowers differently"
        checked.append(s)
    if syntax and checked:
        was = _diags_by_statement(onnxtext.check(text), before, checked, None)
        now = _diags_by_statement(onnxtext.check(after_text), after, checked, edit)
        removed = _names(text[edit.start : edit.end])
        # a use of a name whose definition the edit deleted is undefined now: the edit's doing, not recovery's
        extra = {d for d in now - was if not (d[1] in ("E204", "E205") and _quoted(d[2]) in removed)}
        if extra:
            return f"new diagnostics on undamaged statements: {sorted(extra)[:3]}"
    return None


def _names(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))


def _quoted(message: str) -> str:
    """The first 'quoted' name of a message."""
    m = re.search(r"'([^']*)'", message)
    return m.group(1) if m else ""


def _diags_by_statement(
    diags: list[onnxtext.Diagnostic], doc: Document, statements: list[Statement], edit: Edit | None
) -> set[tuple[int, str, str]]:
    """(statement index, code, message) of the diagnostics that fall on the given statements."""
    spans = []
    for s in statements:
        start, end = s.span.start, s.span.end
        if edit is not None and start > edit.start:
            start, end = edit.shift(start), edit.shift(end)
        spans.append((start, end))
    out = set()
    for d in diags:
        if d.span is None:
            continue
        for k, (start, end) in enumerate(spans):
            if start <= d.offset < end:
                out.add((k, d.code, d.message))
    return out
