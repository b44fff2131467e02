"""The data-flow graph of a text, for the editor's graph view and ``onnxtext graph``.

A plain query over a :class:`~onnxtext.document.Document`, built from the tree, so a broken
text still gives a picture (a damaged statement is a node of kind ``damaged`` that defines the
names it appears to define; its neighbours keep their edges). Every statement is a node with
its span: graph inputs, initializers and outputs, operator nodes, function inputs and outputs.
Every data dependency is an edge (the value's name, its producer, its consumer, its inferred
type and, after a run, its live summary).

Groups fold the picture: a node's subgraphs (If/Loop/Scan bodies), each local function's body
(a node calling it names that group in ``calls``), and the layer hierarchy exporters record:
torch's legacy node names (``/encoder/layer.0/attention/MatMul``) and the dynamo exporter's
``pkg.torch.onnx.name_scopes`` (or ``namespace``) metadata on each node.
"""

from __future__ import annotations

import ast as pyast
import bisect
import weakref
from collections import ChainMap, OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from onnxtext._gc import collector_paused
from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.ir.versioned import normalize_domain
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A

# The producers of the names of a body, then of the bodies around it (subgraphs see outer names).
_Env = ChainMap[str, str]


def _producer(env: _Env, name: str) -> str | None:
    """The node producing ``name`` in ``env``: the innermost body's first (``ChainMap.get`` builds a
    generator per call: a third of the graph of 30,000 nodes went there)."""
    for found in env.maps:
        if name in found:
            return found[name]
    return None


if TYPE_CHECKING:
    from onnxtext.analysis.infer.types import ValueType
    from onnxtext.analysis.symbols import Scope
    from onnxtext.document import Document
    from onnxtext.evaluate.live import LiveResult

__all__ = [
    "GraphNode",
    "GraphRow",
    "GraphEdge",
    "GraphGroup",
    "GraphModel",
    "graph_model",
    "graph_json",
    "folded_json",
    "GraphCache",
    "FOLD_ABOVE",
    "scope_path",
    "formal_name",
    "INTERNAL_SCOPES",
]

INTERNAL_SCOPES = ("_empty_nn_module_stack_from_metadata_hook",)
"""Module names torch records that are its own machinery, not the model's: never shown as groups."""

FOLD_ABOVE = 400
"""Above this many nodes, groups start folded (the editor's view opens a big model so, and
``onnxtext graph`` draws it so)."""

SMALL_VALUES = 6
"""A weight of at most this many values shows them in its row."""

NODE_KINDS = ("op", "input", "initializer", "output", "damaged")
GROUP_KINDS = ("subgraph", "function", "scope")
_SEVERITY_RANK = {Severity.HINT: 0, Severity.INFO: 1, Severity.WARNING: 2, Severity.ERROR: 3}


@dataclass
class GraphRow:
    """A weight or constant drawn inside the node it feeds (Netron's way), not as a box of its own.

    ``value`` is the name the node reads, ``param`` the schema's name of that input (``W``, ``B``;
    ``""`` when unknown), ``type`` its inferred type, ``span`` the statement that defines it (an
    initializer, a ``Constant``, an ``Identity`` of a weight), ``shared`` whether other nodes read
    it too (a row in each)."""

    value: str
    param: str
    type: str
    span: Span
    kind: str
    """``initializer`` or the operator that makes it (``Constant``, ``Identity``)."""
    shared: bool = False
    data: str = ""
    """The values of a small tensor (at most :data:`SMALL_VALUES`), as the text writes them: ``[0, 2]``."""
    origin: str = ""
    origin_span: Span | None = None
    """The statement of the weight an ``Identity`` row passes on (torch's legacy exports alias a
    shared weight so; the cursor there selects the row too)."""
    severity: str | None = None


@dataclass
class GraphNode:
    """One statement: ``kind`` is one of :data:`NODE_KINDS`; ``op`` is the operator (``""`` for values)."""

    id: str
    kind: str
    label: str
    span: Span
    op: str = ""
    domain: str = ""
    group: str | None = None
    calls: str | None = None
    """The group of the local function this node calls."""
    severity: str | None = None
    """The worst diagnostic inside the statement."""
    place: str | None = None
    """Where the statement is in the model, for a reader who never sees the text (``onnxtext
    graph``'s page): ``node 'conv1' (Conv), graph 'main_graph', node #12``; asked for by ``places``."""
    attrs: str = ""
    """Its attributes in a line (``3×3 /2 pad 1``, ``axis 1``: :mod:`onnxtext.ide.graph_attributes`)."""
    rows: tuple[GraphRow, ...] = ()
    """The weights and constants it reads, drawn inside it, in input order."""


class GraphEdge(NamedTuple):
    """A value flowing from its producer to one consumer (a tuple: a graph has one per dependency,
    and a frozen dataclass's making was a third of their cost)."""

    value: str
    source: str
    target: str
    type: str = ""
    live: str = ""


@dataclass
class GraphGroup:
    """A foldable group: ``kind`` is one of :data:`GROUP_KINDS`; ``parent`` the enclosing group."""

    id: str
    kind: str
    label: str
    parent: str | None = None
    span: Span | None = None


@dataclass
class GraphModel:
    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)
    groups: list[GraphGroup] = field(default_factory=list)

    def node_at(self, offset: int) -> GraphNode | None:
        """The innermost node whose statement holds ``offset`` (a weight's statement: the first
        node that draws it as a row)."""
        ordered = sorted(self.nodes, key=lambda n: n.span.start)
        found = _innermost(ordered, [n.span.start for n in ordered], offset)
        if found is not None:
            return found
        for node in self.nodes:
            for r in node.rows:
                if r.span.start <= offset < r.span.end:
                    return node
                if r.origin_span is not None and r.origin_span.start <= offset < r.origin_span.end:
                    return node
        return None


def graph_model(
    doc: Document,
    *,
    live: LiveResult | None = None,
    diagnostics: Sequence[Diagnostic] | None = None,
    places: bool = False,
    weight_rows: bool = True,
) -> GraphModel:
    """The graph of ``doc``'s text (``diagnostics`` mark their nodes; ``live`` labels the edges;
    ``places``: each node says where it is in the model, :attr:`GraphNode.place`; ``weight_rows``:
    weights and constants drawn inside the nodes they feed, else boxes of their own, as a diff's
    picture marks a changed weight)."""
    builder = _Builder(doc, live, places, weight_rows)
    with collector_paused():  # a node, its edges, their tuples: many small objects, none garbage
        return builder.build(doc.tree, diagnostics if diagnostics is not None else doc.diagnostics)


def graph_json(graph: GraphModel, source: SourceFile) -> dict[str, Any]:
    """The protocol form (``onnxtext/graph``): LSP ranges (0-based lines, UTF-16 characters)."""

    where = source.lsp_range_json

    nodes = [
        {
            "id": n.id,
            "kind": n.kind,
            "label": n.label,
            "op": n.op,
            "domain": n.domain,
            "range": where(n.span),
            "group": n.group,
            "calls": n.calls,
            "severity": n.severity,
            **({"place": n.place} if n.place is not None else {}),
            **({"attrs": n.attrs} if n.attrs else {}),
            **(
                {
                    "rows": [
                        {
                            "value": r.value,
                            "param": r.param,
                            "type": r.type,
                            "kind": r.kind,
                            "shared": r.shared,
                            **({"origin": r.origin} if r.origin else {}),
                            **({"originRange": where(r.origin_span)} if r.origin_span is not None else {}),
                            **({"data": r.data} if r.data else {}),
                            "severity": r.severity,
                            "range": where(r.span),
                        }
                        for r in n.rows
                    ]
                }
                if n.rows
                else {}
            ),
        }
        for n in graph.nodes
    ]
    edges = [
        {"value": e.value, "source": e.source, "target": e.target, "type": e.type, "live": e.live} for e in graph.edges
    ]
    groups = [
        {
            "id": g.id,
            "kind": g.kind,
            "label": g.label,
            "parent": g.parent,
            "range": where(g.span) if g.span is not None else None,
        }
        for g in graph.groups
    ]
    return {"nodes": nodes, "edges": edges, "groups": groups}


def folded_json(graph: GraphModel, source: SourceFile) -> dict[str, Any]:
    """The first answer for a big graph's view (``onnxtext/graph`` with ``folded``): what its folded
    picture shows, which is all a view opening a graph of more than :data:`FOLD_ABOVE` nodes draws.

    As :func:`graph_json`, of the nodes outside every group, the outermost groups (each with
    ``count``, the nodes inside it, and ``at``, how many of the nodes sent come before its first:
    the picture's order) and the edges between them, an end inside a group named by that
    group (one edge per value and pair of ends); ``total`` is the graph's node count. The view
    asks for the whole graph once this picture is painted (30,000 nodes in 30 scopes: 1 kB
    instead of 9.4 MB)."""
    groups = {g.id: g for g in graph.groups}
    tops: dict[str, str] = {}

    def outermost(gid: str) -> str:
        found = tops.get(gid)
        if found is None:
            found, seen = gid, {gid}
            while (up := groups[found].parent) is not None and up in groups and up not in seen:
                seen.add(up)
                found = up
            tops[gid] = found
        return found

    shown: dict[str, str] = {}
    count: dict[str, int] = {}
    at: dict[str, int] = {}
    nodes: list[GraphNode] = []
    for n in graph.nodes:
        if n.group is None or n.group not in groups:
            nodes.append(n)
            continue
        top = shown[n.id] = outermost(n.group)
        count[top] = count.get(top, 0) + 1
        at.setdefault(top, len(nodes))
    edges: dict[tuple[str, str, str], GraphEdge] = {}
    for e in graph.edges:
        s, t = shown.get(e.source, e.source), shown.get(e.target, e.target)
        if s != t and (e.value, s, t) not in edges:
            edges[e.value, s, t] = GraphEdge(e.value, s, t, e.type, e.live)
    # the groups in the order of their first nodes (as the whole graph's view meets them)
    part = graph_json(GraphModel(nodes, list(edges.values()), [groups[g] for g in at]), source)
    for g in part["groups"]:
        g["count"], g["at"] = count[g["id"]], at[g["id"]]
    part["total"] = len(graph.nodes)
    return part


@dataclass
class _Built:
    outcome: weakref.ref[object]
    key: Hashable
    graph: GraphModel
    folded: dict[str, Any] | None = None


class GraphCache:
    """The graphs last built, per document: the requests a view makes of one analysis (its folded
    top level, then the whole graph, both again when it is shown again) build its graph once.

    An entry is of one analysis object (held weakly: a newer version's is another object) and one
    ``key`` (what else the graph depends on: live values, the diagnostics it marks); the
    ``size`` documents asked last are kept. The whole graph's answer is made again each time
    it is asked (a view asks once): as Python objects, 30,000 nodes' would hold some 50 MB."""

    def __init__(self, size: int = 2) -> None:
        self._size = size
        self._built: OrderedDict[str, _Built] = OrderedDict()

    def answer(
        self,
        uri: str,
        analysis: object,
        key: Hashable,
        build: Callable[[], GraphModel],
        source: SourceFile,
        *,
        folded: bool = False,
    ) -> dict[str, Any]:
        """The protocol form of ``uri``'s graph of ``analysis`` (built by ``build`` unless kept):
        :func:`folded_json` when ``folded`` and the graph has more than :data:`FOLD_ABOVE` nodes,
        else :func:`graph_json`."""
        found = self._built.get(uri)
        if found is None or found.outcome() is not analysis or found.key != key:
            found = self._built[uri] = _Built(weakref.ref(analysis), key, build())
        self._built.move_to_end(uri)
        while len(self._built) > self._size:
            self._built.popitem(last=False)
        if not folded or len(found.graph.nodes) <= FOLD_ABOVE:
            return graph_json(found.graph, source)
        if found.folded is None:
            found.folded = folded_json(found.graph, source)
        return found.folded


def scope_path(node: A.Node) -> list[str]:
    """The module path an exporter recorded for ``node`` (``[]`` when none).

    The dynamo exporter's ``pkg.torch.onnx.name_scopes`` metadata (``['', 'encoder',
    'encoder.0', 'encoder.0.fc', 'linear']``: the modules, then the node) comes first, then its
    ``namespace`` (``: M/encoder: Sequential/encoder.0: Blk/...``), then torch's legacy node
    names (``/encoder/encoder.0/fc/Gemm``: every part but the last).
    """
    meta = _metadata(node)
    scopes = meta.get("pkg.torch.onnx.name_scopes")
    if scopes is not None:
        parsed = _literal_list(scopes)
        if parsed is not None:
            return [_relative(p, parsed[i - 1] if i > 1 else "") for i, p in enumerate(parsed[:-1]) if p]
    namespace = meta.get("namespace")
    if namespace is not None and "/" in namespace:
        names = [part.split(":", 1)[0].strip() for part in namespace.split("/")]
        return [_relative(n, names[i - 1] if i > 1 else "") for i, n in enumerate(names[:-1]) if n]
    label = node.label.value if node.label is not None else ""
    if label.startswith("/") and label.count("/") >= 2:
        return [p for p in label.split("/")[1:-1] if p]
    return []


def _relative(name: str, parent: str) -> str:
    """``encoder.0.fc`` under ``encoder.0`` is ``fc``."""
    return name[len(parent) + 1 :] if parent and name.startswith(parent + ".") else name


def _literal_list(text: str) -> list[str] | None:
    try:
        value = pyast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def _metadata(node: A.Node) -> dict[str, str]:
    out: dict[str, str] = {}
    if node.props is None:
        return out
    for entry in node.props.entries:
        if (
            isinstance(entry, A.PropEntry)
            and entry.key.value == "metadata_props"
            and isinstance(entry.value, A.PropList)
        ):
            for item in entry.value.items:
                if isinstance(item, A.PropPair) and isinstance(item.key, A.Str) and isinstance(item.value, A.Str):
                    out[item.key.text] = item.value.text
    return out


def _innermost(nodes: list[GraphNode], starts: list[int], offset: int) -> GraphNode | None:
    """Of ``nodes`` sorted by start (``starts``), the last starting at or before ``offset`` that holds it."""
    i = bisect.bisect_right(starts, offset) - 1
    while i >= 0:
        n = nodes[i]
        if n.span.start <= offset < n.span.end or offset == n.span.end == n.span.start:
            return n
        i -= 1
    return None


def _op_text(node: A.Node) -> tuple[str, str]:
    return node.op_type.value, ".".join(p.value for p in node.domain) if node.domain else ""


def _function_key(f: A.Function) -> tuple[str, str]:
    domain = ""
    if f.header is not None:
        for entry in f.header.entries:
            if isinstance(entry, A.PropEntry) and entry.key.value == "domain" and isinstance(entry.value, A.Str):
                domain = entry.value.text
    return domain, f.name.value


def _attribute_graphs(node: A.Node) -> Iterator[tuple[str, A.Graph]]:
    for attr in node.attributes:
        if not isinstance(attr, A.Attribute):
            continue
        value = attr.value
        items = value.items if isinstance(value, A.AttrList) else [value]
        graphs = [v.graph for v in items if isinstance(v, A.GraphValue)]
        for i, g in enumerate(graphs):
            yield (attr.name.value if len(graphs) == 1 else f"{attr.name.value}[{i}]"), g


def formal_name(params: Sequence[Any], index: int) -> str:
    """The schema's name of the ``index``-th input or output among ``params`` (a variadic last
    one names all that follow; ``""`` past the end)."""
    if not params:
        return ""
    p = params[min(index, len(params) - 1)]
    return str(p.name) if index < len(params) or p.is_variadic else ""


class _Builder:
    def __init__(self, doc: Document, live: LiveResult | None, places: bool = False, weight_rows: bool = True) -> None:
        self.doc = doc
        self.places = places
        self.weight_rows = weight_rows
        self.bodies: dict[int, str] = {}
        self.out = GraphModel()
        self.ids: set[str] = set()
        self.scopes: dict[int, Scope] = {id(s.node): s for s in doc.symbols.scopes}
        self.functions: dict[tuple[str, str], str] = {}
        self.live: dict[str, dict[str, str]] = {}
        self.statements: dict[str, tuple[A.Node, A.Graph | A.Function | None]] = {}
        """Each operator node's statement and the body it is in."""
        self.tensors: dict[str, A.TensorBody] = {}
        """Each initializer's data."""
        self.type_texts: dict[ValueType, str] = {}
        if live is not None:
            from onnxtext.ide.hints import live_labels

            self.live = live_labels(live)

    def build(self, tree: A.AstNode | None, diagnostics: Sequence[Diagnostic]) -> GraphModel:
        if isinstance(tree, A.Model):
            functions = [f for f in tree.functions if isinstance(f, A.Function)]
            for f in functions:
                key = _function_key(f)
                self.functions[key] = self._group_id("function:" + ".".join(p for p in key if p))
            if isinstance(tree.graph, A.Graph):
                self._graph(tree.graph, None, ChainMap(), "")
            for f in functions:
                self._function(f)
        elif isinstance(tree, A.Graph):
            self._graph(tree, None, ChainMap(), "")
        elif isinstance(tree, A.Function):
            self.functions[_function_key(tree)] = self._group_id("function:" + tree.name.value)
            self._function(tree)
        elif isinstance(tree, A.Node):
            self._nodes([tree], None, ChainMap(), "", None)
        self._mark(diagnostics)
        if self.weight_rows:
            self._absorb_weights()
        self._summaries()
        self._unbox_single_scopes()
        return self.out

    # ------------------------------------------------------------ ids
    def _unique(self, wanted: str) -> str:
        found, n = wanted, 1
        while found in self.ids:
            n += 1
            found = f"{wanted}#{n}"
        self.ids.add(found)
        return found

    def _group_id(self, wanted: str) -> str:
        return self._unique("group:" + wanted)

    def _add(self, node: GraphNode) -> GraphNode:
        self.out.nodes.append(node)
        return node

    # ------------------------------------------------------------ bodies
    def _labels(self, body: A.Graph | A.Function) -> dict[str, str]:
        path = self.doc.source_map.path_of(body) if self.live else None
        return self.live.get(str(path) if path is not None else "", {})

    def _edge(self, name: str, source: str, target: str, body: A.Graph | A.Function, live: dict[str, str]) -> None:
        self.out.edges.append(GraphEdge(name, source, target, self._type(body, name), live.get(name, "")))

    def _type(self, body: A.Graph | A.Function, name: str) -> str:
        found = self._value_type(body, name)
        if found is None:
            return ""
        text = self.type_texts.get(found)
        if text is None:  # a model's values share few types: each written once
            text = self.type_texts[found] = "" if found.is_unknown else str(found)
        return text

    def _value_type(self, body: A.Graph | A.Function, name: str) -> ValueType | None:
        scope = self.scopes.get(id(body))
        symbol = scope.lookup(name) if scope is not None else None
        return self.doc.type_of(symbol) if symbol is not None else None

    def _graph(self, g: A.Graph, group: str | None, env: _Env, prefix: str) -> None:
        live = self._labels(g)
        for stmt, kind in [
            *((s, "input") for s in g.inputs or []),
            *((s, "initializer") for s in g.initializers or []),
        ]:
            if isinstance(stmt, A.Initializer):
                if kind == "initializer" and stmt.body is None:
                    continue  # a value-info annotation, not a value of its own
                name = stmt.info.name.value
                kind = "initializer" if stmt.body is not None else "input"
                node = self._add(GraphNode(self._unique(prefix + name), kind, name, stmt.span, group=group))
                if stmt.body is not None:
                    self.tensors[node.id] = stmt.body
                node.place = self._place(stmt, g, kind, f"'{name}'")
                env[name] = node.id
            elif isinstance(stmt, A.ErrorNode):
                self._damaged(stmt, group, env, prefix)
        self._nodes(g.nodes, group, env, prefix, g, live)
        self._outputs(g.outputs, g, group, env, prefix, live)

    def _function(self, f: A.Function) -> None:
        gid = self.functions[_function_key(f)]
        self.out.groups.append(GraphGroup(gid, "function", f.name.value, None, f.span))
        env: _Env = ChainMap()
        prefix = gid[len("group:") :] + "/"
        live = self._labels(f)
        for vi in f.inputs:
            if isinstance(vi, A.ValueInfo):
                node = self._add(
                    GraphNode(self._unique(prefix + vi.name.value), "input", vi.name.value, vi.span, group=gid)
                )
                node.place = self._place(vi, f, "input", f"'{vi.name.value}'")
                env[vi.name.value] = node.id
        self._nodes(f.nodes, gid, env, prefix, f, live)
        self._outputs(f.outputs, f, gid, env, prefix, live)

    def _outputs(
        self,
        outputs: Sequence[A.ValueInfo | A.ErrorNode],
        body: A.Graph | A.Function,
        group: str | None,
        env: _Env,
        prefix: str,
        live: dict[str, str],
    ) -> None:
        for vi in outputs:
            if not isinstance(vi, A.ValueInfo):
                continue
            name = vi.name.value
            node = self._add(GraphNode(self._unique(prefix + "output:" + name), "output", name, vi.span, group=group))
            node.place = self._place(vi, body, "output", f"'{name}'")
            source = _producer(env, name)
            if source is not None:
                self._edge(name, source, node.id, body, live)

    def _damaged(self, stmt: A.ErrorNode, group: str | None, env: _Env, prefix: str) -> None:
        names = [d.value for d in stmt.defines if d.value]
        node = self._add(
            GraphNode(
                self._unique(prefix + (names[0] if names else f"damaged@{stmt.span.start}")),
                "damaged",
                ", ".join(names) or "(damaged)",
                stmt.span,
                group=group,
            )
        )
        for name in names:
            env[name] = node.id

    def _nodes(
        self,
        stmts: Sequence[A.Node | A.ErrorNode],
        group: str | None,
        env: _Env,
        prefix: str,
        body: A.Graph | A.Function | None,
        live: dict[str, str] | None = None,
    ) -> None:
        live = live or {}
        scoped: dict[tuple[str, ...], str] = {}
        for stmt in stmts:
            if isinstance(stmt, A.ErrorNode):
                self._damaged(stmt, group, env, prefix)
                continue
            outputs = [o.value for o in stmt.outputs if o.value]
            label = stmt.label.value if stmt.label is not None and stmt.label.value else ""
            op, domain = _op_text(stmt)
            wanted = prefix + (outputs[0] if outputs else label or f"{op}@{stmt.span.start}")
            node_group = self._scope_group(stmt, group, scoped, prefix)
            calls = self.functions.get((domain, op))
            name = label or ", ".join(outputs) or op
            node = self._add(GraphNode(self._unique(wanted), "op", name, stmt.span, op, domain, node_group, calls))
            self.statements[node.id] = (stmt, body)
            if self.places:
                typed = f"{domain}.{op}" if domain else op
                node.place = self._place(stmt, body, "node", f"'{label}' ({typed})" if label else f"({typed})")
            for name in (i.value for i in stmt.inputs):
                source = _producer(env, name) if name else None
                if source is not None and body is not None:
                    self._edge(name, source, node.id, body, live)
            for attr, sub in _attribute_graphs(stmt) if stmt.attributes else ():
                gid = self._group_id(f"{node.id}/{attr}")
                self.out.groups.append(GraphGroup(gid, "subgraph", f"{attr} of {op}", node_group, sub.span))
                self._graph(sub, gid, env.new_child(), gid[len("group:") :] + "/")
            for name in outputs:
                env[name] = node.id

    def _place(self, stmt: A.AstNode, body: A.Graph | A.Function | None, kind: str, what: str) -> str | None:
        """``node 'conv1' (Conv), graph 'main_graph', node #12``: ``kind`` and ``what`` name the
        statement, its proto path says which of its kind it is (an input given a value is the
        graph's initializer); None unless places were asked for."""
        if not self.places:
            return None
        path = self.doc.source_map.path_of(stmt)
        last = path[-1] if path else None
        if last is not None and len(last) == 2 and last[0] in ("node", "input", "initializer", "output"):
            kind, index = last[0], f", {last[0]} #{last[1]}"  # type: ignore[misc]
        else:
            index = ""  # a function's inputs and outputs are names only: no message of their own
        return f"{kind} {what}" + (f", {self._body_place(body)}" if body is not None else "") + index

    def _body_place(self, body: A.Graph | A.Function) -> str:
        """``graph 'main_graph'``, ``graph 'then' at graph/node[3]/attribute[0]/g``, ``function 'local.F'``."""
        found = self.bodies.get(id(body))
        if found is None:
            if isinstance(body, A.Function):
                found = "function '" + ".".join(p for p in _function_key(body) if p) + "'"
            else:
                path = self.doc.source_map.path_of(body)
                nested = path is not None and len(path) > 1
                found = f"graph '{body.name.value}'" + (f" at {path}" if nested else "")
            self.bodies[id(body)] = found
        return found

    def _scope_group(
        self, stmt: A.Node, group: str | None, made: dict[tuple[str, ...], str], prefix: str
    ) -> str | None:
        """The innermost group of the module path recorded for ``stmt``, made on first use."""
        path = tuple(scope_path(stmt))
        known = made.get(path)
        if known is not None or not path:
            return known or group  # the path's groups made for a node before (most nodes' case)
        parent = group
        for depth in range(1, len(path) + 1):
            key = path[:depth]
            found = made.get(key)
            if found is None:
                found = self._group_id(prefix + "scope:/" + "/".join(key))
                made[key] = found
                self.out.groups.append(GraphGroup(found, "scope", key[-1], parent))
            parent = found
        return parent

    def _mark(self, diagnostics: Sequence[Diagnostic]) -> None:
        ordered = sorted(self.out.nodes, key=lambda n: n.span.start)
        starts = [n.span.start for n in ordered]
        for d in diagnostics:
            node = _innermost(ordered, starts, d.offset)
            if node is None:
                continue
            if node.severity is None or _SEVERITY_RANK[Severity(node.severity)] < _SEVERITY_RANK[d.severity]:
                node.severity = d.severity.value

    # ------------------------------------------------------------ weights, attributes, scopes
    def _absorb_weights(self) -> None:
        """Weights and constants become rows of the nodes they feed (Netron's way): an initializer,
        a ``Constant`` or an ``Identity`` of one of them whose every reader is an operator node.
        Graph inputs and outputs stay boxes, and so does a weight that a graph output reads."""
        candidates = {n.id for n in self.out.nodes if n.kind == "initializer" or n.op in ("Constant", "Identity")}
        if not candidates:
            return  # nothing to draw inside a node (30,000 Relu: 0.1 s of edges indexed for nothing)
        by_id = {n.id: n for n in self.out.nodes}
        readers: dict[str, list[GraphEdge]] = {}  # of the candidates only: a graph's last Identity
        feeders: dict[str, list[GraphEdge]] = {}  # indexes no 30,000 edges
        for e in self.out.edges:
            if e.source in candidates:
                readers.setdefault(e.source, []).append(e)
            if e.target in candidates:
                feeders.setdefault(e.target, []).append(e)
        weights: set[str] = set()
        for n in self.out.nodes:  # text order: an Identity comes after what it reads
            if not readers.get(n.id):
                continue
            standard = n.kind == "op" and normalize_domain(n.domain) == ""
            if n.kind == "initializer" or (standard and n.op == "Constant"):
                source_ok = not feeders.get(n.id)
            elif standard and n.op == "Identity":
                ins = feeders.get(n.id, [])
                source_ok = len(ins) == 1 and ins[0].source in weights
            else:
                continue
            if source_ok and all(by_id[e.target].kind == "op" for e in readers[n.id]):
                weights.add(n.id)
        if not weights:
            return
        root: dict[str, str] = {}  # an Identity of a weight shares that weight
        for n in self.out.nodes:
            if n.id in weights:
                ins = feeders.get(n.id, [])
                root[n.id] = root.get(ins[0].source, ins[0].source) if n.kind == "op" and n.op == "Identity" else n.id
        readers_of_root: dict[str, set[str]] = {}
        for w in weights:
            readers_of_root.setdefault(root[w], set()).update(e.target for e in readers[w] if e.target not in weights)
        rows: dict[str, list[tuple[int, GraphRow]]] = {}
        for w in weights:
            node = by_id[w]
            origin = by_id[root[w]].label if root[w] != w else ""
            for e in readers[w]:
                if e.target in weights:
                    continue
                index, param = self._input_param(e.target, e.value)
                row = GraphRow(e.value, param, e.type, node.span, node.op or "initializer")
                row.shared = len(readers_of_root[root[w]]) > 1
                row.origin = origin
                row.origin_span = by_id[root[w]].span if origin else None
                row.data = self._small_values(w)
                if row.data.startswith("[") and row.type.endswith("[]"):
                    row.data = row.data[1:-1]  # a scalar
                row.severity = node.severity
                rows.setdefault(e.target, []).append((index, row))
        for target, found in rows.items():
            found.sort(key=lambda item: item[0])
            by_id[target].rows = tuple(r for _, r in found)
            worst = [r.severity for r in by_id[target].rows if r.severity is not None]
            if worst and by_id[target].severity is None:
                by_id[target].severity = max(worst, key=lambda s: _SEVERITY_RANK[Severity(s)])
        self.out.nodes = [n for n in self.out.nodes if n.id not in weights]
        self.out.edges = [e for e in self.out.edges if e.source not in weights]

    def _small_values(self, node_id: str) -> str:
        """``[0, 2]``: the values of a small initializer or ``Constant`` as written; ``""`` otherwise."""
        body: A.AstNode | None = self.tensors.get(node_id)
        found = self.statements.get(node_id)
        if found is not None:
            for attr in found[0].attributes:
                if isinstance(attr, A.Attribute) and attr.name.value.startswith("value"):
                    body = attr.value.body if isinstance(attr.value, A.TensorValue) else attr.value
        if isinstance(body, A.NumberBody):
            items = [t.strip() for t in body.text.split(",")] if body.text.strip() else []
        elif isinstance(body, A.LiteralBody):
            items = [" ".join(self.doc.source.text[v.span.start : v.span.end].split()) for v in body.values]
        elif isinstance(body, A.AttrList):
            items = [" ".join(self.doc.source.text[v.span.start : v.span.end].split()) for v in body.items]
        elif isinstance(body, A.Number | A.Str):
            return " ".join(self.doc.source.text[body.span.start : body.span.end].split())
        else:
            return ""
        text = "[" + ", ".join(items) + "]"
        return text if len(items) <= SMALL_VALUES and len(text) <= 24 else ""

    def _input_param(self, node_id: str, value: str) -> tuple[int, str]:
        """The position of ``value`` among the node's inputs and the schema's name for it."""
        stmt, _ = self.statements.get(node_id, (None, None))
        if stmt is None:
            return 0, ""
        names = [i.value for i in stmt.inputs]
        index = names.index(value) if value in names else len(names)
        resolution = self.doc.resolutions.get(stmt)
        schema = resolution.schema if resolution is not None else None
        return index, formal_name(schema.inputs if schema is not None else (), index)

    def _summaries(self) -> None:
        """Each operator node's attribute line (:func:`~onnxtext.ide.graph_attributes.attribute_summary`)."""
        from onnxtext.ide.graph_attributes import WINDOWED, attribute_summary, attribute_values

        source = self.doc.source.text
        for node in self.out.nodes:
            found = self.statements.get(node.id)
            if found is None:
                continue
            stmt, body = found
            if not stmt.attributes and node.op not in ("Conv", "ConvTranspose"):
                continue
            resolution = self.doc.resolutions.get(stmt)
            schema = resolution.schema if resolution is not None else None
            weight_shape = None
            if node.op in WINDOWED and len(stmt.inputs) > 1 and body is not None:  # only a window reads it
                typed = self._value_type(body, stmt.inputs[1].value)
                weight_shape = typed.shape if typed is not None and typed.kind == "tensor" else None
            node.attrs = attribute_summary(node.op, attribute_values(stmt, source), schema, weight_shape)

    def _unbox_single_scopes(self) -> None:
        """A module scope that holds one node (weights drawn inside it) is no box: its node and
        groups go to the group around it."""
        scopes = {g.id: g for g in self.out.groups if g.kind == "scope"}
        if not scopes:
            return
        parent = {g.id: g.parent for g in self.out.groups}
        count: dict[str, int] = {}
        for n in self.out.nodes:
            g = n.group
            seen: set[str] = set()
            while g is not None and g not in seen:
                seen.add(g)
                count[g] = count.get(g, 0) + 1
                g = parent.get(g)
        gone = {g for g in scopes if count.get(g, 0) <= 1}
        if not gone:
            return

        def kept(g: str | None) -> str | None:
            while g is not None and g in gone:
                g = parent.get(g)
            return g

        for n in self.out.nodes:
            n.group = kept(n.group)
        self.out.groups = [group for group in self.out.groups if group.id not in gone]
        for group in self.out.groups:
            group.parent = kept(group.parent)
