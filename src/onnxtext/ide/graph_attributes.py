"""A node's attributes as the graph shows them: a compact line on the node, Netron's way.

``Conv`` says ``3×3 /2 pad 1`` (its kernel, read from the weight's shape when the text does not
say it; strides, pads, dilations and groups only when they are not the default), ``Transpose``
``perm [0,2,1,3]``, ``Gemm`` ``transB``, ``Cast`` ``to float16``; any other operator its few
attributes that differ from the schema's defaults (``axis 1``), in the order the text writes
them. The values are read from the tree, so a broken text still says what it can.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from onnxtext.ir.dtypes import BY_CODE
from onnxtext.ir.schemas import OpSchema
from onnxtext.syntax import ast as A

__all__ = ["WINDOWED", "Shown", "attribute_value", "attribute_values", "attribute_summary", "value_text"]

_MOST = 3
"""Attributes a generic summary shows."""
_LONG = 40
"""Characters of a summary (and of one value) before it is clipped."""
WINDOWED = frozenset(
    {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "DeformConv", "MaxPool", "AveragePool", "LpPool"}
)
"""Operators whose line is their window (a convolution's kernel read from its weight's shape)."""
_NOT_SHOWN = frozenset({"doc_string"})


@dataclass(frozen=True)
class Shown:
    """A value the summary writes as it is (a tensor's shape, a type, an ``@`` reference)."""

    text: str


Value = int | float | str | Shown | list["Value"]


def attribute_value(value: A.AttrValue | None, source: str) -> Value | None:
    """``value`` as Python data (``None`` for a graph or what the text leaves unsaid); ``source``
    is the document's text (a type is shown as written)."""
    if isinstance(value, A.Number):
        text = value.text
        try:
            return int(text, 0)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return Shown(text)
    if isinstance(value, A.Str):
        return value.text
    if isinstance(value, A.AttrList):
        items = [attribute_value(v, source) for v in value.items]
        return [v for v in items if v is not None]
    if isinstance(value, A.AttrRef):
        return Shown("@" + value.name.value)
    if isinstance(value, A.TensorValue):
        shape = value.type.shape if isinstance(value.type, A.TensorType) else None
        return Shown("⟨" + "×".join(_dim(d) for d in shape or []) + "⟩")
    if isinstance(value, A.TypeValue):
        return Shown(" ".join(source[value.span.start : value.span.end].split()))
    return None


def _dim(d: A.Dim) -> str:
    return str(d.value) if d.value is not None else (d.param or "?")


def attribute_values(node: A.Node, source: str) -> dict[str, Value]:
    """The node's attributes in text order (graphs left out)."""
    out: dict[str, Value] = {}
    for attr in node.attributes:
        if isinstance(attr, A.Attribute) and attr.name.value not in _NOT_SHOWN:
            found = attribute_value(attr.value, source)
            if found is not None:
                out[attr.name.value] = found
    return out


def value_text(value: Value, most: int = _LONG) -> str:
    """``[0,2,1,3]``, ``0.5``, ``SAME_UPPER``: compact, clipped to ``most`` characters."""
    if isinstance(value, bool):
        text = str(int(value))
    elif isinstance(value, float):
        text = f"{value:g}"
    elif isinstance(value, list):
        text = "[" + ",".join(value_text(v, most) for v in value) + "]"
    elif isinstance(value, Shown):
        text = value.text
    else:
        text = str(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def _ints(value: Value | None) -> list[int] | None:
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return [v for v in value if isinstance(v, int)]
    return None


def _axes(values: list[int]) -> str:
    """``3`` when every axis says the same, else ``3×5``."""
    return str(values[0]) if len(set(values)) == 1 else "×".join(str(v) for v in values)


def _windowed(attrs: dict[str, Value], weight_shape: Sequence[int | str | None] | None) -> list[str]:
    """``3×3 /2 pad 1 dil 2 g 32``: a convolution's or pooling's window."""
    parts: list[str] = []
    kernel = _ints(attrs.get("kernel_shape"))
    if kernel is None and weight_shape is not None and len(weight_shape) > 2:
        kernel = [d for d in weight_shape[2:] if isinstance(d, int)]
        kernel = kernel if len(kernel) == len(weight_shape) - 2 else None
    if kernel:
        parts.append("×".join(str(k) for k in kernel))
    strides = _ints(attrs.get("strides"))
    if strides and any(s != 1 for s in strides):
        parts.append("/" + _axes(strides))
    pads = _ints(attrs.get("pads"))
    if pads and any(pads):
        half = len(pads) // 2
        symmetric = pads[:half] == pads[half:]
        parts.append("pad " + (_axes(pads[:half]) if symmetric else "[" + ",".join(map(str, pads)) + "]"))
    dilations = _ints(attrs.get("dilations"))
    if dilations and any(d != 1 for d in dilations):
        parts.append("dil " + _axes(dilations))
    group = attrs.get("group")
    if isinstance(group, int) and group != 1:
        parts.append(f"g {group}")
    auto = attrs.get("auto_pad")
    if isinstance(auto, str) and auto not in ("NOTSET", ""):
        parts.append(auto.lower().replace("_", " "))
    if attrs.get("ceil_mode") == 1:
        parts.append("ceil")
    output_padding = _ints(attrs.get("output_padding"))
    if output_padding and any(output_padding):
        parts.append("out pad " + _axes(output_padding))
    return parts


def _differs(name: str, value: Value, schema: OpSchema | None) -> bool:
    spec = schema.attribute(name) if schema is not None else None
    if spec is None or spec.default is None:
        return True
    default = spec.default
    if isinstance(default, tuple):
        return not isinstance(value, list) or tuple(value) != default
    if isinstance(default, float) and isinstance(value, int | float):
        return abs(float(value) - default) > 1e-6 * max(1.0, abs(default))
    return value != default


def _generic(attrs: dict[str, Value], schema: OpSchema | None) -> list[str]:
    parts: list[str] = []
    for name, value in attrs.items():
        if len(parts) == _MOST:
            break
        if not _differs(name, value, schema):
            continue
        spec = schema.attribute(name) if schema is not None else None
        default = spec.default if spec is not None else None
        if value == 1 and default == 0:
            parts.append(name)  # a flag: transB, keepdims...
        elif name == "to" and isinstance(value, int) and value in BY_CODE:
            parts.append(f"to {BY_CODE[value].name}")
        else:
            parts.append(f"{name} {value_text(value, 24)}")
    return parts


def attribute_summary(
    op: str,
    attrs: dict[str, Value],
    schema: OpSchema | None,
    weight_shape: Sequence[int | str | None] | None = None,
) -> str:
    """The line a node of ``op`` shows for its ``attrs`` (``""``: nothing worth a line);
    ``weight_shape``: the shape of its second input, where a convolution's kernel is."""
    parts = _windowed(attrs, weight_shape) if op in WINDOWED else _generic(attrs, schema)
    text = " ".join(parts)
    return text if len(text) <= _LONG else text[: _LONG - 1] + "…"
