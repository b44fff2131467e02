"""``onnxtext diff``: the structural difference of two models (nodes matched by what they
compute), their difference by names (``--by-name``), or a unified diff of their texts; ``-o``
draws the structural one as a graph."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from typing import TYPE_CHECKING

from onnxtext.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    _display,
    _load_lazy,
    _names_are_text,
    _note_unread,
    _progress,
    _Reporter,
    _to_text,
    _write,
)
from onnxtext.io import STDIO, is_binary_path
from onnxtext.proto import ModelProto

if TYPE_CHECKING:
    from onnxtext.compare.structural import StructuralDiff

_DIFF_LAZY = 1 << 16  # diff: tensors above this many bytes stay in their files


def cmd_diff(args: argparse.Namespace, report: _Reporter) -> int:
    """Semantic diff of two models (binary or text); 0 same, 1 different, 2 trouble.

    Weights are not loaded: large tensors stand as tokens of their content (equal bytes,
    equal tokens) and only those that differ are read, through memory maps."""
    from onnxtext.diff import diff_models
    from onnxtext.weights.digest import digest_view, token_values
    from onnxtext.weights.external import ContentTokens

    tokens = ContentTokens()
    models = []
    for path in (args.a, args.b):
        binary = path == STDIO or is_binary_path(path)
        loaded = _load_lazy(path, binary, args.threshold if args.unified else _DIFF_LAZY, report)
        if loaded is None:
            return EXIT_USAGE
        model, sources = loaded
        if not _names_are_text(model, path, "compared", report):
            return EXIT_USAGE
        if args.unified:
            model = digest_view(model, args.threshold, sources=sources, in_place=True)
        else:
            with _progress("hashing weights", model, sources) as progress:
                tokens.tokenize(model, sources, _DIFF_LAZY, progress=progress)
        _note_unread(sources, path, report)
        models.append(model)
    a, b = models
    if args.unified:
        texts = []
        for path, model in ((args.a, a), (args.b, b)):
            text = _to_text(model, path, report)
            if text is None:
                return EXIT_USAGE
            texts.append(text)
        if texts[0] == texts[1]:
            return EXIT_OK
        lines = difflib.unified_diff(
            texts[0].splitlines(keepends=True),
            texts[1].splitlines(keepends=True),
            fromfile=_display(args.a),
            tofile=_display(args.b),
        )
        for line in lines:
            sys.stdout.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
        return 1
    if args.by_name:
        changes = diff_models(a, b, values=token_values(tokens))
        for line in changes:
            print(line)
        return 1 if changes else EXIT_OK
    from onnxtext.compare.structural import diff_structural

    result = diff_structural(a, b, values=token_values(tokens))
    if args.output is not None and not _picture(args, result, b, report):
        return EXIT_USAGE
    if args.json:
        print(json.dumps(result.json(), ensure_ascii=False, indent=1))
    else:
        for line in result.lines(verbose=args.verbose):
            print(line)
    return EXIT_OK if result.same else 1


def _picture(args: argparse.Namespace, result: StructuralDiff, b: ModelProto, report: _Reporter) -> bool:
    """Write ``-o``: B's graph with A's removed nodes, added, removed and changed nodes coloured."""
    from onnxtext.cli.commands.graph import _graph_text
    from onnxtext.compare.picture import diff_graph
    from onnxtext.ide.graph_export import FORMATS, export

    fmt = FORMATS[os.path.splitext(args.output)[1].lower()]  # the usage check said it is one
    # standard input is read once: B as it was loaded (its tensors were read in, not tokens)
    text = _to_text(b, args.b, report) if args.b == STDIO else _graph_text(args.b, report)[0]
    if text is None:
        return False
    graph = diff_graph(text, result)
    if graph is None:
        report.error(_display(args.b), "the models' texts do not give the graphs compared (a damaged text?)")
        return False
    title = f"{os.path.basename(args.a)} → {os.path.basename(args.b)}"
    return _write(args.output, export(graph, fmt, title), report)
