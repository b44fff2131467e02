"""Hover answers: operator schemas for the imported opset, attributes, dtype codes, values, functions."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from onnxtext.document import Document, parse_document
from onnxtext.ide.graph_properties import Sources
from onnxtext.ide.hover import hover_at, statistics_markdown
from onnxtext.weights.statistics import BINS, Histogram, Statistics

TEXT = """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
g (float[N, 4] x, bool c) => (float[N, 4] y, int64[N, 4] z)
<float[4] w = {1, 2, 3, 4}>
{
   a = Softmax <axis = 1> (x)
   b = Add (a, w)
   z = Cast <to = 7> (b)
   y = local.twice:v1 (b)
}

<domain: "local", opset_import: ["" : 18], overload: "v1">
twice (p) => (q) {
   q = Add (p, p)
}
"""


def _hover(word: str, nth: int = 0, shift: int = 1) -> str:
    doc = parse_document(TEXT)
    assert doc.ok, doc.diagnostics
    at = -1
    for _ in range(nth + 1):
        at = TEXT.index(word, at + 1)
    found = hover_at(doc, at + shift)
    assert found is not None, word
    return found.markdown


def test_operator_shows_the_schema_of_the_imported_opset() -> None:
    text = _hover("Softmax")
    assert text.startswith("**Softmax** — ai.onnx, version 13 (the model imports opset 18)")


def test_attribute_and_dtype_code() -> None:
    assert _hover("axis").startswith("**axis**: int, default -1")
    assert _hover("7>", shift=0) == "`7` is **int64** (TensorProto.DataType)"


def test_value_shows_inferred_type_and_definition() -> None:
    text = _hover("a, w", shift=0)
    assert text.startswith("**a**: `float[N, 4]`")
    assert "node output, defined at line 5" in text
    w = _hover("w)", shift=0)
    assert w.startswith("**w**: `float[4]`") and "initializer" in w


def test_live_values_in_the_hover() -> None:
    """With live values on, a value's hover gives its summary and its statistics (std, histogram)."""
    from onnxtext.evaluate.live import run_live

    doc = parse_document(TEXT)
    assert doc.model is not None
    live = run_live(doc.model)
    assert live.failure is None and live.skipped is None
    (a,) = [v for v in live.values if v.name == "a" and v.graph == "graph"]
    assert a.statistics is not None and a.statistics.histogram is not None
    found = hover_at(doc, TEXT.index("a, w"), live=live)
    assert found is not None and f"live value: `{a.stats.text()}`" in found.markdown
    assert statistics_markdown(a.statistics) in found.markdown
    assert f"std {a.statistics.std:.4g}" in found.markdown and "8 values: min " in found.markdown
    x = hover_at(doc, TEXT.index("x)"), live=live)  # a made-up graph input
    assert x is not None and "live value: `float32[2, 4]" in x.markdown and " · std " in x.markdown
    assert "live value" not in _hover("a, w", shift=0)  # live values off: none


def test_a_weight_shows_where_its_data_is_and_its_statistics() -> None:
    w = _hover("w)", shift=0)
    assert "data: in the text" in w
    assert "4 values: min 1 · max 4 · mean 2.5 · std 1.118" in w
    bars = w.split("`")[-2]
    assert len(bars) == BINS and bars[0] != " " and bars[-1] != " " and w.endswith("` 1 … 4")
    assert _hover("w = {", shift=0) == w  # at its definition as at a use


def test_statistics_markdown_is_compact() -> None:
    h = Histogram(-1.0, 3.0, (8, 0, 4, 1))
    found = Statistics(15, 2, -1.0, 3.0, 0.123456, 2.0, 3, h)
    assert statistics_markdown(found) == (
        "15 values (2 NaN or infinite): min -1 · max 3 · mean 0.1235 · std 2 · 3 zeros\n\n`█ ▄▁` -1 … 3"
    )
    assert statistics_markdown(Statistics(3, 3)) == "3 values (3 NaN or infinite)"


def _external(nbytes: int, dims: str) -> tuple[Document, int]:
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\n'
        f"g (float[1, {dims.split(', ')[0]}] x) => (float[] y)\n"
        f'<float[{dims}] big = ["location": "w.bin", "offset": "16", "length": "{nbytes}"]>\n'
        "{\n   y = MatMul (x, big)\n}\n"
    )
    return parse_document(text), text.index("big)")


def test_an_external_weight_is_read_once_from_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onnxtext.ide import graph_properties

    values = np.random.default_rng(0).standard_normal((30, 20)).astype(np.float32)
    (tmp_path / "w.bin").write_bytes(b"\0" * 16 + values.tobytes())
    doc, at = _external(values.nbytes, "30, 20")
    found = hover_at(doc, at, sources=Sources(folder=str(tmp_path)))
    assert found is not None and "data: external: w.bin (offset 16, length 2400)" in found.markdown
    wide = values.astype(np.float64)
    assert f"600 values: min {wide.min():.4g} · max {wide.max():.4g} · mean {wide.mean():.4g}" in found.markdown
    assert f"std {wide.std():.4g}" in found.markdown
    no_folder = hover_at(doc, at)
    assert no_folder is not None and "its data is in an external file, and the text has no folder" in no_folder.markdown

    def unread(*args: object) -> None:
        raise AssertionError("read again")

    monkeypatch.setattr(graph_properties, "weight_array", unread)
    again = hover_at(doc, at, sources=Sources(folder=str(tmp_path)))  # remembered: the file is not read
    assert again is not None and again.markdown == found.markdown


def test_a_huge_weight_is_not_read_on_hover(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """40 GB of float32 (a sparse file): the hover says how many values it left, at once."""
    (tmp_path / "w.bin").write_bytes(b"")
    os.truncate(tmp_path / "w.bin", 16 + 4 * 10**10)
    doc, at = _external(4 * 10**10, "100000, 100000")

    from onnxtext.ide import graph_properties

    def unread(*args: object, **kwargs: object) -> object:
        raise AssertionError("the weight was read")

    monkeypatch.setattr(graph_properties, "weight_array", unread)
    found = hover_at(doc, at, sources=Sources(folder=str(tmp_path)))
    assert found is not None and "statistics not computed: 10,000,000,000 values" in found.markdown
    assert "data: external: w.bin" in found.markdown


def test_a_weight_shown_by_digest_says_its_values_are_not_here() -> None:
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[4] x) => (float[4] y)\n'
        '<float[4] w = ["digest": "sha256:00", "min": "1"]>\n{\n   y = Add (x, w)\n}\n'
    )
    found = hover_at(parse_document(text), text.index("w)"))
    assert found is not None and "data: by reference (sha256:00)" in found.markdown
    assert "its values are not in the text (shown by digest)" in found.markdown


def test_local_function_call_shows_its_signature() -> None:
    text = _hover("twice:v1")
    assert "twice:v1 (p) => (q)" in text and "1 call" in text


def test_nothing_to_say() -> None:
    doc = parse_document(TEXT)
    assert hover_at(doc, TEXT.index("{\n   a")) is None


def test_value_hover_separates_definition_and_uses() -> None:
    """Markdown joins consecutive lines: the definition and the uses are one line with a separator."""
    text = _hover("a, w", shift=0)
    assert "node output, defined at line 5; 1 use" in text


def test_dimensions() -> None:
    assert _hover("N, 4] x", shift=0).startswith("**N**: a symbolic dimension (`dim_param`)")
    assert "(3 times in this text)" in _hover("N, 4] x", shift=0)
    assert _hover("4] x", shift=0) == "**4**: a fixed dimension (`dim_value`)"


def test_header_keys() -> None:
    assert _hover("ir_version").startswith("**ir_version**: `ModelProto.ir_version`, the version of the IR")
    assert _hover("opset_import").startswith("**opset_import**: `ModelProto.opset_import`")
    assert _hover("overload").startswith("**overload**: `FunctionProto.overload`")


def test_a_constant_through_an_identity_shows_its_statistics() -> None:
    text = (
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[3] x) => (float[3] y) {\n'
        "   c = Constant <value = float[3] {1, 2, 6}> ()\n   a = Identity (c)\n   y = Add (x, a)\n}\n"
    )
    doc = parse_document(text)
    for at in (text.index("c = "), text.index("a)")):
        found = hover_at(doc, at)
        assert found is not None and "data: in the text" in found.markdown
        assert "3 values: min 1 · max 6 · mean 3 · std 2.16" in found.markdown
    x = hover_at(doc, text.index("x, a"))
    assert x is not None and "data:" not in x.markdown and "values" not in x.markdown  # a graph input: no weight


def test_a_view_by_reference_reads_the_weight_from_the_model_file(tmp_path: Path) -> None:
    import onnxtext
    from onnxtext.binary import open_binary
    from onnxtext.proto import TensorProto

    model = onnxtext.parse_model(
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[64, 27] x) => (float[64, 27] y) {\n   y = Add (x, w)\n}\n'
    )
    values = np.random.default_rng(1).standard_normal((64, 27)).astype(np.float32)
    w = model.graph.initializer.add(name="w", data_type=TensorProto.FLOAT, dims=[64, 27])
    w.raw_data = values.tobytes()
    onnxtext.save(model, tmp_path / "m.onnx")
    view = open_binary(str(tmp_path / "m.onnx"), text_limit=2000, inline_budget=0)
    assert view.held is not None and '"digest": "sha256:' in view.text
    doc = parse_document(view.text)
    found = hover_at(doc, view.text.index("w)"), sources=Sources(folder=str(tmp_path), held=view.held))
    assert found is not None and "data: by reference (sha256:" in found.markdown
    wide = values.astype(np.float64)
    assert f"1,728 values: min {wide.min():.4g} · max {wide.max():.4g} · mean {wide.mean():.4g}" in found.markdown
