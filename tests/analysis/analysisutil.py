"""Shared texts and position helpers for the query tests: positions as 1-based (line, column)."""

from __future__ import annotations

from collections.abc import Iterable

from onnxtext.document import Document, parse_document
from onnxtext.span import Span

# Line numbers matter: the tests name positions in this text.
MODEL = """\
<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
main (float[N] x, bool c) => (float[N] y, float[N] z)
<float[1] w = {2.0}>
{
  t = Mul(x, w)
  y = If (c) <then_branch = g1 () => (float[N] r) {
      t = Relu(x)
      r = Add(t, w)
    }, else_branch = g2 () => (float[N] r2) {
      r2 = local.f:a <k = 2> (t)
    }>
  z = local.f:b (t)
}
<domain: "local", opset_import: ["" : 21], overload: "a">
f <k: int = 1> (a) => (b)
{
  b = Identity <ref = @k> (a)
}
<domain: "local", opset_import: ["" : 21], overload: "b">
f (a) => (b)
{
  b = Neg(a)
}
"""


def doc(text: str = MODEL, kind: str = "model") -> Document:
    return parse_document(text, kind)


def offset(d: Document, line: int, column: int) -> int:
    """The offset of a 1-based (line, column)."""
    starts = [0] + [i + 1 for i, ch in enumerate(d.source.text) if ch == "\n"]
    return starts[line - 1] + column - 1


def where(d: Document, span: Span) -> tuple[int, int]:
    pos = d.source.position(span.start)
    return pos.line, pos.column


def places(d: Document, spans: Iterable[Span]) -> list[tuple[int, int]]:
    return [where(d, s) for s in spans]
