"""Symbol tables built from the syntax tree: where every value, function and attribute is defined and used.

Built from the AST, not the protobuf, so they exist for broken texts too: an
``ast.ErrorNode`` in a statement list is skipped, but the names in its ``defines`` count as
definitions (of kind ``unknown``).

Scopes follow the ONNX IR spec: a graph defines its inputs, initializers and node outputs;
a graph held in a node attribute sees the names of the scopes around it (an inner
definition of the same name shadows the outer one); a function sees only its own inputs
and node outputs (the graphs inside its nodes see those too). Every definition of a name
in one scope is kept (more than one is a redefinition, which the checker reports).

Functions are keyed by (domain, name, overload), the domain normalised (``ai.onnx`` is
``""``); a node calls the function whose key it names exactly. An attribute reference
``@name`` in a function body (or a graph inside it) names an attribute of that function;
so does an attribute passed by name at a call site (``local.f <alpha = 0.3> (x)``).

Queries: :meth:`Symbols.symbol_at`, :meth:`Symbols.definition_at`, :meth:`Symbols.references`,
:meth:`Symbols.rename_edits` (every span to edit); positions are character offsets, with
the boundary rule of :func:`onnxtext.syntax.query.node_at` (a cursor right after a name
is on it).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from onnxtext.diagnostics import Edit
from onnxtext.ir.schemas import normalize_domain
from onnxtext.ir.scoping import GraphKind, ScopeChain, outer_scope
from onnxtext.span import Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.vocabulary import name_text

__all__ = [
    "AttributeSymbol",
    "Definition",
    "FunctionKey",
    "FunctionSymbol",
    "Occurrence",
    "Scope",
    "Symbol",
    "Symbols",
    "Unresolved",
    "ValueSymbol",
    "VALUE_KINDS",
    "build_symbols",
    "function_key",
    "call_key",
]

FunctionKey = tuple[str, str, str]
"""(normalised domain, name, overload) of a model-local function."""

_K = TypeVar("_K", bound=A.AstNode)

VALUE_KINDS = ("graph-input", "initializer", "node-output", "function-input", "unknown")


@dataclass(slots=True, eq=False)
class Definition:
    """One place a value name is defined: the span of the name and what defines it (one of ``VALUE_KINDS``)."""

    span: Span
    kind: str


@dataclass(eq=False)
class ValueSymbol:
    """A value name in one scope."""

    name: str
    scope: Scope = field(repr=False)
    definitions: list[Definition] = field(default_factory=list)
    uses: list[Span] = field(default_factory=list)
    """Node inputs, graph and function outputs, value-info annotations, uses in nested graphs."""
    is_output: bool = False
    """Listed among the outputs of its graph or function."""

    @property
    def kind(self) -> str:
        """The kind of the first definition: ``graph-input``, ``initializer``, ``node-output``,
        ``function-input``, ``unknown``."""
        return self.definitions[0].kind

    def definition_spans(self) -> list[Span]:
        return [d.span for d in self.definitions]

    def use_spans(self) -> list[Span]:
        return list(self.uses)

    @property
    def redefinitions(self) -> list[Definition]:
        """Definitions after the first, except an initializer repeating a graph input (allowed by the IR)."""
        first = self.definitions[0]
        return [d for d in self.definitions[1:] if not {first.kind, d.kind} == {"graph-input", "initializer"}]


@dataclass(eq=False)
class FunctionSymbol:
    """A model-local function: its definitions (more than one = a duplicate key) and its call sites."""

    key: FunctionKey
    definitions: list[A.Function] = field(default_factory=list, repr=False)
    calls: list[A.Node] = field(default_factory=list, repr=False)
    attributes: dict[str, AttributeSymbol] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.key[1]

    def definition_spans(self) -> list[Span]:
        """The names of its definitions (more than one: functions with the same key)."""
        return [f.name.span for f in self.definitions]

    def use_spans(self) -> list[Span]:
        """The operator names of its calls."""
        return [call.op_type.span for call in self.calls]


@dataclass(eq=False)
class AttributeSymbol:
    """An attribute of a function: its declaration, ``@name`` references, and arguments passed at calls."""

    name: str
    function: FunctionSymbol = field(repr=False)
    definition: Span
    references: list[Span] = field(default_factory=list)
    """The names in ``@name`` references inside the function."""
    arguments: list[Span] = field(default_factory=list)
    """The names of attributes given at call sites (``<alpha = 0.3>``)."""

    def definition_spans(self) -> list[Span]:
        return [self.definition]

    def use_spans(self) -> list[Span]:
        return self.references + self.arguments


Symbol = ValueSymbol | FunctionSymbol | AttributeSymbol


@dataclass(slots=True, eq=False)
class Unresolved:
    """A use of a name that no visible scope defines (a value, an ``@attribute`` or nothing callable)."""

    name: str
    span: Span
    scope: Scope = field(repr=False)
    what: str
    """``value`` or ``attribute``."""


@dataclass(eq=False)
class Scope(ScopeChain):
    """A graph or a function body (``ir/scoping``: the text's definitions and uses, for the editor)."""

    node: A.Graph | A.Function = field(repr=False)
    parent: Scope | None = field(repr=False)
    function: FunctionSymbol | None = field(repr=False)
    """The function this scope belongs to (also for graphs nested in its nodes)."""
    values: dict[str, ValueSymbol] = field(default_factory=dict)
    children: list[Scope] = field(default_factory=list, repr=False)
    outputs: list[ValueSymbol | Unresolved] = field(default_factory=list)
    names_known: bool = True
    """False when a damaged statement hides which names it defines: do not call names undefined here."""

    @property
    def kind(self) -> str:
        """``function``, ``graph`` (a top-level graph) or ``subgraph`` (held in a node attribute)."""
        if isinstance(self.node, A.Function):
            return "function"
        return "graph" if self.parent is None else "subgraph"

    def lookup(self, name: str) -> ValueSymbol | None:
        """The symbol ``name`` denotes here: this scope's, else the nearest enclosing scope's."""
        for scope in self.chain():
            found = scope.values.get(name)
            if found is not None:
                return found
        return None

    def visible(self) -> dict[str, ValueSymbol]:
        """Every name usable here (what completion offers): inner definitions hide outer ones."""
        found: dict[str, ValueSymbol] = {}
        for outer_first in reversed(list(self.chain())):
            found.update(outer_first.values)
        return found


@dataclass(slots=True)
class Occurrence:
    """A name in the text and the symbol it denotes."""

    span: Span
    symbol: Symbol
    is_definition: bool


class Symbols:
    """The symbol tables of one tree (see :func:`build_symbols`)."""

    def __init__(self) -> None:
        self.scopes: list[Scope] = []
        """Every scope, outer ones before the scopes nested in them."""
        self.functions: dict[FunctionKey, FunctionSymbol] = {}
        self.unresolved: list[Unresolved] = []
        self.occurrences: list[Occurrence] = []
        """Sorted by position (names never overlap)."""
        self._starts: list[int] = []

    # ------------------------------------------------------------ queries
    def occurrence_at(self, offset: int) -> Occurrence | None:
        """The name at ``offset`` (a definition or a use) and its symbol."""
        i = bisect.bisect_right(self._starts, offset) - 1
        if i < 0:
            return None
        found = self.occurrences[i]
        if offset < found.span.end or (offset == found.span.end and found.span.start < offset):
            return found
        return None

    def symbol_at(self, offset: int) -> Symbol | None:
        found = self.occurrence_at(offset)
        return found.symbol if found is not None else None

    def definition_at(self, offset: int) -> list[Span]:
        """Where the symbol at ``offset`` is defined (several spans for a redefinition); ``[]`` if nothing is there."""
        symbol = self.symbol_at(offset)
        return symbol.definition_spans() if symbol is not None else []

    def references(self, symbol: Symbol, *, include_definitions: bool = True) -> list[Span]:
        """Every span naming ``symbol``, in text order."""
        spans = symbol.use_spans()
        if include_definitions:
            spans += symbol.definition_spans()
        return sorted(spans, key=lambda s: s.start)

    def rename_spans(self, symbol: Symbol) -> list[Span]:
        """Every span to edit to rename ``symbol`` (definitions, uses, call sites, attribute references)."""
        return self.references(symbol)

    def rename_edits(self, symbol: Symbol, new_name: str) -> list[Edit]:
        """The edits renaming ``symbol`` to ``new_name`` (quoted when it is not a plain identifier or
        reads as a reserved word)."""
        text = name_text(new_name)
        return [Edit(span, text) for span in self.rename_spans(symbol)]

    def scope_at(self, offset: int) -> Scope | None:
        """The innermost scope whose graph or function holds ``offset``."""
        best: Scope | None = None
        for scope in self.scopes:
            span = scope.node.span
            if span.start <= offset <= span.end and (
                best is None or span.start >= best.node.span.start and span.end <= best.node.span.end
            ):
                best = scope
        return best

    def values(self) -> Iterator[ValueSymbol]:
        for scope in self.scopes:
            yield from scope.values.values()


def function_key(f: A.Function) -> FunctionKey:
    """The (domain, name, overload) a function's header gives it."""
    domain = overload = ""
    for entry in A.intact(f.header.entries) if f.header is not None else []:
        if isinstance(entry.value, A.Str) and entry.key.value in ("domain", "overload"):
            if entry.key.value == "domain":
                domain = entry.value.text
            else:
                overload = entry.value.text
    return normalize_domain(domain), f.name.value, overload


def call_key(node: A.Node) -> FunctionKey:
    """The (domain, op_type, overload) a node names."""
    domain = ".".join(part.value for part in node.domain)
    return normalize_domain(domain), node.op_type.value, node.overload.value if node.overload is not None else ""


def _below(node: A.AstNode, kind: type[_K]) -> Iterator[_K]:
    """The nodes of ``kind`` under ``node`` in text order, not entering graphs (a graph's own
    scope owns what it holds)."""
    stack = list(reversed(list(node.children())))
    while stack:
        current = stack.pop()
        if isinstance(current, kind):
            yield current
        elif not isinstance(current, A.Graph):
            stack.extend(reversed(list(current.children())))


def _training_graphs(header: A.Props) -> Iterator[tuple[GraphKind, A.Graph]]:
    """The graphs of a model header in text order (as :func:`_below` finds them), each an
    ``initialization`` graph when written under that key, else an ``algorithm`` graph."""
    stack: list[tuple[A.AstNode, str | None]] = [(c, None) for c in reversed(list(header.children()))]
    while stack:
        current, key = stack.pop()
        if isinstance(current, A.Graph):
            yield ("initialization" if key == "initialization" else "algorithm"), current
            continue
        if isinstance(current, A.PropEntry):
            key = current.key.value
        stack.extend((c, key) for c in reversed(list(current.children())))


class _Builder:
    def __init__(self) -> None:
        self.table = Symbols()

    # ------------------------------------------------------------ entry points
    def build(self, tree: A.AstNode | list[A.Node]) -> Symbols:
        if isinstance(tree, A.Model):
            self.model(tree)
        elif isinstance(tree, A.Graph):
            self.graph(tree, None, None)
        elif isinstance(tree, A.Function):
            self.declare_function(tree)
            self.function(tree)
        else:  # a node or a node list parsed on its own: one scope, names it does not define unresolved
            nodes: list[A.Node] = tree if isinstance(tree, list) else [tree]  # type: ignore[list-item]
            span = nodes[0].span.cover(nodes[-1].span) if nodes else Span(0, 0)
            self.graph(
                A.Graph(span, None, A.Ident(Span(span.start, span.start), ""), None, [], None, nodes), None, None
            )
        table = self.table
        table.occurrences.sort(key=lambda o: o.span.start)
        table._starts = [o.span.start for o in table.occurrences]
        return table

    def model(self, m: A.Model) -> None:
        for f in m.functions:
            if isinstance(f, A.Function):
                self.declare_function(f)
        main = self.graph(m.graph, outer_scope("main"), None)
        if m.header is not None:
            # training_info graphs: an algorithm graph runs after the main graph and sees its
            # values; an initialization graph sees the state variables. The tables have no scope
            # of the state variables alone: the main graph's (which holds its initializers) stands for it.
            for kind, g in _training_graphs(m.header):
                self.graph(g, outer_scope(kind, main=main, state=main), None)
        for f in m.functions:
            if isinstance(f, A.Function):
                self.function(f)

    # ------------------------------------------------------------ scopes
    def new_scope(self, node: A.Graph | A.Function, parent: Scope | None, function: FunctionSymbol | None) -> Scope:
        scope = Scope(node, parent, function)
        if parent is not None:
            parent.children.append(scope)
        self.table.scopes.append(scope)
        return scope

    def define(self, scope: Scope, ident: A.Ident, kind: str) -> None:
        if not ident.value:
            return  # an absent optional output
        symbol = scope.values.get(ident.value)
        if symbol is None:
            symbol = scope.values[ident.value] = ValueSymbol(ident.value, scope)
        symbol.definitions.append(Definition(ident.span, kind))
        self.table.occurrences.append(Occurrence(ident.span, symbol, True))

    def use(self, scope: Scope, ident: A.Ident) -> ValueSymbol | Unresolved | None:
        if not ident.value:
            return None
        symbol = scope.lookup(ident.value)
        if symbol is None:
            missing = Unresolved(ident.value, ident.span, scope, "value")
            self.table.unresolved.append(missing)
            return missing
        symbol.uses.append(ident.span)
        self.table.occurrences.append(Occurrence(ident.span, symbol, False))
        return symbol

    def define_damaged(self, scope: Scope, item: A.ErrorNode) -> None:
        for ident in item.defines:
            self.define(scope, ident, "unknown")
        if not item.defines_known:
            scope.names_known = False

    def graph(self, g: A.Graph, parent: Scope | None, function: FunctionSymbol | None) -> Scope:
        scope = self.new_scope(g, parent, function)
        for item in g.inputs or []:
            if isinstance(item, A.ErrorNode):
                self.define_damaged(scope, item)
            else:
                self.define(scope, item.info.name, "graph-input")
        for item in g.initializers or []:
            if isinstance(item, A.ErrorNode):
                self.define_damaged(scope, item)
            else:
                self.define(scope, item.info.name, "initializer")
        self.body(scope, g.nodes)
        for out in g.outputs:
            if isinstance(out, A.ValueInfo):
                self.output(scope, out.name)
        return scope

    def output(self, scope: Scope, ident: A.Ident) -> None:
        found = self.use(scope, ident)
        if found is not None:
            scope.outputs.append(found)
            if isinstance(found, ValueSymbol) and found.scope is scope:
                found.is_output = True

    def body(self, scope: Scope, nodes: Sequence[A.Node | A.ErrorNode]) -> None:
        """Node outputs first (a use before its definition still resolves here), then uses and nested graphs."""
        for node in nodes:
            if isinstance(node, A.ErrorNode):
                self.define_damaged(scope, node)
            elif isinstance(node, A.Node):
                for out in node.outputs:
                    self.define(scope, out, "node-output")
        for node in nodes:
            if isinstance(node, A.Node):
                self.node(scope, node)

    def node(self, scope: Scope, node: A.Node) -> None:
        for ident in node.inputs:
            self.use(scope, ident)
        callee = self.table.functions.get(call_key(node))
        if callee is not None:
            callee.calls.append(node)
            self.table.occurrences.append(Occurrence(node.op_type.span, callee, False))
        for attr in node.attributes:
            if isinstance(attr, A.ErrorNode):
                continue
            argument = callee.attributes.get(attr.name.value) if callee is not None else None
            if argument is not None:
                argument.arguments.append(attr.name.span)
                self.table.occurrences.append(Occurrence(attr.name.span, argument, False))
            for ref in _below(attr, A.AttrRef):
                self.attribute_ref(scope, ref)
            for g in _below(attr, A.Graph):
                self.graph(g, outer_scope("subgraph", enclosing=scope), scope.function)

    def attribute_ref(self, scope: Scope, ref: A.AttrRef) -> None:
        target = scope.function.attributes.get(ref.name.value) if scope.function is not None else None
        if target is None:
            self.table.unresolved.append(Unresolved(ref.name.value, ref.name.span, scope, "attribute"))
            return
        target.references.append(ref.name.span)
        self.table.occurrences.append(Occurrence(ref.name.span, target, False))

    # ------------------------------------------------------------ functions
    def declare_function(self, f: A.Function) -> None:
        key = function_key(f)
        symbol = self.table.functions.get(key)
        first = symbol is None
        if symbol is None:
            symbol = self.table.functions[key] = FunctionSymbol(key)
        symbol.definitions.append(f)
        self.table.occurrences.append(Occurrence(f.name.span, symbol, True))
        if not first:
            return  # a duplicate: its attributes are not the ones calls see
        for attr in f.attributes or []:
            if isinstance(attr, A.Attribute) and attr.name.value not in symbol.attributes:
                declared = AttributeSymbol(attr.name.value, symbol, attr.name.span)
                symbol.attributes[attr.name.value] = declared
                self.table.occurrences.append(Occurrence(attr.name.span, declared, True))

    def function(self, f: A.Function) -> None:
        symbol = self.table.functions[function_key(f)]
        scope = self.new_scope(f, outer_scope("function"), symbol if symbol.definitions[0] is f else None)
        for vi in f.inputs:
            if isinstance(vi, A.ErrorNode):
                self.define_damaged(scope, vi)
            else:
                self.define(scope, vi.name, "function-input")
        self.body(scope, f.nodes)
        for vi in f.outputs:
            if isinstance(vi, A.ValueInfo):
                self.output(scope, vi.name)
        for vi in f.value_infos or []:
            if isinstance(vi, A.ValueInfo):
                self.use(scope, vi.name)


def build_symbols(tree: A.AstNode | list[A.Node]) -> Symbols:
    """The symbol tables of a model, graph, function, node or node-list tree."""
    return _Builder().build(tree)
