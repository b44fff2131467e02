"""The attribute types as the text names them (``alpha: float = 1.0``, ``pads: ints = [...]``):
one table, read by the lowering (text → ``AttributeProto.type``), its fast path and the lifter
(the other way)."""

from __future__ import annotations

from onnxtext.proto import AttributeProto

__all__ = ["ATTRIBUTE_TYPES", "ATTRIBUTE_TYPE_NAMES"]

ATTRIBUTE_TYPES: dict[str, int] = {
    "float": AttributeProto.FLOAT,
    "int": AttributeProto.INT,
    "string": AttributeProto.STRING,
    "tensor": AttributeProto.TENSOR,
    "graph": AttributeProto.GRAPH,
    "sparse_tensor": AttributeProto.SPARSE_TENSOR,
    "type_proto": AttributeProto.TYPE_PROTO,
    "floats": AttributeProto.FLOATS,
    "ints": AttributeProto.INTS,
    "strings": AttributeProto.STRINGS,
    "tensors": AttributeProto.TENSORS,
    "graphs": AttributeProto.GRAPHS,
    "sparse_tensors": AttributeProto.SPARSE_TENSORS,
    "type_protos": AttributeProto.TYPE_PROTOS,
}
"""Text name → ``AttributeProto.AttributeType``."""

ATTRIBUTE_TYPE_NAMES: dict[int, str] = {code: name for name, code in ATTRIBUTE_TYPES.items()}
"""``AttributeProto.AttributeType`` → text name (``UNDEFINED`` has none)."""
