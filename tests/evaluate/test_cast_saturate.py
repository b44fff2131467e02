"""Cast, CastLike and QuantizeLinear/DequantizeLinear to the narrow floats, with and without
``saturate``, compared bit for bit with onnx.reference (a test oracle)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from onnxtext.evaluate import Evaluator
from onnxtext.ir.dtypes import BY_CODE, bits_to_float, float_format

FLOAT8 = [TensorProto.FLOAT8E4M3FN, TensorProto.FLOAT8E4M3FNUZ, TensorProto.FLOAT8E5M2, TensorProto.FLOAT8E5M2FNUZ]
NARROW = FLOAT8 + [TensorProto.BFLOAT16, TensorProto.FLOAT4E2M1]


def _values(to: int) -> np.ndarray:
    """float32 values around every code of ``to``: the codes, midpoints, neighbours, specials,
    overflow (also by half a step above the largest value)."""
    rng = np.random.default_rng(to)
    fmt = float_format(BY_CODE[to])
    grid = bits_to_float(BY_CODE[to], np.arange(1 << min(fmt.width, 12)))
    grid = np.unique(grid[np.isfinite(grid)])
    mids = (grid[1:] + grid[:-1]) / 2
    parts = [
        grid,
        mids,
        np.nextafter(mids.astype(np.float32), np.float32(np.inf)),
        rng.standard_normal(2000) * fmt.max_value / 4,
        np.exp(rng.uniform(-30, 30, 2000)),
        [0.0, np.nan, np.inf, 1.5 * grid[-1] - 0.5 * grid[-2], 1.01 * grid[-1], 1e30],
    ]
    with np.errstate(over="ignore"):
        v = np.concatenate([np.asarray(p, dtype=np.float64) for p in parts]).astype(np.float32)
    return np.concatenate([v, -v])


def _model(nodes: list[Any], inits: list[Any], out_type: int, opset: int) -> Any:
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("y", out_type, None)],
        initializer=inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=10)


def _assert_same(model: Any, x: np.ndarray) -> None:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        reference = np.asarray(ReferenceEvaluator(model).run(None, {"x": x})[0])
    got = Evaluator(model).run(None, {"x": x})[0]
    assert got.dtype == reference.dtype and got.shape == reference.shape  # both ml_dtypes arrays
    expected, got = reference.astype(np.float32), got.astype(np.float32)
    nan = np.isnan(expected)
    bad = np.flatnonzero((np.isnan(got) != nan) | (~nan & (got.view(np.uint32) != expected.view(np.uint32))))
    assert bad.size == 0, [(float(x[i]), float(expected[i]), float(got[i])) for i in bad[:10]]


@pytest.mark.parametrize("saturate", [1, 0])
@pytest.mark.parametrize("to", NARROW, ids=lambda t: BY_CODE[t].name)
def test_cast(to: int, saturate: int) -> None:
    model = _model([helper.make_node("Cast", ["x"], ["y"], to=to, saturate=saturate)], [], to, 21)
    x = _values(to)
    if not float_format(BY_CODE[to]).has_nan:
        x = x[~np.isnan(x)]  # float4e2m1 has no NaN: ml_dtypes gives -0, we give +0 (dtypes' choice)
    _assert_same(model, x)


@pytest.mark.parametrize("saturate", [1, 0])
@pytest.mark.parametrize("to", FLOAT8, ids=lambda t: BY_CODE[t].name)
def test_cast_like(to: int, saturate: int) -> None:
    target = helper.make_tensor("t", to, [1], [1.0])
    model = _model([helper.make_node("CastLike", ["x", "t"], ["y"], saturate=saturate)], [target], to, 21)
    _assert_same(model, _values(to))


@pytest.mark.parametrize("saturate", [1, 0])
@pytest.mark.parametrize("to", FLOAT8, ids=lambda t: BY_CODE[t].name)
def test_quantize_dequantize(to: int, saturate: int) -> None:
    scale = helper.make_tensor("s", TensorProto.FLOAT, [], [0.5])
    q = helper.make_node("QuantizeLinear", ["x", "s"], ["q"], output_dtype=to, saturate=saturate)
    dq = helper.make_node("DequantizeLinear", ["q", "s"], ["y"])
    _assert_same(_model([q, dq], [scale], TensorProto.FLOAT, 21), _values(to))


@pytest.mark.parametrize("saturate", [1, 0])
@pytest.mark.parametrize("round_mode", ["up", "down", "nearest"])
def test_cast_float8e8m0(round_mode: str, saturate: int) -> None:
    """On positive finite float32 normals (see the next test for where onnx.reference and we part)."""
    rng = np.random.default_rng(1)
    x = np.concatenate(
        [
            np.exp2(rng.uniform(-126, 128, 3000)),
            np.exp2(np.arange(-126.0, 128.0)),
            1.5 * np.exp2(np.arange(-126.0, 127.0)),
            [np.finfo(np.float32).max],
        ]
    ).astype(np.float32)
    to = TensorProto.FLOAT8E8M0
    node = helper.make_node("Cast", ["x"], ["y"], to=to, saturate=saturate, round_mode=round_mode)
    _assert_same(_model([node], [], to, 24), x)


def test_cast_float8e8m0_follows_the_spec() -> None:
    """ONNX Cast's float8e8m0 table, where onnx.reference gives something else: with saturate
    inf gives E8M0_MAX and values below E8M0_MIN give E8M0_MIN; without, zero gives NaN."""
    to = TensorProto.FLOAT8E8M0
    x = np.array([np.inf, 0.0, 2.0**-130, 1.0, np.nan], np.float32)
    sat = Evaluator(_model([helper.make_node("Cast", ["x"], ["y"], to=to)], [], to, 24))
    assert np.array_equal(
        sat.run(None, {"x": x})[0], np.array([2.0**127, 2.0**-127, 2.0**-127, 1.0, np.nan], np.float32), equal_nan=True
    )
    node = helper.make_node("Cast", ["x"], ["y"], to=to, saturate=0, round_mode="nearest")
    nosat = Evaluator(_model([node], [], to, 24))
    assert np.array_equal(
        nosat.run(None, {"x": x})[0], np.array([np.nan, np.nan, 2.0**-127, 1.0, np.nan], np.float32), equal_nan=True
    )


def test_unknown_round_mode_is_an_error() -> None:
    from onnxtext.evaluate import EvaluationError

    to = TensorProto.FLOAT8E8M0
    node = helper.make_node("Cast", ["x"], ["y"], to=to, round_mode="sideways")
    ev = Evaluator(_model([node], [], to, 24))
    with pytest.raises(EvaluationError, match="round_mode"):
        ev.run(None, {"x": np.ones(2, np.float32)})


@pytest.mark.parametrize("to", NARROW + [TensorProto.FLOAT8E8M0], ids=lambda t: BY_CODE[t].name)
def test_cast_keeps_a_scalar_a_scalar(to: int) -> None:
    ev = Evaluator(_model([helper.make_node("Cast", ["x"], ["y"], to=to)], [], to, 24))
    y = ev.run(None, {"x": np.array(1.0, np.float32)})[0]
    assert y.shape == () and y == 1.0
