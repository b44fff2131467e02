"""Tensor rules: E501-E503, W501."""

from __future__ import annotations

from checkutil import check, located

from onnxtext.document import parse_model
from onnxtext.proto import TensorProto

H = '<ir_version: 10, opset_import: ["" : 21]>\n'
BASE = H + "g (float[2] x) => (float[2] y) <float[2] w = {1, 2}> { y = Add(x, w) }\n"


def test_valid_tensors() -> None:
    assert located(BASE, "E5", "W5") == []


def test_e501_wrong_value_count_binary() -> None:
    m = parse_model(BASE)
    m.graph.initializer[0].dims[:] = [3]
    diags = check(m, select=["E501"])
    assert [d.code for d in diags] == ["E501"]
    assert diags[0].path == "graph/initializer[0] 'w'"


def test_e501_raw_data_length() -> None:
    m = parse_model(BASE)
    t = m.graph.initializer[0]
    del t.float_data[:]
    t.raw_data = b"\0" * 7
    diags = check(m, select=["E501"])
    assert [d.code for d in diags] == ["E501"] and "needs 8 bytes" in diags[0].message


def test_e501_two_value_fields() -> None:
    m = parse_model(BASE)
    m.graph.initializer[0].raw_data = b"\0" * 8
    assert [d.code for d in check(m, select=["E501"])] == ["E501"]


def test_e501_attribute_tensor_in_text() -> None:
    text = H + "g (float[2] x) => (float[2] y) { c = Constant <value = float[2] {1, 2}> ()\n  y = Add(x, c) }\n"
    assert located(text, "E5") == []


def test_e502_no_data_type() -> None:
    m = parse_model(BASE)
    m.graph.initializer[0].data_type = 0
    assert [d.code for d in check(m, select=["E502"])] == ["E502"]


def test_e503_external_without_location() -> None:
    m = parse_model(BASE)
    t = m.graph.initializer[0]
    del t.float_data[:]
    t.data_location = TensorProto.EXTERNAL
    entry = t.external_data.add()
    entry.key, entry.value = "offset", "0"
    assert [d.code for d in check(m, select=["E503", "W501"])] == ["E503"]
    entry = t.external_data.add()
    entry.key, entry.value = "location", "w.bin"
    assert check(m, select=["E503", "W501"]) == []
    entry = t.external_data.add()
    entry.key, entry.value = "lenght", "8"
    assert [d.code for d in check(m, select=["E503", "W501"])] == ["W501"]


def test_e503_external_in_text() -> None:
    text = H + 'g (float[2] x) => (float[2] y) <float[2] w = ["offset": "0"]> { y = Add(x, w) }\n'
    assert located(text, "E503") == [("E503", 2, 33)]
