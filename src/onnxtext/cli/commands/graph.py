"""``onnxtext graph``: a model's data-flow graph as DOT, SVG or HTML."""

from __future__ import annotations

import argparse
import os

from onnxtext.cli.common import (
    EXIT_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    _decode_binary,
    _display,
    _read,
    _read_text,
    _Reporter,
    _to_text,
    _write,
)
from onnxtext.io import STDIO, is_binary_path


def cmd_graph(args: argparse.Namespace, report: _Reporter) -> int:
    """Write a model's data-flow graph as DOT, SVG or HTML (the format from OUT's extension)."""
    from onnxtext.ide.graph_export import FORMATS, export

    fmt = FORMATS.get(os.path.splitext(args.output)[1].lower())
    if fmt is None:
        args.command_parser.error(f"cannot tell the format of '{args.output}': name it .dot, .svg or .html")
        return EXIT_USAGE
    path = args.input
    if path == STDIO or is_binary_path(path):
        data = _read(path, report)
        model = _decode_binary(data, path, report) if data is not None else None
        text = _to_text(model, path, report) if model is not None else None
    else:
        text = _read_text(path, report)
    if text is None:
        return EXIT_INPUT
    from onnxtext.analysis.diagnose import diagnose
    from onnxtext.document import parse_document
    from onnxtext.ide.graph import graph_json, graph_model

    doc = parse_document(text, "model", _display(path))
    report.diagnostics(doc.diagnostics)  # a damaged text still has a graph: its errors are said, it is written
    graph = graph_json(graph_model(doc, diagnostics=diagnose(doc)), doc.source)
    title = "stdin" if path == STDIO else os.path.basename(path)
    if not _write(args.output, export(graph, fmt, title), report):
        return EXIT_INPUT
    return EXIT_INPUT if report.failed else EXIT_OK
