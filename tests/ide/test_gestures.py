"""The gestures as text edits: applied and read back, each gives the model ``onnxtext edit`` makes.

For every statement of the main graph of every example (and of texts made to reach each case), every
gesture offered there is applied to the text; the new text parses without error, only the gesture's
statements changed, and its model is what :mod:`onnxtext.surgery` makes of the original model with the
same operation (tensors compared by value: a text writes numbers where the library writes raw bytes).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from onnxtext import parse_document, parse_model, surgery
from onnxtext.cli.app import _shape
from onnxtext.diagnostics import Fix
from onnxtext.ide.gestures import Gesture, extract_selection, extracted_uri, function_from_selection, gestures_at
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.proto import ModelProto, TensorProto
from onnxtext.syntax import ast as A

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

IDENTITIES = """<ir_version: 10, opset_import: ["" : 21]>
g (float[N, 4] x, float[2, 2] m, float[3] d = {1, 2, 3}) => (float[N, 4] y, float[N, 4] z)
<float[N, 4] a, float[N, 4] b, float[4] w = {1, 2, 3, 4}>
{
   a = Add (x, w)  # add
   b = Identity (a)
   c = Cast <to = 1> (b)
   r = Dropout (c)
   y = Relu (r)
   z = Identity (y)
}
"""

INTERLEAVED = """<ir_version: 10, opset_import: ["" : 21]>
g (float[4] x) => (float[4] y, float[4] q, float[4] f)
<
   float[4] e,
   float[4] a,
   float[4] w = {1, 2, 3, 4},
   float[4] b,
   float[4] v = {5, 6, 7, 8},
   float[4] unread
>
{
   a = Mul (x, w)
   b = Add (a, v)
   unread = Neg (b)
   y = Relu (b)
   q = Identity (w)
   e = Neg (b)
   f = Identity (e)
}
"""

NO_INITIALIZERS = """<ir_version: 10, opset_import: ["" : 21]>
g (float[2, 3] x, float[3] s) => (float[2, 3] y) {
   y = Mul (x, s)
}
"""


def _texts() -> list[object]:
    found = [pytest.param(p.read_text(), id=p.name) for p in sorted(EXAMPLES.glob("*.onnxtxt"))]
    found += [pytest.param(IDENTITIES, id="identities"), pytest.param(NO_INITIALIZERS, id="no-initializers")]
    found.append(pytest.param(INTERLEAVED, id="interleaved"))
    return found


def _statements(text: str) -> list[int]:
    graph = parse_document(text).tree.graph
    items = [*graph.nodes, *graph.outputs, *(graph.inputs or ()), *(graph.initializers or ())]
    return [i.span.start for i in items if not isinstance(i, A.ErrorNode)]


def _library(model: ModelProto, operation: tuple[str, str]) -> ModelProto:
    out = ModelProto()
    out.CopyFrom(model)
    option, value = operation
    if option in ("delete-node", "delete-node-and-feeders"):
        surgery.delete_node(out, value, feeders=option == "delete-node-and-feeders")
    elif option == "add-output":
        surgery.add_output(out, value)
    elif option == "remove-output":
        surgery.remove_output(out, value)
    elif option == "set-input-shape":
        surgery.set_input_shape(out, *_shape(value), follow=False)  # the gesture edits the input's declaration alone
    elif option == "input-from-initializer":
        surgery.initializer_to_input(out, value)
    elif option == "extract-function":
        nodes, name = value.split("=")
        surgery.extract_function(out, nodes.split(","), name)
    else:
        info = next(v for v in out.graph.input if v.name == value)
        dims = [d.dim_value for d in info.type.tensor_type.shape.dim]
        dtype = to_numpy(TensorProto(data_type=info.type.tensor_type.elem_type, dims=[0])).dtype
        surgery.make_constant(out, value, np.zeros(dims, dtype))
    return out


def _same(a: ModelProto, b: ModelProto) -> None:
    """Equal models, their tensors compared by type, shape and value."""
    for x, y in zip(a.graph.initializer, b.graph.initializer, strict=True):
        assert (x.name, x.data_type, list(x.dims)) == (y.name, y.data_type, list(y.dims))
        if x.SerializeToString() != y.SerializeToString():
            np.testing.assert_array_equal(to_numpy(x), to_numpy(y))
    ca, cb = ModelProto(), ModelProto()
    ca.CopyFrom(a)
    cb.CopyFrom(b)
    ca.graph.ClearField("initializer")
    cb.graph.ClearField("initializer")
    assert ca.SerializeToString(deterministic=True) == cb.SerializeToString(deterministic=True)


@pytest.mark.parametrize("text", _texts())
def test_every_gesture_makes_the_model_the_library_makes(text: str) -> None:
    doc = parse_document(text)
    original = parse_model(text)
    seen = 0
    for offset in _statements(text):
        gesture: Gesture
        for gesture in gestures_at(doc, offset):
            seen += 1
            edited = Fix("", gesture.edits).apply(text)
            again = parse_document(edited)
            assert not [d for d in again.diagnostics if d.is_error], (gesture.title, edited)
            _same(again.proto, _library(original, gesture.operation))
    assert seen > 0


def test_the_offers_on_each_kind_of_statement() -> None:
    doc = parse_document(IDENTITIES)

    def titles(needle: str) -> list[str]:
        return [g.title for g in gestures_at(doc, IDENTITIES.index(needle))]

    assert titles("b = Identity") == ["Delete node 'b' (its readers read 'a')", "Make 'b' a graph output (float[N, 4])"]
    assert titles("r = Dropout") == ["Delete node 'r' (its readers read 'c')", "Make 'r' a graph output (float[N, 4])"]
    assert titles("y = Relu") == [
        "Delete node 'y'",
        "Delete node 'y' and what only fed it (4 nodes, 1 initializer)",
        "Stop exporting 'y'",
    ]
    assert titles("z = Identity") == ["Delete node 'z'", "Stop exporting 'z'"]  # 'y' is exported: not rewired
    assert titles("float[N, 4] x") == [
        "Set dimension 0 of 'x' (N) to 1",
        "Make dimension 1 of 'x' (4) symbolic: x_1",
    ]
    assert titles("m, float[3]") == [
        "Make dimension 0 of 'm' (2) symbolic: N2",
        "Make dimension 1 of 'm' (2) symbolic: m_1",
        "Make 'm' an initializer (zeros, to edit)",
    ]
    assert titles("float[3] d") == ["Make 'd' an input without its default value"]
    assert titles("float[4] w") == ["Make 'w' a graph input (its values dropped)"]
    assert titles("float[N, 4] a,") == []  # a value_info: nothing to do there


def test_a_deleted_statement_takes_its_line_and_its_comment_only() -> None:
    doc = parse_document(IDENTITIES)
    (delete, *_) = gestures_at(doc, IDENTITIES.index("a = Add"))
    edited = Fix("", delete.edits).apply(IDENTITIES)
    assert "   a = Add (x, w)  # add\n" not in edited and "{\n   b = Identity (a)\n" in edited


def test_entries_of_the_list_go_in_runs_and_declarations_of_what_is_gone_with_them() -> None:
    doc = parse_document(INTERLEAVED)
    offers = {g.title: g for g in gestures_at(doc, INTERLEAVED.index("y = Relu"))}
    assert list(offers) == ["Delete node 'y'", "Stop exporting 'y'"]  # nothing only feeds y: 'unread' reads b
    (plain, *_) = gestures_at(doc, INTERLEAVED.index("unread = Neg"))
    edited = Fix("", plain.edits).apply(INTERLEAVED)
    assert "   float[4] v = {5, 6, 7, 8}\n>" in edited and "unread" not in edited
    (bypass, *_) = gestures_at(parse_document(edited), edited.index("f = Identity"))
    assert bypass.title == "Delete node 'f' (its readers read 'e')"  # e's producer makes the output f now
    edited = Fix("", bypass.edits).apply(edited)
    assert "   f = Neg (b)\n}" in edited and "float[4] e," not in edited
    chain = [g for g in gestures_at(parse_document(edited), edited.index("y = Relu")) if "fed" in g.title]
    assert chain == []  # f reads b too
    edited = edited.replace("   f = Neg (b)\n", "")
    chain = [g for g in gestures_at(parse_document(edited), edited.index("y = Relu")) if "fed" in g.title]
    assert [g.title for g in chain] == ["Delete node 'y' and what only fed it (2 nodes, 1 initializer)"]


def test_the_cursor_on_a_dimension_offers_that_dimension_only() -> None:
    doc = parse_document(IDENTITIES)
    assert [g.title for g in gestures_at(doc, IDENTITIES.index("4] x"))] == [
        "Make dimension 1 of 'x' (4) symbolic: x_1"
    ]


def test_an_initializer_list_left_empty_goes_and_one_is_made_when_needed() -> None:
    doc = parse_document(NO_INITIALIZERS)
    (zeros,) = [g for g in gestures_at(doc, NO_INITIALIZERS.index("float[3] s")) if g.operation[0] == "constant"]
    made = Fix("", zeros.edits).apply(NO_INITIALIZERS)
    assert "(float[2, 3] x) => (float[2, 3] y)\n<float[3] s = {0, 0, 0}> {" in made
    (back,) = gestures_at(parse_document(made), made.index("float[3] s"))
    assert Fix("", back.edits).apply(made) == NO_INITIALIZERS  # and back: the list goes


@pytest.mark.parametrize("text", _texts())
def test_damaged_texts_get_gestures_that_fit_them_or_none(text: str) -> None:
    import random

    rng = random.Random(7)
    for _ in range(12):
        start = rng.randrange(len(text))
        damaged = text[:start] + text[start + rng.randrange(1, 12) :]
        doc = parse_document(damaged)
        for offset in range(0, len(damaged), 5):
            end = offset + 5 * rng.randrange(0, 30) if offset % 4 == 0 else None  # selections too
            for gesture in gestures_at(doc, offset, end):
                spans = sorted((e.span.start, e.span.end) for e in gesture.edits)
                assert all(0 <= a <= b <= len(damaged) for a, b in spans)
                assert all(b <= c for (_, b), (c, _) in zip(spans, spans[1:], strict=False)), (
                    gesture.title
                )  # no overlap


@pytest.mark.parametrize("text", _texts())
def test_a_selection_of_node_statements_extracts_exactly_them(text: str) -> None:
    doc = parse_document(text)
    original = parse_model(text)
    nodes = [n for n in doc.tree.graph.nodes if isinstance(n, A.Node)]
    assert extract_selection(doc, 0, len(text)) is None  # every node: the model itself
    for first in range(len(nodes) if len(nodes) > 1 else 0):
        last = min(len(nodes) - 1, first + 2) if first > 0 else min(len(nodes) - 2, 2)
        extracted = extract_selection(doc, nodes[first].span.start + 1, nodes[last].span.end - 1)
        assert extracted is not None and extracted.new_model is not None and not extracted.edits
        sub = parse_model(extracted.new_model)
        option, value = extracted.operation
        inputs, outputs = value.split(" -> ")
        expected = surgery.extract(original, [n for n in inputs.split(",") if n], outputs.split(",")).model
        _same(sub, expected)
        assert [n.output[0] for n in sub.graph.node] == [n.output[0] for n in original.graph.node[first : last + 1]]


def test_extracted_file_names() -> None:
    assert extracted_uri("file:///m/model.onnxtxt") == "file:///m/model.extract.onnxtxt"
    assert extracted_uri("file:///m/big.onnx") == "file:///m/big.extract.onnxtxt"
    assert extracted_uri("file:///m.d/model") == "file:///m.d/model.extract.onnxtxt"


def test_deleting_what_only_fed_a_node_is_offered_up_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from onnxtext.ide import gestures

    monkeypatch.setattr(gestures, "FEEDERS_LIMIT", 100)
    lines = ['<ir_version: 10, opset_import: ["" : 21]>', "g (float[4] x) => (float[4] y)", "{", "   v0 = Relu (x)"]
    lines += [f"   v{i} = Relu (v{i - 1})" for i in range(1, 300)] + ["   y = Relu (v299)", "}", ""]
    text = "\n".join(lines)
    doc = parse_document(text)

    def fed(needle: str) -> list[str]:
        return [g.title for g in gestures_at(doc, text.index(needle)) if "fed" in g.title]

    assert fed("v99 = Relu") == ["Delete node 'v99' and what only fed it (99 nodes)"]  # 100 statements go
    assert fed("v100 = Relu") == []  # 101 would: the command line does that


@pytest.mark.parametrize("text", _texts())
def test_statements_moved_into_a_function_give_the_model_the_library_makes_and_compute_the_same(text: str) -> None:
    from onnxtext.evaluate import Evaluator

    doc = parse_document(text)
    original = parse_model(text)
    nodes = [n for n in doc.tree.graph.nodes if isinstance(n, A.Node)]
    feeds = _feeds(original)
    expected = Evaluator(original).run(None, feeds) if feeds is not None else None
    moved = 0
    for first in range(len(nodes)):
        last = min(len(nodes) - 1, first + 1)
        gesture = function_from_selection(doc, nodes[first].span.start, nodes[last].span.end)
        if gesture is None:
            continue  # nothing the rest reads: no function to call
        moved += 1
        edited = Fix("", gesture.edits).apply(text)
        again = parse_document(edited)
        assert not [d for d in again.diagnostics if d.is_error], (gesture.title, edited)
        _same(again.proto, _library(original, gesture.operation))
        if expected is not None:
            for a, b in zip(Evaluator(again.proto).run(None, feeds), expected, strict=True):
                np.testing.assert_array_equal(a, b)
    assert moved > 0


def _feeds(m: ModelProto) -> dict[str, np.ndarray] | None:
    """Made-up float inputs (symbolic dimensions 2), or None when an input is not a float tensor (or
    weights are in an external file)."""
    if any(t.data_location == TensorProto.EXTERNAL for t in m.graph.initializer):
        return None
    rng = np.random.default_rng(0)
    initializers = {t.name for t in m.graph.initializer}
    feeds = {}
    for v in m.graph.input:
        if v.name in initializers:
            continue
        tt = v.type.tensor_type
        if not v.type.HasField("tensor_type") or tt.elem_type != 1 or not tt.HasField("shape"):
            return None
        feeds[v.name] = rng.standard_normal([d.dim_value if d.HasField("dim_value") else 2 for d in tt.shape.dim])
        feeds[v.name] = feeds[v.name].astype(np.float32)
    return feeds


@pytest.mark.parametrize("text", _texts())
def test_the_selection_signature_on_the_symbol_tables_is_the_librarys(text: str) -> None:
    from onnxtext.ide.gestures import _selected, _signature

    doc = parse_document(text)
    nodes = [n for n in doc.tree.graph.nodes if isinstance(n, A.Node)]
    for first in range(len(nodes)):
        for last in range(first, min(len(nodes), first + 4)):
            chosen = _selected(doc, nodes[first].span.start, nodes[last].span.end)
            found = _signature(doc, chosen)
            assert found is not None
            assert found[:2] == surgery.function_signature(doc.model.graph, [k for _, k in chosen])
