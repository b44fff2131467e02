"""Operators whose output element type an attribute or another input decides (the schema's
type constraints leave it open): BitCast's 'to', Bernoulli's 'dtype', the windows'
'output_datatype', the Random*Like 'dtype', DequantizeLinear's scale, QuantizeLinear's
zero point, LabelEncoder's values."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext, ShapeMismatch
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.ir.dtypes import BY_CODE

_UINT8, _FLOAT, _INT64, _STRING = 2, 1, 7, 8


def attr_elem(ctx: NodeContext, name: str) -> int | None:
    """An element type given by an int attribute, if it names a known type."""
    a = ctx.attrs.get(name)
    return int(a.i) if a is not None and int(a.i) in BY_CODE else None


@shape_fn("", "BitCast")
def bitcast(ctx: NodeContext) -> None:
    to = attr_elem(ctx, "to")
    source, target = BY_CODE.get(ctx.elem(0)), BY_CODE.get(to or 0)
    same_width = source is not None and target is not None and source.bits == target.bits
    if source is not None and target is not None and not same_width:  # onnx: 'requires ... the same bit-width'
        raise ShapeMismatch(
            f"BitCast reads input 0 ({source.name}, {source.bits} bits) as {target.name} ({target.bits} bits): "
            f"it needs types of the same width",
            0,
        )
    ctx.set_shape(0, ctx.shape(0) if same_width else None, to)


@shape_fn("", "Bernoulli")
def bernoulli(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0), attr_elem(ctx, "dtype") or ctx.elem(0) or None)


@shape_fn("", ["BlackmanWindow", "HammingWindow", "HannWindow"])
def window(ctx: NodeContext) -> None:
    size = ctx.const_ints(0)
    ctx.set_shape(
        0, [size[0]] if size is not None and len(size) == 1 else [None], attr_elem(ctx, "output_datatype") or _FLOAT
    )


@shape_fn("", "MelWeightMatrix")
def mel_weight_matrix(ctx: NodeContext) -> None:
    ctx.set_shape(0, [None, None], attr_elem(ctx, "output_datatype") or _FLOAT)


@shape_fn("", "DequantizeLinear")
def dequantize(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0), attr_elem(ctx, "output_dtype") or ctx.elem(1) or None)


@shape_fn("", "QuantizeLinear")
def quantize(ctx: NodeContext) -> None:
    elem = ctx.elem(2) if ctx.has(2) else (attr_elem(ctx, "output_dtype") or _UINT8)
    ctx.set_shape(0, ctx.shape(0), elem or None)


@shape_fn("ai.onnx.ml", "LabelEncoder")
def label_encoder(ctx: NodeContext) -> None:
    elem: int | None = None
    for name, code in (("values_strings", _STRING), ("values_int64s", _INT64), ("values_floats", _FLOAT)):
        if name in ctx.attrs:
            elem = code
    tensor = ctx.attr_tensor("values_tensor") if "values_tensor" in ctx.attrs else None
    if tensor is not None and tensor.data_type in BY_CODE:
        elem = int(tensor.data_type)
    ctx.set_shape(0, ctx.shape(0), elem)


@shape_fn("ai.onnx.preview.training", ["Adagrad", "Momentum", "Adam"])
def optimizer(ctx: NodeContext) -> None:
    """Inputs R, T, then n of each of X, G and the optimizer's states; outputs the n new X and
    the new states, each of the type of the value it replaces (the gradients G have no output)."""
    n = len(ctx.inputs) - 2 - len(ctx.outputs)
    if n <= 0 or len(ctx.outputs) % n:
        return
    for j in range(len(ctx.outputs)):
        group, k = divmod(j, n)
        source = 2 + (group if group == 0 else group + 1) * n + k
        ctx.set_output(j, ctx.input(source))


@shape_fn("", ["RandomUniformLike", "RandomNormalLike"])
def random_like(ctx: NodeContext) -> None:
    ctx.set_shape(0, ctx.shape(0), attr_elem(ctx, "dtype") or ctx.elem(0) or None)
