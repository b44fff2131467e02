"""Elementwise operators: same shape as the input, or numpy broadcasting of all inputs."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.shapes import broadcast

UNARY = (
    "Abs Acos Acosh Asin Asinh Atan Atanh BitwiseNot Ceil Celu Clip Cos Cosh Elu Erf Exp Floor Gelu "
    "HardSigmoid HardSwish Hardmax IsInf IsNaN LeakyRelu Log LogSoftmax LpNormalization LRN "
    "MeanVarianceNormalization Mish Neg Not Reciprocal Relu Round Selu Shrink Sigmoid Sign Sin Sinh "
    "Softmax Softplus Softsign Sqrt Swish Tan Tanh ThresholdedRelu Trilu CumSum ReverseSequence "
    "InstanceNormalization GroupNormalization Binarizer Scaler Normalizer Imputer Scatter ScatterElements "
    "ScatterND"
).split()
BROADCAST = (
    "Add Sub Mul Div Pow Mod And Or Xor Equal Greater Less GreaterOrEqual LessOrEqual BitShift "
    "BitwiseAnd BitwiseOr BitwiseXor Max Min Mean Sum PRelu Where"
).split()


@shape_fn("", UNARY)
def same_shape(ctx: NodeContext) -> None:
    """Output 0 has the shape of input 0."""
    ctx.set_shape(0, ctx.shape(0))


@shape_fn("ai.onnx.ml", ["Binarizer", "Scaler", "Normalizer", "Imputer"])
def ml_same_shape(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0))


@shape_fn("", "Identity")
def identity(ctx: NodeContext) -> None:
    ctx.set_output(0, ctx.input(0))


_LEGACY = ("Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less", "PRelu")


@shape_fn("", _LEGACY)
def legacy_broadcasting(ctx: NodeContext) -> None:
    """Before opset 7 the second input broadcast to the first (``broadcast``/``axis`` attributes)."""
    ctx.set_shape(0, ctx.shape(0))


@shape_fn("", BROADCAST, 7)
def broadcasting(ctx: NodeContext) -> None:
    present = [i for i in range(len(ctx.inputs)) if ctx.has(i)]
    ctx.set_shape(0, broadcast([ctx.shape(i) for i in present], present))


@shape_fn("", "Dropout")
def dropout(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0))
    ctx.set_shape(1, ctx.shape(0))


@shape_fn("", "DynamicQuantizeLinear")
def dynamic_quantize(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0))
    ctx.set_shape(1, ())
    ctx.set_shape(2, ())
