"""Diagnostics: errors and warnings as data with locations, shared by every stage.

The data types live here (with a diagnostic's one-line head, ``str(diag)``);
:mod:`onnxtext.diagnostics.render` turns them into text (source line and caret), JSON and
SARIF. The package imports nothing of ``render``: the arrow runs one way.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from onnxtext.span import Position, Range, SourceFile, Span

__all__ = [
    "Severity",
    "Related",
    "Edit",
    "Fix",
    "fixes_together",
    "Diagnostic",
    "OnnxTextError",
    "ParseError",
    "close_matches",
    "closest",
    "did_you_mean",
    "as_error",
]


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"

    def __str__(self) -> str:
        return self.value


@dataclass(slots=True)
class Related:
    """A secondary location that explains a diagnostic (e.g. the first definition)."""

    message: str
    span: Range | Span

    def __post_init__(self) -> None:
        span = self.span
        if isinstance(span, Span):
            self.span = Span(span.start, span.end)  # its own, as an :class:`Edit`'s


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text of ``span`` (character offsets) by ``new_text``; an empty span inserts.

    The edit keeps a span of its own: one given from the tree (a name's, an attribute's) would
    move with the tree when the language server re-reads an edit before it (spans after an
    edit are shifted in place, ``incremental/spans.py``), and a fix kept for the next version
    (``analysis/check/reuse.py``) would point elsewhere."""

    span: Span
    new_text: str

    def __post_init__(self) -> None:
        span = self.span
        object.__setattr__(self, "span", Span(span.start, span.end))


@dataclass(frozen=True, slots=True)
class Fix:
    """A suggested change: ``message`` for humans (the ``help:`` line), ``edits`` for tools.

    ``edits`` is empty when the fix cannot be applied mechanically (a binary model, a
    choice only the user can make); otherwise applying every edit makes the change.
    """

    message: str
    edits: tuple[Edit, ...] = ()

    def apply(self, text: str) -> str:
        """``text`` with every edit applied (edits must not overlap)."""
        for edit in sorted(self.edits, key=lambda e: e.span.start, reverse=True):
            text = text[: edit.span.start] + edit.new_text + text[edit.span.end :]
        return text


@dataclass(slots=True)
class Diagnostic:
    """One problem found in a text or a model.

    ``span`` locates it in ``source`` when the input was text: it may be given as a
    :class:`Span` of offsets and is stored resolved, so ``d.span.start.line`` and
    ``d.span.start.column`` are 1-based positions. ``path`` is a readable protobuf path
    (``graph/node[12] (MatMul 'mm1') input 0``), used when the input was a binary model.
    """

    code: str
    severity: Severity
    message: str
    span: Range | None = None
    source: SourceFile | None = None
    related: tuple[Related, ...] = ()
    path: str | None = None
    fix: Fix | None = None

    def __post_init__(self) -> None:
        if isinstance(self.fix, str):
            self.fix = Fix(self.fix)
        span: Range | Span | None = self.span
        if isinstance(span, Span):
            self.span = self.source.range(span) if self.source is not None else None
        for rel in self.related:
            if isinstance(rel.span, Span) and self.source is not None:
                rel.span = self.source.range(rel.span)

    @classmethod
    def at(
        cls,
        code: str,
        severity: Severity,
        message: str,
        span: Span | None,
        source: SourceFile | None,
        *,
        fix: Fix | str | None = None,
        related: tuple[Related, ...] = (),
    ) -> Diagnostic:
        """A diagnostic located by character offsets in ``source``."""
        resolved = source.range(span) if span is not None and source is not None else None
        return cls(code, severity, message, resolved, source, related, fix=Fix(fix) if isinstance(fix, str) else fix)

    @property
    def start(self) -> Position | None:
        return self.span.start if self.span is not None else None

    @property
    def offset(self) -> int:
        """Start offset in the source, -1 when the diagnostic has no span (for sorting)."""
        return self.span.start.offset if self.span is not None else -1

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def head(self, file: str | None = None) -> str:
        """``path:line:col: error[CODE]: message`` (a diagnostic without a source: headed by ``file``
        when given, with its readable proto path in parentheses)."""
        src = self.source
        if src is not None and self.span is not None:
            pos = self.span.start
            where = f"{src.path}:{pos.line}:{pos.column}"
        elif src is not None:
            where = src.path
        else:
            where = file or self.path or "<input>"
        head = f"{where}: {self.severity.value}[{self.code}]: {self.message}"
        if self.path and self.span is None and where != self.path:
            head += f" (at {self.path})"
        return head

    def __str__(self) -> str:
        return self.head()


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


def as_error(diag: Diagnostic) -> Diagnostic:
    """``diag`` with a warning's severity raised to error (``--strict``, ``-W error``)."""
    return dataclasses.replace(diag, severity=Severity.ERROR) if diag.severity is Severity.WARNING else diag


def close_matches(word: str, choices: Iterable[str], n: int = 1, cutoff: float = 0.6) -> list[str]:
    """The choices most like ``word``, at most ``n``, best first (for "did you mean" suggestions).

    What ``difflib.get_close_matches`` gives over the sorted distinct choices; those it would
    refuse on a bound are left out first, in C (a typo in a use among 30,000 names: a few choices
    kept of 30,000). The bound: a choice of length ``m`` with ``k`` characters found in ``word``
    matches at most ``min(len(word), k)`` of them, and difflib keeps it only if ``2 * matches /
    (len(word) + m)`` reaches the cutoff."""
    size = len(word)
    outside = str.maketrans("", "", word)  # deletes the characters of ``word``
    kept = {
        c
        for c in choices
        if not (size + len(c)) or 2.0 * min(size, len(c) - len(c.translate(outside))) / (size + len(c)) >= cutoff
    }
    return difflib.get_close_matches(word, sorted(kept), n=n, cutoff=cutoff)


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice most like ``word`` (:func:`close_matches`' first), or ``None``."""
    close = close_matches(word, choices)
    return close[0] if close else None


def did_you_mean(suggestion: str | None) -> str:
    """``"; did you mean 'x'?"`` to end a message with, or ``""`` without a suggestion."""
    return f"; did you mean '{suggestion}'?" if suggestion is not None else ""


def fixes_together(diags: Iterable[Diagnostic]) -> tuple[int, list[Edit]] | None:
    """The edits of several diagnostics' fixes made together (a fix whose edits meet another's left out),
    and how many fixes they make; None for fewer than two."""
    taken: list[Edit] = []
    count = 0
    for diag in diags:
        assert diag.fix is not None
        mine = sorted(diag.fix.edits, key=lambda e: (e.span.start, e.span.end))
        if any(not (e.span.end <= t.span.start or t.span.end <= e.span.start) for e in mine for t in taken):
            continue
        taken.extend(mine)
        count += 1
    return (count, sorted(taken, key=lambda e: e.span.start)) if count >= 2 else None
