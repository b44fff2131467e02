"""onnxtext's own protobuf classes (package ``onnxtext.ir``), wire-compatible with ONNX IR v14.

The schema lives in ``onnxtext_ir.proto``; ``onnxtext_ir_pb2`` is generated from it
by ``scripts/gen_proto.py``. Field names and numbers are identical to onnx's, so
bytes written by either side parse on the other; :mod:`onnxtext.proto.convert`
converts message objects through those bytes.
"""

from __future__ import annotations

from onnxtext.proto.convert import (
    OnnxNotInstalledError,
    as_own,
    from_onnx,
    is_onnx_message,
    is_own_message,
    serialize,
    to_onnx,
)
from onnxtext.proto.onnxtext_ir_pb2 import (
    IR_VERSION,
    AttributeProto,
    DeviceConfigurationProto,
    FunctionProto,
    GraphProto,
    IntIntListEntryProto,
    MapProto,
    ModelProto,
    NodeDeviceConfigurationProto,
    NodeProto,
    OperatorSetIdProto,
    OperatorStatus,
    OptionalProto,
    SequenceProto,
    ShardedDimProto,
    ShardingSpecProto,
    SimpleShardedDimProto,
    SparseTensorProto,
    StringStringEntryProto,
    TensorAnnotation,
    TensorProto,
    TensorShapeProto,
    TrainingInfoProto,
    TypeProto,
    ValueInfoProto,
    Version,
)

__all__ = [
    # enums
    "Version",
    "OperatorStatus",
    "IR_VERSION",
    # messages (onnx-ml.proto)
    "AttributeProto",
    "ValueInfoProto",
    "NodeProto",
    "IntIntListEntryProto",
    "NodeDeviceConfigurationProto",
    "ShardingSpecProto",
    "ShardedDimProto",
    "SimpleShardedDimProto",
    "TrainingInfoProto",
    "ModelProto",
    "DeviceConfigurationProto",
    "StringStringEntryProto",
    "TensorAnnotation",
    "GraphProto",
    "TensorProto",
    "SparseTensorProto",
    "TensorShapeProto",
    "TypeProto",
    "OperatorSetIdProto",
    "FunctionProto",
    # messages (onnx-data.proto)
    "SequenceProto",
    "MapProto",
    "OptionalProto",
    # conversions
    "OnnxNotInstalledError",
    "as_own",
    "from_onnx",
    "is_onnx_message",
    "is_own_message",
    "serialize",
    "to_onnx",
]
