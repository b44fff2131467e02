"""Over a sample of the ONNX backend suite and real exports: every surgery keeps what it does not touch.

Each edit is checked three ways: ``onnx.checker`` (full) accepts the result when it accepted the
original, our checker finds no error the original did not have, and every field the edit does not
touch compares equal (undone, the model is the original byte for byte).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from surgery_support import changed_parts, error_codes, made_up_feeds, onnx_check

from onnxtext import surgery
from onnxtext.proto import ModelProto
from onnxtext.surgery import SurgeryError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from corpus.backend import case_id, node_model_paths, onnx_checker_rejection  # noqa: E402
from corpus.exporters import GENERATORS  # noqa: E402

pytest.importorskip("onnx")


def _sample() -> list[object]:
    backend = node_model_paths()[::9]
    params: list[object] = [pytest.param(("path", p), id=case_id(p)) for p in backend]
    params += [pytest.param(("export", n), id=n) for n in GENERATORS if n.startswith(("torch_", "onnxscript_"))]
    return params


def _load(source: tuple[str, object]) -> ModelProto:
    kind, what = source
    if kind == "path":
        assert isinstance(what, Path)
        return ModelProto.FromString(what.read_bytes())
    gen = GENERATORS[str(what)]
    for module in gen.requires:
        pytest.importorskip(module)
    return ModelProto.FromString(gen.ensure().read_bytes())


def _copy(m: ModelProto) -> ModelProto:
    out = ModelProto()
    out.CopyFrom(m)
    return out


def _accepted(m: ModelProto) -> bool:
    import onnx

    return onnx_checker_rejection(onnx.load_model_from_string(m.SerializeToString())) is None


@pytest.mark.slow
@pytest.mark.parametrize("source", _sample())
def test_edits_keep_everything_they_do_not_touch(source: tuple[str, object]) -> None:
    original = _load(source)
    accepted = _accepted(original)
    errors = error_codes(original)
    graph = original.graph
    initializers = {t.name for t in graph.initializer}
    inputs = [v for v in graph.input if v.name not in initializers]

    def valid(m: ModelProto) -> None:
        if accepted:
            onnx_check(m)
        assert error_codes(m) <= errors

    if inputs:  # rename an input everywhere, and back
        edited = _copy(original)
        surgery.rename_value(edited, inputs[0].name, "renamed__value")
        valid(edited)
        assert "graph.initializer" not in changed_parts(original, edited) or inputs[0].name in initializers
        surgery.rename_value(edited, "renamed__value", inputs[0].name)
        assert edited.SerializeToString() == original.SerializeToString()

    exported = {o.name for o in graph.output}
    value = next((o for n in graph.node for o in n.output if o and o not in exported), None)
    if value is not None:  # a value exported, then no longer
        edited = _copy(original)
        try:
            surgery.add_output(edited, value)
        except SurgeryError as exc:  # a value inference cannot type: said so, nothing changed
            assert [d.code for d in exc.diagnostics] == ["S008"]
            assert edited.SerializeToString() == original.SerializeToString()
        else:
            assert set(changed_parts(original, edited)) == {"graph.output"}
            valid(edited)
            surgery.remove_output(edited, value)
            assert edited.SerializeToString() == original.SerializeToString()

    tensors = [v for v in inputs if v.type.HasField("tensor_type") and v.type.tensor_type.HasField("shape")]
    if tensors:  # a shape set to itself changes nothing; a symbolic batch keeps the model valid
        info = tensors[0]
        dims = [
            d.dim_param if d.dim_param else d.dim_value if d.HasField("dim_value") else None
            for d in info.type.tensor_type.shape.dim
        ]
        edited = _copy(original)
        surgery.set_input_shape(edited, info.name, dims)
        assert edited.SerializeToString() == original.SerializeToString()

    if graph.initializer:  # an initializer made an input
        edited = _copy(original)
        surgery.initializer_to_input(edited, graph.initializer[0].name)
        assert set(changed_parts(original, edited)) <= {"graph.input", "graph.initializer"}
        if accepted:
            onnx_check(edited)


@pytest.mark.slow
@pytest.mark.parametrize("source", _sample())
def test_extract_of_the_whole_graph_keeps_the_nodes_onnx_keeps(source: tuple[str, object]) -> None:
    import onnx
    import onnx.utils

    original = _load(source)
    if not _accepted(original):
        pytest.skip("onnx.checker refuses the original")
    initializers = {t.name for t in original.graph.initializer}
    inputs = [v.name for v in original.graph.input if v.name not in initializers]
    outputs = [o.name for o in original.graph.output]
    sub = surgery.extract(original, inputs, outputs).model
    theirs = onnx.utils.Extractor(onnx.load_model_from_string(original.SerializeToString()))
    expected = theirs.extract_model(inputs, outputs)
    ours = [n.SerializeToString() for n in sub.graph.node]
    kept = [n.SerializeToString() for n in expected.graph.node]
    if ours != kept:
        # beyond onnx: the producers of values a kept subgraph reads from outside (onnx's cut loses
        # them, and its sub-model is refused by its own checker)
        rest = iter(ours)
        assert all(any(n == m for m in rest) for n in kept)  # onnx's nodes, in order, among ours
        assert onnx_checker_rejection(expected) is not None
    else:
        assert sorted(t.name for t in sub.graph.initializer) == sorted(t.name for t in expected.graph.initializer)
    onnx_check(sub)
    # what no output needs is left out (nodes, their initializers and annotations, functions nobody calls)
    assert set(changed_parts(original, sub)) <= {
        "graph.node",
        "graph.initializer",
        "graph.input",
        "graph.value_info",
        "functions",
    }


@pytest.mark.slow
@pytest.mark.parametrize("source", _sample())
def test_a_model_merged_with_itself_keeps_both(source: tuple[str, object]) -> None:
    original = _load(source)
    if not _accepted(original):
        pytest.skip("onnx.checker refuses the original")
    g = original.graph
    initializers = {t.name for t in g.initializer}
    inputs = [v for v in g.input if v.name not in initializers]
    pairs = [(o.name, i.name) for o in g.output for i in inputs if o.type == i.type][:1]
    merged = surgery.merge(original, original, pairs, prefix="second__").model
    nodes = [n.SerializeToString() for n in merged.graph.node]
    assert nodes[: len(g.node)] == [n.SerializeToString() for n in g.node]
    assert len(nodes) == 2 * len(g.node)
    onnx_check(merged)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in GENERATORS if n.startswith(("torch_", "onnxscript_"))])
def test_bypassing_identity_like_nodes_keeps_what_the_model_computes(name: str) -> None:
    import numpy as np

    from onnxtext.evaluate import Evaluator

    original = _load(("export", name))
    bypassable = [n.output[0] for n in original.graph.node if surgery.identity_input(original, n) is not None]
    feeds = made_up_feeds(original)
    expected = Evaluator(original).run(None, feeds)
    for value in bypassable:
        edited = _copy(original)
        assert surgery.delete_node(edited, value) == []
        assert len(edited.graph.node) == len(original.graph.node) - 1
        onnx_check(edited)
        assert error_codes(edited) <= error_codes(original)
        for a, b in zip(Evaluator(edited).run(None, feeds), expected, strict=True):
            np.testing.assert_array_equal(a, b)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in GENERATORS if n.startswith(("torch_", "onnxscript_"))])
def test_nodes_moved_into_a_function_compute_the_same(name: str) -> None:
    import numpy as np

    from onnxtext.evaluate import Evaluator

    original = _load(("export", name))
    if not _accepted(original):
        pytest.skip("onnx.checker refuses the original")
    feeds = made_up_feeds(original)
    expected = Evaluator(original).run(None, feeds)
    count = len(original.graph.node)
    for start in sorted({0, count // 3, count // 2, max(0, count - 3)}):
        edited = _copy(original)
        names = [n.output[0] for n in original.graph.node[start : start + 3] if n.output and n.output[0]]
        if len(names) < min(3, count - start):
            continue
        surgery.extract_function(edited, names, "Moved")
        onnx_check(edited)
        assert error_codes(edited) <= error_codes(original)
        for a, b in zip(Evaluator(edited).run(None, feeds), expected, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
