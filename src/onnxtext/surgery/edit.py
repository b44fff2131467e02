"""Edits of a model named like the editor's gestures, each made in place on a ``ModelProto``.

Each touches only the fields its change needs (a name, an entry of a list); every other byte of
the model stays as it was, and nothing inferred is written unless the edit needs a type (a new
output nothing declares). A name the model does not have, or one of the wrong kind, raises
:class:`~onnxtext.surgery.problems.SurgeryError` before anything changes; what an edit leaves for
the user to see to (a deleted node's consumers without a producer) is returned as warnings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from onnxtext.analysis.infer import ValueType, from_type_proto, infer_types
from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.ir.dtypes import dtype_by_code, dtype_by_numpy
from onnxtext.ir.tensor.arrays import to_numpy
from onnxtext.ir.versioned import normalize_domain
from onnxtext.proto import GraphProto, ModelProto, NodeProto, TensorProto, TensorShapeProto, ValueInfoProto
from onnxtext.surgery.names import captured, defined, nested_graphs, rename_in_graph, rename_in_model, value_names
from onnxtext.surgery.problems import (
    DANGLING,
    DECLARED_FOLLOW,
    INCOMPATIBLE,
    NAME_TAKEN,
    RANK_CHANGED,
    WRONG_KIND,
    error,
    unknown,
    warning,
)
from onnxtext.surgery.values import Types, declared, tensor_info

__all__ = [
    "Dim",
    "add_output",
    "array_tensor",
    "delete_node",
    "find_node",
    "identity_input",
    "initializer_to_input",
    "make_constant",
    "only_feeders",
    "remove_output",
    "rename_value",
    "set_input_shape",
]

Dim = int | str | None
"""A dimension to set: a size, a symbol (``N``), or None for one left free."""


def find_node(graph: GraphProto, name: str) -> int:
    """The index of the node named ``name`` in ``graph``, else of the node producing the value ``name``."""
    named = [k for k, node in enumerate(graph.node) if node.name == name]
    if len(named) > 1:
        raise error(WRONG_KIND, f"{len(named)} nodes are named '{name}'; name the node by one of its outputs instead")
    if named:
        return named[0]
    for k, node in enumerate(graph.node):
        if name in node.output:
            return k
    choices = [n.name for n in graph.node if n.name] + [o for n in graph.node for o in n.output if o]
    raise unknown("node (by name or output)", name, choices)


def identity_input(model: ModelProto, node: NodeProto, types: Types | None = None) -> str | None:
    """The input a node passes through unchanged, or None: Identity, Dropout at inference (no
    ``training_mode``, no mask used) and Cast to its input's own element type."""
    if normalize_domain(node.domain) != "" or not node.input or not node.input[0] or len(node.output) < 1:
        return None
    op = node.op_type
    if op == "Identity":
        return node.input[0]
    if op == "Dropout":
        if len(node.input) > 2 and node.input[2] and not _false_constant(model.graph, node.input[2]):
            return None
        if len(node.output) > 1 and node.output[1] and _used(model.graph, node.output[1]):
            return None
        return node.input[0]
    if op == "Cast":
        to = next((a.i for a in node.attribute if a.name == "to"), None)
        found = declared(model.graph, node.input[0])
        if found is not None and found.HasField("type"):
            elem = from_type_proto(found.type).elem_type
        else:
            tensor = next((t for t in model.graph.initializer if t.name == node.input[0]), None)
            if tensor is not None:
                elem = tensor.data_type
            else:
                vt = (types or Types(model)).inferred(node.input[0])
                elem = vt.elem_type if vt is not None and vt.kind == "tensor" else 0
        return node.input[0] if to is not None and elem != 0 and to == elem else None
    return None


def _false_constant(graph: GraphProto, name: str) -> bool:
    """Whether ``name`` is an initializer (not an input) holding ``false``: Dropout's ``training_mode`` off."""
    if any(v.name == name for v in graph.input):
        return False
    tensor = next((t for t in graph.initializer if t.name == name), None)
    if tensor is None:
        return False
    try:
        value = to_numpy(tensor)
    except ValueError:  # external data, a wrong amount of data: not known to be false
        return False
    return value.size == 1 and not bool(value.reshape(-1)[0])


def _used(graph: GraphProto, name: str) -> bool:
    """Whether a node of ``graph`` (its subgraphs included) or a graph output reads ``name``."""
    if any(o.name == name for o in graph.output):
        return True
    for node in graph.node:
        if name in node.input or any(_used(sub, name) for sub in nested_graphs(node)):
            return True
    return False


def _consumers(graph: GraphProto, name: str) -> list[str]:
    """How the nodes reading ``name`` are called in a message: their names, else their first output."""
    found = []
    for node in graph.node:
        if name in node.input or any(_used(sub, name) for sub in nested_graphs(node)):
            made = next((o for o in node.output if o), None)
            if node.name:
                found.append(f"'{node.name}'")
            else:
                found.append(f"the {node.op_type} making '{made}'" if made else f"a {node.op_type}")
    return found


def delete_node(model: ModelProto, name: str, *, feeders: bool = False) -> list[Diagnostic]:
    """Delete the main-graph node ``name`` (or the one producing the value ``name``).

    An identity-like node (:func:`identity_input`) is bypassed: its consumers read its input
    instead, or, when its output is a graph output, its input's producer makes that output. Else
    the nodes reading its outputs are left without a producer, which the warnings returned say.
    ``feeders``: also delete the nodes that only fed it (whose outputs nothing else reads, and so
    on up), and the initializers only they read (:func:`only_feeders`)."""
    graph = model.graph
    k = find_node(graph, name)
    node = graph.node[k]
    passed = identity_input(model, node)
    if feeders and passed is None:  # (a bypassed node's input is read on: nothing only fed it)
        _delete_feeders(model, k)
        k = find_node(graph, name)
    outputs = [o for o in node.output if o]
    first = node.output[0] if node.output else ""  # (identity_input says there is one when ``passed``)
    del graph.node[k]
    notes: list[Diagnostic] = []
    if passed is not None:
        out = first
        exported = any(o.name == out for o in graph.output)
        produced = {o for n in graph.node for o in n.output}
        if not exported:
            _drop_info(graph, out)
            rename_in_graph(graph, {out: passed}, outputs=False)
            outputs = outputs[1:]
        elif passed in produced and not any(v.name == passed for v in (*graph.output, *graph.input)):
            _drop_info(graph, out)
            rename_in_model(model, {passed: out})
            outputs = outputs[1:]
    for out in outputs:
        readers = _consumers(graph, out)
        exported = any(o.name == out for o in graph.output)
        if readers or exported:
            shown = readers[:3] + ([f"{len(readers) - 3} more"] if len(readers) > 3 else [])
            whom = " and ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + " and " + shown[-1]
            where = " and " if readers and exported else ""
            notes.append(
                warning(
                    DANGLING,
                    f"'{out}' is no longer produced, but "
                    + (f"{whom} read{'s' if len(readers) == 1 else ''} it" if readers else "")
                    + where
                    + ("it is a graph output" if exported else ""),
                )
            )
        elif not _used(graph, out):
            _drop_info(graph, out)
    return notes


def only_feeders(graph: GraphProto, k: int) -> tuple[list[int], list[str]]:
    """The nodes that only feed node ``k`` (nothing else reads their outputs, up the chain), by index,
    and the initializers only node ``k`` and they read."""
    readers: dict[str, set[int]] = {}
    for i, node in enumerate(graph.node):
        reads = set(node.input)
        for sub in nested_graphs(node):
            reads |= captured(sub)
        for name in reads:
            readers.setdefault(name, set()).add(i)
    exported = {o.name for o in graph.output}
    producer = {o: i for i, node in enumerate(graph.node) for o in node.output if o}
    gone = {k}
    todo = [k]
    while todo:
        here = graph.node[todo.pop()]
        feeding = [*here.input, *(n for sub in nested_graphs(here) for n in captured(sub))]
        for name in feeding:
            source = producer.get(name)
            if source is None or source in gone:
                continue
            outs = [o for o in graph.node[source].output if o]
            if all(o not in exported and readers.get(o, set()) <= gone for o in outs):
                gone.add(source)
                todo.append(source)
    inputs = {v.name for v in graph.input}
    constants = [
        t.name
        for t in graph.initializer
        if t.name in readers and readers[t.name] <= gone and t.name not in exported and t.name not in inputs
    ]
    return sorted(gone - {k}), constants


def _delete_feeders(model: ModelProto, k: int) -> None:
    graph = model.graph
    nodes, constants = only_feeders(graph, k)
    names = {o for i in nodes for o in graph.node[i].output if o} | set(constants)
    for i in reversed(nodes):
        del graph.node[i]
    for j in reversed(range(len(graph.initializer))):
        if graph.initializer[j].name in constants:
            del graph.initializer[j]
    for name in names:
        _drop_info(graph, name)


def _drop_info(graph: GraphProto, name: str) -> None:
    for k in reversed(range(len(graph.value_info))):
        if graph.value_info[k].name == name:
            del graph.value_info[k]


def rename_value(model: ModelProto, old: str, new: str) -> None:
    """Rename the main-graph value ``old`` to ``new`` everywhere it appears (see :mod:`.names`)."""
    names = value_names(model.graph)
    if old not in names:
        raise unknown("value", old, names)
    if not new:
        raise error(WRONG_KIND, f"cannot rename '{old}' to an empty name (the empty name is a missing input)")
    if new != old and new in names | _training_names(model):
        raise error(NAME_TAKEN, f"'{new}' is already a value of the model; values are assigned once")
    rename_in_model(model, {old: new})


def _training_names(model: ModelProto) -> set[str]:
    names: set[str] = set()
    for info in model.training_info:
        for g in (info.initialization, info.algorithm):
            names |= value_names(g)
    return names


def add_output(model: ModelProto, name: str, types: Types | None = None) -> None:
    """Make the main-graph value ``name`` a graph output, with its declared or inferred type."""
    graph = model.graph
    if name not in defined(graph):
        raise unknown("value", name, defined(graph))
    if any(o.name == name for o in graph.output):
        raise error(WRONG_KIND, f"'{name}' is a graph output already")
    graph.output.append((types or Types(model)).info(name))


def remove_output(model: ModelProto, name: str) -> None:
    """Stop exporting the graph output ``name`` (the value and its producer stay)."""
    graph = model.graph
    for k, out in enumerate(graph.output):
        if out.name == name:
            del graph.output[k]
            return
    raise unknown("graph output", name, [o.name for o in graph.output])


def _graph_input(graph: GraphProto, name: str, operation: str) -> ValueInfoProto:
    for info in graph.input:
        if info.name == name:
            return info
    if any(t.name == name for t in graph.initializer):
        raise error(WRONG_KIND, f"'{name}' is an initializer, not a graph input: {operation} takes a graph input")
    raise unknown("graph input", name, [v.name for v in graph.input])


def set_input_shape(model: ModelProto, name: str, dims: Sequence[Dim], *, follow: bool = True) -> list[Diagnostic]:
    """Set the shape of the graph input ``name``: each dimension a size, a symbol or None (free).
    A dimension's denotation is kept where the rank stays.

    With ``follow``, the main graph's declared shapes (value_info, outputs) that said what inference
    gave from the old shape say what it gives from the new one (S010: an exporter's declarations would otherwise
    contradict the model, E704); a declaration that said something else is left as it is. A changed
    rank is a warning (S011)."""
    info = _graph_input(model.graph, name, "setting a shape")
    if info.type.WhichOneof("value") != "tensor_type":
        raise error(WRONG_KIND, f"'{name}' is not a tensor: only a tensor has a shape")
    for d in dims:
        if isinstance(d, int) and d < 0:
            raise error(INCOMPATIBLE, f"a dimension of '{name}' cannot be negative ({d})")
    shape = info.type.tensor_type.shape
    had = [_dim_of(d) for d in shape.dim] if info.type.tensor_type.HasField("shape") else None
    if had == list(dims):
        return []  # the shape it has: nothing changes
    before = infer_types(model, use_declared=False) if follow else {}
    denotations = [d.denotation for d in shape.dim]
    shape.ClearField("dim")
    shape.SetInParent()
    for i, d in enumerate(dims):
        dim = shape.dim.add()
        _set_dim(dim, d)
        if i < len(denotations) and denotations[i]:
            dim.denotation = denotations[i]
    notes: list[Diagnostic] = []
    if had is not None and len(had) != len(dims):
        notes.append(
            warning(
                RANK_CHANGED,
                f"'{name}' had {len(had)} dimensions and now has {len(dims)}: the nodes that read it see another rank",
                f"graph/input[{list(model.graph.input).index(info)}]",
            )
        )
    followed = _follow_declared(model.graph, name, before, infer_types(model, use_declared=False)) if follow else []
    if followed:
        more = f" and {len(followed) - 3} more" if len(followed) > 3 else ""
        shown = ", ".join(f"'{n}'" for n in followed[:3]) + more
        notes.append(
            Diagnostic(
                DECLARED_FOLLOW,
                Severity.INFO,
                f"{len(followed)} declared shape(s) that followed '{name}' follow its new shape: {shown}",
                path="graph",
            )
        )
    return notes


def _dim_of(d: TensorShapeProto.Dimension) -> Dim:
    return d.dim_value if d.HasField("dim_value") else d.dim_param if d.HasField("dim_param") else None


def _set_dim(dim: TensorShapeProto.Dimension, d: Dim) -> None:
    if isinstance(d, int):
        dim.dim_value = d
    elif isinstance(d, str):
        dim.dim_param = d
    else:
        dim.ClearField("dim_value")
        dim.ClearField("dim_param")


def _follow_declared(
    graph: GraphProto, changed: str, before: dict[str, ValueType], after: dict[str, ValueType]
) -> list[str]:
    """Make the declared shapes of ``graph`` that equal what inference gave ``before`` say what it
    gives ``after``, dimension by dimension (only the dimensions that agreed with inference move);
    the names of the declarations changed."""
    out: list[str] = []
    for info in (*graph.value_info, *graph.output):
        if info.name == changed or not info.type.HasField("tensor_type"):
            continue
        tensor = info.type.tensor_type
        old, new = before.get(info.name), after.get(info.name)
        if not tensor.HasField("shape") or old is None or new is None or old.shape is None or old == new:
            continue
        dims = tensor.shape.dim
        declared_dims = [_dim_of(d) for d in dims]
        if len(declared_dims) != len(old.shape):
            continue  # a declaration of another rank: not one that followed inference
        moved = False
        if new.shape is not None and len(new.shape) == len(declared_dims):
            for dim, was, inferred, now in zip(dims, declared_dims, old.shape, new.shape, strict=True):
                if was == inferred and now != was:
                    _set_dim(dim, now)
                    moved = True
        elif new.shape is not None and declared_dims == list(old.shape):
            denotations = [d.denotation for d in dims]  # the rank changed: the whole shape follows
            tensor.shape.ClearField("dim")
            for i, now in enumerate(new.shape):
                dim = tensor.shape.dim.add()
                _set_dim(dim, now)
                if i < len(denotations) and denotations[i]:
                    dim.denotation = denotations[i]
            moved = True
        if moved:
            out.append(info.name)
    return out


def array_tensor(name: str, array: np.ndarray) -> TensorProto:
    """A numpy array as an initializer (``raw_data`` little-endian; strings in ``string_data``)."""
    tensor = TensorProto(name=name)
    tensor.dims.extend(int(d) for d in array.shape)
    if array.dtype.kind in "USO":
        tensor.data_type = 8
        flat = array.reshape(-1)
        tensor.string_data.extend(v if isinstance(v, bytes) else str(v).encode("utf-8") for v in flat)
        return tensor
    dtype = dtype_by_numpy(array.dtype)
    if dtype is None:
        raise error(INCOMPATIBLE, f"an array of {array.dtype} has no ONNX element type")
    tensor.data_type = dtype.code
    little = array.astype(array.dtype.newbyteorder("<"), copy=False)
    tensor.raw_data = np.ascontiguousarray(little).tobytes()
    return tensor


def make_constant(model: ModelProto, name: str, array: np.ndarray) -> None:
    """Make the graph input ``name`` an initializer holding ``array`` (its element type and the
    declared dimensions must agree). Before IR 4 an initializer must stay an input: it does."""
    graph = model.graph
    info = _graph_input(graph, name, "making a constant")
    tensor = array_tensor(name, array)
    if info.type.WhichOneof("value") != "tensor_type":
        raise error(WRONG_KIND, f"'{name}' is not a tensor: only a tensor input can become an initializer")
    tt = info.type.tensor_type
    if tt.elem_type and tt.elem_type != tensor.data_type:
        want, got = dtype_by_code(tt.elem_type), dtype_by_code(tensor.data_type)
        raise error(
            INCOMPATIBLE,
            f"'{name}' is {want.name if want else tt.elem_type}, the array holds "
            f"{got.name if got else array.dtype} values; save it as {want.name if want else 'that type'}",
        )
    if tt.HasField("shape"):
        dims = tt.shape.dim
        fits = len(dims) == array.ndim and all(
            not d.HasField("dim_value") or d.dim_value == size for d, size in zip(dims, array.shape, strict=True)
        )
        if not fits:
            declared_shape = ", ".join(
                str(d.dim_value) if d.HasField("dim_value") else d.dim_param or "?" for d in dims
            )
            raise error(
                INCOMPATIBLE, f"'{name}' is declared [{declared_shape}], the array's shape is {list(array.shape)}"
            )
    for k, existing in enumerate(graph.initializer):
        if existing.name == name:  # an input with a default: the default is replaced
            graph.initializer[k].CopyFrom(tensor)
            break
    else:
        graph.initializer.append(tensor)
    if model.ir_version >= 4 or model.ir_version == 0:
        for k, v in enumerate(graph.input):
            if v.name == name:
                del graph.input[k]
                break


def initializer_to_input(model: ModelProto, name: str) -> None:
    """Make the initializer ``name`` a graph input of its type (its values dropped)."""
    graph = model.graph
    for k, tensor in enumerate(graph.initializer):
        if tensor.name == name:
            if not any(v.name == name for v in graph.input):
                graph.input.append(tensor_info(tensor))
            del graph.initializer[k]
            return
    if any(s.values.name == name for s in graph.sparse_initializer):
        raise error(WRONG_KIND, f"'{name}' is a sparse initializer: only a dense one can become an input")
    raise unknown("initializer", name, [t.name for t in graph.initializer])
