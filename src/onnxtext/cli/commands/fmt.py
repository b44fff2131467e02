"""``onnxtext fmt``: texts → canonical texts, in place, checked or as a diff."""

from __future__ import annotations

import argparse
import difflib
import sys

from onnxtext.cli.common import EXIT_INPUT, _display, _line_width, _read_text, _Reporter, _write
from onnxtext.diagnostics import OnnxTextError
from onnxtext.io import STDIO, is_binary_path


def cmd_fmt(args: argparse.Namespace, report: _Reporter) -> int:
    """Text → canonical text, in place (or checked, or shown as a diff)."""
    from onnxtext.api import format_text

    write = not (args.check or args.diff)
    changed = 0
    for path in args.files:
        if path != STDIO and is_binary_path(path):
            report.error(path, "a binary model: fmt formats texts (see 'onnxtext print')")
            continue
        width = _line_width(args, "." if path == STDIO else path, report)
        if width is None:
            continue
        original = _read_text(path, report)
        if original is None:
            continue
        try:
            formatted = format_text(original, "model", _display(path), width)
        except OnnxTextError as exc:  # ParseError: every syntax error, located
            report.diagnostics(exc.diagnostics)
            report.failed = True
            continue
        if formatted != original:
            changed += 1
            if args.diff:
                _print_diff(path, original, formatted)
            if args.check:
                report.note(f"would reformat {_display(path)}")
        if write and (path == STDIO or formatted != original):
            _write(path, formatted, report)
    if args.check and changed:
        report.note(f"{changed} file{'s' if changed != 1 else ''} would be reformatted")
        return EXIT_INPUT
    return report.status


def _print_diff(path: str, before: str, after: str) -> None:
    name = _display(path)
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"{name}\t(original)",
        tofile=f"{name}\t(formatted)",
    )
    for line in lines:
        sys.stdout.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
