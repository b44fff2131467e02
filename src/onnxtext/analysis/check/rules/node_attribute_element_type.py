"""E312: an attribute that names an element type (Cast's 'to', the 'dtype' of the random
operators) holds the number of a known TensorProto data type."""

from __future__ import annotations

from onnxtext.analysis.check.context import CheckContext, NodeInfo, Resolution
from onnxtext.analysis.check.rule import Rule
from onnxtext.ir.dtypes import dtype_by_code
from onnxtext.proto import AttributeProto

# operator of the default domain → (its attribute naming an element type, whether 0 means "the
# default" there); onnx.checker and its inference refuse another value ("Invalid tensor data
# type 0", "Attribute to does not specify a valid type")
_NAMED: dict[str, tuple[str, bool]] = {
    "Cast": ("to", False),
    "BitCast": ("to", False),
    "RandomUniform": ("dtype", False),
    "RandomNormal": ("dtype", False),
    "RandomUniformLike": ("dtype", False),
    "RandomNormalLike": ("dtype", False),
    "EyeLike": ("dtype", False),
    "Bernoulli": ("dtype", False),
    "SequenceEmpty": ("dtype", False),
    "QuantizeLinear": ("output_dtype", True),
    "DequantizeLinear": ("output_dtype", True),
}


class AttributeElementType(Rule):
    code = "E312"
    name = "attribute-element-type"
    description = "An attribute naming an element type (Cast's 'to', a random operator's 'dtype') holds a known one."

    def applies_to(self, resolution: Resolution) -> bool:
        return resolution.schema is not None and not resolution.domain and resolution.schema.name in _NAMED

    def node(self, ctx: CheckContext, node: NodeInfo) -> None:
        entry = _NAMED.get(node.proto.op_type)
        if entry is None or node.resolution.schema is None or node.resolution.domain:
            return
        name, zero_default = entry
        for i, a in enumerate(node.proto.attribute):
            if a.name != name or a.ref_attr_name or a.type != AttributeProto.INT:
                continue
            if dtype_by_code(a.i) is not None or (zero_default and a.i == 0):
                continue
            ctx.report(
                self.code,
                f"attribute '{name}' of {node.proto.op_type} is {a.i}, which is no element type: "
                f"it holds a TensorProto data type, such as 1 (float) or 7 (int64)"
                + (", or 0 for the default" if zero_default else ""),
                node.path,
                token=("attribute", i),
            )
