"""E504 sparse-tensor: values/indices shapes, bounds and order, located in the text."""

from __future__ import annotations

from onnxtext.api import check

HEAD = '<ir_version: 10, opset_import: ["" : 21]>\n'


def _e504(text: str) -> list[tuple[int, int, str]]:
    return [(d.span.start.line, d.span.start.column, d.message) for d in check(text) if d.code == "E504" and d.span]


def test_valid_sparse_initializer_and_attribute() -> None:
    text = (
        HEAD + "@{sparse_initializer: [{values: float[2] v {1, 2}, indices: int64[2] {1, 3}, dims: [5]}]} "
        "g (float[5] x) => (float[5] y) {\n"
        + "   c = Constant <sparse_value = {values: float[2] w {1, 2}, indices: int64[2, 2] {0, 1, 1, 0}, "
        "dims: [2, 2]}> ()\n" + "   y = Identity (x)\n}\n"
    )
    assert _e504(text) == []


def test_index_out_of_bounds_in_attribute() -> None:
    text = (
        HEAD + "g (float[5] x) => (float[5] y) {\n   c = Constant <sparse_value = {values: float[2] w {1, 2}, "
        "indices: int64[2] {0, 9}, dims: [5]}> ()\n   y = Identity (x)\n}\n"
    )
    (found,) = _e504(text)
    assert found[:2] == (3, 18) and "linear index 9" in found[2]


def test_unsorted_indices_in_sparse_initializer() -> None:
    text = (
        HEAD + "@{sparse_initializer: [{values: float[2] v {1, 2}, indices: int64[2] {3, 1}, dims: [5]}]} "
        "g (float[5] x) => (float[5] y) {\n   y = Identity (x)\n}\n"
    )
    (found,) = _e504(text)
    assert found[:2] == (2, 1) and "ascending" in found[2]


def test_coordinate_indices_must_match_rank() -> None:
    text = (
        HEAD + "g (float[5] x) => (float[5] y) {\n   c = Constant <sparse_value = {values: float[2] w {1, 2}, "
        "indices: int64[2, 3] {0, 0, 0, 1, 1, 1}, dims: [2, 2]}> ()\n   y = Identity (x)\n}\n"
    )
    (found,) = _e504(text)
    assert found[:2] == (3, 18) and "[2, 2]" in found[2]


def test_sparse_initializer_without_a_name() -> None:
    """onnx.checker: 'Sparse tensor initializers must have a non-empty name' (an attribute's may have none)."""
    text = (
        HEAD + '@{sparse_initializer: [{values: float[2] "" {1, 2}, indices: int64[2] {1, 3}, dims: [5]}]} '
        "g (float[5] x) => (float[5] y) {\n   y = Identity (x)\n}\n"
    )
    (found,) = _e504(text)
    assert found == (
        2,
        1,
        "sparse initializer 0 has no name: its values tensor names it, as a graph's initializers are named",
    )
    assert _e504(text.replace('float[2] ""', "float[2] v")) == []
