"""Whether a rename keeps the model valid: single assignment, no shadowing, unique functions."""

from __future__ import annotations

from collections.abc import Iterator

from onnxtext.analysis.symbols import AttributeSymbol, FunctionSymbol, Scope, Symbol, ValueSymbol
from onnxtext.document import Document

__all__ = ["rename_problem"]


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
