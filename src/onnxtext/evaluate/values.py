"""Decoding of protobuf values (tensors, attributes, sequences, maps, optionals) to runtime values.

Runtime values: ``numpy.ndarray`` for tensors (strings as object arrays of ``str``),
``list`` for sequences, ``dict`` for maps, ``None`` for an empty optional.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxtext.evaluate.interop import to_external
from onnxtext.ir.tensor.arrays import to_numpy

__all__ = ["tensor_value", "attribute_value", "proto_value", "tensor_to_numpy"]


def tensor_to_numpy(t: Any) -> np.ndarray:
    """A TensorProto as the evaluator holds it (strings as ``str``, small floats as float32)."""
    arr = to_numpy(t)
    if arr.dtype == object:
        out = np.empty(arr.shape, dtype=object)
        out.reshape(-1)[:] = [
            v.decode("utf-8", errors="surrogateescape") if isinstance(v, bytes) else v for v in arr.reshape(-1)
        ]
        return out
    return arr


def tensor_value(t: Any) -> np.ndarray:
    """A TensorProto or SparseTensorProto as a (dense) numpy array."""
    if hasattr(t, "indices") and hasattr(t, "values"):  # SparseTensorProto
        values = tensor_to_numpy(t.values)
        indices = tensor_to_numpy(t.indices).astype(np.int64)
        shape = tuple(int(d) for d in t.dims)
        dense = np.zeros(shape, dtype=values.dtype)
        if indices.ndim == 1:
            dense.reshape(-1)[indices] = values
        else:
            dense[tuple(indices.T)] = values
        return dense
    return tensor_to_numpy(t)


def attribute_value(a: Any) -> Any:
    """The python value of an AttributeProto (graphs are handled by the evaluator)."""
    t = a.type
    if t == 0:
        t = _infer_type(a)
    if t == 1:
        return float(np.float32(a.f))
    if t == 2:
        return int(a.i)
    if t == 3:
        return a.s.decode("utf-8", errors="surrogateescape")
    if t == 4:
        return tensor_value(a.t)
    if t == 11:
        return tensor_value(a.sparse_tensor)
    if t == 13:
        return a.tp
    if t == 6:
        return [float(x) for x in np.asarray(a.floats, dtype=np.float32)]
    if t == 7:
        return [int(x) for x in a.ints]
    if t == 8:
        return [s.decode("utf-8", errors="surrogateescape") for s in a.strings]
    if t == 9:
        return [tensor_value(x) for x in a.tensors]
    if t == 12:
        return [tensor_value(x) for x in a.sparse_tensors]
    if t == 14:
        return list(a.type_protos)
    raise ValueError(f"attribute {a.name!r} has unsupported type {t}")


def _infer_type(a: Any) -> int:
    for field, code in (("f", 1), ("i", 2), ("s", 3), ("t", 4), ("g", 5), ("sparse_tensor", 11), ("tp", 13)):
        if a.HasField(field):
            return code
    for field, code in (
        ("floats", 6),
        ("ints", 7),
        ("strings", 8),
        ("tensors", 9),
        ("graphs", 10),
        ("sparse_tensors", 12),
        ("type_protos", 14),
    ):
        if len(getattr(a, field)):
            return code
    raise ValueError(f"attribute {a.name!r} has no value")


def _public_tensor(t: Any) -> Any:
    """A TensorProto or SparseTensorProto as the evaluator's callers see it."""
    elem = t.values.data_type if hasattr(t, "indices") and hasattr(t, "values") else t.data_type
    return to_external(tensor_value(t), None, int(elem))


def proto_value(msg: Any) -> Any:
    """A TensorProto, SequenceProto, MapProto or OptionalProto as a value to feed or compare:
    bfloat16, float8, float4, int4/int2 tensors in the arrays ``onnx.numpy_helper`` reads them
    into (see :mod:`onnxtext.evaluate.interop`)."""
    kind = type(msg).__name__
    if kind == "TensorProto":
        return _public_tensor(msg)
    if kind == "SparseTensorProto":
        return _public_tensor(msg)
    if kind == "SequenceProto":
        et = msg.elem_type
        if et == 1:
            return [_public_tensor(t) for t in msg.tensor_values]
        if et == 2:
            return [_public_tensor(t) for t in msg.sparse_tensor_values]
        if et == 3:
            return [proto_value(s) for s in msg.sequence_values]
        if et == 4:
            return [proto_value(m) for m in msg.map_values]
        if et == 5:
            return [proto_value(o) for o in msg.optional_values]
        return []
    if kind == "MapProto":
        keys = list(msg.keys) if msg.key_type != 8 else [k.decode() for k in msg.string_keys]
        vals = proto_value(msg.values)
        return dict(zip(keys, vals, strict=False))
    if kind == "OptionalProto":
        et = msg.elem_type
        if et == 0:
            return None
        if et == 1:
            return _public_tensor(msg.tensor_value)
        if et == 2:
            return _public_tensor(msg.sparse_tensor_value)
        if et == 3:
            return proto_value(msg.sequence_value)
        if et == 4:
            return proto_value(msg.map_value)
        if et == 5:
            return proto_value(msg.optional_value)
        return None
    raise TypeError(f"cannot decode a {kind}")
