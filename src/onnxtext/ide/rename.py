"""Renaming: whether a rename keeps the model valid (single assignment, no shadowing, unique
functions), and the values a statement offers to rename (*Rename value…* in the graph's context
menu, #32: the same rename as in the text, started from the picture)."""

from __future__ import annotations

from collections.abc import Iterator

from onnxtext.analysis.symbols import AttributeSymbol, FunctionSymbol, Scope, Symbol, ValueSymbol
from onnxtext.document import Document
from onnxtext.span import Span
from onnxtext.syntax import ast as A

__all__ = ["rename_problem", "rename_targets"]


def rename_targets(doc: Document, start: int, end: int | None = None) -> list[tuple[str, Span]]:
    """The values to offer renaming at ``start``, each with a span naming it (where the rename is
    asked): in the innermost node statement (of any graph or function), the name under the cursor
    among its inputs and outputs, else its outputs; on a graph input, output, initializer or
    value_info declaration, its name. A selection (``end``) past the name under the cursor is the
    statement's. Empty when nothing there is a value."""
    found: list[tuple[str, Span]] = []
    for item in reversed(doc.nodes_at(start)):
        if isinstance(item, A.Node):
            named = [i for i in (*item.inputs, *item.outputs) if i.value and i.span.start <= start <= i.span.end]
            if named and (end is None or end <= named[0].span.end):
                found = [(named[0].value, named[0].span)]
            else:
                found = [(o.value, o.span) for o in item.outputs if o.value]
            break
        info = item.info if isinstance(item, A.Initializer) else item if isinstance(item, A.ValueInfo) else None
        if info is not None and info.name.value:
            found = [(info.name.value, info.name.span)]
            break
        if isinstance(item, (A.Graph, A.Function)):
            break  # the cursor between statements
    unique: list[tuple[str, Span]] = []
    for name, span in found:
        if name not in (n for n, _ in unique) and isinstance(doc.symbol_at(span.start), ValueSymbol):
            unique.append((name, span))
    return unique


def rename_problem(doc: Document, symbol: Symbol, new_name: str) -> str | None:
    """Why ``symbol`` cannot be renamed to ``new_name``, or None when it can."""
    if not new_name:
        return "a name cannot be empty"
    if isinstance(symbol, ValueSymbol):
        return _value_problem(doc, symbol, new_name)
    if isinstance(symbol, FunctionSymbol):
        key = (symbol.key[0], new_name, symbol.key[2])
        if new_name != symbol.name and key in doc.symbols.functions:
            return f"a function '{new_name}' of this domain and overload exists already"
        return None
    if isinstance(symbol, AttributeSymbol):
        if new_name != symbol.name and new_name in symbol.function.attributes:
            return f"function '{symbol.function.name}' has an attribute '{new_name}' already"
        return None
    return None


def _value_problem(doc: Document, symbol: ValueSymbol, new_name: str) -> str | None:
    if new_name == symbol.name:
        return None
    scope = symbol.scope
    for other in _related_scopes(scope):
        clash = other.values.get(new_name)
        if clash is None:
            continue
        line = doc.source.position(clash.definitions[0].span.start).line if clash.definitions else "?"
        if other is scope:
            why = "the same graph would define it twice (values are assigned once)"
        elif _encloses(other, scope):
            why = "the renamed value would hide it inside this graph (no shadowing)"
        else:
            why = "it would hide the renamed value inside that graph (no shadowing)"
        return f"'{new_name}' is already a value (line {line}): {why}"
    return None


def _related_scopes(scope: Scope) -> Iterator[Scope]:
    """The scope, the scopes around it, and every scope nested below it."""
    outer: Scope | None = scope
    while outer is not None:
        yield outer
        outer = outer.parent
    stack = list(scope.children)
    while stack:
        inner = stack.pop()
        yield inner
        stack.extend(inner.children)


def _encloses(outer: Scope, inner: Scope) -> bool:
    s: Scope | None = inner.parent
    while s is not None:
        if s is outer:
            return True
        s = s.parent
    return False
