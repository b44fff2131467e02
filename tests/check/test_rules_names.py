"""W201: C90 names (a warning: exporters routinely break it)."""

from __future__ import annotations

from checkutil import diagnostics, located

from onnxtext.diagnostics import Severity

H = '<ir_version: 10, opset_import: ["" : 21]>\n'


def test_c90_names_ok() -> None:
    assert located(H + "g (float[N] x) => (float[N] y) { y = Relu(x) }\n", "W201") == []


def test_w201_non_c90_value_name_is_a_warning() -> None:
    text = H + 'g (float[N] x) => (float[N] y) {\n  "/layer/Relu_output_0" = Relu(x)\n  y = Neg("/layer/Relu_output_0")\n}\n'
    diags = diagnostics(text, "W201")
    assert located(text, "W201") == [("W201", 3, 3)]
    assert diags[0].severity is Severity.WARNING
    assert "exporters" in diags[0].message


def test_w201_dimension_variable() -> None:
    text = H + 'g (float["batch size"] x) => (float[2] y) { y = Relu(x) }\n'
    assert located(text, "W201") == [("W201", 2, 4)]
