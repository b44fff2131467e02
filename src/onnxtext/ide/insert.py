"""*Insert a node on an edge* (#32): a new node reading a main-graph value, its readers rewired to it.

A plain query over a :class:`~onnxtext.document.Document`, in two steps as the editor asks them:
:func:`insert_targets` names the values the cursor (or a statement of the graph view) is on, each
offered as a code action; :func:`palette` lists the operators the model's opsets import (from the
schemas completion lists them from); :func:`insert_node` makes the edit for the operator chosen:

- the statement ``x_relu = Relu (x)`` (a fresh name), right after ``x``'s producer statement, or at
  the top of the graph body for a graph input or an initializer, written as a snippet whose
  placeholders are the schema's required attributes (``<axis = ${1:0}>``) and its other required
  inputs, to tab through (:attr:`Insertion.text` is the same statement with the placeholders'
  defaults, what an editor without snippets inserts);
- every node statement reading ``x`` reads the new name instead (a graph output named ``x`` stays:
  the model's interface does not change, and value_info declarations of ``x`` stay ``x``'s).

The edits are small, never a re-printing, so one Undo reverts them.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from onnxtext.analysis.symbols import Scope, ValueSymbol
from onnxtext.diagnostics import Edit
from onnxtext.document import Document
from onnxtext.ide.complete import literal_text
from onnxtext.ir.resolve import import_table
from onnxtext.ir.schemas import AttributeSpec, OpSchema, get_schema, normalize_domain, operators_in
from onnxtext.span import Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.vocabulary import name_text

__all__ = [
    "Insertion",
    "Operator",
    "body_opening",
    "fresh",
    "holds",
    "insert_node",
    "insert_targets",
    "insertable",
    "palette",
    "snippet_plain",
]


@dataclass(frozen=True, slots=True)
class Operator:
    """One entry of the palette: an operator of an imported opset that can read a value."""

    domain: str
    """``""`` for the default domain (``ai.onnx``)."""
    name: str
    since_version: int
    required: tuple[str, ...]
    """Its required attributes, by name (each a placeholder of the inserted statement)."""


@dataclass(frozen=True, slots=True)
class Insertion:
    """The edit inserting a node: ``snippet`` (the new statement, with placeholders) inserted at
    ``at``, and ``rewires`` (the readers of the value made to read ``name``); non-overlapping."""

    title: str
    value: str
    name: str
    """The new node's output, which the readers of ``value`` now read."""
    at: int
    snippet: str
    rewires: tuple[Edit, ...]

    @property
    def text(self) -> str:
        """The inserted statement as plain text: each placeholder its default."""
        return snippet_plain(self.snippet)

    @property
    def edits(self) -> tuple[Edit, ...]:
        """All the edits as plain text (the statement's placeholders their defaults)."""
        return (Edit(Span(self.at, self.at), self.text), *self.rewires)


def insert_targets(doc: Document, start: int, end: int | None = None) -> list[str]:
    """The main-graph values a node can be inserted on at ``start``: the name under the cursor in a
    node's inputs or outputs; else a node statement's outputs; a graph input's or an initializer's
    name on its statement. Empty when the text is no model or the value cannot be rewired."""
    found = _at(doc)
    if found is None:
        return []
    graph, scope = found
    names: list[str] = []
    for node in graph.nodes:
        if isinstance(node, A.Node) and holds(node.span, start):
            named = [i for i in (*node.inputs, *node.outputs) if i.value and holds(i.span, start)]
            if named and (end is None or end <= named[0].span.end):  # the cursor (or a selection) in a name
                names = [named[0].value]
            else:  # the statement: its outputs
                names = [o.value for o in node.outputs if o.value]
            break
    else:
        for item in (*(graph.inputs or ()), *(graph.initializers or ())):
            if isinstance(item, A.Initializer) and holds(item.span, start):
                if item in (graph.initializers or ()) and item.body is None:
                    continue  # a value_info declaration: the value's producer is elsewhere
                names = [item.info.name.value]
                break
    unique: list[str] = []
    for name in names:
        if name not in unique and _producer(doc, graph, scope, name) is not None:
            unique.append(name)
    return unique


def insertable(doc: Document, value: str) -> bool:
    """Whether a node can be inserted on ``value``: a main-graph value with one producer."""
    found = _at(doc)
    return found is not None and _producer(doc, found[0], found[1], value) is not None


def palette(doc: Document) -> list[Operator]:
    """The operators of the opsets the model imports that can read one value (at least one input, at
    least one output; deprecated ones left out), by domain then name."""
    model = doc.model
    if model is None:
        return []
    found: list[Operator] = []
    for domain, version in sorted(import_table(model.opset_import).items()):
        for schema in operators_in(domain, version):
            if schema.max_input < 1 or schema.min_output > 1 or schema.max_output < 1:
                continue
            required = tuple(a.name for a in schema.attributes if a.required)
            found.append(Operator(normalize_domain(domain), schema.name, schema.since_version, required))
    return found


def insert_node(doc: Document, value: str, domain: str, op: str) -> Insertion | None:
    """The edit inserting ``domain.op`` on ``value`` (see the module's docstring); None when the
    value is not a main-graph value with one producer, or the operator is not imported."""
    found = _at(doc)
    model = doc.model
    if found is None or model is None:
        return None
    graph, scope = found
    domain = normalize_domain(domain)
    version = import_table(model.opset_import).get(domain)
    schema = get_schema(op, domain, version) if version is not None else None
    if schema is None or schema.max_input < 1 or schema.max_output < 1:
        return None
    producer = _producer(doc, graph, scope, value)
    if producer is None:
        return None
    symbol, statement = producer
    taken = {name for s in doc.symbols.scopes for name in s.values}
    name = fresh(f"{value}_{op.lower()}", taken)
    text = doc.source.text
    where = _where(text, graph, statement)
    if where is None:
        return None
    at, indent, before, after = where
    line = f"{before}{indent}{_statement(schema, domain, value, name)}{after}"
    rewires = tuple(Edit(s, name_text(name)) for s in _read_in_statements(graph, symbol.uses))
    label = f"{domain}.{op}" if domain else op
    return Insertion(f"Insert {label} on '{value}'", value, name, at, line, rewires)


def snippet_plain(snippet: str) -> str:
    """A snippet's text with each ``${n:default}`` its default, ``$n`` nothing, escapes undone."""

    def plain(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return _UNESCAPE.sub(r"\1", match.group(1))
        return match.group(2) or ""

    return _SNIPPET.sub(plain, snippet)


_SNIPPET = re.compile(r"\$\{\d+:((?:[^\\}]|\\.)*)\}|\$\d+|\\(.)")
_UNESCAPE = re.compile(r"\\(.)")


# ------------------------------------------------------------ helpers
def _at(doc: Document) -> tuple[A.Graph, Scope] | None:
    tree = doc.tree
    if not isinstance(tree, A.Model) or doc.model is None:
        return None
    graph = tree.graph
    scope = next((s for s in doc.symbols.scopes if s.node is graph), None)
    return (graph, scope) if scope is not None else None


def body_opening(text: str, graph: A.Graph) -> int:
    """The offset of the graph body's ``{``, after its head (name, signature, initializers); -1: none."""
    head = graph.initializers or graph.outputs
    return text.find("{", head[-1].span.end if head else graph.name.span.end)


def holds(span: Span, offset: int) -> bool:
    return span.start <= offset <= span.end


def _producer(doc: Document, graph: A.Graph, scope: Scope, value: str) -> tuple[ValueSymbol, A.Node | None] | None:
    """The value's symbol and the node statement that makes it (None: a graph input or initializer);
    None when it has no single definition in the main graph."""
    symbol = scope.values.get(value)
    if not isinstance(symbol, ValueSymbol):
        return None
    declared = {
        i.info.name.span.start for i in graph.initializers or () if isinstance(i, A.Initializer) and i.body is None
    }
    defined = [d for d in symbol.definitions if d.span.start not in declared]
    kinds = [d.kind for d in defined]
    if kinds == ["node-output"]:
        span = defined[0].span
        node = next((n for n in graph.nodes if isinstance(n, A.Node) and n.span.start <= span.start < n.span.end), None)
        return (symbol, node) if node is not None else None
    if kinds in (["graph-input"], ["initializer"], ["graph-input", "initializer"]):
        return symbol, None
    return None


def _read_in_statements(graph: A.Graph, uses: list[Span]) -> list[Span]:
    """The uses that lie in a node statement (its inputs, or a nested graph's), not in the graph's
    outputs or declarations; found by bisection over the statements' starts."""
    spans = [n.span for n in graph.nodes if isinstance(n, A.Node)]
    starts = [s.start for s in spans]
    found: list[Span] = []
    for use in uses:
        k = bisect_right(starts, use.start) - 1
        if k >= 0 and use.end <= spans[k].end:
            found.append(use)
    return found


def _where(text: str, graph: A.Graph, producer: A.Node | None) -> tuple[int, str, str, str] | None:
    """Where the new statement goes, its indentation, and what goes before and after it there."""
    nodes = [n for n in graph.nodes if isinstance(n, A.Node)]
    anchor = producer if producer is not None else (nodes[0] if nodes else None)
    if anchor is None:  # an empty body: after its '{'
        brace = body_opening(text, graph)
        if brace < 0:
            return None
        return brace + 1, "   ", "\n", ""
    line_start = text.rfind("\n", 0, anchor.span.start) + 1
    indent = text[line_start : anchor.span.start]
    indent = indent if indent.strip() == "" else "   "
    if producer is None:  # before the first statement, on a line of its own
        if text[line_start : anchor.span.start].strip() == "":
            return line_start, indent, "", "\n"
        return anchor.span.start, "", "", f"\n{indent}"
    line_end = text.find("\n", anchor.span.end)
    rest = text[anchor.span.end : len(text) if line_end < 0 else line_end]
    if rest.strip() == "" or rest.strip().startswith("#"):
        if line_end < 0:
            return len(text), indent, "\n", "\n"
        return line_end + 1, indent, "", "\n"
    return anchor.span.end, indent, "\n", ""


def _statement(schema: OpSchema, domain: str, value: str, name: str) -> str:
    """``name = OP <required attributes> (value, required inputs)`` as a snippet."""
    tab = 0

    def placeholder(default: str) -> str:
        nonlocal tab
        tab += 1
        return f"${{{tab}:{_escape(default)}}}"

    attributes = [f"{a.name} = {placeholder(_start_value(a))}" for a in schema.attributes if a.required]
    inputs = [_escape(name_text(value))]
    for formal in schema.inputs[1:]:
        if formal.is_optional or (formal.is_variadic and formal.min_arity < 1):
            break
        inputs.append(placeholder(formal.name))
    qualified = f"{domain}.{schema.name}" if domain else schema.name
    attrs = f" <{', '.join(attributes)}>" if attributes else ""
    return f"{_escape(name_text(name))} = {_escape(qualified)}{attrs} ({', '.join(inputs)})"


def _start_value(spec: AttributeSpec) -> str:
    """A required attribute's value to start from: a type's number is float's (1), not UNDEFINED's."""
    if spec.type == "INT" and spec.name in _DTYPE_ATTRIBUTES:
        return "1"
    return literal_text(spec)


_DTYPE_ATTRIBUTES = ("to", "dtype", "output_dtype")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def fresh(base: str, taken: set[str], sep: str = "") -> str:
    """``base``, else ``base2``, ``base3``... (``sep`` between: ``base_2`` with ``"_"``): the first not
    in ``taken`` (the gestures' and *Paste from another model*'s new names too)."""
    name, n = base, 2
    while name in taken:
        name, n = f"{base}{sep}{n}", n + 1
    return name
