"""Diagnostics for people and tools: text like a compiler's, JSON, and SARIF 2.1.0.

Every renderer reads the same :class:`~onnxtext.diagnostics.Diagnostic`; positions are
1-based lines and columns (columns count characters), ends are exclusive. A fix's
edits are given as ranges of the source plus the replacement text, in JSON as
``{"line", "column", "end_line", "end_column", "new_text"}`` and in SARIF as the
standard ``fixes`` / ``artifactChanges`` / ``replacements`` objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from onnxtext.diagnostics import Diagnostic, Edit, Severity
from onnxtext.span import Range, SourceFile, Span

if TYPE_CHECKING:  # lsprotocol is imported when a server needs it: the CLI does not pay for it
    from lsprotocol import types as L

__all__ = [
    "RuleInfo",
    "render_diagnostic",
    "render_diagnostics",
    "diagnostic_json",
    "sarif_log",
    "SARIF_SCHEMA",
    "lsp_position",
    "lsp_range",
    "lsp_diagnostic",
    "lsp_text_edits",
    "lsp_quick_fixes",
    "offset_of",
    "span_of",
    "LSP_SOURCE",
]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


class RuleInfo(Protocol):
    """What SARIF's rule table needs of a checker rule (``onnxtext.analysis.check.RULES``)."""

    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    def severity(self) -> Severity: ...


# ---------------------------------------------------------------- text


def _location(diag: Diagnostic, file: str | None) -> str:
    src = diag.source
    if src is not None and diag.span is not None:
        pos = diag.span.start
        return f"{src.path}:{pos.line}:{pos.column}"
    if src is not None:
        return src.path
    return file or diag.path or "<input>"


def render_diagnostic(diag: Diagnostic, *, with_source: bool = True, file: str | None = None) -> str:
    """``path:line:col: error[CODE]: message``, then the source line and a caret under the span.

    A diagnostic without a source (a binary model) is headed by ``file`` when given, with
    its readable proto path in parentheses. ``with_source=False`` gives the head line only.
    """
    where = _location(diag, file)
    head = f"{where}: {diag.severity.value}[{diag.code}]: {diag.message}"
    if diag.path and diag.span is None and where != diag.path:
        head += f" (at {diag.path})"
    lines = [head]
    src = diag.source
    if with_source and src is not None and diag.span is not None:
        pos = diag.span.start
        text = src.line_text(pos.line)
        end = diag.span.end
        width = end.column - pos.column if end.line == pos.line else len(text) - pos.column + 1
        width = max(1, width)
        gutter = f"{pos.line:>5} | "
        lines.append(gutter + text.expandtabs(1))
        lines.append(" " * (len(gutter) + pos.column - 1) + "^" + "~" * (width - 1))
        for rel in diag.related:
            rpos = rel.span.start if isinstance(rel.span, Range) else src.position(rel.span.start)
            lines.append(f"{src.path}:{rpos.line}:{rpos.column}: note: {rel.message}")
    if with_source and diag.fix:
        lines.append(f"  help: {diag.fix.message}")
    return "\n".join(lines)


def render_diagnostics(diags: Iterable[Diagnostic]) -> str:
    return "\n".join(render_diagnostic(d) for d in diags)


# ---------------------------------------------------------------- JSON


def _edit_json(edit: Edit, source: SourceFile) -> dict[str, Any]:
    where = source.range(edit.span)
    return {
        "line": where.start.line,
        "column": where.start.column,
        "end_line": where.end.line,
        "end_column": where.end.column,
        "new_text": edit.new_text,
    }


def diagnostic_json(diag: Diagnostic, file: str) -> dict[str, Any]:
    """One diagnostic as a JSON object; ``edits`` appears when the fix can be applied to the text."""
    out: dict[str, Any] = {
        "file": file,
        "code": diag.code,
        "severity": diag.severity.value,
        "message": diag.message,
    }
    if diag.span is not None:
        out.update(
            line=diag.span.start.line,
            column=diag.span.start.column,
            end_line=diag.span.end.line,
            end_column=diag.span.end.column,
        )
    if diag.path:
        out["path"] = diag.path
    if diag.fix:
        out["fix"] = diag.fix.message
        if diag.fix.edits and diag.source is not None:
            out["edits"] = [_edit_json(e, diag.source) for e in diag.fix.edits]
    if diag.related:
        out["related"] = [
            {"message": r.message, "line": r.span.start.line, "column": r.span.start.column}
            for r in diag.related
            if isinstance(r.span, Range)
        ]
    return out


# ---------------------------------------------------------------- SARIF


def _region(where: Range) -> dict[str, int]:
    return {
        "startLine": where.start.line,
        "startColumn": where.start.column,
        "endLine": where.end.line,
        "endColumn": where.end.column,
    }


def _sarif_fixes(diag: Diagnostic, uri: str) -> list[dict[str, Any]]:
    """SARIF's ``fixes`` (only for a fix with edits: SARIF wants at least one artifact change)."""
    if not diag.fix or not diag.fix.edits or diag.source is None:
        return []
    src = diag.source
    replacements = [
        {"deletedRegion": _region(src.range(e.span)), "insertedContent": {"text": e.new_text}}
        for e in diag.fix.edits
    ]
    return [
        {
            "description": {"text": diag.fix.message},
            "artifactChanges": [{"artifactLocation": {"uri": uri}, "replacements": replacements}],
        }
    ]


_SARIF_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}


def _sarif_result(diag: Diagnostic, file: str, index: dict[str, int]) -> dict[str, Any]:
    level = _SARIF_LEVELS[diag.severity]
    result: dict[str, Any] = {"ruleId": diag.code, "level": level, "message": {"text": diag.message}}
    if diag.code in index:
        result["ruleIndex"] = index[diag.code]
    location: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": file}}}
    if diag.span is not None:
        location["physicalLocation"]["region"] = _region(diag.span)
    if diag.path:
        location["logicalLocations"] = [{"fullyQualifiedName": diag.path}]
    result["locations"] = [location]
    fixes = _sarif_fixes(diag, file)
    if fixes:
        result["fixes"] = fixes
    return result


def sarif_log(
    results: Sequence[tuple[str, Diagnostic]], rules: Sequence[RuleInfo], *, tool: str, version: str
) -> dict[str, Any]:
    """A SARIF 2.1.0 log of ``(file, diagnostic)`` pairs found by ``tool`` with ``rules``."""
    index = {rule.code: i for i, rule in enumerate(rules)}
    rule_table = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.description},
            "defaultConfiguration": {"level": _SARIF_LEVELS[rule.severity()]},  # selected by code, it warns
        }
        for rule in rules
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": tool, "version": version, "rules": rule_table}},
                "results": [_sarif_result(diag, file, index) for file, diag in results],
            }
        ],
    }


# ---------------------------------------------------------------- the Language Server Protocol
# Positions there are 0-based lines and UTF-16 code units (``SourceFile.lsp_position``).

LSP_SOURCE = "onnxtext"


def span_of(where: Range | Span) -> Span:
    """Character offsets of a resolved range (or a span, unchanged)."""
    return where.offsets if isinstance(where, Range) else where


def lsp_position(source: SourceFile, offset: int) -> L.Position:
    from lsprotocol import types as L

    line, character = source.lsp_position(offset)
    return L.Position(line, character)


def lsp_range(source: SourceFile, span: Span) -> L.Range:
    """The protocol range of a span of character offsets."""
    from lsprotocol import types as L

    return L.Range(lsp_position(source, span.start), lsp_position(source, span.end))


def offset_of(source: SourceFile, position: L.Position) -> int:
    """The character offset of a protocol position."""
    return source.offset_of_lsp(position.line, position.character)


def lsp_diagnostic(diag: Diagnostic, source: SourceFile, uri: str) -> L.Diagnostic:
    """One diagnostic; one without a location (a model-wide problem) sits at the start of the text."""
    from lsprotocol import types as L

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
    from lsprotocol import types as L

    return [L.TextEdit(lsp_range(source, e.span), e.new_text) for e in edits]


def lsp_quick_fixes(
    diags: Sequence[Diagnostic], source: SourceFile, uri: str, version: int | None, wanted: L.Range
) -> list[L.CodeAction]:
    """A quick fix for every diagnostic with structured edits whose range meets ``wanted``."""
    from lsprotocol import types as L

    lo, hi = offset_of(source, wanted.start), offset_of(source, wanted.end)
    actions: list[L.CodeAction] = []
    for diag in diags:
        if diag.fix is None or not diag.fix.edits or diag.span is None:
            continue
        span = span_of(diag.span)
        if span.end < lo or span.start > hi:
            continue
        document = L.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        edit = L.WorkspaceEdit(document_changes=[L.TextDocumentEdit(document, list(lsp_text_edits(source, diag.fix.edits)))])
        actions.append(
            L.CodeAction(
                title=diag.fix.message or f"fix {diag.code}",
                kind=L.CodeActionKind.QuickFix,
                diagnostics=[lsp_diagnostic(diag, source, uri)],
                edit=edit,
                is_preferred=sum(1 for d in diags if d.span is not None and span_of(d.span) == span) == 1,
            )
        )
    return actions
