"""onnxtext: a lossless text format and toolchain for ONNX models.

Text → AST → protobuf (``parse_*``), protobuf → text (``to_text``), files in either
form (``load``/``save``), with located diagnostics for every problem.
"""

from __future__ import annotations

from ._version import __version__
from .diagnostics import Diagnostic, OnnxTextError, ParseError, Severity
from .document import Document, parse_document, parse_function, parse_graph, parse_model, parse_node, parse_nodes
from .span import Position, SourceFile, Span

__all__ = [
    "__version__",
    "Diagnostic",
    "Document",
    "OnnxTextError",
    "ParseError",
    "Position",
    "Severity",
    "SourceFile",
    "Span",
    "parse_document",
    "parse_function",
    "parse_graph",
    "parse_model",
    "parse_node",
    "parse_nodes",
]
