"""The structural diff of two models: what changed once nodes are matched by what they compute.

Built on :mod:`onnxtext.compare.match`. Renamed values and nodes, reordered independent nodes
and weights stored again with the same bytes are not changes; they are counted in
:attr:`StructuralDiff.renamed` (``onnxtext diff -v`` lists them). A change is one
:class:`Change`, one line: ``~ node 'y' (Relu → LeakyRelu)``, ``+ node 'z' z = Relu (y)``,
``~ node 'h' (Add) input 1: 'b' → 'c'``, ``~ initializer 'W' float[4,4]: 1 of 16 elements
differ, max abs diff 0.5``, ``~ value 'h' float[N,4] → float[N,8]``, the header's, the opsets',
the metadata's and the functions' as :func:`onnxtext.diff.diff_models` says them; subgraphs
and functions are compared structurally too, their lines led by where they are. A node's name,
doc string and metadata (an exporter's notes: stack traces, source lines) are not compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from onnxtext._gc import collector_paused
from onnxtext.compare.match import BodyMatch, body_of, graphs_of, match_bodies, match_graphs
from onnxtext.diff import (
    Values,
    diff_attribute_lists,
    diff_function_signature,
    diff_header,
    node_text,
    quote,
    tensor_change,
    tensor_sig,
    type_text,
)
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.proto import AttributeProto, FunctionProto, ModelProto, NodeProto, TypeProto

__all__ = ["Change", "Renamed", "StructuralDiff", "diff_structural", "MARKS"]

MARKS = ("added", "removed", "changed")
"""How a node of the picture is marked (:attr:`Change.mark`)."""


@dataclass(frozen=True)
class Change:
    """One line of the diff. ``sign`` is ``+``, ``-`` or ``~``; ``what`` says of what (``node``,
    ``initializer``, ``input``, ``output``, ``value``, ``function``, ``model``); ``a`` and ``b``
    name it in each model (None on the side it is missing from). ``a_node``/``b_node`` are the
    indices in the main graph of the node it is about or lies inside (a subgraph's change is its
    owner node's), for the picture."""

    sign: str
    what: str
    text: str
    a: str | None = None
    b: str | None = None
    a_node: int | None = None
    b_node: int | None = None

    @property
    def mark(self) -> str | None:
        """``added``, ``removed`` or ``changed`` for a main-graph node, else None."""
        if self.a_node is None and self.b_node is None:
            return None
        return {"+": "added", "-": "removed"}.get(self.sign, "changed")

    def json(self) -> dict[str, Any]:
        return {
            "sign": self.sign,
            "what": self.what,
            "text": self.text,
            "a": self.a,
            "b": self.b,
            **({"mark": self.mark} if self.mark is not None else {}),
        }


class Renamed(NamedTuple):
    """A value whose name differs (a renaming alone is no change): its name in A and in B, and where (``""``: the main
    graph; ``"node 'y' (If) attribute then_branch: "``, ``"function 'local.f': "``)."""

    a: str
    b: str
    where: str = ""


@dataclass
class StructuralDiff:
    """The changes from A to B, and the names that differ (renamings alone are no change)."""

    changes: list[Change] = field(default_factory=list)
    renamed: list[Renamed] = field(default_factory=list)
    """Values renamed, every body's, in B's order."""
    renamed_nodes: int = 0
    match: BodyMatch | None = None
    """The main graphs' match."""

    @property
    def same(self) -> bool:
        return not self.changes

    def lines(self, verbose: bool = False) -> list[str]:
        """The changes, one line each, then a note on the renamings (each listed when ``verbose``)."""
        out = [c.text for c in self.changes]
        if self.renamed or self.renamed_nodes:
            parts = []
            if self.renamed:
                parts.append(f"{len(self.renamed)} value{'s' if len(self.renamed) != 1 else ''}")
            if self.renamed_nodes:
                parts.append(f"{self.renamed_nodes} node{'s' if self.renamed_nodes != 1 else ''}")
            more = "" if verbose or not self.renamed else " (-v lists them)"
            out.append(f"# renamed: {' and '.join(parts)}{more}")
            if verbose:
                out.extend(f"#   {r.where}{quote(r.a)} → {quote(r.b)}" for r in self.renamed)
        return out

    def json(self) -> dict[str, Any]:
        return {
            "same": self.same,
            "changes": [c.json() for c in self.changes],
            "renamed": [{"a": r.a, "b": r.b, **({"where": r.where} if r.where else {})} for r in self.renamed],
            "renamed_nodes": self.renamed_nodes,
        }


def diff_structural(
    a: ModelProto, b: ModelProto, *, values: Values = to_numpy, match: BodyMatch | None = None
) -> StructuralDiff:
    """How ``b`` differs from ``a`` with nodes matched by what they compute (``values`` reads a
    tensor's values, as for :func:`onnxtext.diff.diff_models`; ``match``: the main graphs' match,
    when it was made already)."""
    result = StructuralDiff()
    result.changes.extend(Change("~", "model", line) for line in diff_header(a, b))
    m = match
    if m is None:
        with collector_paused():  # a 30,000-node model: a million small objects, none garbage
            m = match_graphs(a.graph, b.graph)
    result.match = m
    _Body(result, values, "", True).diff(m)
    for name in ("doc_string", "metadata_props"):  # the graph's own notes (its name is a name)
        if _field_bytes(a.graph, name) != _field_bytes(b.graph, name):
            result.changes.append(Change("~", "graph", f"~ graph {name} changed"))
    fa = {(f.domain, f.name, f.overload): f for f in a.functions}
    fb = {(f.domain, f.name, f.overload): f for f in b.functions}
    for key, f in fa.items():
        label = quote(_fn_name(key))
        g = fb.get(key)
        if g is None:
            result.changes.append(Change("-", "function", f"- function {label} {_fn_sig(f)}", a=_fn_name(key)))
            continue
        prefix = f"function {label}: "
        result.changes.extend(Change("~", "function", line) for line in diff_function_signature(f, g, prefix, values))
        _Body(result, values, prefix, False).diff(match_bodies(body_of(f), body_of(g)))
    for key, g in fb.items():
        if key not in fa:
            result.changes.append(
                Change("+", "function", f"+ function {quote(_fn_name(key))} {_fn_sig(g)}", b=_fn_name(key))
            )
    return result


def _field_bytes(msg: Any, name: str) -> object:
    value = getattr(msg, name)
    if isinstance(value, str):
        return value
    return [x.SerializeToString(deterministic=True) for x in value]


def _fn_name(key: tuple[str, str, str]) -> str:
    domain, name, overload = key
    return (domain + "." if domain else "") + name + (":" + overload if overload else "")


def _fn_sig(f: FunctionProto) -> str:
    return f"({', '.join(f.input)}) => ({', '.join(f.output)}), {len(f.node)} nodes"


def _type(t: TypeProto | None) -> str:
    return type_text(t)


def _same_type(x: TypeProto | None, y: TypeProto | None) -> bool:
    if x is None or y is None:
        return x is y
    return x.SerializeToString(deterministic=True) == y.SerializeToString(deterministic=True)


def _renaming(a: str, b: str) -> str:
    """``'W'``, or ``'W' → 'W2'`` when B names it otherwise."""
    return quote(b) if a == b else f"{quote(a)} → {quote(b)}"


def _label(n: NodeProto) -> str:
    first = next((o for o in n.output if o), "")
    return quote(first or n.name or n.op_type)


def _statement(n: NodeProto) -> str:
    """The node as a statement, without its metadata and doc string (an exporter's notes: source
    lines, stack traces), which the structural diff does not compare."""
    if len(n.metadata_props) or n.doc_string:
        c = NodeProto()
        c.CopyFrom(n)
        c.ClearField("metadata_props")
        c.ClearField("doc_string")
        n = c
    return node_text(n)


def _op(n: NodeProto) -> str:
    op = (n.domain + "." if n.domain else "") + n.op_type
    return op + (":" + n.overload if n.overload else "")


def _plain_attributes(n: NodeProto) -> list[AttributeProto]:
    """The attributes that hold no graph, a constant tensor's name cleared (a name is no change)."""
    out = []
    for a in n.attribute:
        if a.HasField("g") or len(a.graphs):
            continue
        if a.HasField("t") and a.t.name:
            c = AttributeProto()
            c.CopyFrom(a)
            c.t.ClearField("name")
            a = c
        out.append(a)
    return out


class _Body:
    """The changes of one matched pair of bodies, appended to ``result``."""

    def __init__(
        self, result: StructuralDiff, values: Values, prefix: str, main: bool, owner: tuple[int, int] | None = None
    ) -> None:
        self.result = result
        self.values = values
        self.prefix = prefix
        self.main = main
        self.owner = owner  # the main-graph node pair a subgraph belongs to

    def add(
        self,
        sign: str,
        what: str,
        text: str,
        a: str | None = None,
        b: str | None = None,
        ai: int | None = None,
        bi: int | None = None,
    ) -> None:
        if self.owner is not None:
            ai, bi = self.owner
        elif not self.main:
            ai = bi = None
        self.result.changes.append(Change(sign, what, text, a, b, ai, bi))

    def diff(self, m: BodyMatch) -> None:
        a, b, p = m.a, m.b, self.prefix
        self._sources(m)
        for i in a.order:  # removed, in A's order
            if i not in m.nodes:
                n = a.nodes[i]
                self.add("-", "node", f"- {p}node {_label(n)} {_statement(n)}", a=_label(n)[1:-1], ai=i)
        for j in b.order:  # added and changed, in B's order
            n = b.nodes[j]
            paired = m.b_nodes.get(j)
            if paired is None:
                self.add("+", "node", f"+ {p}node {_label(n)} {_statement(n)}", b=_label(n)[1:-1], bi=j)
            else:
                self._node(m, paired, j)
        self._outputs(m)
        self._declared(m)
        self._renames(m)

    def _sources(self, m: BodyMatch) -> None:
        a, b, p = m.a, m.b, self.prefix
        for x in a.inputs:
            if x not in m.a2b:
                self.add("-", "input", f"- {p}input {quote(x)} {_type(a.types.get(x))}", a=x)
        for x in b.inputs:
            if x not in m.b2a:
                self.add("+", "input", f"+ {p}input {quote(x)} {_type(b.types.get(x))}", b=x)
        for x in a.inputs:
            y = m.a2b.get(x)
            if y is not None and not _same_type(a.types.get(x), b.types.get(y)):
                self.add("~", "input", f"~ {p}input {quote(y)} {_type(a.types.get(x))} → {_type(b.types.get(y))}", x, y)
        order_a = [m.a2b[x] for x in a.inputs if x in m.a2b]
        order_b = [y for y in b.inputs if y in m.b2a]
        if order_a != order_b:
            self.add("~", "input", f"~ {p}input order ({', '.join(order_a)}) → ({', '.join(order_b)})")
        for name, t in a.initializers.items():
            other = m.a2b.get(name)
            if other is None:
                self.add("-", "initializer", f"- {p}initializer {quote(name)} {tensor_sig(t)}", a=name)
            elif other in b.initializers:
                u = b.initializers[other]
                if a.contents[name] != b.contents[other]:
                    change = tensor_change(t, u, self.values)
                    if change:
                        self.add("~", "initializer", f"~ {p}initializer {_renaming(name, other)} {change}", name, other)
        for name, t in b.initializers.items():
            if name not in m.b2a:
                self.add("+", "initializer", f"+ {p}initializer {quote(name)} {tensor_sig(t)}", b=name)

    def _node(self, m: BodyMatch, i: int, j: int) -> None:
        na, nb = m.a.nodes[i], m.b.nodes[j]
        if (
            i in m.exact
            and len(m.a.outs[i]) == len(m.b.outs[j])
            and not any(x.HasField("g") or len(x.graphs) for x in na.attribute)
        ):
            if na.name != nb.name:  # operator, attributes and inputs equal: a renaming at most
                self.result.renamed_nodes += 1
            return
        label, p = _label(nb), self.prefix
        before = len(self.result.changes)
        name = _label(nb)[1:-1]
        if _op(na) != _op(nb):
            self.add("~", "node", f"~ {p}node {label} ({_op(na)} → {_op(nb)})", _label(na)[1:-1], name, i, j)
        where = f"{p}node {label} ({_op(nb)})"
        for k in range(max(len(na.input), len(nb.input))):
            x = na.input[k] if k < len(na.input) else None
            y = nb.input[k] if k < len(nb.input) else None
            if x is not None and y is not None and m.same_value(x, y):
                continue
            shown_x = quote(x) if x else "(none)"
            shown_y = quote(y) if y else "(none)"
            self.add("~", "node", f"~ {where} input {k}: {shown_x} → {shown_y}", _label(na)[1:-1], name, i, j)
        if len(na.output) != len(nb.output):
            self.add(
                "~",
                "node",
                f"~ {where} outputs ({', '.join(na.output)}) → ({', '.join(nb.output)})",
                _label(na)[1:-1],
                name,
                i,
                j,
            )
        for line in diff_attribute_lists(_plain_attributes(na), _plain_attributes(nb), f"{where} ", self.values):
            self.add("~", "node", line, _label(na)[1:-1], name, i, j)
        graphs_b = {x.name: x for x in nb.attribute if x.HasField("g") or len(x.graphs)}
        for attr in na.attribute:
            if not (attr.HasField("g") or len(attr.graphs)):
                continue
            other = graphs_b.pop(attr.name, None)
            if other is None:
                self.add("~", "node", f"- {where} attribute {attr.name} (graph)", _label(na)[1:-1], name, i, j)
                continue
            ga, gb = graphs_of(attr), graphs_of(other)
            if len(ga) != len(gb):
                self.add(
                    "~", "node", f"~ {where} attribute {attr.name}: {len(ga)} graphs → {len(gb)}", None, name, i, j
                )
            for k in range(min(len(ga), len(gb))):
                sub = m.subgraphs.get((i, attr.name, k))
                if sub is None:
                    continue
                lead = f"{where} attribute {attr.name}{f'[{k}]' if len(ga) > 1 else ''}: "
                owner = self.owner if self.owner is not None else ((i, j) if self.main else None)
                _Body(self.result, self.values, lead, self.main, owner).diff(sub)
        for attr_name in graphs_b:
            self.add("~", "node", f"+ {where} attribute {attr_name} (graph)", _label(na)[1:-1], name, i, j)
        if len(self.result.changes) == before and na.name != nb.name and (na.name or nb.name):
            self.result.renamed_nodes += 1

    def _outputs(self, m: BodyMatch) -> None:
        a, b, p = m.a, m.b, self.prefix
        if len(a.outputs) == len(b.outputs):
            for k, (x, y) in enumerate(zip(a.outputs, b.outputs, strict=True)):
                if not m.same_value(x, y):
                    self.add("~", "output", f"~ {p}output {k}: {quote(x)} → {quote(y)}", x, y)
                elif not _same_type(a.types.get(x), b.types.get(y)):
                    self.add(
                        "~", "output", f"~ {p}output {quote(y)} {_type(a.types.get(x))} → {_type(b.types.get(y))}", x, y
                    )
            return
        kept = {m.a2b.get(x) for x in a.outputs}
        for x in a.outputs:
            if m.a2b.get(x) not in b.outputs:
                self.add("-", "output", f"- {p}output {quote(x)} {_type(a.types.get(x))}", a=x)
        for y in b.outputs:
            if y not in kept:
                self.add("+", "output", f"+ {p}output {quote(y)} {_type(b.types.get(y))}", b=y)

    def _declared(self, m: BodyMatch) -> None:
        """Types a value info declares on both sides that differ (inputs and outputs are said above)."""
        a, b, p = m.a, m.b, self.prefix
        if a.graph is None or b.graph is None:
            return
        sources = set(a.inputs) | set(a.outputs)
        declared_b = {v.name: v for v in b.graph.value_info}
        for v in a.graph.value_info:
            if v.name in sources:
                continue
            y = m.a2b.get(v.name)
            w = declared_b.get(y) if y is not None else None
            if w is None or y is None:
                continue
            ta = v.type if v.HasField("type") else None
            tb = w.type if w.HasField("type") else None
            if not _same_type(ta, tb):
                i = a.producer.get(v.name, (None, 0))[0]
                j = b.producer.get(y, (None, 0))[0]
                self.add("~", "value", f"~ {p}value {quote(y)} {_type(ta)} → {_type(tb)}", v.name, y, i, j)

    def _renames(self, m: BodyMatch) -> None:
        lead = self.prefix
        seen = set()
        for j in m.b.order:
            i = m.b_nodes.get(j)
            if i is None:
                continue
            for x in m.a.nodes[i].output:
                y = m.a2b.get(x)
                if x and y is not None and x != y and x not in seen:
                    seen.add(x)
                    self.result.renamed.append(Renamed(x, y, lead))
        for x in (*m.a.inputs, *m.a.initializers):
            y = m.a2b.get(x)
            if y is not None and x != y and x not in seen:
                seen.add(x)
                self.result.renamed.append(Renamed(x, y, lead))
