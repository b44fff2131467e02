"""Property blocks ⇄ protobuf fields, driven by the message descriptors.

A property block (``@{doc_string: "x", metadata_props: ["k": "v"], domain: unset}``)
or a header (``<ir_version: 10, ...>``) names fields of the message it belongs to.
Applying one is generic: each key is looked up in the message's descriptor and the
value converted to the field's type, so every field of the schema is reachable
from text, now and for fields a later IR adds.

Every message a value fills is recorded under its proto path, named as the lowering
names the messages it builds (``training_info[0]/update_binding[1]``,
``graph/sparse_initializer[0]/values``); the model itself is the empty path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from onnxtext.diagnostics import Diagnostic, Edit, Fix, Severity, closest, did_you_mean
from onnxtext.ir.paths import ProtoPath
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A

__all__ = ["FieldSink", "apply_entries", "UNSET"]

UNSET = "unset"
BAD_KEY = "L010"
BAD_VALUE = "L011"

_INT_TYPES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}
_FLOAT_TYPES = (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE)


@dataclass
class FieldSink:
    """Where diagnostics of field assignment go, who lowers graphs and tensors in values, and the source map."""

    source: SourceFile | None
    diags: list[Diagnostic] = field(default_factory=list)
    # Fills a GraphProto/TensorProto field (at the given proto path) from a graph or tensor
    # written in a property value.
    structured: Callable[[Message, A.AstNode, ProtoPath], bool] | None = None
    marks: dict[ProtoPath, A.AstNode] | None = None
    """Proto path → the value that filled the message there; ``None`` records nothing."""

    def error(self, code: str, message: str, span: Span, fix: Fix | None = None) -> None:
        self.diags.append(Diagnostic.at(code, Severity.ERROR, message, span, self.source, fix=fix))

    def unknown(self, code: str, message: str, span: Span, word: str, choices: Sequence[str]) -> None:
        """An error about an unknown ``word`` at ``span``, with the closest of ``choices`` as a fix."""
        hint = closest(word, choices)
        fix = Fix(f"write '{hint}'", (Edit(span, hint),)) if hint is not None else None
        self.error(code, message + did_you_mean(hint), span, fix)

    def warning(self, code: str, message: str, span: Span) -> None:
        self.diags.append(Diagnostic.at(code, Severity.WARNING, message, span, self.source))


def parse_int(
    node: A.AstNode, sink: FieldSink, lo: int = -(2**63), hi: int = 2**63 - 1, what: str = "an integer"
) -> int | None:
    if not isinstance(node, A.Number) or not node.is_int:
        sink.error(BAD_VALUE, f"expected {what}, found {_describe(node)}", node.span)
        return None
    # The lexer's hex literals are unsigned ``0x...``; everything else is decimal.
    value = int(node.text, 16) if node.text[:2] in ("0x", "0X") else int(node.text)
    if not lo <= value <= hi:
        sink.error(BAD_VALUE, f"{node.text} is out of range for {what} ({lo} to {hi})", node.span)
        return None
    return value


def parse_float(node: A.AstNode, sink: FieldSink) -> float | None:
    if isinstance(node, A.Number) and node.text[:2] in ("0x", "0X"):
        sink.error(
            BAD_VALUE, f"expected a float, found the hex integer {node.text}; write the value in decimal", node.span
        )
        return None
    if isinstance(node, A.Number):
        return float(node.text)
    if isinstance(node, A.Word) and node.value.lower() in ("nan", "inf", "infinity"):
        return math.nan if node.value.lower() == "nan" else math.inf
    sink.error(BAD_VALUE, f"expected a number, found {_describe(node)}", node.span)
    return None


def _describe(node: A.AstNode) -> str:
    if isinstance(node, A.Number):
        return f"number {node.text}"
    if isinstance(node, A.Str):
        return "a string"
    if isinstance(node, A.Word):
        return f"'{node.value}'"
    if isinstance(node, A.PropList):
        return "a list"
    if isinstance(node, A.PropDict):
        return "a '{...}' block"
    if isinstance(node, A.PropPair):
        return "a 'key: value' pair"
    return type(node).__name__


Special = Callable[[Message, A.PropEntry, FieldSink], bool]


def apply_entries(
    msg: Message,
    entries: Sequence[A.PropEntry | A.ErrorNode],
    sink: FieldSink,
    path: ProtoPath,
    *,
    special: Special | None = None,
    extra_keys: Sequence[str] = (),
) -> None:
    """Set the fields named by ``entries`` on ``msg`` (at proto ``path``); repeated fields are appended to.

    ``special`` may handle a key itself (returning True), for pseudo-keys such as a
    header's file-wide defaults; ``extra_keys`` are offered in suggestions.
    """
    desc = msg.DESCRIPTOR
    for entry in A.intact(entries):
        if special is not None and special(msg, entry, sink):
            continue
        key = entry.key.value
        fd = desc.fields_by_name.get(key)
        if fd is None:
            names = [f.name for f in desc.fields] + list(extra_keys)
            sink.unknown(BAD_KEY, f"'{key}' is not a field of {desc.name}", entry.key.span, key, names)
            continue
        set_field(msg, fd, entry.value, sink, path)


def set_field(msg: Message, fd: FieldDescriptor, value: A.AstNode, sink: FieldSink, path: ProtoPath) -> None:
    """Assign one property value to one field of ``msg`` (at proto ``path``); append for repeated fields."""
    if isinstance(value, A.Word) and value.value == UNSET:
        if sink.marks is not None and fd.type == FieldDescriptor.TYPE_MESSAGE:
            _forget(sink.marks, path / fd.name)
        if fd.is_repeated:
            msg.ClearField(fd.name)
        elif fd.has_presence:
            msg.ClearField(fd.name)
        else:  # pragma: no cover - proto2 fields always have presence
            sink.error(BAD_VALUE, f"field '{fd.name}' cannot be unset", value.span)
        return
    if fd.is_repeated:
        items = value.items if isinstance(value, A.PropList) else [value]
        container = getattr(msg, fd.name)
        for item in items:
            if fd.type == FieldDescriptor.TYPE_MESSAGE:
                # The index in the proto, after what earlier values appended or 'unset' cleared.
                sub_path = path.child(fd.name, len(container))
                _fill_message(container.add(), item, sink, sub_path)
            else:
                converted = _scalar(fd, item, sink)
                if converted is not None:
                    container.append(converted)
        return
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        sub = getattr(msg, fd.name)
        sub.SetInParent()
        _fill_message(sub, value, sink, path / fd.name)
        return
    converted = _scalar(fd, value, sink)
    if converted is not None:
        setattr(msg, fd.name, converted)


def _forget(marks: dict[ProtoPath, A.AstNode], path: ProtoPath) -> None:
    """Drop the entries of a field that 'unset' clears (and of all it held: the field's
    elements ``path[i]`` are steps of the same field name)."""
    depth, name = len(path) - 1, path[-1][0]
    parent = path[:-1]
    for key in [k for k in marks if len(k) > depth and k[depth][0] == name and k[:depth] == parent]:
        del marks[key]


def _fill_message(msg: Message, value: A.AstNode, sink: FieldSink, path: ProtoPath) -> None:
    if sink.marks is not None:
        sink.marks[path] = value
    if isinstance(value, (A.GraphValue, A.TensorValue)):
        if sink.structured is None or not sink.structured(msg, value, path):
            kind = "a graph" if isinstance(value, A.GraphValue) else "a tensor"
            sink.error(BAD_VALUE, f"{msg.DESCRIPTOR.name} cannot be written as {kind}", value.span)
        return
    if isinstance(value, A.PropDict):
        apply_entries(msg, value.entries, sink, path)
        return
    if isinstance(value, A.PropPair):
        # `key: value` fills the first two fields in number order (key/value, domain/version, ...).
        fields = sorted(msg.DESCRIPTOR.fields, key=lambda f: f.number)
        if len(fields) < 2:
            sink.error(BAD_VALUE, f"{msg.DESCRIPTOR.name} is not a key/value pair", value.span)
            return
        set_field(msg, fields[0], value.key, sink, path)
        set_field(msg, fields[1], value.value, sink, path)
        return
    sink.error(
        BAD_VALUE,
        f"expected a '{{field: value, ...}}' block for {msg.DESCRIPTOR.name}, found {_describe(value)}",
        value.span,
    )


def _scalar(fd: FieldDescriptor, value: A.AstNode, sink: FieldSink) -> Any:
    t = fd.type
    if t in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
        if not isinstance(value, A.Str):
            sink.error(BAD_VALUE, f"field '{fd.name}' takes a string, found {_describe(value)}", value.span)
            return None
        if t == FieldDescriptor.TYPE_BYTES:
            return value.value
        try:
            return value.value.decode("utf-8")
        except UnicodeDecodeError:
            sink.error(BAD_VALUE, f"field '{fd.name}' must be valid UTF-8 text", value.span)
            return None
    if t in _INT_TYPES:
        lo, hi = _INT_TYPES[t]
        return parse_int(value, sink, lo, hi, f"an integer for '{fd.name}'")
    if t in _FLOAT_TYPES:
        return parse_float(value, sink)
    if t == FieldDescriptor.TYPE_BOOL:
        if isinstance(value, A.Word) and value.value in ("true", "false"):
            return value.value == "true"
        if isinstance(value, A.Number) and value.text in ("0", "1"):
            return value.text == "1"
        sink.error(BAD_VALUE, f"field '{fd.name}' takes true or false, found {_describe(value)}", value.span)
        return None
    if t == FieldDescriptor.TYPE_ENUM:
        enum = fd.enum_type
        if isinstance(value, A.Word):
            ev = enum.values_by_name.get(value.value) or enum.values_by_name.get(value.value.upper())
            if ev is None:
                names = [v.name for v in enum.values]
                sink.unknown(
                    BAD_VALUE, f"'{value.value}' is not a value of {enum.name}", value.span, value.value.upper(), names
                )
                return None
            return ev.number
        return parse_int(value, sink, -(2**31), 2**31 - 1, f"a value of {enum.name}")
    sink.error(BAD_VALUE, f"field '{fd.name}' cannot be written in a property block", value.span)  # pragma: no cover
    return None
