"""Protobuf → text (``to_text``) and text → text (``format_text``, keeping comments)."""

from __future__ import annotations

from typing import Any

from onnxtext.syntax import ast as A
from onnxtext._gc import collector_paused
from onnxtext.diagnostics import ParseError
from onnxtext.lowering.lift import Lifter, NotRepresentable
from onnxtext.syntax.parser import parse_text
from onnxtext.syntax.comments import attach_comments
from onnxtext.syntax.layout import DEFAULT_WIDTH
from onnxtext.syntax.printer import print_ast
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto, as_own

__all__ = ["to_text", "format_text", "NotRepresentable"]


def to_text(message: Any, width: int = DEFAULT_WIDTH) -> str:
    """The onnxtext text of a model, graph, function or node (ours or the ``onnx`` package's), in ``width`` columns.

    Raises :class:`NotRepresentable` if the message holds something no text can express yet.
    """
    msg = as_own(message)
    with collector_paused():
        return _to_text(msg, message, width)


def _to_text(msg: Any, message: Any, width: int) -> str:
    _check_printable(msg)
    lifter = Lifter()
    tree: A.AstNode
    if isinstance(msg, ModelProto):
        tree = lifter.model(msg)
    elif isinstance(msg, GraphProto):
        tree = lifter.graph(msg, "graph")
    elif isinstance(msg, FunctionProto):
        tree = lifter.function(msg, "function")
    elif isinstance(msg, NodeProto):
        tree = lifter.node(msg, "node")
    else:
        raise TypeError(f"to_text takes a model, graph, function or node, not {type(message).__name__}")
    return print_ast(tree, width=width)


def _check_printable(msg: Any) -> None:
    """Refuse what text would lose: unknown fields (from a newer IR) and non-UTF-8 string fields.

    Visits every message once; the readable path of a message is built only for an error.
    """
    from google.protobuf.descriptor import FieldDescriptor
    from google.protobuf.unknown_fields import UnknownFieldSet

    message, string = FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING
    # (message, parent entry, field label): the chain of parents names the path on error.
    root = "" if msg.DESCRIPTOR.name == "ModelProto" else msg.DESCRIPTOR.name.removesuffix("Proto").lower()
    stack: list[tuple[Any, Any, str]] = [(msg, None, root)]
    while stack:
        entry = stack.pop()
        m = entry[0]
        unknown = UnknownFieldSet(m)
        if len(unknown):
            numbers = sorted({f.field_number for f in unknown})
            raise NotRepresentable(
                f"{_path(entry)} has fields this onnxtext does not know (numbers {numbers}); "
                "it was written by a newer ONNX version, and printing it would drop them"
            )
        for fd, value in m.ListFields():
            kind = fd.type
            if kind == message:
                if fd.is_repeated:
                    name = fd.name
                    stack.extend((v, entry, f"{name}[{i}]") for i, v in enumerate(value))
                else:
                    stack.append((value, entry, fd.name))
            elif kind == string:
                if fd.is_repeated:
                    if bytes in map(type, value):
                        raise NotRepresentable(f"{_path(entry)}/{fd.name} holds bytes that are not UTF-8 text")
                elif type(value) is bytes:
                    raise NotRepresentable(f"{_path(entry)}/{fd.name} holds bytes that are not UTF-8 text")


def _path(entry: tuple[Any, Any, str]) -> str:
    """The proto path (``ir.paths.ProtoPath``'s form, ``graph/node[0]``) of a visited message; ``model`` for the root."""
    parts = []
    node: Any = entry
    while node is not None:
        if node[2]:
            parts.append(node[2])
        node = node[1]
    return "/".join(reversed(parts)) or "the model"


def format_text(text: str, kind: str = "model", path: str = "<text>", width: int = DEFAULT_WIDTH) -> str:
    """Reformat a text in the canonical style for ``width`` columns without going through protobuf.

    Every comment stays where it was written (see ``syntax.comments``), blank lines between
    statements are kept (runs of them collapse to one). Raises :class:`ParseError` for a text
    with syntax errors.
    """
    with collector_paused():
        result = parse_text(text, kind, path)
        if not result.ok or result.tree is None:
            raise ParseError(result.diagnostics)
        comments = attach_comments(result.tree, result.comments, text)
        return print_ast(result.tree, comments, width)
