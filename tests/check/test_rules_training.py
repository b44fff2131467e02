"""Training: E601 (bindings), and the graph rules over the initialization and algorithm graphs."""

from __future__ import annotations

import pytest
from checkutil import diagnostics, located

from onnxtext.api import check, parse_model
from onnxtext.proto import ModelProto

BASE = (
    '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2] x) => (float[2] y) <float[2] w = {1, 2}> { y = '
    "Add(x, w) }\n"
)


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


def test_e601_update_may_bind_a_main_graph_output() -> None:
    m = _model()
    m.training_info[0].update_binding[0].value = "y"
    assert check(m, select=["E601"]) == []


def test_e601_a_variable_is_updated_by_one_training_info_only() -> None:
    m = _model()
    m.training_info.add().CopyFrom(m.training_info[0])
    diags = check(m, select=["E601"])
    assert [(d.code, d.path) for d in diags] == [("E601", "training_info[1]/update_binding[0]")]
    assert "already updated by training_info[0]" in diags[0].message


# ---------------------------------------------------------------- training graphs, in text

H = '<ir_version: 10, opset_import: ["" : 21],\n'
MAIN = "g (float[2] x) => (float[2] y) <float[2] w = {1, 2}> {\n  t = Mul(x, w)\n  y = Relu(t)\n}\n"
# An initialization graph whose output carries the name of the state variable it is bound
# to, and an algorithm graph that reads a main-graph node output (t) and initializer (w)
# and has a state variable of its own (its iteration count).
TRAINING = (
    H
    + " training_info: [{initialization: init () => (float[2] w, int64 n) {\n"
    + "      w = RandomNormal <shape = [2]> ()\n"
    + "      n = Constant <value = int64 {0}> ()\n"
    + "    },\n"
    + '    initialization_binding: ["w": "w", "n": "n"],\n'
    + "    algorithm: step (float[2] g) => (float[2] w_new, int64 n_new) <int64 n = {0}, int64 one = {1}> {\n"
    + "      d = Mul(g, t)\n"
    + "      w_new = Sub(w, d)\n"
    + "      n_new = Add(n, one)\n"
    + "    },\n"
    + '    update_binding: ["w": "w_new", "n": "n_new"]}]>\n'
    + MAIN
)


def test_training_graphs_valid() -> None:
    assert located(TRAINING) == []


def test_onnx_training_example() -> None:
    """The model of onnx's training_tool_test: the algorithm graph reads the main graph's MatMul output."""
    onnx = pytest.importorskip("onnx")
    import numpy as np

    text = (
        '<ir_version: 10, opset_import: ["" : 21]>\ng (float[2, 2] A, float[2, 2] B) => (float[2, 2] C) { C = '
        "MatMul(A, B) }\n"
    )
    m = onnx.parser.parse_model(text)
    algorithm = onnx.parser.parse_graph("simple_training (float[2, 2] X) => (float[2, 2] Y) { Y = MatMul(X, C) }")
    m.training_info.append(onnx.helper.make_training_info(algorithm, [("B", "Y")], None, None))
    m.graph.initializer.append(onnx.numpy_helper.from_array(np.ones((2, 2), np.float32), "B"))
    assert [str(d) for d in check(m) if d.is_error] == []


def test_e204_undefined_in_algorithm_graph() -> None:
    text = TRAINING.replace("Mul(g, t)", "Mul(g, tt)")
    assert located(text, "E204") == [("E204", 8, 18)]


def test_e204_initialization_graph_sees_only_state_variables() -> None:
    """It may read initializers (state variables), but not the main graph's inputs or node outputs."""
    reads_state = TRAINING.replace("RandomNormal <shape = [2]> ()", "Neg(w)")
    assert located(reads_state, "E2") == []
    reads_input = TRAINING.replace("RandomNormal <shape = [2]> ()", "Neg(x)")
    assert located(reads_input, "E204") == [("E204", 3, 15)]
    reads_node = TRAINING.replace("RandomNormal <shape = [2]> ()", "Neg(t)")
    assert located(reads_node, "E204") == [("E204", 3, 15)]


def test_e203_algorithm_output_reuses_a_main_graph_name() -> None:
    text = TRAINING.replace("d = Mul(g, t)", "t = Mul(g, t)").replace("Sub(w, d)", "Sub(w, t)")
    diags = diagnostics(text, "E203")
    assert located(text, "E203") == [("E203", 8, 7)]
    assert "of the main graph" in diags[0].message
    assert diags[0].related[0].span.start.line == 14  # type: ignore[union-attr]


def test_e203_algorithm_input_reuses_a_main_graph_name() -> None:
    text = TRAINING.replace("step (float[2] g)", "step (float[2] x)").replace("Mul(g, t)", "Mul(x, t)")
    assert located(text, "E203") == [("E203", 7, 31)]
    # an input may share its name with an initializer (the initializer is its default)
    assert located(TRAINING.replace("step (float[2] g)", "step (float[2] g, float[2] w)"), "E203") == []


def test_e206_algorithm_initializer_duplicates_a_main_initializer() -> None:
    text = TRAINING.replace("int64 one = {1}", "float[2] w = {0, 0}")
    assert located(text, "E206") == [("E206", 7, 92)]


def test_e205_algorithm_outputs() -> None:
    assert (
        located(TRAINING.replace("(float[2] w_new, int64 n_new)", "(float[2] w_new, int64 n_new, float[2] t)"), "E205")
        == []
    )
    assert located(TRAINING.replace("(float[2] w_new, int64 n_new)", "(float[2] w_new, int64 n_next)"), "E205") == [
        ("E205", 7, 60)
    ]


def test_node_rules_in_training_graphs() -> None:
    text = TRAINING.replace("Sub(w, d)", "Sbu(w, d)").replace(
        "RandomNormal <shape = [2]>", "RandomNormal <shape = [2], shap = [2]>"
    )
    assert located(text, "E3") == [("E305", 3, 38), ("E301", 9, 15)]


def test_e601_located_in_text() -> None:
    text = TRAINING.replace('"n": "n_new"', '"m": "n_new"')
    assert located(text, "E601") == [("E601", 12, 36)]


def test_several_training_infos_are_located_apart() -> None:
    second = '{algorithm: other () => (float[2] v) { v = Neg(u) }, update_binding: ["w": "v"]}'
    text = TRAINING.replace('"n": "n_new"]}]>', '"n": "n_new"]},\n  ' + second + "]>")
    assert located(text, "E204", "E601") == [("E204", 13, 50), ("E601", 13, 73)]


def test_training_graph_problems_binary() -> None:
    m = parse_model(TRAINING.replace("Mul(g, t)", "Mul(g, tt)"))
    diags = check(m, select=["E204"])
    assert [(d.code, d.path) for d in diags] == [("E204", "training_info[0]/algorithm/node[0] (Mul) input 1")]
