"""onnxtext: a lossless text format and toolchain for ONNX models.

Text → AST → protobuf (``parse_*``), protobuf → text (``to_text``), files in either
form (``load``/``save``), with located diagnostics for every problem.

The names below are imported on first use (PEP 562): ``import onnxtext`` and a short
command such as ``onnxtext --version`` do not pay for the parser, numpy or the checker.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from onnxtext._version import __version__

if TYPE_CHECKING:
    from onnxtext import proto as proto
    from onnxtext.api import (
        check,
        diagnose,
        format_text,
        load,
        parse_document,
        parse_function,
        parse_graph,
        parse_model,
        parse_node,
        parse_nodes,
        save,
    )
    from onnxtext.diagnostics import Diagnostic, OnnxTextError, ParseError, Severity
    from onnxtext.document import Document
    from onnxtext.evaluate import Evaluator
    from onnxtext.printing.text import NotRepresentable, to_text
    from onnxtext.serialization import register_onnx_serializer
    from onnxtext.span import Position, Range, SourceFile, Span

    check_model = check

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
    "diagnose",
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

# public name → (module, attribute): the entry points live in onnxtext.api; check_model is an alias of check.
_LAZY: dict[str, tuple[str, str]] = {
    "check": ("onnxtext.api", "check"),
    "check_model": ("onnxtext.api", "check"),
    "diagnose": ("onnxtext.api", "diagnose"),
    "Diagnostic": ("onnxtext.diagnostics", "Diagnostic"),
    "OnnxTextError": ("onnxtext.diagnostics", "OnnxTextError"),
    "ParseError": ("onnxtext.diagnostics", "ParseError"),
    "Severity": ("onnxtext.diagnostics", "Severity"),
    "Document": ("onnxtext.document", "Document"),
    "parse_document": ("onnxtext.api", "parse_document"),
    "parse_function": ("onnxtext.api", "parse_function"),
    "parse_graph": ("onnxtext.api", "parse_graph"),
    "parse_model": ("onnxtext.api", "parse_model"),
    "parse_node": ("onnxtext.api", "parse_node"),
    "parse_nodes": ("onnxtext.api", "parse_nodes"),
    "NotRepresentable": ("onnxtext.printing.text", "NotRepresentable"),
    "format_text": ("onnxtext.api", "format_text"),
    "to_text": ("onnxtext.printing.text", "to_text"),
    "load": ("onnxtext.api", "load"),
    "save": ("onnxtext.api", "save"),
    "Position": ("onnxtext.span", "Position"),
    "Range": ("onnxtext.span", "Range"),
    "SourceFile": ("onnxtext.span", "SourceFile"),
    "Span": ("onnxtext.span", "Span"),
    # the evaluator's kernels take a while to load, and parsing needs none of them
    "Evaluator": ("onnxtext.evaluate", "Evaluator"),
    "register_onnx_serializer": ("onnxtext.serialization", "register_onnx_serializer"),
}


def __getattr__(name: str) -> Any:
    if name == "proto":  # exposed as onnxtext.proto
        return importlib.import_module("onnxtext.proto")
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'onnxtext' has no attribute {name!r}")
    value = getattr(importlib.import_module(where[0]), where[1])
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | {"proto"})
