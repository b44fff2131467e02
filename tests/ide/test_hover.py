"""Hover answers: operator schemas for the imported opset, attributes, dtype codes, values, functions."""

from __future__ import annotations

from onnxtext.document import parse_document
from onnxtext.ide.hover import hover_at

TEXT = """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
g (float[N, 4] x, bool c) => (float[N, 4] y, int64[N, 4] z)
<float[4] w = {1, 2, 3, 4}>
{
   a = Softmax <axis = 1> (x)
   b = Add (a, w)
   z = Cast <to = 7> (b)
   y = local.twice:v1 (b)
}

<domain: "local", opset_import: ["" : 18], overload: "v1">
twice (p) => (q) {
   q = Add (p, p)
}
"""


def _hover(word: str, nth: int = 0, shift: int = 1) -> str:
    doc = parse_document(TEXT)
    assert doc.ok, doc.diagnostics
    at = -1
    for _ in range(nth + 1):
        at = TEXT.index(word, at + 1)
    found = hover_at(doc, at + shift)
    assert found is not None, word
    return found.markdown


def test_operator_shows_the_schema_of_the_imported_opset() -> None:
    text = _hover("Softmax")
    assert text.startswith("**Softmax** — ai.onnx, version 13 (the model imports opset 18)")


def test_attribute_and_dtype_code() -> None:
    assert _hover("axis").startswith("**axis**: int, default -1")
    assert _hover("7>", shift=0) == "`7` is **int64** (TensorProto.DataType)"


def test_value_shows_inferred_type_and_definition() -> None:
    text = _hover("a, w", shift=0)
    assert text.startswith("**a**: `float[N, 4]`")
    assert "node output, defined at line 5" in text
    w = _hover("w)", shift=0)
    assert w.startswith("**w**: `float[4]`") and "initializer" in w


def test_live_values_in_the_hover() -> None:
    doc = parse_document(TEXT)
    found = hover_at(doc, TEXT.index("a, w"), live={"graph": {"a": "float32[2, 4] min=0 max=1 mean=0.25"}})
    assert found is not None and "live value: `float32[2, 4] min=0 max=1 mean=0.25`" in found.markdown


def test_local_function_call_shows_its_signature() -> None:
    text = _hover("twice:v1")
    assert "twice:v1 (p) => (q)" in text and "1 call" in text


def test_nothing_to_say() -> None:
    doc = parse_document(TEXT)
    assert hover_at(doc, TEXT.index("{\n   a")) is None


def test_value_hover_separates_definition_and_uses() -> None:
    """Markdown joins consecutive lines: the definition and the uses are one line with a separator."""
    text = _hover("a, w", shift=0)
    assert "node output, defined at line 5; 1 use" in text


def test_dimensions() -> None:
    assert _hover("N, 4] x", shift=0).startswith("**N**: a symbolic dimension (`dim_param`)")
    assert "(3 times in this text)" in _hover("N, 4] x", shift=0)
    assert _hover("4] x", shift=0) == "**4**: a fixed dimension (`dim_value`)"


def test_header_keys() -> None:
    assert _hover("ir_version").startswith("**ir_version**: `ModelProto.ir_version`, the version of the IR")
    assert _hover("opset_import").startswith("**opset_import**: `ModelProto.opset_import`")
    assert _hover("overload").startswith("**overload**: `FunctionProto.overload`")
