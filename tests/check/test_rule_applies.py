"""``Rule.applies_to`` only saves work: a rule skipped for an operator would have said nothing about it."""

from __future__ import annotations

from pathlib import Path

import pytest

from onnxtext.analysis.check import ALL_RULES
from onnxtext.analysis.check.rule import Rule
from onnxtext.api import check

ROOT = Path(__file__).resolve().parents[2]

# Each node rule that says which operators it is about, made to speak: an unknown, a
# deprecated and a too-new operator (E301), a domain not imported (E302), a missing
# attribute (E307), an operator a function's opset reads otherwise (E404), an axis out of
# range (E705), a call of no local function (W301).
NODE_MISTAKES = """\
<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[2, 3] x) => (float[2, 3] y)
{
  a = Rleu(x)
  b = Upsample(x)
  c = com.x.Op(x)
  d = Cast(x)
  e = Softmax <axis = 5> (x)
  f = local.G(x)
  y = local.F(x)
}
<domain: "local", opset_import: ["" : 11]>
F (a) => (b) { b = Softmax(a) }
"""
TOO_NEW = '<ir_version: 10, opset_import: ["" : 9]>\ng (float[2] x) => (float[2] y) { y = Gelu(x) }\n'


def _texts() -> list[str]:
    files = sorted((ROOT / "examples").glob("*.onnxtxt")) + sorted((ROOT / "tests" / "golden").glob("*.onnxtxt"))
    return [NODE_MISTAKES, TOO_NEW] + [p.read_text(encoding="utf-8") for p in files]


def test_the_mistakes_are_found() -> None:
    codes = {d.code for d in check(NODE_MISTAKES)} | {d.code for d in check(TOO_NEW)}
    assert {"E301", "E302", "E307", "E404", "E705", "W301"} <= codes


@pytest.mark.parametrize("text", _texts(), ids=lambda t: t.splitlines()[1][:40])
def test_applies_to_hides_no_diagnostic(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    found = [str(d) for d in check(text)]
    for rule in ALL_RULES:
        if rule.applies_to is not Rule.applies_to:
            monkeypatch.setattr(rule, "applies_to", Rule.applies_to)
    assert [str(d) for d in check(text)] == found
