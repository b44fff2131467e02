"""Node rules: E301-E310, W301."""

from __future__ import annotations

from checkutil import diagnostics, located

H = '<ir_version: 10, opset_import: ["" : 21]>\n'


def g(body: str, inputs: str = "float[2] x", outputs: str = "float[2] y") -> str:
    return H + f"g ({inputs}) => ({outputs}) {{\n{body}\n}}\n"


def test_valid_nodes() -> None:
    text = g("  t = Clip(x)\n  c = Concat <axis = 0> (t, x)\n  y = Softmax <axis = -1> (t)")
    assert located(text, "E3") == []


def test_e301_unknown_operator_with_suggestion() -> None:
    text = g("  y = Rleu(x)")
    assert located(text, "E301") == [("E301", 3, 7)]
    assert "did you mean 'Relu'" in diagnostics(text, "E301")[0].message


def test_e301_operator_newer_than_opset() -> None:
    text = '<ir_version: 7, opset_import: ["" : 12]>\ng (float[2] x) => (float[2] y) {\n  y = Gelu(x)\n}\n'
    assert located(text, "E301") == [("E301", 3, 7)]


def test_e301_custom_domains_are_not_checked() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "com.example" : 1]>\ng (float[2] x) => (float[2] y) {\n'
        "  y = com.example.Anything(x)\n}\n"
    )
    assert located(text, "E3") == []


def test_e302_domain_not_imported() -> None:
    text = g("  y = com.microsoft.Gelu(x)")
    assert located(text, "E302") == [("E302", 3, 7)]


def test_e302_ml_domain_not_imported() -> None:
    text = g("  y = ai.onnx.ml.Normalizer(x)")
    assert located(text, "E302") == [("E302", 3, 7)]


def test_e303_too_many_inputs() -> None:
    text = g("  y = Relu(x, x)")
    assert located(text, "E303") == [("E303", 3, 15)]


def test_e303_too_few_inputs() -> None:
    text = g("  y = Add(x)")
    assert located(text, "E303") == [("E303", 3, 7)]


def test_e303_required_input_empty() -> None:
    text = g('  y = Gemm("", x)')
    assert located(text, "E303") == [("E303", 3, 12)]


def test_e303_variadic_and_optional_ok() -> None:
    text = g('  y = Sum(x, x, x, x)\n  z = Clip(x, "", "")', outputs="float[2] y, float[2] z")
    assert located(text, "E303") == []


def test_e304_too_many_outputs() -> None:
    text = g("  y, z = Relu(x)", outputs="float[2] y, float[2] z")
    assert located(text, "E304") == [("E304", 3, 6)]


def test_e305_unknown_attribute() -> None:
    text = g("  y = Softmax <axsi = 1> (x)")
    assert located(text, "E305") == [("E305", 3, 16)]
    assert "did you mean 'axis'" in diagnostics(text, "E305")[0].message


def test_e306_wrong_attribute_type() -> None:
    text = g("  y = Softmax <axis = 1.5> (x)")
    assert located(text, "E306") == [("E306", 3, 16)]
    assert "INT, not FLOAT" in diagnostics(text, "E306")[0].message


def test_e306_integer_literal_for_a_float() -> None:
    text = g("  y = Elu <alpha = 2> (x)")
    assert located(text, "E306") == [("E306", 3, 12)]
    (diag,) = diagnostics(text, "E306")
    assert diag.message == "attribute 'alpha' of Elu is a float; write 2.0"
    assert diag.fix is not None and diag.fix.apply(text) == g("  y = Elu <alpha = 2.0> (x)")


def test_e306_integer_list_for_floats() -> None:
    text = g("  y = Constant <value_floats = [1, -2]> ()")
    assert located(text, "E306") == [("E306", 3, 17)]
    (diag,) = diagnostics(text, "E306")
    assert diag.message == "attribute 'value_floats' of Constant is a list of floats; write [1.0, -2.0]"
    assert diag.fix is not None and diag.fix.apply(text) == g("  y = Constant <value_floats = [1.0, -2.0]> ()")


def test_e306_hex_integer_for_a_float() -> None:
    text = g("  y = Elu <alpha = 0x10> (x)")
    assert located(text, "E306") == [("E306", 3, 12)]
    assert diagnostics(text, "E306")[0].message == "attribute 'alpha' of Elu is a float; write 16.0"


def test_hex_integer_attribute_is_an_int() -> None:
    text = g("  y = Softmax <axis = 0x0> (x)")
    assert located(text) == []


def test_e306_float_literals_are_fine() -> None:
    assert located(g("  y = Elu <alpha = 2.0> (x)"), "E306") == []
    assert located(g("  y = Constant <value_floats = [1.0, 2e0]> ()"), "E306") == []
    assert located(g("  y = LeakyRelu <alpha = -3.5> (x)"), "E306") == []


def test_e307_required_attribute_missing() -> None:
    text = g("  y = Cast(x)")
    assert located(text, "E307") == [("E307", 3, 7)]


def test_e307_constant_takes_exactly_one_value() -> None:
    """onnx: 'One and only one of the attributes 'value', 'value_*' or 'sparse_value' must be
    specified for a Constant node' (none is required by the schema); a reference in a function counts."""
    text = g("  c = Constant ()\n  d = Constant <value_float = 1.0, value_int = 2> ()\n  y = Identity (x)")
    assert located(text, "E307") == [("E307", 3, 7), ("E307", 4, 7)]
    none, two = diagnostics(text, "E307")
    assert none.message.startswith("'Constant' needs exactly one of the attributes sparse_value, value, value_float,")
    assert none.message.endswith("; it has none")
    assert two.message.endswith("; it has 'value_float' and 'value_int'")
    assert located(g("  c = Constant <value_ints = [1]> ()\n  y = Identity (x)"), "E307") == []
    function = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "g (float[2] x) => (int64[1] y) { y = local.F <n = [1]> () }\n"
        '<domain: "local", opset_import: ["" : 21]>\n'
        "F <n> () => (c) { c = Constant <value_ints: ints = @n> () }\n"
    )
    assert located(function, "E307") == []


def test_e308_duplicate_attribute() -> None:
    text = g("  y = Softmax <axis = 1, axis = 0> (x)")
    assert located(text, "E308") == [("E308", 3, 26)]


def test_e309_reference_outside_function() -> None:
    text = g("  y = Softmax <axis: int = @ax> (x)")
    assert located(text, "E309") == [("E309", 3, 16)]


def test_w302_reference_to_undeclared_function_attribute() -> None:
    """onnx.checker and onnxruntime accept it (the call's attribute of that name is taken): a warning."""
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "g (float[2] x) => (float[2] y) { y = local.F(x) }\n"
        '<domain: "local", opset_import: ["" : 21]>\n'
        "F <alpha> (a) => (b) {\n"
        "  b = LeakyRelu <alpha: float = @alpah> (a)\n"
        "}\n"
    )
    assert located(text, "E3", "W3") == [("W302", 5, 18)]
    (found,) = diagnostics(text, "W302")
    assert "did you mean 'alpha'" in found.message and found.fix is not None
    assert located(text.replace("@alpah", "@alpha"), "E3", "W3") == []


def test_w301_missing_local_function() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "g (float[2] x) => (float[2] y) { y = local.G(x) }\n"
        '<domain: "local", opset_import: ["" : 21]>\n'
        "F (a) => (b) { b = Relu(a) }\n"
    )
    assert located(text, "W301") == [("W301", 2, 44)]


def test_local_function_call_arity_and_attributes() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "g (float[2] x) => (float[2] y) { y = local.F <beta = 1.0> (x, x) }\n"
        '<domain: "local", opset_import: ["" : 21]>\n'
        "F <alpha> (a) => (b) { b = Relu(a) }\n"
    )
    assert located(text, "E3", "W3") == [("W302", 2, 47), ("E303", 2, 63)]
    assert "function 'F' declares no attribute 'beta'" in diagnostics(text, "W302")[0].message


def test_e304_local_function_call_with_fewer_outputs() -> None:
    """A call may leave off a function's inputs, not its outputs (onnx's inference and onnxruntime
    refuse it: 'Output 1 is out of bounds'); an empty name keeps the place of an unused one."""
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "g (float[2] x) => (float[2] y) { y = local.F(x) }\n"
        '<domain: "local", opset_import: ["" : 21]>\n'
        "F (a, c) => (b, d) { b = Relu(a) d = Neg(a) }\n"
    )
    assert located(text, "E3") == [("E304", 2, 44)]
    assert diagnostics(text, "E304")[0].message == "function 'F' has 2 outputs, got 1: a call names each of them"
    assert located(text.replace("y = local", 'y, "" = local'), "E3") == []


def test_e310_attribute_with_two_values() -> None:
    from onnxtext.api import check, parse_model

    m = parse_model(g("  y = Softmax <axis = 1> (x)"))
    m.graph.node[0].attribute[0].f = 2.0
    diags = check(m, select=["E310"])
    assert [(d.code, d.path) for d in diags] == [("E310", "graph/node[0] (Softmax) attribute 'axis'")]
    assert check(g("  y = Softmax <axis = 1> (x)"), select=["E310"]) == []


def test_e311_blocksize_zero() -> None:
    for op in ("DepthToSpace", "SpaceToDepth"):
        text = g(f"  y = {op} <blocksize = 0> (x)", "float[1, 8, 2, 2] x", "float[1, 2, 4, 4] y")
        assert located(text, "E311") == [("E311", 3, 21)]
        (d,) = diagnostics(text, "E311")
        assert d.message == f"attribute 'blocksize' of {op} is 0; it must be at least 1"
        assert located(text.replace("blocksize = 0", "blocksize = 2"), "E311") == []
        assert "E311" in {d.code for d in diagnostics(text)}  # all rules: inference does not divide by it


def test_e311_scan_inputs_beyond_the_inputs() -> None:
    body = "body = g2 (float[2] s, float[2] e) => (float[2] s2) { s2 = Add(s, e) }"
    text = g(f"  y = Scan <num_scan_inputs = 1099511627776, {body}> (x, x)", "float[2] x")
    assert located(text, "E311") == [("E311", 3, 13)]
    assert "it must be from 1 to 2" in diagnostics(text, "E311")[0].message
    assert located(text.replace("1099511627776", "1"), "E311") == []


def test_e311_split_num_outputs_counts_the_outputs() -> None:
    text = g("  a, b = Split <axis = 0, num_outputs = 3> (x)", "float[4] x", "float[2] a, float[2] b")
    assert located(text, "E311") == [("E311", 3, 27)]
    assert diagnostics(text, "E311")[0].message.endswith("is 3; it must be 2")
    assert located(text.replace("num_outputs = 3", "num_outputs = 2"), "E311") == []


def test_e311_hidden_size_and_binary_models_by_path() -> None:
    from onnxtext import parse_model
    from onnxtext.analysis.check import check_proto

    text = g(
        "  y = RNN <hidden_size = -1> (x, w, r)",
        "float[1, 1, 2] x, float[1, 3, 2] w, float[1, 3, 3] r",
        "float[1, 1, 1, 3] y",
    )
    assert located(text, "E311") == [("E311", 3, 12)]
    (d,) = [d for d in check_proto(parse_model(text)) if d.code == "E311"]
    assert d.path == "graph/node[0] (RNN) attribute 'hidden_size'"


def test_e312_attribute_naming_an_element_type() -> None:
    """onnx: 'Invalid tensor data type 0', 'Attribute to does not specify a valid type'; the
    inference then leaves the element type unknown instead of a contradiction of its own."""
    for value in ("0", "-7", "99"):
        text = g(f"  y = Cast <to = {value}> (x)")
        assert located(text, "E312", "E704") == [("E312", 3, 13)], value
    (diag,) = diagnostics(g("  y = Cast <to = 99> (x)"), "E312")
    assert diag.message == (
        "attribute 'to' of Cast is 99, which is no element type: it holds a TensorProto data type, "
        "such as 1 (float) or 7 (int64)"
    )
    random = g("  y = RandomUniformLike <dtype = -7> (x)")
    assert located(random, "E312") == [("E312", 3, 26)]
    assert located(g("  y = Cast <to = 1> (x)"), "E312") == []
    default = g("  q = QuantizeLinear <output_dtype = 0> (x, s)\n  y = Identity (x)", "float[2] x, float s")
    assert located(default, "E312") == []  # 0: the zero point's type, or uint8
