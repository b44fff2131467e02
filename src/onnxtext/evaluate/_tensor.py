"""TensorProto → numpy as the evaluator represents values (see ``_types``).

Used until/unless :mod:`onnxtext.tensor_data` provides the same; kept small on purpose.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _types as T

__all__ = ["tensor_to_numpy", "numpy_to_tensor_fields"]

_RAW_DTYPE = {
    T.FLOAT: np.float32, T.UINT8: np.uint8, T.INT8: np.int8, T.UINT16: np.uint16,
    T.INT16: np.int16, T.INT32: np.int32, T.INT64: np.int64, T.BOOL: np.bool_,
    T.FLOAT16: np.float16, T.DOUBLE: np.float64, T.UINT32: np.uint32, T.UINT64: np.uint64,
    T.COMPLEX64: np.complex64, T.COMPLEX128: np.complex128, T.BFLOAT16: np.uint16,
    T.FLOAT8E4M3FN: np.uint8, T.FLOAT8E4M3FNUZ: np.uint8, T.FLOAT8E5M2: np.uint8,
    T.FLOAT8E5M2FNUZ: np.uint8, T.FLOAT8E8M0: np.uint8,
}


def _unpack(packed: np.ndarray, bits: int, count: int, signed: bool) -> np.ndarray:
    packed = packed.astype(np.uint8)
    per = 8 // bits
    shifts = np.arange(per, dtype=np.uint8) * bits
    vals = (packed[:, None] >> shifts[None, :]) & ((1 << bits) - 1)
    vals = vals.reshape(-1)[:count].astype(np.int8)
    if signed:
        vals = np.where(vals >= (1 << (bits - 1)), vals - (1 << bits), vals).astype(np.int8)
        return vals
    return vals.astype(np.uint8)


def tensor_to_numpy(t: Any) -> np.ndarray:
    """Decode a TensorProto (ours or onnx's, duck-typed)."""
    if t.data_location == 1:  # EXTERNAL
        raise ValueError(f"tensor {t.name!r} stores its data externally; not supported")
    dt = int(t.data_type)
    shape = tuple(int(d) for d in t.dims)
    count = int(np.prod(shape, dtype=np.int64))
    raw = t.raw_data if t.HasField("raw_data") else None
    if dt == T.STRING:
        arr = np.empty(count, dtype=object)
        arr[:] = [s.decode("utf-8", errors="surrogateescape") for s in t.string_data]
        return arr.reshape(shape)
    if dt in T.SUB_BYTE_INTS or dt == T.FLOAT4E2M1:
        bits = 2 if dt in (T.UINT2, T.INT2) else 4
        packed = np.frombuffer(raw, dtype=np.uint8) if raw is not None else np.asarray(t.int32_data, dtype=np.int32).astype(np.uint8)
        if dt == T.FLOAT4E2M1:
            vals = _unpack(packed, 4, count, False)
            return T.decode_bits(vals, dt).reshape(shape)
        vals = _unpack(packed, bits, count, dt in (T.INT4, T.INT2))
        return vals.reshape(shape)
    if raw is not None:
        arr = np.frombuffer(raw, dtype=np.dtype(_RAW_DTYPE[dt]).newbyteorder("<")).astype(_RAW_DTYPE[dt])
    elif dt in (T.FLOAT, T.COMPLEX64):
        arr = np.asarray(t.float_data, dtype=np.float32)
        if dt == T.COMPLEX64:
            arr = arr[0::2] + 1j * arr[1::2]
            arr = arr.astype(np.complex64)
    elif dt in (T.DOUBLE, T.COMPLEX128):
        arr = np.asarray(t.double_data, dtype=np.float64)
        if dt == T.COMPLEX128:
            arr = (arr[0::2] + 1j * arr[1::2]).astype(np.complex128)
    elif dt == T.INT64:
        arr = np.asarray(t.int64_data, dtype=np.int64)
    elif dt in (T.UINT32, T.UINT64):
        arr = np.asarray(t.uint64_data, dtype=np.uint64).astype(_RAW_DTYPE[dt])
    elif dt == T.FLOAT16:
        arr = np.asarray(t.int32_data, dtype=np.int32).astype(np.uint16).view(np.float16)
    elif dt in _RAW_DTYPE:
        arr = np.asarray(t.int32_data, dtype=np.int32).astype(_RAW_DTYPE[dt])
    else:
        raise ValueError(f"unsupported tensor element type {dt}")
    if dt in T.EXOTIC_FLOATS:
        arr = T.decode_bits(arr, dt)
    if arr.size != count:
        if arr.size == 1 and count != 1:
            raise ValueError(f"tensor {t.name!r}: {arr.size} value(s) for shape {list(shape)}")
        raise ValueError(f"tensor {t.name!r}: {arr.size} value(s) for shape {list(shape)}")
    return arr.reshape(shape)


def numpy_to_tensor_fields(arr: np.ndarray) -> tuple[int, bytes]:
    raise NotImplementedError
