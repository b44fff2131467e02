"""What to say about the thing under the cursor: an operator, an attribute, a value, a function.

A plain query over a :class:`~onnxtext.document.Document`; the language server only turns
the answer into a protocol message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from onnxtext.analysis.symbols import AttributeSymbol, FunctionSymbol, ValueSymbol
from onnxtext.document import Document
from onnxtext.ide.schema_docs import attribute_markdown, dtype_markdown, operator_markdown, signature_text
from onnxtext.span import Span
from onnxtext.syntax import ast as A

if TYPE_CHECKING:
    from onnxtext.evaluate.live import LiveResult
    from onnxtext.ide.graph_properties import Sources
    from onnxtext.weights.statistics import Statistics

__all__ = ["HoverInfo", "hover_at", "statistics_markdown"]

_KIND_WORDS = {
    "graph-input": "graph input",
    "initializer": "initializer",
    "node-output": "node output",
    "function-input": "function input",
    "unknown": "value (its statement is damaged)",
}
# INT attributes that hold a TensorProto.DataType (Cast's ``to``, the random operators' ``dtype``...)
_DTYPE_ATTRIBUTES = frozenset({"to", "dtype", "output_dtype"})


@dataclass(frozen=True)
class HoverInfo:
    markdown: str
    span: Span


def hover_at(
    doc: Document, offset: int, live: LiveResult | None = None, sources: Sources | None = None
) -> HoverInfo | None:
    """The hover at ``offset``; ``live``: the live values, if shown; ``sources``: where the
    document's tensors outside its text are (a weight's statistics are read from there)."""
    path = doc.nodes_at(offset)
    if not path:
        return None
    inner = path[-1]
    parent = path[-2] if len(path) > 1 else None
    node = next((p for p in reversed(path) if isinstance(p, A.Node)), None)
    attribute = next((p for p in reversed(path) if isinstance(p, A.Attribute)), None)
    if (
        node is not None
        and isinstance(inner, A.Ident)
        and (inner is node.op_type or inner is node.overload or inner in node.domain)
    ):
        return _operator(
            doc,
            node,
            Span(
                node.domain[0].span.start if node.domain else node.op_type.span.start,
                (node.overload or node.op_type).span.end,
            ),
        )
    if node is not None and attribute is not None and isinstance(inner, A.Ident) and inner is attribute.name:
        return _attribute(doc, node, attribute)
    if node is not None and attribute is not None and isinstance(inner, A.Number) and parent is attribute:
        return _dtype_code(doc, node, attribute, inner)
    dim = next((p for p in reversed(path) if isinstance(p, A.Dim)), None)
    if dim is not None:
        return _dimension(doc, dim)
    entry = next((p for p in reversed(path) if isinstance(p, A.PropEntry)), None)
    if entry is not None and isinstance(inner, A.Ident) and inner is entry.key:
        return _header_key(path, entry)
    symbol = doc.symbol_at(offset)
    if isinstance(symbol, ValueSymbol):
        occurrence = doc.symbols.occurrence_at(offset)
        span = occurrence.span if occurrence is not None else inner.span
        return HoverInfo(_value(doc, symbol, live, sources), span)
    if isinstance(symbol, FunctionSymbol):
        occurrence = doc.symbols.occurrence_at(offset)
        return HoverInfo(_function(doc, symbol), occurrence.span if occurrence is not None else inner.span)
    if isinstance(symbol, AttributeSymbol):
        occurrence = doc.symbols.occurrence_at(offset)
        span = occurrence.span if occurrence is not None else inner.span
        return HoverInfo(f"**@{symbol.name}**: attribute of function `{symbol.function.name}`", span)
    return None


def _operator(doc: Document, node: A.Node, span: Span) -> HoverInfo | None:
    resolution = doc.resolutions.get(node)
    if resolution is None:
        return None
    if resolution.schema is not None:
        return HoverInfo(operator_markdown(resolution.schema, resolution.version), span)
    if resolution.function is not None:
        key = (resolution.domain, resolution.function.name, resolution.function.overload)
        symbol = doc.symbols.functions.get(key)
        if symbol is not None:
            return HoverInfo(_function(doc, symbol), span)
    domain = resolution.domain or "ai.onnx"
    if resolution.version is None:
        return HoverInfo(f"**{node.op_type.value}**: the model does not import the domain `{domain}`", span)
    return HoverInfo(
        f"**{node.op_type.value}**: no operator of `{domain}` opset {resolution.version} has this name", span
    )


def _attribute(doc: Document, node: A.Node, attribute: A.Attribute) -> HoverInfo | None:
    resolution = doc.resolutions.get(node)
    if resolution is None or resolution.schema is None:
        return None
    spec = resolution.schema.attribute(attribute.name.value)
    if spec is None:
        return HoverInfo(
            f"`{attribute.name.value}` is not an attribute of {resolution.schema.name}", attribute.name.span
        )
    return HoverInfo(attribute_markdown(resolution.schema, spec), attribute.name.span)


def _dtype_code(doc: Document, node: A.Node, attribute: A.Attribute, number: A.Number) -> HoverInfo | None:
    resolution = doc.resolutions.get(node)
    if resolution is None or resolution.schema is None:
        return None
    if attribute.name.value not in _DTYPE_ATTRIBUTES:
        return None
    spec = resolution.schema.attribute(attribute.name.value)
    if spec is None or spec.type != "INT" or not number.is_int:
        return None
    text = dtype_markdown(int(number.text, 0))
    return HoverInfo(text, number.span) if text is not None else None


def _value(doc: Document, symbol: ValueSymbol, live: LiveResult | None, sources: Sources | None) -> str:
    kind = _KIND_WORDS.get(symbol.kind, symbol.kind)
    inferred = doc.type_of(symbol)
    head = f"**{symbol.name}**: " + (f"`{inferred}`" if inferred is not None else "type unknown")
    uses = f"{len(symbol.uses)} use{'s' if len(symbol.uses) != 1 else ''}" + (
        ", a graph output" if symbol.is_output else ""
    )
    # one line (markdown joins consecutive lines: "defined at line 40 1 use")
    lines = [head, "", f"{kind}, defined at {_where(doc, [d.span for d in symbol.definitions])}; {uses}"]
    if len(symbol.definitions) > 1:
        lines += ["", f"⚠ defined {len(symbol.definitions)} times"]
    body = symbol.scope.node
    lines += _weight(doc, body, symbol.name, sources)
    if live is not None:
        from onnxtext.ide.graph_properties import body_live

        found = body_live(doc, body, live)
        label = found.labels.get(symbol.name)
        if label:
            lines += ["", f"live value: `{label}`"]
        value = found.values.get(symbol.name)
        if value is not None and value.statistics is not None and value.statistics.count:
            lines += ["", statistics_markdown(value.statistics)]
    return "\n".join(lines)


def _weight(doc: Document, body: A.Graph | A.Function | None, name: str, sources: Sources | None) -> list[str]:
    """Where a weight's (or a constant's) data is and, from its values, its statistics; none
    above :data:`~onnxtext.ide.graph_properties.HOVER_VALUES` values (a hover never reads gigabytes)."""
    from onnxtext.ide.graph_properties import HOVER_VALUES, Sources, storage_text, weight_statistics, weight_tensor

    t = weight_tensor(doc, body, name)
    if t is None:
        return []
    found = weight_statistics(t, sources or Sources(), HOVER_VALUES)
    lines = ["", f"data: {storage_text(t)}"]
    if isinstance(found, str):
        return [*lines, "", found]
    return [*lines, "", statistics_markdown(found)] if found is not None else lines


_BARS = " ▁▂▃▄▅▆▇█"


def _num(x: float) -> str:
    return f"{x:.4g}"


def statistics_markdown(found: Statistics) -> str:
    """``4 values: min 1 · max 4 · mean 2.5 · std 1.118`` and the histogram as a sparkline,
    one bar a character (``▁▃█▅ ▂``, a blank for none), between its ends."""
    words = f"{found.count:,} value{'s' if found.count != 1 else ''}"
    if found.nonfinite:
        words += f" ({found.nonfinite:,} NaN or infinite)"
    if found.min is None or found.max is None or found.mean is None or found.std is None:
        return words
    words += f": min {_num(found.min)} · max {_num(found.max)} · mean {_num(found.mean)} · std {_num(found.std)}"
    if found.zeros:
        words += f" · {found.zeros:,} zero{'s' if found.zeros != 1 else ''}"
    h = found.histogram
    if h is None:
        return words
    most = max(h.counts) or 1
    bars = "".join(_BARS[0 if c == 0 else max(1, round(c / most * 8))] for c in h.counts)
    return f"{words}\n\n`{bars}` {_num(h.lo)} … {_num(h.hi)}"


def _dimension(doc: Document, dim: A.Dim) -> HoverInfo:
    if dim.param is not None:
        same = (
            sum(1 for n in A.walk(doc.tree) if isinstance(n, A.Dim) and n.param == dim.param)
            if doc.tree is not None
            else 1
        )
        text = (
            f"**{dim.param}**: a symbolic dimension (`dim_param`): one size wherever it is written "
            f"({same} time{'s' if same != 1 else ''} in this text), chosen when the model runs"
        )
    elif dim.value is not None:
        text = f"**{dim.value}**: a fixed dimension (`dim_value`)"
    else:
        text = "**?**: a dimension of unknown size (neither `dim_value` nor `dim_param`)"
    return HoverInfo(text, dim.span)


# What the common header keys mean (the IR spec's words, shortened); other keys show their field alone.
_KEY_WORDS = {
    "ir_version": "the version of the IR (the ONNX file format) the model follows",
    "opset_import": "the operator sets the model uses, each a domain and its version",
    "producer_name": "the tool that wrote the model",
    "producer_version": "the version of that tool",
    "domain": "a reverse-DNS name of the model's (or function's) namespace",
    "model_version": "the version of the model itself (an integer)",
    "doc_string": "documentation (Markdown allowed)",
    "metadata_props": "free key/value notes",
    "overload": "tells apart functions of the same domain and name",
    "node_domain": "onnxtext: the domain every node has unless it says otherwise (unset: no domain field)",
    "tensor_encoding": "onnxtext: how initializers are stored (raw bytes or typed fields)",
}


def _header_key(path: Sequence[A.AstNode], entry: A.PropEntry) -> HoverInfo | None:
    from onnxtext.proto import FunctionProto, ModelProto

    props = next((p for p in reversed(path) if isinstance(p, A.Props)), None)
    if props is None or not props.header:
        return None
    message = FunctionProto if any(isinstance(p, A.Function) for p in path) else ModelProto
    key = entry.key.value
    field = message.DESCRIPTOR.fields_by_name.get(key)
    if field is None and key not in _KEY_WORDS:
        return None
    where = f"`{message.DESCRIPTOR.name}.{key}`" if field is not None else "a file-wide default"
    words = _KEY_WORDS.get(key)
    return HoverInfo(f"**{key}**: {where}" + (f", {words}" if words else ""), entry.key.span)


def _where(doc: Document, spans: Sequence[Span]) -> str:
    return ", ".join(f"line {doc.source.position(s.start).line}" for s in spans) or "?"


def _function(doc: Document, symbol: FunctionSymbol) -> str:
    if not symbol.definitions:
        return f"**{symbol.name}**: no local function has this name"
    f = symbol.definitions[0]
    attrs = [a.name.value for a in f.attributes or [] if isinstance(a, A.Attribute)]
    inputs = [vi.name.value for vi in f.inputs if isinstance(vi, A.ValueInfo)]
    outputs = [vi.name.value for vi in f.outputs if isinstance(vi, A.ValueInfo)]
    domain = symbol.key[0] or "ai.onnx"
    label = signature_text(symbol.name + (f":{symbol.key[2]}" if symbol.key[2] else ""), inputs, outputs, attrs)
    calls = len(symbol.calls)
    return (
        f"```onnxtext\n{label}\n```\nlocal function of domain `{domain}`, defined at line "
        f"{doc.source.position(f.span.start).line}; {calls} call{'s' if calls != 1 else ''}"
    )
