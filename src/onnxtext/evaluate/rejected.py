"""Which nodes of the main graph a run leaves out: those the checker rejected, and what depends on them.

A node with a checker error (an attribute of the wrong type, a misspelt operator) already has
its diagnostic: running it would only add a second, vaguer one on the same line. The live run
skips it and every node that reads what it would have computed (directly, or from inside a
subgraph), and computes the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.ir.paths import ProtoPath
from onnxtext.ir.resolve import Resolver
from onnxtext.proto import GraphProto, ModelProto, NodeProto

__all__ = ["rejected_nodes", "downstream"]


def rejected_nodes(
    model: ModelProto, diagnostics: Iterable[Diagnostic], path_at: Callable[[int], ProtoPath | None]
) -> frozenset[int]:
    """Indices of the main graph's nodes an error falls in (in the node, its subgraphs, or the
    body of the model-local function it calls); ``path_at`` maps a text offset to a proto path."""
    nodes: set[int] = set()
    functions: set[int] = set()
    for diag in diagnostics:
        if diag.severity is not Severity.ERROR or diag.span is None:
            continue
        steps = path_at(diag.offset)
        if steps is None:
            continue
        if len(steps) >= 2 and steps[0] == ("graph",) and steps[1][0] == "node" and len(steps[1]) == 2:
            nodes.add(int(steps[1][1]))
        elif steps and steps[0][0] == "functions" and len(steps[0]) == 2:
            functions.add(int(steps[0][1]))
    if functions:
        resolver = Resolver(model)
        for index, node in enumerate(model.graph.node):
            if resolver.resolve(node, resolver.opsets).function_index in functions:
                nodes.add(index)
    return frozenset(nodes)


def downstream(graph: GraphProto, rejected: Iterable[int]) -> frozenset[int]:
    """``rejected`` and every node of ``graph`` that reads a value one of them would compute."""
    skipped = set(rejected)
    missing: set[str] = set()
    for index, node in enumerate(graph.node):
        if index not in skipped and any(name in missing for name in _reads(node)):
            skipped.add(index)
        if index in skipped:
            missing.update(name for name in node.output if name)
    return frozenset(skipped)


def _reads(node: NodeProto) -> Iterator[str]:
    """The names a node reads: its inputs and those of the nodes of its subgraphs, at any depth
    (a name a subgraph defines itself is read too: harmless, SSA names are unique)."""
    yield from node.input
    for attr in node.attribute:
        for sub in [attr.g] if attr.HasField("g") else attr.graphs:
            for inner in sub.node:
                yield from _reads(inner)
