"""``extract_function``: consecutive nodes of the main graph moved into a model-local function,
called in their place.

The function reads what the nodes read from outside them (graph inputs, initializers, values of other
nodes, in the order first read: a function sees no initializer of the graph) and gives what the rest
of the graph reads from them or exports; a value only they read stays inside. It imports the model's
opsets; the model imports the function's domain (version 1) when it does not yet. A value_info of a
value now inside the function is dropped (the graph no longer has that value).
"""

from __future__ import annotations

from collections.abc import Sequence

from onnxtext.ir.versioned import normalize_domain
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto
from onnxtext.surgery.edit import find_node
from onnxtext.surgery.names import captured, nested_graphs
from onnxtext.surgery.problems import NAME_TAKEN, WRONG_KIND, error

__all__ = ["extract_function", "function_signature"]


def function_signature(graph: GraphProto, chosen: Sequence[int]) -> tuple[list[str], list[str]]:
    """What nodes ``chosen`` read from outside them (in the order first read) and what the rest of the
    graph reads from them or exports (in the order made)."""
    picked = set(chosen)
    made = [o for i in chosen for o in graph.node[i].output if o]
    inputs: list[str] = []
    for i in chosen:
        node = graph.node[i]
        for name in (*node.input, *(n for sub in nested_graphs(node) for n in sorted(captured(sub)))):
            if name and name not in made and name not in inputs:
                inputs.append(name)
    read = {o.name for o in graph.output}
    for k, node in enumerate(graph.node):
        if k not in picked:
            read.update(node.input)
            for sub in nested_graphs(node):
                read |= captured(sub)
    return inputs, [o for o in made if o in read]


def extract_function(model: ModelProto, nodes: Sequence[str], name: str, domain: str = "local") -> FunctionProto:
    """Move the main-graph nodes ``nodes`` (names, or values they make; they must follow each other)
    into a function ``domain.name`` called in their place; the function made."""
    graph = model.graph
    chosen = sorted({find_node(graph, n) for n in nodes})
    if not chosen:
        raise error(WRONG_KIND, "no node to move into a function")
    if chosen != list(range(chosen[0], chosen[-1] + 1)):
        raise error(WRONG_KIND, "the nodes moved into a function must follow each other in the graph")
    if not name or normalize_domain(domain) == "":
        raise error(WRONG_KIND, "a function needs a name and a domain of its own (not ai.onnx)")
    if any((f.domain, f.name, f.overload) == (domain, name, "") for f in model.functions):
        raise error(NAME_TAKEN, f"a function '{domain}.{name}' exists already")
    inputs, outputs = function_signature(graph, chosen)
    function = FunctionProto(name=name, domain=domain, input=inputs, output=outputs)
    function.opset_import.extend(model.opset_import)
    function.node.extend(graph.node[i] for i in chosen)
    inside = {o for i in chosen for o in graph.node[i].output if o} - set(outputs)
    call = NodeProto(op_type=name, domain=domain, input=inputs, output=outputs)
    for i in reversed(chosen[1:]):
        del graph.node[i]
    graph.node[chosen[0]].CopyFrom(call)
    for k in reversed(range(len(graph.value_info))):
        if graph.value_info[k].name in inside:
            del graph.value_info[k]
    if not any(o.domain == domain for o in model.opset_import):
        model.opset_import.add(domain=domain, version=1)
    model.functions.append(function)
    return function
