"""The editor's comparison of two versions of a model (a "Compare with…" view): B's graph marked
with the structural diff against A, and each change with the statements it is about in both
texts, so a view can show the two texts side by side and a click on a changed node both
statements. A plain query over two :class:`~onnxtext.document.Document` snapshots."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from onnxtext.ir.paths import ProtoPath
from onnxtext.proto import ModelProto, NodeProto

if TYPE_CHECKING:
    from onnxtext.compare.budgeted import Compared
    from onnxtext.compare.structural import Change
    from onnxtext.document import Document
    from onnxtext.span import Span

__all__ = ["compare_documents", "compare_values", "first_divergent"]


def compare_documents(a: Document, b: Document) -> dict[str, Any] | None:
    """``{"same", "graph", "changes", "renamed"}``: ``graph`` is B's ``onnxtext/graph`` answer
    with each node's ``mark`` and ``changes`` (indices into ``changes``); each change is
    ``{"sign", "what", "text", "mark", "a", "b"}`` with ``a`` and ``b`` the LSP ranges of the
    statement it is about in each text (None where it has none). None when either text is not a
    model that lowers (a damaged text: its diagnostics say why)."""
    from onnxtext.compare.picture import diff_graph
    from onnxtext.compare.structural import diff_structural

    if a.model is None or b.model is None or not a.ok or not b.ok:
        return None
    diff = diff_structural(a.model, b.model)
    graph = diff_graph(b, diff)
    if graph is None:
        return None
    changes = []
    for change in diff.changes:
        entry = change.json()
        for side, doc in (("a", a), ("b", b)):
            span = _statement(doc, change, side)
            entry[side] = doc.source.lsp_range_json(span) if span is not None else None
        changes.append(entry)
    return {
        "same": diff.same,
        "graph": graph,
        "changes": changes,
        "renamed": [{"a": r.a, "b": r.b, "where": r.where} for r in diff.renamed],
    }


def _statement(doc: Document, change: Change, side: str) -> Span | None:
    """The span of the statement ``change`` is about in ``doc`` (side ``a`` or ``b``)."""
    graph = ProtoPath.parse("graph")
    index = change.a_node if side == "a" else change.b_node
    if index is not None:
        return doc.source_map.locate(graph.child("node", index))
    name = change.a if side == "a" else change.b
    model = doc.model
    if name is None or model is None or change.what not in ("initializer", "input", "output"):
        return None
    field = {"initializer": model.graph.initializer, "input": model.graph.input, "output": model.graph.output}
    for k, item in enumerate(field[change.what]):
        if item.name == name:
            return doc.source_map.locate(graph.child(change.what, k))
    return None


def compare_values(a: Document, b: Document, run: Callable[[ModelProto, ModelProto], Compared]) -> dict[str, Any]:
    """The numeric comparison of A and B for the editor (``onnxtext/compareValues``): ``run`` runs both
    models and compares every matched value (:func:`~onnxtext.compare.budgeted.compare_budgeted`).

    ``{"values": None, "reason"}`` when it did not run (a text is no valid model, the run was over
    the budget or failed); else ``{"values", "first", "outputs", "compared", "inputs", "graph"}``:
    each value ``{"a", "b", "op", "max_abs", "max_rel", "differs", "note", "at"}`` in B's order
    (``at``: the LSP position right after its name in B's text; an infinite difference is None, its
    ``note`` says why), ``first`` B's names of the values that differ and are computed from none
    that does (where the models start to part), ``graph`` B's diff picture with each edge whose
    value differs marked ``differs`` and labelled ``Δ 0.146``."""
    from onnxtext.compare.picture import compare_graph
    from onnxtext.compare.structural import diff_structural

    bad = [side for side, doc in (("A", a), ("B", b)) if doc.model is None or not doc.ok]
    if bad or a.model is None or b.model is None:
        return {"values": None, "reason": f"{' and '.join(bad)} not a valid model: its diagnostics say why"}
    found = run(a.model, b.model)
    numbers = found.numbers
    if numbers is None:
        return {"values": None, "reason": found.skipped or "not run"}
    at = _value_ends(b)
    values = [
        {
            "a": d.a,
            "b": d.b,
            "op": d.op,
            "max_abs": _finite(d.max_abs),
            "max_rel": _finite(d.max_rel),
            "differs": differs,
            "note": d.note,
            "at": _position(b, at.get(d.b)),
        }
        for d, differs in numbers.values
    ]
    outputs = [
        {"a": d.a, "b": d.b, "max_abs": _finite(d.max_abs), "max_rel": _finite(d.max_rel), "note": d.note}
        for d in numbers.outputs
    ]
    return {
        "values": values,
        "first": first_divergent(b.model, [d.b for d in numbers.divergent]),
        "outputs": outputs,
        "compared": numbers.compared,
        "inputs": found.inputs,
        "graph": compare_graph(b, diff_structural(a.model, b.model), numbers),
        "reason": None,
    }


def first_divergent(model: ModelProto, divergent: list[str]) -> list[str]:
    """The values of ``divergent`` (in its order) computed from no other divergent value, through
    any chain of B's main-graph nodes: where the models start to part."""
    readers: dict[str, list[NodeProto]] = {}
    for node in model.graph.node:
        for x in node.input:
            if x:
                readers.setdefault(x, []).append(node)
    downstream: set[str] = set()  # values computed from a divergent one, through any chain
    todo = list(dict.fromkeys(divergent))
    while todo:  # each value's readers once: a text's nodes need not be in topological order
        for node in readers.get(todo.pop(), ()):
            for y in node.output:
                if y and y not in downstream:
                    downstream.add(y)
                    todo.append(y)
    return [name for name in divergent if name not in downstream]


def _value_ends(doc: Document) -> dict[str, int]:
    """The offset right after each node output's name in the main graph of ``doc``."""
    from onnxtext.ide.hints import value_hints
    from onnxtext.syntax import ast as A

    for scope in doc.symbols.scopes:
        body = scope.node
        if isinstance(body, A.Graph) and str(doc.source_map.path_of(body) or "") == "graph":
            return {h.name: h.offset for h in value_hints(body, lambda name: name)}
    return {}


def _position(doc: Document, offset: int | None) -> dict[str, int] | None:
    if offset is None:
        return None
    line, character = doc.source.lsp_position(offset)
    return {"line": line, "character": character}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None
