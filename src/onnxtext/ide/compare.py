"""The editor's comparison of two versions of a model (a "Compare with…" view): B's graph marked
with the structural diff against A, and each change with the statements it is about in both
texts, so a view can show the two texts side by side and a click on a changed node both
statements. A plain query over two :class:`~onnxtext.document.Document` snapshots."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onnxtext.ir.paths import ProtoPath

if TYPE_CHECKING:
    from onnxtext.compare.structural import Change
    from onnxtext.document import Document
    from onnxtext.span import Span

__all__ = ["compare_documents"]


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
        entry["a"] = _range(a, _statement(a, change, "a"))
        entry["b"] = _range(b, _statement(b, change, "b"))
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


def _range(doc: Document, span: Span | None) -> dict[str, Any] | None:
    if span is None:
        return None
    (sl, sc), (el, ec) = doc.source.lsp_position(span.start), doc.source.lsp_position(span.end)
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}
