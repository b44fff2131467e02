"""The evaluator speaks the ecosystem's dtypes: ml_dtypes arrays in and out, plain numpy where unambiguous."""

from __future__ import annotations

import numpy as np
import pytest

import onnxtext
from onnxtext.evaluate import EvaluationError, Evaluator
from onnxtext.evaluate.interop import ml_dtype

ml_dtypes = pytest.importorskip("ml_dtypes")

CAST = """<ir_version: 10, opset_import: ["" : 23]>
g ({src}[3] x) => ({dst}[3] y) {{ y = Cast <to = {to}> (x) }}
"""


def _cast(src: str, dst: str, to: int) -> Evaluator:
    return Evaluator(onnxtext.parse_model(CAST.format(src=src, dst=dst, to=to)))


@pytest.mark.parametrize(
    "name, code, values",
    [
        ("bfloat16", 16, [1.5, -2.0, 0.0078125]),
        ("float8e4m3fn", 17, [1.5, -448.0, 0.015625]),
        ("float8e4m3fnuz", 18, [1.5, -240.0, 0.0078125]),
        ("float8e5m2", 19, [1.5, -57344.0, 0.0625]),
        ("float8e5m2fnuz", 20, [1.5, -57344.0, 0.0625]),
        ("float4e2m1", 23, [1.5, -6.0, 0.5]),
        ("float8e8m0", 24, [1.0, 2.0, 0.25]),
        ("int4", 22, [-8, 7, 3]),
        ("uint4", 21, [0, 15, 3]),
        ("int2", 26, [-2, 1, 0]),
        ("uint2", 25, [0, 3, 2]),
    ],
)
def test_ml_dtypes_in_and_out(name: str, code: int, values: list[float]) -> None:
    ml = ml_dtype(code)
    x = np.array(values, dtype=ml)
    (wide,) = _cast(name, "float", 1).run(None, {"x": x})
    assert wide.dtype == np.float32 and wide.tolist() == [float(v) for v in values]
    (back,) = _cast("float", name, code).run(None, {"x": wide})
    assert back.dtype == ml and back.astype(np.float64).tolist() == x.astype(np.float64).tolist()
    (same,) = _cast(name, name, code).run(None, {"x": x})  # in and out of the same type
    assert same.dtype == ml


def test_plain_numpy_where_unambiguous() -> None:
    ev = _cast("bfloat16", "float", 1)
    (y,) = ev.run(None, {"x": np.array([1.5, 2.0, -3.0], np.float32)})  # every value is a bfloat16
    assert y.tolist() == [1.5, 2.0, -3.0]
    with pytest.raises(
        EvaluationError, match=r"input 'x' is declared bfloat16 but was fed float32 values that are not bfloat16 values"
    ):
        ev.run(None, {"x": np.array([0.1, 2.0, -3.0], np.float32)})
    (y,) = _cast("int4", "float", 1).run(None, {"x": np.array([-8, 0, 7], np.int8)})
    assert y.tolist() == [-8.0, 0.0, 7.0]
    with pytest.raises(EvaluationError, match="not int4 values"):
        _cast("int4", "float", 1).run(None, {"x": np.array([-9, 0, 7], np.int8)})


def test_other_small_type_is_refused() -> None:
    with pytest.raises(EvaluationError, match=r"input 'x' is declared bfloat16 but was fed float8_e4m3fn"):
        _cast("bfloat16", "float", 1).run(None, {"x": np.array([1, 2, 3], dtype=ml_dtypes.float8_e4m3fn)})
    with pytest.raises(
        EvaluationError,
        match=r"input 'x' is declared bfloat16 but was fed float64 \(feed an ml_dtypes.bfloat16 array\)",
    ):
        _cast("bfloat16", "float", 1).run(None, {"x": np.array([1, 2, 3], dtype=np.float64)})


LOOP = """<ir_version: 8, opset_import: ["" : 18]>
g (int64 n) => (int64[?] s, bfloat16[?, 2] b, float[?] f)
{
  c = Constant <value = bool {1}> ()
  s, b, f = Loop (n, c) <body = body (int64 i, bool cin) => (bool cout, int64 si, bfloat16[2] bi, float fi) {
     cout = Identity (cin)
     si = Identity (i)
     v = Constant <value = float[2] {1.5, 2}> ()
     bi = Cast <to = 16> (v)
     fi = Cast <to = 1> (i)
  }>
}
"""


def test_zero_iteration_loop_scan_outputs_have_their_declared_types() -> None:
    ev = Evaluator(onnxtext.parse_model(LOOP))
    s, b, f = ev.run(None, {"n": np.array(0, np.int64)})
    assert (s.dtype, s.shape) == (np.int64, (0,))
    assert (b.dtype, b.shape) == (np.dtype(ml_dtypes.bfloat16), (0, 2))
    assert (f.dtype, f.shape) == (np.float32, (0,))
    s, b, f = ev.run(None, {"n": np.array(3, np.int64)})
    assert s.tolist() == [0, 1, 2] and b.dtype == np.dtype(ml_dtypes.bfloat16) and b.shape == (3, 2)


def test_evaluator_at_the_top_level() -> None:
    assert onnxtext.Evaluator is Evaluator
    assert "Evaluator" in onnxtext.__all__


def test_proto_value_reads_like_numpy_helper() -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    from onnxtext.evaluate import proto_value
    from onnxtext.proto import as_own

    for values, dtype in (
        ([1.5, -2.0], ml_dtypes.bfloat16),
        ([0.5, 448.0], ml_dtypes.float8_e4m3fn),
        ([-8, 7, 1], ml_dtypes.int4),
    ):
        msg = numpy_helper.from_array(np.array(values, dtype=dtype))
        expected = numpy_helper.to_array(msg)
        got = proto_value(as_own(msg))
        assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()
    seq = onnx.helper.make_sequence(
        "s", onnx.SequenceProto.TENSOR, [numpy_helper.from_array(np.array([1.5], dtype=ml_dtypes.bfloat16))]
    )
    (item,) = proto_value(as_own(seq))
    assert item.dtype == np.dtype(ml_dtypes.bfloat16)
