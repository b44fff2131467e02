"""Diagnostics: errors and warnings as data with locations, shared by every stage."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .span import Position, SourceFile, Span

__all__ = [
    "Severity",
    "Related",
    "Diagnostic",
    "OnnxTextError",
    "ParseError",
    "render_diagnostic",
    "render_diagnostics",
]


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Related:
    """A secondary location that explains a diagnostic (e.g. the first definition)."""

    message: str
    span: Span


@dataclass(slots=True)
class Diagnostic:
    """One problem found in a text or a model.

    ``span`` locates it in ``source`` when the input was text; ``path`` is a readable
    protobuf path (``graph/node[12] (MatMul 'mm1') input 0``) when it was a binary model.
    """

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    source: SourceFile | None = None
    related: tuple[Related, ...] = ()
    path: str | None = None
    fix: str | None = None

    @property
    def start(self) -> Position | None:
        if self.span is None or self.source is None:
            return None
        return self.source.position(self.span.start)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def __str__(self) -> str:
        return render_diagnostic(self, with_source=False)


class OnnxTextError(Exception):
    """Base class of the errors onnxtext raises for bad input."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.diagnostics: list[Diagnostic] = list(diagnostics)


class ParseError(OnnxTextError):
    """A text could not be turned into a model; ``.diagnostics`` lists every problem found."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        errors = [d for d in diagnostics if d.is_error] or list(diagnostics)
        first = str(errors[0]) if errors else "parse error"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(first + more, diagnostics)


def _location(diag: Diagnostic) -> str:
    src = diag.source
    if src is not None and diag.span is not None:
        pos = src.position(diag.span.start)
        return f"{src.path}:{pos.line}:{pos.column}"
    if src is not None:
        return src.path
    return diag.path or "<input>"


def render_diagnostic(diag: Diagnostic, *, with_source: bool = True) -> str:
    """``path:line:col: error[CODE]: message``, then the source line and a caret under the span."""
    head = f"{_location(diag)}: {diag.severity.value}[{diag.code}]: {diag.message}"
    if diag.path and diag.span is None:
        head += f" (at {diag.path})"
    lines = [head]
    src = diag.source
    if with_source and src is not None and diag.span is not None:
        pos = src.position(diag.span.start)
        text = src.line_text(pos.line)
        end = src.position(diag.span.end)
        width = end.column - pos.column if end.line == pos.line else len(text) - pos.column + 1
        width = max(1, width)
        gutter = f"{pos.line:>5} | "
        lines.append(gutter + text.expandtabs(1))
        lines.append(" " * (len(gutter) + pos.column - 1) + "^" + "~" * (width - 1))
        for rel in diag.related:
            rpos = src.position(rel.span.start)
            lines.append(f"{src.path}:{rpos.line}:{rpos.column}: note: {rel.message}")
    if with_source and diag.fix:
        lines.append(f"  help: {diag.fix}")
    return "\n".join(lines)


def render_diagnostics(diags: Iterable[Diagnostic]) -> str:
    return "\n".join(render_diagnostic(d) for d in diags)
