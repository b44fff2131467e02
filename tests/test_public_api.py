"""The public API: its surface is pinned, and each entry point works on ours and onnx's messages."""

from __future__ import annotations

from pathlib import Path

import pytest

import onnxtext
from onnxtext import proto

EXPECTED_API = {
    "__version__",
    "Diagnostic",
    "Document",
    "Evaluator",
    "NotRepresentable",
    "OnnxTextError",
    "ParseError",
    "Position",
    "Range",
    "Severity",
    "SourceFile",
    "Span",
    "check",
    "check_model",
    "diagnose",
    "format_text",
    "load",
    "parse_document",
    "parse_function",
    "parse_graph",
    "parse_model",
    "parse_node",
    "parse_nodes",
    "register_onnx_serializer",
    "save",
    "to_text",
}

MODEL = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
   y = Relu (x)
}
"""


def test_public_surface_is_pinned() -> None:
    assert set(onnxtext.__all__) == EXPECTED_API
    for name in EXPECTED_API:
        assert hasattr(onnxtext, name)


def test_entry_points() -> None:
    m = onnxtext.parse_model(MODEL)
    assert isinstance(m, proto.ModelProto)
    g = onnxtext.parse_graph("g (float x) => (float y) { y = Neg(x) }")
    assert g.node[0].op_type == "Neg"
    f = onnxtext.parse_function('<domain: "d", opset_import: ["": 18]> f (a) => (b) { b = Neg(a) }')
    assert f.domain == "d"
    n = onnxtext.parse_node("[n] y = Neg(x)")
    assert n.name == "n"
    ns = onnxtext.parse_nodes("{ y = Neg(x) z = Abs(y) }")
    assert [x.op_type for x in ns] == ["Neg", "Abs"]


def test_to_text_accepts_onnx_messages() -> None:
    onnx = pytest.importorskip("onnx")
    m = onnx.parser.parse_model(MODEL)
    text = onnxtext.to_text(m)
    assert onnxtext.parse_model(text).SerializeToString() == m.SerializeToString()
    assert "Relu" in onnxtext.to_text(m.graph)
    assert "Relu" in onnxtext.to_text(m.graph.node[0])


def test_load_save_by_extension(tmp_path: Path) -> None:
    m = onnxtext.parse_model(MODEL)
    onnxtext.save(m, tmp_path / "m.onnx")
    onnxtext.save(m, tmp_path / "m.onnxtxt")
    a = onnxtext.load(tmp_path / "m.onnx")
    b = onnxtext.load(tmp_path / "m.onnxtxt")
    assert a.SerializeToString() == b.SerializeToString() == m.SerializeToString()
    assert (tmp_path / "m.onnxtxt").read_text().startswith("<")


def test_parse_error_is_located() -> None:
    with pytest.raises(onnxtext.ParseError) as info:
        onnxtext.parse_model("g (float x) => (float y) {\n  y = Add(T X)\n}\n")
    d = info.value.diagnostics[0]
    assert isinstance(info.value, onnxtext.OnnxTextError)
    assert (d.code, d.severity, d.span.start.line, d.span.start.column) == ("P001", "error", 2, 13)
    assert "','" in d.message and "')'" in d.message


def test_every_ast_kind_has_a_printer_method() -> None:
    from onnxtext.syntax import ast
    from onnxtext.syntax.printer import Printer

    missing = [k.__name__ for k in ast.NODE_KINDS if not hasattr(Printer, "print_" + k.__name__)]
    assert not missing


def test_check_model_reports_located_problems() -> None:
    diags = onnxtext.check_model(
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n   y = Relu (z)\n}\n'
    )
    errors = [d for d in diags if d.is_error]
    assert errors and errors[0].span is not None and errors[0].span.start.line == 3


def test_unknown_fields_are_refused_not_dropped() -> None:
    m = onnxtext.parse_model(MODEL)
    # field 999 of NodeProto, varint 1: what a newer IR could add
    node = m.graph.node[0]
    node.MergeFromString(bytes([0xB8, 0x3E, 0x01]))
    with pytest.raises(onnxtext.NotRepresentable, match="999"):
        onnxtext.to_text(m)


def test_tensor_props_in_attribute_lists_round_trip() -> None:
    onnx = pytest.importorskip("onnx")
    import numpy as np
    from onnx import helper, numpy_helper

    t1 = numpy_helper.from_array(np.array([1.5, 2], np.float32))  # name unset, raw_data
    t2 = helper.make_tensor("b", onnx.TensorProto.INT64, [2], [3, 4])
    t2.doc_string = "doc"
    node = helper.make_node("Foo", ["x"], ["y"], ts=[t1, t2])
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 3])
    x.type.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
    g = helper.make_graph([node], "g", [x], [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)])
    m = helper.make_model(g)
    text = onnxtext.to_text(m)
    assert '@{denotation: "DATA_BATCH"}' in text and "name: unset" in text
    back = onnxtext.parse_model(text)
    assert back.SerializeToString(deterministic=True) == m.SerializeToString(deterministic=True)


def test_check_is_callable_and_a_package() -> None:
    diags = onnxtext.check(
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) {\n   y = Relu (z)\n}\n'
    )
    assert any(d.is_error and d.span is not None and d.span.start.line == 3 for d in diags)
    assert len(onnxtext.analysis.check.RULES) > 30
