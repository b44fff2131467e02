"""Value names in a model: where a graph defines and uses them, and renaming them in place.

ONNX values live in one namespace per graph and the graphs nested in its nodes (a subgraph sees
the values around it and may not define them again, the IR's single assignment), so a value is
renamed everywhere in its graph and in every subgraph below; function bodies are scopes of their
own and are never touched. Only the fields that hold the name are assigned: every other byte of
the model stays as it was.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableSequence
from typing import Any

from onnxtext.proto import GraphProto, ModelProto, NodeProto

__all__ = [
    "captured",
    "defined",
    "nested_graphs",
    "rename_in_graph",
    "rename_in_model",
    "value_names",
]


def nested_graphs(node: NodeProto) -> Iterator[GraphProto]:
    """The graphs a node's attributes hold (``g``, and each of ``graphs``)."""
    for attr in node.attribute:
        if attr.HasField("g"):
            yield attr.g
        yield from attr.graphs


def defined(graph: GraphProto) -> set[str]:
    """The values ``graph`` itself defines: inputs, initializers, sparse initializers, node outputs."""
    names = {v.name for v in graph.input}
    names.update(t.name for t in graph.initializer)
    names.update(s.values.name for s in graph.sparse_initializer)
    for node in graph.node:
        names.update(o for o in node.output if o)
    return names


def captured(graph: GraphProto) -> set[str]:
    """The values ``graph`` (and the graphs nested in it) use without defining: what it reads from outside."""
    inside = defined(graph)
    used: set[str] = set()
    for node in graph.node:
        used.update(i for i in node.input if i)
        for sub in nested_graphs(node):
            used.update(captured(sub))
    used.update(o.name for o in graph.output)
    return used - inside


def value_names(graph: GraphProto) -> set[str]:
    """Every value name ``graph`` and its nested graphs mention (defined, used, declared)."""
    names = defined(graph)
    names.update(v.name for v in graph.output)
    names.update(v.name for v in graph.value_info)
    for node in graph.node:
        names.update(i for i in node.input if i)
        for sub in nested_graphs(node):
            names.update(value_names(sub))
    return names


def rename_in_graph(graph: GraphProto, mapping: Mapping[str, str], *, outputs: bool = True) -> int:
    """Rename values of ``graph`` and its nested graphs by ``mapping``; the number of fields changed.

    ``outputs=False`` leaves the graph's own outputs as they are (rewiring uses to another value)."""
    changed = 0
    lists = (graph.input, graph.output, graph.value_info) if outputs else (graph.input, graph.value_info)
    for infos in (*lists, graph.initializer):
        changed += sum(_rename_field(m, "name", mapping) for m in infos)
    changed += sum(_rename_field(s.values, "name", mapping) for s in graph.sparse_initializer)
    for note in graph.quantization_annotation:
        changed += _rename_field(note, "tensor_name", mapping)
        changed += sum(_rename_field(e, "value", mapping) for e in note.quant_parameter_tensor_names)
    for node in graph.node:
        changed += _rename_list(node.input, mapping)
        changed += _rename_list(node.output, mapping)
        for sub in nested_graphs(node):
            changed += rename_in_graph(sub, mapping)
    return changed


def rename_in_model(model: ModelProto, mapping: Mapping[str, str]) -> int:
    """Rename main-graph values by ``mapping`` in the main graph (and its subgraphs) and in the
    training graphs that see it (the algorithm graphs, the bindings' initializer names)."""
    changed = rename_in_graph(model.graph, mapping)
    for info in model.training_info:
        if info.HasField("algorithm"):
            changed += rename_in_graph(info.algorithm, mapping)
        for binding in (info.initialization_binding, info.update_binding):
            changed += sum(_rename_field(entry, "key", mapping) for entry in binding)
    return changed


def _rename_field(message: Any, field: str, mapping: Mapping[str, str]) -> int:
    """Rename the string ``field`` of ``message`` by ``mapping``: 1 if it changed, else 0 (the field untouched)."""
    old = getattr(message, field)
    if old not in mapping:
        return 0
    setattr(message, field, mapping[old])
    return 1


def _rename_list(names: MutableSequence[str], mapping: Mapping[str, str]) -> int:
    changed = 0
    for i, name in enumerate(names):
        if name in mapping:
            names[i] = mapping[name]
            changed += 1
    return changed
