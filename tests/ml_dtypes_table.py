"""ml_dtypes scalar types of the narrow float formats, by onnxtext dtype name (a test oracle)."""

from __future__ import annotations

from typing import Any

import pytest

ml = pytest.importorskip("ml_dtypes")

ML_FLOATS: dict[str, Any] = {
    "bfloat16": ml.bfloat16,
    "float8e4m3fn": ml.float8_e4m3fn,
    "float8e4m3fnuz": ml.float8_e4m3fnuz,
    "float8e5m2": ml.float8_e5m2,
    "float8e5m2fnuz": ml.float8_e5m2fnuz,
    "float8e8m0": ml.float8_e8m0fnu,
    "float4e2m1": ml.float4_e2m1fn,
    "float6e2m3": ml.float6_e2m3fn,
    "float6e3m2": ml.float6_e3m2fn,
}
