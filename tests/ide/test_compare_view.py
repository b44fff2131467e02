"""``ide.compare.compare_documents``: the editor's comparison of two versions of a model."""

from __future__ import annotations

from onnxtext.document import parse_document
from onnxtext.ide.compare import compare_documents, first_divergent

A = """\
<ir_version: 9, opset_import: ["": 18]>
g (float[N, 4] x) => (float[N, 4] y)
<float[4] c = {1.0, 2.0, 3.0, 4.0}>
{
  h = Add(x, c)
  h2 = Relu(h)
  y = Sigmoid(h2)
}
"""


def _line(found: dict | None) -> int | None:
    return None if found is None else found["start"]["line"]


def test_each_change_has_its_statement_in_both_texts_and_its_node_in_the_graph() -> None:
    b_text = A.replace("h2 = Relu(h)", "t = Neg(h)\n  h2 = Tanh(t)").replace("3.0, 4.0}", "3.0, 4.5}")
    answer = compare_documents(parse_document(A), parse_document(b_text))
    assert answer is not None and not answer["same"]
    texts = [c["text"] for c in answer["changes"]]
    assert texts == [
        "~ initializer 'c' float[4]: 1 of 4 elements differ, max abs diff 0.5",
        "+ node 't' t = Neg (h)",
        "~ node 'h2' (Relu → Tanh)",
        "~ node 'h2' (Tanh) input 0: 'h' → 't'",
    ]
    lines = [(_line(c["a"]), _line(c["b"])) for c in answer["changes"]]
    assert lines == [(2, 2), (None, 5), (5, 6), (5, 6)]  # 0-based: A's Relu on line 5, B's Tanh on 6
    by_id = {n["id"]: n for n in answer["graph"]["nodes"]}
    assert by_id["t"]["mark"] == "added" and by_id["t"]["changes"] == [1]
    assert by_id["h2"]["mark"] == "changed" and by_id["h2"]["changes"] == [2, 3]
    assert by_id["c"]["mark"] == "changed" and by_id["c"]["changes"] == [0]
    assert "mark" not in by_id["y"]


def test_removed_nodes_are_drawn_from_a_and_renamings_listed() -> None:
    b_text = A.replace("  h2 = Relu(h)\n", "").replace("Sigmoid(h2)", "Sigmoid(h)").replace("h", "hh")
    answer = compare_documents(parse_document(A), parse_document(b_text))
    assert answer is not None
    assert [c["text"] for c in answer["changes"]] == [
        "- node 'h2' h2 = Relu (h)",
        "~ node 'y' (Sigmoid) input 0: 'h2' → 'hh'",
    ]
    removed = next(n for n in answer["graph"]["nodes"] if n.get("mark") == "removed")
    assert removed["id"] == "removed:h2" and removed["changes"] == [0]
    assert _line(answer["changes"][0]["a"]) == 5 and answer["changes"][0]["b"] is None
    assert answer["renamed"] == [{"a": "h", "b": "hh", "where": ""}]


def test_same_and_damaged() -> None:
    same = compare_documents(parse_document(A), parse_document(A.replace("h2", "other")))
    assert same is not None and same["same"] and same["changes"] == []
    assert compare_documents(parse_document(A), parse_document(A.replace("Relu(h)", "Relu(h"))) is None


def test_first_divergent_follows_unmatched_nodes_and_any_text_order() -> None:
    # `u` (unmatched, not compared) carries h's difference on to `z`: z is no first; `k` parts on its own
    text = """<ir_version: 9, opset_import: ["": 18]>
g (float[2] x) => (float[2] z, float[2] k) {
   z = Neg (u)
   u = Abs (h)
   h = Relu (x)
   k = Tanh (x)
}
"""
    model = parse_document(text, "model").model
    assert model is not None
    assert first_divergent(model, ["h", "z", "k"]) == ["h", "k"]
    assert first_divergent(model, ["z"]) == ["z"]
