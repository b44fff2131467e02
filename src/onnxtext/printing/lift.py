"""Protobuf → AST, such that lowering the AST gives back the same protobuf, byte for byte.

The AST uses the plain onnx syntax wherever it says exactly what the protobuf holds,
and a property block ``@{...}`` for the rest (doc strings, metadata, field presence
onnx.parser would not reproduce). What no syntax can express yet raises
:class:`NotRepresentable` naming the field, so nothing is ever dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import methodcaller
from typing import Any

import numpy as np
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from onnxtext.ir.attribute_types import ATTRIBUTE_TYPE_NAMES as _ATTR_TYPE_NAMES
from onnxtext.ir.dtypes import BY_CODE as DTYPE_BY_CODE
from onnxtext.ir.tensor.decode import decode_literals, number_text
from onnxtext.ir.tensor.float_text import _format_float32, format_float32
from onnxtext.ir.tensor.literals import NotRepresentable, TensorLiterals, element_count
from onnxtext.ir.walk import iter_graphs
from onnxtext.proto import (
    AttributeProto,
    FunctionProto,
    GraphProto,
    ModelProto,
    NodeProto,
    TensorProto,
    TypeProto,
    ValueInfoProto,
)
from onnxtext.span import NO_SPAN
from onnxtext.syntax import ast as A
from onnxtext.syntax.vocabulary import (
    ENCODING_KEY,
    MODEL_HEADER_ORDER,
    NODE_DOMAIN_KEY,
    TENSOR_ENCODING_KEY,
    TENSOR_NAME_KEY,
    is_bare_name,
    is_identifier,
)
from onnxtext.weights.external import attribute_tensors, iter_tensors

__all__ = ["DefaultVotes", "Lifter", "NotRepresentable", "model_votes", "other_votes", "statement_votes"]

#: The field holding an attribute's value, for the single-value types.
_SINGLE_FIELDS: dict[int, str] = {
    AttributeProto.INT: "i",
    AttributeProto.FLOAT: "f",
    AttributeProto.STRING: "s",
    AttributeProto.TENSOR: "t",
    AttributeProto.GRAPH: "g",
    AttributeProto.TYPE_PROTO: "tp",
    AttributeProto.SPARSE_TENSOR: "sparse_tensor",
}
_LIST_FIELDS = ("ints", "floats", "strings", "tensors", "graphs", "sparse_tensors", "type_protos")


def _any_value(a: AttributeProto) -> bool:
    """True if some value field of ``a`` is set."""
    return any(a.HasField(f) for f in _SINGLE_FIELDS.values()) or any(len(getattr(a, f)) for f in _LIST_FIELDS)


def _at(where: str, step: str) -> str:
    """The proto path of ``step`` below ``where`` (``ir.paths.ProtoPath``'s form: ``graph/node[3]``)."""
    return f"{where}/{step}" if where else step


_MODEL_HEADER_FIELDS = MODEL_HEADER_ORDER

S = NO_SPAN


def _ident(name: str) -> A.Ident:
    return A.Ident(S, name, not is_bare_name(name))


def _word(w: str) -> A.Word:
    return A.Word(S, w)


def _entry(key: str, value: A.PropValue) -> A.PropEntry:
    return A.PropEntry(S, A.Ident(S, key), value)


def _str(value: str | bytes) -> A.Str:
    return A.Str(S, value.encode("utf-8") if isinstance(value, str) else value)


def _num(value: int | float | str) -> A.Number:
    return A.Number(S, str(value))


def _float_text(value: float) -> str:
    """Shortest text of a float that reads back the same, always marked as a float."""
    if value != value:
        return "nan"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    text = repr(value)
    return text


class Lifter:
    """Builds an AST from protobuf messages; one instance per printed object."""

    def __init__(
        self, *, node_domain_unset: bool = False, raw_tensors: bool = False, tensor_name_unset: bool = False
    ) -> None:
        self.node_domain_unset = node_domain_unset
        self.raw_tensors = raw_tensors
        self.tensor_name_unset = tensor_name_unset
        self.shallow: list[tuple[A.Graph, GraphProto, str]] | None = None
        """When a list, every graph lifted goes there, and without its statements (the fast printer
        writes those itself: ``printing.emit``)."""

    # ------------------------------------------------------------ generic fields
    def value(self, fd: FieldDescriptor, v: Any, where: str) -> A.PropValue:
        """A property value for one (non-repeated) field value."""
        t = fd.type
        if t == FieldDescriptor.TYPE_MESSAGE:
            if fd.message_type.name == "GraphProto":
                return A.GraphValue(S, self.graph(v, where))
            if fd.message_type.name == "TensorProto":
                return self.tensor_value(v, where)
            return self.message_dict(v, where)
        if t in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
            return _str(v)
        if t == FieldDescriptor.TYPE_BOOL:
            return _word("true" if v else "false")
        if t == FieldDescriptor.TYPE_ENUM:
            ev = fd.enum_type.values_by_number.get(v)
            return _word(ev.name) if ev is not None else _num(v)
        if t in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
            return A.Number(S, _float_text(v)) if v == v and abs(v) != float("inf") else _word(_float_text(v))
        return _num(v)

    def field_entry(self, msg: Message, fd: FieldDescriptor, where: str) -> A.PropEntry:
        if fd.is_repeated:
            items = [self.value(fd, v, _at(where, f"{fd.name}")) for v in getattr(msg, fd.name)]
            return _entry(fd.name, A.PropList(S, items))  # type: ignore[arg-type]
        return _entry(fd.name, self.value(fd, getattr(msg, fd.name), _at(where, f"{fd.name}")))

    def message_dict(self, msg: Message, where: str) -> A.PropValue:
        """Any message as ``{field: value, ...}``; pairs (key/value, domain/version) as ``k: v``."""
        listed = msg.ListFields()  # in field-number order
        _check_representable(listed, where)
        if msg.DESCRIPTOR.name in _PAIRS and len(listed) == 2:
            (f1, v1), (f2, v2) = listed
            return A.PropPair(S, self.value(f1, v1, where), self.value(f2, v2, where))  # type: ignore[return-value]
        return A.PropDict(S, [self.field_entry(msg, fd, where) for fd, _ in listed])

    def props_for(
        self, msg: Message, names: Iterable[str], where: str, extra: Sequence[A.PropEntry] = ()
    ) -> A.Props | None:
        entries = list(extra)
        for name in names:
            fd = msg.DESCRIPTOR.fields_by_name[name]
            if fd.is_repeated:
                if len(getattr(msg, name)):
                    entries.append(self.field_entry(msg, fd, where))
            elif msg.HasField(name):
                entries.append(self.field_entry(msg, fd, where))
        return A.Props(S, entries) if entries else None

    def _unknown_fields(self, msg: Message, handled: set[str], where: str) -> list[str]:
        """Set fields that the caller does not render with syntax: they go to a property block."""
        return [fd.name for fd, _ in msg.ListFields() if fd.name not in handled]

    # ------------------------------------------------------------ model
    def model(self, m: ModelProto) -> A.Model:
        self.decide_defaults(m)
        header = self.model_header(m)
        graph = self.graph(m.graph, "graph")
        functions = [self.function(f, f"functions[{i}]") for i, f in enumerate(m.functions)]
        return A.Model(S, header, graph, functions)

    def decide_defaults(self, m: ModelProto) -> None:
        """Set the file-wide defaults a model's header declares from what most of its nodes and tensors hold."""
        self.node_domain_unset, self.raw_tensors, self.tensor_name_unset = model_votes(m).defaults

    def model_header(self, m: ModelProto) -> A.Props | None:
        """The model's header (``None`` when it has nothing to say), with the file-wide defaults already decided."""
        entries: list[A.PropEntry] = []
        for name in _MODEL_HEADER_FIELDS:
            fd = ModelProto.DESCRIPTOR.fields_by_name[name]
            if fd.is_repeated:
                if len(getattr(m, name)):
                    entries.append(self.field_entry(m, fd, ""))
            elif m.HasField(name):
                entries.append(self.field_entry(m, fd, ""))
        handled = set(_MODEL_HEADER_FIELDS) | {"graph", "functions"}
        for name in self._unknown_fields(m, handled, ""):
            entries.append(self.field_entry(m, m.DESCRIPTOR.fields_by_name[name], ""))
        if self.node_domain_unset:
            entries.append(_entry(NODE_DOMAIN_KEY, _word("unset")))
        if self.raw_tensors:
            entries.append(_entry(TENSOR_ENCODING_KEY, _word("raw")))
        if self.tensor_name_unset:
            entries.append(_entry(TENSOR_NAME_KEY, _word("unset")))
        if not m.HasField("graph"):
            raise NotRepresentable("graph is not set; onnxtext text always has a main graph")
        return A.Props(S, entries, header=True) if entries else None

    # ------------------------------------------------------------ graph
    def graph(self, g: GraphProto, where: str, *, nodes: bool = True) -> A.Graph:
        """A graph; without its statements (an empty body) when not ``nodes``."""
        handled = {"name", "input", "output", "value_info", "initializer", "node"}
        extra = self._unknown_fields(g, handled, where)
        pre: list[A.PropEntry] = []
        if not g.HasField("name"):
            pre.append(_entry("name", _word("unset")))
        props = self.props_for(g, extra, where, pre)
        inputs = [A.Initializer(S, self.value_info(v, _at(where, f"input[{i}]")), None) for i, v in enumerate(g.input)]
        outputs = [self.value_info(v, _at(where, f"output[{i}]")) for i, v in enumerate(g.output)]
        inits: list[A.Initializer] = [
            A.Initializer(S, self.value_info(v, _at(where, f"value_info[{i}]")), None)
            for i, v in enumerate(g.value_info)
        ]
        for i, t in enumerate(g.initializer):
            inits.append(self.initializer(t, _at(where, f"initializer[{i}]")))
        shallow = self.shallow
        body = (
            [self.node(n, _at(where, f"node[{i}]")) for i, n in enumerate(g.node)] if nodes and shallow is None else []
        )
        graph = A.Graph(S, props, _ident(g.name), inputs, outputs, inits if inits else None, body)
        if shallow is not None:
            shallow.append((graph, g, where))
        return graph

    def value_info(self, v: ValueInfoProto, where: str) -> A.ValueInfo:
        handled = {"name"}
        type_ = None
        pre: list[A.PropEntry] = []
        if v.HasField("type"):
            type_, type_extra = self.type(v.type, _at(where, "type"))
            handled.add("type")
            if type_extra is not None:
                pre.append(_entry("type", type_extra))
        if not v.HasField("name"):
            pre.append(_entry("name", _word("unset")))
        props = self.props_for(v, self._unknown_fields(v, handled, where), where, pre)
        return A.ValueInfo(S, type_, _ident(v.name), props)

    def type(self, t: TypeProto, where: str) -> tuple[A.Type, A.PropDict | None]:
        """The type syntax and, if needed, a ``{...}`` of fields it does not show (denotation)."""
        kind = t.WhichOneof("value")
        extra = None
        if t.HasField("denotation"):
            extra = A.PropDict(S, [_entry("denotation", _str(t.denotation))])
        if kind == "tensor_type":
            return self._tensor_type(t.tensor_type, where, sparse=False), extra
        if kind == "sparse_tensor_type":
            return A.SparseTensorType(S, self._tensor_type(t.sparse_tensor_type, where, sparse=True)), extra
        if kind == "sequence_type":
            if not t.sequence_type.HasField("elem_type"):
                raise NotRepresentable(f"{where}: a sequence type without element type")
            return A.SeqType(S, self.type(t.sequence_type.elem_type, where)[0]), extra
        if kind == "optional_type":
            if not t.optional_type.HasField("elem_type"):
                raise NotRepresentable(f"{where}: an optional type without element type")
            return A.OptionalType(S, self.type(t.optional_type.elem_type, where)[0]), extra
        if kind == "map_type":
            mt = t.map_type
            key = DTYPE_BY_CODE.get(mt.key_type)
            if key is None or not mt.HasField("value_type"):
                raise NotRepresentable(f"{where}: map type with key type {mt.key_type}")
            return A.MapType(S, A.Ident(S, key.name), self.type(mt.value_type, where)[0]), extra
        if kind == "opaque_type":
            ot = t.opaque_type
            if ot.HasField("domain") and not ot.HasField("name"):
                raise NotRepresentable(f"{where}: an opaque type with a domain and no name")
            return A.OpaqueType(
                S, ot.domain if ot.HasField("domain") else None, ot.name if ot.HasField("name") else None
            ), extra
        raise NotRepresentable(f"{where}: a type with no kind set")

    def _tensor_type(self, tt: Any, where: str, *, sparse: bool) -> A.TensorType:
        dt = DTYPE_BY_CODE.get(tt.elem_type)
        if dt is None:
            raise NotRepresentable(f"{where}: element type {tt.elem_type} has no name")
        if not tt.HasField("shape"):
            return A.TensorType(S, A.Ident(S, dt.name), None, sparse)
        dims = []
        for d in tt.shape.dim:
            which = d.WhichOneof("value")
            if which == "dim_value":
                dim = A.Dim(S, value=d.dim_value)
            elif which == "dim_param":
                dim = A.Dim(S, param=d.dim_param, quoted=not is_identifier(d.dim_param))
            else:
                dim = A.Dim(S)
            if d.HasField("denotation"):
                dim.props = A.Props(S, [_entry("denotation", _str(d.denotation))])
            dims.append(dim)
        if not dims:
            return A.TensorType(S, A.Ident(S, dt.name), [], sparse)
        return A.TensorType(S, A.Ident(S, dt.name), dims, sparse)

    # ------------------------------------------------------------ tensors
    def tensor_parts(self, t: TensorProto, where: str) -> tuple[A.TensorType, A.TensorBody, list[A.PropEntry]]:
        """Type, data and the property entries a tensor needs besides its name."""
        dt = DTYPE_BY_CODE.get(t.data_type)
        if dt is None:
            raise NotRepresentable(f"{where}: tensor data type {t.data_type} has no name")
        ttype = A.TensorType(S, A.Ident(S, dt.name), [A.Dim(S, value=d) for d in t.dims])
        handled = {"name", "dims", "data_type"}
        entries: list[A.PropEntry] = []
        if t.data_location == TensorProto.EXTERNAL and t.HasField("data_location"):
            items: list[A.PropValue | A.PropPair] = [A.PropPair(S, _str(e.key), _str(e.value)) for e in t.external_data]
            body: A.TensorBody = A.ExternalBody(S, items)
            if all(e.HasField("key") and e.HasField("value") for e in t.external_data):
                handled |= {"external_data", "data_location"}
        else:
            try:
                fast = number_text(t, dt)  # a float tensor's text made in C, without a list of literals
                lits = TensorLiterals([], fast[1]) if fast is not None else decode_literals(t, dt)
            except NotRepresentable as exc:  # say which tensor
                raise NotRepresentable(f"{where or 'the tensor'}: {exc}", exc.index) from None
            if dt.kind == "string":
                body = A.LiteralBody(S, [A.Str(S, v) for v in lits.values if isinstance(v, bytes)])
            elif dt.kind == "complex" and len(lits.values) == 2 * element_count(t):
                parts = [A.Word(S, v) if v[:1].isalpha() else A.Number(S, v) for v in lits.values if isinstance(v, str)]
                body = A.LiteralBody(S, [A.ComplexLiteral(S, parts[i], parts[i + 1]) for i in range(0, len(parts), 2)])
            else:
                # Numbers (and nan/inf) print as one body: no AST object per element.
                body = A.NumberBody(S, fast[0] if fast is not None else ", ".join(lits.values), True)  # type: ignore[arg-type]
            handled |= {dt.field, "raw_data"}
            if lits.raw != (self.raw_tensors and dt.kind != "string"):
                entries.append(_entry(ENCODING_KEY, _word("raw" if lits.raw else "typed")))
        for name in self._unknown_fields(t, handled, where):
            entries.append(self.field_entry(t, t.DESCRIPTOR.fields_by_name[name], where))
        return ttype, body, entries

    def initializer(self, t: TensorProto, where: str) -> A.Initializer:
        ttype, body, entries = self.tensor_parts(t, where)
        if not t.HasField("name"):
            entries.append(_entry("name", _word("unset")))
        props = A.Props(S, entries) if entries else None
        return A.Initializer(S, A.ValueInfo(S, ttype, _ident(t.name), props), body)

    # ------------------------------------------------------------ nodes
    def node(self, n: NodeProto, where: str) -> A.Node:
        handled = {"name", "input", "output", "op_type", "domain", "overload", "attribute"}
        pre: list[A.PropEntry] = []
        domain_parts: list[A.Ident] = []
        if n.domain:
            parts = n.domain.split(".")
            if all(is_identifier(p) for p in parts):
                domain_parts = [A.Ident(S, p) for p in parts]
            else:
                pre.append(_entry("domain", _str(n.domain)))
        elif n.HasField("domain") == self.node_domain_unset:
            pre.append(_entry("domain", _str("") if n.HasField("domain") else _word("unset")))
        op = n.op_type
        if not is_identifier(op) or not n.HasField("op_type"):
            pre.append(_entry("op_type", _str(op) if n.HasField("op_type") else _word("unset")))
            op = "Op"
        overload = None
        if n.HasField("overload"):
            if is_identifier(n.overload):
                overload = A.Ident(S, n.overload)
            else:
                pre.append(_entry("overload", _str(n.overload)))
        attrs = [self.attribute(a, _at(where, f"attribute[{i}]")) for i, a in enumerate(n.attribute)]
        label = None
        has_label = n.HasField("name")
        if has_label:
            label = _ident(n.name) if n.name else None
        props = self.props_for(n, self._unknown_fields(n, handled, where), where, pre)
        return A.Node(
            S,
            label,
            has_label,
            [_ident(o) for o in n.output],
            domain_parts,
            A.Ident(S, op),
            overload,
            attrs,
            False,
            [_ident(i) for i in n.input],
            props,
        )

    # ------------------------------------------------------------ attributes
    def attribute(self, a: AttributeProto, where: str) -> A.Attribute:
        handled = {"name", "type", "ref_attr_name"}
        pre: list[A.PropEntry] = []
        name = a.name
        if not is_identifier(name) or not a.HasField("name"):
            pre.append(_entry("name", _str(name) if a.HasField("name") else _word("unset")))
            name = "attr"
        type_name: A.Ident | None = None
        value: A.AttrValue | None
        if a.HasField("ref_attr_name"):
            value = A.AttrRef(S, _ident(a.ref_attr_name))
            if a.HasField("type"):
                type_name = A.Ident(S, _ATTR_TYPE_NAMES.get(a.type, "undefined"))
                if a.type not in _ATTR_TYPE_NAMES:
                    pre.append(_entry("type", _num(a.type)))
            # any value fields set next to a reference go to props
        else:
            value, inferred, used = self._attr_value(a, where)
            handled |= used
            field = _SINGLE_FIELDS.get(inferred)
            if field is not None and not a.HasField(field):
                pre.append(_entry(field, _word("unset")))  # the type's field is absent, and no other is set
            if not a.HasField("type"):
                pre.append(_entry("type", _word("unset")))
            elif a.type != inferred:
                if a.type in _ATTR_TYPE_NAMES and _compatible_annotation(a.type, inferred, value):
                    type_name = A.Ident(S, _ATTR_TYPE_NAMES[a.type])
                else:
                    pre.append(_entry("type", self.value(a.DESCRIPTOR.fields_by_name["type"], a.type, where)))
        if isinstance(value, A.AttrList) and not value.items and type_name is None:
            type_name = A.Ident(S, _ATTR_TYPE_NAMES.get(a.type, "undefined"))
        rest = self._unknown_fields(a, handled, where)
        props = self.props_for(a, rest, where, pre)
        return A.Attribute(S, A.Ident(S, name), type_name, value, props)

    def _attr_value(self, a: AttributeProto, where: str) -> tuple[A.AttrValue, int, set[str]]:
        """The value syntax, the attribute type lowering infers from it, and the fields it covers."""
        t: int = a.type
        field = _SINGLE_FIELDS.get(t)
        if field is not None and not a.HasField(field) and _any_value(a):
            t = 0  # the type's own field is absent: show the value that is there (the type goes to props)
        if t == AttributeProto.INT or (t == 0 and a.HasField("i")):
            return _num(a.i), AttributeProto.INT, {"i"}
        if t == AttributeProto.FLOAT or (t == 0 and a.HasField("f")):
            return self._float_value(a.f), AttributeProto.FLOAT, {"f"}
        if t == AttributeProto.STRING or (t == 0 and a.HasField("s")):
            return A.Str(S, a.s), AttributeProto.STRING, {"s"}
        if t == AttributeProto.TENSOR or (t == 0 and a.HasField("t")):
            return self.tensor_value(a.t, _at(where, "t")), AttributeProto.TENSOR, {"t"}
        if t == AttributeProto.GRAPH or (t == 0 and a.HasField("g")):
            return A.GraphValue(S, self.graph(a.g, _at(where, "g"))), AttributeProto.GRAPH, {"g"}
        if t == AttributeProto.TYPE_PROTO or (t == 0 and a.HasField("tp")):
            ty, extra = self.type(a.tp, _at(where, "tp"))
            if extra is not None:
                raise NotRepresentable(_at(where, "tp.denotation cannot be written in text yet"))
            return A.TypeValue(S, ty), AttributeProto.TYPE_PROTO, {"tp"}
        if t == AttributeProto.INTS or (t == 0 and len(a.ints)):
            return A.AttrList(S, [_num(i) for i in a.ints]), AttributeProto.INTS, {"ints"}
        if t == AttributeProto.FLOATS or (t == 0 and len(a.floats)):
            return A.AttrList(S, self._float_values(a.floats)), AttributeProto.FLOATS, {"floats"}
        if t == AttributeProto.STRINGS or (t == 0 and len(a.strings)):
            return A.AttrList(S, [A.Str(S, s) for s in a.strings]), AttributeProto.STRINGS, {"strings"}
        if t == AttributeProto.TENSORS or (t == 0 and len(a.tensors)):
            return (
                A.AttrList(S, [self.tensor_value(x, _at(where, f"tensors[{i}]")) for i, x in enumerate(a.tensors)]),
                AttributeProto.TENSORS,
                {"tensors"},
            )
        if t == AttributeProto.GRAPHS or (t == 0 and len(a.graphs)):
            return (
                A.AttrList(
                    S, [A.GraphValue(S, self.graph(x, _at(where, f"graphs[{i}]"))) for i, x in enumerate(a.graphs)]
                ),
                AttributeProto.GRAPHS,
                {"graphs"},
            )
        if t == AttributeProto.SPARSE_TENSOR or (t == 0 and a.HasField("sparse_tensor")):
            return (
                self._sparse_dict(a.sparse_tensor, _at(where, "sparse_tensor")),
                AttributeProto.SPARSE_TENSOR,
                {"sparse_tensor"},
            )
        if t == AttributeProto.SPARSE_TENSORS or (t == 0 and len(a.sparse_tensors)):
            items_ = [self._sparse_dict(x, _at(where, f"sparse_tensors[{i}]")) for i, x in enumerate(a.sparse_tensors)]
            return A.AttrList(S, items_), AttributeProto.SPARSE_TENSORS, {"sparse_tensors"}  # type: ignore[arg-type]
        if t == AttributeProto.TYPE_PROTOS or (t == 0 and len(a.type_protos)):
            items: list[A.SingleValue] = []
            for i, x in enumerate(a.type_protos):
                ty, extra = self.type(x, _at(where, f"type_protos[{i}]"))
                if extra is not None:
                    raise NotRepresentable(_at(where, f"type_protos[{i}].denotation cannot be written in text yet"))
                items.append(A.TypeValue(S, ty))
            return A.AttrList(S, items), AttributeProto.TYPE_PROTOS, {"type_protos"}
        raise NotRepresentable(f"{where}: attribute '{a.name}' of type {t} cannot be written in text yet")

    def _sparse_dict(self, sp: Any, where: str) -> A.PropDict:
        value = self.message_dict(sp, where)
        assert isinstance(value, A.PropDict)
        return value

    def _float_values(self, floats: Sequence[float]) -> list[A.SingleValue]:
        """The items of a ``floats`` attribute: a long list of finite values formatted at once (a
        tree ensemble's thresholds and weights: hundreds of values, each 10 µs on its own)."""
        if len(floats) > 8:
            bits = np.array(floats, dtype=np.float32).view(np.uint32)
            if not bool(((bits & 0x7F800000) == 0x7F800000).any()):
                return [A.Number(S, text) for text in _format_float32(bits)]
        return [self._float_value(f) for f in floats]

    def _float_value(self, f: float) -> A.SingleValue:
        text = _float_text(f)
        if text == "nan" or text.lstrip("-") == "inf":
            if text == "nan" and not _is_canonical_nan32(f):
                raise NotRepresentable("a float attribute holds a NaN with a payload")
            if text == "-inf":
                return A.Number(S, "-inf")
            return A.TypeValue(S, A.TensorType(S, A.Ident(S, text), []))
        return A.Number(S, format_float32(f))

    def tensor_value(self, t: TensorProto, where: str) -> A.TensorValue:
        """An attribute's tensor; fields the syntax does not show go to its own ``@{...}``."""
        ttype, body, entries = self.tensor_parts(t, where)
        named = t.HasField("name")
        if not named and (entries or not self.tensor_name_unset):
            entries.append(_entry("name", _word("unset")))  # written after a name, '""'
        props = A.Props(S, entries) if entries else None
        shown = t.name or props is not None or (named and self.tensor_name_unset)  # '""': set, to nothing
        return A.TensorValue(S, ttype, _ident(t.name) if shown else None, False, body, props)

    # ------------------------------------------------------------ functions
    def function(self, f: FunctionProto, where: str, *, nodes: bool = True) -> A.Function:
        """A function; without its statements (an empty body) when not ``nodes``."""
        header_fields = [
            fd.name
            for fd, _ in f.ListFields()
            if fd.name not in {"name", "input", "output", "attribute", "attribute_proto", "node", "value_info"}
        ]
        entries = [self.field_entry(f, f.DESCRIPTOR.fields_by_name[n], where) for n in header_fields]
        header = A.Props(S, entries, header=True) if entries else None
        attrs: list[A.Attribute] = [A.Attribute(S, _ident(n), None, None) for n in f.attribute]
        for i, ap in enumerate(f.attribute_proto):
            attr = self.attribute(ap, _at(where, f"attribute_proto[{i}]"))
            if attr.type_name is None and attr.props is None and ap.type in _ATTR_TYPE_NAMES:
                # A default value says its type, as a function signature is written by hand.
                attr.type_name = A.Ident(S, _ATTR_TYPE_NAMES[ap.type])
            attrs.append(attr)
        inputs = [A.ValueInfo(S, None, _ident(n)) for n in f.input]
        outputs = [A.ValueInfo(S, None, _ident(n)) for n in f.output]
        vis = [self.value_info(v, _at(where, f"value_info[{i}]")) for i, v in enumerate(f.value_info)]
        body = [self.node(n, _at(where, f"node[{i}]")) for i, n in enumerate(f.node)] if nodes else []
        if not f.HasField("name"):
            raise NotRepresentable(f"{where}: a function without a name")
        return A.Function(
            S, header, _ident(f.name), attrs if attrs else None, inputs, outputs, vis if vis else None, body
        )


_PAIRS = frozenset(("StringStringEntryProto", "OperatorSetIdProto"))  # two fields, written ``k: v``
_NOT_WRITABLE = frozenset(("TypeProto", "NodeProto", "AttributeProto", "ValueInfoProto"))  # inside a {...} block


def _check_representable(listed: Sequence[tuple[FieldDescriptor, Any]], where: str) -> None:
    for fd, _ in listed:
        if fd.type == FieldDescriptor.TYPE_MESSAGE and fd.message_type.name in _NOT_WRITABLE:
            raise NotRepresentable(_at(where, f"{fd.name} ({fd.message_type.name}) cannot be written in text yet"))


def _compatible_annotation(declared: int, inferred: int, value: Any) -> bool:
    """Whether writing ``name: declared = value`` lowers to ``declared`` with the same data."""
    if declared == AttributeProto.FLOAT and inferred == AttributeProto.FLOAT:
        return True
    if declared == AttributeProto.FLOATS and inferred == AttributeProto.FLOATS:
        return True
    return declared == inferred


def _is_canonical_nan32(f: float) -> bool:
    import struct

    return struct.pack("<f", f) == struct.pack("<f", float("nan"))


class DefaultVotes:
    """What decides a model's file-wide defaults: the nodes that leave ``domain`` unset or set it
    to ``""``, the tensors that keep their values in ``raw_data``, all tensors (every graph,
    nested and training ones too, and every function, attribute defaults included), and the
    attributes' tensors that leave ``name`` unset or set it to ``""``."""

    __slots__ = ("unset", "set_empty", "raw", "tensors", "name_unset", "name_empty")

    def __init__(self) -> None:
        self.unset = self.set_empty = self.raw = self.tensors = self.name_unset = self.name_empty = 0

    def add(self, other: DefaultVotes, times: int = 1) -> None:
        self.unset += other.unset * times
        self.set_empty += other.set_empty * times
        self.raw += other.raw * times
        self.tensors += other.tensors * times
        self.name_unset += other.name_unset * times
        self.name_empty += other.name_empty * times

    def copy(self) -> DefaultVotes:
        votes = DefaultVotes()
        votes.add(self)
        return votes

    @property
    def node_domain_unset(self) -> bool:
        return self.unset > self.set_empty

    @property
    def raw_tensors(self) -> bool:
        return self.raw > self.tensors - self.raw

    @property
    def tensor_name_unset(self) -> bool:
        return self.name_unset > self.name_empty

    @property
    def defaults(self) -> tuple[bool, bool, bool]:
        """``node_domain_unset``, ``raw_tensors``, ``tensor_name_unset``: :class:`Lifter`'s keywords in order."""
        return self.node_domain_unset, self.raw_tensors, self.tensor_name_unset

    def nodes(self, nodes: Iterable[NodeProto]) -> None:
        for n in nodes:
            if not n.HasField("domain"):
                self.unset += 1
            elif n.domain == "":
                self.set_empty += 1

    def tensors_of(self, refs: Iterable[Any]) -> None:
        for ref in refs:
            t = ref.tensor
            self.tensors += 1
            if t.HasField("raw_data"):
                self.raw += 1
            if ref.kind == "attribute":
                if not t.HasField("name"):
                    self.name_unset += 1
                elif not t.name:
                    self.name_empty += 1

    def graph(self, g: GraphProto) -> None:
        """A graph's nodes (nested ones too) and tensors."""
        for site in iter_graphs(g):
            self.nodes(site.proto.node)
        self.tensors_of(iter_tensors(g))


def statement_votes(n: NodeProto) -> DefaultVotes:
    """The votes of a statement of the main graph or of a function: the node, its attributes'
    tensors and the graphs it holds."""
    votes = DefaultVotes()
    votes.nodes((n,))
    for a in n.attribute:
        votes.tensors_of(attribute_tensors(a, ""))
        if a.HasField("g"):
            votes.graph(a.g)
        for g in a.graphs:
            votes.graph(g)
    return votes


def other_votes(m: ModelProto) -> DefaultVotes:
    """The votes outside the statements of the main graph and of the functions."""
    votes = DefaultVotes()
    g = m.graph
    votes.tensors += len(g.initializer)
    votes.raw += sum(map(methodcaller("HasField", "raw_data"), g.initializer))  # no Python loop per tensor
    for sparse in g.sparse_initializer:
        votes.tensors += 2
        votes.raw += sparse.values.HasField("raw_data") + sparse.indices.HasField("raw_data")
    for info in m.training_info:
        for part in ("initialization", "algorithm"):
            if info.HasField(part):
                votes.graph(getattr(info, part))
    for f in m.functions:
        # A function's attribute defaults: their tensors count, the nodes of their graphs do not.
        for a in f.attribute_proto:
            votes.tensors_of(attribute_tensors(a, ""))
            if a.HasField("g"):
                votes.tensors_of(iter_tensors(a.g))
            for sub in a.graphs:
                votes.tensors_of(iter_tensors(sub))
    return votes


def model_votes(m: ModelProto) -> DefaultVotes:
    """All the votes of a model."""
    votes = other_votes(m)
    for nodes in [m.graph.node, *(f.node for f in m.functions)]:
        for n in nodes:
            votes.add(statement_votes(n))
    return votes
