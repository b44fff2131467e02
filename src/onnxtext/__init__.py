"""onnxtext: a lossless text format and toolchain for ONNX models.

Text → AST → protobuf (``parse_*``), protobuf → text (``to_text``), files in either
form (``load``/``save``), with located diagnostics for every problem.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onnxtext._version import __version__
from onnxtext.analysis.check import check
from onnxtext.diagnostics import Diagnostic, OnnxTextError, ParseError, Severity
from onnxtext.document import Document, parse_document, parse_function, parse_graph, parse_model, parse_node, parse_nodes
from onnxtext.syntax.format import NotRepresentable, format_text, to_text
from onnxtext.io import load, save
from onnxtext.syntax.span import Position, Range, SourceFile, Span

__all__ = [
    "__version__",
    "Diagnostic",
    "Document",
    "Evaluator",
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
    "register_onnx_serializer",
    "save",
    "to_text",
]
from onnxtext import proto as proto  # noqa: E402  (exposed as onnxtext.proto)

check_model = check
"""An alias of :func:`check`."""

if TYPE_CHECKING:
    from onnxtext.evaluate import Evaluator
    from onnxtext.serialization import register_onnx_serializer

# Imported on first use: the evaluator's kernels take a while to load, and parsing needs none of them.
_LAZY = {"Evaluator": "onnxtext.evaluate", "register_onnx_serializer": "onnxtext.serialization"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'onnxtext' has no attribute {name!r}")
