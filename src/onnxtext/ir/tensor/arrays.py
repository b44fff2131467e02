"""A tensor's values as a numpy array (:func:`to_numpy`)."""

from __future__ import annotations

import numpy as np

from onnxtext.ir.dtypes import BY_CODE
from onnxtext.ir.tensor.decode import _storage
from onnxtext.ir.tensor.literals import NotRepresentable
from onnxtext.proto import TensorProto

__all__ = ["to_numpy"]


_NUMPY_INT = {
    2: np.uint8,
    3: np.int8,
    4: np.uint16,
    5: np.int16,
    6: np.int32,
    7: np.int64,
    12: np.uint32,
    13: np.uint64,
    21: np.uint8,
    22: np.int8,
    25: np.uint8,
    26: np.int8,
}


def to_numpy(tensor: TensorProto) -> np.ndarray:
    """The values of ``tensor`` (typed fields or raw_data) as a numpy array of its shape.

    Integer types give their numpy type (int4/int2 → int8, uint4/uint2 → uint8; typed
    values out of range wrap like onnx's ``to_array``), bool → bool, float16 → float16,
    bfloat16/float8/float6/float4 → float32 (exact), complex → complex64/128, string →
    object array of bytes. Raises :class:`NotRepresentable` (a ValueError) for unknown
    types, external data or a wrong amount of data.
    """
    dtype = BY_CODE.get(tensor.data_type)
    if dtype is None:
        raise NotRepresentable(f"unknown data type {tensor.data_type}")
    arr, _ = _storage(tensor, dtype, strict=False)
    shape = tuple(int(d) for d in tensor.dims)
    code = dtype.code
    if dtype.kind == "string":
        return arr.reshape(shape)
    if code in _NUMPY_INT:
        return arr.astype(_NUMPY_INT[code]).reshape(shape)
    if dtype.kind == "bool":
        return (arr != 0).reshape(shape)
    if code == 1:
        return arr.astype(np.uint32).view(np.float32).reshape(shape)
    if code == 11:
        return arr.astype(np.float64).reshape(shape)
    if code == 14:
        return arr.astype(np.uint32).view(np.float32).view(np.complex64).reshape(shape)
    if code == 15:
        return arr.astype(np.float64).view(np.complex128).reshape(shape)
    if code == 10:
        return arr.astype(np.uint16).view(np.float16).reshape(shape)
    from onnxtext.ir.dtypes import bits_to_float

    return bits_to_float(dtype, arr).astype(np.float32).reshape(shape)
