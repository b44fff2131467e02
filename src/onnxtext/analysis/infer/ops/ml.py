"""ai.onnx.ml operators whose outputs the schemas leave open: a classifier's label is int64 or
string as its class labels are, its scores float; ZipMap's output is a sequence of maps keyed
by those labels; a regressor's prediction is float."""

from __future__ import annotations

from onnxtext.analysis.infer.node import NodeContext
from onnxtext.analysis.infer.registry import shape_fn
from onnxtext.analysis.infer.types import Dim, ValueType

_FLOAT, _INT64, _STRING = 1, 7, 8
ML = "ai.onnx.ml"


def _rows(ctx: NodeContext) -> list[Dim] | None:
    """``[N]`` for an input of shape ``[N, C]`` (the batch a classifier or regressor keeps)."""
    s = ctx.shape(0)
    return [s[0]] if s is not None and len(s) == 2 else None


def _label_elem(ctx: NodeContext, ints: str, strings: str) -> int | None:
    if ints in ctx.attrs:
        return _INT64
    if strings in ctx.attrs:
        return _STRING
    return None


@shape_fn(ML, ["LinearClassifier", "SVMClassifier", "TreeEnsembleClassifier"])
def classifier(ctx: NodeContext) -> None:
    ints = "classlabels_int64s" if ctx.op == "TreeEnsembleClassifier" else "classlabels_ints"
    rows = _rows(ctx)
    ctx.set_shape(0, rows, _label_elem(ctx, ints, "classlabels_strings"))
    ctx.set_shape(1, None if rows is None else [*rows, None], _FLOAT)


@shape_fn(ML, ["LinearRegressor", "SVMRegressor", "TreeEnsembleRegressor"])
def regressor(ctx: NodeContext) -> None:
    rows = _rows(ctx)
    ctx.set_shape(0, None if rows is None else [*rows, None], _FLOAT)


@shape_fn(ML, "ZipMap")
def zip_map(ctx: NodeContext) -> None:
    key = _label_elem(ctx, "classlabels_int64s", "classlabels_strings")
    if key is not None:
        ctx.set_output(0, ValueType.sequence(ValueType("map", key, inner=ValueType.tensor(_FLOAT))))
