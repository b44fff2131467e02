"""``onnxtext diff``: the semantic difference of two models, or a unified diff of their texts."""

from __future__ import annotations

import argparse
import difflib
import sys

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
)
from onnxtext.io import STDIO, is_binary_path

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
    changes = diff_models(a, b, values=token_values(tokens))
    for line in changes:
        print(line)
    return 1 if changes else EXIT_OK
