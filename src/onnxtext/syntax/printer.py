"""AST → text in onnxtext's canonical style: one method per AST node kind.

The style stays close to ``onnx.printer``: a model header, the graph signature,
initializers and value infos in ``< >``, one node per line with attributes before
inputs, functions after the graph. Comments attached to nodes are kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from onnxtext.syntax import ast as A
__all__ = ["Printer", "print_ast", "quote", "format_string"]

INDENT = "   "
_PLAIN = re.compile(r'[^"\\\x00-\x1f\x7f]*\Z')
_QUALIFIED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
_ESC = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def format_string(value: bytes) -> str:
    """A string literal for ``value`` with escapes; bytes that are not UTF-8 become ``\\xNN``."""
    try:
        text = value.decode("utf-8")
    except UnicodeDecodeError:
        return _format_bytes(value)
    if _PLAIN.match(text):
        return f'"{text}"'
    out = []
    for ch in text:
        if ch in _ESC:
            out.append(_ESC[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _format_bytes(value: bytes) -> str:
    out = []
    i = 0
    while i < len(value):
        # Keep valid UTF-8 runs readable, escape the rest byte by byte.
        for size in (4, 3, 2, 1):
            chunk = value[i : i + size]
            try:
                ch = chunk.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                if ch in _ESC:
                    out.append(_ESC[ch])
                elif ord(ch) < 0x20 or ord(ch) == 0x7F:
                    out.append(f"\\x{ord(ch):02x}")
                else:
                    out.append(ch)
                i += size
                break
        else:
            out.append(f"\\x{value[i]:02x}")
            i += 1
    return '"' + "".join(out) + '"'


def quote(ident: A.Ident) -> str:
    if ident.quoted:
        return format_string(ident.value.encode("utf-8", "surrogateescape"))
    return ident.value


class Printer:
    """Renders AST nodes; ``print(node)`` dispatches on the node's class."""

    def __init__(self) -> None:
        self._dispatch: dict[type, Callable[[Any, int], str]] = {}
        for kind in A.NODE_KINDS:
            method = getattr(self, "print_" + kind.__name__, None)
            if method is not None:
                self._dispatch[kind] = method

    def print(self, node: Any, level: int = 0) -> str:
        return self._dispatch[type(node)](node, level)

    # ------------------------------------------------------------ leaves
    def print_Ident(self, n: A.Ident, level: int) -> str:
        return quote(n)

    def print_Str(self, n: A.Str, level: int) -> str:
        return format_string(n.value)

    def print_Number(self, n: A.Number, level: int) -> str:
        return n.text

    def print_Word(self, n: A.Word, level: int) -> str:
        return n.value

    def print_Comment(self, n: A.Comment, level: int) -> str:
        return "#" + n.text

    def print_ErrorNode(self, n: A.ErrorNode, level: int) -> NoReturn:
        raise ValueError(f"the text has a syntax error at offset {n.span.start}; a damaged {n.kind} cannot be printed")

    # ------------------------------------------------------------ property blocks
    def print_PropEntry(self, n: A.PropEntry, level: int) -> str:
        return f"{n.key.value}: {self.print(n.value, level)}"

    def print_PropList(self, n: A.PropList, level: int) -> str:
        return "[" + ", ".join(self.print(i, level) for i in n.items) + "]"

    def print_PropDict(self, n: A.PropDict, level: int) -> str:
        return "{" + ", ".join(self.print(e, level) for e in n.entries) + "}"

    def print_PropPair(self, n: A.PropPair, level: int) -> str:
        return f"{self.print(n.key, level)}: {self.print(n.value, level)}"

    def print_Props(self, n: A.Props, level: int) -> str:
        if n.header:
            if not n.entries:
                return "<>"
            pad = INDENT * (level + 1)
            body = ",\n".join(pad + self.print(e, level + 1) for e in n.entries)
            return f"<\n{body}\n{INDENT * level}>"
        return "@{" + ", ".join(self.print(e, level) for e in n.entries) + "}"

    def _props(self, props: A.Props | None, level: int) -> str:
        return "" if props is None or not props.entries else " " + self.print(props, level)

    # ------------------------------------------------------------ types
    def print_Dim(self, n: A.Dim, level: int) -> str:
        return self._dim(n) + self._props(n.props, level)

    def _dim(self, n: A.Dim) -> str:
        if n.value is not None:
            return str(n.value)
        if n.param is not None:
            return format_string(n.param.encode("utf-8", "surrogateescape")) if n.quoted else n.param
        return "?"

    def print_TensorType(self, n: A.TensorType, level: int) -> str:
        if n.shape is None:
            return f"{n.elem.value}[]"
        if not n.shape:
            return n.elem.value
        return f"{n.elem.value}[" + ",".join(self.print_Dim(d, level) for d in n.shape) + "]"

    def print_SeqType(self, n: A.SeqType, level: int) -> str:
        return f"seq({self.print(n.elem, level)})"

    def print_MapType(self, n: A.MapType, level: int) -> str:
        return f"map({n.key.value}, {self.print(n.value, level)})"

    def print_OptionalType(self, n: A.OptionalType, level: int) -> str:
        return f"optional({self.print(n.elem, level)})"

    def print_SparseTensorType(self, n: A.SparseTensorType, level: int) -> str:
        return f"sparse_tensor({self.print_TensorType(n.tensor, level)})"

    def print_OpaqueType(self, n: A.OpaqueType, level: int) -> str:
        parts = [n.domain] if n.domain is not None else []
        if n.name is not None:
            parts.append(n.name)
        elif parts:
            parts.append("")
        return "opaque(" + ", ".join(p if _QUALIFIED.match(p) else format_string(p.encode("utf-8", "surrogateescape")) for p in parts) + ")"

    def print_ValueInfo(self, n: A.ValueInfo, level: int) -> str:
        head = self.print(n.type, level) + " " if n.type is not None else ""
        return head + quote(n.name) + self._props(n.props, level)

    # ------------------------------------------------------------ tensor data
    def print_NumberBody(self, n: A.NumberBody, level: int) -> str:
        return "{" + n.text + "}"

    def print_ComplexLiteral(self, n: A.ComplexLiteral, level: int) -> str:
        return f"({self.print(n.real, level)}, {self.print(n.imag, level)})"

    def print_LiteralBody(self, n: A.LiteralBody, level: int) -> str:
        return "{" + ", ".join(self.print(v, level) for v in n.values) + "}"

    def print_ExternalBody(self, n: A.ExternalBody, level: int) -> str:
        return "[" + ", ".join(self.print(i, level) for i in n.items) + "]"

    def print_Initializer(self, n: A.Initializer, level: int) -> str:
        text = self.print_ValueInfo(n.info, level)
        if n.body is not None:
            text += " = " + self.print(n.body, level)
        return text

    # ------------------------------------------------------------ attributes
    def print_TensorValue(self, n: A.TensorValue, level: int) -> str:
        head = self.print(n.type, level)
        if n.name is not None:
            head += " " + quote(n.name)
        head += self._props(n.props, level)
        if n.has_equal:
            head += " ="
        return head + " " + self.print(n.body, level)

    def print_AttrRef(self, n: A.AttrRef, level: int) -> str:
        return "@" + quote(n.name)

    def print_TypeValue(self, n: A.TypeValue, level: int) -> str:
        return self.print(n.type, level)

    def print_GraphValue(self, n: A.GraphValue, level: int) -> str:
        return self.print_Graph(n.graph, level)

    def print_AttrList(self, n: A.AttrList, level: int) -> str:
        return "[" + ", ".join(self.print(i, level) for i in n.items) + "]"

    def print_Attribute(self, n: A.Attribute, level: int) -> str:
        text = n.name.value
        if n.type_name is not None:
            text += ": " + n.type_name.value
        if n.value is not None:
            text += " = " + self.print(n.value, level)
        return text + self._props(n.props, level)

    # ------------------------------------------------------------ structure
    def print_Node(self, n: A.Node, level: int) -> str:
        parts = []
        if n.has_label:
            parts.append("[" + (quote(n.label) if n.label is not None else "") + "]")
        if n.outputs:
            parts.append(self._ids(n.outputs))
        parts = [" ".join(parts)] if parts else []
        parts.append(" = " if parts else "= ")
        parts.append("".join(p.value + "." for p in n.domain) + n.op_type.value)
        if n.overload is not None:
            parts.append(":" + n.overload.value)
        attrs = ""
        if n.attributes:
            attrs = " <" + ", ".join(self.print(a, level) for a in n.attributes) + ">"
        if n.attributes_after:
            parts.append(" (" + self._ids(n.inputs) + ")" + attrs)
        else:
            parts.append(attrs + " (" + self._ids(n.inputs) + ")")
        parts.append(self._props(n.props, level))
        return "".join(parts)

    def _ids(self, ids: list[A.Ident]) -> str:
        return ", ".join(quote(i) if i.value else '""' for i in ids)

    def _nodes(self, nodes: Sequence[A.Node | A.ErrorNode], end_comments: list[A.Comment], level: int) -> str:
        pad = INDENT * (level + 1)
        lines = ["{"]
        for n in nodes:
            if isinstance(n, A.ErrorNode):
                self.print_ErrorNode(n, level + 1)
            for c in n.comments:
                lines.append(pad + "#" + c.text)
            line = pad + self.print_Node(n, level + 1)
            if n.trailing_comment is not None:
                line += "  #" + n.trailing_comment.text
            lines.append(line)
        for c in end_comments:
            lines.append(pad + "#" + c.text)
        lines.append(INDENT * level + "}")
        return "\n".join(lines)

    def print_Graph(self, n: A.Graph, level: int) -> str:
        head = ""
        if n.props is not None and n.props.entries:
            head = self.print(n.props, level) + " "
        head += quote(n.name)
        if n.inputs is not None:
            head += " (" + ", ".join(self.print(i, level) for i in n.inputs) + ")"
        head += " => (" + ", ".join(self.print(o, level) for o in n.outputs) + ")"
        lines = [head]
        if n.initializers:
            pad = INDENT * (level + 1)
            items = [self.print(i, level + 1) for i in n.initializers]
            if sum(len(i) for i in items) + len(pad) < 100:
                lines.append(pad + "<" + ", ".join(items) + ">")
            else:
                lines.append(pad + "<\n" + ",\n".join(pad + INDENT + i for i in items) + "\n" + pad + ">")
        lines.append(INDENT * level + self._nodes(n.nodes, n.end_comments, level))
        text = "\n".join(lines)
        if n.comments:
            pad = INDENT * level
            text = "\n".join(pad + "#" + c.text for c in n.comments) + "\n" + pad + text
        return text

    def print_Function(self, n: A.Function, level: int) -> str:
        lines = []
        for c in n.comments:
            lines.append("#" + c.text)
        if n.header is not None:
            lines.append(self.print(n.header, level))
        head = quote(n.name)
        if n.attributes:
            head += " <" + ", ".join(self.print(a, level) for a in n.attributes) + ">"
        head += " (" + ", ".join(self.print(v, level) for v in n.inputs) + ")"
        head += " => (" + ", ".join(self.print(v, level) for v in n.outputs) + ")"
        lines.append(head)
        if n.value_infos:
            lines.append(INDENT + "<" + ", ".join(self.print(v, level) for v in n.value_infos) + ">")
        lines.append(self._nodes(n.nodes, n.end_comments, level))
        return "\n".join(lines)

    def print_Model(self, n: A.Model, level: int) -> str:
        parts = []
        if n.comments:
            parts.append("\n".join("#" + c.text for c in n.comments))
        if n.header is not None:
            parts.append(self.print(n.header, level))
        parts.append(self.print_Graph(n.graph, level))
        for f in n.functions:
            parts.append(self.print(f, level))
        if n.end_comments:
            parts.append("\n".join("#" + c.text for c in n.end_comments))
        return "\n".join(parts) + "\n"


_PRINTER: Printer | None = None


def print_ast(node: Any, end_comments: list[A.Comment] | None = None) -> str:
    """The text of an AST node (a model, graph, function, node or list of nodes)."""
    global _PRINTER
    if _PRINTER is None:
        _PRINTER = Printer()
    if isinstance(node, list):
        return _PRINTER._nodes(node, end_comments or [], 0) + "\n"
    if isinstance(node, A.Node):
        lines = ["#" + c.text for c in node.comments]
        line = _PRINTER.print_Node(node, 0)
        if node.trailing_comment is not None:
            line += "  #" + node.trailing_comment.text
        return "\n".join(lines + [line]) + "\n"
    text = _PRINTER.print(node)
    return text if text.endswith("\n") else text + "\n"
