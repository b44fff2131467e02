"""Public API of onnxtext.evaluate: inputs, outputs, trace, errors, functions, subgraphs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import onnxtext
from onnxtext.evaluate import EvaluationError, Evaluator, TraceEntry
from onnxtext.proto import ModelProto, as_own


def _model(nodes, inputs, outputs, *, opset=21, functions=(), initializers=(), domains=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    ops = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains]
    return helper.make_model(g, opset_imports=ops, functions=list(functions))


def _f(name, shape=None):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def _mlp():
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
        helper.make_node("Add", ["h", "b"], ["hb"], name="add"),
        helper.make_node("Relu", ["hb"], ["y"], name="relu"),
    ]
    w = onnx.numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(3, 2) - 2, "w")
    b = onnx.numpy_helper.from_array(np.array([0.5, -1], dtype=np.float32), "b")
    return _model(nodes, [_f("x", ["N", "K"])], [_f("y", [None, 2])], initializers=[w, b])


def test_accepts_onnx_and_own_models() -> None:
    m = _mlp()
    x = np.ones((2, 3), dtype=np.float32)
    expected = np.maximum(x @ (np.arange(6, dtype=np.float32).reshape(3, 2) - 2) + [0.5, -1], 0)
    own = as_own(m)
    assert isinstance(own, ModelProto)
    for model in (m, own):
        (y,) = Evaluator(model).run(None, {"x": x})
        np.testing.assert_allclose(y, expected)
        assert y.dtype == np.float32


@pytest.mark.parametrize("kind", ["bytes", "path", "str path", "text", "graph", "none"])
def test_anything_but_a_model_is_a_clear_type_error(tmp_path: Path, kind: str) -> None:
    """A model only: files and texts are read by onnxtext.load and onnxtext.parse_model, the one loader."""
    m = _mlp()
    p = tmp_path / "m.onnx"
    p.write_bytes(m.SerializeToString())
    given = {
        "bytes": m.SerializeToString(),
        "path": p,
        "str path": str(p),
        "text": TEXT,
        "graph": m.graph,
        "none": None,
    }[kind]
    with pytest.raises(TypeError, match=r"Evaluator takes a ModelProto .*onnxtext\.load\(path\)"):
        Evaluator(given)


def test_run_selected_outputs_and_intermediates() -> None:
    ev = Evaluator(_mlp())
    x = np.ones((1, 3), dtype=np.float32)
    h, y = ev.run(["h", "y"], {"x": x})
    assert h.shape == (1, 2) and y.shape == (1, 2)
    assert ev.input_names == ["x"] and ev.output_names == ["y"]


def test_trace_reports_every_node_output() -> None:
    ev = Evaluator(_mlp())
    seen: list[tuple[str, int]] = []
    ev.run(None, {"x": np.ones((1, 3), dtype=np.float32)}, trace=lambda n, i, v: seen.append((n, i)))
    assert seen == [("h", 0), ("hb", 1), ("y", 2)]
    entries = ev.trace({"x": np.ones((1, 3), dtype=np.float32)})
    assert [e.name for e in entries] == ["h", "hb", "y"]
    assert isinstance(entries[0], TraceEntry) and entries[2].node_index == 2


def test_shape_mismatch_error_locates_node() -> None:
    ev = Evaluator(_mlp())
    with pytest.raises(EvaluationError) as info:
        ev.run(None, {"x": np.ones((2, 4), dtype=np.float32)})
    rec = info.value.record
    assert rec.node_index == 0 and rec.op_type == "MatMul" and rec.node_name == "mm"
    assert rec.input_shapes == ["float32[2, 4]", "float32[3, 2]"]
    assert "MatMul" in str(info.value) and "node[0]" in str(info.value)
    assert info.value.diagnostics and info.value.diagnostics[0].path == rec.location()


def test_missing_input_and_wrong_dtype() -> None:
    ev = Evaluator(_mlp())
    with pytest.raises(EvaluationError) as info:
        ev.run(None, {})
    assert info.value.record.input_name == "x"
    with pytest.raises(EvaluationError) as info2:
        ev.run(None, {"x": np.ones((1, 3), dtype=np.float64)})
    assert info2.value.record.input_name == "x" and "float64" in info2.value.record.message
    with pytest.raises(EvaluationError) as info3:
        ev.run(None, {"x": np.ones(3, dtype=np.float32)})
    assert "rank 2" in info3.value.record.message


def test_declared_dimension_checked() -> None:
    m = _model([helper.make_node("Relu", ["x"], ["y"])], [_f("x", [2, 3])], [_f("y")])
    with pytest.raises(EvaluationError) as info:
        Evaluator(m).run(None, {"x": np.ones((2, 4), np.float32)})
    assert info.value.record.input_index == 0 and "dimension 1" in info.value.record.message


def test_bad_index_error() -> None:
    m = _model(
        [helper.make_node("Gather", ["x", "i"], ["y"], name="g")],
        [_f("x", [3]), helper.make_tensor_value_info("i", TensorProto.INT64, [1])],
        [_f("y")],
    )
    with pytest.raises(EvaluationError) as info:
        Evaluator(m).run(None, {"x": np.zeros(3, np.float32), "i": np.array([7])})
    assert info.value.record.input_index == 1 and info.value.record.input_name == "i"
    assert "out of range" in info.value.record.message


def test_unknown_operator_fails_at_construction() -> None:
    m = _model([helper.make_node("NoSuchOp", ["x"], ["y"])], [_f("x")], [_f("y")])
    with pytest.raises(EvaluationError) as info:
        Evaluator(m)
    assert info.value.record.op_type == "NoSuchOp"


def test_kernel_chosen_by_opset() -> None:
    # Squeeze-1 takes axes as an attribute, Squeeze-13 as an input
    old = _model([helper.make_node("Squeeze", ["x"], ["y"], axes=[0])], [_f("x", [1, 2])], [_f("y")], opset=11)
    new = _model(
        [helper.make_node("Squeeze", ["x", "a"], ["y"])],
        [_f("x", [1, 2]), helper.make_tensor_value_info("a", TensorProto.INT64, [1])],
        [_f("y")],
        opset=13,
    )
    x = np.zeros((1, 2), np.float32)
    assert Evaluator(old).run(None, {"x": x})[0].shape == (2,)
    assert Evaluator(new).run(None, {"x": x, "a": np.array([0])})[0].shape == (2,)


def test_model_local_function_with_attribute_reference() -> None:
    body = [
        helper.make_node("Constant", [], ["k"], value_float=0.0),
        helper.make_node("LeakyRelu", ["x"], ["t"]),
        helper.make_node("Mul", ["t", "s"], ["y"]),
    ]
    # LeakyRelu's alpha refers to the function attribute "slope"
    a = helper.make_attribute_ref("alpha", onnx.AttributeProto.FLOAT)
    a.ref_attr_name = "slope"
    body[1].attribute.append(a)
    fn = helper.make_function(
        "local", "Scaled", ["x", "s"], ["y"], body, [helper.make_opsetid("", 21)], attributes=["slope"]
    )
    call = helper.make_node("Scaled", ["x", "s"], ["y"], domain="local", slope=0.5)
    m = _model([call], [_f("x", [3]), _f("s", [])], [_f("y")], functions=[fn], domains=["local"])
    (y,) = Evaluator(m).run(None, {"x": np.array([-2, 0, 2], np.float32), "s": np.array(3, np.float32)})
    np.testing.assert_allclose(y, [-3, 0, 6])


def test_loop_sees_outer_scope_values() -> None:
    body = helper.make_graph(
        [
            helper.make_node("Add", ["acc_in", "step"], ["acc_out"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
            _f("acc_in", []),
        ],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), _f("acc_out", [])],
    )
    loop = helper.make_node("Loop", ["n", "", "a0"], ["a"], body=body)
    m = _model(
        [loop], [helper.make_tensor_value_info("n", TensorProto.INT64, []), _f("a0", []), _f("step", [])], [_f("a")]
    )
    (a,) = Evaluator(m).run(None, {"n": np.array(4), "a0": np.array(1, np.float32), "step": np.array(2.5, np.float32)})
    assert float(a) == 11.0


def test_error_inside_subgraph_has_path() -> None:
    then = helper.make_graph([helper.make_node("MatMul", ["x", "x"], ["t"], name="bad")], "then", [], [_f("t")])
    other = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [], [_f("e")])
    m = _model(
        [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other, name="if")],
        [helper.make_tensor_value_info("c", TensorProto.BOOL, []), _f("x", [2, 3])],
        [_f("y")],
    )
    ev = Evaluator(m)
    assert ev.run(None, {"c": np.array(False), "x": np.ones((2, 3), np.float32)})[0].shape == (2, 3)
    with pytest.raises(EvaluationError) as info:
        ev.run(None, {"c": np.array(True), "x": np.ones((2, 3), np.float32)})
    rec = info.value.record
    # helper.make_node sorts attributes by name: else_branch, then then_branch
    assert str(rec.path) == "graph/node[0]/attribute[1]/g/node[0]"
    assert rec.node_name == "bad" and rec.node_index == 0


def test_sequences_and_optionals_round_trip() -> None:
    seq_t = helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, None)
    m = _model(
        [helper.make_node("SequenceInsert", ["s", "x"], ["s2"]), helper.make_node("SequenceLength", ["s2"], ["n"])],
        [seq_t, _f("x", [2])],
        [
            helper.make_tensor_sequence_value_info("s2", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("n", TensorProto.INT64, []),
        ],
    )
    s2, n = Evaluator(m).run(None, {"s": [np.zeros(1, np.float32)], "x": np.ones(2, np.float32)})
    assert isinstance(s2, list) and len(s2) == 2 and int(n) == 2


def test_random_ops_are_reproducible() -> None:
    m = _model([helper.make_node("RandomUniform", [], ["y"], shape=[4])], [], [_f("y")])
    a = Evaluator(m, seed=1).run(None, {})[0]
    b = Evaluator(m, seed=1).run(None, {})[0]
    c = Evaluator(m, seed=2).run(None, {})[0]
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    ev = Evaluator(m, seed=1)
    np.testing.assert_array_equal(ev.run(None, {})[0], ev.run(None, {})[0])


def test_no_onnx_imports_in_src() -> None:
    src = Path(__file__).resolve().parents[2] / "src" / "onnxtext" / "evaluate"
    for p in src.rglob("*.py"):
        text = p.read_text()
        for bad in ("import onnx\n", "from onnx ", "from onnx.", "import onnxruntime"):
            assert bad not in text, f"{p.name} uses {bad.strip()}"
        # ml_dtypes is a runtime dependency, but only the boundary converts to and from it
        assert p.name == "interop.py" or "ml_dtypes" not in text.replace("ml_dtypes.", ""), f"{p.name} uses ml_dtypes"


TEXT = """<ir_version: 8, opset_import: ["" : 18]>
agraph (float[N] x) => (float[N] y) {
    t = Neg(x)
    y = Relu(t)
}"""


def test_text_model_and_text_file(tmp_path: Path) -> None:
    x = np.array([-1, 2], np.float32)
    (y,) = Evaluator(onnxtext.parse_model(TEXT)).run(None, {"x": x})
    np.testing.assert_array_equal(y, [1, 0])
    p = tmp_path / "m.onnxtxt"
    p.write_text(TEXT)
    (y2,) = Evaluator(onnxtext.load(p)).run(None, {"x": x})
    np.testing.assert_array_equal(y2, [1, 0])


def test_attribute_out_of_range_is_located_at_the_attribute() -> None:
    node = helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=0)
    m = _model([node], [_f("x", [1, 8, 2, 2])], [_f("y")])
    with pytest.raises(EvaluationError) as info:
        Evaluator(m)
    assert str(info.value.record.path) == "graph/node[0]/attribute[0]"
    assert "attribute 'blocksize' of DepthToSpace is 0; it must be at least 1" in str(info.value)


def test_an_allocation_numpy_refuses_is_a_located_error() -> None:
    node = helper.make_node("RNN", ["x", "w", "r"], ["y"], hidden_size=2**40)
    inputs = [_f("x", [1, 1, 2]), _f("w", [1, 3, 2]), _f("r", [1, 3, 3])]
    m = _model([node], inputs, [_f("y")])
    feeds = {
        "x": np.ones((1, 1, 2), np.float32),
        "w": np.ones((1, 3, 2), np.float32),
        "r": np.ones((1, 3, 3), np.float32),
    }
    with pytest.raises(EvaluationError) as info:
        Evaluator(m).run(None, feeds)
    assert str(info.value.record.path) == "graph/node[0]" and "out of memory" in str(info.value)


def test_tfidf_huge_skip_count_ends() -> None:
    node = helper.make_node(
        "TfIdfVectorizer",
        ["x"],
        ["y"],
        mode="TF",
        min_gram_length=2,
        max_gram_length=2**40,
        max_skip_count=2**40,
        ngram_counts=[0, 2],
        ngram_indexes=[0, 1, 2],
        pool_int64s=[2, 3, 5, 4],
    )
    m = _model([node], [helper.make_tensor_value_info("x", TensorProto.INT64, [6])], [_f("y")])
    (y,) = Evaluator(m).run(None, {"x": np.array([1, 5, 3, 5, 4, 5], np.int64)})
    assert y.tolist() == [0.0, 0.0, 2.0]
