"""Number lists through orjson (C): the fast paths give exactly what the exact paths give.

Parsing: :func:`encode_number_text` with orjson ≡ without it (same storage bytes, same
errors) on generated bodies that aim at every edge (``-0``, float32 midpoints, values
near float32's range, long digit strings, huge integers, out-of-range integers, count
mismatches). Printing: float32 texts from orjson's digits ≡ our own vectorised shortest
search, value for value. Storage: the packed-bytes fill ≡ ``extend``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onnxtext.ir.dtypes import BY_NAME
from onnxtext.ir.tensor import decode as TDec
from onnxtext.ir.tensor import encode as TE
from onnxtext.ir.tensor import float_text as TF
from onnxtext.proto import TensorProto

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# float32 midpoints (halfway between two float32 values: rounding twice goes wrong),
# values at the edge of float32's range, long decimals, negative zeros, huge integers.
EDGE_NUMBERS = [
    "0",
    "-0",
    "0.0",
    "-0.0",
    "-0e3",
    "1",
    "-1",
    "1.5",
    "1e-400",
    "-1e-400",
    "1e38",
    "3.4028235e38",
    "3.4028236e38",
    "3.40282357e38",
    "-3.4028235677973366e38",
    "1.401298464324817e-45",
    "7e-46",
    "1e-45",
    "0.1000000000000000055511151231257827021181583404541015625",
    "1.00000005960464477539062500000000001",
    "1.0000000596046447753906250",
    "1.00000017881393432617187499999999",
    "16777217",
    "-16777217",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "9223372036854775807",
    "9223372036854775808",
    "127",
    "128",
    "-128",
    "-129",
    "255",
    "256",
    "65535",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "1E5",
    "2.5e+3",
    "2.5E-3",
]


@st.composite
def number_texts(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["edge", "int", "float", "float32", "digits"]))
    if kind == "edge":
        return draw(st.sampled_from(EDGE_NUMBERS))
    if kind == "int":
        return str(draw(st.integers(-(2**70), 2**70)))
    if kind == "float":
        return repr(draw(st.floats(allow_nan=False, allow_infinity=False)))
    if kind == "float32":
        f = np.float32(draw(st.floats(width=32, allow_nan=False, allow_infinity=False)))
        with np.errstate(over="ignore"):  # past the largest float32: inf, and the midpoint is inf too
            mid = (float(f) + float(np.nextafter(f, np.float32(np.inf)))) / 2  # often a float32 midpoint
        return draw(st.sampled_from([repr(float(f)), repr(mid), f"{mid:.25g}"]))
    whole = draw(st.text("0123456789", min_size=1, max_size=30).filter(lambda t: t == "0" or not t.startswith("0")))
    frac = draw(st.text("0123456789", min_size=1, max_size=30))
    sign = draw(st.sampled_from(["", "-"]))
    exp = draw(st.sampled_from(["", "e-30", "e5", "E+2", "e-45"]))
    return f"{sign}{whole}.{frac}{exp}"


def _encode(dtype_name: str, dims: list[int], body: str, raw: bool, fast: bool) -> tuple[bytes, list[tuple[int, str]]]:
    with pytest.MonkeyPatch.context() as m:
        if not fast:
            m.setattr(TE, "_json_numbers", lambda *a: None)
        t = TensorProto(data_type=BY_NAME[dtype_name].code, dims=dims)
        errors = TE.encode_number_text(t, BY_NAME[dtype_name], body, raw=raw)
    return t.SerializeToString(), [(e.index, e.message) for e in errors]


DTYPES = ["float", "double", "int8", "uint8", "int16", "uint16", "int32", "int64", "uint32", "uint64"]


@SETTINGS
@given(
    dtype_name=st.sampled_from(DTYPES),
    numbers=st.lists(st.one_of(number_texts(), number_texts(), number_texts(), st.just("")), min_size=1, max_size=8),
    spaces=st.sampled_from([", ", ",", " , ", ",\n   ", "\t,\r\n"]),
    raw=st.booleans(),
    count_delta=st.sampled_from([0, 0, 0, 1, -1]),
    chunk=st.sampled_from([1 << 17, 1, 6, 20]),
)
def test_fast_parse_is_the_exact_parse(
    dtype_name: str, numbers: list[str], spaces: str, raw: bool, count_delta: int, chunk: int
) -> None:
    """Also with the body read in pieces of ``chunk`` characters (cut at commas)."""
    body = " " + spaces.join(numbers) + " "
    dims = [max(len(numbers) + count_delta, 0)]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(TE, "_CHUNK", chunk)
        fast = _encode(dtype_name, dims, body, raw, True)
    assert fast == _encode(dtype_name, dims, body, raw, False)


@SETTINGS
@given(
    tensors=st.lists(
        st.tuples(
            st.sampled_from(["float", "float", "float", "double", "int64"]),
            st.lists(number_texts(), min_size=0, max_size=6),
            st.sampled_from([0, 0, 0, 1, -1]),
            st.sampled_from(["", "", " ", "nan", "1]", "[1", "0x1", ",", " , ", "1e999"]),
        ),
        min_size=1,
        max_size=8,
    ),
    raw=st.booleans(),
    chunk=st.sampled_from([1 << 17, 1, 5, 12, 40]),
)
def test_batch_parse_is_each_parse(tensors: list[tuple[str, list[str], int, str]], raw: bool, chunk: int) -> None:
    """encode_number_texts ≡ encode_number_text of each body, whatever the others are; bodies read in
    groups and long ones in pieces (``chunk`` characters: the pieces then end at every comma or so)."""
    jobs, alone = [], []
    for dtype_name, numbers, count_delta, extra in tensors:
        body = ", ".join(numbers + ([extra] if extra else []))
        dims = [max(len(numbers) + count_delta, 0)]
        jobs.append((TensorProto(data_type=BY_NAME[dtype_name].code, dims=dims), BY_NAME[dtype_name], body))
        alone.append(_encode(dtype_name, dims, body, raw, True))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(TE, "_CHUNK", chunk)
        errors = TE.encode_number_texts(jobs, raw=raw)
    together = [
        (t.SerializeToString(), [(e.index, e.message) for e in found])
        for (t, _, _), found in zip(jobs, errors, strict=True)
    ]
    assert together == alone


def test_batch_parse_takes_plain_float_bodies_together(monkeypatch: pytest.MonkeyPatch) -> None:
    alone: list[str] = []
    each = TE.encode_number_text
    monkeypatch.setattr(
        TE, "encode_number_text", lambda t, d, body, raw: alone.append(body) or each(t, d, body, raw=raw)
    )
    bodies = ["1.5, 2", "-0, 1", "0, 1", "1e39, 1", "0.25, 4e-3", "1, 2, 3"]
    jobs = [(TensorProto(data_type=1, dims=[2]), BY_NAME["float"], body) for body in bodies]
    errors = TE.encode_number_texts(jobs, raw=False)
    assert [bool(e) for e in errors] == [False, False, False, True, False, True]
    assert alone == ["-0, 1", "1e39, 1", "1, 2, 3"]  # a "-0", beyond float32, a count mismatch


@pytest.mark.parametrize("dtype_name", DTYPES)
def test_plain_bodies_take_the_fast_path(dtype_name: str) -> None:
    body = "1, 2, 3, -4, 5" if dtype_name not in ("float", "double") else "1.5, -2, 3e-5, 0.1, 7"
    if dtype_name.startswith("uint"):
        body = body.replace("-", "")
    t = TensorProto(data_type=BY_NAME[dtype_name].code, dims=[5])
    fast = TE._json_numbers(t, BY_NAME[dtype_name], body)
    assert fast is not None and fast.size == 5


@pytest.mark.parametrize(
    "dtype_name, body",
    [
        ("float", "1, nan, 2"),  # specials
        ("float", "0x7fc00001, 1"),  # bit patterns
        ("float", "-0, 1"),  # JSON drops the sign of an integer zero
        ("float", "1, -0"),
        ("float", "1e39, 1"),  # out of float32's range: an error from the exact path
        ("float", "1.00000005960464477539062500000000001, 2"),  # a float32 midpoint as float64
        ("float", "1, 2, 3"),  # count mismatch
        ("int8", "1, 300"),  # out of range
        ("int32", "1, 2.5"),  # not an integer
        ("uint64", "18446744073709551615, 1"),  # beyond int64
        ("float16", "1, 2"),  # narrow floats: integers are bit patterns
        ("bool", "1, 0"),
        ("float", "01, 2"),  # not JSON
        ("float", "+1, 2"),
        ("float", "1., 2"),
    ],
)
def test_what_the_fast_parse_leaves_to_the_exact_path(dtype_name: str, body: str) -> None:
    t = TensorProto(data_type=BY_NAME[dtype_name].code, dims=[2])
    assert TE._json_numbers(t, BY_NAME[dtype_name], body) is None


def _general_float32(bits: np.ndarray) -> list[str]:
    """Our own vectorised shortest search (the path every other float type takes)."""
    b = bits.astype(np.int64)
    mag = b & 0x7FFFFFFF
    x = b.astype(np.uint32).view(np.float32).astype(np.float64)
    lo, hi, even = TF._intervals(23, 127, mag)
    return list(TF._format_codes(x, even, lo, hi))


def _finite_nonzero(bits: np.ndarray) -> np.ndarray:
    mag = bits & 0x7FFFFFFF
    return bits[((mag >> 23) != 0xFF) & (mag != 0)]


def test_float32_texts_from_orjson_are_ours() -> None:
    rng = np.random.default_rng(15)
    edges = np.float32(
        [
            1e-4,
            9.999999e-5,
            1e-5,
            1e-6,
            1e-7,
            1e13,
            9.999999e12,
            1e15,
            1e16,
            3.4028235e38,
            1.1754944e-38,
            1e-45,
            0.1,
            1.0,
        ]
    )
    bits = np.concatenate(
        [
            rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32),
            np.arange(1, 3000, dtype=np.uint32),  # subnormals
            np.arange(0x7F7FF000, 0x7F800000, dtype=np.uint32),  # the largest values
            edges.view(np.uint32),
            (-edges).view(np.uint32),
        ]
    )
    bits = _finite_nonzero(bits)
    assert TF._format_float32(bits) == _general_float32(bits)


@pytest.mark.slow
def test_float32_texts_from_orjson_are_ours_every_exponent() -> None:
    """Around every power of ten and every binary exponent: where layouts change."""
    exps = np.arange(0, 255, dtype=np.uint32) << 23
    offsets = np.concatenate(
        [np.arange(0, 2000, dtype=np.uint32), np.arange(0x7FFFFF - 2000, 0x800000, dtype=np.uint32)]
    )
    bits = (exps[:, None] + offsets[None, :]).reshape(-1)
    tens = np.float32([10.0**k for k in range(-45, 39)]).view(np.uint32)
    near_tens = (tens[:, None].astype(np.int64) + np.arange(-500, 500)[None, :]).reshape(-1).astype(np.uint32)
    bits = _finite_nonzero(np.concatenate([bits, near_tens, bits | 0x80000000]))
    assert TF._format_float32(bits) == _general_float32(bits)


@pytest.mark.parametrize("values", [[1.5, -0.0, 3e-41, 1e38], [float("nan"), 1.0], []])
def test_packed_fill_is_extend(values: list[float]) -> None:
    f32 = np.array(values, dtype=np.float32)
    packed = TensorProto()
    TE._store(packed, BY_NAME["float"], f32.view(np.uint32), raw=False)
    extended = TensorProto()
    extended.float_data.extend(f32.astype(np.float64).tolist())
    assert packed.SerializeToString() == extended.SerializeToString()
    packed = TensorProto()
    TE._store(packed, BY_NAME["double"], f32.astype(np.float64), raw=False)
    extended = TensorProto()
    extended.double_data.extend(f32.astype(np.float64).tolist())
    assert packed.SerializeToString() == extended.SerializeToString()


@pytest.mark.parametrize(
    "values, texts",
    [
        ([0.0, -0.0, 1.5, 1e-5, 1e16], ["0.0", "-0.0", "1.5", "1e-05", "1e+16"]),  # all through orjson
        ([0.0, -0.0, float("inf"), float("-nan"), 2e-7], ["0.0", "-0.0", "inf", "-nan", "2e-07"]),  # the mixed path
    ],
)
def test_float32_zeros_and_specials(values: list[float], texts: list[str]) -> None:
    assert TF._format_float32(np.array(values, dtype=np.float32).view(np.uint32)) == texts


def test_float32_text_is_the_joined_literals() -> None:
    """number_text (one string from orjson's bytes) ≡ ", ".join of the literals, tiny and huge values included."""
    rng = np.random.default_rng(7)
    values = np.concatenate(
        [
            rng.standard_normal(20_000).astype(np.float32),
            np.float32([1e-5, -2e-7, 9.99e-5, 1e13, 1e16, -3e38, 1e-40, 0.0, -0.0, 1.5]),
            rng.integers(0, 2**32, 20_000, dtype=np.uint64).astype(np.uint32).view(np.float32),
        ]
    )
    values = values[np.isfinite(values)]
    # a few values to lay out again (patched into orjson's text), many (joined literals), none
    for chunk in (values[:20_010], values, values[:1], np.float32([1e-7]), np.float32([0.5, 1e20])):
        t = TensorProto(data_type=1, dims=[chunk.size])
        t.float_data.extend(chunk.astype(np.float64).tolist())
        text, raw = TDec.number_text(t, BY_NAME["float"])  # type: ignore[misc]
        literals = TDec.decode_literals(t, BY_NAME["float"])
        assert text == ", ".join(literals.values) and raw == literals.raw  # type: ignore[arg-type]


@pytest.mark.parametrize("values", [[1.0, float("nan")], [float("inf")], []])
def test_number_text_leaves_specials_to_the_literals(values: list[float]) -> None:
    t = TensorProto(data_type=1, dims=[len(values)])
    t.float_data.extend(values)
    assert TDec.number_text(t, BY_NAME["float"]) is None
    t = TensorProto(data_type=11, dims=[1], double_data=[1.0])
    assert TDec.number_text(t, BY_NAME["double"]) is None


@pytest.mark.parametrize("seed", range(6))
def test_float32_texts_are_each_tensors_number_text(seed: int) -> None:
    """Many small tensors formatted together give each one's own text (tiny, huge, -0, integral values)."""
    rng = np.random.default_rng(seed)
    pool = np.array([0.0, -0.0, 1.0, -2.5, 1e-30, 3e-5, 1.5e-4, 7e12, 3.4e38, 0.1, 123456.78], dtype=np.float32)
    tensors = []
    for _ in range(40):
        n = int(rng.integers(1, 9))
        values = rng.standard_normal(n).astype(np.float32) * np.float32(10.0 ** rng.integers(-6, 14))
        mixed = np.where(rng.random(n) < 0.4, rng.choice(pool, n), values).astype(np.float32)
        t = TensorProto(data_type=TensorProto.FLOAT, dims=[n])
        t.float_data.extend(mixed.tolist())
        tensors.append(t)
    values = np.concatenate([np.array(t.float_data, dtype=np.float32) for t in tensors])
    texts = TDec.float32_texts(values, [len(t.float_data) for t in tensors])
    assert texts is not None
    for t, text in zip(tensors, texts, strict=True):
        fast = TDec.number_text(t, BY_NAME["float"])
        assert fast is not None and text == fast[0]
    assert TDec.float32_texts(np.array([1.0, np.nan], dtype=np.float32), [1, 1]) is None
