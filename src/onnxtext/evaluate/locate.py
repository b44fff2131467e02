"""Where an evaluation error happened: a source span (text models) or a readable proto path.

A :class:`NodeErrorRecord` says ``node_index`` in the graph reached through ``path``
(``[(3, "body"), (0, "then_branch")]``; a ``"<fname>"`` entry means "inside the body of
model-local function fname, called by that node"). :func:`proto_path` turns this into
the source-map key of the node (``graph/node[3]/attribute[0]/g/node[0]``,
``functions[1]/node[2]``), :func:`locate` into its :class:`Span`.
"""

from __future__ import annotations

import re
from typing import Any

from onnxtext.syntax.span import Span
from onnxtext.evaluate.errors import NodeErrorRecord

__all__ = ["locate", "proto_path", "readable_path"]


def _function_start(record: NodeErrorRecord) -> int:
    """Index in ``record.path`` after the innermost function call (0 if none)."""
    start = 0
    for k, (_, attr) in enumerate(record.path):
        if attr.startswith("<") and attr.endswith(">"):
            start = k + 1
    return start


def _innermost_function(record: NodeErrorRecord) -> str | None:
    start = _function_start(record)
    if start:
        return record.path[start - 1][1][1:-1]
    return record.function


def _function_index(name: str, entries: dict[str, Any]) -> int | None:
    """Index of the model-local function called ``name`` in the source map."""
    i = 0
    while f"functions[{i}]" in entries:
        if _ast_name(entries[f"functions[{i}]"]) == name:
            return i
        i += 1
    return None


def _ast_name(node: Any) -> str | None:
    name = getattr(node, "name", None)
    value = getattr(name, "value", name)
    return value if isinstance(value, str) else None


def proto_path(record: NodeErrorRecord, source_map: Any) -> str | None:
    """The source-map key of the failing node (or graph input/output), None if unknown."""
    entries = source_map.entries if hasattr(source_map, "entries") else source_map
    fn = _innermost_function(record)
    if fn is not None:
        idx = _function_index(fn, entries)
        if idx is None:
            return None
        prefix = f"functions[{idx}]"
    else:
        prefix = "graph"
    for node_index, attr in record.path[_function_start(record):]:
        node_key = f"{prefix}/node[{node_index}]"
        j = 0
        while f"{node_key}/attribute[{j}]" in entries:
            if _ast_name(entries[f"{node_key}/attribute[{j}]"]) == attr:
                break
            j += 1
        else:
            return node_key  # attribute not in the text (a function's ref?): the enclosing node
        prefix = f"{node_key}/attribute[{j}]/g"
    if record.node_index is not None:
        return f"{prefix}/node[{record.node_index}]"
    if fn is None and record.input_index is not None:
        return f"{prefix}/input[{record.input_index}]"
    if fn is None and record.output_name is not None and not record.path:
        return prefix
    return prefix if prefix in entries else None


def locate(record: NodeErrorRecord, source_map: Any) -> Span | None:
    """The span of the node that failed, or of the closest enclosing thing the text has."""
    entries = source_map.entries if hasattr(source_map, "entries") else source_map
    path = proto_path(record, source_map)
    while path:
        node = entries.get(path)
        if node is not None and getattr(node, "span", None) is not None:
            span: Span = node.span
            return span
        path = re.sub(r"/[^/]*$", "", path) if "/" in path else ""
    return None


def _describe_node(node: Any, index: int) -> str:
    what = node.op_type or "?"
    if node.name:
        what += f" {node.name!r}"
    return f"node[{index}] ({what})"


def readable_path(record: NodeErrorRecord, model: Any) -> str:
    """``graph/node[3] (Loop 'l')/body/node[1] (MatMul 'mm1')`` for a binary model's error."""
    fn = _innermost_function(record)
    graph: Any = None
    if fn is not None:
        funcs = [f for f in model.functions if f.name == fn]
        parts = [f"function {fn}"]
        graph = funcs[0] if funcs else None
    else:
        parts = ["graph"]
        graph = model.graph
    for node_index, attr in record.path[_function_start(record):]:
        node = graph.node[node_index] if graph is not None and node_index < len(graph.node) else None
        parts.append(_describe_node(node, node_index) if node is not None else f"node[{node_index}]")
        parts.append(attr)
        sub = None
        if node is not None:
            for a in node.attribute:
                if a.name == attr and a.HasField("g"):
                    sub = a.g
        graph = sub
    if record.node_index is not None:
        node = graph.node[record.node_index] if graph is not None and record.node_index < len(graph.node) else None
        if node is not None:
            parts.append(_describe_node(node, record.node_index))
        else:
            parts.append(f"node[{record.node_index}] ({record.op_type or '?'})")
    text = "/".join(parts)
    if record.input_index is not None:
        text += f" input {record.input_index}" + (f" {record.input_name!r}" if record.input_name else "")
    elif record.output_index is not None:
        text += f" output {record.output_index}" + (f" {record.output_name!r}" if record.output_name else "")
    elif record.node_index is None and record.output_name:
        text += f" output {record.output_name!r}"
    return text
