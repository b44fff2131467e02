"""``onnxtext print``: a model → canonical text, weights inline, in a sidecar or as digests."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from onnxtext.cli.common import (
    EXIT_INPUT,
    EXIT_USAGE,
    PROG,
    _external_data_follows,
    _line_width,
    _load_lazy,
    _load_model,
    _note_unread,
    _output_is_input,
    _progress,
    _Reporter,
    _to_text,
    _write,
)
from onnxtext.io import STDIO, is_binary_path
from onnxtext.proto import ModelProto

if TYPE_CHECKING:
    from onnxtext.weights.external import TensorSources


def cmd_print(args: argparse.Namespace, report: _Reporter) -> int:
    """Binary (or text) model → canonical text; weights inline, in a sidecar or as digests."""
    weights = getattr(args, "weights", "inline")
    if weights == "external" and args.output == STDIO:
        report.error(PROG, "--weights external writes a sidecar next to the output: give -o OUT.onnxtxt")
        return EXIT_USAGE
    binary = args.input == STDIO or is_binary_path(args.input)
    if binary and _output_is_input(args, report):  # a text printed again in place is fine: read before written
        return EXIT_USAGE
    width = _line_width(args, "." if args.output == STDIO else args.output, report)
    if width is None:
        return EXIT_USAGE
    if weights == "inline":
        model = _load_model(args.input, binary, report)
        text = None if model is None else _to_text(model, args.input, report, width)
        if (
            text is None
            or model is None
            or not _external_data_follows(model, args.input, args.output, args.copy_external_data, report)
        ):
            return EXIT_INPUT
        _write(args.output, text, report)
        return report.status
    loaded = _load_lazy(args.input, binary, args.threshold, report)  # weights stay in their files
    if loaded is None:
        return EXIT_INPUT
    if weights == "external":
        return _print_external(*loaded, args, report, width)
    return _print_digest(*loaded, args, report, width)


def _print_digest(
    model: ModelProto, sources: TensorSources, args: argparse.Namespace, report: _Reporter, width: int
) -> int:
    """``print --weights digest``: large tensors as digests, computed on memory maps."""
    from onnxtext.weights.digest import DIGEST_HEADER, digest_view

    with _progress("digest", model, sources) as progress:
        # external data never read: the text must not depend on whether the files can be found (git textconv)
        view = digest_view(
            model, args.threshold, progress=progress, sources=sources, in_place=True, read_external=False
        )
    _note_unread(sources, args.input, report)
    text = _to_text(view, args.input, report, width)
    if text is None:
        return EXIT_INPUT
    _write(args.output, DIGEST_HEADER + text, report)
    return report.status


def _print_external(
    model: ModelProto, sources: TensorSources, args: argparse.Namespace, report: _Reporter, width: int
) -> int:
    """``print --weights external``: text and sidecar ``OUT.data`` (both written atomically).

    Weights are never loaded: a binary input is read with its large ``raw_data`` left in
    the file (:func:`onnxtext.weights.wire.load_lazy`), and both those and the input's own
    external data are copied file to file into the sidecar."""
    from onnxtext.weights.digest import ProgressBar
    from onnxtext.weights.external import ExternalDataError
    from onnxtext.weights.sidecar import plan_external, write_sidecar

    sidecar = os.path.basename(args.output) + ".data"
    try:
        plan = plan_external(model, sidecar, args.threshold, in_place=True, sources=sources)
    except ExternalDataError as exc:
        report.diagnostics(exc.diagnostics)
        return EXIT_INPUT
    text = _to_text(plan.model, args.input, report, width)  # before writing anything
    if text is None:
        return EXIT_INPUT
    if plan.pieces:
        target = os.path.join(os.path.dirname(os.path.abspath(args.output)), sidecar)
        try:
            with ProgressBar("writing " + sidecar, plan.size) as progress:
                write_sidecar(target, plan.pieces, progress=progress)
        except ExternalDataError as exc:
            report.diagnostics(exc.diagnostics)
            return EXIT_INPUT
    _write(args.output, text, report)
    return report.status
