"""The dtype table and the exact float conversions, against onnx and ml_dtypes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from onnxtext.ir import dtypes as D
from onnxtext.ir.dtypes import (
    BY_CODE,
    BY_NAME,
    NAMES,
    bits_to_float,
    dtype_by_code,
    dtype_by_name,
    float_format,
    float_to_bits,
    round_to_format,
)
from onnxtext.proto import TensorProto

onnx = pytest.importorskip("onnx")
ml = pytest.importorskip("ml_dtypes")
from ml_dtypes_table import ML_FLOATS  # noqa: E402

ML_TYPES = {
    "float": np.float32,
    "float16": np.float16,
    **ML_FLOATS,
}
NARROW = [n for n in ML_TYPES if n != "float"]


def _uint(width: int) -> type:
    return np.uint8 if width <= 8 else (np.uint16 if width <= 16 else np.uint32)


# ----------------------------------------------------------------------------- table


def test_table_covers_every_data_type() -> None:
    enum = onnx.TensorProto.DataType
    codes = [v for v in enum.values() if v != 0]
    assert sorted(BY_CODE) == sorted(codes) == list(range(1, 29))
    for dt in D.ALL:
        assert enum.Value(dt.enum_name) == dt.code
        assert TensorProto.DataType.Value(dt.enum_name) == dt.code
        assert dt.name == dt.enum_name.lower()
    assert NAMES == tuple(d.name for d in sorted(D.ALL, key=lambda d: d.code))
    assert len(set(NAMES)) == 28


def test_names_are_onnx_parser_names() -> None:
    # every name parses as a type in onnx.parser (and an unknown one does not)
    for name in NAMES:
        g = onnx.parser.parse_graph(f"g ({name}[1] x) => ({name}[1] y) {{ y = Identity(x) }}")
        assert g.input[0].type.tensor_type.elem_type == BY_NAME[name].code
    with pytest.raises(onnx.parser.ParseError):
        onnx.parser.parse_graph("g (floaty[1] x) => (float[1] y) { y = Identity(x) }")


def test_fields_match_onnx_helper() -> None:
    for dt in D.ALL:
        assert onnx.helper.tensor_dtype_to_field(dt.code) == dt.field, dt


@pytest.mark.parametrize("dt", [d for d in D.ALL if d.kind != "string"], ids=lambda d: d.name)
def test_storage_matches_onnx_np_dtype(dt: D.DType) -> None:
    np_dtype = onnx.helper.tensor_dtype_to_np_dtype(dt.code)
    if dt.is_packed:
        assert dt.storage == np.dtype("u1")
        assert dt.bits in (2, 4, 6)
    else:
        assert dt.storage.itemsize == np_dtype.itemsize
        assert dt.bits == 8 * np_dtype.itemsize
    assert dt.storage == dt.storage.newbyteorder("<")  # little-endian


def test_kinds_and_lookups() -> None:
    assert BY_NAME["float"].kind == "float" and BY_NAME["bfloat16"].kind == "float"
    assert BY_NAME["uint4"].kind == "uint" and BY_NAME["int2"].kind == "int"
    assert BY_NAME["bool"].kind == "bool" and BY_NAME["string"].kind == "string"
    assert BY_NAME["complex128"].kind == "complex"
    assert dtype_by_name("int4") is BY_NAME["int4"]
    assert dtype_by_name("Float") is None and dtype_by_name("fp16") is None
    assert dtype_by_code(16) is BY_NAME["bfloat16"]
    assert dtype_by_code(0) is None and dtype_by_code(29) is None
    assert [d.name for d in D.ALL if d.is_bits_float] == [
        "float16",
        "bfloat16",
        "float8e4m3fn",
        "float8e4m3fnuz",
        "float8e5m2",
        "float8e5m2fnuz",
        "float4e2m1",
        "float8e8m0",
        "float6e2m3",
        "float6e3m2",
    ]
    assert repr(BY_NAME["int8"]) == "DType(int8)"
    with pytest.raises(AttributeError):
        BY_NAME["int8"].code = 4  # type: ignore[misc]


def test_dtype_by_numpy_is_onnxs_mapping() -> None:
    """The numpy types that are ONNX element types map as ``onnx.helper`` maps them (either byte
    order); the formats numpy has not map from no numpy type, and numpy types ONNX has not to None."""
    import onnx.helper

    native = [d for d in D.ALL if d.numpy is not None]
    assert [d.name for d in native] == [
        "float", "uint8", "int8", "uint16", "int16", "int32", "int64", "bool",
        "float16", "double", "uint32", "uint64", "complex64", "complex128",
    ]  # fmt: skip
    for d in native:
        assert d.numpy is not None and onnx.helper.np_dtype_to_tensor_dtype(d.numpy) == d.code
        for order in "<>":
            assert D.dtype_by_numpy(d.numpy.newbyteorder(order)) is d
    for other in ("M8[s]", "m8[s]", "O", "U3", "S3", "V4"):
        assert D.dtype_by_numpy(other) is None


def test_format_facts() -> None:
    expect = {
        "float16": 65504.0,
        "bfloat16": float(ml.finfo(ml.bfloat16).max),
        "float8e4m3fn": 448.0,
        "float8e4m3fnuz": 240.0,
        "float8e5m2": 57344.0,
        "float8e5m2fnuz": 57344.0,
        "float8e8m0": 2.0**127,
        "float4e2m1": 6.0,
        "float6e2m3": 7.5,
        "float6e3m2": 28.0,
        "float": float(np.finfo(np.float32).max),
    }
    for name, mx in expect.items():
        assert float_format(BY_NAME[name]).max_value == mx, name
    with pytest.raises(ValueError):
        float_format(BY_NAME["double"])
    with pytest.raises(ValueError):
        float_format(BY_NAME["int8"])


# ----------------------------------------------------------------------------- bits -> float


@pytest.mark.parametrize("name", NARROW)
def test_bits_to_float_every_pattern(name: str) -> None:
    dt = BY_NAME[name]
    width = float_format(dt).width
    codes = np.arange(1 << width)
    ours = bits_to_float(dt, codes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = codes.astype(_uint(width)).view(ML_TYPES[name]).astype(np.float64)
    nan = np.isnan(ref)
    assert np.array_equal(np.isnan(ours), nan)
    assert np.array_equal(ours[~nan].view(np.uint64), ref[~nan].view(np.uint64))  # -0.0 too
    if name in ("float16", "bfloat16", "float8e4m3fn", "float8e5m2"):
        assert np.array_equal(np.signbit(ours[nan]), np.signbit(ref[nan]))


def test_bits_to_float_float32() -> None:
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 1 << 32, 100000, dtype=np.uint64)
    ours = bits_to_float(BY_NAME["float"], bits)
    with np.errstate(invalid="ignore"):  # signalling NaNs
        ref = bits.astype(np.uint32).view(np.float32).astype(np.float64)
    assert np.array_equal(ours, ref, equal_nan=True)


def test_bits_to_float_rejects_bad_patterns() -> None:
    with pytest.raises(ValueError, match="out of range"):
        bits_to_float(BY_NAME["float8e4m3fn"], np.array([256]))
    with pytest.raises(ValueError, match="out of range"):
        bits_to_float(BY_NAME["float4e2m1"], np.array([-1]))
    with pytest.raises(ValueError, match="integers"):
        bits_to_float(BY_NAME["float16"], np.array([1.5]))
    assert bits_to_float(BY_NAME["float16"], np.zeros(0, np.int64)).shape == (0,)


# ----------------------------------------------------------------------------- float -> bits


def _test_values(name: str, rng: np.random.Generator) -> np.ndarray:
    dt = BY_NAME[name]
    fmt = float_format(dt)
    mx = fmt.max_value
    parts = [
        rng.standard_normal(20000) * mx / 8,
        rng.uniform(-2 * mx, 2 * mx, 20000),
        np.exp(rng.uniform(-110, 90, 20000)) * rng.choice([-1.0, 1.0], 20000),
        np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, mx, -mx, 2 * mx]),
    ]
    if fmt.width <= 16:
        vals = bits_to_float(dt, np.arange(1 << fmt.width))
        vals = np.unique(vals[np.isfinite(vals)])
        mids = (vals[1:] + vals[:-1]) / 2
        parts += [vals, mids]
    return np.concatenate(parts)


@pytest.mark.parametrize("name", list(ML_TYPES))
def test_float_to_bits_matches_ml_dtypes(name: str) -> None:
    """On float32-exact inputs (ml_dtypes goes through float32), codes are ml_dtypes'."""
    dt = BY_NAME[name]
    fmt = float_format(dt)
    rng = np.random.default_rng(1)
    v = _test_values(name, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = v.astype(np.float32).astype(np.float64)
        ref = v.astype(ML_TYPES[name]).view(_uint(fmt.width)).astype(np.int64)
    bits, exact = float_to_bits(dt, v)
    keep = np.ones(v.shape, bool)
    if name == "float8e8m0":
        keep = (v >= 2.0**-126) | np.isnan(v)  # ml_dtypes: no underflow rule of its own
    elif not fmt.has_nan:
        keep = ~np.isnan(v)  # ml_dtypes gives a zero of the other sign for NaN
    assert np.array_equal(bits[keep], ref[keep])
    back = bits_to_float(dt, bits)
    same = (back == v) | (np.isnan(back) & np.isnan(v))
    assert np.array_equal(exact, same)


@pytest.mark.parametrize("name", ["float", "float16"])
def test_float_to_bits_matches_numpy_from_float64(name: str) -> None:
    dt = BY_NAME[name]
    rng = np.random.default_rng(2)
    v = np.concatenate([_test_values(name, rng), rng.standard_normal(50000) * 1e3])
    np_type = np.float32 if name == "float" else np.float16
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = v.astype(np_type).view(_uint(32 if name == "float" else 16)).astype(np.int64)
    assert np.array_equal(float_to_bits(dt, v)[0], ref)


@pytest.mark.parametrize("name", list(ML_TYPES))
def test_rounding_near_midpoints(name: str) -> None:
    """Just above a midpoint rounds away from zero, just below toward it, exactly on
    it to the even code (float8e8m0: up); from float64, with no double rounding."""
    dt = BY_NAME[name]
    fmt = float_format(dt)
    if fmt.width > 16:
        rng = np.random.default_rng(3)
        codes = rng.integers(1, 0x7F7FFFFF, 20000)
    else:
        codes = np.arange(1, fmt.max_code)
    lo_vals = bits_to_float(dt, codes)
    hi_vals = bits_to_float(dt, codes + 1)
    ok = np.isfinite(lo_vals) & np.isfinite(hi_vals) & (lo_vals > 0)
    codes, lo_vals, hi_vals = codes[ok], lo_vals[ok], hi_vals[ok]
    mid = (lo_vals + hi_vals) / 2
    above = np.nextafter(mid, np.inf)
    below = np.nextafter(mid, -np.inf)
    assert np.array_equal(float_to_bits(dt, above)[0], codes + 1)
    assert np.array_equal(float_to_bits(dt, below)[0], codes)
    on = float_to_bits(dt, mid)[0]
    if fmt.style == "e8m0":
        assert np.array_equal(on, codes + 1)
    else:
        assert np.array_equal(on, np.where(codes % 2 == 0, codes, codes + 1))
    r = round_to_format(dt, mid)
    assert r.tie.all() and not r.exact.any()
    # the sticky hint settles a tie either way
    assert np.array_equal(round_to_format(dt, mid, sticky=np.ones(mid.size, np.int8)).bits, codes + 1)
    assert np.array_equal(round_to_format(dt, mid, sticky=-np.ones(mid.size, np.int8)).bits, codes)
    # negative values mirror
    neg = float_to_bits(dt, -above)[0]
    if fmt.style != "e8m0":
        assert np.array_equal(neg, (codes + 1) | fmt.sign_bit)


def test_specials_and_overflow() -> None:
    def r(name: str, *vals: float) -> tuple[list[int], list[bool], list[bool]]:
        res = round_to_format(BY_NAME[name], np.array(vals, dtype=np.float64))
        return res.bits.tolist(), res.exact.tolist(), res.overflow.tolist()

    nan, inf = float("nan"), float("inf")
    assert r("float16", nan, -nan, inf, -inf, 65520.0, 65519.0, -0.0) == (
        [0x7E00, 0xFE00, 0x7C00, 0xFC00, 0x7C00, 0x7BFF, 0x8000],
        [True, True, True, True, False, False, True],
        [False, False, False, False, True, False, False],
    )
    assert r("bfloat16", nan, -nan)[0] == [0x7FC0, 0xFFC0]
    assert r("float8e4m3fn", nan, -nan, inf, 464.0, 465.0, -1e9) == (
        [0x7F, 0xFF, 0x7F, 0x7E, 0x7F, 0xFF],
        [True, True, False, False, False, False],
        [False, False, False, False, True, True],
    )
    assert r("float8e4m3fnuz", nan, -nan, -0.0, inf, 1e9)[0] == [0x80, 0x80, 0x00, 0x80, 0x80]
    assert r("float8e5m2", nan, -nan, inf, 61440.0)[0] == [0x7E, 0xFE, 0x7C, 0x7C]
    assert r("float8e5m2fnuz", -nan, -0.0)[0] == [0x80, 0x00]
    assert r("float4e2m1", nan, inf, -inf, 7.0, -0.0) == (
        [0, 7, 15, 7, 8],
        [False, False, False, False, True],
        [False, False, False, True, False],
    )
    assert r("float6e2m3", 8.0, -100.0)[0] == [0x1F, 0x3F]
    e8 = round_to_format(
        BY_NAME["float8e8m0"], np.array([nan, 0.0, -1.0, 1.0, 0.75, 1.5, 2.0**-128, 2.0**-127, 1.5 * 2.0**127, 3.0])
    )
    assert e8.bits.tolist() == [0xFF, 0xFF, 0xFF, 127, 127, 128, 0, 0, 0xFF, 129]
    assert e8.exact.tolist() == [True, False, False, True, False, False, False, True, False, False]
    assert e8.underflow.tolist() == [False] * 6 + [True, False, False, False]
    assert e8.overflow.tolist() == [False] * 8 + [True, False]
    assert float_format(BY_NAME["float8e4m3fn"]).nan_code(True) == 0xFF
    with pytest.raises(ValueError):
        float_format(BY_NAME["float4e2m1"]).nan_code()
    with pytest.raises(ValueError):
        _ = float_format(BY_NAME["float8e4m3fn"]).inf_code


def test_float_to_bits_keeps_shape() -> None:
    bits, exact = float_to_bits(BY_NAME["bfloat16"], np.ones((2, 3)))
    assert bits.shape == exact.shape == (2, 3)
    assert (bits == 0x3F80).all() and exact.all()
    r = round_to_format(BY_NAME["float8e8m0"], 3.0, saturate=True)
    assert r.bits.shape == r.exact.shape == r.underflow.shape == ()
    assert round_to_format(BY_NAME["float16"], np.ones((3, 4))[:, ::2]).bits.shape == (3, 2)


# ----------------------------------------------------------------------------- saturate, rounding

SIGNED = [n for n in ML_TYPES if n != "float8e8m0"]
FLOAT8 = ["float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz"]


@pytest.mark.parametrize("name", SIGNED)
def test_saturate_is_clip_then_round(name: str) -> None:
    """With saturate, codes are ml_dtypes' for the value clipped to the finite range first."""
    dt = BY_NAME[name]
    fmt = float_format(dt)
    v = _test_values(name, np.random.default_rng(4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = v.astype(np.float32).astype(np.float64)
        clipped = np.clip(v, -fmt.max_value, fmt.max_value)
        ref = clipped.astype(ML_TYPES[name]).view(_uint(fmt.width)).astype(np.int64)
    r = round_to_format(dt, v, saturate=True)
    keep = np.ones(v.shape, bool) if fmt.has_nan else ~np.isnan(v)
    assert np.array_equal(r.bits[keep], ref[keep])
    assert np.array_equal(r.overflow, round_to_format(dt, v).overflow)  # the flag is the same either way
    back = bits_to_float(dt, r.bits)
    assert np.array_equal(r.exact, (back == v) | (np.isnan(back) & np.isnan(v)))
    assert np.isfinite(back[~np.isnan(v)]).all()


@pytest.mark.parametrize("name", FLOAT8)
def test_saturate_matches_onnx_saturate_cast(name: str) -> None:
    """The float8 types with saturate are what onnx.reference's Cast/QuantizeLinear give."""
    from onnx.numpy_helper import saturate_cast

    dt = BY_NAME[name]
    with np.errstate(over="ignore"):
        v = _test_values(name, np.random.default_rng(5)).astype(np.float32)
    ref = saturate_cast(v, np.dtype(ML_TYPES[name])).view(np.uint8).astype(np.int64)
    assert np.array_equal(round_to_format(dt, v, saturate=True).bits, ref)


def test_saturate_specials() -> None:
    """ONNX Cast's table for saturate=1: +-inf and overflow to +-max, NaN stays NaN."""
    nan, inf = float("nan"), float("inf")

    def sat(name: str, *vals: float) -> list[int]:
        return round_to_format(BY_NAME[name], np.array(vals), saturate=True).bits.tolist()

    assert sat("float8e4m3fn", inf, -inf, 1e9, 464.0, 465.0, nan, -0.0) == [0x7E, 0xFE, 0x7E, 0x7E, 0x7E, 0x7F, 0x80]
    assert sat("float8e4m3fnuz", inf, -inf, 1e9, nan, -0.0) == [0x7F, 0xFF, 0x7F, 0x80, 0x00]
    assert sat("float8e5m2", inf, -inf, 1e6, 61440.0, nan) == [0x7B, 0xFB, 0x7B, 0x7B, 0x7E]
    assert sat("float8e5m2fnuz", inf, -inf, -1e6, nan) == [0x7F, 0xFF, 0xFF, 0x80]
    assert sat("float16", inf, -1e6) == [0x7BFF, 0xFBFF]
    assert sat("bfloat16", -inf) == [0xFF7F]
    # no change where the format has no inf: it always saturates
    assert (
        sat("float4e2m1", inf, 7.0, nan)
        == round_to_format(BY_NAME["float4e2m1"], np.array([inf, 7.0, nan])).bits.tolist()
    )
    r = round_to_format(BY_NAME["float8e4m3fn"], np.array([inf, 448.0, 1e9]), saturate=True)
    assert r.exact.tolist() == [False, True, False]
    assert r.overflow.tolist() == [False, False, True]


def test_saturate_float8e8m0() -> None:
    """float8e8m0 clamps to [2**-127, 2**127]: zero and negatives give the minimum, inf the maximum."""
    nan, inf = float("nan"), float("inf")
    vals = np.array([nan, 0.0, -0.0, -3.0, -inf, inf, 2.0**-130, 1.5 * 2.0**127, 3.0, 1.0])
    e8 = BY_NAME["float8e8m0"]
    r = round_to_format(e8, vals, saturate=True)
    assert r.bits.tolist() == [0xFF, 0, 0, 0, 0, 0xFE, 0, 0xFE, 129, 127]
    assert r.exact.tolist() == [True] + [False] * 8 + [True]
    assert r.overflow.tolist() == [False] * 7 + [True, False, False]
    assert r.underflow.tolist() == [False] * 6 + [True, False, False, False]
    # without saturate (ml_dtypes): NaN for those
    assert round_to_format(e8, vals).bits.tolist() == [0xFF] * 6 + [0, 0xFF, 129, 127]


@pytest.mark.parametrize("saturate", [True, False])
@pytest.mark.parametrize("rounding", ["up", "down", "nearest"])
def test_float8e8m0_matches_onnx(rounding: str, saturate: bool) -> None:
    """onnx's to_float8e8m0 (Cast's round_mode) on positive normal float32 values.

    (onnx differs where the ONNX spec says otherwise or leaves it open: inf with saturate,
    zero, subnormals and negatives; test_saturate_float8e8m0 pins ours.)"""
    from onnx.numpy_helper import to_float8e8m0

    rng = np.random.default_rng(6)
    v = np.concatenate(
        [
            np.exp2(rng.uniform(-126, 128, 50000)),
            np.exp2(np.arange(-126.0, 128.0)),
            1.5 * np.exp2(np.arange(-126.0, 128.0)),
            [np.finfo(np.float32).max],
        ]
    ).astype(np.float32)
    v = v[np.isfinite(v)]
    ref = to_float8e8m0(v, saturate, rounding).view(np.uint8).astype(np.int64)
    assert np.array_equal(round_to_format(BY_NAME["float8e8m0"], v, saturate=saturate, rounding=rounding).bits, ref)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(ML_TYPES))
def test_directed_rounding(name: str) -> None:
    """``up`` gives the next code away from zero, ``down`` the one toward zero; exact values stay."""
    dt = BY_NAME[name]
    fmt = float_format(dt)
    codes = np.random.default_rng(7).integers(1, 0x7F7FFFFF, 20000) if fmt.width > 16 else np.arange(1, fmt.max_code)
    lo_vals, hi_vals = bits_to_float(dt, codes), bits_to_float(dt, codes + 1)
    ok = np.isfinite(lo_vals) & np.isfinite(hi_vals) & (lo_vals > 0)
    codes, lo_vals, hi_vals = codes[ok], lo_vals[ok], hi_vals[ok]
    sign = 0 if fmt.style == "e8m0" else fmt.sign_bit
    signs = [1.0] if fmt.style == "e8m0" else [1.0, -1.0]
    for s in signs:
        sb = sign if s < 0 else 0
        for between in (np.nextafter(lo_vals, np.inf), (lo_vals + hi_vals) / 2, np.nextafter(hi_vals, 0)):
            up = round_to_format(dt, s * between, rounding="up")
            down = round_to_format(dt, s * between, rounding="down")
            assert np.array_equal(up.bits, (codes + 1) | sb) and not up.exact.any()
            assert np.array_equal(down.bits, codes | sb) and not down.exact.any()
        for rounding in ("up", "down"):
            r = round_to_format(dt, s * lo_vals, rounding=rounding)  # type: ignore[arg-type]
            assert np.array_equal(r.bits, codes | sb) and r.exact.all()


def test_directed_rounding_at_the_ends() -> None:
    f8 = BY_NAME["float8e4m3fn"]
    tiny, over = 2.0**-12, 460.0  # below the smallest subnormal (2**-9); between max and NaN
    assert round_to_format(f8, np.array([tiny, -tiny]), rounding="up").bits.tolist() == [0x01, 0x81]
    assert round_to_format(f8, np.array([tiny, -tiny]), rounding="down").bits.tolist() == [0x00, 0x80]
    assert round_to_format(f8, np.array([over]), rounding="down").bits.tolist() == [0x7E]
    up = round_to_format(f8, np.array([over]), rounding="up")
    assert up.bits.tolist() == [0x7F] and up.overflow.all()
    assert round_to_format(f8, np.array([over]), rounding="up", saturate=True).bits.tolist() == [0x7E]


def test_rounding_arguments_are_checked() -> None:
    f8 = BY_NAME["float8e4m3fn"]
    with pytest.raises(ValueError, match="rounding"):
        round_to_format(f8, np.ones(2), rounding="even")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sticky"):
        round_to_format(f8, np.ones(2), sticky=np.ones(2, np.int8), rounding="up")
    assert D.ROUNDINGS == ("nearest", "up", "down")


def test_float32_fast_rounding_matches_the_general_path() -> None:
    """round_to_format's float32 shortcut gives the general bit arithmetic's codes, exact and tie flags."""
    from onnxtext.ir.dtypes import BY_CODE, round_to_format

    rng = np.random.default_rng(11)
    f = (rng.standard_normal(20000) * 10.0 ** rng.integers(-46, 39, 20000)).astype(np.float32)
    f = f[np.isfinite(f) & (np.abs(f) < np.finfo(np.float32).max)]
    up = np.nextafter(f, np.float32(np.inf))
    mids = (f.astype(np.float64) + up.astype(np.float64)) / 2
    near = np.nextafter(mids, np.inf), np.nextafter(mids, -np.inf)
    values = np.concatenate(
        [f.astype(np.float64), mids, *near, [0.0, -0.0, 1e-46, -7.006e-46, 3.4028234e38, -3.4028235e38]]
    )
    values = values[np.abs(values) < float(np.finfo(np.float32).max)]
    fast = round_to_format(BY_CODE[1], values)
    general = round_to_format(BY_CODE[1], np.append(values, np.nan))  # a NaN takes the general path
    for got, want in zip(fast, general, strict=False):
        assert np.array_equal(got, want[:-1])
    assert fast.tie.sum() > 1000  # the midpoints were exercised


def test_float32_nearest_is_the_general_rounding() -> None:
    """The float32 shortcut (numpy's conversion, ties from the dropped bits) ≡ the general bit arithmetic."""
    rng = np.random.default_rng(126)
    f32 = rng.integers(0, 2**32, 300_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    f32 = f32[np.isfinite(f32) & (np.abs(f32) < np.float32(3e38))]
    f64 = f32.astype(np.float64)
    up = np.nextafter(f32, np.float32(np.inf)).astype(np.float64)
    mids = (f64 + up) / 2  # ties, subnormal ones included
    tiny = np.array([2.0**-149 * k for k in (0.5, 1.5, 2.5, 3.0, 1000.5)] + [2.0**-126 * (1 - 2**-25), 2.0**-126])
    d = np.concatenate([f64, mids, np.nextafter(mids, np.inf), rng.standard_normal(50_000), tiny, -tiny])
    fast = D._float32_nearest(d)
    assert fast is not None
    general = D.round_to_format(
        D.BY_NAME["float"], d, sticky=np.zeros(d.size, dtype=np.int8)
    )  # sticky: the general path
    assert (fast.bits == general.bits).all()
    assert (fast.exact == general.exact).all()
    assert (fast.tie == general.tie).all() and fast.tie.sum() > 100_000


@pytest.mark.parametrize(
    "values, taken",
    [
        ([0.0, -0.0, 1.5, -2.25, 1e38, 1.2e-38, 0.1], True),
        ([1.0, 1.0000000596046448], False),  # halfway between 1 and the next float32
        ([1.0, 1e-40], False),  # a float32 subnormal
        ([1.0, 3.5e38], False),  # beyond float32's range
    ],
)
def test_float32_once(values: list[float], taken: bool) -> None:
    d = np.array(values, dtype=np.float64)
    bits = D.float32_once(d)
    assert (bits is not None) == taken
    if bits is not None:
        general = round_to_format(BY_NAME["float"], d, sticky=np.zeros(d.size, dtype=np.int8))
        assert (bits.astype(np.int64) == general.bits).all()
