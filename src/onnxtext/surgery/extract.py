"""``extract``: the sub-model of a model between some of its values.

The nodes kept are those ``onnx.utils.extract_model`` keeps: walking back from each output to
the given inputs, every node that produces a value on the way (plus, beyond onnx, the producers
of values a kept node's subgraph reads from outside, without which the sub-model would not run).
What else is kept, and why:

- the model's header (IR version, producer, domain, doc string, metadata) and every opset import,
  as they are: the nodes kept still run under them; fields of a newer IR than our schema's, at the
  model's and the graph's level, as they were written;
- the graph's name, doc string and metadata;
- the inputs and outputs: their declarations copied byte for byte (a graph input, output or
  value_info), an initializer's type, else the type our inference gives (S008 when it cannot);
- initializers and sparse initializers the kept nodes read (and only those), their external data
  references unchanged (the command line copies or refuses the files, as ``parse`` does); an
  initializer named as an input becomes that input, without a default;
- value_info and quantization annotations of the values kept (no inference is written);
- the model-local functions the kept nodes call, and those they call, in the model's order;
- a ``training_info`` entry when every initializer it binds is kept and its algorithm reads only
  values the sub-model has; otherwise it is dropped, with a warning (S009).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message

from onnxtext.analysis.infer import ValueType
from onnxtext.diagnostics import Diagnostic
from onnxtext.ir.varint import encode_varint, varint_size
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto
from onnxtext.surgery.names import captured, defined, nested_graphs
from onnxtext.surgery.problems import DROPPED, NOT_COMPUTABLE, WRONG_KIND, error, unknown, warning
from onnxtext.surgery.values import Types

__all__ = ["Result", "copy_fields", "extract", "unknown_bytes", "used_functions"]


@dataclass(slots=True)
class Result:
    """A model made by a surgery and what it reported on the way (warnings, notes)."""

    model: ModelProto
    notes: list[Diagnostic] = field(default_factory=list)


def copy_fields(source: ModelProto | GraphProto, target: ModelProto | GraphProto, skip: frozenset[str]) -> None:
    """Copy every set field of ``source`` but those named in ``skip`` into ``target`` (same message type),
    and the fields our schema does not know (a newer IR's), as they were written."""
    for fd, value in source.ListFields():
        if fd.name in skip:
            continue
        if fd.is_repeated:
            getattr(target, fd.name).extend(value)
        elif fd.message_type is not None:
            getattr(target, fd.name).CopyFrom(value)
        else:
            setattr(target, fd.name, value)
    target.MergeFromString(unknown_bytes(source))


def unknown_bytes(message: Message) -> bytes:
    """The fields of ``message`` its schema does not know, written back as protobuf (in their order)."""
    from google.protobuf.unknown_fields import UnknownFieldSet

    out = bytearray()
    for f in UnknownFieldSet(message):
        out += encode_varint(f.field_number << 3 | f.wire_type)
        if f.wire_type == 0:
            out += encode_varint(f.data)
        elif f.wire_type == 1:
            out += f.data.to_bytes(8, "little")
        elif f.wire_type == 5:
            out += f.data.to_bytes(4, "little")
        elif f.wire_type == 2:
            out += encode_varint(len(f.data)) + f.data
        else:  # a group (wire types 3 and 4): gone from protobuf since proto3, and from ONNX's wire
            del out[-varint_size(f.field_number << 3 | f.wire_type) :]
    return bytes(out)


_MODEL_PARTS = frozenset({"graph", "functions", "training_info"})
_GRAPH_PARTS = frozenset(
    {"node", "input", "output", "initializer", "sparse_initializer", "value_info", "quantization_annotation"}
)


def _reads(node: NodeProto) -> list[str]:
    """What a node reads: its inputs, and what its subgraphs read from outside."""
    names = [i for i in node.input if i]
    for sub in nested_graphs(node):
        names.extend(sorted(captured(sub)))
    return names


def used_functions(model: ModelProto, nodes: Sequence[NodeProto]) -> list[FunctionProto]:
    """The model-local functions ``nodes`` call (in their subgraphs too), and those they call, in model order."""
    by_key = {(f.domain, f.name, f.overload): i for i, f in enumerate(model.functions)}
    wanted: set[int] = set()
    todo = list(nodes)
    while todo:
        node = todo.pop()
        for sub in nested_graphs(node):
            todo.extend(sub.node)
        index = by_key.get((node.domain, node.op_type, node.overload))
        if index is not None and index not in wanted:
            wanted.add(index)
            todo.extend(model.functions[index].node)
    return [f for i, f in enumerate(model.functions) if i in wanted]


def _needed(graph: GraphProto, outputs: Sequence[str], stop: set[str]) -> set[str]:
    """The values of ``stop`` that ``outputs`` are computed from."""
    producer = {o: node for node in graph.node for o in node.output if o}
    seen: set[str] = set()
    todo = list(outputs)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        node = producer.get(name)
        if node is not None and name not in stop:
            todo.extend(_reads(node))
    return seen & stop


def extract(
    model: ModelProto,
    inputs: Sequence[str] | None,
    outputs: Sequence[str],
    inferred: Mapping[str, ValueType] | None = None,
) -> Result:
    """The sub-model of ``model`` computing ``outputs`` from ``inputs`` (see the module docstring);
    ``inputs=None``: from the graph inputs they need (initializers are not inputs then); ``inferred``:
    the main graph's types when known already (else inferred if a new input or output needs one)."""
    graph = model.graph
    names = defined(graph)  # a cut is between values of the main graph (a subgraph's own are inside a node)
    if not outputs:
        raise error(WRONG_KIND, "no output to extract: name at least one value")
    if inputs is None:
        constant = {t.name for t in graph.initializer}
        needed = _needed(graph, outputs, {v.name for v in graph.input} - constant)
        inputs = [v.name for v in graph.input if v.name in needed]
    for what, given in (("input", inputs), ("output", outputs)):
        seen: set[str] = set()
        for name in given:
            if name not in names:
                raise unknown("value", name, names)
            if name in seen:
                raise error(WRONG_KIND, f"'{name}' is named twice as an {what}")
            seen.add(name)
    producer = {o: k for k, node in enumerate(graph.node) for o in node.output if o}
    stop = set(inputs)
    kept: set[int] = set()
    todo = [o for o in outputs if o not in stop]
    while todo:
        name = todo.pop()
        k = producer.get(name)
        if k is None or k in kept:
            continue
        kept.add(k)
        todo.extend(n for n in _reads(graph.node[k]) if n not in stop)
    nodes = [graph.node[k] for k in sorted(kept)]
    initializers = {t.name for t in graph.initializer} | {s.values.name for s in graph.sparse_initializer}
    read = {n for node in nodes for n in _reads(node)} | set(outputs)
    graph_inputs = {v.name for v in graph.input}
    missing = sorted(
        n for n in read if n not in stop and n not in producer and n not in initializers and n in graph_inputs
    )
    if missing:
        raise error(
            NOT_COMPUTABLE,
            "the outputs also need the graph input"
            + ("s " if len(missing) > 1 else " ")
            + ", ".join(f"'{n}'" for n in missing)
            + "; add "
            + ("them" if len(missing) > 1 else "it")
            + " to the inputs",
        )
    types = Types(model, inferred)
    new_inputs = [types.info(n) for n in inputs]
    new_outputs = [types.info(n) for n in outputs]

    sub = ModelProto()
    copy_fields(model, sub, _MODEL_PARTS)
    out = sub.graph
    copy_fields(graph, out, _GRAPH_PARTS)
    out.node.extend(nodes)
    out.input.extend(new_inputs)
    out.output.extend(new_outputs)
    keep_tensor = read - stop
    out.initializer.extend(t for t in graph.initializer if t.name in keep_tensor)
    out.sparse_initializer.extend(s for s in graph.sparse_initializer if s.values.name in keep_tensor)
    boundary = stop | set(outputs)
    values = {n for node in nodes for n in (*_reads(node), *node.output) if n}
    out.value_info.extend(v for v in graph.value_info if v.name in values and v.name not in boundary)
    known = values | boundary
    out.quantization_annotation.extend(q for q in graph.quantization_annotation if q.tensor_name in known)
    sub.functions.extend(used_functions(model, nodes))
    notes: list[Diagnostic] = []
    have = defined(out) | {v.name for v in out.input}
    kept_initializers = {t.name for t in out.initializer}
    for i, info in enumerate(model.training_info):
        bound = [e.key for e in (*info.initialization_binding, *info.update_binding)]
        reads = captured(info.algorithm) - have if info.HasField("algorithm") else set()
        if all(b in kept_initializers for b in bound) and not reads:
            sub.training_info.append(info)
        else:
            lost = sorted({b for b in bound if b not in kept_initializers} | reads)
            notes.append(
                warning(
                    DROPPED,
                    f"training_info[{i}] dropped: it binds or reads "
                    + ", ".join(f"'{n}'" for n in lost[:3])
                    + (f" and {len(lost) - 3} more" if len(lost) > 3 else "")
                    + ", which the sub-model does not have",
                    f"training_info[{i}]",
                )
            )
    return Result(sub, notes)
