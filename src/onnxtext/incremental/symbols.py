"""The symbol tables after an edit: the window's definitions and uses taken out, the new ones put in.

The tables are those :func:`onnxtext.analysis.symbols.build_symbols` would build from the
edited tree, list orders included: a symbol's definitions are in text order; its uses, the
unresolved names and the occurrences in the builder's order, which within a body is the
order of its statements (graph and function outputs, read after the body, come last).

Updated here only when the edit stays within one body's own names: the old and new
statements hold no graph, call no local function and refer to no function attribute; a name
that appears or disappears in the body may change what other statements resolve to, so then
the body must have no nested scope and no unresolved use of that name (a use written
before its definition). Otherwise None: the document builds its tables again on first use.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from onnxtext.analysis.symbols import (
    Definition,
    Occurrence,
    Scope,
    Symbols,
    Unresolved,
    ValueSymbol,
    call_key,
)
from onnxtext.span import Span
from onnxtext.syntax import ast as A

__all__ = ["update_symbols"]

_AFTER = 1 << 62
"""The statement index of what the builder reads after a body (its graph's or function's outputs)."""


def update_symbols(
    symbols: Symbols,
    owner: A.Graph | A.Function,
    first: int,
    old: Sequence[A.Node | A.ErrorNode],
    new: Sequence[A.Node | A.ErrorNode],
    begin: int,
    end: int,
    delta: int,
) -> Symbols | None:
    """``symbols`` (changed in place) for the tree where ``old`` statements (old text ``[begin, end)``)
    became ``new`` at index ``first`` of ``owner``'s body, the spans after them moved by ``delta``;
    None when this cannot be done here (see the module docstring)."""
    scope = next((s for s in symbols.scopes if s.node is owner), None)
    if scope is None or not all(_plain(n, symbols) for n in (*old, *new)):
        return None
    return _Update(symbols, scope, owner, first).run(old, new, begin, end, delta)


def _plain(statement: A.Node | A.ErrorNode, symbols: Symbols) -> bool:
    """Whether a statement touches only its body's names: no graph, local call or ``@`` reference."""
    if isinstance(statement, A.ErrorNode):
        return True
    if call_key(statement) in symbols.functions:
        return False
    for attr in statement.attributes:
        stack: list[A.AstNode] = [attr]
        while stack:
            node = stack.pop()
            if isinstance(node, (A.Graph, A.AttrRef)):
                return False
            stack.extend(node.children())
    return True


class _Update:
    def __init__(self, symbols: Symbols, scope: Scope, owner: A.Graph | A.Function, first: int) -> None:
        self.symbols = symbols
        self.scope = scope
        self.nodes = owner.nodes
        self.first = first
        self.touched: dict[str, ValueSymbol] = {}
        """Symbols whose definitions changed."""
        self.firsts: dict[str, Definition] = {}
        """Their first definitions before the edit."""
        self._order: dict[int, int] | None = None
        self.window: set[int] = set()
        """The ids of the spans the old statements defined names at (the window's definitions before the edit)."""

    def run(
        self, old: Sequence[A.Node | A.ErrorNode], new: Sequence[A.Node | A.ErrorNode], begin: int, end: int, delta: int
    ) -> Symbols | None:
        symbols, scope = self.symbols, self.scope
        values = scope.values
        # Out: the old statements' definitions, uses and unresolved uses.
        gone: set[int] = set()
        for statement in old:
            for ident in statement.outputs if isinstance(statement, A.Node) else statement.defines:
                self.window.add(id(ident.span))
                symbol = values.get(ident.value)
                if symbol is not None:
                    self._touch(ident.value, symbol)
                    symbol.definitions = [d for d in symbol.definitions if d.span is not ident.span]
            for ident in statement.inputs if isinstance(statement, A.Node) else ():
                gone.add(id(ident.span))
                symbol = values.get(ident.value)
                if symbol is not None:
                    symbol.uses = [u for u in symbol.uses if u is not ident.span]
        if gone:
            symbols.unresolved = [u for u in symbols.unresolved if id(u.span) not in gone]
        # In: the new statements' definitions first (as the builder reads a body), then their uses.
        added: set[str] = set()
        for statement in new:
            kind = "node-output" if isinstance(statement, A.Node) else "unknown"
            for ident in statement.outputs if isinstance(statement, A.Node) else statement.defines:
                if not ident.value:
                    continue
                symbol = values.get(ident.value)
                if symbol is None:
                    symbol = values[ident.value] = ValueSymbol(ident.value, scope)
                    added.add(ident.value)
                self._touch(ident.value, symbol)
                definitions = symbol.definitions
                definitions.insert(
                    bisect.bisect(definitions, ident.span.start, key=_def_start), Definition(ident.span, kind)
                )
        emptied = [name for name, symbol in self.touched.items() if not symbol.definitions]
        if (emptied or added) and scope.children:
            return None  # nested scopes may resolve these names differently now
        if added and any(u.name in added for u in symbols.unresolved if u.scope is scope):
            return None  # a use written before its definition: the builder resolves it now
        occurrences: list[Occurrence] = []
        for k, statement in enumerate(new, self.first):
            for ident in statement.outputs if isinstance(statement, A.Node) else statement.defines:
                if ident.value:
                    occurrences.append(Occurrence(ident.span, values[ident.value], True))
            for ident in statement.inputs if isinstance(statement, A.Node) else ():
                if not ident.value:
                    continue
                symbol = values.get(ident.value)
                if symbol is None or not symbol.definitions:
                    self._unresolved(Unresolved(ident.value, ident.span, scope, "value"), k)
                    continue
                symbol.uses.insert(bisect.bisect(symbol.uses, k, key=self._statement), ident.span)
                occurrences.append(Occurrence(ident.span, symbol, False))
        occurrences.sort(key=lambda o: o.span.start)
        self._occurrences(occurrences, begin, end, delta)
        for name in emptied:
            self._undefine(values.pop(name))
        self._reorder(added, begin, end + delta)
        if any(isinstance(s, A.ErrorNode) and not s.defines_known for s in (*old, *new)):
            scope.names_known = _names_known(scope)
        return symbols

    def _touch(self, name: str, symbol: ValueSymbol) -> None:
        if name not in self.touched:
            self.touched[name] = symbol
            if symbol.definitions:
                self.firsts[name] = symbol.definitions[0]

    def _statement(self, span: Span) -> int:
        """The index of the body statement holding ``span``; after them all (outputs) if none."""
        nodes = self.nodes
        k = bisect.bisect_right(nodes, span.start, key=_start) - 1
        return k if k >= 0 and span.start < nodes[k].span.end else _AFTER

    def _unresolved(self, missing: Unresolved, k: int) -> None:
        """Put ``missing`` (a use in statement ``k`` of the body) where the builder would list it:
        after what scopes read before this one, before what scopes read after it."""
        symbols = self.symbols
        if self._order is None:
            self._order = {id(s): i for i, s in enumerate(symbols.scopes)}
        order = self._order
        here = order[id(self.scope)]
        inside = here + _subtree_size(self.scope)

        def key(u: Unresolved) -> tuple[int, int, int]:
            # within a statement (one with no nested scope, where this inserts) and among the
            # outputs read after the body, in text order
            at = order[id(u.scope)]
            if at < here:
                return (-1, 0, 0)
            if at >= inside:
                return (1, 0, 0)
            return (0, self._statement(u.span), u.span.start)

        symbols.unresolved.insert(bisect.bisect(symbols.unresolved, (0, k, missing.span.start), key=key), missing)

    def _occurrences(self, added: list[Occurrence], begin: int, end: int, delta: int) -> None:
        """Replace the window's occurrences (old offsets ``[begin, end)``) by ``added``; move the rest."""
        symbols = self.symbols
        starts = symbols._starts
        lo = bisect.bisect_left(starts, begin)
        hi = bisect.bisect_left(starts, end)
        symbols.occurrences[lo:hi] = added
        symbols._starts = starts[:lo] + [o.span.start for o in added] + [s + delta for s in starts[hi:]]

    def _undefine(self, symbol: ValueSymbol) -> None:
        """``symbol`` lost its last definition: its uses are unresolved now (the scope has no nested ones)."""
        if not symbol.uses:
            return
        symbols, scope = self.symbols, self.scope
        kept = [(o, s) for o, s in zip(symbols.occurrences, symbols._starts, strict=True) if o.symbol is not symbol]
        symbols.occurrences = [o for o, _ in kept]
        symbols._starts = [s for _, s in kept]
        missing = [Unresolved(symbol.name, u, scope, "value") for u in symbol.uses]
        for found in missing:
            self._unresolved(found, self._statement(found.span))
        # The scope's outputs are read after its body, in order: the uses after every statement.
        outputs = iter([m for m in missing if self._statement(m.span) == _AFTER])
        scope.outputs = [next(outputs) if entry is symbol else entry for entry in scope.outputs]

    def _reorder(self, added: set[str], begin: int, end: int) -> None:
        """Keep the scope's values in the order of their first definitions (the builder's): the
        names whose first definition changed put back in place (new offsets of the window ``[begin, end)``)."""
        values = self.scope.values
        moved = [n for n, v in self.touched.items() if n in values and self.firsts.get(n) is not v.definitions[0]]
        if not moved:
            return
        window = self.window
        if not added and all(
            begin <= _first_start(values[n]) < end and n in self.firsts and id(self.firsts[n].span) in window
            for n in moved
        ):
            # First defined in the window before and after: a block of the order, right if in order within.
            before = sorted(moved, key=lambda n: self.firsts[n].span.start if n in self.firsts else -1)
            if before == sorted(moved, key=lambda n: _first_start(values[n])):
                return
        items = [(n, v) for n, v in values.items() if n not in moved]
        for name in sorted(moved, key=lambda n: _first_start(values[n])):
            symbol = values[name]
            items.insert(
                bisect.bisect(items, _first_start(symbol), key=lambda item: _first_start(item[1])), (name, symbol)
            )
        self.scope.values = dict(items)


def _names_known(scope: Scope) -> bool:
    node = scope.node
    lists: list[Sequence[Any]] = [node.nodes]
    if isinstance(node, A.Graph):
        lists += [node.inputs or [], node.initializers or []]
    else:
        lists.append(node.inputs)
    return not any(isinstance(x, A.ErrorNode) and not x.defines_known for items in lists for x in items)


def _subtree_size(scope: Scope) -> int:
    size = 1
    for child in scope.children:
        size += _subtree_size(child)
    return size


def _def_start(d: Definition) -> int:
    return d.span.start


def _first_start(symbol: ValueSymbol) -> int:
    return symbol.definitions[0].span.start


def _start(node: A.AstNode) -> int:
    return node.span.start
