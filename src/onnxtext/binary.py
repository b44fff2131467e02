"""Binary models as text: a ``.onnx`` file shown as text and the text saved back (the editor's
``onnxtext/openBinary`` and ``saveBinary``; ``onnxtext graph`` reads a model by reference through it).

The view is decided by the size of the *text*: VS Code turns colours, folding and code
lenses off above 20 MB (or 300,000 lines) and refuses documents above 50 MB. A model whose
whole text fits :data:`TEXT_LIMIT` is shown with every weight; a larger one is shown with
its large tensors by reference (``["digest": "sha256:…"]``, :mod:`onnxtext.weights.byref`),
the structure editable: saving restores their bytes from the file (copied, byte for byte,
never loaded) and refuses a reference edited in the text. Saving a text nobody changed
writes nothing (a model the text round-trips byte for byte anyway, but a file written by
another tool may order its fields differently).

Every view carries the *stamp* of the files it was read from (:data:`Stamp`: the model file,
then each external-data file it names), so the editor can tell when the file on disk is no
longer what it shows. A view is read whole from one version of the file: the model file is
stat'ed before and after reading, and read again when it changed meanwhile.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from google.protobuf.message import DecodeError

from onnxtext.diagnostics import Diagnostic, OnnxTextError, Severity
from onnxtext.document import Document, parse_document
from onnxtext.io import load_bytes, model_bytes, read_bytes, write_atomic
from onnxtext.printing.text import NotRepresentable, to_text
from onnxtext.proto import ModelProto
from onnxtext.span import Span
from onnxtext.weights.byref import (
    TEXT_PER_BYTE,
    HeldChanged,
    HeldTensors,
    held_records,
    reference_view,
    restore_held,
    write_held,
)
from onnxtext.weights.external import ExternalDataError, FileRange, resolve_location
from onnxtext.weights.relocate import external_locations

__all__ = [
    "BinaryView",
    "SaveResult",
    "Stamp",
    "file_stamps",
    "open_binary",
    "save_binary",
    "save_refusal",
    "digest_view_diagnostics",
    "reference_view_diagnostics",
    "shown_diagnostics",
    "TEXT_LIMIT",
    "LINE_LIMIT",
    "INLINE_BUDGET",
    "HELD_EDITED",
    "runnable_model",
]

TEXT_LIMIT = 12 * 2**20
"""Characters of the largest text shown with every weight: safely below VS Code's 20 MB."""
LINE_LIMIT = 200_000
"""Lines of the largest text shown with every weight: safely below VS Code's 300,000."""
INLINE_BUDGET = 2**20
"""Characters the weights kept inline may take in a view by reference."""
HELD_EDITED = "X006"
"""A tensor shown by reference was edited in the text (its digest, record, type or shape)."""


Stamp = tuple[str, int, str, str]
"""A file as ``os.stat`` saw it: ``(absolute path, size, st_mtime_ns, st_ino)``, the last two as
decimal strings (nanoseconds and inode numbers do not fit a JSON number exactly). The VS Code
extension computes the same from ``fs.statSync(path, {bigint: true})`` and compares."""

_READS = 5
"""Reads of a model file that keeps changing before opening it is given up."""


@dataclass(frozen=True)
class BinaryView:
    """The text of a binary model; ``held`` is the data of the tensors shown by reference."""

    text: str
    editable: bool
    note: str | None
    digest: str
    """What the file was when opened (SHA-256 of its bytes; size, time and inode for a view
    by reference, which hashed its tensors already), to tell whether it changed since."""
    held: HeldTensors | None = None
    stamp: tuple[Stamp, ...] = ()
    """The files the view was read from (the model file first, then each external-data file it
    names that exists), as they were when read."""

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(s[0] for s in self.stamp)


@dataclass(frozen=True)
class SaveResult:
    written: bool
    unchanged: bool
    diagnostics: list[Diagnostic]
    view: BinaryView | None = None
    """After a write: the view of the new file (what the next save compares against; a view by
    reference's tensors moved)."""
    stamp: tuple[Stamp, ...] | None = None
    """The files as they are after a write or an unchanged save (the model file first); None when
    refused."""


def file_stamps(files: Iterable[str]) -> tuple[Stamp, ...]:
    """The :data:`Stamp` of each of ``files`` that exists (absolute paths, each once)."""
    stamps: dict[str, Stamp] = {}
    for file in files:
        path = os.path.abspath(file)
        if path in stamps:
            continue
        try:
            stamps[path] = _stamp_of(path, os.stat(path))
        except OSError:
            continue
    return tuple(stamps.values())


def _stamp_of(path: str, st: os.stat_result) -> Stamp:
    return (path, st.st_size, str(st.st_mtime_ns), str(st.st_ino))


def _model_files(path: str, model: ModelProto) -> list[str]:
    """The model file and every external-data file ``model`` names (resolved as a read resolves
    them; unsafe locations left out)."""
    folder = os.path.dirname(os.path.abspath(path))
    files = [os.path.abspath(path)]
    for location in external_locations(model):
        try:
            files.append(str(resolve_location(folder, location)))
        except ExternalDataError:
            continue
    return files


def open_binary(path: str, *, text_limit: int = TEXT_LIMIT, inline_budget: int = INLINE_BUDGET) -> BinaryView:
    """The text of the binary model at ``path``; raises :class:`OnnxTextError` with a reason (without
    the path: the editor names the file once, beside the reason)."""
    for _ in range(_READS):
        try:
            st = os.stat(path)
        except OSError as exc:
            raise OnnxTextError(f"cannot read: {exc.strerror or exc}") from None
        if not stat.S_ISREG(st.st_mode):  # a FIFO or a device: a read would block, or never end
            raise OnnxTextError("cannot read: not a regular file")
        before = _stamp_of(os.path.abspath(path), st)
        view, model = _read_view(path, st.st_size, text_limit, inline_budget)
        stamp = file_stamps(_model_files(path, model))
        if stamp[:1] == (before,):
            return replace(view, stamp=stamp)
    raise OnnxTextError("the file kept changing while it was read: open it again")


def _read_view(path: str, size: int, text_limit: int, inline_budget: int) -> tuple[BinaryView, ModelProto]:
    """The view of the file as it is now, and the model it shows (its stamp left to the caller)."""
    if size * TEXT_PER_BYTE <= text_limit:
        view, model = _full_view(path)
        if len(view.text) <= text_limit and view.text.count("\n") <= LINE_LIMIT:
            return view, model
    return _reference_view(path, size, text_limit, min(inline_budget, text_limit // 2))


def _full_view(path: str) -> tuple[BinaryView, ModelProto]:
    try:
        data = read_bytes(path)
        model = load_bytes(data)
    except OSError as exc:
        raise OnnxTextError(f"cannot read: {exc.strerror or exc}") from None
    except DecodeError:
        raise OnnxTextError("not a valid binary ONNX model (the bytes do not decode as a ModelProto)") from None
    return BinaryView(_text(path, model), True, None, hashlib.sha256(data).hexdigest()), model


def _text(path: str, model: ModelProto) -> str:
    try:
        return to_text(model)
    except NotRepresentable as exc:
        raise OnnxTextError(f"cannot be shown as text: {exc}") from None


def _reference_view(path: str, size: int, limit: int, budget: int) -> tuple[BinaryView, ModelProto]:
    from onnxtext.weights.wire import WireError

    try:
        stamp = _stamp(path)
        model, held = reference_view(path, budget)
    except OSError as exc:
        raise OnnxTextError(f"cannot read: {exc.strerror or exc}") from None
    except WireError as exc:
        raise OnnxTextError(f"not a valid binary ONNX model ({exc})") from None
    except DecodeError:
        raise OnnxTextError("not a valid binary ONNX model (the bytes do not decode as a ModelProto)") from None
    return BinaryView(_text(path, model), True, _reference_note(size, limit, held), stamp, held), model


def _reference_note(size: int, limit: int, held: HeldTensors) -> str:
    return (
        f"its text would be about {size * TEXT_PER_BYTE / 2**20:.0f} MB, more than the {limit / 2**20:.0f} "
        "MB an editor "
        f"colours and folds: {len(held)} large tensors are shown by reference (their digest). The structure is "
        "editable; saving copies their bytes from the file unchanged, and refuses an edited reference"
    )


def _stamp(path: str) -> str:
    """Size, modification time and inode of a file: changed when the file is rewritten."""
    st = os.stat(path)
    return f"stat:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def _file_digest(path: str) -> str:
    """SHA-256 hex of a whole file, read in chunks."""
    return FileRange(Path(path), 0, os.path.getsize(path)).sha256().hex()


def _identity(path: str, view: BinaryView) -> str:
    return _stamp(path) if view.held is not None else _file_digest(path)


def save_binary(text: str, path: str, *, opened: BinaryView | None = None) -> SaveResult:
    """Write the model of ``text`` to ``path`` atomically; nothing is written on errors.

    When ``text`` is the text ``opened`` gave and the file is still what was opened, the
    file is left as it is (``unchanged``): its bytes stay identical. A view by reference
    gets its held tensors back from the file (an edited reference is an ``X006`` error).
    """
    if opened is not None and text == opened.text and os.path.exists(path) and _identity(path, opened) == opened.digest:
        return SaveResult(False, True, [], stamp=file_stamps(opened.files or [path]))
    if opened is not None and not opened.editable:
        raise OnnxTextError("a digest view cannot be saved as a model: its large tensors are not in the text")
    held = opened.held if opened is not None else None
    doc = parse_document(text, "model", path)
    diags = reference_view_diagnostics(doc, held, list(doc.diagnostics)) if held is not None else list(doc.diagnostics)
    if any(d.is_error for d in diags) or not isinstance(doc.proto, ModelProto):
        return SaveResult(False, False, diags)
    if held is None:
        data = model_bytes(doc.proto)
        try:
            write_atomic(path, data)
        except OSError as exc:
            raise OnnxTextError(f"not saved: cannot write: {exc.strerror or exc}") from None
        stamp = file_stamps(_model_files(path, doc.proto))
        view = BinaryView(text, True, None, hashlib.sha256(data).hexdigest(), stamp=stamp)
        return SaveResult(True, False, diags, view, stamp)
    return _save_held(text, path, doc.proto, held, diags)


def _save_held(text: str, path: str, model: ModelProto, held: HeldTensors, diags: list[Diagnostic]) -> SaveResult:
    """Write a view by reference's model, its held tensors copied from the file (and checked
    against the digests the view showed: a change on disk that left them intact is saved over)."""
    problems = restore_held(model, held)
    if problems:  # reference_view_diagnostics reported them already
        return SaveResult(False, False, diags)
    try:
        moved = write_held(model, held, path)
    except (HeldChanged, ExternalDataError) as exc:
        raise OnnxTextError(f"not saved: {exc}") from None
    size = os.path.getsize(path)
    stamp = file_stamps(_model_files(path, model))
    view = BinaryView(text, True, _reference_note(size, TEXT_LIMIT, moved), _stamp(path), moved, stamp)
    return SaveResult(True, False, diags, view, stamp)


def runnable_model(view: BinaryView | None, diagnostics: list[Diagnostic], model: object) -> ModelProto | None:
    """The model of a view by reference as a run takes it: a copy of ``model`` (parsed from
    its text, with ``diagnostics``) whose tensors shown by reference refer to their bytes in
    the model file; None when ``view`` is no view by reference, or the text has errors or
    edited references (which saving reports)."""
    if view is None or view.held is None or not isinstance(model, ModelProto):
        return None
    if any(d.is_error for d in digest_view_diagnostics(diagnostics)):
        return None
    copy = ModelProto()
    copy.CopyFrom(model)
    return None if restore_held(copy, view.held, as_reference=True) else copy


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


def shown_diagnostics(
    view: BinaryView | None, doc: Document, diags: Iterable[Diagnostic], *, quick: bool = True
) -> list[Diagnostic]:
    """The diagnostics of a text as the editor publishes them (and as its graph and ``onnxtext
    graph`` mark the nodes): ``view`` is the view ``doc`` came from (None for a text file). A
    view by reference shows :func:`reference_view_diagnostics` (its references' own left out, an
    edited one flagged); any other text, all of them."""
    found = list(diags)
    if view is not None and view.held is not None:
        return reference_view_diagnostics(doc, view.held, found, quick=quick)
    return found


def digest_view_diagnostics(diags: list[Diagnostic]) -> list[Diagnostic]:
    """A digest view's diagnostics without the ones its digests cause: each digest is a
    tensor without data (L002 at the digest; on its line, the checker's E501, E503 and W501
    about its storage), which the view says anyway. Every other diagnostic stays."""
    from onnxtext.lowering.lower import BAD_TENSOR, DIGEST_RECORD

    def is_digest(d: Diagnostic) -> bool:
        return d.code == BAD_TENSOR and d.message.startswith(DIGEST_RECORD)

    digest_lines = {d.span.start.line for d in diags if is_digest(d) and d.span is not None}
    return [
        d
        for d in diags
        if not is_digest(d)
        and not (d.code in _STORAGE_CODES and d.span is not None and d.span.start.line in digest_lines)
    ]


def reference_view_diagnostics(
    doc: Document, held: HeldTensors, diags: list[Diagnostic], *, quick: bool = False
) -> list[Diagnostic]:
    """What a view by reference's text (``doc``, with ``diags``) shows: the digest records' own
    diagnostics left out (L002 at each record; the checker's E501, E503 and W501 inside the
    statement of a tensor shown by reference), and an ``X006`` error at each tensor whose record
    is the view's but edited (saving it would lose its weights), in place of the storage errors
    that edit causes. Any other diagnostic stays, on the same line too.
    Reads no file; ``quick`` (each version typed): as :func:`~onnxtext.weights.byref.held_records`."""
    from onnxtext.lowering.lower import BAD_TENSOR, DIGEST_RECORD

    model = doc.proto
    if not isinstance(model, ModelProto):
        return digest_view_diagnostics(diags)
    source_map, source = doc.source_map, doc.source
    shown, problems = held_records(model, held, quick=quick)
    edited = [(p, source_map.locate(p.path, p.token) if p.path is not None else None) for p in problems]
    spans = [source_map.locate(ref.path, ref.token) if ref.path is not None else None for ref in shown]
    # an edited one's storage errors too: its X006 says what they would (one diagnostic per mistake)
    references = sorted((s.start, s.end) for s in spans + [span for _, span in edited] if s is not None)
    kept = [
        d
        for d in diags
        if not (d.code == BAD_TENSOR and d.message.startswith(DIGEST_RECORD))
        and not (
            d.code in _STORAGE_CODES
            and d.span is not None
            and _inside(d.span.start.offset, d.span.end.offset, references)
        )
    ]
    for problem, span in edited:
        kept.append(Diagnostic.at(HELD_EDITED, Severity.ERROR, problem.message, span or Span(0, 0), source))
    return sorted(kept, key=lambda d: d.offset)


def _inside(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether ``[start, end)`` lies inside one of ``spans`` (sorted, not nested)."""
    at = bisect.bisect_right(spans, (start, float("inf"))) - 1
    return at >= 0 and spans[at][1] >= end


_STORAGE_CODES = frozenset({"E501", "E503", "W501"})
"""The checker's rules about where a tensor's data is, which a digest record breaks."""
