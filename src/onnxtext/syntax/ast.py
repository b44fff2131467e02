"""The onnxtext syntax tree: small typed classes, each carrying its source ``span``.

The tree mirrors the text, not the protobuf: it keeps what a formatter needs
(literal spellings, which optional syntax was used; comments stay in the parse result,
``syntax.comments`` attaches them) and leaves meaning
to ``lower.py``. Nodes built by ``lift.py`` from a protobuf have ``NO_SPAN``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import TypeVar, Union

from onnxtext.span import Span

__all__ = [
    "intact",
    "AstNode",
    "Ident",
    "Str",
    "Number",
    "Word",
    "PropEntry",
    "PropList",
    "PropDict",
    "PropPair",
    "PropValue",
    "Props",
    "Dim",
    "TensorType",
    "SeqType",
    "MapType",
    "OptionalType",
    "SparseTensorType",
    "OpaqueType",
    "Type",
    "ValueInfo",
    "NumberBody",
    "ComplexLiteral",
    "LiteralBody",
    "ExternalBody",
    "TensorBody",
    "Initializer",
    "TensorValue",
    "AttrRef",
    "TypeValue",
    "GraphValue",
    "AttrList",
    "SingleValue",
    "AttrValue",
    "Attribute",
    "Node",
    "Graph",
    "Function",
    "Model",
    "ErrorNode",
    "NODE_KINDS",
    "child_groups",
    "walk",
]


@dataclass(slots=True, eq=False)
class AstNode:
    span: Span

    def children(self) -> Iterator[AstNode]:
        """The nodes directly below this one, in field order (lists flattened).

        One generic protocol for every kind, so walks (comments, spans, ``node_at``,
        visitors) need no per-kind ``isinstance`` chains.
        """
        for name in _child_fields(type(self)):
            value = getattr(self, name)
            if isinstance(value, AstNode):
                yield value
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, AstNode):
                        yield item


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
_LEAF_TYPES = ("str", "bytes", "int", "bool", "int | None", "str | None", "bool | None", "Span")


def _child_fields(kind: type) -> tuple[str, ...]:
    """The field names of ``kind`` that can hold AST nodes (cached per class)."""
    names = _CHILD_FIELDS.get(kind)
    if names is None:
        names = tuple(f.name for f in fields(kind) if f.name != "span" and str(f.type) not in _LEAF_TYPES)
        _CHILD_FIELDS[kind] = names
    return names


def child_groups(node: AstNode) -> Iterator[AstNode | list[AstNode]]:
    """The child fields of ``node`` that hold something, in field order: a node, or a list of nodes.

    Lists hold their items in text order, so a search by position can bisect them
    (``syntax.query.node_at`` does, to stay fast in a graph of 30,000 nodes).
    """
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, (AstNode, list)):
            yield value


def walk(node: AstNode) -> Iterator[AstNode]:
    """``node`` and every node below it, depth first, parents before children, children in field order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(current.children())))


_T = TypeVar("_T")


def intact(items: Sequence[_T | ErrorNode]) -> list[_T]:
    """The statements of a list that parsed: its :class:`ErrorNode` items left out."""
    return [x for x in items if not isinstance(x, ErrorNode)]


# ---------------------------------------------------------------- leaves


@dataclass(slots=True, eq=False)
class Ident(AstNode):
    """A name: an identifier or a quoted string used as a name (``quoted`` tells which)."""

    value: str
    quoted: bool = False


@dataclass(slots=True, eq=False)
class Str(AstNode):
    """A string literal; ``value`` holds the bytes it denotes (escapes resolved)."""

    value: bytes

    @property
    def text(self) -> str:
        return self.value.decode("utf-8", "surrogateescape")


@dataclass(slots=True, eq=False)
class Number(AstNode):
    """A numeric literal kept as written (``-1``, ``2.5e3``, ``-inf``); meaning depends on context."""

    text: str

    @property
    def is_int(self) -> bool:
        t = self.text
        if t[:2] in ("0x", "0X"):
            return True
        return not ("." in t or "e" in t or "E" in t or "n" in t or "N" in t)


@dataclass(slots=True, eq=False)
class Word(AstNode):
    """A bare word in a value position (``unset``, ``nan``, ``inf``, ``true``)."""

    value: str


# ---------------------------------------------------------------- property blocks


@dataclass(slots=True, eq=False)
class PropList(AstNode):
    items: list[PropValue | PropPair]


@dataclass(slots=True, eq=False)
class PropDict(AstNode):
    entries: Sequence[PropEntry | ErrorNode]


@dataclass(slots=True, eq=False)
class PropPair(AstNode):
    """``key: value`` inside a list, e.g. ``"" : 18`` in ``opset_import``."""

    key: PropValue
    value: PropValue


PropValue = Union[Number, Str, Word, PropList, PropDict, "GraphValue", "TensorValue"]


@dataclass(slots=True, eq=False)
class PropEntry(AstNode):
    key: Ident
    value: PropValue


@dataclass(slots=True, eq=False)
class Props(AstNode):
    """A header ``< ... >`` or an extension block ``@{ ... }``."""

    entries: Sequence[PropEntry | ErrorNode]
    header: bool = False


# ---------------------------------------------------------------- types


@dataclass(slots=True, eq=False)
class Dim(AstNode):
    """One dimension: ``value`` (int), ``param`` (symbol) or neither (``?``)."""

    value: int | None = None
    param: str | None = None
    quoted: bool = False
    props: Props | None = None


@dataclass(slots=True, eq=False)
class TensorType(AstNode):
    """``float[N, 3]``; ``shape`` is None for ``float[]`` (unknown rank), ``[]`` for a scalar ``float``."""

    elem: Ident
    shape: list[Dim] | None
    sparse: bool = False


@dataclass(slots=True, eq=False)
class SeqType(AstNode):
    elem: Type


@dataclass(slots=True, eq=False)
class MapType(AstNode):
    key: Ident
    value: Type


@dataclass(slots=True, eq=False)
class OptionalType(AstNode):
    elem: Type


@dataclass(slots=True, eq=False)
class SparseTensorType(AstNode):
    tensor: TensorType


@dataclass(slots=True, eq=False)
class OpaqueType(AstNode):
    domain: str | None
    name: str | None


Type = TensorType | SeqType | MapType | OptionalType | SparseTensorType | OpaqueType


@dataclass(slots=True, eq=False)
class ValueInfo(AstNode):
    type: Type | None
    name: Ident
    props: Props | None = None


# ---------------------------------------------------------------- tensor data


@dataclass(slots=True, eq=False)
class NumberBody(AstNode):
    """``{1, 2.5, nan}`` lexed as one token: ``text`` is everything between the braces."""

    text: str
    canonical: bool = False
    """``text`` is the numbers joined by ``", "`` and nothing else (as ``print`` makes it)."""


@dataclass(slots=True, eq=False)
class ComplexLiteral(AstNode):
    """``(real, imaginary)``: one value of a complex tensor."""

    real: Number | Word
    imag: Number | Word


@dataclass(slots=True, eq=False)
class LiteralBody(AstNode):
    values: list[Number | Str | Word | ComplexLiteral]


@dataclass(slots=True, eq=False)
class ExternalBody(AstNode):
    """``["location": "w.bin", "offset": "0"]``: data stored outside the model."""

    items: list[PropValue | PropPair]


TensorBody = NumberBody | LiteralBody | ExternalBody


@dataclass(slots=True, eq=False)
class Initializer(AstNode):
    """A graph input or initializer-list entry: a value-info with optional ``= data``."""

    info: ValueInfo
    body: TensorBody | None


# ---------------------------------------------------------------- attributes


@dataclass(slots=True, eq=False)
class TensorValue(AstNode):
    """A tensor constant in an attribute: ``float[2] {1, 2}`` or ``float[2] name = {...}``."""

    type: Type
    name: Ident | None
    has_equal: bool
    body: TensorBody
    props: Props | None = None


@dataclass(slots=True, eq=False)
class AttrRef(AstNode):
    """``@name``: a reference to an attribute of the enclosing function."""

    name: Ident


@dataclass(slots=True, eq=False)
class TypeValue(AstNode):
    """A type as an attribute value (or a bare word such as ``nan``, resolved at lowering)."""

    type: Type


@dataclass(slots=True, eq=False)
class GraphValue(AstNode):
    graph: Graph


# PropDict: a message written field by field (a sparse tensor).
SingleValue = Number | Str | AttrRef | TypeValue | TensorValue | GraphValue | PropDict


@dataclass(slots=True, eq=False)
class AttrList(AstNode):
    items: list[SingleValue]


AttrValue = SingleValue | AttrList


@dataclass(slots=True, eq=False)
class Attribute(AstNode):
    """``name = value`` or ``name: type = value``; in a function signature ``value`` may be None."""

    name: Ident
    type_name: Ident | None
    value: AttrValue | None
    props: Props | None = None


# ---------------------------------------------------------------- structure


@dataclass(slots=True, eq=False)
class ErrorNode(AstNode):
    """A statement the parser could not read: it spans the damaged text, and lowering skips it.

    ``kind`` names the statement it stands for (``node``, ``entry``, ``value_info``,
    ``initializer``, ``attribute``, ``function``; ``graph`` and ``node_list`` for a body
    damaged as a whole, inside an otherwise empty graph; ``model`` for a second model in a
    file, in the model's function list). ``defines`` lists the value names the
    statement appears to define (``a, b = ...`` before the damage), so that analysis can
    count them as defined, of unknown type; ``defines_known`` is False when the damage
    hides which names those are (analysis must then not report undefined names in the scope).
    """

    kind: str
    defines: list[Ident] = field(default_factory=list)
    defines_known: bool = True


@dataclass(slots=True, eq=False)
class Node(AstNode):
    label: Ident | None
    has_label: bool
    outputs: list[Ident]
    domain: list[Ident]
    op_type: Ident
    overload: Ident | None
    attributes: Sequence[Attribute | ErrorNode]
    attributes_after: bool
    inputs: list[Ident]
    props: Props | None = None


@dataclass(slots=True, eq=False)
class Graph(AstNode):
    props: Props | None
    name: Ident
    inputs: Sequence[Initializer | ErrorNode] | None
    outputs: Sequence[ValueInfo | ErrorNode]
    initializers: Sequence[Initializer | ErrorNode] | None
    nodes: Sequence[Node | ErrorNode]


@dataclass(slots=True, eq=False)
class Function(AstNode):
    header: Props | None
    name: Ident
    attributes: Sequence[Attribute | ErrorNode] | None
    inputs: Sequence[ValueInfo | ErrorNode]
    outputs: Sequence[ValueInfo | ErrorNode]
    value_infos: Sequence[ValueInfo | ErrorNode] | None
    nodes: Sequence[Node | ErrorNode]


@dataclass(slots=True, eq=False)
class Model(AstNode):
    header: Props | None
    graph: Graph
    functions: Sequence[Function | ErrorNode]


NODE_KINDS: tuple[type[AstNode], ...] = (
    Ident,
    Str,
    Number,
    Word,
    PropEntry,
    PropList,
    PropDict,
    PropPair,
    Props,
    Dim,
    TensorType,
    SeqType,
    MapType,
    OptionalType,
    SparseTensorType,
    OpaqueType,
    ValueInfo,
    NumberBody,
    ComplexLiteral,
    LiteralBody,
    ExternalBody,
    Initializer,
    TensorValue,
    AttrRef,
    TypeValue,
    GraphValue,
    AttrList,
    Attribute,
    ErrorNode,
    Node,
    Graph,
    Function,
    Model,
)
