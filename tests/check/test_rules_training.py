"""Training rules: E601."""

from __future__ import annotations

from onnxtext.check import check
from onnxtext.document import parse_model
from onnxtext.proto import ModelProto

BASE = '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) <float[2] w = {1, 2}> { y = Add(x, w) }\n'


def _model() -> ModelProto:
    m = parse_model(BASE)
    info = m.training_info.add()
    info.algorithm.name = "step"
    out = info.algorithm.output.add()
    out.name = "w_new"
    node = info.algorithm.node.add()
    node.op_type, node.domain = "Neg", ""
    node.input.append("w")
    node.output.append("w_new")
    b = info.update_binding.add()
    b.key, b.value = "w", "w_new"
    return m


def test_valid_binding() -> None:
    assert check(_model(), select=["E601"]) == []


def test_e601_bad_key_and_value() -> None:
    m = _model()
    b = m.training_info[0].update_binding.add()
    b.key, b.value = "v", "nothing"
    diags = check(m, select=["E601"])
    assert [(d.code, d.path) for d in diags] == [("E601", "training_info[0]/update_binding[1]")] * 2


def test_e601_duplicate_key_and_missing_initialization() -> None:
    m = _model()
    m.training_info[0].update_binding.add().CopyFrom(m.training_info[0].update_binding[0])
    b = m.training_info[0].initialization_binding.add()
    b.key, b.value = "w", "w0"
    codes = [d.message for d in check(m, select=["E601"])]
    assert any("no initialization graph" in c for c in codes)
    assert any("binds 'w' twice" in c for c in codes)
