"""The language server: pygls's ``LanguageServer`` over the editor's host (``onnxtext.host``).

The host holds every open document, its analyses and the worker; this class only converts: the
client's notifications become :class:`~onnxtext.host.change.Change` values (``convert.change_of``,
made once here), the host's published snapshots become ``publishDiagnostics``, and the handlers
(``lsp/requests.py``) read snapshots as the feature table declares.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import unquote, urlparse

import orjson
from cattrs import transform_error
from cattrs.errors import ClassValidationError
from lsprotocol import types as L
from lsprotocol.types import ResponseError
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from onnxtext._version import __version__
from onnxtext.api import format_text
from onnxtext.binary import BinaryView, SaveResult
from onnxtext.diagnostics import Diagnostic, OnnxTextError
from onnxtext.document import Document
from onnxtext.host import DocumentHost, Host, Settings, Snapshot
from onnxtext.host.change import Change
from onnxtext.host.textdiff import line_edits, region_line_edits
from onnxtext.ide.complete import complete, context_at
from onnxtext.ide.formatting import document_range_edit
from onnxtext.io import read_regular_text
from onnxtext.ir.schemas import latest_opset_version
from onnxtext.lsp.convert import change_of, completion_items, lsp_diagnostic, lsp_text_edits, offset_of
from onnxtext.span import SourceFile, Span

__all__ = ["OnnxTextServer", "request_path"]

log = logging.getLogger("onnxtext.lsp")


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, minus its one growing table: it files the future of every handled
    message under its id in ``_request_futures`` and takes a request's out when it answers, but
    never a notification's (a fresh id per ``didChange``: one future kept per keystroke, #24)."""

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(lambda done: self._forget(msg_id, done))

    def _forget(self, msg_id: Any, future: Any) -> None:
        # a cancelled one is left: pygls cancels them while iterating over the table (shutdown), and
        # a thread's future calls back at once (the table changed size during the iteration)
        if not future.cancelled() and self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    def structure_message(self, data: dict[str, Any]) -> Any:
        """pygls's reading of a message; a request whose params it cannot read is answered with its
        error (invalid params, saying what did not fit) before the error goes on to pygls's reader
        loop, which logs it and reads on. pygls only logged it: the client waited for ever."""
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if "id" in data and "method" in data and "error" not in data:
                self._send_response(data["id"], error=ResponseError(exc.code, _unreadable(str(data["method"]), exc)))
            raise

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        """A custom request's plain JSON answer (a dict: the graph, a comparison) written by orjson, not
        walked by pygls's converter (a 30,000-node graph: 11 MB, 0.7 s through ``json.dumps`` and
        cattrs, 30 ms so); the protocol's typed answers, and anything orjson refuses, as pygls writes them."""
        if error is None and isinstance(result, dict) and self._result_types.get(msg_id) is None:
            try:
                body = orjson.dumps({"id": msg_id, "jsonrpc": "2.0", "result": result})
            except TypeError:  # not plain JSON (an attrs value inside): pygls's converter knows it
                pass
            else:
                self._result_types.pop(msg_id, None)
                self._write_body(body)
                return
        super()._send_response(msg_id, result, error)

    def _write_body(self, body: bytes) -> None:
        """``body`` as one message, framed as pygls frames its own (``Content-Length`` in bytes)."""
        if self.writer is None:
            return
        if self._include_headers:
            body = (
                f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset=utf-8\r\n\r\n".encode()
                + body
            )
        try:
            written = self.writer.write(body)
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except (BrokenPipeError, ConnectionResetError):  # the client went: pygls's own writes log it too
            log.error("the client went away before an answer could be written")


_CAMEL = re.compile(r"_([a-z])")
"""The attribute names of lsprotocol's classes back to the protocol's (``text_document``: ``textDocument``)."""


def _unreadable(method: str, exc: JsonRpcException) -> str:
    """``textDocument/hover: params not understood: required field missing @ $.position`` (cattrs's words
    for each field that did not fit, the first three, at their path in the params as the client wrote them)."""
    cause = exc.__cause__
    said = transform_error(cause, path="$") if isinstance(cause, ClassValidationError) else [exc.message]
    said = [_CAMEL.sub(lambda m: m[1].upper(), s).replace("@ $.params", "@ $") for s in said]
    more = f" (and {len(said) - 3} more)" if len(said) > 3 else ""
    return f"{method}: params not understood: {'; '.join(said[:3])}{more}"


class OnnxTextServer(LanguageServer):
    """The server: the protocol around one :class:`~onnxtext.host.Host`."""

    def __init__(self) -> None:
        super().__init__(
            "onnxtext", __version__, protocol_cls=_Protocol, text_document_sync_kind=L.TextDocumentSyncKind.Incremental
        )
        self.host = Host(self._published, self._failed, self.refresh_views)

    @property
    def settings(self) -> Settings:
        return self.host.settings

    @settings.setter
    def settings(self, value: Settings) -> None:
        self.host.settings = value

    @property
    def trusted(self) -> bool:
        """The client's workspace is trusted: False (``workspaceTrusted`` in the initialization options,
        never a setting a workspace could write) and no model runs, no workspace inputs file is read."""
        return self.host.trusted

    @trusted.setter
    def trusted(self, value: bool) -> None:
        self.host.trusted = value

    @property
    def binaries(self) -> dict[str, BinaryView]:
        """Binary models opened as text, by path (the host's)."""
        return self.host.binaries

    # ------------------------------------------------------------ the client's notifications
    def opened(self, uri: str, text: str, version: int | None) -> None:
        self.host.open(uri, text, version)

    def changed(
        self, uri: str, version: int | None, changes: Sequence[L.TextDocumentContentChangeEvent]
    ) -> Snapshot | None:
        """The client's content changes of ``uri`` as one :class:`Change`, applied to its host."""
        document = self.host.documents.get(uri)
        if document is None:  # changed before it was opened: opened as the client has it now
            return self.host.open(uri, self.workspace.get_text_document(uri).source, version).last()
        found = change_of(document.source, changes)
        change = found[0] if found is not None else Change(0, 0, 0)
        text = found[1] if found is not None else document.text
        current = self.workspace.get_text_document(uri).source
        if text != current:  # pygls read the ranges otherwise (a range past a line's end): its text is the client's
            log.warning("the changes of %s did not make the client's text; compared whole", uri)
            change, text = Change.between(document.text, current), current
        return document.apply(change, version, text)

    def document(self, uri: str) -> DocumentHost:
        """``uri``'s host (one made from the file for a request about a document the client did not open)."""
        found = self.host.documents.get(uri)
        if found is not None:
            return found
        path = _file_path(uri)
        if path is None:
            raise JsonRpcInvalidParams(f"{uri} is not open, and is no file to read")
        try:  # never pygls's read: a FIFO would block the server, /dev/zero never end
            text = read_regular_text(path)
        except (OSError, UnicodeDecodeError) as exc:  # no such file, or not text: the client's mistake, not a bug
            said = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise JsonRpcInvalidParams(f"{uri} is not open and its file cannot be read: {said}") from None
        return self.host.adopt(uri, text, None)

    def forget(self, uri: str) -> None:
        self.host.close(uri)
        self.text_document_publish_diagnostics(L.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # ------------------------------------------------------------ what the host publishes
    def _published(self, document: DocumentHost, snapshot: Snapshot) -> None:
        outcome = snapshot.outcome
        source = outcome.document.source
        shown = self.shown(document.uri, outcome.document, outcome.diagnostics)
        self.text_document_publish_diagnostics(
            L.PublishDiagnosticsParams(
                uri=document.uri,
                version=snapshot.version,
                diagnostics=[lsp_diagnostic(d, source, document.uri) for d in shown],
            )
        )

    def _failed(self, message: str) -> None:
        self.window_log_message(L.LogMessageParams(L.MessageType.Error, message))

    def refresh_views(self) -> None:
        """Ask the client to fetch inlay hints and code lenses again (when it supports it)."""
        workspace = self.client_capabilities.workspace
        if workspace is not None and workspace.inlay_hint is not None and workspace.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)
        if workspace is not None and workspace.code_lens is not None and workspace.code_lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    def shown(self, uri: str, document: Document, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """``diagnostics`` of ``document`` at ``uri`` as published (:func:`~onnxtext.binary.shown_diagnostics`: a
        binary model's view by reference without those of its references, an edited reference
        flagged as it is typed): what the graph marks too."""
        return self.host.shown(uri, document, diagnostics)

    # ------------------------------------------------------------ helpers of the handlers
    def warm_up(self) -> None:
        """Pay the one-time costs of the first hover and completion before anyone asks: the
        operator table and the protocol converter's code for the answers (generated on first use)."""
        version = latest_opset_version("") or 1
        items = complete(context_at("g () => () {\n y = ", 17), {"": version})
        converter = getattr(self.protocol, "_converter", None)  # pygls has no public accessor
        if converter is not None:
            source = SourceFile("")
            converter.unstructure(
                L.CompletionList(is_incomplete=False, items=completion_items(items[:2], source, Span(0, 0)))
            )
            converter.unstructure(
                L.Hover(L.MarkupContent(L.MarkupKind.Markdown, ""), L.Range(L.Position(0, 0), L.Position(0, 0)))
            )

    def format_edits(self, snapshot: Snapshot) -> list[L.TextEdit] | None:
        """The formatter's changes of the current text as line edits; None if the text has errors."""
        source = snapshot.source
        text = source.text
        try:
            formatted = format_text(text, "model", source.path)
        except OnnxTextError as exc:
            self.window_show_message(
                L.ShowMessageParams(L.MessageType.Warning, f"onnxtext: not formatted: {_first_error(exc.diagnostics)}")
            )
            return None
        return lsp_text_edits(source, line_edits(text, formatted))

    @staticmethod
    def range_format_edits(doc: Document, within: L.Range) -> list[L.TextEdit] | None:
        """The formatter's changes to the statements ``within`` meets, as line edits inside their
        lines (from the document's tree: the text is not parsed again); None where it cannot."""
        source = doc.source
        edit = document_range_edit(doc, offset_of(source, within.start), offset_of(source, within.end))
        return lsp_text_edits(source, region_line_edits(source.text, edit)) if edit is not None else None

    def saved(self, path: str, result: SaveResult) -> None:
        """Keep what a save of ``path`` leaves to know for the next one."""
        if result.view is not None:
            self.binaries[path] = result.view  # what the file is now (a view by reference: its tensors moved)
        elif result.written:
            self.binaries.pop(path, None)  # the file is new: an unchanged save must not restore old bytes


def request_path(params: Any) -> str:
    """The file a custom request names by ``uri`` (a ``file:`` URI)."""
    uri = getattr(params, "uri", None)
    path = _file_path(uri) if isinstance(uri, str) else None
    if path is None:
        raise JsonRpcInvalidParams("expected a 'uri' of a file")
    return path


def _file_path(uri: str) -> str | None:
    """The path a ``file:`` URI names; None for another scheme (``untitled:``, ``http:``)."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else None


def _first_error(diags: list[Diagnostic]) -> str:
    errors = [d for d in diags if d.is_error] or diags
    return str(errors[0]) if errors else "the text has errors"
