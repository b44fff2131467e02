"""Literal values ⇄ TensorProto storage: against onnx.parser, onnx.helper, onnx.numpy_helper
and ml_dtypes, plus round trips, fast path ≡ slow path, and exact error messages."""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from onnxtext.ir.dtypes import ALL, BY_NAME, bits_to_float, float_format
from onnxtext.ir.literal_checks import AS_GIVEN_NOTE
from onnxtext.ir.tensor import decode as TDec
from onnxtext.ir.tensor import float_text as TF
from onnxtext.ir.tensor import literals as TL
from onnxtext.ir.tensor import packing as TP
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.ir.tensor.decode import decode_literals
from onnxtext.ir.tensor.encode import encode_number_text, encode_values
from onnxtext.ir.tensor.literals import LiteralError, NotRepresentable, TensorLiterals, literal_kind
from onnxtext.proto import TensorProto

onnx = pytest.importorskip("onnx")
ml = pytest.importorskip("ml_dtypes")
from ml_dtypes_table import ML_FLOATS  # noqa: E402
from onnx import helper, numpy_helper  # noqa: E402

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ML_TYPES: dict[str, Any] = {
    **ML_FLOATS,
    "int4": ml.int4,
    "uint4": ml.uint4,
    "int2": ml.int2,
    "uint2": ml.uint2,
}
NUMPY_TYPES: dict[str, Any] = {
    "float": np.float32,
    "double": np.float64,
    "float16": np.float16,
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "uint16": np.uint16,
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "uint64": np.uint64,
    "bool": np.bool_,
    "complex64": np.complex64,
    "complex128": np.complex128,
}
BITS_FLOATS = [d.name for d in ALL if d.is_bits_float]
NUMERIC = [d.name for d in ALL if d.kind != "string"]
PACKED_TYPED = ["int4", "uint4", "int2", "uint2", "float4e2m1"]  # onnx.parser does not pack these


def new_tensor(name: str, dims: Sequence[int]) -> TensorProto:
    t = TensorProto()
    t.dims.extend(dims)
    t.data_type = BY_NAME[name].code
    t.name = "t"
    return t


def encode(
    name: str, dims: Sequence[int], literals: Sequence[tuple[str, Any]], raw: bool = False
) -> tuple[TensorProto, list[LiteralError]]:
    t = new_tensor(name, dims)
    return t, encode_values(t, BY_NAME[name], literals, raw=raw)


def encode_fast(name: str, dims: Sequence[int], body: str, raw: bool = False) -> tuple[TensorProto, list[LiteralError]]:
    t = new_tensor(name, dims)
    return t, encode_number_text(t, BY_NAME[name], body, raw=raw)


def lits(*texts: str) -> list[tuple[str, str]]:
    return [(literal_kind(x), x) for x in texts]


def onnx_parse(name: str, dims: Sequence[int], body: str) -> bytes:
    shape = "[" + ",".join(map(str, dims)) + "]" if dims else ""
    g = onnx.parser.parse_graph(f"g () => () <{name}{shape} t = {{{body}}}> {{ }}")
    return g.initializer[0].SerializeToString()  # type: ignore[no-any-return]


def own(t: Any) -> TensorProto:
    out = TensorProto()
    out.ParseFromString(t.SerializeToString())
    return out


# ----------------------------------------------------------------------------- literal texts


def int_text(lo: int, hi: int) -> st.SearchStrategy[str]:
    return st.integers(lo, hi).map(str)


def decimal_text(max_exp: int = 30) -> st.SearchStrategy[str]:
    """Decimal literals in onnx.parser syntax: digits '.' digits [e[+-]digits]."""
    return st.builds(
        lambda sign, ip, fp, e, form: (
            ("-" if sign else "") + str(ip) + ("." + fp if form != 1 else "") + (f"e{e}" if form >= 1 else "")
        ),
        st.booleans(),
        st.integers(0, 10**12),
        st.text("0123456789", max_size=12),
        st.integers(-max_exp, max_exp),
        st.integers(0, 2),
    )


SPECIALS = ["nan", "-nan", "inf", "-inf", "NaN", "Infinity", "-INF", "-infinity"]


def float32_text() -> st.SearchStrategy[str]:
    return st.one_of(
        decimal_text(30),
        st.floats(width=32, allow_nan=False, allow_infinity=False).map(lambda v: repr(float(v))),
        int_text(-(10**12), 10**12),
        st.sampled_from(SPECIALS),
    )


def float64_text() -> st.SearchStrategy[str]:
    return st.one_of(
        decimal_text(300),
        st.floats(allow_nan=False, allow_infinity=False).map(repr),
        int_text(-(10**30), 10**30),
        st.sampled_from(SPECIALS),
    )


def valid_texts(name: str) -> st.SearchStrategy[str]:
    """Literal texts onnx.parser accepts for the type (values in range)."""
    dt = BY_NAME[name]
    if dt.kind in ("int", "uint", "bool"):
        lo, hi = TL._int_range(dt)
        return int_text(lo, hi)
    if name in ("float", "complex64"):
        return float32_text()
    if name in ("double", "complex128"):
        return float64_text()
    width = float_format(dt).width
    return int_text(0, (1 << width) - 1)  # onnx.parser: bit patterns only


# ----------------------------------------------------------------------------- vs onnx.parser

PARSER_TYPES = [n for n in NUMERIC if n not in PACKED_TYPED]


@pytest.mark.parametrize("name", PARSER_TYPES)
@SETTINGS
@given(data=st.data())
def test_same_bytes_as_onnx_parser(name: str, data: st.DataObject) -> None:
    complex_ = BY_NAME[name].kind == "complex"
    n = data.draw(st.integers(0, 12))
    texts = data.draw(st.lists(valid_texts(name), min_size=2 * n if complex_ else n, max_size=2 * n if complex_ else n))
    dims = data.draw(st.sampled_from([[n], [1, n], [n, 1]]))
    body = ", ".join(texts)
    try:
        expected: bytes | None = onnx_parse(name, dims, body)
    except Exception:  # onnx.parser rejects e.g. a float that overflows
        expected = None
    t, errors = encode(name, dims, lits(*texts))
    if expected is None:
        assert errors
        return
    assert errors == []
    assert t.SerializeToString() == expected
    tf, errors_f = encode_fast(name, dims, body)
    assert errors_f == [] and tf.SerializeToString() == expected


@pytest.mark.parametrize(
    "name, body",
    [
        ("float", "-0, nan, -nan, inf, -Infinity, NaN, 1., 1.e3, 00.5, 007"),
        ("double", "-0, nan, -nan, inf, -inf, 1e-320, 2.2250738585072011e-308, 9007199254740993"),
        ("int64", "-9223372036854775808, 9223372036854775807, -0, 007"),
        ("uint64", "18446744073709551615, 0"),
        ("uint32", "4294967295, 0"),
        ("float16", "15360, 65535, 0"),
        ("bfloat16", "16256, 65535"),
        ("float8e8m0", "0, 127, 255"),
        ("float6e3m2", "0, 63, 17"),
        ("bool", "1, 0"),
        # float32 rounding from decimal: ties, near ties, overflow boundary, underflow
        ("float", "16777217, 16777217.000000001, 1.000000059604644775390625, 1.0000000596046447753906251"),
        ("float", "3.4028235677973366e38, 3.4028234663852886e38, 1e-46, 7.006492321624085e-46, 7.006492321624086e-46"),
        (
            "float",
            "1.00000000000000011102230246251565404236316680908203125, 0.1, 1e-45, 1.4e-45, "
            "340282356779733661637539395458142568447",
        ),
        ("complex64", "1, -2, 0.1, nan"),
        ("complex128", "1e308, -0, 0.1, inf"),
    ],
)
def test_hard_cases_same_as_onnx_parser(name: str, body: str) -> None:
    n = body.count(",") + 1
    dims = [n // 2] if BY_NAME[name].kind == "complex" else [n]
    expected = onnx_parse(name, dims, body)
    t, errors = encode(name, dims, lits(*[x.strip() for x in body.split(",")]))
    assert errors == [] and t.SerializeToString() == expected
    tf, errors = encode_fast(name, dims, body)
    assert errors == [] and tf.SerializeToString() == expected


@pytest.mark.parametrize(
    "body", ["1e39", "-3.4028235677973367e38", "340282356779733661637539395458142568448", "1e999", "9" * 400]
)
def test_float_overflow_is_an_error_like_onnx_parser(body: str) -> None:
    with pytest.raises(RuntimeError, match="Failed to parse float"):
        onnx_parse("float", [1], body)
    _, errors = encode("float", [1], lits(body))
    shown = body if len(body) <= 40 else body[:37] + "..."
    assert errors == [
        LiteralError(0, f"value {shown} is out of range for float (largest value 3.4028234663852886e+38)")
    ]
    _, errors = encode_fast("float", [1], body)
    assert errors == [
        LiteralError(0, f"value {shown} is out of range for float (largest value 3.4028234663852886e+38)")
    ]


def test_huge_integers_are_range_errors() -> None:
    big = "9" * 5000  # past Python's int() digit limit
    _, errors = encode("int64", [2], lits(big, "-" + big))
    assert [e.message[:20] for e in errors] == ["value 99999999999999", "value -9999999999999"]
    _, errors = encode_fast("float16", [2], big + ", 1")
    assert [(e.index, e.message, e.warning) for e in errors] == [
        (0, "bit pattern " + "9" * 37 + "... is out of range for float16 (0 to 65535)", False)
    ]
    _, errors = encode_fast("double", [1], big)
    assert [(e.index, e.message) for e in errors] == [(0, "value " + "9" * 37 + "... is out of range for double")]


def test_scalar_and_empty() -> None:
    expected = onnx_parse("float", [], "1")
    t, errors = encode("float", [], lits("1"))
    assert errors == [] and t.SerializeToString() == expected
    expected = onnx_parse("float", [0], "")
    t, errors = encode("float", [0], [])
    assert errors == [] and t.SerializeToString() == expected
    tf, errors = encode_fast("float", [0], "  ")
    assert errors == [] and tf.SerializeToString() == expected
    t, errors = encode("int8", [2, 0], [], raw=True)
    assert errors == [] and t.HasField("raw_data") and t.raw_data == b""


def test_strings_like_onnx_parser() -> None:
    expected = onnx_parse("string", [3], '"a\\"b", "", "x y"')
    t, errors = encode("string", [3], [("string", b'a"b'), ("string", b""), ("string", "x y")])
    assert errors == [] and t.SerializeToString() == expected
    tf, errors = encode_fast("string", [1], "1")
    assert errors == [LiteralError(0, "expected a string, got '1'")]


# ----------------------------------------------------------------------------- vs onnx.helper


@pytest.mark.parametrize(
    "name", PACKED_TYPED + ["float6e2m3", "float6e3m2", "bfloat16", "float16", "float8e4m3fn", "float8e5m2fnuz", "bool"]
)
@SETTINGS
@given(data=st.data())
def test_typed_same_as_make_tensor(name: str, data: st.DataObject) -> None:
    dt = BY_NAME[name]
    n = data.draw(st.integers(0, 11))
    if dt.kind in ("int", "uint", "bool"):
        lo, hi = TL._int_range(dt)
        vals = data.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n))
        texts = [str(v) for v in vals]
        ref = helper.make_tensor("t", dt.code, [n], vals if name != "bool" else [bool(v) for v in vals])
    else:
        width = float_format(dt).width
        codes = np.array(data.draw(st.lists(st.integers(0, (1 << width) - 1), min_size=n, max_size=n)), dtype=np.int64)
        values = bits_to_float(dt, codes)
        assume(not np.isnan(values).any())  # make_tensor converts values
        texts = [repr(float(v)) for v in values]
        arr = codes.astype(np.uint16 if width == 16 else np.uint8).view(ML_TYPES.get(name, np.float16))
        ref = helper.make_tensor("t", dt.code, [n], arr)
    t, errors = encode(name, [n], lits(*texts))
    assert errors == []
    assert t.SerializeToString() == ref.SerializeToString()


@pytest.mark.parametrize("name", NUMERIC)
@SETTINGS
@given(data=st.data())
def test_raw_same_as_from_array(name: str, data: st.DataObject) -> None:
    dt = BY_NAME[name]
    n = data.draw(st.integers(0, 13))
    if dt.kind in ("int", "uint", "bool"):
        lo, hi = TL._int_range(dt)
        vals = data.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n))
        texts = [str(v) for v in vals]
        arr = np.array(vals, dtype=ML_TYPES.get(name) or NUMPY_TYPES[name])
    elif name in ("float", "double", "complex64", "complex128"):
        real = np.float32 if name in ("float", "complex64") else np.float64
        k = 2 * n if dt.kind == "complex" else n
        floats = data.draw(
            st.lists(
                st.floats(width=32 if real is np.float32 else 64, allow_nan=False)
                | st.sampled_from([math.nan, -math.nan]),
                min_size=k,
                max_size=k,
            )
        )
        a = np.array(floats, dtype=real)
        texts = [
            ("-nan" if math.copysign(1, v) < 0 else "nan") if math.isnan(v) else repr(float(v)) for v in a.tolist()
        ]
        arr = a.view(NUMPY_TYPES[name])
    else:
        width = float_format(dt).width
        codes = np.array(data.draw(st.lists(st.integers(0, (1 << width) - 1), min_size=n, max_size=n)), dtype=np.int64)
        texts = [str(c) for c in codes]  # bit patterns
        arr = codes.astype(np.uint16 if width == 16 else np.uint8).view(ML_TYPES.get(name, np.float16))
    ref = numpy_helper.from_array(arr, "t")
    t, errors = encode(name, [n], lits(*texts), raw=True)
    assert errors == []
    assert t.raw_data == ref.raw_data
    assert t.SerializeToString() == ref.SerializeToString()


# ----------------------------------------------------------------------------- round trips


def random_storage(name: str, data: st.DataObject, raw: bool) -> TensorProto:
    """A tensor as onnx's helpers store random values (canonical storage)."""
    dt = BY_NAME[name]
    n = data.draw(st.integers(0, 9))
    dims = data.draw(st.sampled_from([[n], [n, 1], [1, n, 1]]))
    if dt.kind == "string":
        vals = data.draw(st.lists(st.binary(max_size=5), min_size=n, max_size=n))
        return own(helper.make_tensor("t", dt.code, dims, vals))
    if dt.kind in ("int", "uint", "bool"):
        lo, hi = TL._int_range(dt)
        ints = data.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n))
        arr = np.array(ints, dtype=ML_TYPES.get(name) or NUMPY_TYPES[name]).reshape(dims)
    elif name in ("float", "double", "complex64", "complex128"):
        real, uint = (np.float32, np.uint32) if name in ("float", "complex64") else (np.float64, np.uint64)
        k = 2 * n if dt.kind == "complex" else n
        bits = data.draw(st.lists(st.integers(0, np.iinfo(uint).max), min_size=k, max_size=k))
        a = np.array(bits, dtype=uint).view(real)
        nan = np.isnan(a)
        a[nan] = np.where(data.draw(st.booleans()), -np.nan, np.nan)  # canonical NaNs only
        arr = a.view(NUMPY_TYPES[name]).reshape(dims)
    else:
        width = float_format(dt).width
        codes = np.array(data.draw(st.lists(st.integers(0, (1 << width) - 1), min_size=n, max_size=n)), dtype=np.int64)
        arr = codes.astype(np.uint16 if width == 16 else np.uint8).view(ML_TYPES.get(name, np.float16)).reshape(dims)
    if raw:
        return own(numpy_helper.from_array(arr, "t"))
    if dt.kind in ("int", "uint", "bool") or name in ("float", "double", "complex64", "complex128"):
        return own(helper.make_tensor("t", dt.code, dims, arr.reshape(-1)))
    t = new_tensor(name, dims)  # typed bit patterns, packed like make_tensor
    flat = codes if not dt.is_packed or dt.bits == 6 else TP._pack(codes, dt.bits).astype(np.int64)
    t.int32_data.extend(flat.tolist())
    return t


@pytest.mark.parametrize("raw", [False, True], ids=["typed", "raw"])
@pytest.mark.parametrize("name", [d.name for d in ALL])
@SETTINGS
@given(data=st.data())
def test_decode_encode_round_trip(name: str, raw: bool, data: st.DataObject) -> None:
    if name == "string" and raw:
        return
    t = random_storage(name, data, raw)
    dt = BY_NAME[name]
    decoded = decode_literals(t, dt)
    assert decoded.raw == t.HasField("raw_data")
    for v in decoded.values:
        if isinstance(v, str):
            assert literal_kind(v) in ("int", "float", "special")
            if dt.kind in ("float", "complex") and literal_kind(v) == "int":
                assert dt.is_bits_float  # only NaN bit patterns
    t2 = new_tensor(name, list(t.dims))
    errors = encode_values(t2, dt, decoded.pairs(), raw=decoded.raw)
    assert errors == []
    assert t2.SerializeToString() == t.SerializeToString()
    if dt.kind != "string":
        t3 = new_tensor(name, list(t.dims))
        assert encode_number_text(t3, dt, ", ".join(decoded.values), raw=decoded.raw) == []  # type: ignore[arg-type]
        assert t3.SerializeToString() == t.SerializeToString()


@pytest.mark.parametrize("name", [d.name for d in ALL])
@SETTINGS
@given(data=st.data())
def test_to_numpy_matches_onnx_to_array(name: str, data: st.DataObject) -> None:
    raw = data.draw(st.booleans()) and name != "string"
    t = random_storage(name, data, raw)
    ours = to_numpy(t)
    if name == "string":  # bytes (onnx decodes UTF-8, and fails on other bytes)
        assert ours.dtype == object and ours.shape == tuple(t.dims)
        assert ours.reshape(-1).tolist() == list(t.string_data)
        return
    ref = numpy_helper.to_array(onnx.TensorProto.FromString(t.SerializeToString()))
    assert ours.shape == ref.shape
    if name in ML_TYPES and BY_NAME[name].kind == "float":
        assert ours.dtype == np.float32
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert np.array_equal(ours, ref.astype(np.float32), equal_nan=True)
    else:
        assert ours.dtype == (
            np.int8 if name in ("int4", "int2") else np.uint8 if name in ("uint4", "uint2") else ref.dtype
        )
        assert np.array_equal(
            ours.astype(ref.dtype) if name in ML_TYPES else ours, ref, equal_nan=ours.dtype.kind in "fc"
        )


# ----------------------------------------------------------------------------- fast path ≡ slow path


def any_number_text(name: str) -> st.SearchStrategy[str]:
    dt = BY_NAME[name]
    if dt.kind in ("int", "uint", "bool"):
        lo, hi = TL._int_range(dt)
        return st.one_of(int_text(lo - 3, hi + 3), st.sampled_from(["1.5", "nan", "1e3"]), int_text(-(10**25), 10**25))
    if dt.is_bits_float:
        return st.one_of(
            int_text(-2, (1 << float_format(dt).width) + 2),
            decimal_text(8),
            st.sampled_from(SPECIALS),
            st.floats(allow_nan=False).map(repr),
        )
    return float64_text()


@pytest.mark.parametrize("name", NUMERIC)
@SETTINGS
@given(data=st.data())
def test_fast_path_same_as_slow_path(name: str, data: st.DataObject) -> None:
    texts = data.draw(st.lists(any_number_text(name), max_size=14))
    n = data.draw(st.sampled_from([len(texts), len(texts) + 1, max(0, len(texts) - 1)]))
    dims = [n // 2 if BY_NAME[name].kind == "complex" else n]
    seps = data.draw(st.lists(st.sampled_from([",", ", ", " ,\n", "\t,  "]), min_size=len(texts), max_size=len(texts)))
    body = "".join(t + s for t, s in zip(texts, seps, strict=True))[: -len(seps[-1])] if texts else ""
    raw = data.draw(st.booleans())
    t_slow, e_slow = encode(name, dims, lits(*texts), raw=raw)
    t_fast, e_fast = encode_fast(name, dims, body, raw=raw)
    assert e_fast == e_slow
    assert t_fast.SerializeToString() == t_slow.SerializeToString()


@pytest.mark.parametrize(
    "body, errors",
    [
        ("1, .5, 2", [(1, "invalid number '.5'")]),
        ("1, +2", [(1, "invalid number '+2'")]),
        ("1,, 2", [(1, "invalid number ''")]),
        ("1, 2,", [(2, "invalid number ''")]),
        ("1, true", [(1, "expected a number for float, got 'true'")]),
        ("1, nanx, 1e", [(1, "invalid number 'nanx'"), (2, "invalid number '1e'")]),
        ("1_0, 2", [(0, "invalid number '1_0'")]),
        ("١, 2", [(0, "invalid number '١'")]),
        ('"a", 2', [(0, "invalid number '\"a\"'")]),
    ],
)
def test_fast_path_bad_items(body: str, errors: list[tuple[int, str]]) -> None:
    n = body.count(",") + 1
    _, got = encode_fast("float", [n], body)
    assert [(e.index, e.message) for e in got] == errors


def test_fast_path_hex_goes_through_slow_path() -> None:
    t, errors = encode_fast("float16", [2], "0x3c00, -0x0")
    assert errors == [] and list(t.int32_data) == [0x3C00, 0]
    t, errors = encode_fast("int8", [2], "0x7f, -0x80")
    assert errors == [] and list(t.int32_data) == [127, -128]
    t, errors = encode("float", [1], lits("-0x0"))
    assert errors == [] and math.copysign(1, t.float_data[0]) == -1


# ----------------------------------------------------------------------------- our extensions


def test_bits_float_values_and_patterns() -> None:
    t, errors = encode("float16", [6], lits("15360", "1.0", "0.1", "nan", "-nan", "-inf"))
    assert errors == [] and list(t.int32_data) == [0x3C00, 0x3C00, 0x2E66, 0x7E00, 0xFE00, 0xFC00]
    t, errors = encode("bfloat16", [3], lits("1.0", "-2.5", "1e38"))
    assert errors == [] and list(t.int32_data) == [0x3F80, 0xC020, 0x7E96]
    t, errors = encode("float8e4m3fn", [4], lits("448.0", "464.0", "0.0625", "-nan"))
    assert errors == [] and list(t.int32_data) == [0x7E, 0x7E, 0x18, 0xFF]
    t, errors = encode("float8e8m0", [3], lits("1.0", "0.75", "3.0"))
    assert errors == [] and list(t.int32_data) == [127, 127, 129]
    # the tie 1.0625 in float8e4m3fn: exact tie rounds to even, a hair above rounds up
    t, errors = encode("float8e4m3fn", [2], lits("1.0625", "1.06250000000000000000001"))
    assert errors == [] and list(t.int32_data) == [0x38, 0x39]
    t, errors = encode("float4e2m1", [3], lits("-6.0", "0.5", "1.25"))  # packed, low nibble first
    assert errors == [] and list(t.int32_data) == [0x1F, 0x02]
    t, errors = encode("int4", [3], lits("-8", "7", "-1"), raw=True)
    assert errors == [] and t.raw_data == b"\x78\x0f"
    t, errors = encode("uint2", [5], lits("1", "2", "3", "0", "3"))
    assert errors == [] and list(t.int32_data) == [0b00111001, 0b11]
    t, errors = encode("float6e2m3", [5], lits("0.125", "7.5", "-1.0", "63", "1"), raw=True)
    ref = numpy_helper.from_array(np.array([1, 31, 40, 63, 1], np.uint8).view(ml.float6_e2m3fn), "t")
    assert errors == [] and t.raw_data == ref.raw_data
    t, errors = encode("bool", [3], [("bool", "true"), ("bool", "false"), ("int", "1")])
    assert errors == [] and list(t.int32_data) == [1, 0, 1]


@pytest.mark.parametrize(
    "name, dims, literals, raw, expected",
    [
        ("bool", [1], lits("1.0"), False, [(0, "bool needs true, false, 0 or 1, got '1.0'")]),
        (
            "int4",
            [2],
            lits("8", "-9"),
            False,
            [(0, "value 8 is out of range for int4 (-8 to 7)"), (1, "value -9 is out of range for int4 (-8 to 7)")],
        ),
        ("uint2", [1], lits("4"), False, [(0, "value 4 is out of range for uint2 (0 to 3)")]),
        (
            "int64",
            [1],
            lits("9223372036854775808"),
            False,
            [(0, "value 9223372036854775808 is out of range for int64 (-9223372036854775808 to 9223372036854775807)")],
        ),
        (
            "int32",
            [2],
            lits("1.5", "nan"),
            False,
            [(0, "int32 needs an integer, got '1.5'"), (1, "int32 needs an integer, got 'nan'")],
        ),
        (
            "float16",
            [1],
            lits("65520.0"),
            False,
            [(0, "value 65520.0 is out of range for float16 (largest value 65504.0)")],
        ),
        (
            "float8e4m3fn",
            [2],
            lits("inf", "500.0"),
            False,
            [
                (0, "float8e4m3fn has no infinity"),
                (1, "value 500.0 is out of range for float8e4m3fn (largest value 448.0)"),
            ],
        ),
        (
            "float4e2m1",
            [2],
            lits("nan", "-inf"),
            False,
            [(0, "float4e2m1 has no NaN"), (1, "float4e2m1 has no infinity")],
        ),
        (
            "float6e3m2",
            [1],
            lits("1e300"),
            False,
            [(0, "value 1e300 is out of range for float6e3m2 (largest value 28.0)")],
        ),
        (
            "float8e8m0",
            [3],
            lits("0.0", "-1.0", "1e-50"),
            False,
            [
                (0, "float8e8m0 has no zero"),
                (1, "float8e8m0 has no negative values"),
                (2, "value 1e-50 is out of range for float8e8m0 (smallest value 5.877471754111438e-39)"),
            ],
        ),
        ("double", [1], lits("1e309"), False, [(0, "value 1e309 is out of range for double")]),
        (
            "float",
            [2],
            [("string", b"x"), ("word", "foo")],
            False,
            [(0, "expected a number for float, got a string"), (1, "expected a value, got 'foo'")],
        ),
        ("float", [1], [("float", "1.5.5")], False, [(0, "invalid number '1.5.5'")]),
        (
            "int8",
            [2],
            [("bool", "true"), ("int", "12a")],
            False,
            [(0, "expected a number for int8, got 'true'"), (1, "invalid number '12a'")],
        ),
        ("string", [2], [("string", b"a"), ("int", "1")], False, [(1, "expected a string, got '1'")]),
        ("string", [1], [("string", "a")], True, [(0, "string tensors cannot be stored in raw_data")]),
    ],
)
def test_error_messages(
    name: str, dims: list[int], literals: list[tuple[str, Any]], raw: bool, expected: list[tuple[int, str]]
) -> None:
    t, errors = encode(name, dims, literals, raw=raw)
    assert [(e.index, e.message) for e in errors] == expected
    for f in TL.STORAGE_FIELDS:  # nothing stored
        assert not t.HasField(f) if f == "raw_data" else len(getattr(t, f)) == 0


@pytest.mark.parametrize(
    "name, dims, literals, expected",
    [
        ("int8", [3], lits("1", "-2", "300"), [(2, "value 300 is out of range for int8 (-128 to 127)")]),
        ("uint8", [1], lits("-1"), [(0, "value -1 is out of range for uint8 (0 to 255)")]),
        ("bool", [1], lits("2"), [(0, "value 2 is out of range for bool (0 to 1)")]),
        ("uint32", [1], lits("4294967296"), [(0, "value 4294967296 is out of range for uint32 (0 to 4294967295)")]),
        ("uint64", [1], lits("-1"), [(0, "value -1 is out of range for uint64 (0 to 18446744073709551615)")]),
        ("float16", [1], lits("65536"), [(0, "bit pattern 65536 is out of range for float16 (0 to 65535)")]),
        ("float16", [1], lits("-1"), [(0, "bit pattern -1 is out of range for float16 (0 to 65535)")]),
        ("float", [3], lits("1", "2"), [(2, "expected 3 values for shape [3], got 2")]),
        ("float", [1, 2], lits("1", "2", "3"), [(2, "expected 2 values for shape [1, 2], got 3")]),
        ("float", [2], [], [(0, "expected 2 values for shape [2], got 0")]),
        (
            "complex64",
            [2],
            lits("1", "2", "3"),
            [(3, "expected 4 numbers (real, imaginary pairs of 2 complex64 values) for shape [2], got 3")],
        ),
        (
            "int8",
            [2, 2],
            lits("1", "400", "3"),
            [(1, "value 400 is out of range for int8 (-128 to 127)"), (3, "expected 4 values for shape [2, 2], got 3")],
        ),
        ("string", [2], [("string", b"a")], [(1, "expected 2 values for shape [2], got 1")]),
        (
            "uint32",
            [2],
            lits("-1", "18446744073709551615"),
            [
                (0, "value -1 is out of range for uint32 (0 to 4294967295)"),
                (1, "value 18446744073709551615 is out of range for uint32 (0 to 4294967295)"),
            ],
        ),
        (
            "float16",
            [3],
            lits("15360", "70000"),
            [
                (1, "bit pattern 70000 is out of range for float16 (0 to 65535)"),
                (2, "expected 3 values for shape [3], got 2"),
            ],
        ),
    ],
)
def test_stored_as_written(
    name: str, dims: list[int], literals: list[tuple[str, Any]], expected: list[tuple[int, str]]
) -> None:
    """What onnx.parser keeps although it does not fit: its exact storage, each problem a warning;
    printing gives literals that store the same again."""
    t, problems = encode(name, dims, literals)
    assert [(e.index, e.message) for e in problems] == [(i, f"{m}; {AS_GIVEN_NOTE}") for i, m in expected]
    assert all(e.warning for e in problems)
    body = ", ".join(f'"{x.decode()}"' if isinstance(x, bytes) else x for _, x in literals)
    assert t.SerializeToString() == onnx_parse(name, dims, body)
    if all(k != "string" for k, _ in literals):
        fast, _ = encode_fast(name, dims, body)
        assert fast.SerializeToString() == t.SerializeToString()
    again, _ = encode(name, dims, decode_literals(t, BY_NAME[name]).pairs())
    assert again.SerializeToString() == t.SerializeToString()
    raw, errors = encode(name, dims, literals, raw=True)  # raw_data is onnxtext's: no reading to follow
    assert errors and not any(e.warning for e in errors) and not raw.HasField("raw_data")


def test_encode_clears_previous_storage() -> None:
    t = new_tensor("float", [1])
    t.int32_data.append(5)
    t.raw_data = b"xx"
    assert encode_values(t, BY_NAME["float"], lits("1"), raw=False) == []
    assert not t.HasField("raw_data") and list(t.int32_data) == [] and list(t.float_data) == [1.0]


# ----------------------------------------------------------------------------- decoding


def test_canonical_texts() -> None:
    def dec(name: str, literals: list[str], raw: bool = False) -> TensorLiterals:
        t, errors = encode(
            name, [len(literals) // (2 if BY_NAME[name].kind == "complex" else 1)], lits(*literals), raw=raw
        )
        assert errors == []
        return decode_literals(t, BY_NAME[name])

    assert dec(
        "float", ["1", "-0", "0.1", "1e20", "1e-5", "123456789", "nan", "-nan", "-inf", "3.4028235e38", "1e-45"]
    ).values == [
        "1.0",
        "-0.0",
        "0.1",
        "1e+20",
        "1e-05",
        "123456790.0",
        "nan",
        "-nan",
        "-inf",
        "3.4028235e+38",
        "1e-45",
    ]
    assert dec("double", ["1", "0.1", "1e22", "1e16", "-nan", "5e-324"]).values == [
        "1.0",
        "0.1",
        "1e+22",
        "1e+16",
        "-nan",
        "5e-324",
    ]
    assert dec("float16", ["0.1", "65504.0", "31745", "nan", "-nan", "6e-08"]).values == [
        "0.1",
        "65500.0",
        "31745",
        "nan",
        "-nan",
        "6e-08",
    ]
    assert dec("bfloat16", ["0.1", "3.0", "1e38"]).values == ["0.1", "3.0", "1e+38"]
    assert dec("float8e4m3fn", ["448.0", "0.001953125", "127", "-nan"]).values == ["450.0", "0.002", "nan", "-nan"]
    assert dec("float8e4m3fnuz", ["-nan", "0.0"]).values == ["nan", "0.0"]
    assert dec("float8e8m0", ["1.0", "2.0", "5.877471754111438e-39", "1.7e38"]).values == [
        "1.0",
        "2.0",
        "6e-39",
        "2e+38",
    ]
    assert dec("float4e2m1", ["-6.0", "0.5", "8"]).values == ["-6.0", "0.5", "-0.0"]
    assert dec("int4", ["-8", "7", "-1"], raw=True) == TensorLiterals(["-8", "7", "-1"], True)
    assert dec("bool", ["true", "0"]).values == ["1", "0"]
    assert dec("uint64", ["18446744073709551615"]).values == ["18446744073709551615"]
    assert dec("complex64", ["1", "-2.5", "nan", "0"]).values == ["1.0", "-2.5", "nan", "0.0"]
    t, _ = encode("string", [2], [("string", b"a\x00"), ("string", "é")])
    assert decode_literals(t, BY_NAME["string"]) == TensorLiterals([b"a\x00", "é".encode()], False)
    assert TensorLiterals(["1.0", "2", "nan"], False).pairs() == [("float", "1.0"), ("int", "2"), ("special", "nan")]


@pytest.mark.parametrize(
    "name, setup, message",
    [
        (
            "float",
            lambda t: t.dims.append(1) or setattr(t, "raw_data", b"\0\0\0"),
            "raw_data holds 3 bytes, 4 expected for 1 float elements",
        ),
        (
            "float",
            lambda t: t.dims.append(1) or t.int32_data.append(1),
            "float values are kept in float_data, not int32_data",
        ),
        (
            "float",
            lambda t: t.dims.append(1) or t.float_data.append(1.0) or setattr(t, "raw_data", b"\0\0\0\0"),
            "the tensor has both raw_data and float_data",
        ),
        (
            "float",
            lambda t: t.dims.append(1) or setattr(t, "data_location", TensorProto.EXTERNAL),
            "the values are in external data",
        ),
        (
            "int4",
            lambda t: t.dims.append(1) or t.int32_data.append(0x31),
            "int32_data: the padding bits after the last of 1 packed 4-bit values are not zero",
        ),
        (
            "int4",
            lambda t: t.dims.append(3) or t.int32_data.append(0x31),
            "int32_data holds 1 bytes of packed 4-bit values, 2 expected for 3 elements",
        ),
        (
            "uint4",
            lambda t: t.dims.append(1) or setattr(t, "raw_data", b"\xf1"),
            "raw_data: the padding bits after the last of 1 packed 4-bit values are not zero",
        ),
        (
            "int2",
            lambda t: t.dims.append(1) or t.int32_data.append(256),
            "int32_data entry 256 is not a byte of packed int2 values",
        ),
        (
            "bool",
            lambda t: t.dims.append(1) or setattr(t, "raw_data", b"\x02"),
            "raw_data byte 2 is not a bool (element 0)",
        ),
        ("string", lambda t: t.dims.append(1) or setattr(t, "raw_data", b"a"), "string values in raw_data"),
        ("float", lambda t: t.dims.append(-1), "negative dimension -1"),
    ],
)
def test_not_representable(name: str, setup: Any, message: str) -> None:
    t = new_tensor(name, [])
    setup(t)
    with pytest.raises(NotRepresentable) as info:
        decode_literals(t, BY_NAME[name])
    assert str(info.value) == message


def test_not_representable_names_element() -> None:
    t = new_tensor("float", [3])
    t.raw_data = np.array([1.0, 2.0, 0], np.float32).tobytes()[:8] + b"\x00"
    with pytest.raises(NotRepresentable, match="raw_data holds 9 bytes"):
        decode_literals(t, BY_NAME["float"])


@pytest.mark.parametrize("raw", [False, True])
@pytest.mark.parametrize(
    ("name", "bits"),
    [
        ("float", [0x7FC00001, 0xFF800001, 0x3F800000]),
        ("double", [0x7FF0000000000001, 0xFFF8000000000123, 0x3FF0000000000000]),
    ],
)
def test_nan_payloads_print_as_bit_patterns(name: str, bits: list[int], raw: bool) -> None:
    """A hex literal in a float/double tensor is the IEEE bit pattern: NaN payloads survive exactly."""
    width = np.uint32 if name == "float" else np.uint64
    values = np.array(bits, dtype=width).view(np.float32 if name == "float" else np.float64)
    t = new_tensor(name, [3])
    if raw:
        t.raw_data = values.tobytes()
    else:
        getattr(t, BY_NAME[name].field).extend(values.tolist())
    lits = decode_literals(t, BY_NAME[name])
    assert lits.values[0].startswith("0x") and lits.values[1].startswith("0x")
    back = new_tensor(name, [3])
    assert encode_values(back, BY_NAME[name], lits.pairs(), raw=lits.raw) == []
    assert back.SerializeToString() == t.SerializeToString()


# ----------------------------------------------------------------------------- shortest printing


def test_float32_shortest_matches_numpy_dragon4() -> None:
    rng = np.random.default_rng(5)
    bits = np.concatenate(
        [
            rng.integers(0, 1 << 32, 30000, dtype=np.uint64),
            rng.integers(0, 1 << 23, 2000, dtype=np.uint64),  # subnormals
            (np.arange(1, 255, dtype=np.uint64) << 23),  # powers of two
            (np.arange(1, 255, dtype=np.uint64) << 23) - 1,
            np.array([1, 0x7F7FFFFF, 0x00800000, 0x007FFFFF], dtype=np.uint64),
        ]
    ).astype(np.uint32)
    values = bits.view(np.float32)
    values = values[np.isfinite(values)]
    t = new_tensor("float", [values.size])
    t.raw_data = values.tobytes()
    texts = decode_literals(t, BY_NAME["float"]).values
    for v, text in zip(values.tolist(), texts, strict=True):
        ref = np.format_float_scientific(np.float32(v), unique=True)
        assert Decimal(text) == Decimal(ref), (v, text, ref)
        assert isinstance(text, str) and ("." in text or "e" in text)


def test_float16_shortest_matches_numpy_for_every_value() -> None:
    codes = np.arange(1 << 16, dtype=np.uint16)
    values = codes.view(np.float16)
    texts = TF._literal_table(BY_NAME["float16"].code)
    finite = np.isfinite(values)
    ref = values[finite].astype(str)
    ours = texts[finite]
    assert all(Decimal(a) == Decimal(b) for a, b in zip(ours.tolist(), ref.tolist(), strict=True))


@pytest.mark.parametrize("name", BITS_FLOATS)
def test_every_code_round_trips(name: str) -> None:
    dt = BY_NAME[name]
    width = float_format(dt).width
    codes = np.arange(1 << width)
    texts = TF._literal_table(dt.code).tolist()
    for raw in (False, True):
        t, errors = encode(name, [codes.size], lits(*texts), raw=raw)
        assert errors == []
        assert np.array_equal(to_numpy(t).view(np.uint16) if name == "float16" else TDec._storage(t, dt)[0], codes)


@pytest.mark.parametrize("name", BITS_FLOATS + ["float"])
def test_vectorised_shortest_equals_exact(name: str) -> None:
    dt = BY_NAME[name]
    fmt = float_format(dt)
    if fmt.width == 32:
        rng = np.random.default_rng(6)
        # ranges with many exact-boundary cases: large integers, powers of two
        mags = np.concatenate(
            [
                np.arange(0x4E000000, 0x4E000000 + 3000),
                rng.integers(1, 0x7F800000, 3000),
                np.arange(1, 2000),
            ]
        ).astype(np.int64)
    else:
        mags = np.arange(1, fmt.max_code + 1, dtype=np.int64)
    x = bits_to_float(dt, mags)
    if fmt.style == "e8m0":
        lo, hi, lo_in, hi_in = x / 4, x / 2, np.ones(x.size, bool), np.zeros(x.size, bool)
    else:
        lo, hi, lo_in = TF._intervals(fmt.mbits, fmt.bias, mags)
        hi_in = lo_in
    digits, q = TF._shortest(x, lo, hi, lo_in, hi_in)
    for i in range(x.size):
        assert (digits[i], q[i]) == TF._shortest_exact(
            float(x[i]), float(lo[i]), float(hi[i]), bool(lo_in[i]), bool(hi_in[i])
        ), x[i]


# ----------------------------------------------------------------------------- speed


def test_speed_smoke() -> None:
    """1e5 float32 values each way well within a second (1e6 is benchmarked separately)."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal(100_000).astype(np.float32)
    t = new_tensor("float", [x.size])
    t.raw_data = x.tobytes()
    start = time.process_time()
    texts = decode_literals(t, BY_NAME["float"]).values
    t2 = new_tensor("float", [x.size])
    assert encode_number_text(t2, BY_NAME["float"], ", ".join(texts), raw=True) == []  # type: ignore[arg-type]
    assert time.process_time() - start < 1.0
    assert t2.raw_data == t.raw_data
