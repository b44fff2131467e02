"""Hover text for operators, attributes and dtypes, from the schema table's facts."""

from __future__ import annotations

import sys

import pytest

from onnxtext.ide.schema_docs import (
    attribute_default_text,
    attribute_markdown,
    dtype_markdown,
    operator_markdown,
    operator_url,
    signature_text,
)
from onnxtext.ir.schemas import get_schema


def test_operator_markdown_has_the_facts() -> None:
    schema = get_schema("Softmax", "", 18)
    assert schema is not None
    text = operator_markdown(schema, 18, description=False)
    assert text.startswith("**Softmax** — ai.onnx, version 13 (the model imports opset 18)")
    assert "- `input` — `T`: tensor(float16), tensor(float), tensor(double), tensor(bfloat16)" in text
    assert "- `axis`: int, default -1" in text
    assert "https://onnx.ai/onnx/operators/onnx__Softmax.html" in text


def test_old_versions_say_what_changed_later() -> None:
    schema = get_schema("Softmax", "", 11)
    assert schema is not None and schema.since_version == 11
    assert "Changed in later opsets: 13" in operator_markdown(schema, 11, description=False)


def test_optional_and_variadic_inputs_and_long_type_lists() -> None:
    concat = get_schema("Concat", "", 18)
    assert concat is not None
    text = operator_markdown(concat, description=False)
    assert "- `inputs` *(variadic)*" in text and "more" in text and "`axis`: int, required" in text
    clip = get_schema("Clip", "", 18)
    assert clip is not None and "- `min` *(optional)*" in operator_markdown(clip, description=False)


def test_domain_url_and_deprecated() -> None:
    scaler = get_schema("Scaler", "ai.onnx.ml", 1)
    assert scaler is not None
    assert operator_url(scaler) == "https://onnx.ai/onnx/operators/onnx_aionnxml_Scaler.html"
    upsample = get_schema("Upsample", "", 10)
    assert upsample is not None and upsample.deprecated
    assert "deprecated" in operator_markdown(upsample, 10, description=False)


def test_onnx_prose_only_when_onnx_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    from onnxtext.ide import schema_docs

    schema = get_schema("Relu", "", 14)
    assert schema is not None
    schema_docs._onnx_schema.cache_clear()
    monkeypatch.setitem(sys.modules, "onnx", None)  # `import onnx` now fails
    monkeypatch.setitem(sys.modules, "onnx.defs", None)
    without = operator_markdown(schema)
    assert "rectified" not in without
    schema_docs._onnx_schema.cache_clear()
    monkeypatch.undo()
    pytest.importorskip("onnx")
    assert "rectified" in operator_markdown(schema)
    schema_docs._onnx_schema.cache_clear()


def test_attribute_and_dtype_and_signature() -> None:
    elu = get_schema("Elu", "", 6)
    assert elu is not None
    alpha = elu.attribute("alpha")
    assert alpha is not None
    assert attribute_default_text(alpha) == "default 1.0"
    assert attribute_markdown(elu, alpha).startswith("**alpha**: float, default 1.0")
    assert dtype_markdown(1) == "`1` is **float** (TensorProto.DataType)"
    assert dtype_markdown(7) == "`7` is **int64** (TensorProto.DataType)"
    assert dtype_markdown(999) is None
    assert signature_text("f", ["x", "y"], ["z"], ["alpha"]) == "f <alpha> (x, y) => (z)"
