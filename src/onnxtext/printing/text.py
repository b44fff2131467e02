"""Protobuf → text: ``to_text`` (the fast path, ``printing.emit``, where it applies) and ``reference_text``
(lift the whole message to an AST, then lay it out with ``syntax.printer``)."""

from __future__ import annotations

from typing import Any

from onnxtext._gc import collector_paused
from onnxtext.printing.emit import fast_text
from onnxtext.printing.lift import Lifter, NotRepresentable
from onnxtext.printing.printable import check_printable
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto, as_own
from onnxtext.syntax import ast as A
from onnxtext.syntax.layout import DEFAULT_WIDTH
from onnxtext.syntax.printer import print_ast

__all__ = ["to_text", "reference_text", "NotRepresentable", "check_printable"]


def to_text(message: Any, width: int = DEFAULT_WIDTH) -> str:
    """The onnxtext text of a model, graph, function or node (ours or the ``onnx`` package's), in ``width`` columns.

    Raises :class:`NotRepresentable` if the message holds something no text can express yet.
    """
    msg = as_own(message)
    with collector_paused():
        return _to_text(msg, message, width)


def _to_text(msg: Any, message: Any, width: int) -> str:
    if isinstance(msg, (ModelProto, GraphProto, FunctionProto)):
        text = fast_text(msg, width)
        if text is not None:
            return text
    return reference_text(msg, message, width)


def reference_text(msg: Any, message: Any = None, width: int = DEFAULT_WIDTH) -> str:
    """``to_text`` through the whole AST (lift, then the layout printer): what the fast path
    (``printing.emit``) must equal byte for byte, and what prints what it declines."""
    with collector_paused():
        return _reference_text(msg, message, width)


def _reference_text(msg: Any, message: Any, width: int) -> str:
    check_printable(msg)
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
        raise TypeError(
            "to_text takes a model, graph, function or node, not "
            f"{type(message if message is not None else msg).__name__}"
        )
    return print_ast(tree, width=width)
