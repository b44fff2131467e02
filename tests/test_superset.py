"""onnxtext accepts every text onnx.parser accepts, to the same protobuf: literals that do
not fit their type are stored as written with a located warning (L008), which ``check``
and the language server report as invalid tensors (E501, E509) and ``parse --strict``
refuses; what onnx.parser rejects is rejected here, located."""

from __future__ import annotations

from pathlib import Path

import pytest

import onnxtext
from onnxtext.api import load
from onnxtext.cli.app import main
from onnxtext.host.analyse import Settings, diagnose
from onnxtext.proto import ModelProto

TEXT = """\
<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y)
<complex64[2] w = {1, 2}, int64[3] c = {1, 2}, int8[2] d = {1, 300}>
{
  y = .Identity (x)
}
"""


def _located(diags: list[onnxtext.Diagnostic]) -> list[tuple[str, str, int, int]]:
    return [(d.code, str(d.severity), d.span.start.line, d.span.start.column) for d in diags if d.span is not None]


def test_parse_gives_onnx_parsers_bytes_with_warnings() -> None:
    onnx_parser = pytest.importorskip("onnx.parser")
    doc = onnxtext.parse_document(TEXT)
    assert _located(doc.diagnostics) == [
        ("L008", "warning", 3, 19),
        ("L008", "warning", 3, 40),
        ("L008", "warning", 3, 64),
    ]
    assert (
        doc.diagnostics[2].message
        == "value 300 is out of range for int8 (-128 to 127); onnx.parser keeps it as written"
    )
    ours = onnxtext.parse_model(TEXT).SerializeToString(deterministic=True)
    assert ours == onnx_parser.parse_model(TEXT).SerializeToString(deterministic=True)


def test_strict_api_refuses_warnings() -> None:
    with pytest.raises(onnxtext.ParseError) as caught:
        onnxtext.parse_model(TEXT, strict=True)
    assert [d.severity for d in caught.value.diagnostics] == [onnxtext.Severity.ERROR] * 3


def test_printed_back_losslessly() -> None:
    model = onnxtext.parse_model(TEXT)
    text = onnxtext.to_text(model)
    assert "{1.0, 2.0}" in text and "{1, 300}" in text  # one number per complex element, as stored
    again = onnxtext.parse_model(text)
    assert again.SerializeToString(deterministic=True) == model.SerializeToString(deterministic=True)


def test_binary_with_wrong_count_prints_losslessly() -> None:
    model = onnxtext.parse_model(TEXT.replace("int64[3] c = {1, 2}", "int64[3] c = {1, 2, 3}"))
    model.graph.initializer[1].int64_data.append(4)
    model.graph.initializer[0].float_data.append(5.5)  # complex64[2] with 3 numbers
    again = onnxtext.parse_model(onnxtext.to_text(model))
    assert again.SerializeToString(deterministic=True) == model.SerializeToString(deterministic=True)


def test_check_and_language_server_report_the_invalid_tensors() -> None:
    expected = [
        ("E501", "error", 3, 2),
        ("L008", "warning", 3, 19),
        ("E501", "error", 3, 27),
        ("L008", "warning", 3, 40),
        ("E509", "error", 3, 48),
        ("L008", "warning", 3, 64),
    ]
    assert _located(onnxtext.check(TEXT)) == expected
    assert _located(diagnose(TEXT, "m.onnxtxt", Settings()).diagnostics) == expected


def test_cli_parse_warns_and_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "m.onnxtxt"
    src.write_text(TEXT)
    out = tmp_path / "m.onnx"
    assert main(["parse", str(src), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{src}:3:64: warning[L008]: value 300 is out of range for int8" in err
    assert isinstance(load(str(out)), ModelProto)


@pytest.mark.parametrize("flag", [["--strict"], ["-W", "error"]])
def test_cli_parse_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: list[str]) -> None:
    src = tmp_path / "m.onnxtxt"
    src.write_text(TEXT)
    out = tmp_path / "m.onnx"
    assert main(["parse", str(src), "-o", str(out), *flag]) == 1
    err = capsys.readouterr().err
    assert f"{src}:3:64: error[L008]: value 300 is out of range for int8" in err and "warning" not in err
    assert not out.exists()


def test_cli_check_fails_on_stored_literals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "m.onnxtxt"
    src.write_text(TEXT)
    assert main(["check", str(src)]) == 1
    captured = capsys.readouterr()
    assert (
        f"{src}:3:48: error[E509]: tensor 'd' holds 300 at element 1: int8 values are -128 to 127"
        in captured.out + captured.err
    )


def test_float_attribute_overflow_is_located() -> None:
    text = "g (float[2] x) => (float[2] y) {\n  y = Foo <f = 1e400, g = inf, h = -inf> (x)\n}"
    with pytest.raises(onnxtext.ParseError) as caught:
        onnxtext.parse_graph(text)
    assert _located(caught.value.diagnostics) == [("L004", "error", 2, 16)]
    assert "1e400 is out of range for a float attribute" in caught.value.diagnostics[0].message


def test_empty_domain_before_the_dot() -> None:
    node = onnxtext.parse_node("y = .MyOp:ov (x)")
    assert (node.domain, node.HasField("domain"), node.op_type, node.overload) == ("", True, "MyOp", "ov")


NO_OPERATOR = [
    ("node", "y = (x)"),
    ("node", "[n] y, z = <a = 2> (x)"),
    ("node", "y = :v1 (x) <a = 1>"),
    ("graph", "g (float[2] x) => (float[2] y) {\n  t = (x)\n  y = Neg (t)\n}"),
]


@pytest.mark.parametrize(("kind", "text"), NO_OPERATOR)
def test_a_node_without_operator_is_read_as_onnx_parser_reads_it(kind: str, text: str) -> None:
    onnx_parser = pytest.importorskip("onnx.parser")
    ref = getattr(onnx_parser, f"parse_{kind}")(text).SerializeToString(deterministic=True)
    assert getattr(onnxtext, f"parse_{kind}")(text).SerializeToString(deterministic=True) == ref
    doc = onnxtext.parse_document(text, kind)
    (warning,) = doc.diagnostics
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "(x)" in row)
    assert (warning.code, str(warning.severity), warning.span.start.line) == ("P006", "warning", line)
    assert text.splitlines()[line - 1][warning.span.start.column - 1] == "="
    with pytest.raises(onnxtext.ParseError):
        getattr(onnxtext, f"parse_{kind}")(text, strict=True)
    formatted = onnxtext.format_text(text, kind)
    assert getattr(onnxtext, f"parse_{kind}")(formatted).SerializeToString(deterministic=True) == ref


def test_a_missing_operator_is_still_asked_for_where_the_statement_is_unfinished() -> None:
    with pytest.raises(onnxtext.ParseError) as caught:
        onnxtext.parse_graph("g (float[2] x) => (float[2] y) {\n  y =\n}")
    assert "expected a name or '.'" in caught.value.diagnostics[0].message


TRAILING = [
    ("node", "y = Relu (x))", 1, 13),
    ("node", "y = Relu (x) z = Neg (y)", 1, 14),
    ("node", "y = Foo <a = 1> (x) <b = 2>", 1, 21),
    ("node", "y = Foo (x) <a = 1> more", 1, 21),
    ("graph", "g (float[2] x) => (float[2] y) {\n  y = Neg (x)\n}\n# a note\n  h () => () {}", 5, 3),
    ("function", "f (x) => (y) { y = Neg (x) } }", 1, 30),
]


@pytest.mark.parametrize(("kind", "text", "line", "column"), TRAILING)
def test_text_after_the_item_is_left_unread_as_onnx_parser_leaves_it(
    kind: str, text: str, line: int, column: int
) -> None:
    onnx_parser = pytest.importorskip("onnx.parser")
    ref = getattr(onnx_parser, f"parse_{kind}")(text).SerializeToString(deterministic=True)
    assert getattr(onnxtext, f"parse_{kind}")(text).SerializeToString(deterministic=True) == ref
    (warning,) = onnxtext.parse_document(text, kind).diagnostics
    assert (warning.code, str(warning.severity), warning.span.start.line, warning.span.start.column) == (
        "P007",
        "warning",
        line,
        column,
    )
    with pytest.raises(onnxtext.ParseError):
        getattr(onnxtext, f"parse_{kind}")(text, strict=True)


def test_a_damaged_item_is_reported_whatever_follows() -> None:
    # the item itself has an error: it is reported, and nothing after it is left unread quietly
    with pytest.raises(onnxtext.ParseError) as caught:
        onnxtext.parse_graph("g (float[2] x) => (float[2] y) { y = Neg (x, }\nmore")
    assert [d.code for d in caught.value.diagnostics][0] == "P001"
    with pytest.raises(onnxtext.ParseError):
        onnxtext.parse_model("g (float[2] x) => (float[2] y) { y = Neg (x) } extra")  # a model reads on


DEFAULTS = [
    ('f <a: float = "x"> (x) => (y) { y = Neg (x) }', [15]),
    ("f <a: int = 1.5, b: ints = 1, c: float = 1, d: tensor = float[2]> (x) => (y) { y = Neg (x) }", [13, 28, 57]),
]


@pytest.mark.parametrize(("text", "columns"), DEFAULTS)
def test_a_function_default_of_another_type_is_kept_as_onnx_parser_keeps_it(text: str, columns: list[int]) -> None:
    # onnx.parser drops the type mismatch of a function attribute's default (not of a node's attribute)
    onnx_parser = pytest.importorskip("onnx.parser")
    ref = onnx_parser.parse_function(text).SerializeToString(deterministic=True)
    assert onnxtext.parse_function(text).SerializeToString(deterministic=True) == ref
    doc = onnxtext.parse_document(text, "function")
    assert _located(doc.diagnostics) == [("L012", "warning", 1, c) for c in columns]
    with pytest.raises(onnxtext.ParseError):
        onnxtext.parse_function(text, strict=True)
    with pytest.raises(onnxtext.ParseError):  # a node's attribute of another type is refused, as there
        onnxtext.parse_node('y = Foo <a: float = "x"> (x)')
