"""``onnxtext graph``: a model's data-flow graph as DOT, SVG or HTML."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from onnxtext.binary import BinaryView


def cmd_graph(args: argparse.Namespace, report: _Reporter) -> int:
    """Write a model's data-flow graph as DOT, SVG or HTML (the format from OUT's extension)."""
    from onnxtext.ide.graph_export import FORMATS, export

    fmt = FORMATS.get(os.path.splitext(args.output)[1].lower())
    if fmt is None:
        args.command_parser.error(f"cannot tell the format of '{args.output}': name it .dot, .svg or .html")
        return EXIT_USAGE
    path = args.input
    text, view = _graph_text(path, report)
    if text is None:
        return EXIT_INPUT
    from onnxtext.analysis.diagnose import diagnose
    from onnxtext.binary import shown_diagnostics
    from onnxtext.document import parse_document
    from onnxtext.ide.graph import graph_json, graph_model

    doc = parse_document(text, "model", _display(path))
    # a damaged text still has a graph: its errors are said, it is written
    report.diagnostics(shown_diagnostics(view, doc, doc.diagnostics))
    # the page's reader may never see the text: each node says where it is in the model
    found = graph_model(doc, diagnostics=shown_diagnostics(view, doc, diagnose(doc)), places=True)
    graph = graph_json(found, doc.source)
    if fmt == "html":
        # the page's panel: what the editor's server would say of each node (statistics of the
        # weights in the text; the others' values are not read, as the graph reads none)
        from onnxtext.ide.graph_properties import PAGE_VALUES, Sources, page_properties

        folder = os.path.dirname(os.path.abspath(path)) if path != STDIO else None
        sources = Sources(folder, values=view is None, most=PAGE_VALUES)
        graph["properties"] = page_properties(doc, graph, sources)
    title = "stdin" if path == STDIO else os.path.basename(path)
    if not _write(args.output, export(graph, fmt, title), report):
        return EXIT_INPUT
    return EXIT_INPUT if report.failed else EXIT_OK


def _graph_text(path: str, report: _Reporter) -> tuple[str | None, BinaryView | None]:
    """The text of a model for its graph (None: the reading said why), and the binary view it was
    printed from: a binary model with its large weights by reference (:func:`_by_reference`), else
    decoded and printed whole, a text as it is."""
    view = _by_reference(path) if path != STDIO and is_binary_path(path) else None
    if view is not None:
        return view.text, view
    if path == STDIO or is_binary_path(path):
        data = _read(path, report)
        model = _decode_binary(data, path, report) if data is not None else None
        return (_to_text(model, path, report) if model is not None else None), None
    return _read_text(path, report), None


def _by_reference(path: str) -> BinaryView | None:
    """The model file's text with every tensor above 1 KiB by reference, as the editor shows a
    big model: the graph needs no weight values, and printing them cost seconds and gigabytes
    (resnet18's 45 MB: 12 s and 800 MB, against 0.5 s with its weights by reference). None when
    the file cannot be read so (the whole reading then says why)."""
    from onnxtext.binary import open_binary
    from onnxtext.diagnostics import OnnxTextError

    try:
        if os.path.getsize(path) == 0:
            return None
        return open_binary(path, text_limit=0)  # no text is small enough to print every weight
    except (OSError, OnnxTextError):
        return None
