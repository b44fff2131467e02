"""AST → protobuf, exactly as ``onnx.parser`` builds it, plus a source map.

Where onnx.parser silently accepts invalid data (a value count that does not match
the shape, an integer out of its type's range, a list of tensors it drops) this
module reports a located diagnostic instead. Field presence follows onnx.parser:
e.g. every node gets ``domain`` set unless the text says it is unset.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from google.protobuf.message import Message

from onnxtext.diagnostics import Diagnostic, Edit, Fix
from onnxtext.ir.attribute_types import ATTRIBUTE_TYPE_NAMES as _ATTR_NAMES
from onnxtext.ir.attribute_types import ATTRIBUTE_TYPES
from onnxtext.ir.depth import DEEP_GRAPH, PROTOBUF_DEPTH_LIMIT, too_deep
from onnxtext.ir.dtypes import BY_NAME as DTYPES
from onnxtext.ir.paths import ROOT, ProtoPath
from onnxtext.ir.tensor.encode import encode_number_text, encode_values
from onnxtext.ir.tensor.float_text import parse_float32
from onnxtext.ir.tensor.literals import LiteralError, literal_kind
from onnxtext.lowering.fields import UNSET, FieldSink, apply_entries, parse_int
from onnxtext.lowering.source_map import SourceMap
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
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.nesting import TOO_DEEP
from onnxtext.syntax.vocabulary import ENCODING_KEY, NODE_DOMAIN_KEY, TENSOR_ENCODING_KEY, TENSOR_NAME_KEY
from onnxtext.weights.external import UNSAFE_LOCATION, location_problem

__all__ = ["SourceMap", "Lowering"]

# Diagnostic codes of the lowering.
UNKNOWN_TYPE = "L001"
BAD_TENSOR = "L002"
DIGEST_RECORD = "this tensor is a digest"
"""How the L002 of a digest record starts (an editor's view by reference expects them)."""
ATTR_TYPE = "L003"
BAD_NUMBER = "L004"
BAD_HEADER = "L005"
BAD_NAME = "L006"
NOT_TENSOR = "L007"
STORED_AS_WRITTEN = "L008"  # a warning: a literal that does not fit its type, kept as onnx.parser keeps it
DEFAULT_AS_WRITTEN = "L012"  # a warning: a function attribute's default of another type than declared
_STATEMENTS = frozenset({"node", "input", "output", "value_info", "initializer", "sparse_initializer"})

_SINGLETON: dict[int, int] = {
    AttributeProto.FLOATS: AttributeProto.FLOAT,
    AttributeProto.INTS: AttributeProto.INT,
    AttributeProto.STRINGS: AttributeProto.STRING,
    AttributeProto.TENSORS: AttributeProto.TENSOR,
    AttributeProto.GRAPHS: AttributeProto.GRAPH,
    AttributeProto.SPARSE_TENSORS: AttributeProto.SPARSE_TENSOR,
    AttributeProto.TYPE_PROTOS: AttributeProto.TYPE_PROTO,
}
_LIST_OF: dict[int, int] = {v: k for k, v in _SINGLETON.items()}
_READ_AS_LIST = frozenset((AttributeProto.INT, AttributeProto.FLOAT, AttributeProto.STRING))
"""Single-value types a non-empty list is read as the list of (as onnx.parser reads it)."""
_SPECIAL_FLOATS = ("nan", "inf", "infinity")

_GRAPH = ROOT / "graph"


class Lowering:
    """One lowering run: holds the diagnostics, the source map and file-wide defaults."""

    def __init__(self, source: SourceFile | None = None, *, track: bool = True) -> None:
        self.source_map = SourceMap()
        self.sink = FieldSink(source, structured=self._structured, marks=self.source_map.entries if track else None)
        self.track = track
        self.node_domain_unset = False
        self.raw_tensors = False
        self.tensor_name_unset = False
        self._attr_raw: bool | None = None
        self._deepest = 0
        """The depth of the deepest graph lowered (the root message at 0): protobuf reads to PROTOBUF_DEPTH_LIMIT."""
        self._below_root = 0
        """How deep the first step of a path is: 1 in a model (``graph`` is a field of it); 0 when the
        message at the first step is the root (a graph, function or node text)."""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.sink.diags

    def error(self, code: str, message: str, span: Span) -> None:
        self.sink.error(code, message, span)

    def _mark(self, path: ProtoPath, node: A.AstNode) -> None:
        if self.track:
            self.source_map.entries[path] = node

    # ------------------------------------------------------------ model and header
    def model(self, m: A.Model) -> ModelProto:
        proto = ModelProto()
        self._below_root = 1
        if m.header is not None:
            # File-wide defaults first: header entries such as training_info hold graphs they apply to.
            for entry in A.intact(m.header.entries):
                self._model_key(proto, entry, self.sink)
            apply_entries(
                proto, m.header.entries, self.sink, ROOT, special=_is_default_key, extra_keys=list(DEFAULT_KEYS)
            )
            self._mark(ROOT, m.header)  # the header stands for the model
        self.graph(m.graph, proto.graph, _GRAPH)
        for i, f in enumerate(A.intact(m.functions), len(proto.functions)):  # after any functions the header gave
            self.function(f, proto.functions.add(), ROOT.child("functions", i))
        return proto

    def inside_model(self, header: A.Props | None) -> None:
        """Lower what follows as statements of a model with this ``header``: its file-wide defaults
        taken (as :meth:`model` takes them first), what the header itself would report left out
        (an edit re-lowering some statements: ``onnxtext.incremental``)."""
        self._below_root = 1
        if header is not None:
            reported = len(self.sink.diags)
            for entry in A.intact(header.entries):
                self._model_key(ModelProto(), entry, self.sink)
            del self.sink.diags[reported:]

    def check_depth(self, root: Message, whole: Span, prefix: ProtoPath = ROOT) -> None:
        """L009 at the first statement (in the text) holding a message protobuf cannot read back, once
        the lowering of ``root`` (a graph, function or node text: the paths start with ``prefix``) is done."""
        if self._deepest <= DEEP_GRAPH:
            return
        spans = []
        for found in too_deep(root):
            path = ProtoPath(prefix + found) if prefix else found
            statement = self.source_map.enclosing(path, _STATEMENTS)
            node = self.source_map.get(statement) if statement is not None else None
            spans.append((node.span if node is not None else whole, len(found)))
        if spans:
            span, depth = min(spans, key=lambda s: s[0].start)
            self.error(
                TOO_DEEP,
                f"nested too deeply: protobuf reads messages at most {PROTOBUF_DEPTH_LIMIT} levels deep, "
                f"this statement holds one {depth} levels deep",
                span,
            )

    def _model_key(self, msg: Message, entry: A.PropEntry, sink: FieldSink) -> bool:
        key = entry.key.value
        value = entry.value
        switch = _DEFAULT_SWITCHES.get(key)
        if switch is None:
            return False
        attr, on, off = switch
        if isinstance(value, A.Word) and value.value in (on, off):
            setattr(self, attr, value.value == on)
        else:
            self.error(BAD_HEADER, f"'{key}' takes '{on}' or '{off}'", value.span)
        return True

    # ------------------------------------------------------------ graphs
    def graph(self, g: A.Graph, proto: GraphProto, path: ProtoPath) -> GraphProto:
        self._mark(path, g)
        depth = len(path) - 1 + self._below_root  # the steps below the first
        self._deepest = max(self._deepest, depth)
        if depth > PROTOBUF_DEPTH_LIMIT:
            # _check_depth reports it. Nothing below is lowered, and the tree loses it too: every
            # analysis of the document (symbols, outline, tokens) then sees a bounded nesting.
            proto.SetInParent()
            g.inputs, g.outputs, g.initializers, g.nodes = None, [], None, []
            return proto
        proto.name = self.name(g.name)
        if g.inputs is not None:
            for i, item in enumerate(A.intact(g.inputs)):
                vi = proto.input.add()
                ipath = path.child("input", i)
                self.value_info(item.info, vi, ipath)
                self._mark(ipath, item)
                if item.body is not None:
                    k = len(proto.initializer)
                    t = proto.initializer.add()
                    t.name = vi.name
                    self.tensor_data(t, item.info.type, item.body, item.info.span)
                    self._mark(path.child("initializer", k), item)
        for i, out in enumerate(A.intact(g.outputs)):
            opath = path.child("output", i)
            self.value_info(out, proto.output.add(), opath)
            self._mark(opath, out)
        if g.initializers is not None:
            for item in A.intact(g.initializers):
                if item.body is not None:
                    tpath = path.child("initializer", len(proto.initializer))
                    t = proto.initializer.add()
                    t.name = self.name(item.info.name)
                    raw = self._encoding(item.info.props)
                    self.tensor_data(t, item.info.type, item.body, item.info.span, raw)
                    self._apply_tensor_props(t, item.info.props, tpath)
                    self._mark(tpath, item)
                else:
                    vpath = path.child("value_info", len(proto.value_info))
                    self.value_info(item.info, proto.value_info.add(), vpath)
                    self._mark(vpath, item)
        self.nodes(g.nodes, proto.node, path)
        if g.props is not None:
            apply_entries(proto, g.props.entries, self.sink, path)
        return proto

    def _structured(self, msg: Message, value: A.AstNode, path: ProtoPath) -> bool:
        """Lower a graph or tensor written inside a property value (training_info, sparse tensors) at ``path``."""
        if isinstance(value, A.GraphValue) and isinstance(msg, GraphProto):
            self.graph(value.graph, msg, path)
            return True
        if isinstance(value, A.TensorValue) and isinstance(msg, TensorProto):
            saved, self._attr_raw = self._attr_raw, None
            self._tensor_value(value, msg, path)
            self._attr_raw = saved
            return True
        return False

    def _apply_tensor_props(self, t: TensorProto, props: A.Props | None, path: ProtoPath) -> None:
        if props is None:
            return
        apply_entries(t, props.entries, self.sink, path, special=self._tensor_key, extra_keys=[ENCODING_KEY])

    def _tensor_key(self, msg: Message, entry: A.PropEntry, sink: FieldSink) -> bool:
        return entry.key.value == ENCODING_KEY  # read by _encoding before the data is encoded

    def _encoding(self, props: A.Props | None) -> bool | None:
        """``encoding: raw|typed`` of a tensor's property block, if given."""
        if props is None:
            return None
        for entry in A.intact(props.entries):
            if entry.key.value == ENCODING_KEY:
                v = entry.value
                if isinstance(v, A.Word) and v.value in ("raw", "typed"):
                    return v.value == "raw"
                self.error(BAD_HEADER, f"'{ENCODING_KEY}' takes 'raw' or 'typed'", v.span)
        return None

    def nodes(self, nodes: Sequence[A.Node | A.ErrorNode], container: Any, path: ProtoPath) -> None:
        for i, n in enumerate(A.intact(nodes), len(container)):  # after any nodes a function's header gave
            self.node(n, container.add(), path.child("node", i))

    # ------------------------------------------------------------ names and types
    def name(self, ident: A.Ident) -> str:
        value = ident.value
        if ident.quoted:
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                self.error(BAD_NAME, "a name must be valid UTF-8 text", ident.span)
                return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        return value

    def dtype(self, ident: A.Ident) -> int:
        dt = DTYPES.get(ident.value)
        if dt is None:
            self.sink.unknown(
                UNKNOWN_TYPE, f"unknown element type '{ident.value}'", ident.span, ident.value, list(DTYPES)
            )
            return 0
        return dt.code

    def value_info(self, vi: A.ValueInfo, proto: ValueInfoProto, path: ProtoPath) -> None:
        if vi.type is not None:
            self.type(vi.type, proto.type, path / "type")
        proto.name = self.name(vi.name)
        if vi.props is not None:
            apply_entries(proto, vi.props.entries, self.sink, path)

    def type(self, t: A.Type, proto: TypeProto, path: ProtoPath) -> None:
        """Fill ``proto``, the TypeProto at proto ``path``."""
        depth = len(path) - 1 + self._below_root
        self._deepest = max(self._deepest, depth)
        if depth > PROTOBUF_DEPTH_LIMIT:  # seq(seq(...)) past what protobuf reads: check_depth reports it
            proto.SetInParent()
            return
        if isinstance(t, A.TensorType):
            tt = proto.tensor_type
            tt.elem_type = self.dtype(t.elem)
            self._shape(t, tt, path, "tensor_type")
        elif isinstance(t, A.SeqType):
            proto.sequence_type.SetInParent()
            self.type(t.elem, proto.sequence_type.elem_type, path / "sequence_type" / "elem_type")
        elif isinstance(t, A.MapType):
            mt = proto.map_type
            mt.key_type = self.dtype(t.key)
            self.type(t.value, mt.value_type, path / "map_type" / "value_type")
        elif isinstance(t, A.OptionalType):
            proto.optional_type.SetInParent()
            self.type(t.elem, proto.optional_type.elem_type, path / "optional_type" / "elem_type")
        elif isinstance(t, A.SparseTensorType):
            st = proto.sparse_tensor_type
            st.elem_type = self.dtype(t.tensor.elem)
            self._shape(t.tensor, st, path, "sparse_tensor_type")
        elif isinstance(t, A.OpaqueType):
            ot = proto.opaque_type
            ot.SetInParent()
            if t.domain is not None:
                ot.domain = t.domain
            if t.name is not None:
                ot.name = t.name
        else:  # pragma: no cover
            raise TypeError(type(t).__name__)

    def _shape(self, t: A.TensorType, tt: Any, path: ProtoPath, kind: str) -> None:
        """Fill the shape of ``tt``, field ``kind`` of the TypeProto at ``path``."""
        if t.shape is None:
            return
        shape = tt.shape
        shape.SetInParent()
        for i, d in enumerate(t.shape):
            dim = shape.dim.add()
            if d.value is not None:
                dim.dim_value = d.value
            elif d.param is not None:
                dim.dim_param = d.param
            if d.props is not None:
                apply_entries(dim, d.props.entries, self.sink, (path / kind / "shape").child("dim", i))

    # ------------------------------------------------------------ tensors
    def tensor_data(
        self, t: TensorProto, type_: A.Type | None, body: A.TensorBody, where: Span, raw: bool | None = None
    ) -> None:
        """Fill ``t`` (name already set) from its declared type and data."""
        if not isinstance(type_, A.TensorType):
            self.error(
                NOT_TENSOR, "a value with data must have a tensor type such as float[2]", type_.span if type_ else where
            )
            return
        code = self.dtype(type_.elem)
        t.data_type = code
        for d in type_.shape or []:
            if d.value is None:
                self.error(BAD_TENSOR, "a tensor with data needs numeric dimensions", d.span)
                return
            t.dims.append(d.value)
        if isinstance(body, A.ExternalBody):
            if any(
                isinstance(i, A.PropPair) and isinstance(i.key, A.Str) and i.key.value == b"digest" for i in body.items
            ):
                self.error(
                    BAD_TENSOR,
                    DIGEST_RECORD + " (sha256 and statistics from 'onnxtext print --weights digest'), not data: "
                    "digest texts are for reading and diffing only and cannot be parsed back; "
                    "print the model with --weights inline or --weights external",
                    body.span,
                )  # the record is still stored: an editor's view by reference restores it (binary.py)
            t.data_location = TensorProto.EXTERNAL
            for item in body.items:
                entry = t.external_data.add()
                if not (isinstance(item, A.PropPair) and isinstance(item.key, A.Str) and isinstance(item.value, A.Str)):
                    self.error(BAD_TENSOR, 'external data is a list of "key": "value" strings', item.span)
                    continue
                try:
                    entry.key = item.key.value.decode("utf-8")
                    entry.value = item.value.value.decode("utf-8")
                except UnicodeDecodeError:
                    self.error(BAD_TENSOR, "external data keys and values must be valid UTF-8 text", item.span)
                    continue
                if entry.key == "location":
                    problem = location_problem(entry.value)
                    if problem is not None:  # the data would be read from outside the text's folder
                        self.error(UNSAFE_LOCATION, problem, item.value.span)
            return
        if code == 0:
            return
        dt = DTYPES[type_.elem.value]
        # The file-wide default never applies to strings, which have no raw encoding.
        use_raw = (self.raw_tensors and dt.kind != "string") if raw is None else raw
        if isinstance(body, A.NumberBody):
            gaps = _missing_commas(body)
            if gaps:  # read as meant (the commas there), one error with a fix per item that lacks them
                self._report_missing_commas(body, gaps)
                errors = encode_number_text(t, dt, _with_commas(body, gaps), raw=use_raw)
                for e in errors[:5]:
                    self._literal_problem(e, e.message, body.span, body.span)
                return
            errors = encode_number_text(t, dt, body.text, raw=use_raw)
            for e in errors[:5]:
                span = self._item_span(body, e.index)
                message = e.message
                if len(span) == 0:
                    if e.kind == "count":
                        span = body.span
                    else:
                        message = "expected a number here (two commas in a row, or a trailing comma)"
                self._literal_problem(e, message, span, body.span)
            return
        literals: list[tuple[str, Any]] = []
        values: list[A.Number | A.Str | A.Word] = []
        for lit in body.values:
            if isinstance(lit, A.ComplexLiteral):
                if dt.kind != "complex":
                    self.error(
                        BAD_TENSOR,
                        f"a (real, imaginary) pair is a complex value, but the tensor is {dt.name}",
                        lit.span,
                    )
                    return
                for part in (lit.real, lit.imag):
                    if isinstance(part, (A.Number, A.Word)):
                        values.append(part)
                    else:
                        self.error(BAD_TENSOR, "the parts of a complex value are numbers", part.span)
                        return
            else:
                values.append(lit)
        for v in values:
            if isinstance(v, A.Number):
                literals.append(
                    ("int" if v.is_int else ("special" if v.text.lstrip("-").isalpha() else "float"), v.text)
                )
            elif isinstance(v, A.Str):
                literals.append(("string", v.value))
            elif v.value.lower() in _SPECIAL_FLOATS:
                literals.append(("special", v.value))
            elif v.value in ("true", "false"):
                literals.append(("bool", v.value))
            else:
                literals.append(("word", v.value))
        errors = encode_values(t, dt, literals, raw=use_raw)
        for e in errors[:5]:
            span = values[e.index].span if 0 <= e.index < len(values) else body.span
            self._literal_problem(e, e.message, span, body.span)

    def _literal_problem(self, e: LiteralError, message: str, span: Span, body: Span) -> None:
        """An error, or a warning for what is stored as written; a count problem without a
        value to point at (too few, none) is located at the whole body."""
        if e.kind == "count" and len(span) == 0:
            span = body
        if e.warning:
            self.sink.warning(STORED_AS_WRITTEN, message, span)
        else:
            self.error(BAD_TENSOR, message, span)

    def _report_missing_commas(self, body: A.NumberBody, gaps: list[list[int]]) -> None:
        start = body.span.start + 1
        for item in gaps:
            first = item[0]
            before = body.text[: first - start].split(",")[-1].split()[-1]
            after = body.text[first - start :].split(",")[0].split()[0]
            fix = Fix(
                "insert ','" if len(item) == 1 else f"insert the {len(item)} commas",
                tuple(Edit(Span(g, g), ",") for g in item),
            )
            self.sink.error(BAD_TENSOR, f"missing ',' between '{before}' and '{after}'", Span(first, first + 1), fix)

    def _item_span(self, body: A.NumberBody, index: int) -> Span:
        """The span of the ``index``-th number of a number body (computed only for errors)."""
        text = body.text
        offset = body.span.start + 1
        pos = 0
        for i, part in enumerate(text.split(",")):
            if i == index:
                if not part.strip():  # an empty item: point at the comma or brace after it
                    at = offset + pos + len(part)
                    return Span(at, at)
                lead = len(part) - len(part.lstrip())
                return Span(offset + pos + lead, offset + pos + len(part.rstrip()))
            pos += len(part) + 1
        return body.span

    # ------------------------------------------------------------ nodes and attributes
    def node(self, n: A.Node, proto: NodeProto, path: ProtoPath) -> None:
        self._mark(path, n)
        if n.has_label:
            proto.name = self.name(n.label) if n.label is not None else ""
        for o in n.outputs:
            proto.output.append(self.name(o))
        domain = ".".join(p.value for p in n.domain)
        if domain or not self.node_domain_unset:
            proto.domain = domain
        proto.op_type = n.op_type.value
        if n.overload is not None:
            proto.overload = n.overload.value
        for i, a in enumerate(A.intact(n.attributes)):
            self.attribute(a, proto.attribute.add(), path.child("attribute", i))
        for i_ in n.inputs:
            proto.input.append(self.name(i_))
        if n.props is not None:
            apply_entries(proto, n.props.entries, self.sink, path)

    def attribute(self, a: A.Attribute, proto: AttributeProto, path: ProtoPath, default: bool = False) -> None:
        """A node's attribute, or (``default``) a function attribute's default value."""
        self._mark(path, a)
        proto.name = a.name.value
        expected = 0
        if a.type_name is not None:
            tn = a.type_name.value
            if tn in ATTRIBUTE_TYPES:
                expected = ATTRIBUTE_TYPES[tn]
                proto.type = expected  # type: ignore[assignment]
            elif tn != "undefined":
                self.sink.unknown(
                    ATTR_TYPE, f"unknown attribute type '{tn}'", a.type_name.span, tn, list(ATTRIBUTE_TYPES)
                )
        value = a.value
        self._attr_raw = self._encoding(a.props)
        if default and expected and value is not None and not isinstance(value, (A.AttrList, A.AttrRef)):
            kind = self._value_kind(value)
            if kind != expected and (expected, kind) != (AttributeProto.FLOAT, AttributeProto.INT):
                # onnx.parser ignores the mismatch here (only here) and keeps the value with its own type
                self.sink.warning(
                    DEFAULT_AS_WRITTEN,
                    f"the default is {_ATTR_NAMES.get(kind, 'undefined')} but the attribute is declared "
                    f"{_ATTR_NAMES.get(expected, '?')}; it is stored as {_ATTR_NAMES.get(kind, 'undefined')}, "
                    "as onnx.parser stores it",
                    value.span,
                )
                expected = 0
        if isinstance(value, A.AttrList):
            self._attr_list(value, proto, expected, path)
        elif value is not None:
            if expected in _SINGLETON and not isinstance(value, A.AttrRef):
                self.error(
                    ATTR_TYPE,
                    f"attribute type '{a.type_name.value if a.type_name else ''}' needs a list value [...]",
                    value.span,
                )
            self._single(value, proto, expected, path)
        if a.props is not None:
            apply_entries(proto, a.props.entries, self.sink, path, special=self._attr_key)

    def _attr_key(self, msg: Message, entry: A.PropEntry, sink: FieldSink) -> bool:
        return entry.key.value == ENCODING_KEY  # applies to the attribute's tensors

    def _single(self, v: A.SingleValue, proto: AttributeProto, expected: int, path: ProtoPath) -> None:
        """Set one value on ``proto`` (as onnx's ParseSingleAttributeValue does)."""
        if isinstance(v, A.AttrRef):
            proto.ref_attr_name = self.name(v.name)
            return
        kind = self._value_kind(v)
        if expected and expected != kind:
            if expected == AttributeProto.FLOAT and kind == AttributeProto.INT:
                kind = AttributeProto.FLOAT
            else:
                self.error(
                    ATTR_TYPE,
                    f"the value is {_ATTR_NAMES.get(kind, 'undefined')} but the attribute is declared "
                    f"{_ATTR_NAMES.get(expected, '?')}",
                    v.span,
                )
                return
        proto.type = kind  # type: ignore[assignment]
        if kind == AttributeProto.INT:
            assert isinstance(v, A.Number)
            i = parse_int(v, self.sink, what="a 64-bit integer")
            if i is not None:
                proto.i = i
        elif kind == AttributeProto.FLOAT:
            proto.f = self._float(v)
        elif kind == AttributeProto.STRING:
            assert isinstance(v, A.Str)
            proto.s = v.value
        elif kind == AttributeProto.TENSOR:
            assert isinstance(v, A.TensorValue)
            self._tensor_value(v, proto.t, path / "t")
        elif kind == AttributeProto.GRAPH:
            assert isinstance(v, A.GraphValue)
            self.graph(v.graph, proto.g, path / "g")
        elif kind == AttributeProto.TYPE_PROTO:
            assert isinstance(v, A.TypeValue)
            self.type(v.type, proto.tp, path / "tp")
        elif kind == AttributeProto.SPARSE_TENSOR:
            assert isinstance(v, A.PropDict)
            proto.sparse_tensor.SetInParent()
            self._sparse(v, proto.sparse_tensor, path / "sparse_tensor")

    def _value_kind(self, v: A.SingleValue) -> int:
        if isinstance(v, A.Number):
            return AttributeProto.INT if v.is_int else AttributeProto.FLOAT
        if isinstance(v, A.Str):
            return AttributeProto.STRING
        if isinstance(v, A.TensorValue):
            return AttributeProto.TENSOR
        if isinstance(v, A.GraphValue):
            return AttributeProto.GRAPH
        if isinstance(v, A.PropDict):
            return AttributeProto.SPARSE_TENSOR
        if isinstance(v, A.TypeValue):
            t = v.type
            if isinstance(t, A.TensorType) and t.shape == [] and t.elem.value.lower() in _SPECIAL_FLOATS:
                return AttributeProto.FLOAT
            return AttributeProto.TYPE_PROTO
        return 0

    def _float(self, v: A.SingleValue) -> float:
        if isinstance(v, A.Number):
            if v.text[:2] in ("0x", "0X"):
                self.error(
                    BAD_NUMBER, f"{v.text} is a hex integer, not a float value; write the value in decimal", v.span
                )
                return 0.0
            f = parse_float32(v.text)
            if (
                math.isinf(f) and literal_kind(v.text) != "special"
            ):  # onnx.parser refuses it too ("Failed to parse float")
                self.error(
                    BAD_NUMBER,
                    f"value {v.text} is out of range for a float attribute (largest value 3.4028234663852886e+38); "
                    "write inf for infinity",
                    v.span,
                )
            return f
        assert isinstance(v, A.TypeValue) and isinstance(v.type, A.TensorType)
        word = v.type.elem.value.lower()
        return math.nan if word == "nan" else math.inf

    def _tensor_value(self, v: A.TensorValue, t: TensorProto, path: ProtoPath) -> None:
        self._mark(path, v)
        if v.name is not None:
            t.name = self.name(v.name)
        elif not self.tensor_name_unset:
            t.name = ""
        raw = self._encoding(v.props)
        self.tensor_data(t, v.type, v.body, v.span, self._attr_raw if raw is None else raw)
        self._apply_tensor_props(t, v.props, path)

    def _sparse(self, v: A.PropDict, sparse: Any, path: ProtoPath) -> None:
        """A sparse tensor attribute value: its values, indices and dims are property entries."""
        self._mark(path, v)
        apply_entries(sparse, v.entries, self.sink, path)

    def _attr_list(self, lst: A.AttrList, proto: AttributeProto, expected: int, path: ProtoPath) -> None:
        if not lst.items:
            if expected == 0:
                self.error(ATTR_TYPE, "an empty list needs a type annotation, e.g. 'name: ints = []'", lst.span)
            elif expected not in _SINGLETON:
                self.error(
                    ATTR_TYPE, f"attribute type '{_ATTR_NAMES[expected]}' takes a single value, not a list", lst.span
                )
            return
        if expected in _READ_AS_LIST:  # onnx.parser reads `a: int = [1, 2]` as `a: ints = [1, 2]`
            expected = _LIST_OF[expected]
        if expected and expected not in _SINGLETON:
            self.error(
                ATTR_TYPE, f"attribute type '{_ATTR_NAMES[expected]}' takes a single value, not a list", lst.span
            )
            return
        item_expected = _SINGLETON.get(expected, 0)
        kinds = [self._value_kind(v) for v in lst.items]
        if not item_expected:
            distinct = set(kinds)
            if distinct <= {AttributeProto.INT, AttributeProto.FLOAT} and AttributeProto.FLOAT in distinct:
                item_expected = AttributeProto.FLOAT
            elif len(distinct) > 1:
                self.error(ATTR_TYPE, "the values of a list attribute must all be of one type", lst.span)
                return
            else:
                item_expected = kinds[0]
        if item_expected == 0:
            self.error(ATTR_TYPE, "a list attribute cannot hold attribute references", lst.span)
            return
        proto.type = _LIST_OF[item_expected]  # type: ignore[assignment]
        for k, v in zip(kinds, lst.items, strict=True):
            if isinstance(v, A.AttrRef):
                self.error(ATTR_TYPE, "a list attribute cannot hold attribute references", v.span)
                continue
            if k != item_expected and not (item_expected == AttributeProto.FLOAT and k == AttributeProto.INT):
                self.error(
                    ATTR_TYPE,
                    f"the value is {_ATTR_NAMES.get(k, 'undefined')} but the list holds "
                    f"{_ATTR_NAMES.get(item_expected, '?')} values",
                    v.span,
                )
                continue
            if item_expected == AttributeProto.INT:
                assert isinstance(v, A.Number)
                i = parse_int(v, self.sink, what="a 64-bit integer")
                if i is not None:
                    proto.ints.append(i)
            elif item_expected == AttributeProto.FLOAT:
                proto.floats.append(self._float(v))
            elif item_expected == AttributeProto.STRING:
                assert isinstance(v, A.Str)
                proto.strings.append(v.value)
            elif item_expected == AttributeProto.TENSOR:
                assert isinstance(v, A.TensorValue)
                k_ = len(proto.tensors)
                self._tensor_value(v, proto.tensors.add(), path.child("tensors", k_))
            elif item_expected == AttributeProto.GRAPH:
                assert isinstance(v, A.GraphValue)
                k_ = len(proto.graphs)
                self.graph(v.graph, proto.graphs.add(), path.child("graphs", k_))
            elif item_expected == AttributeProto.TYPE_PROTO:
                assert isinstance(v, A.TypeValue)
                k_ = len(proto.type_protos)
                self.type(v.type, proto.type_protos.add(), path.child("type_protos", k_))
            elif item_expected == AttributeProto.SPARSE_TENSOR:
                assert isinstance(v, A.PropDict)
                k_ = len(proto.sparse_tensors)
                self._sparse(v, proto.sparse_tensors.add(), path.child("sparse_tensors", k_))

    # ------------------------------------------------------------ functions
    def function(self, f: A.Function, proto: FunctionProto, path: ProtoPath) -> FunctionProto:
        self._mark(path, f)
        if f.header is not None:
            apply_entries(proto, f.header.entries, self.sink, path)
        proto.name = self.name(f.name)
        for a in A.intact(f.attributes or []):
            if a.value is None and a.type_name is None:
                proto.attribute.append(self.name(a.name))
            else:
                k = len(proto.attribute_proto)
                self.attribute(a, proto.attribute_proto.add(), path.child("attribute_proto", k), default=True)
        for vi in A.intact(f.inputs):
            proto.input.append(self.name(vi.name))
            if vi.type is not None:
                self._function_value_info(vi, proto, path)
        for vi in A.intact(f.outputs):
            proto.output.append(self.name(vi.name))
            if vi.type is not None:
                self._function_value_info(vi, proto, path)
        for vi in A.intact(f.value_infos or []):
            self._function_value_info(vi, proto, path)
        self.nodes(f.nodes, proto.node, path)
        return proto

    def _function_value_info(self, vi: A.ValueInfo, proto: FunctionProto, path: ProtoPath) -> None:
        k = len(proto.value_info)
        self.value_info(vi, proto.value_info.add(), path.child("value_info", k))


def _is_default_key(msg: Message, entry: A.PropEntry, sink: FieldSink) -> bool:
    return entry.key.value in DEFAULT_KEYS


#: The model header's file-wide defaults (no field of ModelProto): the Lowering attribute each
#: sets, the word that sets it, the word that clears it.
_DEFAULT_SWITCHES = {
    NODE_DOMAIN_KEY: ("node_domain_unset", UNSET, "set"),
    TENSOR_ENCODING_KEY: ("raw_tensors", "raw", "typed"),
    TENSOR_NAME_KEY: ("tensor_name_unset", UNSET, "set"),
}
DEFAULT_KEYS = tuple(_DEFAULT_SWITCHES)

_NUMBER_WORD = re.compile(r"[-+]?[0-9A-Za-z_.]+")


def _missing_commas(body: A.NumberBody) -> list[list[int]]:
    """Per item of a number list that holds several numbers separated by blanks (``{1.0, 2.0 3.0}``),
    the offsets where its commas are missing (right after each number but the last)."""
    found: list[list[int]] = []
    offset = body.span.start + 1
    for part in body.text.split(","):
        words = list(re.finditer(r"\S+", part))
        if len(words) > 1 and all(_NUMBER_WORD.fullmatch(w.group()) for w in words):
            found.append([offset + w.end() for w in words[:-1]])
        offset += len(part) + 1
    return found


def _with_commas(body: A.NumberBody, gaps: list[list[int]]) -> str:
    """The number list with the missing commas in."""
    start = body.span.start + 1
    text = body.text
    for at in sorted((g for item in gaps for g in item), reverse=True):
        text = text[: at - start] + "," + text[at - start :]
    return text
