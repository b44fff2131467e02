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
from collections import ChainMap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A

# The producers of the names of a body, then of the bodies around it (subgraphs see outer names).
_Env = ChainMap[str, str]

if TYPE_CHECKING:
    from onnxtext.analysis.symbols import Scope
    from onnxtext.document import Document
    from onnxtext.evaluate.live import LiveResult

__all__ = ["GraphNode", "GraphEdge", "GraphGroup", "GraphModel", "graph_model", "graph_json", "scope_path"]

NODE_KINDS = ("op", "input", "initializer", "output", "damaged")
GROUP_KINDS = ("subgraph", "function", "scope")
_SEVERITY_RANK = {Severity.HINT: 0, Severity.INFO: 1, Severity.WARNING: 2, Severity.ERROR: 3}


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


@dataclass(frozen=True)
class GraphEdge:
    """A value flowing from its producer to one consumer."""

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
        """The innermost node whose statement holds ``offset``."""
        ordered = sorted(self.nodes, key=lambda n: n.span.start)
        return _innermost(ordered, [n.span.start for n in ordered], offset)


def graph_model(
    doc: Document,
    *,
    live: LiveResult | None = None,
    diagnostics: Sequence[Diagnostic] | None = None,
    places: bool = False,
) -> GraphModel:
    """The graph of ``doc``'s text (``diagnostics`` mark their nodes; ``live`` labels the edges;
    ``places``: each node says where it is in the model, :attr:`GraphNode.place`)."""
    return _Builder(doc, live, places).build(doc.tree, diagnostics if diagnostics is not None else doc.diagnostics)


def graph_json(graph: GraphModel, source: SourceFile) -> dict[str, Any]:
    """The protocol form (``onnxtext/graph``): LSP ranges (0-based lines, UTF-16 characters)."""

    def where(span: Span) -> dict[str, Any]:
        (sl, sc), (el, ec) = source.lsp_position(span.start), source.lsp_position(span.end)
        return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}

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
    return node.op_type.value, ".".join(p.value for p in node.domain)


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


class _Builder:
    def __init__(self, doc: Document, live: LiveResult | None, places: bool = False) -> None:
        self.doc = doc
        self.places = places
        self.bodies: dict[int, str] = {}
        self.out = GraphModel()
        self.ids: set[str] = set()
        self.scopes: dict[int, Scope] = {id(s.node): s for s in doc.symbols.scopes}
        self.functions: dict[tuple[str, str], str] = {}
        self.live: dict[str, dict[str, str]] = {}
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
        scope = self.scopes.get(id(body))
        symbol = scope.lookup(name) if scope is not None else None
        found = self.doc.type_of(symbol) if symbol is not None else None
        return "" if found is None or found.is_unknown else str(found)

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
            source = env.get(name)
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
            typed = f"{domain}.{op}" if domain else op
            node.place = self._place(stmt, body, "node", f"'{label}' ({typed})" if label else f"({typed})")
            for name in (i.value for i in stmt.inputs):
                source = env.get(name) if name else None
                if source is not None and body is not None:
                    self._edge(name, source, node.id, body, live)
            for attr, sub in _attribute_graphs(stmt):
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
