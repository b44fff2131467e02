"""The picture of a structural diff (``onnxtext diff A B -o diff.html``): B's graph, as
``onnxtext graph`` draws it, with A's removed nodes put back beside their matched neighbours;
added, removed and changed nodes carry a ``mark`` (coloured by the graph export), and each run
of unchanged operator nodes is a group of its own, drawn folded in an SVG (the offline page
dims them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onnxtext.compare.numeric import NumericComparison
from onnxtext.compare.structural import StructuralDiff
from onnxtext.diff import node_text
from onnxtext.ide.graph_view import FOLD_ABOVE

if TYPE_CHECKING:
    from onnxtext.document import Document

__all__ = ["diff_graph", "compare_graph", "FOLD_RUN"]

FOLD_RUN = 4
"""Unchanged operator nodes in a row (in B's order, in one group) that make a folded group."""


def diff_graph(b: str | Document, diff: StructuralDiff) -> dict[str, Any] | None:
    """The graph JSON of B's text or document (``onnxtext/graph``'s form) marked with ``diff``'s
    changes: a node's ``mark``, and ``changes``, the indices in ``diff.changes`` of the lines
    about it; None when the text's main graph is not the one compared (a damaged text)."""
    from onnxtext.document import parse_document
    from onnxtext.ide.graph import graph_json, graph_model
    from onnxtext.syntax import ast as A

    m = diff.match
    doc = parse_document(b, "model", "B") if isinstance(b, str) else b
    tree = doc.tree
    if m is None or not isinstance(tree, A.Model) or not isinstance(tree.graph, A.Graph):
        return None
    statements = tree.graph.nodes
    if len(statements) != len(m.b.nodes) or any(not isinstance(s, A.Node) for s in statements):
        return None
    found = graph_model(doc, places=True, weight_rows=False)  # a changed weight is a box to colour
    graph = graph_json(found, doc.source)
    index = {(s.span.start, s.span.end): k for k, s in enumerate(statements)}
    by_index: dict[int, dict[str, Any]] = {}
    values: dict[str, dict[str, Any]] = {}  # a main-graph value's producer (op, input or initializer node)
    for node, data in zip(found.nodes, graph["nodes"], strict=True):
        k = index.get((node.span.start, node.span.end)) if node.kind == "op" else None
        if k is not None:
            by_index[k] = data
            for o in m.b.nodes[k].output:
                values.setdefault(o, data)
        elif node.kind in ("input", "initializer") and data["id"] == node.label:
            values.setdefault(node.label, data)
    removed: dict[int, dict[str, Any]] = {}
    for k, change in enumerate(diff.changes):
        mark = change.mark
        marked: dict[str, Any] | None = None
        if mark is None:
            if change.what in ("initializer", "input") and change.b in values and change.sign != "-":
                marked = values[change.b]
                marked.setdefault("mark", "added" if change.sign == "+" else "changed")
        elif change.b_node is not None and change.b_node in by_index:
            marked = by_index[change.b_node]
            if marked.get("mark") != "added":
                marked["mark"] = mark
        elif change.a_node is not None:
            if change.a_node not in removed:
                removed[change.a_node] = _removed_node(m, change.a_node, graph, by_index, values)
            marked = removed[change.a_node]
        if marked is not None:
            marked.setdefault("changes", []).append(k)
    _removed_edges(m, removed, graph, by_index, values)
    _fold_unchanged(graph, [by_index[k] for k in m.b.order if k in by_index])
    return graph


def _removed_node(
    m: Any, i: int, graph: dict[str, Any], by_index: dict[int, dict[str, Any]], values: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    n = m.a.nodes[i]
    first = next((o for o in n.output if o), "") or n.name or n.op_type
    taken = {x["id"] for x in graph["nodes"]}
    wanted, k = f"removed:{first}", 1
    while wanted in taken:
        k += 1
        wanted = f"removed:{first}#{k}"
    group = None  # beside a matched neighbour: the group of the B node its first matched reader or producer is
    for o in n.output:
        for r, _ in m.a.consumers.get(o, ()):
            j = m.nodes.get(r)
            if j is not None and j in by_index:
                group = by_index[j]["group"]
                break
    if group is None:
        for x in n.input:
            y = m.a2b.get(x)
            if y and y in values:
                group = values[y]["group"]
                break
    zero = {"line": 0, "character": 0}
    node = {
        "id": wanted,
        "kind": "op",
        "label": n.name or first,
        "op": n.op_type,
        "domain": n.domain,
        "range": {"start": zero, "end": zero},
        "group": group,
        "calls": None,
        "severity": None,
        "place": f"removed (in A only, node #{i}): {node_text(n)}",
        "mark": "removed",
    }
    graph["nodes"].append(node)
    return node


def _removed_edges(
    m: Any,
    removed: dict[int, dict[str, Any]],
    graph: dict[str, Any],
    by_index: dict[int, dict[str, Any]],
    values: dict[str, dict[str, Any]],
) -> None:
    """Edges into each removed node from its matched (or removed) producers, and out of it to its
    matched readers."""
    made_by = {o: node for i, node in removed.items() for o in m.a.nodes[i].output if o}
    for i, node in removed.items():
        n = m.a.nodes[i]
        for x in n.input:
            source = made_by.get(x)
            if source is None:
                y = m.a2b.get(x)
                source = values.get(y) if y else None
            if source is not None:
                graph["edges"].append(
                    {"value": x, "source": source["id"], "target": node["id"], "type": "", "live": ""}
                )
        for o in n.output:
            for r, _ in m.a.consumers.get(o, ()):
                j = m.nodes.get(r)
                if j is not None and j in by_index:
                    edge = {"value": o, "source": node["id"], "target": by_index[j]["id"], "type": "", "live": ""}
                    graph["edges"].append(edge)


def _fold_unchanged(graph: dict[str, Any], ordered: list[dict[str, Any]]) -> None:
    """Each run of at least :data:`FOLD_RUN` unmarked nodes in one group becomes a group of its own
    (with the unchanged weights only it reads); the SVG opens every group holding a change
    (``open``), and the rest when the graph is small."""
    groups = graph["groups"]
    made: set[str] = set()
    run: list[dict[str, Any]] = []

    def close() -> None:
        if len(run) >= FOLD_RUN:
            gid = f"group:unchanged#{len(made) + 1}"
            made.add(gid)
            groups.append(
                {"id": gid, "kind": "scope", "label": f"{len(run)} unchanged", "parent": run[0]["group"], "range": None}
            )
            for node in run:
                node["group"] = gid
        run.clear()

    for node in ordered:
        if "mark" in node or (run and run[0]["group"] != node["group"]):
            close()
        if "mark" not in node:
            run.append(node)
    close()
    # an unchanged weight or constant input read only inside one folded run folds with it
    nodes = {n["id"]: n for n in graph["nodes"]}
    parents = {g["id"]: g["parent"] for g in groups}
    readers: dict[str, set[str | None]] = {}
    for e in graph["edges"]:
        target = nodes.get(e["target"])
        readers.setdefault(e["source"], set()).add(target["group"] if target is not None else None)
    for node in graph["nodes"]:
        if node["kind"] == "initializer" and "mark" not in node:
            groups_read = readers.get(node["id"], set())
            if len(groups_read) == 1:
                (only,) = groups_read
                if only in made and parents[only] == node["group"]:
                    node["group"] = only
    opened: set[str] = set()
    for node in graph["nodes"]:
        if "mark" in node:
            g = node["group"]
            while g is not None and g not in opened and g in parents:
                opened.add(g)
                g = parents[g]
    if len(graph["nodes"]) <= FOLD_ABOVE:
        opened |= {g["id"] for g in groups if g["id"] not in made}
    graph["open"] = sorted(opened)


def compare_graph(b: str | Document, diff: StructuralDiff, numbers: NumericComparison) -> dict[str, Any] | None:
    """:func:`diff_graph` with the numeric comparison on its edges (``onnxtext compare -o``): each
    edge carrying a value that differs says by how much (``Δ 0.146``, as the value's live label)
    and is marked ``differs``."""
    graph = diff_graph(b, diff)
    if graph is None:
        return None
    worst = {d.b: d for d in numbers.divergent}
    for e in graph["edges"]:
        found = worst.get(e["value"])
        if found is not None:
            e["mark"] = "differs"
            e["live"] = found.note or f"Δ {found.max_abs:.3g}"
    return graph
