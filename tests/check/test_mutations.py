"""Break a valid model one rule at a time: our checker must object, and whenever
``onnx.checker.check_model(full_check=True)`` rejects a mutation, we must report an error too."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from onnxtext.api import check, parse_model
from onnxtext.proto import AttributeProto, ModelProto, to_onnx

onnx = pytest.importorskip("onnx")

BASE = """\
<ir_version: 10, opset_import: ["" : 21], producer_name: "mutations">
g (float[N, 4] x) => (float[N, 4] y)
<float[4] b = {1, 2, 3, 4}>
{
  t = Add(x, b)
  s = Softmax <axis = -1> (t)
  y = Relu(s)
}
"""


def base() -> ModelProto:
    return parse_model(BASE)


def _undefined_value(m: ModelProto) -> None:
    m.graph.node[1].input[0] = "nope"


def _duplicate_output(m: ModelProto) -> None:
    m.graph.node[1].output[0] = "t"


def _wrong_order(m: ModelProto) -> None:
    first, second = ModelProto().graph.node.add(), ModelProto().graph.node.add()
    first.CopyFrom(m.graph.node[0])
    second.CopyFrom(m.graph.node[1])
    m.graph.node[0].CopyFrom(second)
    m.graph.node[1].CopyFrom(first)


def _unknown_op(m: ModelProto) -> None:
    m.graph.node[2].op_type = "Rleu"


def _bad_attribute_type(m: ModelProto) -> None:
    a = m.graph.node[1].attribute[0]
    a.ClearField("i")
    a.type = AttributeProto.FLOAT
    a.f = -1.0


def _unknown_attribute(m: ModelProto) -> None:
    m.graph.node[1].attribute[0].name = "axes"


def _wrong_arity(m: ModelProto) -> None:
    m.graph.node[2].input.append("s")


def _untyped_input(m: ModelProto) -> None:
    m.graph.input[0].ClearField("type")


def _missing_ir_version(m: ModelProto) -> None:
    m.ClearField("ir_version")


def _missing_opset_import(m: ModelProto) -> None:
    m.ClearField("opset_import")


def _wrong_initializer_size(m: ModelProto) -> None:
    m.graph.initializer[0].float_data.append(5.0)


def _unimported_domain(m: ModelProto) -> None:
    m.graph.node[2].domain = "com.microsoft"


def _undefined_graph_output(m: ModelProto) -> None:
    m.graph.output[0].name = "z"


def _ir_opset_mismatch(m: ModelProto) -> None:
    m.ir_version = 3


def _duplicate_initializer(m: ModelProto) -> None:
    m.graph.initializer.add().CopyFrom(m.graph.initializer[0])


def _missing_required_attribute(m: ModelProto) -> None:
    n = m.graph.node[2]
    n.op_type = "Cast"


def _unnamed_graph(m: ModelProto) -> None:
    m.graph.name = ""


def _required_input_empty(m: ModelProto) -> None:
    m.graph.node[0].input[0] = ""


def _shapeless_input(m: ModelProto) -> None:
    m.graph.input[0].type.tensor_type.ClearField("shape")


MUTATIONS: dict[str, tuple[Callable[[ModelProto], None], str]] = {
    "undefined value": (_undefined_value, "E204"),
    "duplicate output": (_duplicate_output, "E203"),
    "wrong order": (_wrong_order, "E204"),
    "unknown op": (_unknown_op, "E301"),
    "bad attribute type": (_bad_attribute_type, "E306"),
    "unknown attribute": (_unknown_attribute, "E305"),
    "wrong arity": (_wrong_arity, "E303"),
    "untyped top-level input": (_untyped_input, "E202"),
    "missing ir_version": (_missing_ir_version, "E101"),
    "missing opset import": (_missing_opset_import, "E103"),
    "wrong initializer size": (_wrong_initializer_size, "E501"),
    "unimported domain": (_unimported_domain, "E302"),
    "undefined graph output": (_undefined_graph_output, "E205"),
    "IR/opset mismatch": (_ir_opset_mismatch, "W101"),
    "duplicate initializer": (_duplicate_initializer, "E206"),
    "missing required attribute": (_missing_required_attribute, "E307"),
    "unnamed graph": (_unnamed_graph, "E201"),
    "required input empty": (_required_input_empty, "E303"),
    "shapeless top-level input": (_shapeless_input, "E208"),
}


def onnx_rejects(m: ModelProto) -> str | None:
    try:
        onnx.checker.check_model(to_onnx(m), full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as exc:
        return str(exc)
    return None


def test_base_is_valid_for_both() -> None:
    assert onnx_rejects(base()) is None
    assert check(base()) == []
    assert check(BASE) == []


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_mutation_is_reported(name: str) -> None:
    mutate, code = MUTATIONS[name]
    m = base()
    mutate(m)
    diags = check(m)
    assert code in {d.code for d in diags}, [str(d) for d in diags]
    if onnx_rejects(m) is not None:
        assert any(d.is_error for d in diags), f"onnx rejects '{name}' but we found no error"
    if code.startswith("E"):
        assert any(d.is_error and d.code == code for d in diags)
    for d in diags:
        assert d.path, "binary models get readable paths"


def test_mutations_located_in_text() -> None:
    """The same break made in the text is reported at the offending token."""
    text = BASE.replace("y = Relu(s)", "y = Relu(q)")
    (diag,) = check(text)
    assert (diag.code, diag.span.start.line, diag.span.start.column) == ("E204", 7, 12)  # type: ignore[union-attr]
