"""Tensor rules: E501-E503, W501."""

from __future__ import annotations

from checkutil import check, located

from onnxtext.api import parse_model
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


def test_e509_values_out_of_range_in_text() -> None:
    """onnx.parser keeps 300 in an int8 (so does parse, with a warning L008); the checker calls it an error."""
    text = (
        H + "g (float[2] x) => (float[2] y) <int8[2] d = {1, 300}, bool[1] b = {2}, float16[1] h = {70000}> { "
        "y = Identity(x) }\n"
    )
    assert located(text, "E509") == [
        ("E509", 2, 33),
        ("L008", 2, 49),
        ("E509", 2, 55),
        ("L008", 2, 68),
        ("E509", 2, 72),
        ("L008", 2, 88),
    ]


def test_e509_binary_uint32_and_negative() -> None:
    m = parse_model(
        H + "g (float[2] x) => (float[2] y) <uint32[2] u = {1, 2}, uint8[2] v = {1, 2}> { y = Identity(x) }\n"
    )
    m.graph.initializer[0].uint64_data[1] = 1 << 40
    m.graph.initializer[1].int32_data[0] = -1
    diags = check(m, select=["E509"])
    assert [d.message for d in diags] == [
        "tensor 'u' holds 1099511627776 at element 1: uint32 values are 0 to 4294967295",
        "tensor 'v' holds -1 at element 0: uint8 values are 0 to 255",
    ]


def test_e509_valid_values_and_packed_types_quiet() -> None:
    text = (
        H + "g (float[2] x) => (float[2] y) <int8[2] d = {-128, 127}, uint4[2] p = {0, 15}, bool[2] b = {0, "
        "1}> { y = Identity(x) }\n"
    )
    assert located(text, "E509") == []
