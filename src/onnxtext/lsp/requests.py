"""The server's handlers: one small function per request or notification, a few lines over a query.

Each converts positions, asks an ``ide/`` query (or the session) and converts the answer
(``lsp/convert.py``). :data:`FEATURES` lists them with their options; ``build_server`` registers
the table, so what the server offers is read here in one place.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from lsprotocol import types as L
from pygls.exceptions import JsonRpcInvalidParams

from onnxtext.binary import open_binary, save_binary, save_refusal
from onnxtext.diagnostics import OnnxTextError
from onnxtext.document import Document
from onnxtext.ide.complete import call_at, complete, context_at, documentation, schema_for, values_in_scope
from onnxtext.ide.document_highlight import highlights
from onnxtext.ide.gestures import extracted_uri, gestures_at
from onnxtext.ide.graph import graph_json, graph_model
from onnxtext.ide.graph_properties import Sources, properties_at, save_npy
from onnxtext.ide.hints import hints_between, live_labels
from onnxtext.ide.hover import HoverInfo, hover_at
from onnxtext.ide.lens import live_lens
from onnxtext.ide.outline import folding_ranges, outline
from onnxtext.ide.rename import rename_problem
from onnxtext.ide.selection import selection_spans
from onnxtext.ir.resolve import import_table
from onnxtext.ir.schemas import latest_opset_version
from onnxtext.lsp.convert import (
    TOKEN_LEGEND,
    completion_items,
    document_symbols,
    folding,
    lsp_diagnostic,
    lsp_position,
    lsp_quick_fixes,
    lsp_range,
    lsp_text_edits,
    offset_of,
    signature,
)
from onnxtext.lsp.diagnose import Outcome, Settings
from onnxtext.lsp.session import OnnxTextServer, file_path, folder_of, request_path
from onnxtext.lsp.shift import moved_fixes
from onnxtext.lsp.tokens import TokenCache
from onnxtext.proto import ModelProto
from onnxtext.span import SourceFile, Span

__all__ = [
    "COMMANDS",
    "COMPARE",
    "FEATURES",
    "Feature",
    "GRAPH",
    "GRAPH_PROPERTIES",
    "SAVE_TENSOR",
    "OPEN_BINARY",
    "SAVE_BINARY",
    "TOGGLE_LIVE",
]

TOGGLE_LIVE = "onnxtext.toggleLiveValues"
OPEN_BINARY = "onnxtext/openBinary"
"""Request ``{uri}`` → ``{text, editable, note, files, stamp}``: a binary model's text, and the files it
was read from (see :func:`open_binary_request`)."""
SAVE_BINARY = "onnxtext/saveBinary"
"""Request ``{uri, text}`` → ``{written, unchanged, refused, diagnostics, files, stamp}``: the text's model
written to the file (``refused``: why not, ``not saved: line N: …``; ``files``/``stamp``: the files after it)."""
GRAPH = "onnxtext/graph"
"""Request ``{textDocument: {uri}}`` → ``{nodes, edges, groups}``: the data-flow graph (``ide/graph``)."""
GRAPH_PROPERTIES = "onnxtext/graphProperties"
"""Request ``{textDocument: {uri}, position}`` → the graph view's properties panel for the statement
there, weights' statistics included (``ide/graph_properties``), or null."""
COMPARE = "onnxtext/compare"
"""Request ``{a: {uri, text?}, b: {uri}}`` → ``{same, graph, changes, renamed}`` or null: B's graph
marked by its structural diff against A, each change with its statement's range in both texts
(``ide/compare``); A is ``text`` when given (a version the server has not opened: HEAD's, the disk's)."""
SAVE_TENSOR = "onnxtext/saveTensor"
"""Request ``{textDocument: {uri}, position, path}`` → ``{written}`` or ``{refused}``: the values of the
weight at ``position`` written to ``path`` as ``.npy``, atomically."""


# ------------------------------------------------------------ lifecycle and document sync
def initialize(ls: OnnxTextServer, params: L.InitializeParams) -> None:
    options = params.initialization_options
    if isinstance(options, dict):
        ls.settings = Settings.from_json(options.get("onnxtext", options))
        ls.trusted = options.get("workspaceTrusted") is not False


async def initialized(ls: OnnxTextServer, params: L.InitializedParams) -> None:
    await asyncio.get_running_loop().run_in_executor(None, ls.warm_up)


def did_change_configuration(ls: OnnxTextServer, params: L.DidChangeConfigurationParams) -> None:
    value = params.settings
    if isinstance(value, dict) and "onnxtext" in value:
        value = value["onnxtext"]
    ls.settings = Settings.from_json(value)
    for uri in list(ls.states):
        ls.schedule(uri, delay=False)


# The per-edit notifications are plain functions: pygls keeps the task of an async notification
# handler in its protocol's request table forever (one entry per keystroke, issue #24).
def did_open(ls: OnnxTextServer, params: L.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, delay=False)


def did_change(ls: OnnxTextServer, params: L.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


def did_save(ls: OnnxTextServer, params: L.DidSaveTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, delay=False)


def did_close(ls: OnnxTextServer, params: L.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)


# ------------------------------------------------------------ queries
def code_action(ls: OnnxTextServer, params: L.CodeActionParams) -> list[L.CodeAction]:
    uri = params.text_document.uri
    latest = ls.latest(uri)
    if latest is None:
        return []
    outcome, shift, source = latest  # fixes of the last analysis, carried through the edit since
    diags = outcome.diagnostics if shift is None else list(moved_fixes(outcome.diagnostics, shift, source))
    version = ls.workspace.get_text_document(uri).version
    actions = lsp_quick_fixes(diags, source, uri, version, params.range)
    if shift is None:  # the gestures (ide/gestures) on the analysed text, when it is the current one
        where = L.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        lo, hi = offset_of(source, params.range.start), offset_of(source, params.range.end)
        for g in gestures_at(outcome.document, lo, hi):
            changes: list[Any] = [L.TextDocumentEdit(where, lsp_text_edits(source, g.edits))]
            if g.new_model is not None:  # Extract to model: a new file beside this one
                new = L.OptionalVersionedTextDocumentIdentifier(uri=extracted_uri(uri), version=None)
                start = L.Range(L.Position(0, 0), L.Position(0, 0))
                changes = [
                    L.CreateFile(new.uri, options=L.CreateFileOptions(overwrite=True)),
                    L.TextDocumentEdit(new, [L.TextEdit(start, g.new_model)]),
                ]
            actions.append(
                L.CodeAction(g.title, kind=L.CodeActionKind(g.kind), edit=L.WorkspaceEdit(document_changes=changes))
            )
    return actions


async def document_symbol(ls: OnnxTextServer, params: L.DocumentSymbolParams) -> list[L.DocumentSymbol]:
    doc = (await ls.analysed(params.text_document.uri)).document
    return document_symbols(outline(doc.tree), doc.source)


async def folding_range(ls: OnnxTextServer, params: L.FoldingRangeParams) -> list[L.FoldingRange]:
    doc = (await ls.analysed(params.text_document.uri)).document
    return folding(folding_ranges(doc.tree, doc.source, doc.comments))


async def tokens_full(ls: OnnxTextServer, params: L.SemanticTokensParams) -> L.SemanticTokens:
    uri = params.text_document.uri
    return await _tokens(ls, uri, lambda tokens, doc: tokens.full(doc, None))


async def tokens_delta(
    ls: OnnxTextServer, params: L.SemanticTokensDeltaParams
) -> L.SemanticTokens | L.SemanticTokensDelta:
    uri = params.text_document.uri
    return await _tokens(ls, uri, lambda tokens, doc: tokens.delta(doc, None, params.previous_result_id))


T = TypeVar("T")


async def _tokens(ls: OnnxTextServer, uri: str, encode: Callable[[TokenCache, Document], T]) -> T:
    """The tokens of the current version, encoded off the event loop (made ahead by the run, or
    waiting for it to be) holding the document's lease: a next version made from it in place
    meanwhile (``onnxtext/lease.py``) sends the request back for that version's document."""
    while True:
        tokens = ls.state(uri).tokens
        # the tree is enough: not the checker's wait (but on a first encoding, which would slow the checker)
        doc = (await ls.analysed(uri, parsed=tokens.warm)).document
        found = await asyncio.get_running_loop().run_in_executor(None, _held, encode, tokens, doc)
        if found is not None:
            return found[0]


def _held(encode: Callable[[TokenCache, Document], T], tokens: TokenCache, doc: Document) -> tuple[T] | None:
    """``encode(tokens, doc)`` holding ``doc``'s lease; None if the document was handed over to a newer version."""
    with doc.lease.reading() as held:
        return (encode(tokens, doc),) if held else None


def completion(ls: OnnxTextServer, params: L.CompletionParams) -> L.CompletionList:
    uri = params.text_document.uri
    source = SourceFile(ls.workspace.get_text_document(uri).source)
    offset = offset_of(source, params.position)
    context = context_at(source.text, offset)
    opsets, functions = _imports(ls.last(uri))
    values: list[tuple[str, str]] = []
    if context.kind == "value":  # names of the current text (none deleted since), typed once it is analysed
        values = values_in_scope(ls.analysis(uri).document, offset, typed=ls.current(uri) is not None)
    items = complete(context, opsets, functions, values)
    return L.CompletionList(is_incomplete=False, items=completion_items(items, source, context.replace))


def completion_resolve(ls: OnnxTextServer, item: L.CompletionItem) -> L.CompletionItem:
    text = documentation(item.data)
    if text is not None:
        item.documentation = L.MarkupContent(L.MarkupKind.Markdown, text)
    return item


def signature_help(ls: OnnxTextServer, params: L.SignatureHelpParams) -> L.SignatureHelp | None:
    uri = params.text_document.uri
    text = ls.workspace.get_text_document(uri).source
    call = call_at(text, offset_of(SourceFile(text), params.position))
    schema = schema_for((call[0], call[1]), _imports(ls.last(uri))[0]) if call is not None else None
    return signature(schema, call[2]) if schema is not None and call is not None else None


def code_lens(ls: OnnxTextServer, params: L.CodeLensParams) -> list[L.CodeLens]:
    uri = params.text_document.uri
    outcome = ls.analysis(uri)
    lens = live_lens(outcome.document, ls.state(uri).live, outcome.live)
    if lens is None:
        return []
    command = L.Command(title=lens.title, command=TOGGLE_LIVE, arguments=[uri])
    return [L.CodeLens(range=lsp_range(outcome.document.source, lens.span), command=command)]


def toggle_live(ls: OnnxTextServer, uri: str) -> bool:
    state = ls.states.get(uri)
    if state is None:
        return False
    state.live = not state.live
    ls.schedule(uri, delay=False)
    ls.refresh_views()
    return state.live


async def inlay_hint(ls: OnnxTextServer, params: L.InlayHintParams) -> list[L.InlayHint]:
    uri = params.text_document.uri
    await ls.settled(uri)
    state, latest = ls.states.get(uri), ls.latest(uri)
    if latest is None or state is None:
        return []
    outcome, shift, source = latest  # hints of the last analysis, carried through the edit since
    state.answered_stale = shift is not None
    lo, hi = offset_of(source, params.range.start), offset_of(source, params.range.end)
    live = outcome.live if state.live else None
    moved = shift.offset if shift is not None else None
    found = hints_between(outcome.document, lo, hi, types=ls.settings.type_hints, live=live, moved=moved)
    return [L.InlayHint(lsp_position(source, h.offset), h.label, tooltip=h.tooltip, padding_left=True) for h in found]


async def hover(ls: OnnxTextServer, params: L.HoverParams) -> L.Hover | None:
    uri = params.text_document.uri
    await ls.settled(uri)
    state = ls.states.get(uri)

    def query(outcome: Outcome, offset: int) -> tuple[HoverInfo | None, list[Span]]:
        live = live_labels(outcome.live) if outcome.live is not None and state is not None and state.live else None
        found = hover_at(outcome.document, offset, live)
        return found, [found.span] if found is not None else []

    source, found, spans = ls.answer(uri, params.position, query)
    if found is None:
        return None
    return L.Hover(L.MarkupContent(L.MarkupKind.Markdown, found.markdown), lsp_range(source, spans[0]))


def definition(ls: OnnxTextServer, params: L.DefinitionParams) -> list[L.Location]:
    uri = params.text_document.uri
    source, _, spans = ls.answer(
        uri, params.position, lambda outcome, offset: (None, outcome.document.definition_at(offset))
    )
    return [L.Location(uri, lsp_range(source, s)) for s in spans]


def references(ls: OnnxTextServer, params: L.ReferenceParams) -> list[L.Location]:
    uri = params.text_document.uri

    def query(outcome: Outcome, offset: int) -> tuple[None, list[Span]]:
        doc = outcome.document
        symbol = doc.symbol_at(offset)
        return None, [] if symbol is None else doc.references(
            symbol, include_definitions=params.context.include_declaration
        )

    source, _, spans = ls.answer(uri, params.position, query)
    return [L.Location(uri, lsp_range(source, s)) for s in spans]


def highlight(ls: OnnxTextServer, params: L.DocumentHighlightParams) -> list[L.DocumentHighlight]:
    kinds = {True: L.DocumentHighlightKind.Write, False: L.DocumentHighlightKind.Read}

    def query(outcome: Outcome, offset: int) -> tuple[list[bool], list[Span]]:
        found = highlights(outcome.document, offset)
        return [h.write for h in found], [h.span for h in found]

    source, writes, spans = ls.answer(params.text_document.uri, params.position, query)
    return [L.DocumentHighlight(lsp_range(source, s), kinds[w]) for s, w in zip(spans, writes, strict=True)]


def prepare_rename(ls: OnnxTextServer, params: L.PrepareRenameParams) -> L.Range | None:
    doc = ls.analysis(params.text_document.uri).document
    occurrence = doc.symbols.occurrence_at(offset_of(doc.source, params.position))
    return lsp_range(doc.source, occurrence.span) if occurrence is not None else None


def rename(ls: OnnxTextServer, params: L.RenameParams) -> L.WorkspaceEdit | None:
    uri = params.text_document.uri
    doc = ls.analysis(uri).document
    symbol = doc.symbol_at(offset_of(doc.source, params.position))
    if symbol is None:
        return None
    problem = rename_problem(doc, symbol, params.new_name)
    if problem is not None:
        raise JsonRpcInvalidParams(problem)
    edits = lsp_text_edits(doc.source, doc.symbols.rename_edits(symbol, params.new_name))
    document = L.OptionalVersionedTextDocumentIdentifier(uri, ls.workspace.get_text_document(uri).version)
    return L.WorkspaceEdit(document_changes=[L.TextDocumentEdit(document, list(edits))])


def selection_range(ls: OnnxTextServer, params: L.SelectionRangeParams) -> list[L.SelectionRange]:
    doc = ls.analysis(params.text_document.uri).document
    out = []
    for position in params.positions:
        chain: L.SelectionRange | None = None
        for span in selection_spans(doc, offset_of(doc.source, position)):  # outermost first
            chain = L.SelectionRange(lsp_range(doc.source, span), chain)
        out.append(chain or L.SelectionRange(L.Range(position, position)))
    return out


def formatting(ls: OnnxTextServer, params: L.DocumentFormattingParams) -> list[L.TextEdit] | None:
    return ls.format_edits(params.text_document.uri)


async def range_formatting(ls: OnnxTextServer, params: L.DocumentRangeFormattingParams) -> list[L.TextEdit] | None:
    # the current version's tree, not a parse of the whole text: the cost is that of the range's statements
    doc = (await ls.analysed(params.text_document.uri, parsed=True)).document
    return ls.range_format_edits(doc, params.range)


# ------------------------------------------------------------ binary models
def open_binary_request(ls: OnnxTextServer, params: Any) -> dict[str, Any]:
    """``onnxtext/openBinary {uri}`` → ``{text, editable, note, files, stamp}``: the model file as it is
    now (never a view kept from an earlier read; it replaces the one kept for the next save).

    ``files``: absolute paths, the model file first, then every external-data file the model names
    that exists. ``stamp``: one ``[path, size, mtime_ns, ino]`` per file of ``files``, what the text
    was read from (``os.stat``: size a number, ``st_mtime_ns`` and ``st_ino`` decimal strings; the
    client compares them with ``fs.statSync(path, {bigint: true})``'s ``size``, ``mtimeNs``, ``ino``).
    """
    path = request_path(params)
    try:
        view = open_binary(path)
    except OnnxTextError as exc:
        raise JsonRpcInvalidParams(str(exc)) from None
    ls.binaries[path] = view
    return {
        "text": view.text,
        "editable": view.editable,
        "note": view.note,
        "files": list(view.files),
        "stamp": [list(s) for s in view.stamp],
    }


def save_binary_request(ls: OnnxTextServer, params: Any) -> dict[str, Any]:
    """``onnxtext/saveBinary {uri, text}`` → ``{written, unchanged, refused, diagnostics, files, stamp}``:
    ``files`` and ``stamp`` (as ``openBinary``'s) of the files as they are after a write or an unchanged
    save, so the client knows its document matches the disk; both null when the save was refused."""
    path = request_path(params)
    text = getattr(params, "text", None)
    if not isinstance(text, str):
        raise JsonRpcInvalidParams("onnxtext/saveBinary needs 'text'")
    try:
        result = save_binary(text, path, opened=ls.binaries.get(path))
    except OnnxTextError as exc:
        raise JsonRpcInvalidParams(str(exc)) from None
    ls.saved(path, result)
    source, uri = SourceFile(text, path), getattr(params, "uri", "")
    diagnostics = [lsp_diagnostic(d, source, uri) for d in result.diagnostics]
    refused = save_refusal(result)
    stamp = result.stamp
    return {
        "written": result.written,
        "unchanged": result.unchanged,
        "refused": refused,
        "diagnostics": diagnostics,
        "files": [s[0] for s in stamp] if stamp is not None else None,
        "stamp": [list(s) for s in stamp] if stamp is not None else None,
    }


# ------------------------------------------------------------ the graph view
def graph_request(ls: OnnxTextServer, params: Any) -> dict[str, Any]:
    uri = getattr(getattr(params, "textDocument", None), "uri", None)
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams("onnxtext/graph needs 'textDocument': {'uri': ...}")
    outcome = ls.analysis(uri)
    state = ls.states.get(uri)
    live = outcome.live if state is not None and state.live else None
    # before its analysis lands, a version has its parse's diagnostics (every analysis reports them too)
    diagnostics = ls.shown(uri, outcome.document, outcome.diagnostics or outcome.document.diagnostics)
    graph = graph_model(outcome.document, live=live, diagnostics=diagnostics)
    return graph_json(graph, outcome.document.source)


def compare_request(ls: OnnxTextServer, params: Any) -> dict[str, Any] | None:
    from onnxtext.document import parse_document
    from onnxtext.ide.compare import compare_documents
    from onnxtext.lsp.session import display_path

    a, b = getattr(params, "a", None), getattr(params, "b", None)
    a_uri, b_uri = getattr(a, "uri", None), getattr(b, "uri", None)
    if not isinstance(a_uri, str) or not isinstance(b_uri, str):
        raise JsonRpcInvalidParams("onnxtext/compare needs 'a': {'uri', 'text'?} and 'b': {'uri'}")
    text = getattr(a, "text", None)
    if isinstance(text, str):
        a_doc = parse_document(text, "model", display_path(a_uri))
    else:
        a_doc = ls.analysis(a_uri).document
    return compare_documents(a_doc, ls.analysis(b_uri).document)


def _tensor_request(ls: OnnxTextServer, params: Any) -> tuple[Outcome, int, Sources, str]:
    uri = getattr(getattr(params, "textDocument", None), "uri", None)
    position = getattr(params, "position", None)
    if not isinstance(uri, str) or position is None:
        raise JsonRpcInvalidParams("expected 'textDocument': {'uri': ...} and 'position'")
    outcome = ls.analysis(uri)
    path = file_path(uri)
    view = ls.binaries.get(path) if path is not None else None
    offset = offset_of(outcome.document.source, L.Position(position.line, position.character))
    return outcome, offset, Sources(folder_of(uri), view.held if view is not None else None), uri


def graph_properties_request(ls: OnnxTextServer, params: Any) -> dict[str, Any] | None:
    outcome, offset, sources, uri = _tensor_request(ls, params)
    state = ls.states.get(uri)
    live = outcome.live if state is not None and state.live else None
    return properties_at(outcome.document, offset, sources, live)


def save_tensor_request(ls: OnnxTextServer, params: Any) -> dict[str, Any]:
    outcome, offset, sources, _ = _tensor_request(ls, params)
    target = getattr(params, "path", None)
    if not isinstance(target, str) or not os.path.isabs(target):
        raise JsonRpcInvalidParams("expected an absolute 'path'")
    try:
        return {"written": save_npy(outcome.document, offset, target, sources)}
    except (ValueError, OSError) as error:
        return {"refused": str(error)}


def _imports(outcome: Outcome | None) -> tuple[dict[str, int], list[tuple[str, str, str]]]:
    """The opsets a text imports and its local functions (from its latest analysis)."""
    model = outcome.document.proto if outcome is not None else None
    if not isinstance(model, ModelProto):
        return {"": latest_opset_version("") or 1}, []
    return import_table(model.opset_import), [(f.domain, f.name, f.overload) for f in model.functions]


class Feature(NamedTuple):
    """One entry of the server's table: the method, its registration options, its handler."""

    name: str
    options: Any
    handler: Callable[..., Any]


FEATURES: tuple[Feature, ...] = (
    Feature(L.INITIALIZE, None, initialize),
    Feature(L.INITIALIZED, None, initialized),
    Feature(L.WORKSPACE_DID_CHANGE_CONFIGURATION, None, did_change_configuration),
    Feature(L.TEXT_DOCUMENT_DID_OPEN, None, did_open),
    Feature(L.TEXT_DOCUMENT_DID_CHANGE, None, did_change),
    Feature(L.TEXT_DOCUMENT_DID_SAVE, None, did_save),
    Feature(L.TEXT_DOCUMENT_DID_CLOSE, None, did_close),
    Feature(
        L.TEXT_DOCUMENT_CODE_ACTION,
        L.CodeActionOptions([L.CodeActionKind.QuickFix, L.CodeActionKind.RefactorRewrite]),
        code_action,
    ),
    Feature(L.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, document_symbol),
    Feature(L.TEXT_DOCUMENT_FOLDING_RANGE, None, folding_range),
    Feature(L.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, TOKEN_LEGEND, tokens_full),
    Feature(L.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, TOKEN_LEGEND, tokens_delta),
    Feature(
        L.TEXT_DOCUMENT_COMPLETION,
        L.CompletionOptions(trigger_characters=["=", "<", "(", ",", ".", "@"], resolve_provider=True),
        completion,
    ),
    Feature(L.COMPLETION_ITEM_RESOLVE, None, completion_resolve),
    Feature(L.TEXT_DOCUMENT_CODE_LENS, None, code_lens),
    Feature(L.TEXT_DOCUMENT_INLAY_HINT, None, inlay_hint),
    Feature(OPEN_BINARY, None, open_binary_request),
    Feature(SAVE_BINARY, None, save_binary_request),
    Feature(GRAPH, None, graph_request),
    Feature(GRAPH_PROPERTIES, None, graph_properties_request),
    Feature(COMPARE, None, compare_request),
    Feature(SAVE_TENSOR, None, save_tensor_request),
    Feature(L.TEXT_DOCUMENT_SIGNATURE_HELP, L.SignatureHelpOptions(trigger_characters=["(", ","]), signature_help),
    Feature(L.TEXT_DOCUMENT_HOVER, None, hover),
    Feature(L.TEXT_DOCUMENT_DEFINITION, None, definition),
    Feature(L.TEXT_DOCUMENT_REFERENCES, None, references),
    Feature(L.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, None, highlight),
    Feature(L.TEXT_DOCUMENT_PREPARE_RENAME, None, prepare_rename),
    Feature(L.TEXT_DOCUMENT_RENAME, None, rename),
    Feature(L.TEXT_DOCUMENT_SELECTION_RANGE, None, selection_range),
    Feature(L.TEXT_DOCUMENT_FORMATTING, None, formatting),
    Feature(L.TEXT_DOCUMENT_RANGE_FORMATTING, None, range_formatting),
)
"""Every request and notification the server answers, in the order they were registered before."""

COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = ((TOGGLE_LIVE, toggle_live),)
"""``workspace/executeCommand`` commands: name and handler."""
