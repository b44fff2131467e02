"""The type of a value that becomes a graph input or output: as declared, else as inferred.

Declarations are copied as they are (their bytes kept); a value nothing declares gets the type our
inference gives it (:mod:`onnxtext.analysis.infer`), written only where the operation needs one.
"""

from __future__ import annotations

from collections.abc import Mapping

from onnxtext.analysis.infer import ValueType, infer_types, to_type_proto
from onnxtext.proto import GraphProto, ModelProto, TensorProto, ValueInfoProto
from onnxtext.surgery.problems import TYPE_UNKNOWN, error

__all__ = ["Types", "declared", "tensor_info"]


def declared(graph: GraphProto, name: str) -> ValueInfoProto | None:
    """The declaration of ``name`` in ``graph``: a graph input, a graph output or a value_info."""
    for infos in (graph.input, graph.output, graph.value_info):
        for info in infos:
            if info.name == name:
                return info
    return None


def tensor_info(tensor: TensorProto) -> ValueInfoProto:
    """The declaration of an initializer as a value: its element type and its dimensions."""
    info = ValueInfoProto(name=tensor.name)
    tt = info.type.tensor_type
    tt.elem_type = tensor.data_type
    tt.shape.SetInParent()
    for d in tensor.dims:
        tt.shape.dim.add().dim_value = d
    return info


class Types:
    """The main graph's types, inferred once on first use (a declared type never needs it)."""

    def __init__(self, model: ModelProto, inferred: Mapping[str, ValueType] | None = None) -> None:
        """``inferred``: the main graph's types when they are known already (an editor's document)."""
        self.model = model
        self._inferred = inferred

    def inferred(self, name: str) -> ValueType | None:
        if self._inferred is None:
            self._inferred = infer_types(self.model)
        vt = self._inferred.get(name)
        return None if vt is None or vt.is_unknown else vt

    def info(self, name: str, path: str = "graph") -> ValueInfoProto:
        """A declaration for ``name``: declared, an initializer's, else inferred (S008 when unknown)."""
        graph = self.model.graph
        found = declared(graph, name)
        if found is not None and found.HasField("type"):
            copy = ValueInfoProto()
            copy.CopyFrom(found)
            return copy
        for tensor in graph.initializer:
            if tensor.name == name:
                return tensor_info(tensor)
        vt = self.inferred(name)
        if vt is None or (vt.kind == "tensor" and vt.elem_type == 0):
            raise error(
                TYPE_UNKNOWN,
                f"the type of '{name}' is neither declared nor inferred; declare it (a value_info) first",
                path,
            )
        info = ValueInfoProto(name=name)
        info.type.CopyFrom(to_type_proto(vt))
        return info
