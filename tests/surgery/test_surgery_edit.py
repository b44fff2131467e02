"""The edit operations: each changes what it names and nothing else, and refuses with a located code."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from surgery_support import changed_parts, error_codes, model, onnx_check

from onnxtext import surgery
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.proto import ModelProto
from onnxtext.surgery import SurgeryError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

TEXT = """<ir_version: 10, opset_import: ["" : 21], producer_name: "p", metadata_props: ["k": "v"]>
g (float[N, 4] x, float[4] bias) => (float[N, 4] y)
<float[N, 4] a, float[4] w = {1, 2, 3, 4}>
{
   a = Add (x, w)
   d = Identity (a)
   c = Cast <to = 1> (d)
   b = Relu (c)
   y = Add (b, bias)
}
"""


def _copy(m: ModelProto) -> ModelProto:
    out = ModelProto()
    out.CopyFrom(m)
    return out


def _codes(exc: pytest.ExceptionInfo[SurgeryError]) -> list[str]:
    return [d.code for d in exc.value.diagnostics]


def test_deleting_an_identity_rewires_its_readers_and_drops_nothing_else() -> None:
    before = model(TEXT)
    after = _copy(before)
    assert surgery.delete_node(after, "d") == []
    assert [list(n.input) for n in after.graph.node] == [["x", "w"], ["a"], ["c"], ["b", "bias"]]
    assert set(changed_parts(before, after)) == {"graph.node"}
    onnx_check(after)
    assert error_codes(after) == set()


def test_a_cast_to_its_own_type_is_bypassed_and_a_graph_output_keeps_its_name() -> None:
    m = model(TEXT.replace("y = Add (b, bias)", "y = Identity (b)"))
    surgery.delete_node(m, "c")  # Cast to float of a float
    surgery.delete_node(m, "y")  # the Identity making the graph output: Relu now makes 'y'
    assert [(n.op_type, list(n.output)) for n in m.graph.node] == [
        ("Add", ["a"]),
        ("Identity", ["d"]),
        ("Relu", ["y"]),
    ]
    assert list(m.graph.node[2].input) == ["d"]
    onnx_check(m)


def test_deleting_another_node_leaves_its_readers_dangling_with_a_warning() -> None:
    m = model(TEXT)
    notes = surgery.delete_node(m, "b")
    assert [d.code for d in notes] == ["S006"] and "'b' is no longer produced" in notes[0].message
    assert "y" in notes[0].message
    assert error_codes(m) == {"E204"}  # the checker: a node reads a value nothing defines


def test_a_node_is_named_by_its_name_or_its_output_and_unknown_names_get_the_nearest() -> None:
    m = model(TEXT.replace("b = Relu (c)", "[relu0] b = Relu (c)"))
    surgery.delete_node(_copy(m), "relu0")
    with pytest.raises(SurgeryError) as exc:
        surgery.delete_node(m, "relu")
    assert _codes(exc) == ["S001"] and "'relu0'" in str(exc.value)


def test_an_unknown_name_lists_the_three_nearest_best_first() -> None:
    """``problems.unknown`` (S001): the names most like the one asked for (difflib's, cutoff 0.5),
    three at most, best first, each once; none when nothing is near."""
    from onnxtext.surgery.problems import unknown

    names = ["weight_1", "weight_2", "weight", "bias", "weight_1", "wait", "w"]
    assert unknown("value", "weigth", names).diagnostics[0].message == (
        "no value 'weigth' in the model; the nearest: 'weight', 'weight_2', 'weight_1'"
    )
    assert unknown("value", "zzz", names).diagnostics[0].message == "no value 'zzz' in the model"
    assert unknown("graph input", "bia", ["bias"]).diagnostics[0].message.endswith("; the nearest: 'bias'")


def test_rename_reaches_every_place_and_back_again_gives_the_same_bytes() -> None:
    text = """<ir_version: 10, opset_import: ["" : 21]>
g (bool c, float[2] x) => (float[2] y) <float[2] x2>
{
   x2 = Neg (x)
   y = If (c) <
      then_branch = t () => (float[2] o) { o = Identity (x2) },
      else_branch = e () => (float[2] p) { p = Abs (x2) }
   >
}
"""
    before = model(text)
    after = _copy(before)
    surgery.rename_value(after, "x2", "renamed")
    assert "x2" not in after.SerializeToString().decode("latin-1")
    surgery.rename_value(after, "renamed", "x2")
    assert after.SerializeToString() == before.SerializeToString()
    with pytest.raises(SurgeryError) as exc:
        surgery.rename_value(after, "x2", "y")
    assert _codes(exc) == ["S003"]


def test_add_output_takes_the_inferred_type_and_remove_output_undoes_it() -> None:
    before = model(TEXT)
    after = _copy(before)
    surgery.add_output(after, "b")
    out = after.graph.output[-1]
    assert out.name == "b" and out.type.tensor_type.elem_type == 1
    assert [d.dim_param or d.dim_value for d in out.type.tensor_type.shape.dim] == ["N", 4]
    onnx_check(after)
    surgery.remove_output(after, "b")
    assert after.SerializeToString() == before.SerializeToString()
    with pytest.raises(SurgeryError) as exc:
        surgery.add_output(after, "y")
    assert _codes(exc) == ["S002"]


def test_add_output_copies_a_declaration() -> None:
    m = model(TEXT)
    surgery.add_output(m, "a")
    assert m.graph.output[-1].SerializeToString() == m.graph.value_info[0].SerializeToString()


def test_set_input_shape_sets_sizes_symbols_and_free_dimensions() -> None:
    before = model(TEXT)
    after = _copy(before)
    surgery.set_input_shape(after, "x", [1, "F"], follow=False)
    dims = after.graph.input[0].type.tensor_type.shape.dim
    assert [(d.HasField("dim_value"), d.dim_value, d.dim_param) for d in dims] == [(True, 1, ""), (False, 0, "F")]
    assert set(changed_parts(before, after)) == {"graph.input"}
    surgery.set_input_shape(after, "x", [None, 4], follow=False)
    assert not after.graph.input[0].type.tensor_type.shape.dim[0].HasField("dim_value")
    surgery.set_input_shape(after, "x", ["N", 4], follow=False)
    assert after.SerializeToString() == before.SerializeToString()
    assert surgery.set_input_shape(after, "x", ["N", 4]) == []  # the shape it has: nothing said, nothing changed
    assert after.SerializeToString() == before.SerializeToString()
    with pytest.raises(SurgeryError) as exc:
        surgery.set_input_shape(after, "w", [4])
    assert _codes(exc) == ["S002"] and "initializer" in str(exc.value)


def _dims(info: object) -> list[object]:
    return [d.dim_param or (d.dim_value if d.HasField("dim_value") else None) for d in info.type.tensor_type.shape.dim]  # type: ignore[attr-defined]


def test_declared_shapes_that_followed_an_input_follow_its_new_shape() -> None:
    """An exporter's value_info and outputs say what inference gives: set the input's shape and they
    say what it gives now (S010), each changed dimension alone; a declaration that said something
    else stays as it was; the way back gives the model back byte for byte."""
    text = TEXT.replace("<float[N, 4] a,", "<float[N, 4] a, float[M, 4] d,")
    before = model(text)
    after = _copy(before)
    notes = surgery.set_input_shape(after, "x", [2, 4])
    assert [(d.code, d.severity.value) for d in notes] == [("S010", "info")]
    assert "'a'" in notes[0].message and "'y'" in notes[0].message and "'d'" not in notes[0].message
    declared = {v.name: _dims(v) for v in (*after.graph.value_info, *after.graph.output)}
    assert declared == {"a": [2, 4], "d": ["M", 4], "y": [2, 4]}
    assert set(changed_parts(before, after)) == {"graph.input", "graph.value_info", "graph.output"}
    assert error_codes(after) == set()
    onnx_check(after)
    surgery.set_input_shape(after, "x", ["N", 4])
    assert after.SerializeToString() == before.SerializeToString()


def test_a_shape_of_another_rank_is_a_warning_and_declarations_that_followed_take_the_new_rank() -> None:
    after = model(TEXT)
    notes = surgery.set_input_shape(after, "x", ["N", 3, 4])
    assert [d.code for d in notes] == ["S011", "S010"] and notes[0].path == "graph/input[0]"
    assert "had 2 dimensions and now has 3" in notes[0].message
    assert {v.name: _dims(v) for v in after.graph.value_info} == {"a": ["N", 3, 4]}


def test_make_constant_moves_an_input_to_the_initializers() -> None:
    before = model(TEXT)
    after = _copy(before)
    surgery.make_constant(after, "bias", np.arange(4, dtype=np.float32))
    assert [v.name for v in after.graph.input] == ["x"]
    assert np.array_equal(to_numpy(after.graph.initializer[-1]), np.arange(4, dtype=np.float32))
    assert set(changed_parts(before, after)) == {"graph.input", "graph.initializer"}
    onnx_check(after)
    for bad in (np.arange(4, dtype=np.float64), np.zeros((2, 2), np.float32)):
        with pytest.raises(SurgeryError) as exc:
            surgery.make_constant(_copy(before), "bias", bad)
        assert _codes(exc) == ["S004"]


def test_an_initializer_becomes_an_input_of_its_type() -> None:
    m = model(TEXT)
    surgery.initializer_to_input(m, "w")
    assert [v.name for v in m.graph.input] == ["x", "bias", "w"] and not m.graph.initializer
    assert [d.dim_value for d in m.graph.input[-1].type.tensor_type.shape.dim] == [4]
    onnx_check(m)
    with pytest.raises(SurgeryError) as exc:
        surgery.initializer_to_input(m, "x")
    assert _codes(exc) == ["S001"]


def test_every_example_renames_and_exports_losslessly() -> None:
    from onnxtext import parse_model

    for path in sorted(EXAMPLES.glob("*.onnxtxt")):
        before = parse_model(path.read_text(), str(path))
        after = _copy(before)
        name = after.graph.node[0].output[0]
        surgery.rename_value(after, name, "renamed_value")
        surgery.rename_value(after, "renamed_value", name)
        assert after.SerializeToString() == before.SerializeToString(), path.name


def test_delete_with_feeders_takes_the_chain_only_it_read() -> None:
    text = """<ir_version: 10, opset_import: ["" : 21]>
g (float[4] x) => (float[4] y, float[4] k)
<float[4] p, float[4] w = {1, 2, 3, 4}, float[4] shared = {1, 1, 1, 1}>
{
   p = Mul (x, w)
   q = Add (p, shared)
   k = Sub (x, shared)
   r = Relu (q)
   y = Neg (x)
}
"""
    before = model(text)
    after = _copy(before)
    assert surgery.delete_node(after, "r", feeders=True) == []
    assert [n.output[0] for n in after.graph.node] == ["k", "y"]
    assert [t.name for t in after.graph.initializer] == ["shared"] and not after.graph.value_info
    onnx_check(after)
    assert surgery.only_feeders(before.graph, 4) == ([], [])  # y = Neg (x): a graph input feeds it
    kept = _copy(before)
    surgery.delete_node(kept, "q", feeders=True)  # 'p' only fed q; 'shared' is read by k too
    assert [n.output[0] for n in kept.graph.node] == ["k", "r", "y"]
    assert [t.name for t in kept.graph.initializer] == ["shared"]


def test_rename_reaches_annotations_sparse_initializers_and_training_bindings() -> None:
    m = model(TEXT)
    note = m.graph.quantization_annotation.add(tensor_name="a")
    note.quant_parameter_tensor_names.add(key="SCALE_TENSOR", value="w")
    info = m.training_info.add()
    info.update_binding.add(key="w", value="w_new")
    info.algorithm.node.add(op_type="Identity", input=["w"], output=["w_new"])
    sparse = m.graph.sparse_initializer.add()
    sparse.values.name = "sp"
    before = _copy(m)
    surgery.rename_value(m, "w", "weights")
    surgery.rename_value(m, "a", "sum")
    surgery.rename_value(m, "sp", "sparse")
    assert m.graph.sparse_initializer[0].values.name == "sparse"
    q = m.graph.quantization_annotation[0]
    assert (q.tensor_name, q.quant_parameter_tensor_names[0].value) == ("sum", "weights")
    assert m.training_info[0].update_binding[0].key == "weights"
    assert list(m.training_info[0].algorithm.node[0].input) == ["weights"]
    assert m.graph.initializer[0].name == "weights" and m.graph.value_info[0].name == "sum"
    surgery.rename_value(m, "weights", "w")
    surgery.rename_value(m, "sum", "a")
    surgery.rename_value(m, "sparse", "sp")
    assert m.SerializeToString() == before.SerializeToString()


def test_an_input_stays_an_input_with_its_constant_before_ir_4() -> None:
    m = model(TEXT.replace("ir_version: 10", "ir_version: 3"))
    surgery.make_constant(m, "bias", np.ones(4, np.float32))
    assert [v.name for v in m.graph.input] == ["x", "bias"] and m.graph.initializer[-1].name == "bias"


@pytest.mark.parametrize("mode, bypassed", [("bool mode = {0}", True), ("bool mode = {1}", False)])
def test_a_dropout_is_bypassed_when_its_training_mode_is_a_false_constant(mode: str, bypassed: bool) -> None:
    m = model(
        f"""<ir_version: 10, opset_import: ["" : 21]>
g (float[4] x) => (float[4] y) <float ratio = {{0.5}}, {mode}> {{
   d = Dropout (x, ratio, mode)
   y = Relu (d)
}}
"""
    )
    notes = surgery.delete_node(m, "d")
    assert (list(m.graph.node[0].input) == ["x"]) is bypassed and (notes == []) is bypassed


def test_extract_function_calls_it_in_place_and_refuses_what_cannot_be_moved() -> None:
    m = model(TEXT)
    function = surgery.extract_function(m, ["a", "d"], "Block")
    assert (list(function.input), list(function.output)) == (["x", "w"], ["d"])
    assert [(n.domain, n.op_type, list(n.input), list(n.output)) for n in m.graph.node[:2]] == [
        ("local", "Block", ["x", "w"], ["d"]),
        ("", "Cast", ["d"], ["c"]),
    ]
    assert [v.name for v in m.graph.value_info] == []  # 'a' is inside the function now
    assert [(o.domain, o.version) for o in m.opset_import] == [("", 21), ("local", 1)]
    onnx_check(m)
    assert error_codes(m) == set()
    for nodes, name, code in ((["d", "b"], "Other", "S002"), (["c"], "Block", "S003"), (["a"], "F", "S001")):
        with pytest.raises(SurgeryError) as exc:
            surgery.extract_function(m, nodes, name)
        assert _codes(exc) == [code]


def test_nodes_without_outputs_are_named_by_their_operator() -> None:
    m = model(TEXT)
    m.graph.node.add(op_type="Print", input=["b"])  # a node that makes nothing (a custom sink)
    notes = surgery.delete_node(m, "b")
    assert notes[0].message == "'b' is no longer produced, but the Add making 'y' and a Print read it"
    with pytest.raises(SurgeryError):
        surgery.delete_node(m, "Print")  # named by neither its name nor an output
