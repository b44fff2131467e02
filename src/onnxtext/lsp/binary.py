"""Binary models in the editor: a ``.onnx`` file shown as text, and the text saved back.

A model small enough is shown with every weight and can be edited and saved; a larger
one is shown with its large tensors as digests (sha256 and statistics), read-only, so
that opening a 2 GB model never freezes the editor. Saving a text nobody changed writes
the original bytes back untouched (a model the text round-trips byte for byte anyway,
but a file written by another tool may order its fields differently).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from dataclasses import dataclass

from google.protobuf.message import DecodeError

from onnxtext.diagnostics import Diagnostic, OnnxTextError
from onnxtext.document import parse_document
from onnxtext.io import load_bytes, model_bytes, read_bytes, write_atomic
from onnxtext.proto import ModelProto
from onnxtext.syntax.format import NotRepresentable, to_text
from onnxtext.weights.external import FileRange

__all__ = ["BinaryView", "SaveResult", "open_binary", "save_binary", "save_refusal", "digest_view_diagnostics", "EDIT_LIMIT", "DIGEST_THRESHOLD"]

EDIT_LIMIT = 64 * 2**20
"""Models up to this many bytes open with every weight, editable."""
DIGEST_THRESHOLD = 1024
"""In the read-only view of a larger model, tensors above this many bytes are digests."""


@dataclass(frozen=True)
class BinaryView:
    """The text of a binary model; ``editable`` is False for a digest view (``note`` says why)."""

    text: str
    editable: bool
    note: str | None
    digest: str
    """SHA-256 of the file's bytes when it was opened (to tell whether the file changed since)."""


@dataclass(frozen=True)
class SaveResult:
    written: bool
    unchanged: bool
    diagnostics: list[Diagnostic]


def open_binary(path: str, *, edit_limit: int = EDIT_LIMIT) -> BinaryView:
    """The text of the binary model at ``path``; raises :class:`OnnxTextError` with a reason (without
    the path: the editor names the file once, beside the reason)."""
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise OnnxTextError(f"cannot read: {exc.strerror or exc}") from None
    if size > edit_limit:
        return _digest_view(path, size, edit_limit)
    try:
        data = read_bytes(path)
        model = load_bytes(data)
    except OSError as exc:
        raise OnnxTextError(f"cannot read: {exc.strerror or exc}") from None
    except DecodeError:
        raise OnnxTextError("not a valid binary ONNX model (the bytes do not decode as a ModelProto)") from None
    try:
        text = to_text(model)
    except NotRepresentable as exc:
        raise OnnxTextError(f"cannot be shown as text: {exc}") from None
    return BinaryView(text, True, None, hashlib.sha256(data).hexdigest())


def _digest_view(path: str, size: int, limit: int) -> BinaryView:
    from onnxtext.weights.digest import DIGEST_HEADER, digest_view
    from onnxtext.weights.external import TensorSources
    from onnxtext.weights.wire import WireError, load_lazy

    try:
        model, lazy = load_lazy(path, DIGEST_THRESHOLD)
    except (OSError, WireError, DecodeError) as exc:
        raise OnnxTextError(f"not a readable binary ONNX model ({exc})") from None
    sources = TensorSources(os.path.dirname(os.path.abspath(path)), source=path, lazy=lazy)
    view = digest_view(model, DIGEST_THRESHOLD, sources=sources, in_place=True)
    try:
        text = DIGEST_HEADER + to_text(view)
    except NotRepresentable as exc:
        raise OnnxTextError(f"cannot be shown as text: {exc}") from None
    note = (
        f"{size / 2**20:.0f} MB is more than the {limit / 2**20:.0f} MB an editable view holds: tensors above "
        f"{DIGEST_THRESHOLD} bytes are shown as digests and the view is read-only "
        "(to edit, use 'onnxtext print --weights external')"
    )
    return BinaryView(text, False, note, _file_digest(path))


def _file_digest(path: str) -> str:
    """SHA-256 hex of a whole file, read in chunks."""
    return FileRange(Path(path), 0, os.path.getsize(path)).sha256().hex()


def save_binary(text: str, path: str, *, opened: BinaryView | None = None) -> SaveResult:
    """Write the model of ``text`` to ``path`` atomically; nothing is written on errors.

    When ``text`` is the text ``opened`` gave and the file is still what was opened, the
    file is left as it is (``unchanged``): its bytes stay identical.
    """
    if opened is not None and text == opened.text and os.path.exists(path) and _file_digest(path) == opened.digest:
        return SaveResult(False, True, [])
    if opened is not None and not opened.editable:
        raise OnnxTextError("a digest view cannot be saved as a model: its large tensors are not in the text")
    doc = parse_document(text, "model", path)
    if not doc.ok or not isinstance(doc.proto, ModelProto):
        return SaveResult(False, False, list(doc.diagnostics))
    try:
        write_atomic(path, model_bytes(doc.proto))
    except OSError as exc:
        raise OnnxTextError(f"not saved: cannot write: {exc.strerror or exc}") from None
    return SaveResult(True, False, list(doc.diagnostics))


def save_refusal(result: SaveResult) -> str | None:
    """Why a text was not saved, once: ``not saved: line 4: unknown operator …`` (its first error);
    None when it was saved (or left unchanged)."""
    if result.written or result.unchanged:
        return None
    errors = [d for d in result.diagnostics if d.is_error] or result.diagnostics
    if not errors:
        return "not saved: the text is not a valid model"
    first = errors[0]
    where = f"line {first.span.start.line}: " if first.span is not None else ""
    return f"not saved: {where}{first.message}"


def digest_view_diagnostics(diags: list[Diagnostic]) -> list[Diagnostic]:
    """A read-only digest view's diagnostics without the ones its digests cause: each digest
    is a tensor without data (L002 at the digest, E501 on its line), which the view says anyway."""
    from onnxtext.lowering.lower import BAD_TENSOR

    digest_lines = {d.span.start.line for d in diags if d.code == BAD_TENSOR and d.span is not None}
    return [
        d for d in diags
        if d.code != BAD_TENSOR and not (d.code == "E501" and d.span is not None and d.span.start.line in digest_lines)
    ]
