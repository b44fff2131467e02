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


def test_w201_is_one_summary_per_model_with_related_locations() -> None:
    sources = ["x"] + [f'"/l{i}/Relu"' for i in range(89)]
    body = "".join(f'  "/l{i}/Relu" = Relu({src})\n' for i, src in enumerate(sources))
    text = H + f'g (float[N] x) => (float[N] y) {{\n{body}  y = Neg("/l89/Relu")\n}}\n'
    diags = diagnostics(text, "W201")
    assert len(diags) == 1
    assert diags[0].message.startswith("90 names are not C90 identifiers")
    assert "'/l0/Relu', '/l1/Relu', '/l2/Relu' and 87 more" in diags[0].message
    assert (diags[0].span.start.line, diags[0].span.start.column) == (3, 3)  # type: ignore[union-attr]
    assert [r.span.start.line for r in diags[0].related] == list(range(4, 93))  # type: ignore[union-attr]


def test_w201_summary_on_a_binary_names_the_first_ones() -> None:
    from onnxtext import parse_model
    from onnxtext.analysis.check import check_proto

    text = H + 'g (float[N] x) => (float[N] y) {\n  "/a" = Relu(x)\n  "/b" = Relu("/a")\n  y = Neg("/b")\n}\n'
    diags = [d for d in check_proto(parse_model(text)) if d.code == "W201"]
    assert len(diags) == 1 and "'/a', '/b'" in diags[0].message and diags[0].path
