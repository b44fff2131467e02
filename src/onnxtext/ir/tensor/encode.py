"""Encoding (text → proto), exactly as ``onnx.parser`` stores literals.

:func:`encode_values` takes the literals of a ``{...}`` body as ``(kind, text)`` pairs;
:func:`encode_number_text` takes the raw text of a body made only of numbers and does the
same with numpy, without a Python loop per element. Both fill the tensor's typed field (or
``raw_data``) and return :class:`LiteralError` records instead of raising for bad user data.

Rules, where they differ from or go beyond ``onnx.parser``:

- values out of range for their type and a value count different from the shape's
  are stored as written where onnx.parser stores them (``300`` in an int8's
  ``int32_data``), with a warning, else errors (:mod:`onnxtext.ir.literal_checks`);
- for the 16/8/6/4-bit float types an integer literal is the raw bit pattern (as in
  onnx.parser) while a literal with ``.``, an exponent, ``nan`` or ``inf`` is a value,
  rounded to nearest even (onnx.parser rejects those);
- int4/uint4/float4e2m1 (two a byte) and int2/uint2 (four a byte) are packed into
  ``int32_data`` like ``onnx.helper.make_tensor`` (onnx.parser does not pack); float6
  is one element per ``int32_data`` entry and packed 4-in-3-bytes in ``raw_data``;
- a decimal for float is rounded correctly (like ``strtof``: no double rounding), one
  that overflows is an error (as in onnx.parser).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt
import orjson

from onnxtext.ir.dtypes import DType, float32_not_once, float32_once, float_format
from onnxtext.ir.literal_checks import AS_GIVEN_NOTE, store_as_given
from onnxtext.ir.tensor.float_text import _is_special, _parse_floats, _round_texts
from onnxtext.ir.tensor.literals import (
    _FLOAT_RE,
    _INT_RE,
    _SPECIAL_RE,
    STORAGE_FIELDS,
    Literal,
    LiteralError,
    NotRepresentable,
    _fmt_float,
    _int_range,
    _int_text,
    _is_complex,
    _real_dtype,
    _show,
    element_count,
    literal_kind,
)
from onnxtext.ir.tensor.packing import _pack
from onnxtext.ir.varint import encode_varint
from onnxtext.proto import TensorProto

__all__ = ["encode_values", "encode_number_text", "encode_number_texts"]


_HUGE = 1 << 20000


def _int_or_huge(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        if text.strip(" \t\r\n").lstrip("-").isdigit():
            return -_HUGE if text.strip().startswith("-") else _HUGE
        raise


def _int_display(v: int, text: str) -> str:
    return str(v) if -(10**40) < v < 10**40 else _show(text)


def _parse_ints(texts: Sequence[str]) -> tuple[np.ndarray, list[int] | None]:
    """Parse decimal int texts: an int64 array, or (None-array, python ints) when some do not fit."""
    try:
        ints = list(map(int, texts))
    except ValueError:  # beyond Python's digit limit for int(): surely out of range
        ints = [_int_or_huge(t) for t in texts]
    try:
        return np.array(ints, dtype=np.int64), None
    except OverflowError:
        return np.zeros(0, np.int64), ints


def _encode_numbers(
    dtype: DType, texts: Sequence[str], is_int: npt.NDArray[np.bool_] | None, errors: list[LiteralError]
) -> np.ndarray:
    """Values of valid number ``texts`` (decimal ints where ``is_int``, else floats or
    specials; ``is_int is None`` means all ints) for ``dtype``.

    Returns one array element per literal: int64 (uint64 for uint64) values for the
    integer and bool types, uint32 bits for float, float64 for double, int64 codes
    for the other float types; complex types give their real type's array.
    Problems are appended to ``errors``.
    """
    n = len(texts)
    dtype = _real_dtype(dtype)
    if dtype.kind in ("int", "uint", "bool"):
        if is_int is not None and not is_int.all():
            for i in np.flatnonzero(~is_int).tolist():
                if dtype.kind == "bool":
                    errors.append(LiteralError(i, f"bool needs true, false, 0 or 1, got '{_show(texts[i])}'"))
                else:
                    errors.append(LiteralError(i, f"{dtype.name} needs an integer, got '{_show(texts[i])}'"))
            texts = [t if ok else "0" for t, ok in zip(texts, is_int.tolist(), strict=True)]
        lo, hi = _int_range(dtype)
        arr, big = _parse_ints(texts)
        if big is not None:
            vals = big
            out = np.zeros(n, dtype=np.uint64 if dtype.code == 13 else np.int64)
            for i, v in enumerate(vals):
                if lo <= v <= hi:
                    out[i] = v
                else:
                    errors.append(_range_error(i, _int_display(v, texts[i]), dtype, lo, hi))
            return out
        bad = (arr < max(lo, -(1 << 63))) | (arr > min(hi, (1 << 63) - 1))
        for i in np.flatnonzero(bad).tolist():
            errors.append(_range_error(i, int(arr[i]), dtype, lo, hi))
        if dtype.code == 13:
            return arr.astype(np.uint64)
        return arr
    if dtype.code == 11:  # double
        d = _parse_floats(texts)
        for i in np.flatnonzero(np.isinf(d)).tolist():
            if not _is_special(texts[i]):
                errors.append(LiteralError(i, f"value {_show(texts[i])} is out of range for double"))
        return d
    fmt = float_format(dtype)
    if dtype.code == 1:
        d = _parse_floats(texts)
        bits, overflow, _, _ = _round_texts(dtype, texts, d)
        inf = np.flatnonzero(np.isinf(d))
        if inf.size:  # a decimal beyond float64's range is not "inf"
            overflow = overflow.copy()
            overflow[inf] = [not _is_special(texts[i]) for i in inf.tolist()]
        for i in np.flatnonzero(overflow).tolist():
            errors.append(
                LiteralError(
                    i, f"value {_show(texts[i])} is out of range for float (largest value {_fmt_float(fmt.max_value)})"
                )
            )
        return bits.astype(np.uint32)
    # 16/8/6/4-bit floats: ints are bit patterns, the rest values.
    codes = np.zeros(n, dtype=np.int64)
    int_idx = np.arange(n) if is_int is None else np.flatnonzero(is_int)
    if int_idx.size:
        sub = [texts[i] for i in int_idx.tolist()]
        arr, big = _parse_ints(sub)
        top = (1 << fmt.width) - 1
        if big is not None:
            for j, v in enumerate(big):
                if 0 <= v <= top:
                    codes[int_idx[j]] = v
                else:
                    errors.append(
                        LiteralError(
                            int(int_idx[j]),
                            f"bit pattern {_int_display(v, sub[j])} is out of range for {dtype.name} (0 to {top})",
                            "range",
                        )
                    )
        else:
            bad = (arr < 0) | (arr > top)
            for j in np.flatnonzero(bad).tolist():
                errors.append(
                    LiteralError(
                        int(int_idx[j]),
                        f"bit pattern {int(arr[j])} is out of range for {dtype.name} (0 to {top})",
                        "range",
                    )
                )
            codes[int_idx] = np.where(bad, 0, arr)
    if is_int is not None and not is_int.all():
        val_idx = np.flatnonzero(~is_int)
        sub = [texts[i] for i in val_idx.tolist()]
        d = _parse_floats(sub)
        bits, overflow, underflow, _ = _round_texts(dtype, sub, d)
        codes[val_idx] = bits
        isnan = np.isnan(d)
        isinf = np.isinf(d)
        for j in range(len(sub)):
            msg = None
            if isnan[j] and not fmt.has_nan:
                msg = f"{dtype.name} has no NaN"
            elif isinf[j] and _is_special(sub[j]) and not fmt.has_inf:
                msg = f"{dtype.name} has no infinity"
            elif (isinf[j] and not _is_special(sub[j])) or overflow[j]:
                msg = (
                    f"value {_show(sub[j])} is out of range for {dtype.name} "
                    f"(largest value {_fmt_float(fmt.max_value)})"
                )
            elif fmt.style == "e8m0" and not isnan[j]:
                if d[j] == 0:
                    msg = f"{dtype.name} has no zero"
                elif d[j] < 0:
                    msg = f"{dtype.name} has no negative values"
                elif underflow[j]:
                    msg = (
                        f"value {_show(sub[j])} is out of range for {dtype.name} (smallest value "
                        f"{_fmt_float(2.0**-127)})"
                    )
            if msg is not None:
                errors.append(LiteralError(int(val_idx[j]), msg))
    return codes


def _range_error(i: int, v: int | str, dtype: DType, lo: int, hi: int) -> LiteralError:
    return LiteralError(i, f"value {v} is out of range for {dtype.name} ({lo} to {hi})", "range")


# --------------------------------------------------------------------------- storing


def _clear(tensor: TensorProto) -> None:
    for f in STORAGE_FIELDS:
        tensor.ClearField(f)


def _codes_for_storage(dtype: DType, arr: np.ndarray) -> np.ndarray:
    """The per-element unsigned codes of sub-byte types (int4 -1 → 15)."""
    return arr.astype(np.int64) & ((1 << dtype.bits) - 1)


def _store(tensor: TensorProto, dtype: DType, arr: np.ndarray, raw: bool) -> None:
    _clear(tensor)
    code = dtype.code
    if code in (1, 14):
        _store_words(tensor, np.asarray(arr, dtype=np.uint32).astype("<u4").tobytes(), raw)
        return
    if raw:
        if dtype.is_packed:
            data = _pack(_codes_for_storage(dtype, arr), dtype.bits).tobytes()
        elif code in (11, 15):
            data = arr.astype("<f8").tobytes()
        elif dtype.kind == "float":  # float16, bfloat16, float8: codes
            data = arr.astype("<u2" if dtype.bits == 16 else "u1").tobytes()
        else:
            data = arr.astype(dtype.storage).tobytes()
        tensor.raw_data = data
        return
    if arr.size == 0:
        return
    field = dtype.field
    if code in (11, 15):
        _set_packed(tensor, "double_data", np.asarray(arr, dtype="<f8").tobytes())
    elif dtype.is_packed and dtype.bits in (2, 4):
        tensor.int32_data.extend(_pack(_codes_for_storage(dtype, arr), dtype.bits).astype(np.int64).tolist())
    else:
        getattr(tensor, field).extend(arr.tolist())


def _store_words(tensor: TensorProto, data: bytes, raw: bool) -> None:
    """Store float32 (or complex64) values given as the little-endian bytes of their bit
    patterns, in ``raw_data`` or in ``float_data`` (the storage fields are empty)."""
    if raw:
        tensor.raw_data = data
    elif data:
        # packed bytes: one step in C, and every bit pattern kept (a Python float would quiet a signaling NaN)
        _set_packed(tensor, "float_data", data)


def _set_packed(tensor: TensorProto, field: str, data: bytes) -> None:
    """Fill the empty repeated float/double ``field`` from its little-endian bytes in one
    step, as the packed wire form protobuf parses in C (a Python float per value costs 30x)."""
    tensor.MergeFromString(_PACKED_TAGS[field] + encode_varint(len(data)) + data)


_PACKED_TAGS = {
    name: encode_varint(TensorProto.DESCRIPTOR.fields_by_name[name].number << 3 | 2)
    for name in ("float_data", "double_data")
}


def _count_error(tensor: TensorProto, dtype: DType, got: int) -> LiteralError | None:
    n = element_count(tensor)
    if _is_complex(dtype):
        want = 2 * n
        if got != want:
            return LiteralError(
                min(got, want),
                f"expected {want} numbers (real, imaginary pairs of {n} {dtype.name} values) for shape "
                f"{list(tensor.dims)}, got {got}",
                "count",
            )
        return None
    if got != n:
        return LiteralError(min(got, n), f"expected {n} values for shape {list(tensor.dims)}, got {got}", "count")
    return None


# --------------------------------------------------------------------------- public encoding


def encode_values(tensor: TensorProto, dtype: DType, literals: Sequence[Literal], *, raw: bool) -> list[LiteralError]:
    """Store ``literals`` as the values of ``tensor`` (whose dims are already set).

    Each literal is ``(kind, text)`` with kind ``int``, ``float``, ``special``
    (nan/inf/infinity), ``string`` (unescaped bytes or str) or ``bool`` (true/false);
    any other kind (e.g. ``word``) is an error. The values go to ``dtype``'s typed field,
    or to ``raw_data`` (little-endian, sub-byte types packed) if ``raw``. The storage
    fields are cleared first, and left empty when there are errors. Never raises for
    bad data: returns the problems, in literal order, the count mismatch last.
    """
    errors: list[LiteralError] = []
    n = len(literals)
    try:
        count_error = _count_error(tensor, dtype, n)
    except NotRepresentable as e:
        _clear(tensor)
        return [LiteralError(0, str(e))]
    if dtype.kind == "string":
        strings: list[bytes] = []
        for i, (kind, text) in enumerate(literals):
            if kind == "string":
                strings.append(text if isinstance(text, bytes) else text.encode("utf-8"))
            else:
                errors.append(LiteralError(i, f"expected a string, got '{_show(text)}'"))
        if raw:
            errors.append(LiteralError(0, "string tensors cannot be stored in raw_data"))
        _clear(tensor)
        if not errors:
            tensor.string_data.extend(strings)
            if count_error is not None:  # onnx.parser keeps the strings as written
                errors.append(replace(count_error, message=f"{count_error.message}; {AS_GIVEN_NOTE}", warning=True))
            return errors
        if count_error is not None:
            errors.append(count_error)
        return errors
    texts: list[str] = []
    is_int = np.ones(n, dtype=bool)
    # float/double (and complex parts): a hex literal is the IEEE bit pattern (NaN payloads, exact bits).
    bit_width = {1: 32, 14: 32, 11: 64, 15: 64}.get(dtype.code)
    bit_patterns: dict[int, int] = {}
    for i, (kind, text) in enumerate(literals):
        t = "0"
        if kind == "string" or isinstance(text, bytes):
            errors.append(LiteralError(i, f"expected a number for {dtype.name}, got a string"))
        elif kind == "int" and bit_width and _INT_RE.fullmatch(text) and text[:2] in ("0x", "0X"):
            bits = int(text[2:], 16)
            if bits >= 1 << bit_width:
                errors.append(LiteralError(i, f"bit pattern {text} does not fit in {bit_width} bits"))
            else:
                bit_patterns[i] = bits
            is_int[i] = False
        elif kind == "int" and _INT_RE.fullmatch(text):
            t = _int_text(text)
        elif kind == "float" and _FLOAT_RE.fullmatch(text):
            t = text
            is_int[i] = False
        elif kind == "special" and _SPECIAL_RE.fullmatch(text):
            t = text
            is_int[i] = False
        elif kind == "bool" and text in ("true", "false"):
            if dtype.kind == "bool":
                t = "1" if text == "true" else "0"
            else:
                errors.append(LiteralError(i, f"expected a number for {dtype.name}, got '{text}'"))
        elif kind in ("int", "float", "special", "bool", "invalid"):
            errors.append(LiteralError(i, f"invalid number '{_show(text)}'"))
        else:
            errors.append(LiteralError(i, f"expected a value, got '{_show(text)}'"))
        texts.append(t)
    arr = _encode_numbers(dtype, texts, is_int, errors)
    if bit_patterns:
        idx = np.fromiter(bit_patterns.keys(), dtype=np.int64)
        if bit_width == 32:  # float arrays hold uint32 bits already
            arr[idx] = np.fromiter(bit_patterns.values(), dtype=np.uint64).astype(arr.dtype)
        else:
            arr.view(np.uint64)[idx] = np.fromiter(bit_patterns.values(), dtype=np.uint64)
    errors.sort(key=lambda e: e.index)
    if count_error is not None:
        errors.append(count_error)
    _clear(tensor)
    if not errors:
        _store(tensor, dtype, arr, raw)
        return errors
    return store_as_given(tensor, dtype, literals, errors, raw=raw, encode=encode_values)


def encode_number_texts(
    jobs: Sequence[tuple[TensorProto, DType, str]],
    *,
    raw: bool,
    fresh: bool = False,
    check: Callable[[str], bool] | None = None,
    sizes: Sequence[int] | None = None,
) -> list[list[LiteralError]]:
    """:func:`encode_number_text` of each ``(tensor, dtype, body)``, with the same results.

    The float32 bodies of plain decimal numbers are read together: one orjson call and one
    numpy pass over all their values (for the many small tensors of a text, numpy's cost
    per call dwarfs the work). Each tensor the batch cannot take as :func:`_json_numbers`
    would (a count mismatch, a zero that may be "-0", a value to round the exact way),
    and each of another type, is encoded on its own. ``fresh``: the tensors hold no values
    yet (the caller just made them), so there is nothing to clear before storing. ``check``:
    a body encoded on its own is first given to it, and refused (one error) if it says no
    (the batch reads only numbers: the caller's scan may have left that to it). ``sizes``: each
    tensor's element count, when the caller knows it (its dims are sizes, none negative).
    """
    results: list[list[LiteralError] | None] = [None] * len(jobs)
    batch = [k for k, (_, dtype, _) in enumerate(jobs) if dtype.code == 1]
    if len(batch) > 1 and _batchable(",".join([jobs[k][2] for k in batch])):  # no body holds a non-number
        batch = [k for k in batch if not _BLANK.match(jobs[k][2])]
    else:
        batch = [k for k in batch if _batchable(jobs[k][2])]
    if batch:
        _encode_float32_batch(jobs, batch, results, raw, fresh, sizes)
    return [
        found
        if found is not None
        else encode_number_text(*jobs[k], raw=raw)
        if check is None or check(jobs[k][2])
        else [LiteralError(0, "not a list of numbers")]
        for k, found in enumerate(results)
    ]


def _batchable(body: str) -> bool:
    """A body :func:`_json_numbers` may read, which stays in its place in a JSON array of bodies."""
    return not _BLANK.match(body) and not any(c in body for c in _NOT_NUMBERS) and "]" not in body


# Characters of number text read at a time: the Python floats orjson makes for them stay in the
# processor's cache until numpy has them (a 1M-number body in about half the time of one read).
_CHUNK = 1 << 17


def _encode_float32_batch(
    jobs: Sequence[tuple[TensorProto, DType, str]],
    batch: list[int],
    results: list[list[LiteralError] | None],
    raw: bool,
    fresh: bool,
    sizes: Sequence[int] | None,
) -> None:
    """Store each float32 tensor of ``batch`` (indices of ``jobs``) that :func:`_json_numbers`
    would take, as it would; its result becomes ``[]`` (the others stay None). Small bodies are
    read in groups of about :data:`_CHUNK` characters, a long one in pieces of that size."""
    group: list[int] = []
    size = 0
    for k in batch:
        n = len(jobs[k][2])
        if n > _CHUNK:
            _store_float32(jobs, _read_long(jobs, k), results, raw, fresh)
            continue
        group.append(k)
        size += n
        if size >= _CHUNK:
            _store_float32(jobs, _read_group(jobs, group, sizes), results, raw, fresh)
            group, size = [], 0
    if group:
        _store_float32(jobs, _read_group(jobs, group, sizes), results, raw, fresh)


_Read = tuple[list[int], list[int], np.ndarray] | None
"""The tensors read (indices of the jobs), their value counts and all their values, or None."""


def _read_group(jobs: Sequence[tuple[TensorProto, DType, str]], group: list[int], sizes: Sequence[int] | None) -> _Read:
    """The values of the bodies of ``group`` that are JSON number lists of the right count (one orjson call)."""
    try:
        lists = orjson.loads("[[" + "],[".join([jobs[k][2] for k in group]) + "]]")
    except orjson.JSONDecodeError:  # some body is not JSON: each goes its own way
        return None
    taken: list[int] = []
    taken_values: list[list[float]] = []
    for k, values in zip(group, lists, strict=True):
        try:
            if not values or (
                len(values) != sizes[k] if sizes is not None else _count_error(jobs[k][0], jobs[k][1], len(values))
            ):
                continue
        except NotRepresentable:
            continue
        taken.append(k)
        taken_values.append(values)
    del lists
    counts = [len(values) for values in taken_values]
    try:  # no list of all the values in between
        d = np.fromiter(itertools.chain.from_iterable(taken_values), dtype=np.float64, count=sum(counts))
    except OverflowError:  # an integer beyond float64: encode_number_text says what it says
        return None
    return taken, counts, d


def _read_long(jobs: Sequence[tuple[TensorProto, DType, str]], k: int) -> _Read:
    """The values of one long body, read in pieces, if it is a JSON number list of the right count."""
    d = _counted_floats(*jobs[k])
    return None if d is None else ([k], [d.size], d)


def _store_float32(
    jobs: Sequence[tuple[TensorProto, DType, str]],
    read: _Read,
    results: list[list[LiteralError] | None],
    raw: bool,
    fresh: bool,
) -> None:
    """Store the tensors read, but those whose values a float64 cannot round to float32 as the
    text would (a midpoint, a subnormal, beyond the range) or which may hold a "-0"."""
    if read is None:
        return
    taken, counts, d = read
    if not d.size:
        return
    starts = np.zeros(len(counts), dtype=np.intp)
    np.cumsum(counts[:-1], out=starts[1:])
    unsure = np.logical_or.reduceat(float32_not_once(d), starts).tolist()
    zero = np.logical_or.reduceat(d == 0, starts).tolist()
    with np.errstate(over="ignore"):  # the values beyond float32 are those of tensors left to encode on their own
        data = d.astype("<f4").tobytes()
    packed = _PACKED_TAGS["float_data"]
    for i, (k, start, count) in enumerate(zip(taken, (4 * starts).tolist(), counts, strict=True)):
        tensor, _, body = jobs[k]
        if unsure[i] or (zero[i] and _may_hold_negative_zero(body)):
            continue
        words = data[start : start + 4 * count]  # what _store does with the bits
        if not fresh:
            _clear(tensor)
        if raw:
            tensor.raw_data = words
        else:  # _set_packed's bytes
            tensor.MergeFromString(
                packed + (_VARINTS[len(words)] if len(words) < 128 else encode_varint(len(words))) + words
            )
        results[k] = []


_VARINTS = [bytes((n,)) for n in range(128)]


def _split_literal(item: str) -> Literal:
    t = item.strip(" \t\r\n")
    return (literal_kind(t), t)


_BLANK = re.compile(r"[ \t\r\n]*\Z")  # matched from the start: stops at the first other character


def encode_number_text(tensor: TensorProto, dtype: DType, body: str, *, raw: bool) -> list[LiteralError]:
    """:func:`encode_values` for a body of comma-separated numbers: the text between
    ``{`` and ``}`` (e.g. ``"1.5, -2, nan, 3e-5"``), vectorised.

    Gives exactly what :func:`encode_values` gives for the same literals; error indices
    are item positions. A body that is not only numbers gets an error per bad item.
    """
    if _BLANK.match(body):
        return encode_values(tensor, dtype, [], raw=raw)
    fast = _json_numbers(tensor, dtype, body)
    if fast is not None:
        _store(tensor, dtype, fast, raw)  # which clears the storage fields first
        return []
    items = body.split(",")
    scan = _scan_body(body) if dtype.kind != "string" else None
    if scan is None:
        return encode_values(tensor, dtype, [_split_literal(s) for s in items], raw=raw)
    n = len(items)
    try:
        count_error = _count_error(tensor, dtype, n)
    except NotRepresentable as e:
        _clear(tensor)
        return [LiteralError(0, str(e))]
    texts = items  # int() and float() skip the " \t\r\n" around (no other space is there)
    is_int: npt.NDArray[np.bool_] | None
    if dtype.kind in ("int", "uint", "bool"):
        is_int = None  # all must be integers: int() rejects anything else
    elif dtype.is_bits_float:
        is_int = scan.int_items()
    else:
        is_int = np.zeros(n, dtype=bool)  # ints and floats give the same value here
    errors: list[LiteralError] = []
    try:
        # int()/float() reject every item _fast_ok let through that is not a number
        # literal (and an integer one where is_int says so).
        arr = _encode_numbers(dtype, texts, is_int, errors)
    except ValueError:
        return encode_values(tensor, dtype, [_split_literal(s) for s in items], raw=raw)
    errors.sort(key=lambda e: e.index)
    if count_error is not None:
        errors.append(count_error)
    _clear(tensor)
    if not errors:
        _store(tensor, dtype, arr, raw)
        return errors
    return store_as_given(tensor, dtype, [_split_literal(s) for s in items], errors, raw=raw, encode=encode_values)


# What JSON reads besides numbers (objects, arrays, strings, true, false, null) starts
# with one of these; a body without them is numbers only, if orjson accepts it.
_NOT_NUMBERS = ("{", "[", '"', "t", "f", "n")
# JSON reads the integer "-0" as 0; float and double keep its sign.
_NEGATIVE_ZERO = ("-0,", "-0 ", "-0\t", "-0\r", "-0\n")


def _json_numbers(tensor: TensorProto, dtype: DType, body: str) -> np.ndarray | None:
    """The values of a body of plain decimal numbers, read by orjson (C) into the array
    :func:`_encode_numbers` gives; None for anything else or anything it would report.

    JSON's numbers are a subset of the text's (no hex, nan, inf, ``+1``, ``1.``, leading
    zeros), read correctly rounded to float64. Only float, double and the integer types
    take this path, and only when every value is valid and the count matches the shape:
    the exact path handles (and reports) the rest. Float32 values that land halfway
    between two float32 values as float64s (where rounding twice could differ from
    rounding the decimal once) or beyond float32's range also go the exact way.
    """
    code = dtype.code
    if code not in (1, 11) and dtype.kind not in ("int", "uint"):
        return None
    if any(c in body for c in _NOT_NUMBERS):
        return None
    if code in (1, 11):
        return _json_reals(tensor, dtype, body)
    try:
        values = orjson.loads("[" + body + "]")
        if _count_error(tensor, dtype, len(values)) is not None:
            return None
    except (orjson.JSONDecodeError, NotRepresentable):
        return None
    if dtype.kind in ("int", "uint"):
        try:
            ints = np.array(values)
        except OverflowError:  # beyond both int64 and uint64 together
            return None
        if ints.dtype != np.int64:  # a float among them, or beyond int64 (a uint64 above 2**63)
            return None
        lo, hi = _int_range(dtype)
        if ints.size and (int(ints.min()) < lo or int(ints.max()) > hi):
            return None
        return ints.astype(np.uint64) if code == 13 else ints
    return None


def _json_reals(tensor: TensorProto, dtype: DType, body: str) -> np.ndarray | None:
    """:func:`_json_numbers` of a float or double body (read in pieces: :func:`_json_floats`)."""
    d = _counted_floats(tensor, dtype, body)
    if d is None:
        return None
    if not d.all() and _may_hold_negative_zero(body):
        return None
    if dtype.code == 11:
        return d
    return float32_once(d)  # None for a midpoint, a subnormal or beyond float32's range


def _counted_floats(tensor: TensorProto, dtype: DType, body: str) -> np.ndarray | None:
    """:func:`_json_floats` of a body with as many values as the tensor's shape says, else None."""
    d = _json_floats(body)
    try:
        return None if d is None or _count_error(tensor, dtype, d.size) is not None else d
    except NotRepresentable:
        return None


def _json_floats(body: str) -> np.ndarray | None:
    """The values of a body that is a JSON number list (no other JSON value in it: the caller
    checked), as float64, read in pieces of about :data:`_CHUNK` characters cut at commas; None
    if it is not one, or holds an integer beyond float64."""
    pieces: list[np.ndarray] = []
    pos, n = 0, len(body)
    while True:
        end = body.find(",", pos + _CHUNK) if n - pos > _CHUNK else -1
        if end < 0:
            end = n
        try:
            values = orjson.loads("[" + body[pos:end] + "]")
            if not values:  # an empty item (",," or a comma at an end): not JSON as a whole
                return None
            pieces.append(np.fromiter(values, dtype=np.float64, count=len(values)))
        except (orjson.JSONDecodeError, OverflowError):
            return None
        if end == n:
            return np.concatenate(pieces) if len(pieces) > 1 else pieces[0]
        pos = end + 1


def _may_hold_negative_zero(body: str) -> bool:
    """Whether a body with a zero among its values may write one "-0" (JSON reads the integer
    as 0; searched only for a zero, since "-0" starts many numbers)."""
    return any(z in body for z in _NEGATIVE_ZERO) or body.rstrip(" \t\r\n").endswith("-0")


def _byte_table(chars: str) -> npt.NDArray[np.bool_]:
    table = np.zeros(256, dtype=bool)
    table[np.frombuffer(chars.encode("ascii"), np.uint8)] = True
    return table


_ALLOWED = _byte_table("0123456789eE.,+- \t\r\nnNaAiIfFtTyY")
_DIGIT = _byte_table("0123456789")
_EXP = _byte_table("eE")
_NOT_INT = _byte_table(".eEnNaAiIfFtTyY")


class _Scan:
    """A body that passed :func:`_scan_body`, as bytes."""

    __slots__ = ("data",)

    def __init__(self, data: npt.NDArray[np.uint8]) -> None:
        self.data = data

    def int_items(self) -> npt.NDArray[np.bool_] | None:
        """Which items are integer literals (None: all of them)."""
        flags = _NOT_INT[self.data]
        if not flags.any():
            return None
        starts = np.concatenate([[0], np.flatnonzero(self.data == ord(",")) + 1])
        padded = np.concatenate([flags, [False]]).astype(np.int32)
        return np.add.reduceat(padded, starts) == 0  # type: ignore[no-any-return]


def _scan_body(body: str) -> _Scan | None:
    """Cheap vectorised checks of a body: only number characters, '+' only after an
    exponent 'e', '.' only after a digit. With those, ``float()``/``int()`` accepting
    an item means it is a valid number literal (int() also rejects non-integers).
    None if the checks fail (the slow path then finds the bad items)."""
    try:
        data = np.frombuffer(body.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    if not _ALLOWED[data].all():
        return None
    for ch, before in ((".", _DIGIT), ("+", _EXP)):
        pos = np.flatnonzero(data == ord(ch))
        if pos.size and (pos[0] == 0 or not before[data[pos - 1]].all()):
            return None
    return _Scan(data)
