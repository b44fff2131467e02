"""The onnxtext format in onnx's serialization registry: onnx.save/onnx.load through text, losslessly."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("onnx")
import onnx.serialization  # noqa: E402
from corpus.backend import all_model_paths  # noqa: E402

import onnxtext  # noqa: E402
from onnxtext.serialization import EXTENSIONS, FORMAT, OnnxTextSerializer  # noqa: E402

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.onnxtxt"))


@pytest.fixture(autouse=True)
def registered() -> OnnxTextSerializer:
    return onnxtext.register_onnx_serializer()


def test_save_and_load_are_lossless(tmp_path: Path) -> None:
    """Every example and every 8th backend model: save as text, load back, the same bytes (doc strings,
    metadata and field presence included, which onnx's own 'onnxtxt' printer loses)."""
    models = [
        onnx.ModelProto.FromString(onnxtext.parse_model(p.read_text()).SerializeToString())
        for p in EXAMPLES
        if "external" not in p.name
    ]
    models += [onnx.load(str(p), load_external_data=False) for p in all_model_paths()[::8]]
    assert len(models) > 200
    target = tmp_path / "m.onnxtxt"
    for model in models:
        model.doc_string = "kept"
        onnx.save(model, str(target), format=FORMAT)
        assert target.read_text(encoding="utf-8") == onnxtext.to_text(model)
        loaded = onnx.load(str(target), format=FORMAT, load_external_data=False)
        assert loaded.SerializeToString(deterministic=True) == model.SerializeToString(deterministic=True), (
            model.graph.name
        )


def test_strings_and_other_messages() -> None:
    model = onnxtext.parse_model(EXAMPLES[0].read_text())
    text = onnx.serialization.registry.get(FORMAT).serialize_proto(
        onnx.ModelProto.FromString(model.SerializeToString())
    )
    assert onnx.load_model_from_string(text, format=FORMAT).SerializeToString() == model.SerializeToString()
    graph = onnx.parser.parse_graph("g (float[2] x) => (float[2] y) { y = Relu(x) }")
    serializer = onnx.serialization.registry.get(FORMAT)
    again = serializer.deserialize_proto(serializer.serialize_proto(graph), onnx.GraphProto())
    assert again == graph
    with pytest.raises(TypeError, match="not a TensorProto"):
        serializer.serialize_proto(onnx.TensorProto())


def test_bad_text_raises_located_parse_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnxtxt"
    bad.write_text("<ir_version: 8>\ng (float[2] x) => (float[2] y) {\n  y = Relu(x\n}\n")
    with pytest.raises(onnxtext.ParseError) as caught:
        onnx.load(str(bad), format=FORMAT)
    assert caught.value.diagnostics[0].span is not None


def test_extensions_only_when_claimed(tmp_path: Path) -> None:
    model = onnx.parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 18]> g (float[2] x) => (float[2] y) { y = Relu(x) }'
    )
    model.graph.doc_string = "printed by onnxtext"
    path = tmp_path / "m.onnxtxt"
    onnx.save(model, str(path))  # not claimed: onnx's own printer, which drops the doc string
    assert "printed by onnxtext" not in path.read_text()
    onnxtext.register_onnx_serializer(claim_extensions=True)
    try:
        onnx.save(model, str(path))
        assert "printed by onnxtext" in path.read_text()
        assert onnx.load(str(path)) == model
    finally:  # give the extensions back to onnx's own format for the other tests
        onnx.serialization.registry._extension_to_format.update(dict.fromkeys(EXTENSIONS, "onnxtxt"))
