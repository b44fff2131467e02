"""Binary models as text in the editor: open, save back, large models with tensors by reference."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import onnxtext
from onnxtext.binary import open_binary, save_binary
from onnxtext.diagnostics import OnnxTextError
from onnxtext.io import model_bytes

MLP = Path(__file__).resolve().parents[2] / "examples" / "mlp.onnxtxt"


@pytest.fixture
def onnx_file(tmp_path: Path) -> Path:
    path = tmp_path / "mlp.onnx"
    path.write_bytes(model_bytes(onnxtext.load(MLP)))
    return path


def test_open_and_save_unchanged_keeps_the_bytes(onnx_file: Path) -> None:
    before = onnx_file.read_bytes()
    view = open_binary(str(onnx_file))
    assert view.editable and view.note is None and "MatMul" in view.text
    result = save_binary(view.text, str(onnx_file), opened=view)
    assert (result.written, result.unchanged) == (False, True)
    assert onnx_file.read_bytes() == before


def test_foreign_field_order_survives_an_unchanged_save(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    model = onnx.parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 18]> g (float[2] x) => (float[2] y) { y = Relu (x) }'
    )
    data = model.SerializeToString()
    path = tmp_path / "m.onnx"
    path.write_bytes(data)
    view = open_binary(str(path))
    assert save_binary(view.text, str(path), opened=view).unchanged and path.read_bytes() == data


def test_edited_text_is_written_atomically(onnx_file: Path) -> None:
    view = open_binary(str(onnx_file))
    edited = view.text.replace("Relu", "Sigmoid")
    result = save_binary(edited, str(onnx_file), opened=view)
    assert result.written and not result.unchanged
    assert [n.op_type for n in onnxtext.load(onnx_file).graph.node].count("Sigmoid") == 1


def test_broken_text_writes_nothing(onnx_file: Path) -> None:
    before = onnx_file.read_bytes()
    view = open_binary(str(onnx_file))
    result = save_binary(view.text.replace("MatMul (", "MatMul ((", 1), str(onnx_file), opened=view)
    assert not result.written and any(d.is_error for d in result.diagnostics)
    assert onnx_file.read_bytes() == before


def test_large_model_opens_editable_with_its_tensors_by_reference(tmp_path: Path) -> None:
    w = np.arange(50_000, dtype=np.float32)
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[50000] x) => (float[50000] y) <float[50000] w = {'
        + ", ".join(map(str, w.tolist()))
        + "}> { y = Add (x, w) }"
    )
    path = tmp_path / "big.onnx"
    path.write_bytes(model_bytes(onnxtext.parse_model(text)))
    view = open_binary(str(path), text_limit=100_000)
    assert view.editable and view.note is not None and "by reference" in view.note
    assert "sha256" in view.text and len(view.text) < 5_000
    assert save_binary(view.text.replace("Add", "Sub"), str(path), opened=view).written
    assert list(onnxtext.load(path).graph.initializer[0].float_data) == w.tolist()  # held in memory (typed storage)
    # its digests are tensors without data: that is what the view says, not a problem to list
    from onnxtext.analysis.diagnose import diagnose
    from onnxtext.binary import digest_view_diagnostics
    from onnxtext.document import parse_document

    diags = list(diagnose(parse_document(view.text, "model", str(path))))
    assert {d.code for d in diags} >= {"L002"}
    assert digest_view_diagnostics(diags) == []
    wrong = view.text.replace("Add (x, w)", "Reluu (x, w)")
    assert [d.code for d in digest_view_diagnostics(list(diagnose(parse_document(wrong, "model", str(path)))))] == [
        "E301"
    ]


def test_not_a_model(tmp_path: Path) -> None:
    path = tmp_path / "junk.onnx"
    path.write_bytes(b"\xff\xff\xff\xff garbage")
    with pytest.raises(OnnxTextError, match="not a valid binary ONNX model") as refused:
        open_binary(str(path))
    assert str(path) not in str(refused.value)  # the editor names the file once, beside the reason
    with pytest.raises(OnnxTextError, match="cannot read"):
        open_binary(str(tmp_path / "missing.onnx"))


def test_a_refused_save_says_why_once(onnx_file: Path) -> None:
    from onnxtext.binary import save_refusal

    view = open_binary(str(onnx_file))
    result = save_binary(view.text.replace("Relu", "Reluu"), str(onnx_file), opened=view)
    assert result.written  # a checker error is no reason to refuse: the text is a model
    broken = save_binary(view.text + "\n)))\n", str(onnx_file), opened=view)
    message = save_refusal(broken)
    assert message is not None and message.startswith("not saved: line ")
    assert "Permission" not in message and str(onnx_file) not in message and "\n" not in message
    assert save_refusal(result) is None
