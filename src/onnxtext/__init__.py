"""onnxtext: a lossless text format and toolchain for ONNX models.

Text → AST → protobuf (``parse_*``), protobuf → text (``to_text``), files in either
form (``load``/``save``), with located diagnostics for every problem.
"""

from __future__ import annotations

from ._version import __version__
from . import check  # callable: onnxtext.check(model) -> list[Diagnostic]
from .check import check as check_model
from .diagnostics import Diagnostic, OnnxTextError, ParseError, Severity
from .document import Document, parse_document, parse_function, parse_graph, parse_model, parse_node, parse_nodes
from .format import NotRepresentable, format_text, to_text
from .io import load, save
from .span import Position, Range, SourceFile, Span

__all__ = [
    "__version__",
    "Diagnostic",
    "Document",
    "NotRepresentable",
    "OnnxTextError",
    "ParseError",
    "Position",
    "Range",
    "Severity",
    "SourceFile",
    "Span",
    "check",
    "check_model",
    "format_text",
    "load",
    "parse_document",
    "parse_function",
    "parse_graph",
    "parse_model",
    "parse_node",
    "parse_nodes",
    "save",
    "to_text",
]
from . import proto as proto  # noqa: E402  (exposed as onnxtext.proto)
