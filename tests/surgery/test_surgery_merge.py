"""``merge``: A's values feed B's inputs; B's clashing names prefixed; opsets joined or refused."""

from __future__ import annotations

import numpy as np
import pytest
from surgery_support import error_codes, model, onnx_check

from onnxtext import surgery
from onnxtext.evaluate import Evaluator
from onnxtext.surgery import SurgeryError

A = """<ir_version: 9, opset_import: ["" : 18], producer_name: "a", metadata_props: ["who": "a"]>
a (float[N, 4] x) => (float[N, 4] y, float[N, 4] h)
<float[4] w = {1, 2, 3, 4}>
{
   [n0] h = Mul (x, w)
   y = Relu (h)
}
"""

B = """<ir_version: 10, opset_import: ["" : 18, "local": 1], metadata_props: ["who": "b", "what": "b"]>
b (float[N, 4] x, float[N, 4] extra) => (float[N, 4] z)
<float[4] w = {10, 20, 30, 40}>
{
   [n0] h = Add (x, w)
   s = local.Sq (h)
   z = Sub (s, extra)
}

<opset_import: ["" : 18], domain: "local">
Sq (t) => (u) { u = Mul (t, t) }
"""


def test_a_feeds_b_and_clashing_names_get_the_prefix() -> None:
    a, b = model(A), model(B)
    merged = surgery.merge(a, b, [("y", "x")]).model
    g = merged.graph
    assert [v.name for v in g.input] == ["x", "extra"]
    assert [v.name for v in g.output] == ["h", "z"]  # A's y is connected: no longer an output
    assert [t.name for t in g.initializer] == ["w", "b_w"]
    assert [(n.name, list(n.input), list(n.output)) for n in g.node] == [
        ("n0", ["x", "w"], ["h"]),
        ("", ["h"], ["y"]),
        ("b_n0", ["y", "b_w"], ["b_h"]),
        ("", ["b_h"], ["s"]),
        ("", ["s", "extra"], ["z"]),
    ]
    assert merged.ir_version == 10 and [(o.domain, o.version) for o in merged.opset_import] == [("", 18), ("local", 1)]
    assert [(p.key, p.value) for p in merged.metadata_props] == [("who", "a"), ("what", "b")]
    assert merged.producer_name == "a" and [f.name for f in merged.functions] == ["Sq"]
    onnx_check(merged)
    assert error_codes(merged) == set()
    x = np.arange(8, dtype=np.float32).reshape(2, 4) - 3
    extra = np.ones((2, 4), np.float32)
    h, z = Evaluator(merged).run(None, {"x": x, "extra": extra})
    (y,) = Evaluator(a).run(["y"], {"x": x})
    (expected,) = Evaluator(b).run(None, {"x": y, "extra": extra})
    np.testing.assert_array_equal(z, expected)


def test_the_inputs_are_left_as_they_were() -> None:
    a, b = model(A), model(B)
    before = (a.SerializeToString(), b.SerializeToString())
    surgery.merge(a, b, [("h", "x"), ("y", "extra")], prefix="second_")
    assert (a.SerializeToString(), b.SerializeToString()) == before


def test_a_function_defined_alike_in_both_is_kept_once_and_a_different_one_renamed() -> None:
    a = model(B)
    same = surgery.merge(a, model(B), [("z", "x")]).model
    assert [f.name for f in same.functions] == ["Sq"]
    other = model(B.replace("u = Mul (t, t)", "u = Add (t, t)"))
    merged = surgery.merge(a, other, [("z", "x")]).model
    assert [f.name for f in merged.functions] == ["Sq", "b_Sq"]
    assert [n.op_type for n in merged.graph.node if n.domain == "local"] == ["Sq", "b_Sq"]
    onnx_check(merged)


@pytest.mark.parametrize(
    "b_text, connect, code",
    [
        (B.replace('"" : 18', '"" : 19'), [("y", "x")], "S005"),
        (B, [("yy", "x")], "S001"),
        (B, [("y", "w")], "S001"),
        (B, [("y", "x"), ("h", "x")], "S002"),
        (B.replace("float[N, 4] x,", "int64[N, 4] x,"), [("y", "x")], "S004"),
        (B.replace("float[N, 4] x,", "float[N, 5] x,"), [("y", "x")], "S004"),
        (B.replace("float[N, 4] x,", "float[N, 4, 1] x,"), [("y", "x")], "S004"),
    ],
)
def test_refusals(b_text: str, connect: list[tuple[str, str]], code: str) -> None:
    with pytest.raises(SurgeryError) as exc:
        surgery.merge(model(A), model(b_text), connect)
    assert [d.code for d in exc.value.diagnostics] == [code]
