"""Completion: what may be written at a position, and the items to offer there.

The context comes from the tokens before the cursor (not from the tree), because the
text being completed is, by definition, unfinished: an operator after ``outputs =``,
an attribute name inside ``Op <...``, a dtype where a signature item starts, a value
name among a node's inputs, a key in a header ``<...>`` or a property block ``@{...}``.
Only a window of text before the cursor is read, so the cost does not grow with the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from onnxtext.document import Document
from onnxtext.ide.schema_docs import attribute_default_text, operator_markdown
from onnxtext.ir.dtypes import ALL as ALL_DTYPES
from onnxtext.ir.schemas import AttributeSpec, OpSchema, get_schema, normalize_domain, operators_in
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto, ValueInfoProto
from onnxtext.span import Span
from onnxtext.syntax.lexer import Tok, tokenize

__all__ = [
    "Context",
    "Item",
    "context_at",
    "call_at",
    "complete",
    "documentation",
    "literal_text",
    "schema_for",
    "values_in_scope",
    "WINDOW",
]

WINDOW = 4000
"""Characters before the cursor that are read to find the context."""

_WORD_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")
_OPEN = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE", "LT": "GT", "PROPS": "RBRACE"}
_CLOSE = {v: k for k, v in _OPEN.items() if k != "PROPS"}


@dataclass(frozen=True)
class Context:
    """What is being written at the cursor.

    ``kind``: ``operator``, ``attribute``, ``attribute_value``, ``dtype``, ``value``,
    ``header_key``, ``property_key``, ``domain`` or ``none``. ``prefix`` is the part of the
    word already typed, ``replace`` the span it covers; ``domain`` is the dotted prefix
    before an operator (``com.microsoft`` in ``com.microsoft.Fu``); ``op`` the operator of
    the node (for attributes); ``attribute`` the attribute whose value is being written.
    """

    kind: str
    prefix: str = ""
    replace: Span = field(default_factory=lambda: Span(0, 0))
    domain: str = ""
    op: tuple[str, str] | None = None
    attribute: str | None = None
    header: str = "model"


@dataclass
class Item:
    """One completion: ``label`` shown, ``insert`` written (a snippet when ``snippet``)."""

    label: str
    kind: str
    detail: str = ""
    insert: str | None = None
    snippet: bool = False
    sort: str | None = None
    data: dict[str, Any] | None = None
    """A small JSON value naming what the item documents (see :func:`documentation`)."""


def _last_word(text: str, offset: int) -> tuple[str, int]:
    """The word (name characters and dots) that ends at ``offset``, read back at most :data:`WINDOW`
    characters: a regular expression searched from the text's start was quadratic in a long name
    (minutes for a 2 MB one, at every keystroke)."""
    start, floor = offset, max(0, offset - WINDOW)
    while start > floor and text[start - 1] in _WORD_CHARACTERS:
        start -= 1
    return text[start:offset], start


def _tokens_before(text: str, end: int) -> list[Tok]:
    """The tokens of a window of ``text`` that ends at ``end`` (starting at a line start)."""
    start = max(0, end - WINDOW)
    if start:
        nl = text.find("\n", start, end)
        start = nl + 1 if nl >= 0 else end
    tokens = [t for t in tokenize(text[start:end]) if t.type != "NUMLIST"]
    for t in tokens:
        t.start += start
        t.end += start
    return tokens


def call_at(text: str, offset: int) -> tuple[str, str, int] | None:
    """``(domain, op, index)`` when ``offset`` is among a node's inputs: which input is being written."""
    tokens = _tokens_before(text, offset)
    stack = _open_brackets(tokens)
    if not stack or stack[-1][1].type != "LPAR":
        return None
    index, _ = stack[-1]
    op = _op_before(tokens, index)
    if op is None:
        return None
    depth = 0
    commas = 0
    for t in tokens[index + 1 :]:
        if t.type in _OPEN:
            depth += 1
        elif t.type in _CLOSE:
            depth -= 1
        elif t.type == "COMMA" and depth == 0:
            commas += 1
    return op[0], op[1], commas


def context_at(text: str, offset: int) -> Context:
    """The completion context at ``offset`` of ``text``."""
    word, word_start = _last_word(text, offset)
    tokens = _tokens_before(text, word_start)
    domain, _, prefix = word.rpartition(".")
    replace = Span(offset - len(prefix), offset)
    prev = tokens[-1] if tokens else None
    stack = _open_brackets(tokens)
    inner = stack[-1] if stack else None

    # a key on a line of its own after an entry without its comma: still a key (the comma is what
    # the parser reports missing), so the editor offers keys rather than words of the comments
    next_entry = prev is not None and prev.type not in ("COLON", "EQUAL") and "\n" in text[prev.end : word_start]
    if inner is not None and inner[1].type == "PROPS":
        if prev is not None and (prev.type in ("PROPS", "COMMA") or next_entry):
            return Context("property_key", prefix, replace, header=_props_owner(tokens, inner[0]))
        return Context("none", prefix, replace)
    if inner is not None and inner[1].type == "LT":
        op = _op_before(tokens, inner[0])
        if op is not None:
            if prev is not None and prev.type in ("LT", "COMMA"):
                return Context("attribute", prefix, replace, op=op)
            if prev is not None and prev.type == "EQUAL" and len(tokens) >= 2 and tokens[-2].type == "IDENT":
                return Context("attribute_value", prefix, replace, op=op, attribute=tokens[-2].value)
            return Context("none", prefix, replace)
        if inner[0] == 0 or tokens[inner[0] - 1].type == "RBRACE":
            if prev is not None and (prev.type in ("LT", "COMMA") or next_entry):
                return Context("header_key", prefix, replace, header="model" if inner[0] == 0 else "function")
        if prev is not None and prev.type in ("LT", "COMMA"):
            return Context("dtype", prefix, replace)  # initializer list `<float[2] w = ...>`
        return Context("none", prefix, replace)
    if inner is not None and inner[1].type == "LPAR":
        if _op_before(tokens, inner[0]) is not None or (inner[0] and tokens[inner[0] - 1].type == "GT"):
            if prev is not None and prev.type in ("LPAR", "COMMA"):
                return Context("value", prefix, replace)
            return Context("none", prefix, replace)
        if inner[0] and tokens[inner[0] - 1].type == "EQUAL":
            return Context("none", prefix, replace)  # `y = (`: no signature, an operator's place (#29)
        if prev is not None and prev.type in ("LPAR", "COMMA"):
            return Context("dtype", prefix, replace)
        return Context("none", prefix, replace)
    if prev is not None and prev.type == "EQUAL" and (inner is None or inner[1].type == "LBRACE"):
        return Context("operator", prefix, replace, domain=domain)
    return Context("none", prefix, replace)


def _open_brackets(tokens: Sequence[Tok]) -> list[tuple[int, Tok]]:
    stack: list[tuple[int, Tok]] = []
    for i, t in enumerate(tokens):
        if t.type in _OPEN:
            stack.append((i, t))
        elif t.type in _CLOSE and stack:
            stack.pop()
    return stack


def _op_before(tokens: Sequence[Tok], index: int) -> tuple[str, str] | None:
    """``(domain, op)`` when the tokens before ``index`` end with ``= [domain.]Op[:overload]``."""
    i = index - 1
    if i >= 0 and tokens[i].type == "GT":  # `Op <attrs> (` : skip back over the attribute list
        depth = 0
        while i >= 0:
            if tokens[i].type == "GT":
                depth += 1
            elif tokens[i].type == "LT":
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        i -= 1
    if i >= 1 and tokens[i].type == "IDENT" and tokens[i - 1].type == "COLON":
        i -= 2  # an overload
    parts: list[str] = []
    while i >= 0 and tokens[i].type == "IDENT":
        parts.append(tokens[i].value)
        if i >= 1 and tokens[i - 1].type == "DOT":
            i -= 2
        else:
            i -= 1
            break
    if not parts or i < 0 or tokens[i].type != "EQUAL":
        return None
    parts.reverse()
    return ".".join(parts[:-1]), parts[-1]


def _props_owner(tokens: Sequence[Tok], index: int) -> str:
    """Which message a ``@{`` block sets: after a node's ``)`` a node, else a value or tensor."""
    before = tokens[index - 1] if index else None
    if before is not None and before.type in ("RPAR", "GT"):
        return "node"
    if before is None or before.type in ("LBRACE",):
        return "graph"
    return "value_info"


# ---------------------------------------------------------------- items


_MESSAGES: dict[str, Any] = {
    "model": ModelProto,
    "function": FunctionProto,
    "node": NodeProto,
    "graph": GraphProto,
    "value_info": ValueInfoProto,
    "tensor": TensorProto,
}
_FILE_DEFAULTS = {"node_domain": "unset | set", "tensor_encoding": "raw | typed", "tensor_name": "unset | set"}


def _literal_snippet(spec: AttributeSpec) -> str:
    return f"{spec.name} = ${{1:{_escape(literal_text(spec))}}}"


def literal_text(spec: AttributeSpec) -> str:
    """A value of the attribute's type to start from: its default, or a zero of its type."""
    default = spec.default
    kind = spec.type
    if kind == "FLOAT":
        value = f"{default!r}" if isinstance(default, float) else "1.0"
    elif kind == "INT":
        value = str(default) if isinstance(default, int) else "0"
    elif kind == "STRING":
        value = f'"{default}"' if isinstance(default, str) else '""'
    elif kind in ("INTS", "FLOATS", "STRINGS"):
        value = (
            "["
            + ", ".join(
                repr(v) if isinstance(v, float) else (f'"{v}"' if isinstance(v, str) else str(v)) for v in default
            )
            + "]"
            if isinstance(default, tuple)
            else "[]"
        )
    elif kind == "GRAPH":
        value = "g () => () {}"
    elif kind == "TENSOR":
        value = "float[1] {0.0}"
    else:
        value = ""
    return value


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def complete(
    context: Context,
    opsets: dict[str, int],
    functions: Iterable[tuple[str, str, str]] = (),
    values: Iterable[tuple[str, str]] = (),
) -> list[Item]:
    """The items for ``context``: ``opsets`` maps imported domains (``""`` default) to versions,
    ``functions`` lists the model's local functions ``(domain, name, overload)``, ``values``
    the value names in scope at the cursor with a detail (their type)."""
    kind = context.kind
    if kind == "operator":
        return _operators(context, opsets, functions)
    if kind == "attribute" and context.op is not None:
        schema = schema_for(context.op, opsets)
        if schema is None:
            return []
        return [
            Item(a.name, "attribute", f"{a.type.lower()}, {attribute_default_text(a)}", _literal_snippet(a), True)
            for a in schema.attributes
        ]
    if kind == "attribute_value" and context.op is not None and context.attribute in ("to", "dtype", "output_dtype"):
        # the attribute holds the number: the label says which type it is, the number is inserted
        return [
            Item(f"{d.enum_name} ({d.code})", "dtype", d.name, insert=str(d.code), sort=f"{d.code:04d}")
            for d in ALL_DTYPES
            if d.code
        ]
    if kind == "dtype":
        words = [d.name for d in ALL_DTYPES if d.code] + ["seq", "map", "optional", "sparse_tensor"]
        return [Item(w, "dtype") for w in words]
    if kind == "value":
        return [Item(name, "value", detail) for name, detail in values]
    if kind in ("header_key", "property_key"):
        message = _MESSAGES.get(context.header, ModelProto)
        items = [Item(f.name, "key", message.DESCRIPTOR.name, f"{f.name}: ") for f in message.DESCRIPTOR.fields]
        if kind == "header_key" and context.header == "model":
            items += [Item(k, "key", v, f"{k}: ") for k, v in _FILE_DEFAULTS.items()]
        return items
    return []


def schema_for(op: tuple[str, str], opsets: dict[str, int]) -> OpSchema | None:
    """The schema ``(domain, op_type)`` names under ``opsets``, for text the parser has no node for yet
    (a node the document holds is resolved by ``Document.resolutions``)."""
    domain = normalize_domain(op[0])
    return get_schema(op[1], domain, opsets.get(domain))


def _operators(context: Context, opsets: dict[str, int], functions: Iterable[tuple[str, str, str]]) -> list[Item]:
    typed_domain = normalize_domain(context.domain)
    items: list[Item] = []
    for domain, version in sorted(opsets.items()):
        domain = normalize_domain(domain)
        if context.domain and domain != typed_domain:
            continue
        qualifier = "" if not domain or context.domain else domain + "."
        for schema in operators_in(domain, version):
            items.append(
                Item(
                    qualifier + schema.name,
                    "operator",
                    f"{domain or 'ai.onnx'} {schema.since_version}",
                    data={"operator": [domain, schema.name, version]},
                )
            )
    for domain, name, overload in functions:
        if context.domain and normalize_domain(domain) != typed_domain:
            continue
        qualifier = "" if context.domain or not domain else domain + "."
        label = qualifier + name + (f":{overload}" if overload else "")
        items.append(Item(label, "function", f"local function ({domain})", sort="0" + label))
    if not context.domain:
        items.extend(Item(d, "domain", "imported domain", sort="~" + d) for d in sorted(opsets) if normalize_domain(d))
    return items


def documentation(data: object) -> str | None:
    """The markdown an item's ``data`` names (computed only when the editor shows it)."""
    if not isinstance(data, dict):
        return None
    op = data.get("operator")
    if isinstance(op, list) and len(op) == 3 and isinstance(op[0], str) and isinstance(op[1], str):
        version = op[2] if isinstance(op[2], int) else None
        schema = get_schema(op[1], op[0], version)
        return operator_markdown(schema, version) if schema is not None else None
    return None


def values_in_scope(doc: Document, offset: int, *, typed: bool = True) -> list[tuple[str, str]]:
    """The value names a node's input at ``offset`` may read (its graph's, then the enclosing
    graphs'), with their types (``typed``; else what defines them): only values defined before
    the statement being written, so neither its own outputs nor later ones (single assignment,
    nodes in topological order)."""
    innermost = doc.symbols.scope_at(offset)
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for scope in innermost.chain() if innermost is not None else ():
        cutoff = _statement_start(scope.node.nodes, offset)
        for name, symbol in scope.values.items():
            if name in seen or not name:
                continue
            seen.add(name)
            if cutoff is not None and all(d.span.start >= cutoff for d in symbol.definitions):
                continue
            found = doc.type_of(symbol) if typed else None
            out.append((name, str(found) if found is not None else symbol.kind))
    return out


def _statement_start(statements: Sequence[Any], offset: int) -> int | None:
    """The start of the last statement starting before ``offset`` (the one being written, or
    the one holding the subgraph being written); None before the first."""
    starts = [s.span.start for s in statements if s.span.start < offset]
    return max(starts) if starts else None
