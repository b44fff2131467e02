"""Helpers for checker tests: diagnostics as (code, line, column) triples."""

from __future__ import annotations

from onnxtext.api import check
from onnxtext.diagnostics import Diagnostic

VALID = """\
<ir_version: 10, opset_import: ["" : 21]>
g (float[N, 4] x) => (float[N, 4] y)
<float[4] b = {1, 2, 3, 4}>
{
  t = Add(x, b)
  y = Relu(t)
}
"""


def diagnostics(text: str, *codes: str) -> list[Diagnostic]:
    return check(text, select=list(codes) or None)


def located(text: str, *codes: str) -> list[tuple[str, int, int]]:
    """``(code, line, column)`` of each diagnostic of ``codes`` (all rules when none)."""
    out = []
    for d in diagnostics(text, *codes):
        assert d.span is not None, f"no span: {d}"
        out.append((d.code, d.span.start.line, d.span.start.column))
    return out
