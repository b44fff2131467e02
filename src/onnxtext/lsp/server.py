"""``onnxtext lsp``: the language server. Handlers are thin; the logic lives in plain modules.

Diagnostics are recomputed after each change, debounced per document; a newer version
cancels the pending run (and the running one between stages), and a result for a
version that is no longer current is dropped, never published.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as L
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

from onnxtext._version import __version__
from onnxtext.diagnostics import Diagnostic, OnnxTextError
from onnxtext.document import Document, parse_document
from onnxtext.ide.outline import folding_ranges, outline
from onnxtext.ide.complete import call_at, complete, context_at, documentation, schema_for, values_in_scope
from onnxtext.ide.hints import fit_label, inlay_hints, live_labels
from onnxtext.ide.hover import hover_at
from onnxtext.ide.rename import rename_problem
from onnxtext.ide.semantic import semantic_tokens
from onnxtext.lsp.convert import lsp_diagnostic as to_lsp_diagnostic
from onnxtext.lsp.convert import lsp_position, lsp_range
from onnxtext.lsp.convert import lsp_quick_fixes as quick_fixes
from onnxtext.lsp.convert import lsp_text_edits as text_edits
from onnxtext.lsp.convert import offset_of as offset_at
from onnxtext.lsp.convert import (
    TOKEN_LEGEND,
    completion_items,
    document_symbols,
    encode_tokens,
    folding,
    live_lens_title,
    signature,
)
from onnxtext.lsp.binary import BinaryView, digest_view_diagnostics, open_binary, runnable_model, save_binary, save_refusal
from onnxtext.lsp.diagnose import Cancelled, Outcome, Settings, diagnose
from onnxtext.lsp.shift import Shift, moved_fixes, shift_between
from onnxtext.lsp.textdiff import line_edits
from onnxtext.lsp.diagnose import evaluate as evaluate_cancellable
from onnxtext.ir.resolve import import_table
from onnxtext.ir.schemas import latest_opset_version
from onnxtext.proto import ModelProto
from onnxtext.syntax import ast as A
from onnxtext.syntax.format import format_range, format_text
from onnxtext.syntax.span import SourceFile, Span

__all__ = ["OnnxTextServer", "build_server"]

log = logging.getLogger("onnxtext.lsp")

TOGGLE_LIVE = "onnxtext.toggleLiveValues"
OPEN_BINARY = "onnxtext/openBinary"
"""Request ``{uri}`` → ``{text, editable, note}``: a binary model's text."""
SAVE_BINARY = "onnxtext/saveBinary"
"""Request ``{uri, text}`` → ``{written, unchanged, refused, diagnostics}``: the text's model written to the
file (``refused``: why not, ``not saved: line N: …``)."""


@dataclass
class _State:
    """What the server knows of one open document."""

    task: asyncio.Task[None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    outcome: Outcome | None = None
    outcome_version: int | None = None
    parsed: Document | None = None
    """The current version's document, parsed for a request before its diagnostics were ready."""
    parsed_version: int | None = None
    live: bool = False
    """Live values are on: the model runs after each change and every value is shown."""
    answered_stale: bool = False
    """Inlay hints were answered from an older analysis: ask for them again once the new one is ready."""


class OnnxTextServer(LanguageServer):
    """The server: open documents, their latest analysis, the user's settings."""

    def __init__(self) -> None:
        super().__init__("onnxtext", __version__, text_document_sync_kind=L.TextDocumentSyncKind.Incremental)
        self.settings = Settings()
        self.trusted = True
        """The client's workspace is trusted: False (``workspaceTrusted`` in the initialization options,
        never a setting a workspace could write) and no model runs, no workspace inputs file is read."""
        self.states: dict[str, _State] = {}
        self.binaries: dict[str, BinaryView] = {}
        """Binary models opened as text, by path (what was shown, to save unchanged texts untouched)."""

    # ------------------------------------------------------------ scheduling
    def schedule(self, uri: str, *, delay: bool = True) -> None:
        """(Re)diagnose ``uri`` after the debounce delay; a pending or running run is superseded."""
        state = self.states.setdefault(uri, _State())
        state.cancel.set()
        if state.task is not None and not state.task.done():
            state.task.cancel()
        state.cancel = threading.Event()
        wait = self.settings.debounce_ms / 1000 if delay else 0.0
        state.task = asyncio.get_running_loop().create_task(self._run(uri, state.cancel, wait))

    async def _run(self, uri: str, cancel: threading.Event, wait: float) -> None:
        if wait:
            await asyncio.sleep(wait)
        document = self.workspace.get_text_document(uri)
        version, text = document.version, document.source
        state = self.states.get(uri)
        parsed = state.parsed if state is not None and state.parsed_version == version else None
        try:
            outcome = await asyncio.get_running_loop().run_in_executor(
                None, diagnose, text, _display_path(uri), self.settings, cancel, parsed, _folder(uri)
            )
        except Cancelled:
            return
        except Exception:  # a bug must not kill the server: log it, say it once, keep serving
            log.exception("diagnosing %s failed", uri)
            self.window_log_message(L.LogMessageParams(L.MessageType.Error, f"onnxtext: diagnosing {uri} failed; see the server log"))
            return
        if state is None or self.states.get(uri) is not state or cancel.is_set() or self.workspace.get_text_document(uri).version != version:
            return  # superseded while running: a newer run publishes
        state.outcome, state.outcome_version = outcome, version
        self.publish(uri, version, outcome)
        if state.answered_stale:
            state.answered_stale = False
            self.refresh_views()
        path = _file(uri)
        runnable = runnable_model(self.binaries.get(path) if path else None, outcome.document.diagnostics, outcome.document.proto)
        if not ((self.settings.evaluate and self.trusted or state.live) and (outcome.document.ok or runnable is not None)):
            return
        await asyncio.sleep(self.settings.evaluate_delay_ms / 1000)  # typing goes on: this task is cancelled
        try:
            live, found = await asyncio.get_running_loop().run_in_executor(
                None, evaluate_cancellable, outcome, self.settings, path, cancel, state.live, self.trusted, runnable
            )
        except Exception:  # a bug must not kill the server
            log.exception("evaluating %s failed", uri)
            return
        if cancel.is_set() or self.workspace.get_text_document(uri).version != version:
            return
        outcome.live = live
        outcome.diagnostics = sorted(outcome.diagnostics + found, key=lambda d: d.offset)
        self.publish(uri, version, outcome)
        if state.live:
            self.refresh_views()

    def refresh_views(self) -> None:
        """Ask the client to fetch inlay hints and code lenses again (when it supports it)."""
        workspace = self.client_capabilities.workspace
        if workspace is not None and workspace.inlay_hint is not None and workspace.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)
        if workspace is not None and workspace.code_lens is not None and workspace.code_lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    def publish(self, uri: str, version: int | None, outcome: Outcome) -> None:
        source = outcome.document.source
        diags = list(outcome.diagnostics)
        path = _file(uri)
        view = self.binaries.get(path) if path is not None else None
        if view is not None and (not view.editable or view.held is not None):
            diags = digest_view_diagnostics(diags)
        self.text_document_publish_diagnostics(
            L.PublishDiagnosticsParams(
                uri=uri,
                version=version,
                diagnostics=[to_lsp_diagnostic(d, source, uri) for d in diags],
            )
        )

    def current(self, uri: str) -> Outcome | None:
        """The analysis of the document's current version, or None if it is not ready."""
        state = self.states.get(uri)
        if state is None or state.outcome is None:
            return None
        if state.outcome_version != self.workspace.get_text_document(uri).version:
            return None
        return state.outcome

    def latest(self, uri: str) -> tuple[Outcome, Shift | None, SourceFile] | None:
        """The last analysis, even of an older version, with the edit from its text to the current
        one (None when it is current) and the current text: answers keep coming while a new
        analysis runs, their positions carried through the edit."""
        state = self.states.get(uri)
        if state is None or state.outcome is None:
            return None
        document = self.workspace.get_text_document(uri)
        outcome = state.outcome
        if state.outcome_version == document.version:
            return outcome, None, outcome.document.source
        return outcome, shift_between(outcome.document.source.text, document.source), SourceFile(document.source)

    def analysis(self, uri: str) -> Outcome:
        """The analysis of the current version; before its diagnostics are ready, its document alone."""
        found = self.current(uri)
        if found is not None:
            return found
        document = self.workspace.get_text_document(uri)
        state = self.states.setdefault(uri, _State())
        if state.parsed is None or state.parsed_version != document.version:
            # Only the parse: the queries need no checker, and the debounced run checks this document.
            state.parsed = parse_document(document.source, "model", _display_path(uri))
            state.parsed_version = document.version
        return Outcome(state.parsed)

    def warm_up(self) -> None:
        """Pay the one-time costs of the first hover and completion before anyone asks: the
        operator table and the protocol converter's code for the answers (generated on first use)."""
        version = latest_opset_version("") or 1
        items = complete(context_at("g () => () {\n y = ", 17), {"": version})
        converter = getattr(self.protocol, "_converter", None)  # pygls has no public accessor
        if converter is not None:
            source = SourceFile("")
            converter.unstructure(L.CompletionList(is_incomplete=False, items=completion_items(items[:2], source, Span(0, 0))))
            converter.unstructure(L.Hover(L.MarkupContent(L.MarkupKind.Markdown, ""), L.Range(L.Position(0, 0), L.Position(0, 0))))

    def format_edits(self, uri: str, within: L.Range | None) -> list[L.TextEdit] | None:
        """The formatter's changes as line edits (all, or those meeting ``within``); None if the text has errors."""
        text = self.workspace.get_text_document(uri).source
        source = SourceFile(text)
        try:
            if within is None:
                formatted: str | None = format_text(text, "model", _display_path(uri))
            else:
                lo, hi = offset_at(source, within.start), offset_at(source, within.end)
                formatted = format_range(text, lo, hi, _display_path(uri))
        except OnnxTextError as exc:
            self.window_show_message(
                L.ShowMessageParams(L.MessageType.Warning, f"onnxtext: not formatted: {_first_error(exc.diagnostics)}")
            )
            return None
        if formatted is None:
            return None
        return text_edits(source, line_edits(text, formatted))

    def forget(self, uri: str) -> None:
        state = self.states.pop(uri, None)
        if state is not None:
            state.cancel.set()
            if state.task is not None:
                state.task.cancel()
        self.text_document_publish_diagnostics(L.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _request_path(params: Any) -> str:
    """The file a custom request names by ``uri`` (a ``file:`` URI)."""
    uri = getattr(params, "uri", None)
    if not isinstance(uri, str) or urlparse(uri).scheme != "file":
        raise JsonRpcInvalidParams("expected a 'uri' of a file")
    return unquote(urlparse(uri).path)


MODEL_SCHEME = "onnx-model"
"""The scheme of a binary model's text in the editor (``onnx-model:/path/m.onnx``): it names a file too."""


def _file(uri: str) -> str | None:
    """The path of a ``file:`` document or of a binary model's text (its folder holds its
    external data and inputs file)."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme in ("file", MODEL_SCHEME) else None


def _folder(uri: str) -> str | None:
    """The folder of a document's file (where its external data is), None for an unsaved one."""
    file = _file(uri)
    return os.path.dirname(file) if file is not None else None


def _display_path(uri: str) -> str:
    return _file(uri) or uri


def build_server() -> OnnxTextServer:
    """A server with every feature registered (one per process)."""
    server = OnnxTextServer()

    @server.feature(L.INITIALIZE)
    def initialize(ls: OnnxTextServer, params: L.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            ls.settings = Settings.from_json(options.get("onnxtext", options))
            ls.trusted = options.get("workspaceTrusted") is not False

    @server.feature(L.INITIALIZED)
    async def initialized(ls: OnnxTextServer, params: L.InitializedParams) -> None:
        await asyncio.get_running_loop().run_in_executor(None, ls.warm_up)

    @server.feature(L.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: OnnxTextServer, params: L.DidChangeConfigurationParams) -> None:
        value = params.settings
        if isinstance(value, dict) and "onnxtext" in value:
            value = value["onnxtext"]
        ls.settings = Settings.from_json(value)
        for uri in list(ls.states):
            ls.schedule(uri, delay=False)

    @server.feature(L.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: OnnxTextServer, params: L.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, delay=False)

    @server.feature(L.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: OnnxTextServer, params: L.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(L.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: OnnxTextServer, params: L.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, delay=False)

    @server.feature(L.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: OnnxTextServer, params: L.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(
        L.TEXT_DOCUMENT_CODE_ACTION,
        L.CodeActionOptions(code_action_kinds=[L.CodeActionKind.QuickFix]),
    )
    def code_action(ls: OnnxTextServer, params: L.CodeActionParams) -> list[L.CodeAction]:
        uri = params.text_document.uri
        latest = ls.latest(uri)
        if latest is None:
            return []
        outcome, shift, source = latest
        diags = outcome.diagnostics if shift is None else list(moved_fixes(outcome.diagnostics, shift, source))
        version = ls.workspace.get_text_document(uri).version
        return quick_fixes(diags, source, uri, version, params.range)

    @server.feature(L.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: OnnxTextServer, params: L.DocumentSymbolParams) -> list[L.DocumentSymbol]:
        outcome = ls.analysis(params.text_document.uri)
        return document_symbols(outline(outcome.document.tree), outcome.document.source)

    @server.feature(L.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(ls: OnnxTextServer, params: L.FoldingRangeParams) -> list[L.FoldingRange]:
        outcome = ls.analysis(params.text_document.uri)
        return folding(folding_ranges(outcome.document.tree, outcome.document.source))

    @server.feature(L.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, TOKEN_LEGEND)
    def tokens_full(ls: OnnxTextServer, params: L.SemanticTokensParams) -> L.SemanticTokens:
        doc = ls.analysis(params.text_document.uri).document

        def deprecated(node: A.Node) -> bool:
            resolution = doc.resolutions.get(node)
            return resolution is not None and resolution.schema is not None and resolution.schema.deprecated

        tokens = semantic_tokens(doc.tree, deprecated)
        return L.SemanticTokens(data=encode_tokens(tokens, doc.source))

    @server.feature(L.TEXT_DOCUMENT_COMPLETION, L.CompletionOptions(trigger_characters=["=", "<", "(", ",", ".", "@"], resolve_provider=True))
    def completion(ls: OnnxTextServer, params: L.CompletionParams) -> L.CompletionList:
        uri = params.text_document.uri
        text = ls.workspace.get_text_document(uri).source
        source = SourceFile(text)
        offset = offset_at(source, params.position)
        context = context_at(text, offset)
        outcome = ls.current(uri) or ls.states.get(uri, _State()).outcome  # the last analysis, even if older
        opsets, functions = _imports(outcome)
        values: list[tuple[str, str]] = []
        if context.kind == "value":  # names of the current text (none deleted since), typed once it is analysed
            values = values_in_scope(ls.analysis(uri).document, offset, typed=ls.current(uri) is not None)
        items = complete(context, opsets, functions, values)
        return L.CompletionList(is_incomplete=False, items=completion_items(items, source, context.replace))

    @server.feature(L.COMPLETION_ITEM_RESOLVE)
    def completion_resolve(ls: OnnxTextServer, item: L.CompletionItem) -> L.CompletionItem:
        text = documentation(item.data)
        if text is not None:
            item.documentation = L.MarkupContent(L.MarkupKind.Markdown, text)
        return item

    @server.feature(L.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(ls: OnnxTextServer, params: L.CodeLensParams) -> list[L.CodeLens]:
        uri = params.text_document.uri
        outcome = ls.analysis(uri)
        tree = outcome.document.tree
        graph = getattr(tree, "graph", None)
        if not isinstance(graph, A.Graph):
            return []
        state = ls.states.setdefault(uri, _State())
        title = live_lens_title(state.live, outcome.live)
        where = lsp_range(outcome.document.source, graph.name.span)
        return [L.CodeLens(range=where, command=L.Command(title=title, command=TOGGLE_LIVE, arguments=[uri]))]

    @server.command(TOGGLE_LIVE)
    def toggle_live(ls: OnnxTextServer, uri: str) -> bool:
        if uri not in ls.states:
            return False
        state = ls.states[uri]
        state.live = not state.live
        ls.schedule(uri, delay=False)
        ls.refresh_views()
        return state.live

    @server.feature(L.TEXT_DOCUMENT_INLAY_HINT)
    def inlay_hint(ls: OnnxTextServer, params: L.InlayHintParams) -> list[L.InlayHint]:
        uri = params.text_document.uri
        state = ls.states.get(uri)
        latest = ls.latest(uri)
        if latest is None or state is None:
            return []
        outcome, shift, source = latest
        state.answered_stale = shift is not None
        live = outcome.live if state.live else None
        lo, hi = offset_at(source, params.range.start), offset_at(source, params.range.end)
        hints = []
        for hint in inlay_hints(outcome.document, ls.settings.type_hints, live):
            offset = hint.offset if shift is None else shift.offset(hint.offset)
            if offset is not None and lo <= offset <= hi:
                shown = fit_label(hint.label)  # cut between numbers, the whole label on hover
                tooltip = hint.label.strip() if shown != hint.label else None
                hints.append(L.InlayHint(lsp_position(source, offset), shown, tooltip=tooltip, padding_left=True))
        return hints

    @server.feature(OPEN_BINARY)
    def open_binary_request(ls: OnnxTextServer, params: Any) -> dict[str, Any]:
        path = _request_path(params)
        try:
            view = open_binary(path)
        except OnnxTextError as exc:
            raise JsonRpcInvalidParams(str(exc)) from None
        ls.binaries[path] = view
        return {"text": view.text, "editable": view.editable, "note": view.note}

    @server.feature(SAVE_BINARY)
    def save_binary_request(ls: OnnxTextServer, params: Any) -> dict[str, Any]:
        path = _request_path(params)
        text = getattr(params, "text", None)
        if not isinstance(text, str):
            raise JsonRpcInvalidParams("onnxtext/saveBinary needs 'text'")
        try:
            result = save_binary(text, path, opened=ls.binaries.get(path))
        except OnnxTextError as exc:
            raise JsonRpcInvalidParams(str(exc)) from None
        if result.view is not None:
            ls.binaries[path] = result.view  # a view by reference: its tensors are now in the new file
        elif result.written:
            ls.binaries.pop(path, None)  # the file is new: an unchanged save must not restore old bytes
        source = SourceFile(text, path)
        uri = getattr(params, "uri", "")
        return {
            "written": result.written,
            "unchanged": result.unchanged,
            "refused": save_refusal(result),
            "diagnostics": [to_lsp_diagnostic(d, source, uri) for d in result.diagnostics],
        }

    @server.feature(L.TEXT_DOCUMENT_SIGNATURE_HELP, L.SignatureHelpOptions(trigger_characters=["(", ","]))
    def signature_help(ls: OnnxTextServer, params: L.SignatureHelpParams) -> L.SignatureHelp | None:
        uri = params.text_document.uri
        text = ls.workspace.get_text_document(uri).source
        call = call_at(text, offset_at(SourceFile(text), params.position))
        if call is None:
            return None
        opsets, _ = _imports(ls.current(uri) or ls.states.get(uri, _State()).outcome)
        schema = schema_for((call[0], call[1]), opsets)
        if schema is None:
            return None
        return signature(schema, call[2])

    @server.feature(L.TEXT_DOCUMENT_HOVER)
    def hover(ls: OnnxTextServer, params: L.HoverParams) -> L.Hover | None:
        uri = params.text_document.uri
        outcome = ls.analysis(uri)
        doc = outcome.document
        state = ls.states.get(uri)
        live = live_labels(outcome.live) if outcome.live is not None and state is not None and state.live else None
        found = hover_at(doc, offset_at(doc.source, params.position), live)
        if found is None:
            return None
        return L.Hover(L.MarkupContent(L.MarkupKind.Markdown, found.markdown), lsp_range(doc.source, found.span))

    @server.feature(L.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: OnnxTextServer, params: L.DefinitionParams) -> list[L.Location]:
        uri = params.text_document.uri
        doc = ls.analysis(uri).document
        spans = doc.definition_at(offset_at(doc.source, params.position))
        return [L.Location(uri, lsp_range(doc.source, s)) for s in spans]

    @server.feature(L.TEXT_DOCUMENT_REFERENCES)
    def references(ls: OnnxTextServer, params: L.ReferenceParams) -> list[L.Location]:
        uri = params.text_document.uri
        doc = ls.analysis(uri).document
        symbol = doc.symbol_at(offset_at(doc.source, params.position))
        if symbol is None:
            return []
        spans = doc.references(symbol, include_definitions=params.context.include_declaration)
        return [L.Location(uri, lsp_range(doc.source, s)) for s in spans]

    @server.feature(L.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    def highlight(ls: OnnxTextServer, params: L.DocumentHighlightParams) -> list[L.DocumentHighlight]:
        doc = ls.analysis(params.text_document.uri).document
        symbol = doc.symbol_at(offset_at(doc.source, params.position))
        if symbol is None:
            return []
        defined = {(s.start, s.end) for s in doc.references(symbol) if s not in doc.references(symbol, include_definitions=False)}
        return [
            L.DocumentHighlight(
                lsp_range(doc.source, s),
                L.DocumentHighlightKind.Write if (s.start, s.end) in defined else L.DocumentHighlightKind.Read,
            )
            for s in doc.references(symbol)
        ]

    @server.feature(L.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: OnnxTextServer, params: L.PrepareRenameParams) -> L.Range | None:
        doc = ls.analysis(params.text_document.uri).document
        occurrence = doc.symbols.occurrence_at(offset_at(doc.source, params.position))
        return lsp_range(doc.source, occurrence.span) if occurrence is not None else None

    @server.feature(L.TEXT_DOCUMENT_RENAME)
    def rename(ls: OnnxTextServer, params: L.RenameParams) -> L.WorkspaceEdit | None:
        uri = params.text_document.uri
        doc = ls.analysis(uri).document
        symbol = doc.symbol_at(offset_at(doc.source, params.position))
        if symbol is None:
            return None
        problem = rename_problem(doc, symbol, params.new_name)
        if problem is not None:
            raise JsonRpcInvalidParams(problem)
        edits = text_edits(doc.source, doc.symbols.rename_edits(symbol, params.new_name))
        version = ls.workspace.get_text_document(uri).version
        return L.WorkspaceEdit(document_changes=[L.TextDocumentEdit(L.OptionalVersionedTextDocumentIdentifier(uri, version), list(edits))])

    @server.feature(L.TEXT_DOCUMENT_SELECTION_RANGE)
    def selection_range(ls: OnnxTextServer, params: L.SelectionRangeParams) -> list[L.SelectionRange]:
        doc = ls.analysis(params.text_document.uri).document
        out = []
        for position in params.positions:
            chain: L.SelectionRange | None = None
            seen: set[tuple[int, int]] = set()
            for node in doc.nodes_at(offset_at(doc.source, position)):  # outermost first
                key = (node.span.start, node.span.end)
                if key in seen or key[1] <= key[0]:
                    continue
                seen.add(key)
                chain = L.SelectionRange(lsp_range(doc.source, node.span), chain)
            out.append(chain or L.SelectionRange(L.Range(position, position)))
        return out

    @server.feature(L.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: OnnxTextServer, params: L.DocumentFormattingParams) -> list[L.TextEdit] | None:
        return ls.format_edits(params.text_document.uri, None)

    @server.feature(L.TEXT_DOCUMENT_RANGE_FORMATTING)
    def range_formatting(ls: OnnxTextServer, params: L.DocumentRangeFormattingParams) -> list[L.TextEdit] | None:
        return ls.format_edits(params.text_document.uri, params.range)

    return server


def _imports(outcome: Outcome | None) -> tuple[dict[str, int], list[tuple[str, str, str]]]:
    """The opsets a text imports and its local functions (from its latest analysis)."""
    model = outcome.document.proto if outcome is not None else None
    if not isinstance(model, ModelProto):
        return {"": latest_opset_version("") or 1}, []
    return import_table(model.opset_import), [(f.domain, f.name, f.overload) for f in model.functions]


def _first_error(diags: list[Diagnostic]) -> str:
    errors = [d for d in diags if d.is_error] or diags
    return str(errors[0]) if errors else "the text has errors"


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Run the server on stdio, or on a TCP port (for debugging)."""
    server = build_server()
    if tcp is not None:
        server.start_tcp(*tcp)
    else:
        server.start_io()

