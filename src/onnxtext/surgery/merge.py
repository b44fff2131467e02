"""``merge``: two models composed, some values of the first feeding inputs of the second.

Like ``onnx.compose.merge_models``, with what it leaves to the caller done here: a value of B
whose name A uses already is renamed with a prefix (``b_`` unless told), and so are B's node
names and functions that clash (a function defined alike in both is kept once); opset imports
are joined, and two versions of one domain are refused (convert one model first). The result
is A's header (the higher IR version of the two), A's graph name and metadata (B's entries of
other keys added), the inputs of A then B's unconnected ones, the outputs of A not connected
then B's, A's nodes then B's. Nothing else of either model changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from onnxtext.analysis.infer import from_type_proto
from onnxtext.analysis.infer.types import contradicts
from onnxtext.ir.versioned import normalize_domain
from onnxtext.proto import FunctionProto, ModelProto
from onnxtext.surgery.extract import Result, copy_fields
from onnxtext.surgery.names import defined, nested_graphs, rename_in_model, value_names
from onnxtext.surgery.problems import (
    INCOMPATIBLE,
    NAME_TAKEN,
    OPSET_CONFLICT,
    WRONG_KIND,
    SurgeryError,
    error,
    unknown,
)
from onnxtext.surgery.values import Types, declared

__all__ = ["merge"]

_MODEL_PARTS = frozenset({"graph", "functions", "training_info", "opset_import", "metadata_props", "ir_version"})
_GRAPH_PARTS = frozenset(
    {"node", "input", "output", "initializer", "sparse_initializer", "value_info", "quantization_annotation"}
)


def _opsets(model: ModelProto) -> dict[str, int]:
    return {normalize_domain(o.domain): o.version for o in model.opset_import}


def _all_names(model: ModelProto) -> set[str]:
    names = value_names(model.graph)
    for info in model.training_info:
        names |= value_names(info.initialization) | value_names(info.algorithm)
    return names


def merge(a: ModelProto, b: ModelProto, connect: Sequence[tuple[str, str]] = (), prefix: str = "b_") -> Result:
    """``a`` then ``b``, each ``(y, z)`` of ``connect`` making A's value ``y`` B's input ``z``."""
    ops_a, ops_b = _opsets(a), _opsets(b)
    for domain, version in ops_b.items():
        if domain in ops_a and ops_a[domain] != version:
            shown = domain or "ai.onnx"
            raise error(
                OPSET_CONFLICT,
                f"A imports {shown} version {ops_a[domain]}, B version {version}; convert one model to the "
                "other's version first (onnx.version_converter)",
                "opset_import",
            )
    if not prefix:
        raise error(WRONG_KIND, "the prefix for B's clashing names cannot be empty")
    a_defined = defined(a.graph)
    b_inputs = [v.name for v in b.graph.input]
    targets: dict[str, str] = {}
    for y, z in connect:
        if y not in a_defined:
            raise unknown("value of A", y, a_defined)
        if z not in b_inputs:
            raise unknown("graph input of B", z, b_inputs)
        if z in targets:
            raise error(WRONG_KIND, f"B's input '{z}' is connected twice (to '{targets[z]}' and '{y}')")
        targets[z] = y
    types_a = Types(a)
    for z, y in targets.items():
        want = from_type_proto(declared(b.graph, z).type)  # type: ignore[union-attr]  # z is a graph input
        try:
            got = from_type_proto(types_a.info(y).type)
        except SurgeryError:  # neither declared nor inferred: nothing to hold B's declaration against
            continue
        if contradicts(got, want):  # kinds, element types, ranks or sizes known on both sides
            raise error(INCOMPATIBLE, f"A's '{y}' is {got}, B's input '{z}' is {want}: they cannot be connected")

    names_a, names_b = _all_names(a), _all_names(b)
    mapping = {n: prefix + n for n in sorted(names_b & names_a) if n not in targets}
    for new in mapping.values():
        if new in names_a or new in names_b:
            raise error(
                NAME_TAKEN,
                f"prefixing B's '{new[len(prefix) :]}' gives '{new}', a name taken already; choose another prefix",
            )
    mapping.update(targets)
    b2 = ModelProto()
    b2.CopyFrom(b)
    rename_in_model(b2, mapping)
    connected = set(targets.values())
    for k in reversed(range(len(b2.graph.input))):
        if b_inputs[k] in targets:
            del b2.graph.input[k]
    for j in reversed(range(len(b2.graph.initializer))):
        if b.graph.initializer[j].name in targets:  # a connected input's default: A's value replaces it
            del b2.graph.initializer[j]
    functions = _merge_functions(a, b2, prefix)
    a_nodes = {n.name for n in a.graph.node if n.name}
    for node in b2.graph.node:
        if node.name and node.name in a_nodes:
            node.name = prefix + node.name

    out = ModelProto()
    copy_fields(a, out, _MODEL_PARTS)
    if a.HasField("ir_version") or b.HasField("ir_version"):
        out.ir_version = max(a.ir_version, b.ir_version)
    out.opset_import.extend(a.opset_import)
    out.opset_import.extend(o for o in b.opset_import if normalize_domain(o.domain) not in ops_a)
    out.metadata_props.extend(a.metadata_props)
    keys = {p.key for p in a.metadata_props}
    out.metadata_props.extend(p for p in b.metadata_props if p.key not in keys)
    g, ga, gb = out.graph, a.graph, b2.graph
    copy_fields(ga, g, _GRAPH_PARTS)
    g.input.extend(ga.input)
    g.input.extend(gb.input)
    g.output.extend(o for o in ga.output if o.name not in connected)
    g.output.extend(gb.output)
    for part in ("initializer", "sparse_initializer", "value_info", "quantization_annotation", "node"):
        getattr(g, part).extend(getattr(ga, part))
        getattr(g, part).extend(getattr(gb, part))
    out.functions.extend(functions)
    out.training_info.extend(a.training_info)
    out.training_info.extend(b2.training_info)
    return Result(out)


def _merge_functions(a: ModelProto, b: ModelProto, prefix: str) -> list[FunctionProto]:
    """A's functions, then B's: one defined alike in both kept once, a different one of the same
    key renamed with ``prefix`` (and B's calls of it)."""
    keys = {(f.domain, f.name, f.overload): f for f in a.functions}
    renamed: dict[tuple[str, str, str], str] = {}
    kept: list[FunctionProto] = []
    for f in b.functions:
        key = (f.domain, f.name, f.overload)
        twin = keys.get(key)
        if twin is None:
            kept.append(f)
        elif twin.SerializeToString(deterministic=True) != f.SerializeToString(deterministic=True):
            renamed[key] = prefix + f.name
            f.name = prefix + f.name
            kept.append(f)
    if renamed:
        todo = [*b.graph.node, *(n for f in b.functions for n in f.node)]
        while todo:
            node = todo.pop()
            new = renamed.get((node.domain, node.op_type, node.overload))
            if new is not None:
                node.op_type = new
            for sub in nested_graphs(node):
                todo.extend(sub.node)
    return [*a.functions, *kept]
