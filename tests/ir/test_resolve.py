"""ir/resolve: one node → schema/function resolution, shared by checker, inference and evaluator."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from onnxtext import check, parse_model
from onnxtext.analysis.infer.engine import infer_model
from onnxtext.cli import app as cli
from onnxtext.evaluate import Evaluator
from onnxtext.ir.resolve import Resolver, import_table
from onnxtext.proto import FunctionProto, ModelProto, NodeProto, OperatorSetIdProto

OVERLOADS = """\
<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
calls (float[3] x) => (float[3] r, float[3] n)
{
  r = local.f:a(x)
  n = local.f:b(x)
}
<domain: "local", opset_import: ["" : 21], overload: "a">
f (x) => (y)
{
  y = Relu(x)
}
<domain: "local", opset_import: ["" : 21], overload: "b">
f (x) => (y)
{
  y = Neg(x)
}
"""

X = np.array([-1.0, 0.0, 2.0], dtype=np.float32)


def test_overloads_evaluate_each_their_own_body() -> None:
    r, n = Evaluator(parse_model(OVERLOADS)).run(None, {"x": X})
    np.testing.assert_array_equal(r, np.maximum(X, 0))
    np.testing.assert_array_equal(n, -X)


def test_overloads_run_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "overloads.onnxtxt"
    model.write_text(OVERLOADS)
    assert cli.main(["run", str(model), "-i", "x=[-1, 0, 2]"]) == 0
    out = capsys.readouterr().out
    r_line = next(line for line in out.splitlines() if line.startswith("r: "))
    n_line = next(line for line in out.splitlines() if line.startswith("n: "))
    assert "-1" not in r_line and "2" in r_line  # Relu
    assert "-2" in n_line  # Neg


def test_overloads_infer_and_check_clean() -> None:
    model = parse_model(OVERLOADS.replace("(x) => (y)", "(float[3] x) => (float[3] y)"))
    inference = infer_model(model)
    assert inference.issues == []
    assert inference.graphs["graph"]["r"].type_str() == "tensor(float)"
    assert inference.graphs["graph"]["n"].type_str() == "tensor(float)"
    assert check(OVERLOADS) == []


def test_missing_overload_is_reported() -> None:
    text = OVERLOADS.replace("local.f:b(x)", "local.f:c(x)")
    found = [(d.code, d.span.start.line, d.span.start.column) for d in check(text) if d.span is not None]
    assert ("W301", 5, 13) in found  # at the operator name
    message = next(d.message for d in check(text) if d.code == "W301")
    assert "no overload 'c'" in message and "'a', 'b'" in message


def _model(ir_version: int = 10, imports: dict[str, int] | None = None) -> ModelProto:
    model = ModelProto(ir_version=ir_version)
    for domain, version in (imports or {}).items():
        model.opset_import.append(OperatorSetIdProto(domain=domain, version=version))
    return model


def test_domain_aliases_and_the_last_import_wins() -> None:
    """As onnx.checker and onnxruntime read a domain imported twice (W106)."""
    model = _model(imports={"ai.onnx": 13, "": 18, "custom": 2})
    assert Resolver(model).opsets == {"": 18, "custom": 2}
    assert import_table(model.opset_import) == {"": 18, "custom": 2}
    res = Resolver(model).resolve(NodeProto(op_type="Relu", domain="ai.onnx"), {"": 13})
    assert res.domain == "" and res.version == 13
    assert res.schema is not None and res.schema.since_version == 13


def test_default_opset_before_ir3() -> None:
    assert Resolver(_model(ir_version=2)).opsets == {"": 1}
    assert Resolver(_model(ir_version=3)).opsets == {}
    assert Resolver(_model(ir_version=2, imports={"": 7})).opsets == {"": 7}


def test_function_scope_uses_its_own_imports() -> None:
    model = _model(imports={"": 21, "local": 1})
    fn = FunctionProto(name="f", domain="local")
    fn.opset_import.append(OperatorSetIdProto(domain="", version=6))
    model.functions.append(fn)
    resolver = Resolver(model)
    assert resolver.opsets_of(fn) == {"": 6}
    assert resolver.opsets_of(None) == {"": 21, "local": 1}
    res = resolver.resolve(NodeProto(op_type="Relu"), resolver.opsets_of(fn))
    assert res.version == 6 and res.schema is not None and res.schema.since_version == 6


def test_local_function_wins_over_schema_and_keys_by_overload() -> None:
    model = _model(imports={"": 21})
    first = FunctionProto(name="Relu", domain="ai.onnx")
    second = FunctionProto(name="Relu", domain="", overload="x")
    duplicate = FunctionProto(name="Relu", domain="")
    model.functions.extend([first, second, duplicate])
    resolver = Resolver(model)
    res = resolver.resolve(NodeProto(op_type="Relu"), resolver.opsets)
    assert res.function is model.functions[0] and res.schema is None
    assert res.function_index == 0 and res.function_path == "functions[0]"
    res = resolver.resolve(NodeProto(op_type="Relu", overload="x"), resolver.opsets)
    assert res.function is model.functions[1] and res.function_path == "functions[1]"
    assert sorted(resolver.overloads("ai.onnx", "Relu")) == ["", "x"]
    res = resolver.resolve(NodeProto(op_type="Relu", overload="y"), resolver.opsets)
    assert res.function is None and res.schema is not None


def test_unimported_domain_resolves_to_nothing() -> None:
    resolver = Resolver(_model(imports={"": 21}))
    res = resolver.resolve(NodeProto(op_type="LinearClassifier", domain="ai.onnx.ml"), resolver.opsets)
    assert res.version is None and not res.resolved
