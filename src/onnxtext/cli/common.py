"""What the commands share: the reporter (diagnostics and messages to stderr, the exit
status), reading and decoding files, loading models (text or binary, weights left in their
files), writing atomically, printing as text, and the exit codes."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from google.protobuf.message import DecodeError

from onnxtext.diagnostics import Diagnostic, as_error
from onnxtext.diagnostics.render import render_diagnostic
from onnxtext.io import STDIO, control_bytes, load_bytes, looks_like_text, read_bytes, write_atomic
from onnxtext.project import SettingsError, find_settings
from onnxtext.proto import ModelProto
from onnxtext.syntax.layout import DEFAULT_WIDTH

if TYPE_CHECKING:
    from onnxtext.weights.external import TensorSources


PROG = "onnxtext"
EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2


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
            report.error(
                _display(path), "this is a binary ONNX model, not a text; use 'onnxtext print' to see it as text"
            )
            return None
        controls = control_bytes(data)
        if controls >= 8:  # a binary file: one message, not one per control byte
            report.error(
                _display(path), f"this is a binary file, not a text ({controls} control bytes in its first 64 KiB)"
            )
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
            report.error(
                _display(path),
                f"this is a text, not a binary ONNX model ({where}; 'onnxtext parse' makes a binary of it)",
            )
            return None
        hint = " ('-' is read as binary; for a text give its file name)" if path == STDIO else ""
        detail = str(exc).rsplit(": ", 1)[-1] or "cannot be decoded"  # drop the internal type name
        report.error(_display(path), f"not a valid binary ONNX model ({detail}){hint}")
        return None


def _write(path: str, data: bytes | str, report: _Reporter) -> bool:
    """Write to a file atomically, or to stdout for ``-``. A lone surrogate in ``data`` (a name the
    text wrote as ``"\\ud800"``, drawn in a graph; its diagnostic says it is no UTF-8) is written as ``?``."""
    payload = data.encode("utf-8", "replace") if isinstance(data, str) else data
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


def _output_is_input(args: argparse.Namespace, report: _Reporter) -> bool:
    """True (reported) when ``-o`` names the input file itself, for a command that converts (parse, print
    of a binary): writing there would replace the model read (a text by its binary, a binary by its text)."""
    if args.output == STDIO or args.input == STDIO:
        return False
    try:
        same = os.path.samefile(args.input, args.output)
    except OSError:  # the output does not exist yet (or the input cannot be read: said when it is read)
        return False
    if same:
        report.error(
            _display(args.output), "is the input file: writing it would replace the model read; give another -o"
        )
    return same


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
        report.error(
            _display(source),
            f"the model keeps tensors in external data files relative to its folder ({names}), "
            f"which would not be found next to {output}; write the output into "
            f"{source_dir or '.'}, or give --copy-external-data to copy the files next to it",
        )
        return False
    try:
        for path in copy_external_files(broken, source_dir, output_dir):
            report.note(f"copied {path}")
    except ExternalDataError as exc:
        report.diagnostics(exc.diagnostics, file=_display(source))
        return False
    return True


def _note_unread(sources: TensorSources, path: str, report: _Reporter) -> None:
    """One note for the tensors whose external data could not be read (kept as references)."""
    n = len(sources.problems)
    if n:
        report.note(
            f"{_display(path)}: note: the external data of {n} tensor{'s' if n != 1 else ''} "
            "could not be read; shown as references"
        )


def _progress(label: str, model: ModelProto, sources: TensorSources | None = None) -> Any:
    from onnxtext.weights.digest import ProgressBar
    from onnxtext.weights.external import iter_tensors, tensor_nbytes

    size = sources.nbytes if sources is not None else tensor_nbytes
    return ProgressBar(label, sum(size(r.tensor) for r in iter_tensors(model)))


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


def _line_width(args: argparse.Namespace, near: str, report: _Reporter) -> int | None:
    """``--line-width``, else ``[tool.onnxtext] line-width`` of the pyproject.toml nearest ``near``, else 100."""
    if args.line_width is not None:
        return int(args.line_width)
    try:
        return find_settings(near).line_width
    except SettingsError as exc:
        report.error(str(exc.path), exc.message)
        return None
