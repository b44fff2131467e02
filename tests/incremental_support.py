"""What the incremental tests compare: a document reduced to plain data, every field that a fresh parse gives.

Two documents are equal when their trees (every node, kind, field and span), protobuf bytes,
source maps, parse and lowering diagnostics, comments and symbol tables reduce to the same data,
and :func:`onnxtext.api.diagnose` says the same of both.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from onnxtext.analysis.diagnose import diagnose
from onnxtext.analysis.symbols import AttributeSymbol, FunctionSymbol, Scope, Symbols, ValueSymbol
from onnxtext.diagnostics import Diagnostic
from onnxtext.document import Document
from onnxtext.span import Range, Span
from onnxtext.syntax import ast as A


def tree_data(node: Any) -> Any:
    """A tree as nested tuples: kind, then each field (spans as offset pairs)."""
    if isinstance(node, A.AstNode):
        return (type(node).__name__, *(tree_data(getattr(node, f.name)) for f in fields(node)))
    if isinstance(node, Span):
        return (node.start, node.end)
    if isinstance(node, (list, tuple)):
        return [tree_data(x) for x in node]
    return node


def _span(span: Span | Range | None) -> Any:
    if isinstance(span, Range):
        return (span.start.offset, span.end.offset, span.start.line, span.start.column, span.end.line, span.end.column)
    return None if span is None else (span.start, span.end)


def diagnostic_data(d: Diagnostic) -> Any:
    fix = None if d.fix is None else (d.fix.message, [(_span(e.span), e.new_text) for e in d.fix.edits])
    related = [(r.message, _span(r.span)) for r in d.related]
    return (d.code, d.severity, d.message, _span(d.span), related, fix, d.path, d.source is not None)


def _symbol(symbol: Any, scopes: dict[int, int]) -> Any:
    if isinstance(symbol, ValueSymbol):
        return ("value", scopes[id(symbol.scope)], symbol.name)
    if isinstance(symbol, FunctionSymbol):
        return ("function", symbol.key)
    assert isinstance(symbol, AttributeSymbol)
    return ("attribute", symbol.function.key, symbol.name)


def _scope(scope: Scope, scopes: dict[int, int]) -> Any:
    values = [
        (
            name,
            [(_span(d.span), d.kind) for d in v.definitions],
            [_span(u) for u in v.uses],
            v.is_output,
            scopes[id(v.scope)],
        )
        for name, v in scope.values.items()
    ]
    outputs = [
        _symbol(o, scopes) if not hasattr(o, "what") else ("unresolved", o.name, _span(o.span)) for o in scope.outputs
    ]
    parent = scopes.get(id(scope.parent)) if isinstance(scope.parent, Scope) else None
    function = scope.function.key if scope.function is not None else None
    return (
        scope.kind,
        _span(scope.node.span),
        scope.names_known,
        values,
        outputs,
        [scopes[id(c)] for c in scope.children],
        parent,
        function,
    )


def symbols_data(symbols: Symbols) -> Any:
    scopes = {id(s): i for i, s in enumerate(symbols.scopes)}
    functions = [
        (
            key,
            [_span(f.name.span) for f in fs.definitions],
            [_span(c.op_type.span) for c in fs.calls],
            [
                (a.name, _span(a.definition), [_span(r) for r in a.references], [_span(g) for g in a.arguments])
                for a in fs.attributes.values()
            ],
        )
        for key, fs in symbols.functions.items()
    ]
    unresolved = [(u.name, _span(u.span), scopes[id(u.scope)], u.what) for u in symbols.unresolved]
    occurrences = [(_span(o.span), _symbol(o.symbol, scopes), o.is_definition) for o in symbols.occurrences]
    assert symbols._starts == [o.span.start for o in symbols.occurrences]
    return ([_scope(s, scopes) for s in symbols.scopes], functions, unresolved, occurrences)


def document_data(doc: Document, *, with_symbols: bool = True) -> dict[str, Any]:
    """Every part of a document a fresh parse gives, as plain data (``with_symbols``: and the symbol tables)."""
    tree = doc.tree
    entries = {str(path): (type(node).__name__, _span(node.span)) for path, node in doc.source_map.entries.items()}
    nodes = {id(n) for n in A.walk(tree)} if isinstance(tree, A.AstNode) else set()
    assert all(id(node) in nodes for node in doc.source_map.entries.values()), "a source map entry outside the tree"
    data = {
        "text": doc.source.text,
        "lines": [doc.source.position(o) for o in range(0, len(doc.source.text) + 1, 97)],
        "tree": tree_data(tree),
        "proto": doc.proto.SerializeToString(deterministic=True),
        "source_map": entries,
        "diagnostics": [diagnostic_data(d) for d in doc.diagnostics],
        "comments": list(doc.comments),
    }
    if with_symbols:
        data["symbols"] = symbols_data(doc.symbols)
        data["diagnose"] = [diagnostic_data(d) for d in diagnose(doc)]
    return data


def assert_same(incremental: Document, scratch: Document, *, with_symbols: bool = True) -> None:
    got = document_data(incremental, with_symbols=with_symbols)
    want = document_data(scratch, with_symbols=with_symbols)
    for key in want:
        assert got[key] == want[key], f"{key} differs"
