"""onnxtext's query results, diagnostics and fixes → Language Server Protocol types (the only place that converts).

Positions: onnxtext spans are character offsets; the protocol counts 0-based lines and
UTF-16 code units (``SourceFile.lsp_position``), so non-ASCII text lands right.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lsprotocol import types as L

from onnxtext.diagnostics import Diagnostic, Edit, Severity, fixes_together
from onnxtext.host.change import Change
from onnxtext.ide.complete import Item
from onnxtext.ide.outline import Fold, OutlineItem
from onnxtext.ide.schema_docs import parameter_text, signature_label
from onnxtext.ide.semantic import TOKEN_MODIFIERS, TOKEN_TYPES
from onnxtext.ir.schemas import OpSchema
from onnxtext.span import Range, SourceFile, Span

__all__ = [
    "change_of",
    "completion_items",
    "document_symbols",
    "folding",
    "signature",
    "TOKEN_LEGEND",
    "lsp_position",
    "lsp_range",
    "lsp_diagnostic",
    "lsp_text_edits",
    "lsp_quick_fixes",
    "offset_of",
    "span_of",
    "LSP_SOURCE",
]


_SYMBOL_KINDS = {
    "model": L.SymbolKind.Module,
    "graph": L.SymbolKind.Class,
    "function": L.SymbolKind.Function,
    "input": L.SymbolKind.Variable,
    "output": L.SymbolKind.Variable,
    "initializer": L.SymbolKind.Constant,
    "node": L.SymbolKind.Operator,  # a node is an application of an operator (Field read as data)
}


def document_symbols(items: Sequence[OutlineItem], source: SourceFile) -> list[L.DocumentSymbol]:
    """The outline as nested document symbols."""
    return [
        L.DocumentSymbol(
            name=item.name or "(unnamed)",
            kind=_SYMBOL_KINDS.get(item.kind, L.SymbolKind.Object),
            range=lsp_range(source, item.span),
            selection_range=lsp_range(source, item.selection),
            detail=item.detail or None,
            children=document_symbols(item.children, source) or None,
        )
        for item in items
    ]


_FOLD_KINDS = {
    "comment": L.FoldingRangeKind.Comment,
    "imports": L.FoldingRangeKind.Imports,
    "region": L.FoldingRangeKind.Region,
}


def folding(folds: Sequence[Fold]) -> list[L.FoldingRange]:
    return [L.FoldingRange(start_line=f.start, end_line=f.end, kind=_FOLD_KINDS.get(f.kind)) for f in folds]


TOKEN_LEGEND = L.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS))


_ITEM_KINDS = {
    "operator": L.CompletionItemKind.Function,
    "function": L.CompletionItemKind.Method,
    "attribute": L.CompletionItemKind.Property,
    "dtype": L.CompletionItemKind.TypeParameter,
    "value": L.CompletionItemKind.Variable,
    "key": L.CompletionItemKind.Field,
    "domain": L.CompletionItemKind.Module,
}


def completion_items(items: Sequence[Item], source: SourceFile, replace: Span) -> list[L.CompletionItem]:
    """Items replacing the typed prefix; their documentation comes on ``completionItem/resolve``."""
    where = lsp_range(source, replace)
    out = []
    for item in items:
        text = item.insert if item.insert is not None else item.label
        out.append(
            L.CompletionItem(
                label=item.label,
                kind=_ITEM_KINDS.get(item.kind, L.CompletionItemKind.Text),
                detail=item.detail or None,
                sort_text=item.sort,
                text_edit=L.TextEdit(where, text),
                insert_text_format=L.InsertTextFormat.Snippet if item.snippet else L.InsertTextFormat.PlainText,
                data=item.data,
            )
        )
    return out


def signature(schema: OpSchema, index: int) -> L.SignatureHelp:
    """One signature with the input being written active (a variadic last input stays active)."""
    params = [
        L.ParameterInformation(
            label=parameter_text(schema, p),
            documentation=L.MarkupContent(L.MarkupKind.Markdown, ", ".join(schema.allowed_types(p))),
        )
        for p in schema.inputs
    ]
    active = min(index, len(params) - 1) if params else None
    if params and index >= len(params) and not schema.inputs[-1].is_variadic:
        active = None  # more inputs than the operator takes
    return L.SignatureHelp(
        signatures=[L.SignatureInformation(label=signature_label(schema), parameters=params, active_parameter=active)],
        active_signature=0,
        active_parameter=active,
    )


# ---------------------------------------------------------------- positions, diagnostics, fixes
# Positions in the protocol are 0-based lines and UTF-16 code units (``SourceFile.lsp_position``).

LSP_SOURCE = "onnxtext"


def span_of(where: Range | Span) -> Span:
    """Character offsets of a resolved range (or a span, unchanged)."""
    return where.offsets if isinstance(where, Range) else where


def lsp_position(source: SourceFile, offset: int) -> L.Position:
    line, character = source.lsp_position(offset)
    return L.Position(line, character)


def lsp_range(source: SourceFile, span: Span) -> L.Range:
    """The protocol range of a span of character offsets."""
    return L.Range(lsp_position(source, span.start), lsp_position(source, span.end))


def offset_of(source: SourceFile, position: L.Position) -> int:
    """The character offset of a protocol position."""
    return source.offset_of_lsp(position.line, position.character)


def lsp_diagnostic(diag: Diagnostic, source: SourceFile, uri: str) -> L.Diagnostic:
    """One diagnostic; one without a location (a model-wide problem) sits at the start of the text."""
    severity = {
        Severity.ERROR: L.DiagnosticSeverity.Error,
        Severity.WARNING: L.DiagnosticSeverity.Warning,
        Severity.INFO: L.DiagnosticSeverity.Information,
        Severity.HINT: L.DiagnosticSeverity.Hint,
    }
    span = span_of(diag.span) if diag.span is not None else Span(0, 0)
    related = [
        L.DiagnosticRelatedInformation(L.Location(uri, lsp_range(source, span_of(r.span))), r.message)
        for r in diag.related
    ]
    message = diag.message
    if diag.fix is not None and diag.fix.message:
        message += f"\nhelp: {diag.fix.message}"
    return L.Diagnostic(
        range=lsp_range(source, span),
        message=message,
        severity=severity.get(diag.severity, L.DiagnosticSeverity.Error),
        code=diag.code,
        source=LSP_SOURCE,
        related_information=related or None,
    )


def lsp_text_edits(source: SourceFile, edits: Iterable[Edit]) -> list[L.TextEdit]:
    return [L.TextEdit(lsp_range(source, e.span), e.new_text) for e in edits]


def lsp_quick_fixes(
    diags: Sequence[Diagnostic], source: SourceFile, uri: str, version: int | None, wanted: L.Range
) -> list[L.CodeAction]:
    """A quick fix for every diagnostic with structured edits whose range meets ``wanted``."""
    lo, hi = offset_of(source, wanted.start), offset_of(source, wanted.end)
    actions: list[L.CodeAction] = []
    met: list[Diagnostic] = []
    for diag in diags:
        if diag.fix is None or not diag.fix.edits or diag.span is None:
            continue
        span = span_of(diag.span)
        if span.end < lo or span.start > hi:
            continue
        met.append(diag)
        document = L.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        edit = L.WorkspaceEdit(
            document_changes=[L.TextDocumentEdit(document, list(lsp_text_edits(source, diag.fix.edits)))]
        )
        actions.append(
            L.CodeAction(
                title=diag.fix.message or f"fix {diag.code}",
                kind=L.CodeActionKind.QuickFix,
                diagnostics=[lsp_diagnostic(diag, source, uri)],
                edit=edit,
                is_preferred=sum(1 for d in diags if d.span is not None and span_of(d.span) == span) == 1,
            )
        )
    for code in dict.fromkeys(d.code for d in met):  # every fix of a code met here, at once
        edits = fixes_together(d for d in diags if d.code == code and d.fix is not None and d.fix.edits)
        if edits is None:
            continue
        count, flat = edits
        document = L.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        change = L.TextDocumentEdit(document, list(lsp_text_edits(source, flat)))
        title = f"Apply every {code} fix in the file ({count})"
        every = L.WorkspaceEdit(document_changes=[change])
        actions.append(L.CodeAction(title, kind=L.CodeActionKind.QuickFix, edit=every))
    return actions


def change_of(source: SourceFile, changes: Sequence[L.TextDocumentContentChangeEvent]) -> tuple[Change, str] | None:
    """The one change the client's content changes of one ``didChange`` make of ``source`` (each range on
    the text the one before made; a whole text by common prefix and suffix), and the text after it, made
    here once (:meth:`DocumentHost.apply <onnxtext.host.documents.DocumentHost.apply>` takes it, not
    building it again); None for no change."""
    made: list[Change] = []
    text = source.text
    for i, event in enumerate(changes):
        if isinstance(event, L.TextDocumentContentChangePartial):
            start, end = offset_of(source, event.range.start), offset_of(source, event.range.end)
            change = Change.replacing(min(start, end), max(start, end), event.text)
            text = change.apply(text)
        else:
            change = Change.between(text, event.text)
            text = event.text  # the client's own text: not built again
        made.append(change)
        if i + 1 < len(changes):  # the next event's ranges are on this text (the host edits its own source)
            source = source.edited(text, change.start, change.old_end, change.new_end)
    composed = Change.compose(made, text)
    return (composed, text) if composed is not None else None
