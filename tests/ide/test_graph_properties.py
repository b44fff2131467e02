"""The graph view's properties panel (``ide/graph_properties``): a node's operator, attributes,
typed ports, doc and metadata; a weight's storage and statistics from the model's own values,
inline, in an external file or held by a view by reference; and a weight saved as ``.npy``."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from onnxtext.api import save
from onnxtext.binary import open_binary
from onnxtext.document import Document, parse_document
from onnxtext.ide.graph_properties import BINS, Sources, properties_at, save_npy
from onnxtext.printing.text import to_text
from onnxtext.proto import ModelProto, TensorProto

HEAD = '<ir_version: 10, opset_import: ["": 21]>\n'


def _doc(text: str) -> Document:
    return parse_document(text, "model", "<test>")


def _conv_model(weights: np.ndarray) -> ModelProto:
    import onnxtext

    model = onnxtext.parse_model(
        HEAD + "g (float[1, 3, 8, 8] x) => (float[1, 4, 4, 4] y) {\n"
        '   ["conv1"] y = Conv <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x, w, b)'
        ' @{doc_string: "the first layer", metadata_props: ["namespace": "conv1"]}\n}\n'
    )
    w = model.graph.initializer.add(name="w", data_type=TensorProto.FLOAT, dims=list(weights.shape))
    w.raw_data = weights.astype(np.float32).tobytes()
    b = model.graph.initializer.add(name="b", data_type=TensorProto.FLOAT, dims=[4])
    b.raw_data = np.arange(4, dtype=np.float32).tobytes()
    return model


def _weights() -> np.ndarray:
    return np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype(np.float32)


def _check_stats(found: dict, values: np.ndarray) -> None:
    stats = found["stats"]
    assert stats["count"] == values.size and stats["nonfinite"] == 0
    for key, expected in (("min", values.min()), ("max", values.max()), ("mean", values.mean()), ("std", values.std())):
        assert stats[key] == pytest.approx(float(expected), rel=1e-5, abs=1e-6), key
    counts, _ = np.histogram(values, bins=BINS, range=(float(values.min()), float(values.max())))
    assert stats["histogram"]["counts"] == counts.tolist()


def test_a_node_says_its_operator_attributes_ports_doc_metadata_and_its_weights() -> None:
    values = _weights()
    text = to_text(_conv_model(values))
    doc = _doc(text)
    found = properties_at(doc, text.index("Conv <"))
    assert found is not None and found["kind"] == "node"
    assert (found["op"], found["domain"], found["name"], found["version"]) == ("Conv", "ai.onnx", "conv1", 11)
    assert dict(map(tuple, found["attributes"])) == {
        "kernel_shape": "[3,3]",
        "strides": "[2,2]",
        "pads": "[1,1,1,1]",
    }
    assert [(p["param"], p["name"], p["type"]) for p in found["inputs"]] == [
        ("X", "x", "float[1, 3, 8, 8]"),
        ("W", "w", "float[4, 3, 3, 3]"),
        ("B", "b", "float[4]"),
    ]
    assert [(p["param"], p["name"], p["type"]) for p in found["outputs"]] == [("Y", "y", "float[1, 4, 4, 4]")]
    assert (found["doc"], found["metadata"]) == ("the first layer", [["namespace", "conv1"]])
    weight = found["inputs"][1]["weight"]
    assert (weight["dtype"], weight["shape"], weight["storage"]) == ("float", [4, 3, 3, 3], "in the text")
    _check_stats(weight, values)
    assert "weight" not in found["inputs"][0]
    line = text[: text.index("float[4, 3, 3, 3] w")].count("\n")
    assert weight["range"]["start"]["line"] == line  # where the panel's weight is in the text


def test_a_weight_statement_is_a_weight_and_a_graph_input_a_value() -> None:
    values = _weights()
    text = to_text(_conv_model(values))
    doc = _doc(text)
    weight = properties_at(doc, text.index("float[4, 3, 3, 3] w") + 3)
    assert weight is not None and weight["kind"] == "weight" and weight["name"] == "w"
    _check_stats(weight, values)
    value = properties_at(doc, text.index("float[1, 3, 8, 8] x") + 3)
    assert value == {"kind": "value", "name": "x", "type": "float[1, 3, 8, 8]", "live": ""}
    assert properties_at(doc, 0) is None


def test_a_constant_through_an_identity_is_the_weight_of_its_reader() -> None:
    text = HEAD + (
        "g (float[3] x) => (float[3] y) {\n   c = Constant <value = float[3] {1, 2, 6}> ()\n"
        "   a = Identity (c)\n   y = Add (x, a)\n}\n"
    )
    doc = _doc(text)
    found = properties_at(doc, text.index("Add"))
    assert found is not None
    weight = found["inputs"][1]["weight"]
    assert weight["stats"]["mean"] == 3.0 and weight["stats"]["max"] == 6.0


def test_a_damaged_text_answers_what_it_can() -> None:
    text = HEAD + "g (float[3] x) => (float[3] y) {\n   y = Add (x, \n}\n"
    found = properties_at(_doc(text), text.index("Add"))
    assert found is None or found["kind"] in ("node", "value")


def test_save_npy_writes_the_values_atomically(tmp_path: Path) -> None:
    values = _weights()
    text = to_text(_conv_model(values))
    doc = _doc(text)
    target = tmp_path / "w.npy"
    said = save_npy(doc, text.index("float[4, 3, 3, 3] w") + 3, str(target))
    assert said == f"float32[4, 3, 3, 3] to {target}"
    assert np.array_equal(np.load(target), values)
    assert [p.name for p in tmp_path.iterdir()] == ["w.npy"]  # no temporary file left
    with pytest.raises(ValueError, match="no weight"):
        save_npy(doc, text.index("Conv <"), str(tmp_path / "conv.npy"))


def test_save_npy_gives_the_usual_permissions(tmp_path: Path) -> None:
    text = to_text(_conv_model(_weights()))
    target = tmp_path / "w.npy"
    save_npy(_doc(text), text.index("float[4, 3, 3, 3] w") + 3, str(target))
    umask = os.umask(0o022)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask  # as any other file written, not mkstemp's 0600


def test_external_data_is_read_from_the_models_folder(tmp_path: Path) -> None:
    values = _weights()
    model = _conv_model(values)
    w = model.graph.initializer[0]
    (tmp_path / "w.bin").write_bytes(b"\0" * 8 + w.raw_data)
    w.ClearField("raw_data")
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "w.bin"), ("offset", "8"), ("length", str(values.nbytes))):
        e = w.external_data.add()
        e.key, e.value = key, value
    text = to_text(model)
    doc = _doc(text)
    at = text.index("Conv <")
    found = properties_at(doc, at, Sources(folder=str(tmp_path)))
    assert found is not None
    weight = found["inputs"][1]["weight"]
    assert weight["storage"].startswith("external: w.bin")
    _check_stats(weight, values)
    unread = properties_at(doc, at)
    assert unread is not None and "folder" in unread["inputs"][1]["weight"]["problem"]


def test_a_view_by_reference_reads_a_weights_values_from_the_model_file(tmp_path: Path) -> None:
    values = np.random.default_rng(1).standard_normal((64, 3, 3, 3)).astype(np.float32)
    path = tmp_path / "m.onnx"
    save(_conv_model(values), path)
    view = open_binary(str(path), text_limit=2000, inline_budget=0)
    assert view.held is not None and '"digest": "sha256:' in view.text
    doc = _doc(view.text)
    at = view.text.index("Conv <")
    found = properties_at(doc, at, Sources(folder=str(tmp_path), held=view.held))
    assert found is not None
    weight = found["inputs"][1]["weight"]
    assert weight["storage"].startswith("by reference (sha256:")
    _check_stats(weight, values)
    target = tmp_path / "w.npy"
    save_npy(doc, view.text.index("float[64, 3, 3, 3] w") + 3, str(target), Sources(held=view.held))
    assert np.array_equal(np.load(target), values)
    # without the held data (the CLI reads no values), the panel says why there are no statistics
    bare = properties_at(doc, at)
    assert bare is not None and "digest" in bare["inputs"][1]["weight"]["problem"]


def test_a_page_carries_the_panel_of_each_node_and_weight(tmp_path: Path) -> None:
    """``onnxtext graph -o x.html``: no server answers the page's panel, so the page carries it,
    keyed by each statement's start as the view asks (a binary model's weight values unread)."""
    import json
    import re

    from onnxtext.cli import app as cli
    from onnxtext.ide.graph import graph_json, graph_model
    from onnxtext.ide.graph_properties import page_properties

    values = _weights()
    text = to_text(_conv_model(values))
    doc = _doc(text)
    graph = graph_json(graph_model(doc), doc.source)
    found = page_properties(doc, graph)
    (conv,) = [n for n in graph["nodes"] if n["kind"] == "op"]
    start = conv["range"]["start"]
    assert found[f"{start['line']}:{start['character']}"]["op"] == "Conv"
    row = conv["rows"][0]["range"]["start"]
    weight = found[f"{row['line']}:{row['character']}"]
    assert weight["kind"] == "weight"
    _check_stats(weight, values)
    model = tmp_path / "m.onnx"
    save(_conv_model(values), model)
    assert cli.main(["graph", str(model), "-o", str(tmp_path / "g.html")]) == 0
    html = (tmp_path / "g.html").read_text()
    data = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', html)
    assert data is not None
    page = json.loads(data.group(1))["properties"]
    panel = next(p for p in page.values() if p["kind"] == "node")
    assert dict(map(tuple, panel["attributes"]))["strides"] == "[2,2]"
    assert "stats" not in panel["inputs"][1]["weight"] and panel["inputs"][1]["weight"]["shape"] == [4, 3, 3, 3]


def test_a_page_leaves_out_the_statistics_of_a_huge_weight(tmp_path: Path) -> None:
    import json
    import re

    from onnxtext.cli import app as cli

    # 40 GB of float32 in a sparse external file: the page once read all of it and ran out of memory
    (tmp_path / "huge.data").write_bytes(b"")
    os.truncate(tmp_path / "huge.data", 4 * 10**10)
    text = HEAD + (
        "g (float[1, 100000] x) => (float[] y)\n"
        '<float[100000, 100000] big = ["location": "huge.data", "length": "40000000000"]>\n'
        "{\n   y = MatMul (x, big)\n}\n"
    )
    (tmp_path / "m.onnxtxt").write_text(text)
    assert cli.main(["graph", str(tmp_path / "m.onnxtxt"), "-o", str(tmp_path / "g.html")]) == 0
    data = re.search(
        r'<script id="graph-data" type="application/json">(.*?)</script>', (tmp_path / "g.html").read_text()
    )
    assert data is not None
    weights = [p for p in json.loads(data.group(1))["properties"].values() if p["kind"] == "weight"]
    assert weights and "stats" not in weights[0]
    assert weights[0]["problem"] == "statistics not computed: 10,000,000,000 values"


def test_with_live_values_every_port_has_the_statistics_of_a_weight() -> None:
    """A value that ran has min, max, mean, std and a histogram as a weight has (numbers that the
    run computed in its child process, checked here against numpy on the same values)."""
    from onnxtext.evaluate.live import run_live

    values = np.random.default_rng(2).standard_normal((5, 40)).astype(np.float32)
    values[0, 0] = np.nan
    text = HEAD + (
        "g () => (float[5, 40] y) {\n"
        "   c = Constant <value = float[5, 40] {" + ", ".join(repr(float(v)) for v in values.reshape(-1)) + "}> ()\n"
        "   r = Relu (c)\n   y = Neg (r)\n}\n"
    )
    doc = _doc(text)
    assert doc.model is not None
    live = run_live(doc.model)
    assert live.failure is None and live.skipped is None
    found = properties_at(doc, text.index("Neg"), live=live)
    assert found is not None
    (r,) = found["inputs"]
    relu = np.maximum(values, 0)
    relu[0, 0] = np.nan
    assert r["live"].startswith("float32[5, 40] min=nan")  # the summary still says there is a NaN
    finite = relu[np.isfinite(relu)]
    assert (r["stats"]["count"], r["stats"]["nonfinite"]) == (200, 1)
    for key in ("min", "max", "mean", "std"):
        assert r["stats"][key] == pytest.approx(float(getattr(finite, key)()), rel=1e-5), key
    assert r["stats"]["zeros"] == int(np.sum(finite == 0))
    counts, _ = np.histogram(finite, bins=BINS, range=(float(finite.min()), float(finite.max())))
    assert r["stats"]["histogram"]["counts"] == counts.tolist()
    (y,) = found["outputs"]
    assert y["stats"]["max"] == pytest.approx(-float(finite.min()), abs=1e-6)
    # without live values: the types alone
    assert "stats" not in properties_at(doc, text.index("Neg"))["inputs"][0]  # type: ignore[index]
    # a graph input that ran (made up) is a value with its statistics
    text_in = HEAD + "g (float[3, 4] x) => (float[3, 4] y) {\n   y = Abs (x)\n}\n"
    doc_in = _doc(text_in)
    assert doc_in.model is not None
    ran = run_live(doc_in.model)
    x = properties_at(doc_in, text_in.index("x)") - 2, live=ran)
    assert x is not None and x["kind"] == "value" and x["stats"]["count"] == 12 and "std" in x["stats"]


@pytest.mark.parametrize(
    "code, dtype", [(TensorProto.BFLOAT16, "bfloat16"), (TensorProto.FLOAT8E4M3FN, "float8_e4m3fn")]
)
def test_a_bfloat16_or_float8_weight_in_a_file_is_read_in_blocks(tmp_path: Path, code: int, dtype: str) -> None:
    """Its values are mapped as they are stored (not read in whole and widened to float32)."""
    import ml_dtypes

    from onnxtext.ide.graph_properties import weight_array, weight_statistics
    from onnxtext.weights.statistics import statistics

    values = _weights().astype(getattr(ml_dtypes, dtype))
    (tmp_path / "w.bin").write_bytes(values.tobytes())
    model = _conv_model(_weights())
    w = model.graph.initializer[0]
    w.ClearField("raw_data")
    w.data_type = code
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "w.bin"), ("length", str(values.nbytes))):
        e = w.external_data.add()
        e.key, e.value = key, value
    mapped = weight_array(w, Sources(folder=str(tmp_path)), stored=True)
    assert isinstance(mapped, np.memmap) and mapped.dtype.name == dtype and mapped.shape == values.shape
    read = weight_array(w, Sources(folder=str(tmp_path)))  # for a .npy: numpy's float32
    assert isinstance(read, np.ndarray) and read.dtype == np.float32
    assert np.array_equal(read, values.astype(np.float32))
    assert weight_statistics(w, Sources(folder=str(tmp_path))) == statistics(values.astype(np.float32))
