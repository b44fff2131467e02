"""The ``onnxtext`` command: parse, print and fmt.

Exit status: 0 success, 1 bad input (any error diagnostic, unreadable file, invalid
binary model, a model no text can express), 2 bad usage. Diagnostics go to stderr as
``path:line:col: error[CODE]: message`` with the source line and a caret. Outputs are
written atomically: an input with errors never creates or touches an output file.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

from google.protobuf.message import DecodeError

from onnxtext._version import __version__
from onnxtext.diagnostics import Diagnostic, OnnxTextError, Severity, as_error
from onnxtext.diagnostics.render import diagnostic_json, render_diagnostic, sarif_log
from onnxtext.io import STDIO, control_bytes, is_binary_path, load_bytes, looks_like_text, model_bytes, read_bytes, write_atomic
from onnxtext.project import SettingsError, check_width, find_settings
from onnxtext.syntax.layout import DEFAULT_WIDTH
from onnxtext.proto import ModelProto

if TYPE_CHECKING:
    from onnxtext.weights.external import TensorSources

__all__ = ["main", "build_parser"]

PROG = "onnxtext"
EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2
DEFAULT_THRESHOLD = 1024  # print/diff --threshold: bytes above which a tensor goes to the sidecar or a digest


class _Reporter:
    """Writes diagnostics and messages to stderr and remembers whether anything failed."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.failed = False
        self.warnings_are_errors = False
        """``--strict`` / ``-W error``: every warning is reported, and fails, as an error."""

    def diagnostics(self, diags: Sequence[Diagnostic], *, file: str | None = None) -> None:
        """Render ``diags``; ``file`` heads those without a source (a binary model's)."""
        for diag in diags:
            if self.warnings_are_errors:
                diag = as_error(diag)
            self.failed |= diag.is_error
            print(render_diagnostic(diag, file=file), file=self.stream)

    def error(self, where: str, message: str) -> None:
        self.failed = True
        print(f"{where}: error: {message}", file=self.stream)

    def note(self, message: str) -> None:
        print(message, file=self.stream)

    @property
    def status(self) -> int:
        return EXIT_INPUT if self.failed else EXIT_OK


# ---------------------------------------------------------------- shared helpers


def _display(path: str) -> str:
    return "<stdin>" if path == STDIO else path


def _read(path: str, report: _Reporter) -> bytes | None:
    try:
        return read_bytes(path)
    except OSError as exc:
        report.error(_display(path), f"cannot read: {exc.strerror or exc}")
        return None


def _decode(data: bytes, path: str, report: _Reporter) -> str | None:
    """The text of a file that should be text; a binary model is named as one, not parsed."""
    if not looks_like_text(data):
        if _is_binary_model(data):
            report.error(_display(path), "this is a binary ONNX model, not a text; use 'onnxtext print' to see it as text")
            return None
        controls = control_bytes(data)
        if controls >= 8:  # a binary file: one message, not one per control byte
            report.error(_display(path), f"this is a binary file, not a text ({controls} control bytes in its first 64 KiB)")
            return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        report.error(_display(path), f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})")
        return None


def _is_binary_model(data: bytes) -> bool:
    """True if ``data`` decodes as a ModelProto with a graph or an opset import (not just any protobuf)."""
    try:
        model = load_bytes(data)
    except DecodeError:
        return False
    return model.HasField("graph") or len(model.opset_import) > 0


def _read_text(path: str, report: _Reporter) -> str | None:
    data = _read(path, report)
    return None if data is None else _decode(data, path, report)


def _parse_model_text(text: str, path: str, report: _Reporter) -> ModelProto | None:
    """The model of a text, or None after reporting its errors; warnings are reported too."""
    from onnxtext.api import read_text_model  # the one loader: the fast path, else the reference path

    model, diagnostics = read_text_model(text, _display(path))
    failed = report.failed
    report.diagnostics(diagnostics)
    if report.failed > failed or model is None:
        return None
    return model


def _load_model(path: str, binary: bool, report: _Reporter) -> ModelProto | None:
    """Read a binary or text model, reporting every problem; None if it cannot be had."""
    data = _read(path, report)
    if data is None:
        return None
    if not binary:
        text = _decode(data, path, report)
        return None if text is None else _parse_model_text(text, path, report)
    return _decode_binary(data, path, report)


def _decode_binary(data: bytes, path: str, report: _Reporter) -> ModelProto | None:
    """The model of a binary file's bytes, or None after saying why not (a text is named as one)."""
    if not data:
        report.error(_display(path), "empty file: not a binary ONNX model")
        return None
    from onnxtext.api import read_model  # the one loader

    try:
        return read_model(data, path, binary=True)
    except DecodeError as exc:
        if looks_like_text(data):
            where = "'-' is read as binary; for a text give its file name" if path == STDIO else "name it .onnxtxt"
            report.error(_display(path), f"this is a text, not a binary ONNX model ({where}; 'onnxtext parse' makes a binary of it)")
            return None
        hint = " ('-' is read as binary; for a text give its file name)" if path == STDIO else ""
        detail = str(exc).rsplit(": ", 1)[-1] or "cannot be decoded"  # drop the internal type name
        report.error(_display(path), f"not a valid binary ONNX model ({detail}){hint}")
        return None


def _write(path: str, data: bytes | str, report: _Reporter) -> bool:
    """Write to a file atomically, or to stdout for ``-``."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if path == STDIO:
        sys.stdout.flush()
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
        return True
    try:
        write_atomic(path, payload)
    except OSError as exc:
        report.error(path, f"cannot write: {exc.strerror or exc}")
        return False
    return True


def _names_are_text(model: ModelProto, path: str, what: str, report: _Reporter) -> bool:
    """False (reported) if a string field of a binary model holds bytes that are not UTF-8:
    names, operators and domains are text to every command."""
    from onnxtext.printing.text import NotRepresentable, check_printable

    try:
        check_printable(model, unknown_fields=False)
    except NotRepresentable as exc:
        report.error(_display(path), f"cannot be {what}: {exc}")
        return False
    return True


def _to_text(model: ModelProto, path: str, report: _Reporter, width: int = DEFAULT_WIDTH) -> str | None:
    from onnxtext.printing.text import NotRepresentable, to_text

    try:
        return to_text(model, width)
    except NotRepresentable as exc:
        report.error(_display(path), f"cannot be printed as text: {exc}")
        return None


# ---------------------------------------------------------------- subcommands


def cmd_parse(args: argparse.Namespace, report: _Reporter) -> int:
    """Text → binary model."""
    report.warnings_are_errors = args.strict or args.warnings == "error"
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


def _external_data_follows(model: ModelProto, source: str, output: str, copy: bool, report: _Reporter) -> bool:
    """External-data locations are relative to the model file: writing it to another folder
    would break them. With ``copy`` the files are copied next to the output, else refused."""
    from onnxtext.weights.external import ExternalDataError
    from onnxtext.weights.relocate import copy_external_files, unresolved_locations

    if STDIO in (source, output):
        return True
    source_dir = os.path.dirname(os.path.abspath(source))
    output_dir = os.path.dirname(os.path.abspath(output))
    broken = unresolved_locations(model, source_dir, output_dir)
    if not broken:
        return True
    if not copy:
        names = ", ".join(repr(b) for b in broken[:3]) + (f" and {len(broken) - 3} more" if len(broken) > 3 else "")
        report.error(_display(source), f"the model keeps tensors in external data files relative to its folder ({names}), "
                                       f"which would not be found next to {output}; write the output into "
                                       f"{source_dir or '.'}, or give --copy-external-data to copy the files next to it")
        return False
    try:
        for path in copy_external_files(broken, source_dir, output_dir):
            report.note(f"copied {path}")
    except ExternalDataError as exc:
        report.diagnostics(exc.diagnostics, file=_display(source))
        return False
    return True


def cmd_print(args: argparse.Namespace, report: _Reporter) -> int:
    """Binary (or text) model → canonical text; weights inline, in a sidecar or as digests."""
    weights = getattr(args, "weights", "inline")
    if weights == "external" and args.output == STDIO:
        report.error(PROG, "--weights external writes a sidecar next to the output: give -o OUT.onnxtxt")
        return EXIT_USAGE
    binary = args.input == STDIO or is_binary_path(args.input)
    width = _line_width(args, "." if args.output == STDIO else args.output, report)
    if width is None:
        return EXIT_USAGE
    if weights == "inline":
        model = _load_model(args.input, binary, report)
        text = None if model is None else _to_text(model, args.input, report, width)
        if text is None or model is None or not _external_data_follows(model, args.input, args.output, args.copy_external_data, report):
            return EXIT_INPUT
        _write(args.output, text, report)
        return report.status
    loaded = _load_lazy(args.input, binary, args.threshold, report)  # weights stay in their files
    if loaded is None:
        return EXIT_INPUT
    if weights == "external":
        return _print_external(*loaded, args, report, width)
    return _print_digest(*loaded, args, report, width)


def _print_digest(model: ModelProto, sources: TensorSources, args: argparse.Namespace, report: _Reporter, width: int) -> int:
    """``print --weights digest``: large tensors as digests, computed on memory maps."""
    from onnxtext.weights.digest import DIGEST_HEADER, digest_view

    with _progress("digest", model, sources) as progress:
        # external data never read: the text must not depend on whether the files can be found (git textconv)
        view = digest_view(model, args.threshold, progress=progress, sources=sources, in_place=True, read_external=False)
    _note_unread(sources, args.input, report)
    text = _to_text(view, args.input, report, width)
    if text is None:
        return EXIT_INPUT
    _write(args.output, DIGEST_HEADER + text, report)
    return report.status


def _note_unread(sources: TensorSources, path: str, report: _Reporter) -> None:
    """One note for the tensors whose external data could not be read (kept as references)."""
    n = len(sources.problems)
    if n:
        report.note(f"{_display(path)}: note: the external data of {n} tensor{'s' if n != 1 else ''} "
                    "could not be read; shown as references")


def _progress(label: str, model: ModelProto, sources: TensorSources | None = None) -> Any:
    from onnxtext.weights.external import iter_tensors, tensor_nbytes
    from onnxtext.weights.digest import ProgressBar

    size = sources.nbytes if sources is not None else tensor_nbytes
    return ProgressBar(label, sum(size(r.tensor) for r in iter_tensors(model)))


def _load_weights(model: ModelProto, path: str, report: _Reporter) -> ModelProto | None:
    """The model with its external data read in from the input's folder (``run`` needs
    the values); every problem is reported and the result is then None."""
    from onnxtext.weights.external import ExternalDataError, is_external, iter_tensors, load_external

    if not any(is_external(r.tensor) for r in iter_tensors(model)):
        return model
    if path == STDIO:
        report.error("<stdin>", "the model refers to external data, which cannot be found from stdin; give its file name")
        return None
    with _progress("reading weights", model) as progress:
        try:
            return load_external(model, os.path.dirname(os.path.abspath(path)), source=path, progress=progress)
        except ExternalDataError as exc:
            report.diagnostics(exc.diagnostics)
            return None


def _print_external(model: ModelProto, sources: TensorSources, args: argparse.Namespace, report: _Reporter, width: int) -> int:
    """``print --weights external``: text and sidecar ``OUT.data`` (both written atomically).

    Weights are never loaded: a binary input is read with its large ``raw_data`` left in
    the file (:func:`onnxtext.weights.wire.load_lazy`), and both those and the input's own
    external data are copied file to file into the sidecar."""
    from onnxtext.weights.external import ExternalDataError
    from onnxtext.weights.sidecar import plan_external, write_sidecar
    from onnxtext.weights.digest import ProgressBar

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


def _load_lazy(path: str, binary: bool, threshold: int, report: _Reporter) -> tuple[ModelProto, TensorSources] | None:
    """The model and where its weights are (a :class:`~onnxtext.weights.external.TensorSources`),
    a binary file's large ``raw_data`` left unread. Input that the fast path cannot take
    (standard input, malformed bytes) goes through :func:`_load_model`, which reports."""
    from onnxtext.weights.external import TensorSources
    from onnxtext.weights.wire import WireError, load_lazy

    if path == STDIO:
        model = _load_model(path, binary, report)
        if model is None:
            return None
        return model, TensorSources(None, source="<stdin>")
    directory = os.path.dirname(os.path.abspath(path))
    if binary:
        try:
            model, lazy = load_lazy(path, threshold)
            return model, TensorSources(directory, source=path, lazy=lazy)
        except (OSError, WireError, DecodeError):
            pass  # reported by the ordinary load below
    model = _load_model(path, binary, report)
    if model is None:
        return None
    return model, TensorSources(directory, source=path)


_DIFF_LAZY = 1 << 16  # diff: tensors above this many bytes stay in their files


def cmd_diff(args: argparse.Namespace, report: _Reporter) -> int:
    """Semantic diff of two models (binary or text); 0 same, 1 different, 2 trouble.

    Weights are not loaded: large tensors stand as tokens of their content (equal bytes,
    equal tokens) and only those that differ are read, through memory maps."""
    from onnxtext.diff import diff_models
    from onnxtext.weights.external import ContentTokens
    from onnxtext.weights.digest import digest_view, token_values

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
        lines = difflib.unified_diff(texts[0].splitlines(keepends=True), texts[1].splitlines(keepends=True),
                                     fromfile=_display(args.a), tofile=_display(args.b))
        for line in lines:
            sys.stdout.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
        return 1
    changes = diff_models(a, b, values=token_values(tokens))
    for line in changes:
        print(line)
    return 1 if changes else EXIT_OK


def _line_width(args: argparse.Namespace, near: str, report: _Reporter) -> int | None:
    """``--line-width``, else ``[tool.onnxtext] line-width`` of the pyproject.toml nearest ``near``, else 100."""
    if args.line_width is not None:
        return int(args.line_width)
    try:
        return find_settings(near).line_width
    except SettingsError as exc:
        report.error(str(exc.path), exc.message)
        return None


def _width_arg(value: str) -> int:
    try:
        return check_width(int(value))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace("line-width", "--line-width")) from None


def cmd_fmt(args: argparse.Namespace, report: _Reporter) -> int:
    """Text → canonical text, in place (or checked, or shown as a diff)."""
    from onnxtext.printing.fmt import format_text

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


def _add_width(p: argparse.ArgumentParser) -> None:
    p.add_argument("--line-width", metavar="N", type=_width_arg, default=None,
                   help=f"wrap lines longer than N columns (default: [tool.onnxtext] line-width in the nearest "
                        f"pyproject.toml, else {DEFAULT_WIDTH})")


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


def cmd_run(args: argparse.Namespace, report: _Reporter) -> int:
    """Evaluate a model with the numpy evaluator and print (or save) its outputs."""
    from onnxtext.evaluate import EvaluationError, Evaluator
    from onnxtext.evaluate.summary import summarize
    from onnxtext.evaluate.inputs import InputError, build_feeds
    from onnxtext.document import parse_document

    binary = args.model == STDIO or is_binary_path(args.model)
    doc = None
    if binary:
        model = _load_model(args.model, True, report)
        if model is not None and not _names_are_text(model, args.model, "run", report):
            return EXIT_INPUT
    else:
        text = _read_text(args.model, report)
        if text is None:
            return EXIT_INPUT
        doc = parse_document(text, "model", _display(args.model))
        report.diagnostics(doc.diagnostics)
        model = doc.proto if doc.ok and isinstance(doc.proto, ModelProto) else None
    if model is None:
        return EXIT_INPUT
    model = _load_weights(model, args.model, report)  # external data, checked like print's
    if model is None:
        return EXIT_INPUT
    try:
        evaluator = Evaluator(model, seed=args.seed, max_memory=args.max_memory)
        declared = [(i.name, i.type if i.HasField("type") else None)
                    for i in model.graph.input if i.name in evaluator.input_names]
        feeds = build_feeds(args.inputs, declared)
        on_trace = None
        if args.trace:
            print("trace:")
            on_trace = _trace_line
        outputs = evaluator.run(None, feeds, trace_all=on_trace)
    except InputError as exc:
        report.error(_display(args.model), str(exc))
        return EXIT_INPUT
    except EvaluationError as exc:
        _report_run_error(exc, model, doc, args.model, report)
        return EXIT_INPUT
    if args.trace:
        print("outputs:")
    for name, value in zip(evaluator.output_names, outputs, strict=True):
        print(summarize(name, value, values=True))
    _check_outputs(model, outputs, doc, args.model, report, evaluator.declared_mismatches)
    if args.output_dir is not None:
        _save_outputs(args.output_dir, evaluator.output_names, outputs, report)
    return report.status


def _check_outputs(
    model: ModelProto, outputs: Sequence[Any], doc: Any, path: str, report: _Reporter, inside: Mapping[Any, str]
) -> None:
    """An error (R003) for each output whose value contradicts its declared type: runtimes
    refuse such a model, so the text must not pass for right because the evaluator ran it.
    A warning (R003) for each declaration inside a subgraph that a run of the body contradicted
    (``inside``: the evaluator's ``declared_mismatches``): runtimes warn about those."""
    from onnxtext.diagnostics import Diagnostic, Severity
    from onnxtext.evaluate.declared import OUTPUT_MISMATCH, output_mismatches
    from onnxtext.ir.paths import ProtoPath

    outputs_path = ProtoPath.parse("graph")
    found = [(outputs_path.child("output", index), Severity.ERROR, message) for index, message in output_mismatches(model, outputs)]
    found += [(ProtoPath.parse(str(where)), Severity.WARNING, message) for where, message in inside.items()]
    diags = []
    for where, severity, message in found:
        span = doc.source_map.locate(where) if doc is not None else None
        if span is not None:
            diags.append(Diagnostic.at(OUTPUT_MISMATCH, severity, message, span, doc.source))
        else:
            diags.append(Diagnostic(OUTPUT_MISMATCH, severity, message, path=str(where)))
    report.diagnostics(diags, file=_display(path))


def _trace_line(graph: Any, name: str, index: int, value: Any) -> None:
    """One ``--trace`` line: ``[3] y: float32[2] ...`` in the main graph, the graph's path before it elsewhere."""
    from onnxtext.evaluate.summary import summarize

    where = f"{index}" if str(graph) == "graph" else str(graph.child("node", index))
    print(f"  [{where}] {summarize(name, value, values=False)}")


def _report_run_error(exc: Any, model: ModelProto, doc: Any, path: str, report: _Reporter) -> None:
    """An evaluation error as its R002 diagnostic: at the node in a text, at a readable path in a binary model."""
    if doc is not None:
        diag = exc.diagnostic(model=model, source_map=doc.source_map, source=doc.source)
    else:
        diag = exc.diagnostic(model=model)
    report.diagnostics([diag], file=_display(path))
    from onnxtext.evaluate.errors import OVER_BUDGET

    if exc.record.kind == OVER_BUDGET:
        report.note("  help: give more with --max-memory SIZE (e.g. --max-memory 16G)")


def _save_outputs(directory: str, names: Sequence[str], outputs: Sequence[Any], report: _Reporter) -> None:
    import io
    import re

    import numpy as np

    from onnxtext.evaluate.interop import to_internal

    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        report.error(directory, f"cannot create directory: {exc.strerror or exc}")
        return
    used: set[str] = set()
    for name, value in zip(names, outputs, strict=True):
        if not isinstance(value, np.ndarray):
            report.note(f"note: output {name!r} is not a tensor ({type(value).__name__}); not written")
            continue
        stem = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".") or "output"
        base, k = stem, 1
        while stem.lower() in used:
            stem, k = f"{base}_{k}", k + 1
        used.add(stem.lower())
        arr = value.astype(str) if value.dtype == object else to_internal(value)
        if arr.dtype != value.dtype and value.dtype != object:  # .npy has no bfloat16, float8, int4...
            report.note(f"note: output {name!r} ({value.dtype.name}) is written as {arr.dtype.name}, which holds " "its values exactly")
        buf = io.BytesIO()
        np.save(buf, arr, allow_pickle=False)
        target = os.path.join(directory, stem + ".npy")
        if _write(target, buf.getvalue(), report):
            print(f"wrote {target}")


# ---------------------------------------------------------------- check and rules


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


def _codes(value: str) -> list[str]:
    from onnxtext.analysis.check import code_list  # imported on use: the checker is heavy for other commands

    return code_list(value)


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
            print(f"{errors} error(s), {warnings} warning(s)" + (f", {notes} note(s)" if notes else ""), file=sys.stderr)
    return EXIT_INPUT if failed else EXIT_OK


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


def cmd_rules(args: argparse.Namespace, report: _Reporter) -> int:
    """List every diagnostic code: parsing, lowering, the checker's rules, external data, runs."""
    from onnxtext.analysis.check import CODES

    for c in CODES.values():
        print(f"{c.code}  {c.severity.value:<7}  {c.name:<28}  {c.description}")
    return EXIT_OK


# ---------------------------------------------------------------- argument parsing

_DESCRIPTION = """\
onnxtext: a lossless text format for ONNX models.

Convert between text (.onnxtxt) and binary (.onnx) models and format texts.
Diagnostics are printed as path:line:col: error[CODE]: message.
Exit status: 0 success, 1 input errors, 2 usage errors."""

_EPILOG = """examples:
  onnxtext parse examples/mlp.onnxtxt -o mlp.onnx
  onnxtext print mlp.onnx
  onnxtext fmt --check examples/*.onnxtxt

'onnxtext COMMAND --help' describes a command."""

_PARSE_HELP = """\
Parse an onnxtext text and write the binary ONNX model (deterministic protobuf).
Nothing is written if the text has any error.

Tensor literals that do not fit their type but that onnx.parser accepts (a value
count other than the shape's, an integer out of range for an int8/uint8/int16/
uint16/bool/uint32/uint64 or a 16/8-bit float's bit pattern) are stored as written,
exactly as onnx.parser stores them, with a warning (L008); 'onnxtext check' reports
such a tensor as an error. --strict (or -W error) refuses them.

External data locations are relative to the model file: an OUT in another folder than
IN is refused when the model refers to external data files, unless
--copy-external-data copies them next to OUT (same relative names).

example:
  onnxtext parse examples/mlp.onnxtxt -o mlp.onnx
  cat model.onnxtxt | onnxtext parse - -o - > model.onnx"""

_PRINT_HELP = """\
Print a binary ONNX model (.onnx, .pb; '-' reads binary from stdin) as onnxtext
text; a text file is parsed and printed in canonical form.

Weights: --weights inline (default) writes every value; --weights external moves
tensors above --threshold bytes to OUT.data next to OUT (the text refers to it and
parses back to the same references); --weights digest shows them as sha256 and
statistics, a text for reading and diffing only (it does not parse back). Both leave
the weights in their files: the sidecar is filled by file-to-file copies and digests
are computed on memory maps, so gigabytes of weights take the time of a file copy.

example:
  onnxtext print mlp.onnx -o mlp.onnxtxt
  onnxtext print big.onnx --weights external -o big.onnxtxt   # + big.onnxtxt.data
  onnxtext print big.onnx --weights digest | less"""

_DIFF_HELP = """\
Compare two models (binary or text) by names: header and opsets, graph inputs and
outputs, initializers (dtype, shape, values: changed elements and max abs diff),
nodes aligned by their output names (op, inputs, attributes; renaming or reordering
nodes is not a change), functions. One line per change:
  ~ node 'y' (Relu → LeakyRelu)      + initializer 'b' float[10]      - input 'm' bool[N]
Exit status: 0 same, 1 different, 2 trouble (like diff(1)). Large weights are
compared by SHA-256 without loading them; only those that differ are read (mmap).

example:
  onnxtext diff old.onnx new.onnx
  onnxtext diff --unified old.onnx new.onnxtxt"""

_FMT_HELP = """\
Reformat onnxtext texts in the canonical style, in place; comments are kept.
With --check or --diff no file is changed. '-' formats stdin to stdout.

example:
  onnxtext fmt examples/*.onnxtxt
  onnxtext fmt --check --diff model.onnxtxt"""


_RUN_HELP = """\
Evaluate a model (binary .onnx/.pb or text) with the numpy reference evaluator and
print each output's dtype, shape and statistics. Runtime errors point at the node
in the text. An output whose value contradicts its declared type (element type,
rank, a size, a symbol N of two sizes) is an error (R003) at its declaration: runtimes
refuse such a model. A value declared inside a subgraph (a Loop, Scan or If body)
that some run of the body contradicts is a warning (R003) at its declaration.

VALUE of --input is a .npy file, a .pb TensorProto file, or a JSON literal cast to
the input's declared type: 3.5, [[1, 2], [3, 4]], ["a", "b"], {"1": 0.5} for a map,
a list for a sequence, null for an empty optional.

Memory: nodes whose output size comes from input values (ConstantOfShape, Expand,
Tile, Range, OneHot, Resize, Pad, broadcasting arithmetic, Loop scan outputs) are
sized before they run; one that would exceed --max-memory (default: half the
physical memory) is an error at its node, before anything is allocated.

example:
  onnxtext run examples/mlp.onnxtxt --input 'X=[[1, 2, 3, 4]]'
  onnxtext run model.onnx --input x=x.npy --output-dir out/ --trace"""

_CHECK_HELP = """\
Check models (text or binary .onnx/.pb) against the rules of the ONNX IR spec:
versions and opset imports, single assignment and topological order, operators,
arity and attributes against the operator schemas, functions, tensor data.
Exit status 1 if any error is found (warnings do not fail).

--select and --ignore take comma-separated code prefixes (E3 = every node rule,
W = every warning); 'onnxtext rules' lists the codes.

example:
  onnxtext check examples/*.onnxtxt
  onnxtext check model.onnx --ignore W201 --format sarif > check.sarif"""

_GRAPH_HELP = """\
Write the data-flow graph of a model (text or binary .onnx/.pb) to OUT, the format from
its extension: .dot (Graphviz), .svg (laid out, standalone) or .html (one offline page:
the editor's graph view with folding, zoom and search). Groups fold subgraphs, local
functions and the layers exporters record (torch's /encoder/layer.0/... names, the dynamo
exporter's name scopes); a big model's SVG is drawn folded to its top groups. A damaged
text still gives a graph: its errors are reported (exit status 1) and OUT is written.

example:
  onnxtext graph examples/mlp.onnxtxt -o mlp.svg
  onnxtext graph model.onnx -o model.html"""

_LSP_HELP = """\
Run the onnxtext language server (Language Server Protocol over stdio) for editors:
live diagnostics from the parser and the checker as you type, quick fixes, formatting.
Point any LSP client at the command 'onnxtext lsp'. The VS Code extension (editors/vscode)
starts it itself; it finds 'onnxtext' on PATH, in the workspace's .venv or through the
setting onnxtext.server.path.

example:
  onnxtext lsp                      # stdio, what editors use
  onnxtext lsp --tcp 127.0.0.1:2087 # a TCP port, to attach a client by hand"""


def _memory_size(value: str) -> int:
    from onnxtext.evaluate.budget import parse_size

    try:
        size = parse_size(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if size <= 0:
        raise argparse.ArgumentTypeError("the memory budget must be more than 0 bytes")
    return size


def _host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, e.g. 127.0.0.1:2087, not {value!r}")
    return host.strip("[]"), int(port)


def cmd_lsp(args: argparse.Namespace, report: _Reporter) -> int:
    """Serve the Language Server Protocol until the client says exit."""
    try:
        from onnxtext.lsp.server import serve
    except ImportError as exc:  # pygls/lsprotocol missing from a hand-made environment
        report.error(PROG, f"the language server needs pygls and lsprotocol ({exc.name} is missing): pip install " "'pygls>=2,<3' lsprotocol")
        return EXIT_INPUT
    try:
        serve(args.tcp)
    except OSError as exc:  # the port is taken, or the host is not this machine's
        host, port = args.tcp if args.tcp is not None else ("stdio", 0)
        report.error(PROG, f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        return EXIT_INPUT
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(prog=PROG, description=_DESCRIPTION, epilog=_EPILOG, formatter_class=formatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("parse", help="text -> binary .onnx", description=_PARSE_HELP, formatter_class=formatter)
    p.add_argument("input", metavar="IN", help="text model to read ('-' for stdin)")
    p.add_argument("-o", "--output", metavar="OUT", required=True, help="binary model to write ('-' for stdout)")
    p.add_argument("--strict", action="store_true",
                   help="treat warnings as errors: refuse tensor literals onnx.parser stores as written "
                        "(a value count that does not match the shape, an integer out of range for its type)")
    p.add_argument("-W", dest="warnings", choices=("error",), help="-W error: the same as --strict")
    p.add_argument("--copy-external-data", action="store_true",
                   help="when OUT is in another folder than IN, copy the external data files the model refers "
                        "to next to OUT (same relative names); without it such an OUT is refused")
    p.set_defaults(func=cmd_parse)

    p = sub.add_parser("print", help="binary .onnx -> text", description=_PRINT_HELP, formatter_class=formatter)
    p.add_argument("input", metavar="IN", help="model to read: binary .onnx/.pb, or text; '-' reads binary from stdin")
    p.add_argument("-o", "--output", metavar="OUT", default=STDIO, help="text file to write (default: stdout)")
    p.add_argument("--weights", choices=("inline", "external", "digest"), default="inline",
                   help="inline: every value in the text (default); external: tensors above --threshold go to "
                        "the sidecar OUT.data; digest: tensors above --threshold shown as sha256 + statistics "
                        "(for reading and diffing; not parseable)")
    p.add_argument("--threshold", metavar="BYTES", type=int,
                   help="size above which --weights external/digest applies to a tensor (default 1024)")
    p.add_argument("--copy-external-data", action="store_true",
                   help="(--weights inline) when OUT is in another folder than IN, copy the external data files "
                        "the model refers to next to OUT; without it such an OUT is refused")
    _add_width(p)
    p.set_defaults(func=cmd_print)

    p = sub.add_parser("diff", help="semantic diff of two models", description=_DIFF_HELP, formatter_class=formatter)
    p.add_argument("a", metavar="A", help="old model: binary .onnx/.pb or text")
    p.add_argument("b", metavar="B", help="new model: binary .onnx/.pb or text")
    p.add_argument("--unified", "-u", action="store_true",
                   help="a unified diff of the printed texts (tensors above --threshold as digests)")
    p.add_argument("--threshold", metavar="BYTES", type=int,
                   help="with --unified: size above which tensors are shown as digests (default 1024)")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("fmt", help="reformat texts in place", description=_FMT_HELP, formatter_class=formatter)
    p.add_argument("files", metavar="FILE", nargs="+", help="text files to format ('-' for stdin -> stdout)")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if any file would be reformatted")
    p.add_argument("--diff", action="store_true", help="change nothing; print a unified diff of the changes")
    _add_width(p)
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser("run", help="evaluate a model with numpy", description=_RUN_HELP, formatter_class=formatter)
    p.add_argument("model", metavar="MODEL", help="model to run: binary .onnx/.pb or text ('-' reads binary stdin)")
    p.add_argument("--input", "-i", dest="inputs", metavar="NAME=VALUE", action="append", default=[],
                   help="a graph input: .npy file, .pb TensorProto file or JSON literal (repeat per input)")
    p.add_argument("--output-dir", metavar="DIR", help="write each tensor output to DIR/NAME.npy")
    p.add_argument("--trace", action="store_true",
                   help="print every intermediate value: the main graph's, then subgraphs' and function bodies' with their path")
    p.add_argument("--seed", type=int, default=0, help="seed of random operators (default 0)")
    p.add_argument("--max-memory", metavar="SIZE", type=_memory_size, default=None,
                   help="memory budget, e.g. 2G or 512M (default: half the physical memory): a node whose output "
                        "would exceed it (ConstantOfShape, Expand, Tile, broadcasting, Loop scan outputs...) "
                        "is an error before anything is allocated")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("check", help="check models against the ONNX IR rules", description=_CHECK_HELP, formatter_class=formatter)
    p.add_argument("files", metavar="FILE", nargs="+", help="models to check: text, or binary .onnx/.pb")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text", help="output format (default: text)")
    p.add_argument("--select", metavar="CODES", type=_codes, help="only these rule codes or prefixes (comma-separated)")
    p.add_argument("--ignore", metavar="CODES", type=_codes, help="skip these rule codes or prefixes (comma-separated)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("graph", help="the model's graph as .dot, .svg or .html", description=_GRAPH_HELP, formatter_class=formatter)
    p.add_argument("input", metavar="MODEL", help="text or binary model to read ('-' for a binary on stdin)")
    p.add_argument("-o", "--output", metavar="OUT", required=True, help="file to write: .dot, .svg or .html")
    p.set_defaults(func=cmd_graph)

    p = sub.add_parser("lsp", help="run the language server (for editors)", description=_LSP_HELP, formatter_class=formatter)
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    p.add_argument("--tcp", metavar="HOST:PORT", type=_host_port, help="listen on a TCP port instead (for debugging)")
    p.set_defaults(func=cmd_lsp)

    p = sub.add_parser("rules", help="list every diagnostic code", description="List every diagnostic code (parsing P, lowering L, checker E/W, external data X, runs R): code, " "severity, name, description.")
    p.set_defaults(func=cmd_rules)
    for command_parser in sub.choices.values():  # usage errors found after parsing are said by the command's parser
        command_parser.set_defaults(command_parser=command_parser)
    return parser


def _usage_problem(args: argparse.Namespace) -> str | None:
    """A combination of options that means nothing (argparse checks each option alone)."""
    threshold = getattr(args, "threshold", None)
    if threshold is not None and threshold < 0:
        return "--threshold must be a number of bytes >= 0"
    if args.command == "print" and threshold is not None and args.weights == "inline":
        return "--threshold applies to --weights external or --weights digest; give one of them"
    if args.command == "diff" and threshold is not None and not args.unified:
        return "--threshold applies to --unified (the printed texts); give --unified"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # said by the command's own parser, with its own usage line
            args.command_parser.error(f"unrecognized arguments: {' '.join(extra)}")
        problem = _usage_problem(args)
        if problem is not None:
            args.command_parser.error(problem)
        if getattr(args, "threshold", 0) is None:
            args.threshold = DEFAULT_THRESHOLD
        if args.command == "run" and args.max_memory is None:
            from onnxtext.evaluate.budget import default_budget

            args.max_memory = default_budget()
    except SystemExit as exc:  # --help, --version (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    report = _Reporter()
    try:
        status: int = args.func(args, report)
    except BrokenPipeError:  # `onnxtext print m.onnx | head`: the reader left, not an error
        _silence_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except RecursionError:  # pathological nesting (deeper than protobuf itself allows)
        report.error(PROG, "input nested too deeply to process")
        return EXIT_INPUT
    except MemoryError:  # what no budget foresaw (run sizes nodes before they allocate: --max-memory)
        report.error(PROG, "out of memory")
        return EXIT_INPUT
    return status


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
