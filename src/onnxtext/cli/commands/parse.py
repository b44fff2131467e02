"""``onnxtext parse``: text → binary model."""

from __future__ import annotations

import argparse
import sys

from onnxtext.cli.common import (
    EXIT_INPUT,
    EXIT_USAGE,
    PROG,
    _external_data_follows,
    _output_is_input,
    _parse_model_text,
    _read_text,
    _Reporter,
    _write,
)
from onnxtext.io import STDIO, model_bytes


def cmd_parse(args: argparse.Namespace, report: _Reporter) -> int:
    """Text → binary model."""
    report.warnings_are_errors = args.strict or args.warnings == "error"
    if _output_is_input(args, report):
        return EXIT_USAGE
    text = _read_text(args.input, report)
    model = None if text is None else _parse_model_text(text, args.input, report)
    if model is None:
        return EXIT_INPUT
    if args.output == STDIO and sys.stdout.isatty():
        report.error(PROG, "refusing to write a binary model to a terminal; give -o FILE or redirect stdout")
        return EXIT_INPUT
    if not _external_data_follows(model, args.input, args.output, args.copy_external_data, report):
        return EXIT_INPUT
    _write(args.output, model_bytes(model), report)
    return report.status
