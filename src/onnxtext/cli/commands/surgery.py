"""``onnxtext extract``, ``edit`` and ``merge``: model surgery from the command line (:mod:`onnxtext.surgery`).

Each reads models in text or binary (by their file name, as every command does), makes its change
with the surgery library, and writes OUT as text or binary by its extension, atomically: a name the
model does not have, or any other refusal, is a diagnostic at the model's place and nothing is written.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from onnxtext.cli.common import (
    EXIT_INPUT,
    _display,
    _external_data_follows,
    _line_width,
    _load_model,
    _names_are_text,
    _Reporter,
    _to_text,
    _write,
)
from onnxtext.io import STDIO, is_binary_path, model_bytes

if TYPE_CHECKING:
    from onnxtext.proto import ModelProto
    from onnxtext.surgery import Result

__all__ = ["cmd_edit", "cmd_extract", "cmd_merge"]

WHAT = {"edit": "edited", "extract": "extracted from"}
"""What a model that cannot be read is said not to be, by command."""


def _load(path: str, what: str, report: _Reporter) -> ModelProto | None:
    """The model at ``path``; None (reported) if it cannot be read, or is a binary whose names are
    no UTF-8 text (the surgery looks values up by name, as every command does)."""
    binary = path == STDIO or is_binary_path(path)
    model = _load_model(path, binary, report)
    if model is not None and binary and not _names_are_text(model, path, what, report):
        return None
    return model


def _save(model: ModelProto, sources: list[tuple[ModelProto, str]], args: argparse.Namespace, report: _Reporter) -> int:
    """Write ``model`` to ``args.output``: text or binary by its extension; the external data each
    source model's tensors refer to follows (copied with --copy-external-data, else refused)."""
    for source, path in sources:
        if not _external_data_follows(source, path, args.output, args.copy_external_data, report):
            return EXIT_INPUT
    if args.output != STDIO and is_binary_path(args.output):
        payload: bytes | str = model_bytes(model)
    else:
        width = _line_width(args, "." if args.output == STDIO else args.output, report)
        text = None if width is None else _to_text(model, sources[0][1], report, width)
        if text is None:
            return EXIT_INPUT
        payload = text
    _write(args.output, payload, report)
    return report.status


def _done(result: Result, sources: list[tuple[ModelProto, str]], args: argparse.Namespace, report: _Reporter) -> int:
    report.diagnostics(result.notes, file=_display(sources[0][1]))
    return _save(result.model, sources, args, report)


def cmd_extract(args: argparse.Namespace, report: _Reporter) -> int:
    """The sub-model between values."""
    from onnxtext.surgery import SurgeryError, extract

    model = _load(args.model, WHAT[args.command], report)
    if model is None:
        return EXIT_INPUT
    try:
        result = extract(model, args.inputs, args.outputs)
    except SurgeryError as exc:
        report.diagnostics(exc.diagnostics, file=_display(args.model))
        return EXIT_INPUT
    return _done(result, [(result.model, args.model)], args, report)


def cmd_edit(args: argparse.Namespace, report: _Reporter) -> int:
    """Edits applied in the order given."""
    import numpy as np

    from onnxtext import surgery
    from onnxtext.diagnostics import Diagnostic
    from onnxtext.surgery import SurgeryError

    model = _load(args.model, WHAT[args.command], report)
    if model is None:
        return EXIT_INPUT
    notes: list[Diagnostic] = []
    for operation, value in args.operations:
        try:
            if operation in ("delete-node", "delete-node-and-feeders"):
                notes.extend(surgery.delete_node(model, value, feeders=operation == "delete-node-and-feeders"))
            elif operation == "rename":
                surgery.rename_value(model, *value)
            elif operation == "add-output":
                surgery.add_output(model, value)
            elif operation == "remove-output":
                surgery.remove_output(model, value)
            elif operation == "set-input-shape":
                notes.extend(surgery.set_input_shape(model, *value))
            elif operation == "input-from-initializer":
                surgery.initializer_to_input(model, value)
            elif operation == "extract-function":
                nodes, name = value
                surgery.extract_function(model, [n.strip() for n in nodes.split(",")], name)
            else:  # constant
                name, path = value
                try:
                    array = np.load(path, allow_pickle=False)
                except (OSError, ValueError) as exc:
                    report.error(path, f"not a readable .npy array ({exc})")
                    return EXIT_INPUT
                surgery.make_constant(model, name, array)
        except SurgeryError as exc:
            report.diagnostics(exc.diagnostics, file=f"{_display(args.model)} (--{operation})")
            return EXIT_INPUT
    report.diagnostics(notes, file=_display(args.model))
    return _save(model, [(model, args.model)], args, report)


def cmd_merge(args: argparse.Namespace, report: _Reporter) -> int:
    """Two models composed."""
    from onnxtext.surgery import SurgeryError, merge

    a = _load(args.a, "merged", report)
    b = _load(args.b, "merged", report) if a is not None else None
    if a is None or b is None:
        return EXIT_INPUT
    try:
        result = merge(a, b, args.connect, args.prefix)
    except SurgeryError as exc:
        report.diagnostics(exc.diagnostics, file=f"{_display(args.a)} + {_display(args.b)}")
        return EXIT_INPUT
    return _done(result, [(a, args.a), (b, args.b)], args, report)
