"""Semantic tokens: what each word of a text is, for an editor's highlighting.

A plain query over the AST (so it works on damaged texts): operators, domains, value
names (declarations vs uses, initializers read-only), attribute names, types,
numbers, strings, comments, header and property keys, node labels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from onnxtext.document import Document
from onnxtext.ir.schemas import all_schemas
from onnxtext.ir.versioned import normalize_domain
from onnxtext.span import Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.lexer import Comment

__all__ = [
    "Body",
    "Token",
    "TOKEN_TYPES",
    "TOKEN_MODIFIERS",
    "deprecated_operators",
    "deprecation",
    "document_tokens",
    "frame_tokens",
    "ordered",
    "semantic_tokens",
    "statement_tokens",
]

# The legend: the protocol's standard names, so every theme colours them.
TOKEN_TYPES = (
    "namespace",
    "type",
    "function",
    "variable",
    "parameter",
    "property",
    "keyword",
    "number",
    "string",
    "comment",
    "label",
    "operator",
)
TOKEN_MODIFIERS = ("declaration", "readonly", "deprecated", "defaultLibrary")


@dataclass(frozen=True, slots=True)
class Token:
    span: Span
    type: str
    modifiers: tuple[str, ...] = ()


# ``is_deprecated(node)``: whether a node's operator is deprecated in the opset it resolves in.
Deprecation = Callable[[A.Node], bool]


@dataclass(frozen=True, slots=True)
class Body:
    """The statements of a graph or function body outside any statement (the main graph's, a
    function's), and the initializer names they read (their inputs of those names are read-only)."""

    nodes: Sequence[A.Node | A.ErrorNode]
    initializers: frozenset[str]


class _Tokens:
    def __init__(self, deprecated: Deprecation | None, bodies: list[Body] | None = None) -> None:
        self.out: list[Token] = []
        self.deprecated = deprecated
        self.initializers: list[set[str]] = [set()]
        self.bodies = bodies
        """When a list: the statements of the outermost bodies are put there rather than walked."""

    def statements(self, nodes: Sequence[A.Node | A.ErrorNode]) -> None:
        if self.bodies is not None and len(self.initializers) == 2:  # a body outside any statement
            self.bodies.append(Body(nodes, frozenset(self.initializers[-1])))
            return
        for node in nodes:
            self.visit(node)

    def add(self, node: A.AstNode | None, kind: str, *modifiers: str) -> None:
        if node is not None and node.span.end > node.span.start:
            self.out.append(Token(node.span, kind, tuple(modifiers)))

    # ------------------------------------------------------------ structure
    def visit(self, node: A.AstNode) -> None:
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is not None:
            method(node)
        else:
            for child in node.children():
                self.visit(child)

    def visit_Number(self, n: A.Number) -> None:
        self.add(n, "number")

    def visit_NumberBody(self, n: A.NumberBody) -> None:
        self.add(n, "number")

    def visit_Str(self, n: A.Str) -> None:
        self.add(n, "string")

    def visit_Word(self, n: A.Word) -> None:
        self.add(n, "keyword")

    def visit_PropEntry(self, n: A.PropEntry) -> None:
        self.add(n.key, "property")
        self.visit(n.value)

    def visit_TensorType(self, n: A.TensorType) -> None:
        self.add(n.elem, "type")
        for d in n.shape or []:
            self.visit(d)

    def visit_Dim(self, n: A.Dim) -> None:
        if n.value is not None:
            self.add(n, "number")
        elif n.param is not None:
            self.add(n, "string" if n.quoted else "parameter")
        if n.props is not None:
            self.visit(n.props)

    def visit_MapType(self, n: A.MapType) -> None:
        self.add(n.key, "type")
        self.visit(n.value)

    def visit_ValueInfo(self, n: A.ValueInfo, *modifiers: str) -> None:
        if n.type is not None:
            self.visit(n.type)
        self.add(n.name, "variable", "declaration", *modifiers)
        if n.props is not None:
            self.visit(n.props)

    def visit_Initializer(self, n: A.Initializer) -> None:
        readonly = ("readonly",) if n.body is not None else ()
        self.visit_ValueInfo(n.info, *readonly)
        if n.body is not None:
            self.visit(n.body)

    def visit_Graph(self, g: A.Graph) -> None:
        inits = {
            i.info.name.value
            for i in [*(g.inputs or []), *(g.initializers or [])]
            if isinstance(i, A.Initializer) and i.body is not None
        }
        self.initializers.append(self.initializers[-1] | inits)
        if g.props is not None:
            self.visit(g.props)
        self.add(g.name, "function", "declaration")
        for item in [*(g.inputs or []), *g.outputs, *(g.initializers or [])]:
            self.visit(item)
        self.statements(g.nodes)
        self.initializers.pop()

    def visit_Function(self, f: A.Function) -> None:
        if f.header is not None:
            self.visit(f.header)
        self.add(f.name, "function", "declaration")
        for attr in f.attributes or []:
            self.visit(attr)
        for vi in list(f.inputs) + list(f.outputs):
            if isinstance(vi, A.ValueInfo):
                self.visit_ValueInfo(vi)
            else:
                self.visit(vi)
        self.initializers.append(set())
        for vi in f.value_infos or []:
            self.visit(vi)
        self.statements(f.nodes)
        self.initializers.pop()

    def visit_Node(self, n: A.Node) -> None:
        if n.label is not None:
            self.add(n.label, "label")
        for out in n.outputs:
            self.add(out, "variable", "declaration")
        for part in n.domain:
            self.add(part, "namespace")
        domain = ".".join(p.value for p in n.domain)
        deprecated = self.deprecated is not None and self.deprecated(n)
        mods = ("deprecated",) if deprecated else ()
        self.add(n.op_type, "function", *((("defaultLibrary",) if not normalize_domain(domain) else ()) + mods))
        if n.overload is not None:
            self.add(n.overload, "function", *mods)
        for attr in n.attributes:
            self.visit(attr)
        known = self.initializers[-1]
        for inp in n.inputs:
            self.add(inp, "variable", *(("readonly",) if inp.value in known else ()))
        if n.props is not None:
            self.visit(n.props)

    def visit_Attribute(self, a: A.Attribute) -> None:
        self.add(a.name, "property")
        if a.type_name is not None:
            self.add(a.type_name, "type")
        if a.value is not None:
            self.visit(a.value)
        if a.props is not None:
            self.visit(a.props)

    def visit_AttrRef(self, r: A.AttrRef) -> None:
        self.add(r, "property")

    def visit_TensorValue(self, v: A.TensorValue) -> None:
        self.visit(v.type)
        if v.name is not None:
            self.add(v.name, "variable", "declaration", "readonly")
        if v.props is not None:
            self.visit(v.props)
        self.visit(v.body)

    def visit_ErrorNode(self, n: A.ErrorNode) -> None:
        """Nothing: a damaged statement keeps the editor's own (TextMate) colours."""


def semantic_tokens(
    tree: A.AstNode | None, comments: Sequence[Comment], deprecated: Deprecation | None = None
) -> list[Token]:
    """Every classified word of ``tree`` and the ``comments`` of its text (``ParseResult.comments``),
    in text order, without overlaps."""
    if tree is None:
        return []
    walker = _Tokens(deprecated)
    walker.visit(tree)
    walker.out.extend(Token(Span(c.start, c.end), "comment") for c in comments)
    return ordered(walker.out)


def frame_tokens(tree: A.AstNode, deprecated: Deprecation | None = None) -> tuple[list[Token], list[Body]]:
    """The tokens of ``tree`` but those of the statements of its outermost bodies (the main graph's,
    the functions'; comments left out, in no order), and those bodies: with :func:`statement_tokens`
    of each statement and the comments, the tokens :func:`semantic_tokens` gives, a statement at a time."""
    bodies: list[Body] = []
    walker = _Tokens(deprecated, bodies)
    walker.visit(tree)
    return walker.out, bodies


def statement_tokens(node: A.Node, initializers: frozenset[str], deprecated: Deprecation | None = None) -> list[Token]:
    """The tokens of one statement of a :class:`Body` (comments left out, in no order)."""
    walker = _Tokens(deprecated)
    walker.initializers = [set(initializers)]
    walker.visit(node)
    return walker.out


def ordered(tokens: list[Token]) -> list[Token]:
    """Tokens in text order, without overlaps (the first of two overlapping ones kept), as
    :func:`semantic_tokens` gives them."""
    return list(_without_overlaps(sorted(tokens, key=lambda t: (t.span.start, -t.span.end))))


@cache
def deprecated_operators() -> frozenset[str]:
    """The names of the operators some schema version deprecates: only a node calling one of
    these names can be marked deprecated (whatever it resolves to)."""
    return frozenset(s.name for s in all_schemas() if s.deprecated)


def _without_overlaps(tokens: list[Token]) -> Iterator[Token]:
    end = -1
    for t in tokens:
        if t.span.start >= end:
            yield t
            end = t.span.end


def deprecation(doc: Document) -> Deprecation:
    """Whether a node of ``doc`` calls an operator deprecated in the opset it resolves in; the
    document's resolutions are computed only for a node named as some deprecated operator."""
    names = deprecated_operators()

    def deprecated(node: A.Node) -> bool:
        if node.op_type.value not in names:
            return False
        resolution = doc.resolutions.get(node)
        return resolution is not None and resolution.schema is not None and resolution.schema.deprecated

    return deprecated


def document_tokens(doc: Document) -> list[Token]:
    """The tokens of a document's tree, operators whose resolved schema is deprecated marked so."""
    return semantic_tokens(doc.tree, doc.comments, deprecation(doc))
