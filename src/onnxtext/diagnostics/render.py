"""Diagnostics for people and tools: text like a compiler's, JSON, and SARIF 2.1.0.

Every renderer reads the same :class:`~onnxtext.diagnostics.Diagnostic`; positions are
1-based lines and columns (columns count characters), ends are exclusive. A fix's
edits are given as ranges of the source plus the replacement text, in JSON as
``{"line", "column", "end_line", "end_column", "new_text"}`` and in SARIF as the
standard ``fixes`` / ``artifactChanges`` / ``replacements`` objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from onnxtext.diagnostics import Diagnostic, Edit, Severity
from onnxtext.span import Range, SourceFile

__all__ = [
    "RuleInfo",
    "render_diagnostic",
    "render_diagnostics",
    "diagnostic_json",
    "sarif_log",
    "SARIF_SCHEMA",
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


NOTES_SHOWN = 3
"""Related locations a diagnostic's text lists one per line; more are counted on one line."""


def render_diagnostic(diag: Diagnostic, *, with_source: bool = True, file: str | None = None) -> str:
    """``path:line:col: error[CODE]: message``, then the source line and a caret under the span.

    A diagnostic without a source (a binary model) is headed by ``file`` when given, with
    its readable proto path in parentheses. ``with_source=False`` gives the head line only.
    """
    lines = [diag.head(file)]
    src = diag.source
    if with_source and src is not None and diag.span is not None:
        pos = diag.span.start
        text = src.line_text(pos.line)
        end = diag.span.end
        width = end.column - pos.column if end.line == pos.line else len(text) - pos.column + 1
        shown, at, width = _excerpt(text, pos.column - 1, max(1, width))
        gutter = f"{pos.line:>5} | "
        lines.append(gutter + shown)
        lines.append(" " * (len(gutter) + at) + "^" + "~" * (width - 1))
        if len(diag.related) > NOTES_SHOWN:
            # W201 on an export relates every name of the model: its message names a few, the JSON and SARIF all
            lines.append(f"  note: {len(diag.related)} other places, listed by --format json and sarif")
        else:
            for rel in diag.related:
                rpos = rel.span.start if isinstance(rel.span, Range) else src.position(rel.span.start)
                lines.append(f"{src.path}:{rpos.line}:{rpos.column}: note: {rel.message}")
    if with_source and diag.fix:
        lines.append(f"  help: {diag.fix.message}")
    return "\n".join(lines)


EXCERPT_WIDTH = 160
"""The most characters of a source line a diagnostic shows: a longer line (a minified text, a
10 MB string) is cut to a window around the caret, its cut ends marked with ``…``."""

_VISIBLE = {**{c: 0x2400 + c for c in range(0x20) if c != 0x09}, 0x7F: 0x2421, **{c: 0xFFFD for c in range(0x80, 0xA0)}}
"""Control characters as their pictures (NUL as ␀): a source line never moves the terminal's cursor
nor sends it an escape sequence, and each character still takes one column above the caret."""


def _excerpt(text: str, start: int, width: int) -> tuple[str, int, int]:
    """The part of the source line ``text`` shown, the column (0-based) of the caret in it and the
    caret's width, for a span ``width`` characters wide from ``start``."""
    text = text.expandtabs(1).translate(_VISIBLE)
    if len(text) <= EXCERPT_WIDTH:
        return text, start, width
    first = max(0, min(start - EXCERPT_WIDTH // 4, len(text) - EXCERPT_WIDTH))
    last = first + EXCERPT_WIDTH
    shown = ("…" if first else "") + text[first:last] + ("…" if last < len(text) else "")
    at = start - first + (1 if first else 0)
    return shown, at, max(1, min(width, last - start))


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
        {"deletedRegion": _region(src.range(e.span)), "insertedContent": {"text": e.new_text}} for e in diag.fix.edits
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
