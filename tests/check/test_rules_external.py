"""External tensor data: E503 (location), E505 (file), E506 (range), E501 (length), W501 (keys).

The file checks apply when the checker knows the model's folder (a model checked from
its file, or ``model_dir=``); a model given as text or a proto gets the location checks only.
"""

from __future__ import annotations

import builtins
import os
from pathlib import Path
from typing import Any

import pytest
from checkutil import located

from onnxtext.api import check, parse_model, save
from onnxtext.proto import ModelProto, TensorProto

H = '<ir_version: 10, opset_import: ["" : 21]>\n'
CODES = ("E501", "E503", "E505", "E506", "W501")


def model(entries: str) -> str:
    """A model whose initializer 'w' (float[2], 8 bytes) is stored externally; its entries are on line 3."""
    return H + "g (float[2] x) => (float[2] y)\n<float[2] w = [" + entries + "]>\n{ y = Add(x, w) }\n"


GOOD = model('"location": "w.bin", "offset": "0", "length": "8"')


def write(folder: Path, text: str, data: bytes | None = b"\0" * 8) -> Path:
    """The model as ``m.onnxtxt`` in ``folder``, with ``data`` as its ``w.bin``."""
    if data is not None:
        (folder / "w.bin").write_bytes(data)
    path = folder / "m.onnxtxt"
    path.write_text(text)
    return path


def located_file(path: Path, *codes: str) -> list[tuple[str, int, int]]:
    out = []
    for d in check(path, select=list(codes) or list(CODES)):
        assert d.span is not None, d
        out.append((d.code, d.span.start.line, d.span.start.column))
    return out


def binary(folder: Path, m: ModelProto) -> Path:
    path = folder / "m.onnx"
    save(m, str(path))
    return path


def external_model(entries: dict[str, str]) -> ModelProto:
    m = parse_model(GOOD)
    t = m.graph.initializer[0]
    del t.external_data[:]
    for key, value in entries.items():
        e = t.external_data.add()
        e.key, e.value = key, value
    return m


# ---------------------------------------------------------------- sound references


def test_valid_reference_from_file(tmp_path: Path) -> None:
    assert located_file(write(tmp_path, GOOD)) == []


def test_valid_reference_without_length_or_offset(tmp_path: Path) -> None:
    assert located_file(write(tmp_path, model('"location": "w.bin"'))) == []


def test_location_in_a_subfolder(tmp_path: Path) -> None:
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "w.bin").write_bytes(b"\0" * 16)
    text = model('"location": "weights/w.bin", "offset": "8", "length": "8"')
    assert located_file(write(tmp_path, text, None)) == []


def test_onnx_saved_external_data_has_no_errors(tmp_path: Path) -> None:
    """Models written by onnx's own external-data writer, in one file and in one file per tensor."""
    onnx = pytest.importorskip("onnx")
    import numpy as np

    text = H + "g (float[2, 3] x) => (float[2, 3] y) { y = Add(x, w) }\n"
    for one_file in (True, False):
        folder = tmp_path / f"one_file_{one_file}"
        folder.mkdir()
        m = onnx.parser.parse_model(text)
        m.graph.initializer.append(onnx.numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "w"))
        m.graph.initializer.append(onnx.numpy_helper.from_array(np.arange(5, dtype=np.int64), "unused"))
        onnx.save_model(
            m,
            str(folder / "m.onnx"),
            save_as_external_data=True,
            all_tensors_to_one_file=one_file,
            location="w.data",
            size_threshold=0,
        )
        loaded = onnx.load(str(folder / "m.onnx"), load_external_data=False)
        assert all(t.data_location == TensorProto.EXTERNAL for t in loaded.graph.initializer)
        assert [str(d) for d in check(folder / "m.onnx") if d.is_error] == []


def test_data_is_never_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the file's size is looked at: a 4 GiB (sparse) file is checked without opening it."""
    path = write(tmp_path, model('"location": "w.bin", "offset": "4294967288", "length": "8"'), None)
    with open(tmp_path / "w.bin", "wb") as f:
        f.truncate(1 << 32)
    real_open = builtins.open

    def guarded(file: Any, *args: Any, **kwargs: Any) -> Any:
        assert not str(file).endswith("w.bin"), "the checker opened the external data"
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    assert located_file(path) == []


# ---------------------------------------------------------------- E503: the location


# A text with such a location does not even parse: X001 at the location's value (the
# checker's E503 is for binary models, whose bytes nobody parsed).


def test_x001_absolute_location_in_text() -> None:
    text = model('"location": "/data/w.bin", "offset": "0", "length": "8"')
    assert located(text, *CODES) == [("X001", 3, 28)]


def test_x001_location_leaving_the_folder() -> None:
    text = model('"length": "8", "location": "sub/../../w.bin"')
    assert located(text, *CODES) == [("X001", 3, 43)]


def test_x001_windows_absolute_and_empty_locations() -> None:
    assert located(model('"location": "C:\\\\w.bin"'), "E503") == [("X001", 3, 28)]
    assert located(model('"location": ""'), "E503") == [("X001", 3, 28)]


def test_e503_symlink_out_of_the_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside.bin"
    outside.write_bytes(b"\0" * 8)
    folder = tmp_path / "model"
    folder.mkdir()
    try:
        os.symlink(outside, folder / "link.bin")
    except OSError:
        pytest.skip("no symlinks here")
    path = write(folder, model('"location": "link.bin"'), None)
    assert located_file(path) == [("E503", 3, 16)]
    assert located(model('"location": "link.bin"'), *CODES) == []  # no folder: only the shape is judged


def test_x001_location_in_an_attribute_tensor() -> None:
    text = (
        H + 'g (float[2] x) => (float[2] y) {\n  c = Constant <value = float[2] ["location": "../w.bin"]> ()\n'
        "  y = Add(x, c)\n}\n"
    )
    assert located(text, *CODES) == [("X001", 3, 47)]


def test_e503_external_tensor_with_values_binary() -> None:
    m = external_model({"location": "w.bin"})
    m.graph.initializer[0].raw_data = b"\0" * 8
    diags = check(m, select=list(CODES))
    assert [(d.code, d.path) for d in diags] == [("E503", "graph/initializer[0] 'w'")]
    assert "also holds values" in diags[0].message


def test_e503_binary_path_names_the_entry() -> None:
    diags = check(external_model({"offset": "0", "location": "/w.bin"}), select=["E503"])
    assert [(d.code, d.path) for d in diags] == [("E503", "graph/initializer[0] 'w' external_data 'location'")]


# ---------------------------------------------------------------- E505: the file


def test_e505_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, None)
    assert located_file(path) == [("E505", 3, 16)]
    assert located(GOOD, *CODES) == []  # from a text, the folder is unknown


def test_e505_missing_file_binary(tmp_path: Path) -> None:
    path = binary(tmp_path, external_model({"location": "nowhere.bin"}))
    diags = check(path, select=list(CODES))
    assert [(d.code, d.path) for d in diags] == [("E505", "graph/initializer[0] 'w' external_data 'location'")]
    assert check(str(path), select=["E505"]) == diags  # a str path works the same
    assert check(path.read_bytes(), select=["E505"]) == []  # bytes have no folder


def test_e505_location_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "w.bin").mkdir()
    diags = check(write(tmp_path, GOOD, None), select=list(CODES))
    assert [d.code for d in diags] == ["E505"] and "is not a file" in diags[0].message


def test_e505_explicit_model_dir(tmp_path: Path) -> None:
    assert [d.code for d in check(GOOD, select=list(CODES), model_dir=tmp_path)] == ["E505"]
    (tmp_path / "w.bin").write_bytes(b"\0" * 8)
    assert check(GOOD, select=list(CODES), model_dir=tmp_path) == []


# ---------------------------------------------------------------- E506: offset and length


def test_e506_offset_and_length_must_be_non_negative_integers() -> None:
    text = model('"location": "w.bin", "offset": "-8", "length": "8.0"')
    assert located(text, *CODES) == [("E506", 3, 37), ("E506", 3, 53)]


def test_e506_range_past_the_end(tmp_path: Path) -> None:
    text = model('"location": "w.bin", "offset": "4", "length": "8"')
    assert located_file(write(tmp_path, text)) == [("E506", 3, 52)]


def test_e506_offset_past_the_end_without_length(tmp_path: Path) -> None:
    text = model('"location": "w.bin", "offset": "9"')
    diags = check(write(tmp_path, text), select=list(CODES))
    assert [d.code for d in diags] == ["E506"] and "(8 bytes): offset 9" in diags[0].message


def test_e506_range_in_binary(tmp_path: Path) -> None:
    path = binary(tmp_path, external_model({"location": "w.bin", "offset": "0", "length": "8"}))
    (tmp_path / "w.bin").write_bytes(b"\0" * 7)
    diags = check(path, select=list(CODES))
    assert [(d.code, d.path) for d in diags] == [("E506", "graph/initializer[0] 'w' external_data 'length'")]


# ---------------------------------------------------------------- E501: length against dims and type


def test_e501_length_differs_from_the_tensor_size() -> None:
    text = model('"location": "w.bin", "offset": "0", "length": "12"')
    assert located(text, *CODES) == [("E501", 3, 52)]


def test_e501_length_of_packed_types() -> None:
    text = (
        H + 'g (float[2] x) => (float[2] y)\n<int4[3] q = ["location": "q.bin", "length": "2"]>\n{ y = Identity(x) }\n'
    )
    assert located(text, "E501") == []
    assert located(text.replace('"length": "2"', '"length": "3"'), "E501") == [("E501", 3, 36)]


def test_e501_strings_are_not_stored_externally() -> None:
    text = H + 'g (float[2] x) => (float[2] y)\n<string[1] s = ["location": "s.bin"]>\n{ y = Identity(x) }\n'
    assert located(text, "E501") == [("E501", 3, 2)]


# ---------------------------------------------------------------- W501: keys


def test_w501_unknown_and_repeated_keys() -> None:
    text = model('"location": "w.bin", "lenght": "8", "location": "w.bin"')
    assert located(text, *CODES) == [("W501", 3, 37), ("W501", 3, 52)]


def test_w501_does_not_report_what_e506_does() -> None:
    assert [d.code for d in check(model('"location": "w.bin", "offset": "x"'), select=list(CODES))] == ["E506"]


def test_e503_in_a_list_of_attribute_tensors() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "com.x": 1]>\n'
        "g (float[2] x) => (float[2] y) {\n"
        '  y = com.x.Op <ts = [float[2] {1, 2}, float[2] ["location": "/w.bin"]]> (x)\n'
        "}\n"
    )
    assert located(text, *CODES) == [("X001", 3, 62)]
    model = parse_model(text.replace('"/w.bin"', '"w.bin"'))  # as a binary model would hold it
    model.graph.node[0].attribute[0].tensors[1].external_data[0].value = "/w.bin"
    diags = check(model, select=list(CODES))
    assert [(d.code, d.path) for d in diags] == [("E503", "graph/node[0]/attribute[0] 'ts' external_data 'location'")]
