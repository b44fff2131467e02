"""``extract`` keeps the nodes ``onnx.utils.extract_model`` keeps, and what they need, and runs alike."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from surgery_support import changed_parts, error_codes, made_up_feeds, model, onnx_check

from onnxtext import surgery
from onnxtext.proto import ModelProto
from onnxtext.surgery import SurgeryError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from corpus.exporters import GENERATORS  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

TEXT = """<ir_version: 10, opset_import: ["" : 21, "local": 1], producer_name: "p", doc_string: "d">
g (float[N, 4] x, float[4] bias) => (float[N, 4] y)
<float[N, 4] a, float[4] w = {1, 2, 3, 4}, float[4] unused = {0, 0, 0, 0}>
{
   a = Add (x, w)
   b = local.Twice (a)
   y = Add (b, bias)
}

<opset_import: ["" : 21], domain: "local">
Twice (t) => (u) { u = Add (t, t) }

<opset_import: ["" : 21], domain: "local">
Never (t) => (u) { u = Neg (t) }
"""


def test_the_sub_model_keeps_the_header_the_functions_called_and_only_the_initializers_read() -> None:
    m = model(TEXT)
    sub = surgery.extract(m, ["x"], ["b"]).model
    assert [n.op_type for n in sub.graph.node] == ["Add", "Twice"]
    assert [t.name for t in sub.graph.initializer] == ["w"]
    assert [f.name for f in sub.functions] == ["Twice"]
    assert [v.name for v in sub.graph.value_info] == ["a"]
    assert [v.name for v in sub.graph.input] == ["x"] and sub.graph.input[0] == m.graph.input[0]
    b = sub.graph.output[0]
    assert b.name == "b" and b.type.tensor_type.elem_type == 1  # inferred through the function
    assert set(changed_parts(m, sub)) == {
        "functions",
        "graph.node",
        "graph.input",
        "graph.output",
        "graph.initializer",
    }
    onnx_check(sub)
    assert error_codes(sub) == set()


def test_an_intermediate_value_becomes_an_input_with_its_declaration() -> None:
    m = model(TEXT)
    sub = surgery.extract(m, ["a", "bias"], ["y"]).model
    assert [n.output[0] for n in sub.graph.node] == ["b", "y"]
    assert sub.graph.input[0] == m.graph.value_info[0] and not sub.graph.value_info
    assert not sub.graph.initializer
    onnx_check(sub)


def test_without_inputs_the_graph_inputs_needed_are_taken() -> None:
    sub = surgery.extract(model(TEXT), None, ["a"]).model
    assert [v.name for v in sub.graph.input] == ["x"]


@pytest.mark.parametrize(
    "inputs, outputs, code, words",
    [
        (["x"], ["yy"], "S001", "'y'"),
        (["x"], ["y"], "S007", "'bias'"),
        (["x", "x"], ["a"], "S002", "twice"),
        (["x"], [], "S002", "no output"),
    ],
)
def test_refusals_name_what_is_missing(inputs: list[str], outputs: list[str], code: str, words: str) -> None:
    with pytest.raises(SurgeryError) as exc:
        surgery.extract(model(TEXT), inputs, outputs)
    assert [d.code for d in exc.value.diagnostics] == [code] and words in str(exc.value)


def test_local_functions_example() -> None:
    m = model((EXAMPLES / "local_function.onnxtxt").read_text())
    sub = surgery.extract(m, ["X"], ["Y_custom"]).model
    assert len(sub.graph.node) == 1 and [f.name for f in sub.functions] == ["ScaledLeakyRelu"]


# ------------------------------------------------------------------ real exports, with the oracles

_TORCH = [n for n in GENERATORS if n.startswith("torch_")]


def _exported(name: str) -> ModelProto:
    gen = GENERATORS[name]
    for module in gen.requires:
        pytest.importorskip(module)
    return ModelProto.FromString(gen.ensure().read_bytes())


def _ort(m: ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    ort = pytest.importorskip("onnxruntime")
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(session.run(None, feeds))


def _onnx_nodes(m: ModelProto, inputs: list[str], outputs: list[str]) -> list[bytes]:
    import onnx
    import onnx.utils

    theirs = onnx.shape_inference.infer_shapes(onnx.load_model_from_string(m.SerializeToString()))
    extracted = onnx.utils.Extractor(theirs).extract_model(inputs, outputs)
    return [n.SerializeToString() for n in extracted.graph.node]


@pytest.mark.slow
@pytest.mark.parametrize("name", _TORCH)
def test_cut_in_the_middle_agrees_with_onnx_and_runs_alike(name: str) -> None:
    from onnxtext.evaluate import Evaluator

    m = _exported(name)
    feeds = made_up_feeds(m)
    traced = {e.name: e.value for e in Evaluator(m).trace(feeds)}
    graph_inputs = list(feeds)
    nodes = [n for n in m.graph.node if n.op_type != "Constant" and n.output and n.output[0]]
    cut = nodes[len(nodes) // 2].output[0]
    outputs = [o.name for o in m.graph.output]
    expected = _ort(m, feeds)
    for inputs, wanted in ((graph_inputs, [cut]), ([cut, *graph_inputs], outputs)):
        sub = surgery.extract(m, inputs, wanted).model
        assert [n.SerializeToString() for n in sub.graph.node] == _onnx_nodes(m, inputs, wanted)
        onnx_check(sub)
        sub_feeds = {k: traced[k] if k == cut else feeds[k] for k in inputs}
        ours = Evaluator(sub).run(None, sub_feeds)
        theirs = _ort(sub, sub_feeds)
        reference = [traced[cut]] if wanted == [cut] else expected
        for a, b, c in zip(ours, theirs, reference, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
            np.testing.assert_allclose(b, c, rtol=1e-4, atol=1e-5)


def test_training_info_is_kept_while_it_still_binds_and_dropped_with_a_warning_otherwise() -> None:
    m = model(TEXT)
    info = m.training_info.add()
    info.update_binding.add(key="w", value="w_new")
    info.algorithm.node.add(op_type="Neg", input=["w"], output=["w_new"])
    kept = surgery.extract(m, ["x"], ["a"])
    assert kept.notes == [] and kept.model.training_info[0] == m.training_info[0]
    dropped = surgery.extract(m, ["a", "bias"], ["y"])
    assert not dropped.model.training_info
    assert [(d.code, d.path) for d in dropped.notes] == [("S009", "training_info[0]")]
    assert "'w'" in dropped.notes[0].message


def test_an_initializer_named_as_an_input_becomes_that_input() -> None:
    m = model(TEXT)
    sub = surgery.extract(m, ["x", "w"], ["a"]).model
    assert [v.name for v in sub.graph.input] == ["x", "w"] and not sub.graph.initializer
    assert [d.dim_value for d in sub.graph.input[1].type.tensor_type.shape.dim] == [4]
    onnx_check(sub)


def test_a_value_of_a_subgraph_is_no_place_to_cut() -> None:
    m = model((EXAMPLES / "control_flow.onnxtxt").read_text())
    inner = next(o for n in m.graph.node for a in n.attribute if a.HasField("g") for o in a.g.node[0].output)
    with pytest.raises(SurgeryError) as exc:
        surgery.extract(m, None, [inner])
    assert [d.code for d in exc.value.diagnostics] == ["S001"]


def test_fields_of_a_newer_ir_are_carried_into_the_sub_model_and_the_merge() -> None:
    from google.protobuf.unknown_fields import UnknownFieldSet

    m = model(TEXT)
    # model field 101 (varint), 102 (bytes), 103 (fixed32); graph field 99 (bytes): unknown to our schema
    m.graph.MergeFromString(b"\x9a\x06\x03abc")
    m.MergeFromString(b"\xa8\x06\x05\xb2\x06\x02hi\xbd\x06\x01\x02\x03\x04")

    def unknown(msg: object) -> list[tuple[int, int, object]]:
        return [(f.field_number, f.wire_type, f.data) for f in UnknownFieldSet(msg)]

    sub = surgery.extract(m, ["x"], ["a"]).model
    assert unknown(sub) == unknown(m) == [(101, 0, 5), (102, 2, b"hi"), (103, 5, 0x04030201)]
    assert unknown(sub.graph) == unknown(m.graph) == [(99, 2, b"abc")]
    merged = surgery.merge(m, model(TEXT), [("y", "x")]).model
    assert unknown(merged) == unknown(m) and unknown(merged.graph) == unknown(m.graph)
