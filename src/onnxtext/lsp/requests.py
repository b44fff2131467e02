"""The server's handlers: one small function per request or notification, a few lines over a query.

Each converts positions, asks an ``ide/`` query over the snapshot it is given and converts the
answer (``lsp/convert.py``). :data:`FEATURES` lists them with their options and, for a request
about a document, the freshness of the snapshot it reads (``onnxtext.host.Freshness``);
``build_server`` registers the table, so what the server offers, and how fresh, is read here in
one place.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from lsprotocol import types as L
from pygls.exceptions import JsonRpcInvalidParams

from onnxtext.binary import open_binary, save_binary, save_refusal
from onnxtext.diagnostics import Edit, OnnxTextError
from onnxtext.document import parse_document
from onnxtext.host import Freshness, Outcome, Settings, Snapshot
from onnxtext.host.analyse import InputFileError, document_inputs
from onnxtext.host.documents import display_path, file_path, folder_of
from onnxtext.ide.compare import compare_documents, compare_values
from onnxtext.ide.complete import call_at, complete, context_at, documentation, schema_for, values_in_scope
from onnxtext.ide.document_highlight import highlights
from onnxtext.ide.gestures import extracted_uri, gestures_at
from onnxtext.ide.graph import GraphCache, graph_model
from onnxtext.ide.graph_properties import Sources, properties_at, save_npy
from onnxtext.ide.hints import hints_between
from onnxtext.ide.hover import HoverInfo, hover_at
from onnxtext.ide.insert import insert_node, insert_targets, insertable, palette
from onnxtext.ide.lens import live_lens
from onnxtext.ide.outline import folding_ranges, outline
from onnxtext.ide.paste import copied_block, paste_nodes
from onnxtext.ide.rename import rename_problem, rename_targets
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
from onnxtext.lsp.session import OnnxTextServer, request_path
from onnxtext.proto import ModelProto
from onnxtext.span import SourceFile, Span

if TYPE_CHECKING:
    from onnxtext.compare.budgeted import Compared

__all__ = [
    "COMMANDS",
    "COMPARE",
    "COMPARE_VALUES",
    "COPY_COMMAND",
    "UNTRUSTED_COMPARE",
    "FEATURES",
    "Feature",
    "GRAPH",
    "GRAPH_PROPERTIES",
    "INSERT_COMMAND",
    "INSERT_NODE",
    "PASTE_NODES",
    "RENAME_COMMAND",
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
"""Request ``{textDocument: {uri}, folded?}`` → ``{nodes, edges, groups}``: the data-flow graph
(``ide/graph``); with ``folded: true``, a big graph's folded top level only (``ide.graph.folded_json``,
marked by its ``total``): a view's first picture, before it asks for the whole."""
GRAPH_PROPERTIES = "onnxtext/graphProperties"
"""Request ``{textDocument: {uri}, position}`` → the graph view's properties panel for the statement
there, weights' statistics included (``ide/graph_properties``), or null."""
COMPARE = "onnxtext/compare"
"""Request ``{textDocument: {uri}, a: {uri, text}}`` → ``{same, graph, changes, renamed}`` or null: the
document's (B's) graph marked by its structural diff against A's text (another file's, HEAD's, the
disk's, as the client holds it), each change with its statement's range in both texts (``ide/compare``)."""
COMPARE_VALUES = "onnxtext/compareValues"
"""Request ``{textDocument: {uri}, a: {uri, text}, rtol?, atol?}`` → both models run on the same inputs
(B's live-values inputs, the rest made up; in a child process, within the live-values budget; never in
an untrusted workspace) and every matched value compared, as ``onnxtext compare`` does: ``{values, first,
outputs, compared, inputs, graph}``, or ``{values: null, reason}`` (``ide/compare.compare_values``)."""
INSERT_NODE = "onnxtext/insertNode"
"""Request ``{textDocument: {uri}, value, op?: {domain, name}}`` (``ide/insert``): without ``op``,
``{value, version, operators: [{domain, name, since, required}]}``, the palette; with it, ``{title,
version, name, snippet: {range, text}, edits: [{range, newText}]}``, the statement to insert as a
snippet and the readers rewired; ``{refused}`` when the value cannot take a node."""
PASTE_NODES = "onnxtext/pasteNodes"
"""Request ``{textDocument: {uri}, position, source: {uri, text, range}}`` (``ide/paste``) → ``{title,
version, edits: [{range, newText}], notes}``: the node statements ``range`` of the source text meets,
pasted at ``position`` with the initializers, functions and opset imports they need, clashes renamed
(``notes``: what another opset version changes, also in the title); or ``{refused}``."""
INSERT_COMMAND = "onnxtext.insertNode"
"""The extension's command the *Insert a node on 'x'…* code actions run: ``(uri, version, value)``."""
COPY_COMMAND = "onnxtext.copyNodesAt"
"""The extension's command the *Copy node 'x'…* code actions run (the graph's menu): ``(uri, range)``, the
lines of the node statements to copy as *Copy Nodes* does (then Paste Nodes, or Ctrl+V, in another model)."""
RENAME_COMMAND = "onnxtext.renameValue"
"""The extension's command the *Rename value 'x'…* code actions run: ``(uri, version, value, position)``,
the position a name of the value (the client asks the new name, then textDocument/rename there)."""
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
    ls.host.reanalyse()


# The per-edit notifications are plain functions: pygls keeps the task of an async notification
# handler in its protocol's request table forever (one entry per keystroke, issue #24).
def did_open(ls: OnnxTextServer, params: L.DidOpenTextDocumentParams) -> None:
    document = params.text_document
    ls.opened(document.uri, document.text, document.version)


def did_change(ls: OnnxTextServer, params: L.DidChangeTextDocumentParams) -> None:
    ls.changed(params.text_document.uri, params.text_document.version, params.content_changes)


def did_save(ls: OnnxTextServer, params: L.DidSaveTextDocumentParams) -> None:
    ls.document(params.text_document.uri).schedule(delay=False)


def did_close(ls: OnnxTextServer, params: L.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)


# ------------------------------------------------------------ queries (each reads the snapshot its feature declares)
def code_action(ls: OnnxTextServer, params: L.CodeActionParams, snap: Snapshot) -> list[L.CodeAction]:
    if snap.found is None:
        return []
    uri = params.text_document.uri
    # the fixes of the last analysis, located with their diagnostics in the current text
    actions = lsp_quick_fixes(snap.fixes(), snap.source, uri, snap.version, params.range)
    if snap.current:  # the gestures (ide/gestures) on the analysed text, when it is the current one
        source, version = snap.source, snap.version
        where = L.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        lo, hi = offset_of(source, params.range.start), offset_of(source, params.range.end)
        # a selection's extractions build and print a sub-model: made when the user asks for the
        # actions (the menu, Ctrl+.), not each time the editor asks on its own as the selection moves
        asked = params.context.trigger_kind != L.CodeActionTriggerKind.Automatic
        for g in gestures_at(snap.outcome.document, lo, hi if asked else None):
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
        for value in insert_targets(snap.outcome.document, lo, hi):  # the palette is the client's (a command)
            title = f"Insert a node on '{value}'…"
            command = L.Command(title, INSERT_COMMAND, arguments=[uri, version, value])
            actions.append(L.CodeAction(title, kind=L.CodeActionKind.RefactorRewrite, command=command))
        for value, span in rename_targets(snap.outcome.document, lo, hi):  # the new name is the client's
            title = f"Rename value '{value}'…"
            at = lsp_range(source, span).start
            command = L.Command(title, RENAME_COMMAND, arguments=[uri, version, value, at])
            actions.append(L.CodeAction(title, kind=L.CodeActionKind.RefactorRewrite, command=command))
        copied = copied_block(snap.outcome.document, lo, hi)
        if copied is not None:
            block, title = copied
            command = L.Command(title, COPY_COMMAND, arguments=[uri, lsp_range(source, block)])
            actions.append(L.CodeAction(title, kind=L.CodeActionKind.RefactorRewrite, command=command))
    return actions


def insert_node_request(ls: OnnxTextServer, params: Any, snap: Snapshot) -> dict[str, Any]:
    """:data:`INSERT_NODE`: the palette of operators for ``value``, or the edit inserting the one chosen."""
    value, op = getattr(params, "value", None), getattr(params, "op", None)
    if not isinstance(value, str):
        raise JsonRpcInvalidParams("onnxtext/insertNode needs 'value': a value's name")
    doc, source, version = snap.document, snap.source, snap.version
    if op is None:
        if not insertable(doc, value):
            return {"refused": f"no node can be inserted on '{value}' (not a value of the main graph)"}
        operators = [
            {"domain": o.domain, "name": o.name, "since": o.since_version, "required": list(o.required)}
            for o in palette(doc)
        ]
        return {"value": value, "version": version, "operators": operators}
    domain, name = getattr(op, "domain", ""), getattr(op, "name", None)
    if not isinstance(domain, str) or not isinstance(name, str):
        raise JsonRpcInvalidParams("onnxtext/insertNode's 'op' is {domain, name}")
    made = insert_node(doc, value, domain, name)
    if made is None:
        return {"refused": f"{name} cannot be inserted on '{value}'"}
    return {
        "title": made.title,
        "version": version,
        "name": made.name,
        "snippet": {"range": source.lsp_range_json(Span(made.at, made.at)), "text": made.snippet},
        "edits": _plain_edits(source, made.rewires),
    }


def _plain_edits(source: SourceFile, edits: Iterable[Edit]) -> list[dict[str, Any]]:
    return [{"range": source.lsp_range_json(e.span), "newText": e.new_text} for e in edits]


def paste_nodes_request(ls: OnnxTextServer, params: Any, snap: Snapshot) -> dict[str, Any]:
    """:data:`PASTE_NODES`: the edits pasting another model's node statements with what they need."""
    source, position = getattr(params, "source", None), getattr(params, "position", None)
    s_uri, text, span = getattr(source, "uri", None), getattr(source, "text", None), getattr(source, "range", None)
    if not isinstance(s_uri, str) or not isinstance(text, str) or span is None or position is None:
        raise JsonRpcInvalidParams("onnxtext/pasteNodes needs 'position' and 'source': {'uri', 'text', 'range'}")
    at = _offset(snap.source, position, PASTE_NODES)
    other = parse_document(text, "model", display_path(s_uri))
    lo = _offset(other.source, getattr(span, "start", None), PASTE_NODES)
    hi = _offset(other.source, getattr(span, "end", None), PASTE_NODES)
    pasted = paste_nodes(other, lo, hi, snap.document, at)
    if pasted is None:
        return {"refused": "no node statement copied, or the cursor is not in the main graph's body"}
    edits = _plain_edits(snap.source, pasted.edits)
    return {"title": pasted.title, "version": snap.version, "edits": edits, "notes": list(pasted.notes)}


def document_symbol(ls: OnnxTextServer, params: L.DocumentSymbolParams, snap: Snapshot) -> list[L.DocumentSymbol]:
    doc = snap.document
    return document_symbols(outline(doc.tree), doc.source)


def folding_range(ls: OnnxTextServer, params: L.FoldingRangeParams, snap: Snapshot) -> list[L.FoldingRange]:
    doc = snap.document
    return folding(folding_ranges(doc.tree, doc.source, doc.comments))


async def tokens_full(ls: OnnxTextServer, params: L.SemanticTokensParams, snap: Snapshot) -> L.SemanticTokens:
    """The tokens of the current version, encoded off the event loop (made ahead by the run, or
    waiting for it to be) holding the document's lease."""
    document = ls.document(params.text_document.uri)
    tokens = document.tokens
    result_id, data = await document.off_loop(snap, lambda doc: tokens.full(doc, None))
    return L.SemanticTokens(data=data, result_id=result_id)


async def tokens_delta(
    ls: OnnxTextServer, params: L.SemanticTokensDeltaParams, snap: Snapshot
) -> L.SemanticTokens | L.SemanticTokensDelta:
    document = ls.document(params.text_document.uri)
    tokens, previous = document.tokens, params.previous_result_id
    result_id, data, edits = await document.off_loop(snap, lambda doc: tokens.delta(doc, None, previous))
    if edits is None:
        return L.SemanticTokens(data=data, result_id=result_id)
    return L.SemanticTokensDelta(
        edits=[L.SemanticTokensEdit(e.start, e.delete_count, e.data) for e in edits], result_id=result_id
    )


def completion(ls: OnnxTextServer, params: L.CompletionParams, snap: Snapshot) -> L.CompletionList:
    source = snap.source
    offset = offset_of(source, params.position)
    context = context_at(source.text, offset)
    opsets, functions = _imports(snap.outcome)
    values: list[tuple[str, str]] = []
    if context.kind == "value":  # names of the current text (none deleted since), typed once it is analysed
        values = values_in_scope(snap.document, offset, typed=snap.checked)
    items = complete(context, opsets, functions, values)
    return L.CompletionList(is_incomplete=False, items=completion_items(items, source, context.replace))


def completion_resolve(ls: OnnxTextServer, item: L.CompletionItem) -> L.CompletionItem:
    text = documentation(item.data)
    if text is not None:
        item.documentation = L.MarkupContent(L.MarkupKind.Markdown, text)
    return item


def signature_help(ls: OnnxTextServer, params: L.SignatureHelpParams, snap: Snapshot) -> L.SignatureHelp | None:
    text = snap.source.text
    call = call_at(text, offset_of(snap.source, params.position))
    imports = _imports(snap.outcome)[0]  # the last analysis's opsets
    schema = schema_for((call[0], call[1]), imports) if call is not None else None
    return signature(schema, call[2]) if schema is not None and call is not None else None


def code_lens(ls: OnnxTextServer, params: L.CodeLensParams, snap: Snapshot) -> list[L.CodeLens]:
    uri = params.text_document.uri
    outcome = snap.outcome
    lens = live_lens(outcome.document, ls.document(uri).live, outcome.live)
    if lens is None:
        return []
    command = L.Command(title=lens.title, command=TOGGLE_LIVE, arguments=[uri])
    return [L.CodeLens(range=lsp_range(outcome.document.source, lens.span), command=command)]


def toggle_live(ls: OnnxTextServer, uri: str) -> bool:
    document = ls.host.documents.get(uri)
    if document is None:
        return False
    live = document.toggle_live()
    ls.refresh_views()
    return live


def inlay_hint(ls: OnnxTextServer, params: L.InlayHintParams, snap: Snapshot) -> list[L.InlayHint]:
    if snap.found is None:
        return []
    outcome, source, change = snap.outcome, snap.source, snap.change  # carried through the change since
    lo, hi = offset_of(source, params.range.start), offset_of(source, params.range.end)
    live = outcome.live if ls.document(params.text_document.uri).live else None
    moved = change.offset if change is not None else None
    found = hints_between(outcome.document, lo, hi, types=ls.settings.type_hints, live=live, moved=moved)
    return [L.InlayHint(lsp_position(source, h.offset), h.label, tooltip=h.tooltip, padding_left=True) for h in found]


def hover(ls: OnnxTextServer, params: L.HoverParams, snap: Snapshot) -> L.Hover | None:
    shows_live = ls.document(params.text_document.uri).live
    sources = _sources(ls, params.text_document.uri)

    def query(outcome: Outcome, offset: int) -> tuple[HoverInfo | None, list[Span]]:
        found = hover_at(outcome.document, offset, outcome.live if shows_live else None, sources)
        return found, [found.span] if found is not None else []

    found, spans = snap.answer(offset_of(snap.source, params.position), query)
    if found is None:
        return None
    return L.Hover(L.MarkupContent(L.MarkupKind.Markdown, found.markdown), lsp_range(snap.source, spans[0]))


def definition(ls: OnnxTextServer, params: L.DefinitionParams, snap: Snapshot) -> list[L.Location]:
    offset = offset_of(snap.source, params.position)
    _, spans = snap.answer(offset, lambda outcome, at: (None, outcome.document.definition_at(at)))
    return [L.Location(params.text_document.uri, lsp_range(snap.source, s)) for s in spans]


def references(ls: OnnxTextServer, params: L.ReferenceParams, snap: Snapshot) -> list[L.Location]:
    def query(outcome: Outcome, offset: int) -> tuple[None, list[Span]]:
        doc = outcome.document
        symbol = doc.symbol_at(offset)
        return None, [] if symbol is None else doc.references(
            symbol, include_definitions=params.context.include_declaration
        )

    _, spans = snap.answer(offset_of(snap.source, params.position), query)
    return [L.Location(params.text_document.uri, lsp_range(snap.source, s)) for s in spans]


def highlight(ls: OnnxTextServer, params: L.DocumentHighlightParams, snap: Snapshot) -> list[L.DocumentHighlight]:
    kinds = {True: L.DocumentHighlightKind.Write, False: L.DocumentHighlightKind.Read}

    def query(outcome: Outcome, offset: int) -> tuple[list[bool], list[Span]]:
        found = highlights(outcome.document, offset)
        return [h.write for h in found], [h.span for h in found]

    writes, spans = snap.answer(offset_of(snap.source, params.position), query)
    return [L.DocumentHighlight(lsp_range(snap.source, s), kinds[w]) for s, w in zip(spans, writes, strict=True)]


def prepare_rename(ls: OnnxTextServer, params: L.PrepareRenameParams, snap: Snapshot) -> L.Range | None:
    doc = snap.document
    occurrence = doc.symbols.occurrence_at(offset_of(doc.source, params.position))
    return lsp_range(doc.source, occurrence.span) if occurrence is not None else None


def rename(ls: OnnxTextServer, params: L.RenameParams, snap: Snapshot) -> L.WorkspaceEdit | None:
    doc = snap.document
    symbol = doc.symbol_at(offset_of(doc.source, params.position))
    if symbol is None:
        return None
    problem = rename_problem(doc, symbol, params.new_name)
    if problem is not None:
        raise JsonRpcInvalidParams(problem)
    edits = lsp_text_edits(doc.source, doc.symbols.rename_edits(symbol, params.new_name))
    document = L.OptionalVersionedTextDocumentIdentifier(params.text_document.uri, snap.version)
    return L.WorkspaceEdit(document_changes=[L.TextDocumentEdit(document, list(edits))])


def selection_range(ls: OnnxTextServer, params: L.SelectionRangeParams, snap: Snapshot) -> list[L.SelectionRange]:
    doc = snap.document
    out = []
    for position in params.positions:
        chain: L.SelectionRange | None = None
        for span in selection_spans(doc, offset_of(doc.source, position)):  # outermost first
            chain = L.SelectionRange(lsp_range(doc.source, span), chain)
        out.append(chain or L.SelectionRange(L.Range(position, position)))
    return out


def formatting(ls: OnnxTextServer, params: L.DocumentFormattingParams, snap: Snapshot) -> list[L.TextEdit] | None:
    return ls.format_edits(snap)  # the current text, formatted whole (no analysis read)


def range_formatting(
    ls: OnnxTextServer, params: L.DocumentRangeFormattingParams, snap: Snapshot
) -> list[L.TextEdit] | None:
    # the current version's tree, not a parse of the whole text: the cost is that of the range's statements
    return ls.range_format_edits(snap.document, params.range)


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
_GRAPHS = GraphCache()
"""The graphs of the analyses last shown: built once for a view's folded picture and its whole graph."""


def graph_request(ls: OnnxTextServer, params: Any, snap: Snapshot) -> dict[str, Any]:
    outcome = snap.outcome
    uri = params.textDocument.uri
    folded = getattr(params, "folded", None)
    if folded is not None and not isinstance(folded, bool):
        raise JsonRpcInvalidParams(f"{GRAPH}'s 'folded' must be true or false")
    live = outcome.live if ls.document(uri).live else None
    # before its analysis lands, a version has its parse's diagnostics (every analysis reports them too)
    diagnostics = ls.shown(uri, outcome.document, outcome.diagnostics or outcome.document.diagnostics)
    marks = (live is not None, tuple((d.offset, d.severity) for d in diagnostics))
    return _GRAPHS.answer(
        uri,
        outcome,
        marks,
        lambda: graph_model(outcome.document, live=live, diagnostics=diagnostics),
        outcome.document.source,
        folded=bool(folded),
    )


def compare_request(ls: OnnxTextServer, params: Any, snap: Snapshot) -> dict[str, Any] | None:
    """Request ``{textDocument: {uri}, a: {uri, text}}``: the document's text (B) compared with the
    other version's ``text`` (A, named by its ``uri``), :func:`~onnxtext.ide.compare.compare_documents`;
    null when either is no model."""
    a_uri, text = _other_side(params, COMPARE)
    return compare_documents(parse_document(text, "model", display_path(a_uri)), snap.document)


async def compare_values_request(ls: OnnxTextServer, params: Any, snap: Snapshot) -> dict[str, Any]:
    """Request ``onnxtext/compareValues``: the texts parsed again and both models run off the event loop
    (:func:`~onnxtext.compare.budgeted.compare_budgeted`, stopped when the request is cancelled),
    :func:`~onnxtext.ide.compare.compare_values`."""
    a_uri, text = _other_side(params, COMPARE_VALUES)
    rtol, atol = _tolerance(params, "rtol", 1e-5), _tolerance(params, "atol", 1e-8)
    if not ls.trusted:
        return {"values": None, "reason": UNTRUSTED_COMPARE}
    b_uri, b_text, settings = params.textDocument.uri, snap.document.source.text, ls.settings
    try:  # as B's live values run: the settings' inputs, then its inputs file's (A's names)
        inputs = document_inputs(file_path(b_uri), settings)
    except InputFileError as exc:
        return {"values": None, "reason": str(exc)}
    cancel = threading.Event()

    def run(a: ModelProto, b: ModelProto) -> Compared:
        from onnxtext.compare.budgeted import compare_budgeted  # numpy's, loaded when first asked

        return compare_budgeted(
            a,
            b,
            a_dir=folder_of(a_uri),
            b_dir=folder_of(b_uri),
            sizes=settings.sizes,
            inputs=inputs,
            rtol=rtol,
            atol=atol,
            budget=settings.budget,
            cancel=cancel,
        )

    def answer() -> dict[str, Any]:  # B parsed again: the snapshot's document is not held for the run
        a = parse_document(text, "model", display_path(a_uri))
        return compare_values(a, parse_document(b_text, "model", display_path(b_uri)), run)

    try:
        return await asyncio.get_running_loop().run_in_executor(None, answer)
    finally:
        cancel.set()  # the request cancelled (or answered): the child, if any, is stopped


UNTRUSTED_COMPARE = "the folder is not trusted: the models are not run (Restricted Mode)"
"""Why ``onnxtext/compareValues`` runs nothing in an untrusted workspace."""


def _other_side(params: Any, method: str) -> tuple[str, str]:
    a = getattr(params, "a", None)
    a_uri, text = getattr(a, "uri", None), getattr(a, "text", None)
    if not isinstance(a_uri, str) or not isinstance(text, str):
        raise JsonRpcInvalidParams(f"{method} needs 'a': {{'uri': ..., 'text': ...}}")
    return a_uri, text


def _tolerance(params: Any, key: str, default: float) -> float:
    value = getattr(params, key, None)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
        raise JsonRpcInvalidParams(f"'{key}' must be a number, at least 0")
    return float(value)


def _offset(source: SourceFile, position: Any, method: str) -> int:
    """The offset of a custom request's ``position`` (a protocol ``{line, character}``), or invalid params."""
    line, character = getattr(position, "line", None), getattr(position, "character", None)
    if not isinstance(line, int) or not isinstance(character, int) or min(line, character) < 0:
        raise JsonRpcInvalidParams(f"{method} needs a 'position': {{'line': ..., 'character': ...}}")
    return offset_of(source, L.Position(line, character))


def _tensor_request(ls: OnnxTextServer, params: Any, snap: Snapshot, method: str) -> tuple[Outcome, int, Sources]:
    outcome = snap.outcome
    offset = _offset(outcome.document.source, getattr(params, "position", None), method)
    return outcome, offset, _sources(ls, params.textDocument.uri)


def _sources(ls: OnnxTextServer, uri: str) -> Sources:
    """Where the tensors of the document at ``uri`` are outside its text: its folder, a view's held tensors."""
    path = file_path(uri)
    view = ls.binaries.get(path) if path is not None else None
    return Sources(folder_of(uri), view.held if view is not None else None)


def graph_properties_request(ls: OnnxTextServer, params: Any, snap: Snapshot) -> dict[str, Any] | None:
    outcome, offset, sources = _tensor_request(ls, params, snap, GRAPH_PROPERTIES)
    live = outcome.live if ls.document(params.textDocument.uri).live else None
    return properties_at(outcome.document, offset, sources, live)


def save_tensor_request(ls: OnnxTextServer, params: Any, snap: Snapshot) -> dict[str, Any]:
    outcome, offset, sources = _tensor_request(ls, params, snap, SAVE_TENSOR)
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
    """One entry of the server's table: the method, its registration options, its handler, and for a
    request about a document, the snapshot it reads (``handler(ls, params, snapshot)``)."""

    name: str
    options: Any
    handler: Callable[..., Any]
    freshness: Freshness | None = None
    """How fresh an analysis the handler answers from (:class:`~onnxtext.host.Freshness`); None: no document's."""
    view: bool = False
    """A view the client keeps until asked to refresh it (inlay hints): one answered from an older analysis
    is refreshed once the current one lands."""


LAST, SETTLED, PARSED, TOKENS, CURRENT = (
    Freshness.LAST,
    Freshness.SETTLED,
    Freshness.PARSED,
    Freshness.TOKENS,
    Freshness.CURRENT,
)

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
        LAST,
    ),
    Feature(L.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, document_symbol, CURRENT),
    Feature(L.TEXT_DOCUMENT_FOLDING_RANGE, None, folding_range, CURRENT),
    Feature(L.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, TOKEN_LEGEND, tokens_full, TOKENS),
    Feature(L.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, TOKEN_LEGEND, tokens_delta, TOKENS),
    Feature(
        L.TEXT_DOCUMENT_COMPLETION,
        L.CompletionOptions(trigger_characters=["=", "<", "(", ",", ".", "@"], resolve_provider=True),
        completion,
        PARSED,
    ),
    Feature(L.COMPLETION_ITEM_RESOLVE, None, completion_resolve),
    Feature(L.TEXT_DOCUMENT_CODE_LENS, None, code_lens, PARSED),
    Feature(L.TEXT_DOCUMENT_INLAY_HINT, None, inlay_hint, SETTLED, view=True),
    Feature(OPEN_BINARY, None, open_binary_request),
    Feature(SAVE_BINARY, None, save_binary_request),
    Feature(GRAPH, None, graph_request, PARSED),
    Feature(GRAPH_PROPERTIES, None, graph_properties_request, PARSED),
    Feature(SAVE_TENSOR, None, save_tensor_request, PARSED),
    Feature(INSERT_NODE, None, insert_node_request, PARSED),
    Feature(PASTE_NODES, None, paste_nodes_request, PARSED),
    Feature(COMPARE, None, compare_request, PARSED),
    Feature(COMPARE_VALUES, None, compare_values_request, PARSED),
    Feature(
        L.TEXT_DOCUMENT_SIGNATURE_HELP, L.SignatureHelpOptions(trigger_characters=["(", ","]), signature_help, LAST
    ),
    Feature(L.TEXT_DOCUMENT_HOVER, None, hover, SETTLED),
    Feature(L.TEXT_DOCUMENT_DEFINITION, None, definition, LAST),
    Feature(L.TEXT_DOCUMENT_REFERENCES, None, references, LAST),
    Feature(L.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, None, highlight, LAST),
    Feature(L.TEXT_DOCUMENT_PREPARE_RENAME, None, prepare_rename, PARSED),
    Feature(L.TEXT_DOCUMENT_RENAME, None, rename, PARSED),
    Feature(L.TEXT_DOCUMENT_SELECTION_RANGE, None, selection_range, PARSED),
    Feature(L.TEXT_DOCUMENT_FORMATTING, None, formatting, LAST),
    Feature(L.TEXT_DOCUMENT_RANGE_FORMATTING, None, range_formatting, PARSED),
)
"""Every request and notification the server answers, in the order they were registered before, each
request about a document with the freshness of the snapshot it reads."""

COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = ((TOGGLE_LIVE, toggle_live),)
"""``workspace/executeCommand`` commands: name and handler."""
