"""``onnxtext check``: the diagnostics of models (the one ``diagnose`` for texts, the checker for binaries)."""

from __future__ import annotations

import argparse
import os
import sys

from onnxtext._version import __version__
from onnxtext.cli.common import (
    EXIT_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    _decode,
    _decode_binary,
    _display,
    _read,
    _Reporter,
)
from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.diagnostics.render import diagnostic_json, render_diagnostic, sarif_log
from onnxtext.io import STDIO, is_binary_path


def _check_file(path: str, args: argparse.Namespace, report: _Reporter) -> tuple[list[Diagnostic], bool]:
    """The diagnostics of one file, and whether it could be read at all."""
    from onnxtext.analysis.check import check_proto
    from onnxtext.api import diagnose, parse_document

    data = _read(path, report)
    if data is None:
        return [], False
    folder = None if path == STDIO else os.path.dirname(os.path.abspath(path))  # where external data is looked up
    if is_binary_path(path):
        model = _decode_binary(data, path, report)
        if model is None:
            return [], False
        return check_proto(model, select=args.select, ignore=args.ignore, model_dir=folder), True
    text = _decode(data, path, report)
    if text is None:
        return [], False
    return diagnose(parse_document(text, "model", _display(path)), args.select, args.ignore, model_dir=folder), True


def cmd_check(args: argparse.Namespace, report: _Reporter) -> int:
    """Check models against the ONNX IR rules; exit 1 if any error is found."""
    import json

    from onnxtext.analysis.check import RULES

    known = {rule.code for rule in RULES}
    for code in (args.select or []) + (args.ignore or []):
        if not any(k.startswith(code) for k in known):
            report.error(PROG, f"no rule code starts with '{code}' (see 'onnxtext rules')")
            return EXIT_USAGE
    results: list[tuple[str, Diagnostic]] = []
    for path in args.files:
        diags, ok = _check_file(path, args, report)
        results.extend((path, d) for d in diags)
    failed = report.failed or any(d.is_error for _, d in results)
    if args.format == "json":
        print(json.dumps([diagnostic_json(d, _display(p)) for p, d in results], indent=2))
    elif args.format == "sarif":
        shown = [(_display(p), d) for p, d in results]
        print(json.dumps(sarif_log(shown, RULES, tool=PROG, version=__version__), indent=2))
    else:
        for path, diag in results:
            print(render_diagnostic(diag, file=_display(path)))
        errors = sum(d.is_error for _, d in results)
        warnings = sum(d.severity is Severity.WARNING for _, d in results)
        notes = len(results) - errors - warnings
        if results:
            print(
                f"{errors} error(s), {warnings} warning(s)" + (f", {notes} note(s)" if notes else ""), file=sys.stderr
            )
    return EXIT_INPUT if failed else EXIT_OK
