"""Completion contexts from the text before the cursor, and the items offered there."""

from __future__ import annotations

import pytest

from onnxtext.ide.complete import complete, context_at, documentation

HEAD = '<ir_version: 8, opset_import: ["" : 18, "com.x" : 1]>\n'


def _ctx(text: str):  # type: ignore[no-untyped-def]
    """The context at the '|' in ``text``."""
    offset = text.index("|")
    return context_at(text.replace("|", ""), offset)


@pytest.mark.parametrize(
    ("text", "kind", "prefix"),
    [
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Re|", "operator", "Re"),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = |", "operator", ""),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   a = Relu(x)\n   y = com.x.Th|", "operator", "Th"),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Softmax <ax|", "attribute", "ax"),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Softmax <axis = 1, |", "attribute", ""),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Cast <to = |", "attribute_value", ""),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Relu (|", "value", ""),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Add (x, |", "value", ""),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Softmax <axis = 1> (x|", "value", "x"),
        (HEAD + "g (fl|", "dtype", "fl"),
        (HEAD + "g (float[2] x, |", "dtype", ""),
        ("<ir_v|", "header_key", "ir_v"),
        ("<ir_version: 8, |", "header_key", ""),
        ("<\n   ir_version: 8\n   op|", "header_key", "op"),
        ('<\n   ir_version: 8,\n   opset_import: ["" : 18]\n   |', "header_key", ""),
        ("<\n   ir_version: 8,\n   producer_name: |", "none", ""),
        (
            HEAD + 'g (float[2] x) => (float[2] y) {\n   y = Relu (x) @{\n      doc_string: "a"\n      na|',
            "property_key",
            "na",
        ),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Relu (x) @{doc|", "property_key", "doc"),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y|", "none", "y"),
        (HEAD + "g (float[2] x|", "none", "x"),
        (HEAD + "g (float[2] x) => (|", "dtype", ""),
        (HEAD + "g (float[2] x) => (seq(|", "dtype", ""),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = If (c) <then_branch = graph t (|", "dtype", ""),
        # a '(' typed where the operator goes is no signature: no dtypes (issue #29, item 13)
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = (|", "none", ""),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = (|Relu (x)\n}\n", "none", ""),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y, z = (Re|", "none", "Re"),
        (HEAD + "g (float[2] x) => (float[2] y) {\n   y = Cast <to = (|", "none", ""),
    ],
)
def test_contexts(text: str, kind: str, prefix: str) -> None:
    ctx = _ctx(text)
    assert (ctx.kind, ctx.prefix) == (kind, prefix)
    offset = text.index("|")
    assert (ctx.replace.start, ctx.replace.end) == (offset - len(prefix), offset)


def test_context_knows_the_operator_and_attribute() -> None:
    ctx = _ctx(HEAD + "g (x) => (y) {\n   y = com.x.Thing:v2 <alpha = 1, |")
    assert ctx.op == ("com.x", "Thing")
    ctx = _ctx(HEAD + "g (x) => (y) {\n   y = Cast <to = |")
    assert (ctx.op, ctx.attribute) == (("", "Cast"), "to")


def test_operator_items_follow_the_imported_opset() -> None:
    items = complete(_ctx(HEAD + "g (x) => (y) {\n   y = |"), {"": 18}, [("local", "f", ""), ("local", "f", "v2")])
    labels = {i.label for i in items}
    assert {"Relu", "Softmax", "local.f", "local.f:v2"} <= labels
    assert "Gelu" not in labels  # from opset 20 on
    assert "Gelu" in {i.label for i in complete(_ctx(HEAD + "g (x) => (y) {\n   y = |"), {"": 20})}
    relu = next(i for i in items if i.label == "Relu")
    text = documentation(relu.data)
    assert text is not None and text.startswith("**Relu** — ai.onnx, version 14 (the model imports opset 18)")
    assert documentation({"operator": ["", "NoSuchOp", 18]}) is None and documentation("junk") is None


def test_qualified_operator_items() -> None:
    items = complete(_ctx(HEAD + "g (x) => (y) {\n   y = ai.onnx.ml.Sc|"), {"": 18, "ai.onnx.ml": 3})
    assert "Scaler" in {i.label for i in items} and "Relu" not in {i.label for i in items}


def test_attribute_items_insert_the_right_literal() -> None:
    items = complete(_ctx(HEAD + "g (x) => (y) {\n   y = Elu <|"), {"": 18})
    (alpha,) = items
    assert (alpha.label, alpha.insert, alpha.snippet) == ("alpha", "alpha = ${1:1.0}", True)
    items = complete(_ctx(HEAD + "g (x) => (y) {\n   y = Transpose <|"), {"": 18})
    assert [i.insert for i in items] == ["perm = ${1:[]}"]


def test_dtype_value_and_key_items() -> None:
    dtypes = {i.label for i in complete(_ctx(HEAD + "g (|"), {"": 18})}
    assert {"float", "int64", "bfloat16", "seq", "map"} <= dtypes
    codes = complete(_ctx(HEAD + "g (x) => (y) {\n   y = Cast <to = |"), {"": 18})
    assert ("FLOAT (1)", "float", "1") in {(i.label, i.detail, i.insert) for i in codes}
    values = complete(_ctx(HEAD + "g (x) => (y) {\n   y = Relu (|"), {"": 18}, values=[("x", "float[2]")])
    assert [(i.label, i.detail) for i in values] == [("x", "float[2]")]
    keys = {i.label for i in complete(_ctx("<|"), {})}
    assert {"ir_version", "opset_import", "producer_name", "node_domain", "tensor_encoding", "tensor_name"} <= keys
    node_keys = {i.label for i in complete(_ctx(HEAD + "g (x) => (y) {\n   y = Relu (x) @{|"), {})}
    assert {"doc_string", "name", "domain"} <= node_keys


def test_only_a_window_is_read() -> None:
    big = HEAD + "g (x) => (y) {\n" + "   a = Relu (x)\n" * 50_000 + "   y = |"
    assert _ctx(big).kind == "operator"


def test_call_at_counts_the_inputs() -> None:
    from onnxtext.ide.complete import call_at

    def at(text: str):  # type: ignore[no-untyped-def]
        return call_at(text.replace("|", ""), text.index("|"))

    body = HEAD + "g (x) => (y) {\n   y = "
    assert at(body + "Gemm (|") == ("", "Gemm", 0)
    assert at(body + "Gemm (a, |") == ("", "Gemm", 1)
    assert at(body + "Gemm <alpha = 1.0, beta = 2.0> (a, b, c|") == ("", "Gemm", 2)
    assert at(body + "com.x.Thing (a, |") == ("com.x", "Thing", 1)
    assert at(body + "Gemm (a, b) |") is None
    assert at(body + "|") is None


def test_signature_label() -> None:
    from onnxtext.ide.schema_docs import signature_label
    from onnxtext.ir.schemas import get_schema

    clip = get_schema("Clip", "", 18)
    assert clip is not None
    assert signature_label(clip) == "Clip(input: T, min?: T, max?: T) -> (output: T)"


def test_values_in_scope_see_enclosing_graphs() -> None:
    from onnxtext.document import parse_document
    from onnxtext.ide.complete import values_in_scope

    text = HEAD + (
        "g (float[2] x, bool c) => (float[2] y) {\n"
        "   a = Relu (x)\n"
        "   y = If (c) <then_branch = t () => (float[2] u) { u = Neg (a) }, "
        "else_branch = e () => (float[2] v) { v = Abs (a) }>\n"
        "}\n"
    )
    doc = parse_document(text)
    inside = dict(values_in_scope(doc, text.index("Neg (a)") + 5))
    assert set(inside) == {"a", "x", "c"}  # not u (the node's own output), y (the If's), v (the other branch)
    assert inside["a"] == "float[2]"
    outside = dict(values_in_scope(doc, text.index("a = Relu")))
    assert "u" not in outside and outside["x"] == "float[2]"


def test_cast_to_offers_named_types_inserting_the_number() -> None:
    items = complete(_ctx(HEAD + "g (x) => (y) {\n   y = Cast <to = |"), {"": 18})
    by_label = {i.label: i for i in items}
    assert by_label["FLOAT (1)"].insert == "1"
    assert by_label["INT64 (7)"].insert == "7"
    assert by_label["BFLOAT16 (16)"].detail == "bfloat16"
    assert [i.label for i in items][:2] == ["FLOAT (1)", "UINT8 (2)"]


VALUES = HEAD + (
    "g (float[2] x, bool c) => (float[2] y) {\n"
    "   a = Relu (x)\n"
    "   b = Neg (|)\n"
    "   d = Abs (b)\n"
    "   y = If (c) <then_branch = t () => (float[2] u) { u = Neg (a) }, "
    "else_branch = e () => (float[2] v) { v = Abs (a) }>\n"
    "}\n"
)


def _values(text: str) -> set[str]:
    from onnxtext.document import parse_document
    from onnxtext.ide.complete import values_in_scope

    doc = parse_document(text.replace("|", ""))
    return {name for name, _ in values_in_scope(doc, text.index("|"))}


def test_inputs_offered_are_defined_before_the_node() -> None:
    """Not the node's own outputs (b), nor values defined after it (d, y): single assignment,
    nodes in topological order."""
    assert _values(VALUES) == {"x", "c", "a"}


def test_inputs_in_a_subgraph_see_outer_values_defined_before_its_node() -> None:
    text = VALUES.replace("b = Neg (|)", "b = Neg (a)").replace("u = Neg (a)", "u = Neg (|)")
    assert _values(text) == {"x", "c", "a", "b", "d"}


def test_inputs_of_a_node_being_typed_at_the_end() -> None:
    text = HEAD + "g (float[2] x) => (float[2] y) {\n   a = Relu (x)\n   y = Add (a, |\n}\n"
    assert _values(text) == {"x", "a"}
