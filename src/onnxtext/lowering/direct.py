"""Text → protobuf in one pass, for the common subset of the language (the parse fast path).

A model text made of what exported models mostly are (a header of the usual keys, one
graph of typed inputs and outputs, initializers with number lists, nodes with number,
string, list, tensor and subgraph attributes, and model-local functions) is read here by
recursive descent over the token strings of one ``findall`` scan, writing the protobuf messages directly: no token
objects, no tree, no spans, no source map. The scan of an ASCII text takes the bulk of an
export (one-line node statements, typed signatures, initializer lists) as single tokens
(``direct_tokens``), written as message bytes (``direct_wire``) and merged a run at a time;
a text with other characters only in strings and comments is read token by token.

The Lark grammar and :mod:`onnxtext.lowering.lower` stay the definition of the
language. A node statement of a model's graph or function that the reader does not know is
read alone by them (:func:`_reference_node`: its tokens, found by their brackets, as the one
statement of a model with the text's file-wide defaults), so a decline costs that statement,
not the text (at most :data:`_ALONE` of them: past that the text is the reference path's).
:func:`direct_model` gives up (returns None) on anything else it does not know, on anything
the reference path would report (errors and warnings alike: an out-of-range number, a count
mismatch, an unknown type name; a statement read alone included) and on any syntax error, and
the caller then takes the reference path, which gives the located diagnostics.
``tests/test_direct_parse.py`` checks that both paths give byte-identical protobufs on
every corpus text.
"""

from __future__ import annotations

import functools
import math
import re
from typing import TYPE_CHECKING

from onnxtext.ir.attribute_types import ATTRIBUTE_TYPES
from onnxtext.ir.depth import DEEP_GRAPH
from onnxtext.ir.dtypes import BY_NAME, DType
from onnxtext.ir.tensor.encode import encode_number_text, encode_number_texts
from onnxtext.ir.tensor.float_text import parse_float32
from onnxtext.lowering.direct_tokens import (
    FAST_TOKENS,
    TOKENS,
    Parts,
    initializer_values,
    is_statement,
    number_body_ok,
    split_names,
    statement_parts,
    typed_values,
)
from onnxtext.lowering.direct_wire import LENGTHS as _LENGTHS
from onnxtext.lowering.direct_wire import field as _field
from onnxtext.lowering.direct_wire import length_text as _length_text
from onnxtext.lowering.direct_wire import tag as _tag
from onnxtext.proto import AttributeProto, FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto, ValueInfoProto
from onnxtext.syntax.lexer import unescape_string
from onnxtext.weights.external import location_problem

if TYPE_CHECKING:
    from onnxtext.proto import TypeProto

__all__ = ["direct_model", "scan", "model_of_tokens"]

_INT = re.compile(r"-?[0-9]+\Z")  # int() reads leading zeros as the reference path does
_FLOAT = re.compile(r"-?[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?\Z")
_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
# Contextual keywords: a type such as seq(...) is left to the reference path.
_TYPE_KEYWORDS = frozenset(("seq", "map", "optional", "sparse_tensor", "opaque"))
_INT64 = (-(2**63), 2**63 - 1)
# Element types whose number lists the fast path stores (encode_number_text's orjson path
# or its exact path, both without diagnostics); the rest go the reference way.
_TENSOR_TYPES = frozenset(
    ("float", "double", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
)
# NodeProto's fields a statement token writes (direct_wire).
_INPUT, _OUTPUT, _NAME, _OP_TYPE, _DOMAIN, _OVERLOAD = (
    _tag(NodeProto.DESCRIPTOR.fields_by_name[f].number)
    for f in ("input", "output", "name", "op_type", "domain", "overload")
)
_EMPTY_DOMAIN = _DOMAIN + "\x00"
_GRAPH_INPUT = _tag(GraphProto.DESCRIPTOR.fields_by_name["input"].number)
_GRAPH_OUTPUT = _tag(GraphProto.DESCRIPTOR.fields_by_name["output"].number)
_FUNCTION_VALUE_INFO = _tag(FunctionProto.DESCRIPTOR.fields_by_name["value_info"].number)
_VALUE_NAME = _tag(ValueInfoProto.DESCRIPTOR.fields_by_name["name"].number)
_INITIALIZER = _tag(GraphProto.DESCRIPTOR.fields_by_name["initializer"].number)
_TENSOR_NAME = _tag(TensorProto.DESCRIPTOR.fields_by_name["name"].number)
_GRAPH_NODE = _tag(GraphProto.DESCRIPTOR.fields_by_name["node"].number)
_FUNCTION_NODE = _tag(FunctionProto.DESCRIPTOR.fields_by_name["node"].number)
_KNOWN_TEXT = 200  # the longest attribute text kept for the next statement with the same one
_NAME_UNSET = ["@{", "name", ":", "unset", "}"]  # the one property block the fast path reads
_MODEL_INTS = frozenset(("ir_version", "model_version"))
_MODEL_STRINGS = frozenset(("producer_name", "producer_version", "domain", "doc_string"))
_FUNCTION_STRINGS = frozenset(("domain", "doc_string", "overload"))
# Attribute type annotations the fast path reads (`name: float = 1`, `name: ints = []`).
_ANNOTATIONS = {name: ATTRIBUTE_TYPES[name] for name in ("float", "int", "string", "floats", "ints", "strings")}


# Annotations whose value says its kind anyway (a subgraph, a tensor): checked, not read.
_VALUE_ANNOTATIONS = {name: ATTRIBUTE_TYPES[name] for name in ("graph", "tensor")}


class _Unsupported(Exception):
    """Raised inside the fast path for anything it leaves to the reference path."""


_ALONE = 64
"""How many statements of a text the reference path reads alone before the whole text is its
(each costs a parse and a lowering of its own: a text of many is cheaper read whole)."""
_OPENERS = frozenset(("<", "(", "[", "{", "@{"))
_CLOSERS = frozenset((">", ")", "]", "}"))


def _past_group(toks: list[str], i: int) -> int:
    """The index past the bracketed group that opens at ``toks[i]``: brackets of any kind counted
    (the parser checks their kinds), a compound token (a number list, typed values, a statement)
    one atom, an initializers token one opener (its ``>`` is a token of its own)."""
    depth = 0
    while True:
        tok = toks[i]
        i += 1
        if tok in _OPENERS or (len(tok) > 1 and tok[0] == "<"):
            depth += 1
        elif tok in _CLOSERS:
            depth -= 1
            if depth == 0:
                return i
        elif tok == "":
            raise _Unsupported


def _statement_end(toks: list[str], i: int) -> int:
    """The index past the node statement at ``toks[i]``: ``[label] outputs = op <attrs> (inputs) <attrs> @{...}``,
    its groups found by their brackets."""
    if toks[i] == "[":
        i = _past_group(toks, i)
    while True:  # the outputs, up to '=' or a statement token holding the rest of the statement
        tok = toks[i]
        i += 1
        if tok == "=":
            break
        if is_statement(tok):
            return _past_group(toks, i) if toks[i] == "@{" else i
        if tok == "" or tok in _OPENERS or tok in _CLOSERS:
            raise _Unsupported
    while toks[i] == "." or toks[i] == ":" or toks[i].isidentifier():  # the operator, its domain and overload
        i += 1
    if toks[i] == "<":
        i = _past_group(toks, i)
    if toks[i] != "(":
        raise _Unsupported
    i = _past_group(toks, i)
    if toks[i] == "<":
        i = _past_group(toks, i)
    if toks[i] == "@{":
        i = _past_group(toks, i)
    return i


def _reference_node(statement: str, node_domain_unset: bool, tensor_name_unset: bool, raw: bool) -> NodeProto:
    """The node of one statement as the reference path lowers it in a model whose header says the
    file-wide defaults given; _Unsupported if it reports anything (errors and warnings alike)."""
    from onnxtext.lowering.lower import Lowering  # the reference path's: loaded only for such a statement
    from onnxtext.span import Span
    from onnxtext.syntax import ast as A
    from onnxtext.syntax.parser import parse_text
    from onnxtext.syntax.vocabulary import NODE_DOMAIN_KEY, TENSOR_ENCODING_KEY, TENSOR_NAME_KEY

    keys = [f"{NODE_DOMAIN_KEY}: unset"] if node_domain_unset else []
    keys += [f"{TENSOR_NAME_KEY}: unset"] if tensor_name_unset else []
    keys += [f"{TENSOR_ENCODING_KEY}: raw"] if raw else []
    text = f"<{', '.join(keys)}>\nalone () => () {{\n{statement}\n}}\n"
    parsed = parse_text(text, "model")
    if parsed.diagnostics or not isinstance(parsed.tree, A.Model):
        raise _Unsupported
    lowering = Lowering(parsed.source)
    model = lowering.model(parsed.tree)
    lowering.check_depth(model, Span(0, len(text)))
    if lowering.diagnostics or len(model.graph.node) != 1:
        raise _Unsupported
    return model.graph.node[0]


def direct_model(text: str) -> ModelProto | None:
    """The protobuf of a model text, or None when the reference path must read it.

    None means "not handled here", never "invalid": the caller parses the text with
    :func:`onnxtext.document.parse_document`, which reports what is wrong, if anything.
    """
    if text.isascii():  # the scan with compound tokens (direct_tokens.FAST_TOKENS)
        return model_of_tokens(FAST_TOKENS.findall(text))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the reference path says where
        return None
    tokens = TOKENS.findall(text)
    # Other text than ASCII only in strings (and comments): a word or a digit of another script is the reference path's.
    if not all(tok.isascii() or tok[:1] == '"' for tok in tokens):
        return None
    return model_of_tokens(tokens)


def scan(text: str) -> list[str] | None:
    """The token strings of ``text``, as the lexer gives them (whitespace and comments left out; the last
    is ``""``, the end), or None for a text that is not ASCII (non-ASCII names are lexical errors,
    strings may need checks)."""
    return TOKENS.findall(text) if text.isascii() else None


def model_of_tokens(tokens: list[str]) -> ModelProto | None:
    """:func:`direct_model` of the text whose :func:`scan` is ``tokens`` (or whose fast scan, with
    statement tokens)."""
    try:
        return _Reader(tokens).model()
    except (_Unsupported, RecursionError):  # deep nesting: the reference path says what it says
        return None


def _int(tok: str, lo: int = _INT64[0], hi: int = _INT64[1]) -> int:
    if _INT.match(tok) is None:
        raise _Unsupported
    value = int(tok)
    if not lo <= value <= hi:
        raise _Unsupported
    return value


def _float(tok: str) -> float:
    if _FLOAT.match(tok) is None:
        raise _Unsupported
    value = parse_float32(tok)
    if math.isinf(value):  # out of float32's range: reported by the reference path
        raise _Unsupported
    return value


def _element(elem: str) -> DType:
    """The element type of a tensor type (``seq(...)`` and the like go the reference way)."""
    dtype = BY_NAME.get(elem)
    if dtype is None or elem in _TYPE_KEYWORDS:
        raise _Unsupported
    return dtype


def _string(tok: str) -> str:
    # A lone '"' is a string left open; escapes are unescaped (and checked) by the reference path.
    if len(tok) < 2 or tok[0] != '"' or "\\" in tok:
        raise _Unsupported
    return tok[1:-1]


# An escape other than those Python's unicode_escape reads as the lexer does (`\\n \\t \\r \\" \\\\`,
# `\\'`, `\\a \\b \\f \\v`, a backslash before a line break, `\\xNN` below 0x80): `\\0` (octal there),
# `\\u`/`\\U` (surrogates), `\\x80` and up (a byte here, a code point there), unknown ones.
_ODD_ESCAPE = re.compile(r"""\\(?![ntr"\\'abfv\n]|x[0-7][0-9a-fA-F])""")


def _text(tok: str) -> str:
    """A string literal's text, escapes decoded (anything the reference path would report is left to it)."""
    if len(tok) < 2 or tok[0] != '"' or tok[-1] != '"':
        raise _Unsupported
    if "\\" not in tok:
        return tok[1:-1]
    if tok.isascii() and _ODD_ESCAPE.search(tok) is None:
        # Only escapes Python's unicode_escape reads as the lexer does (and ASCII text): in C.
        return tok[1:-1].encode("utf-8").decode("unicode_escape")
    raw, problems = unescape_string(tok)
    if problems:
        raise _Unsupported
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _Unsupported from None


_NOTE_KEYS = frozenset(("doc_string", "metadata_props", "encoding"))


class _Notes:
    """What a property block of notes says (see :meth:`_Reader.props`)."""

    __slots__ = ("seen", "doc", "metadata", "raw")

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.doc: str | None = None
        self.metadata: list[tuple[str, str]] = []
        self.raw: bool | None = None

    def apply(self, proto: GraphProto | NodeProto | ValueInfoProto | TensorProto) -> None:
        if self.doc is not None:
            proto.doc_string = self.doc
        for key, value in self.metadata:
            proto.metadata_props.add(key=key, value=value)


def _tensor_head(t: TensorProto, name: str, dtype: DType, dims: list[int | str | None] | None) -> DType:
    """Set a tensor's name, element type and dims (numbers only: a symbol or '?' is the reference path's)."""
    t.name = name
    t.data_type = dtype.code
    if dims:
        sizes = [d for d in dims if isinstance(d, int)]
        if len(sizes) != len(dims):
            raise _Unsupported
        t.dims.extend(sizes)
    return dtype


def _names_field(key: str, names: str) -> str:
    """The repeated field ``key`` of a statement's names ``a, "b", c`` (``direct_wire``)."""
    if '"' in names:
        return "".join([_field(key, name) for name in split_names(names)])
    lengths = _LENGTHS
    if "," in names:  # plain names: _field inlined (one call per name is most of the work)
        return "".join([key + lengths[len(n)] + n if len(n) < 128 else _field(key, n) for n in split_names(names)])
    return key + lengths[len(names)] + names if len(names) < 128 else _field(key, names)


def _read_attributes(text: str, raw_tensors: bool, tensor_name_unset: bool) -> str:
    """The attribute fields of a node (latin-1 text) for a statement token's ``<text>``: what
    :meth:`_Reader.attributes` reads of them under the header's tensor flags (nothing else of
    the text matters: a statement token holds no subgraph or reference)."""
    reader = _Reader(TOKENS.findall(f"<{text}>"))
    reader.raw_tensors = raw_tensors
    reader.tensor_name_unset = tensor_name_unset
    holder = NodeProto()
    reader.attributes(holder)
    if reader.toks[reader.i] != "":
        raise _Unsupported
    return holder.SerializeToString().decode("latin-1")  # only its attributes: the same fields


# Kept across texts (a text of one exporter repeats another's `<axis = 0>`); an error is not kept.
_attribute_text = functools.lru_cache(maxsize=4096)(_read_attributes)


@functools.lru_cache(maxsize=4096)
def _typed_text(elem: str, dims: str) -> _Typed:
    """:meth:`_Reader.typed` of an element type and its dims' text (with the brackets, or "")."""
    reader = _Reader(TOKENS.findall(dims))
    known = reader.typed(elem)
    if reader.toks[reader.i] != "":
        raise _Unsupported
    return known


class _Typed:
    """An element type and shape as a text writes them: the dims, and the bytes of a value's type
    and of a tensor's ``data_type`` and ``dims`` (made on first use)."""

    __slots__ = ("dtype", "dims", "_value_type", "_tensor_head", "_value_type_text", "_tensor_head_text", "_size")

    def __init__(self, dtype: DType, dims: list[int | str | None] | None) -> None:
        self.dtype = dtype
        self.dims = dims
        self._value_type: bytes | None = None
        self._tensor_head: bytes | None = None
        self._value_type_text: str | None = None
        self._tensor_head_text: str | None = None
        self._size: int | None = None

    @property
    def value_type_text(self) -> str:
        """:attr:`value_type` as latin-1 text (``direct_wire``)."""
        if self._value_type_text is None:
            self._value_type_text = self.value_type.decode("latin-1")
        return self._value_type_text

    @property
    def value_type(self) -> bytes:
        """A ValueInfoProto's ``type`` field."""
        if self._value_type is None:
            holder = ValueInfoProto()
            _Reader.write_type(holder, self.dtype, self.dims)
            self._value_type = holder.SerializeToString()
        return self._value_type

    @property
    def size(self) -> int:
        """The element count of a tensor of this shape (sizes only: see :meth:`tensor_head`)."""
        if self._size is None:
            self.tensor_head()
            self._size = math.prod(self.dims or ())  # type: ignore[arg-type]
        return self._size

    def tensor_head_text(self) -> str:
        """:meth:`tensor_head` as latin-1 text (``direct_wire``)."""
        if self._tensor_head_text is None:
            self._tensor_head_text = self.tensor_head().decode("latin-1")
        return self._tensor_head_text

    def tensor_head(self) -> bytes:
        """A TensorProto's ``data_type`` and ``dims`` fields (sizes only: a symbol or '?' is the reference path's)."""
        if self._tensor_head is None:
            holder = TensorProto()
            _tensor_head(holder, "", self.dtype, self.dims)
            holder.ClearField("name")
            self._tensor_head = holder.SerializeToString()
        return self._tensor_head


class _Reader:
    """Recursive descent over the token strings; ``self.i`` is the next token."""

    __slots__ = (
        "toks",
        "i",
        "node_domain_unset",
        "tensor_name_unset",
        "raw_tensors",
        "known_attributes",
        "attribute_texts",
        "types",
        "typed_texts",
        "operators",
        "initializer_values",
        "initializer_sizes",
        "depth",
        "alone",
    )

    def __init__(self, toks: list[str]) -> None:
        self.toks = toks
        self.i = 0
        self.node_domain_unset = False  # the header's `node_domain: unset`
        self.tensor_name_unset = False  # the header's `tensor_name: unset`
        self.raw_tensors = False  # the header's `tensor_encoding: raw`
        self.known_attributes: dict[tuple[str, ...], list[AttributeProto]] = {}
        self.types: dict[tuple[str, ...], _Typed] = {}
        self.typed_texts: dict[tuple[str, str], _Typed] = {}
        self.operators: dict[str, str] = {}
        """A statement's ``domain.Op`` → its node's domain and op_type fields (``direct_wire``)."""
        self.attribute_texts: dict[str, str] = {}
        """The attribute fields of the statement tokens' ``<...>`` texts read so far."""
        self.initializer_values: list[tuple[TensorProto, DType, str]] = []
        """The initializers and their number lists, encoded together at the end (:func:`encode_number_texts`)."""
        self.initializer_sizes: list[int] = []
        """The element count of each of them (its dims')."""
        self.depth = -2
        """The message depth of the graph being read (the model at 0; each nested graph 3 deeper)."""
        self.alone = 0
        """How many statements the reference path read alone (:meth:`node_or_alone`)."""

    def expect(self, tok: str) -> None:
        if self.toks[self.i] != tok:
            raise _Unsupported
        self.i += 1

    def ident(self) -> str:
        tok = self.toks[self.i]
        if not tok.isidentifier():  # a word, not a statement or values token (direct_tokens)
            raise _Unsupported
        self.i += 1
        return tok

    # ------------------------------------------------------------ model
    def model(self) -> ModelProto:
        proto = ModelProto()
        if self.toks[self.i] == "<":
            self.header(proto, _MODEL_INTS, _MODEL_STRINGS, defaults=True)
        self.graph(proto.graph)
        while self.toks[self.i] != "":
            self.function(proto.functions.add())
        # The bodies orjson does not read together are the lexer's number lists only if number_body_ok says so.
        jobs = self.initializer_values
        sizes = self.initializer_sizes
        if any(encode_number_texts(jobs, raw=self.raw_tensors, fresh=True, check=number_body_ok, sizes=sizes)):
            raise _Unsupported  # errors and warnings are the reference path's to report
        return proto

    def header(
        self, proto: ModelProto | FunctionProto, ints: frozenset[str], strings: frozenset[str], *, defaults: bool
    ) -> None:
        """``< key: value, ... >`` of a model or function; ``defaults``: the file-wide keys too."""
        self.expect("<")
        toks = self.toks
        while toks[self.i] != ">":
            key = self.ident()
            self.expect(":")
            if key in ints:
                setattr(proto, key, _int(toks[self.i]))
                self.i += 1
            elif key in strings:
                setattr(proto, key, _string(toks[self.i]))
                self.i += 1
            elif key == "opset_import":
                self.opsets(proto)
            elif not defaults:
                raise _Unsupported
            elif key == "node_domain" and toks[self.i] in ("unset", "set"):
                self.node_domain_unset = toks[self.i] == "unset"
                self.i += 1
            elif key == "tensor_encoding" and toks[self.i] in ("raw", "typed"):
                self.raw_tensors = toks[self.i] == "raw"
                self.i += 1
            elif key == "tensor_name" and toks[self.i] in ("unset", "set"):
                self.tensor_name_unset = toks[self.i] == "unset"
                self.i += 1
            else:
                raise _Unsupported
            self.comma_before(">")
        self.i += 1

    def opsets(self, proto: ModelProto | FunctionProto) -> None:
        toks = self.toks
        self.expect("[")
        while toks[self.i] != "]":
            entry = proto.opset_import.add()
            if toks[self.i] == "{":  # `{version: 7}`: the fields by name (a domain left unset)
                self.i += 1
                while toks[self.i] != "}":
                    key = self.ident()
                    self.expect(":")
                    if key == "domain":
                        entry.domain = _string(toks[self.i])
                    elif key == "version":
                        entry.version = _int(toks[self.i])
                    else:
                        raise _Unsupported
                    self.i += 1
                    self.comma_before("}")
                self.i += 1
            else:
                entry.domain = _string(toks[self.i])
                self.i += 1
                self.expect(":")
                entry.version = _int(toks[self.i])
                self.i += 1
            self.comma_before("]")
        self.i += 1

    def comma_before(self, close: str) -> None:
        """Past the ``,`` after an entry of a list that may end with one (the next token is then ``close``)."""
        tok = self.toks[self.i]
        if tok == ",":
            self.i += 1
        elif tok != close:
            raise _Unsupported

    # ------------------------------------------------------------ function
    def function(self, proto: FunctionProto) -> None:
        toks = self.toks
        if toks[self.i] == "<":
            self.header(proto, frozenset(), _FUNCTION_STRINGS, defaults=False)
        proto.name = self.ident()
        if toks[self.i] == "<":
            self.i += 1
            if toks[self.i] == ">":
                self.i += 1
            else:
                while True:
                    if toks[self.i + 1] in (",", ">"):  # a name: an attribute without a default
                        proto.attribute.append(self.ident())
                    else:
                        self.attribute(proto.attribute_proto.add())
                    if self.after_item(">"):
                        break
        self.parameters(proto, proto.input)
        self.expect("=>")
        self.parameters(proto, proto.output)
        if toks[self.i] == "<":
            self.i += 1
            self.value_infos(proto.value_info, ">")
        self.expect("{")
        self.nodes(proto, _FUNCTION_NODE)

    def parameters(self, proto: FunctionProto, names: list[str]) -> None:
        """A function's inputs or outputs in parentheses: names, typed ones in value_info too; a
        typed values token (``direct_tokens``) written as bytes and merged in one call."""
        tok = self.toks[self.i]
        self.i += 1
        if tok[:1] != "(":
            raise _Unsupported
        if tok != "(":
            items = typed_values(tok)
            names.extend(name for _, _, name in items)
            proto.MergeFromString(self.values_wire(_FUNCTION_VALUE_INFO, items))
            return
        if self.toks[self.i] == ")":
            self.i += 1
            return
        while True:
            vi = ValueInfoProto()
            self.value_info(vi)
            names.append(vi.name)
            if vi.HasField("type"):
                proto.value_info.add().CopyFrom(vi)
            if self.after_item(")"):
                return

    # ------------------------------------------------------------ graph
    def graph(self, proto: GraphProto) -> None:
        self.depth += 3
        if self.depth > DEEP_GRAPH:  # near protobuf's depth limit: the reference path measures every message
            raise _Unsupported
        self._graph(proto)
        self.depth -= 3

    def _graph(self, proto: GraphProto) -> None:
        toks = self.toks
        notes = (
            self.props() if toks[self.i] == "@{" else None
        )  # applied after the statements, as the reference path does
        proto.name = self.value_name()
        if toks[self.i][:1] == "(":
            self.signature(proto, _GRAPH_INPUT, proto.input)
        self.expect("=>")
        self.signature(proto, _GRAPH_OUTPUT, proto.output)
        tok = toks[self.i]
        if tok == "<":
            self.i += 1
            self.initializers(proto)
        elif tok[:1] == "<" and len(tok) > 1:  # an initializers token (direct_tokens), then maybe more
            self.initializer_run(proto)
            if self.after_item(">") is False:
                self.initializer_items(proto)
        self.expect("{")
        self.nodes(proto, _GRAPH_NODE)
        if notes is not None:
            notes.apply(proto)

    def props(self, *, tensor: bool = False) -> _Notes:
        """``@{doc_string: "...", metadata_props: ["key": "value", ...]}``: the property block the
        printer writes for the notes of a graph, a node, a value or a tensor (``tensor``: and its
        ``encoding: raw|typed``); anything else is the reference path's."""
        toks = self.toks
        self.expect("@{")
        notes = _Notes()
        while True:
            key = self.ident()
            if key in notes.seen or key not in _NOTE_KEYS or key == "encoding" and not tensor:
                raise _Unsupported
            notes.seen.add(key)
            self.expect(":")
            if key == "doc_string":
                notes.doc = _text(toks[self.i])
                self.i += 1
            elif key == "encoding":
                word = self.ident()
                if word not in ("raw", "typed"):
                    raise _Unsupported
                notes.raw = word == "raw"
            else:
                self.expect("[")
                if toks[self.i] == "]":
                    self.i += 1
                else:
                    while True:
                        notes.metadata.append(self.string_pair())
                        if self.after_item("]"):
                            break
            if self.after_item("}"):
                return notes

    def signature(self, proto: GraphProto, key: str, container: object) -> None:
        """A graph's inputs or outputs in parentheses: token by token, or a typed values token
        (``direct_tokens``) written as bytes into ``proto``'s field ``key``, merged in one call."""
        tok = self.toks[self.i]
        self.i += 1
        if tok == "(":
            self.value_infos(container, ")")
        elif tok[:1] == "(":
            proto.MergeFromString(self.values_wire(key, typed_values(tok)))
        else:
            raise _Unsupported

    def values_wire(self, key: str, items: list[tuple[str, str, str]]) -> bytes:
        """The value infos of a typed values token's items as the repeated field ``key`` (``direct_wire``)."""
        known = self.typed_texts
        lengths = _LENGTHS
        wire = []
        for elem, dims, name in items:
            typed = known.get((elem, dims)) or self.typed_text(elem, dims)
            info = (_VALUE_NAME + lengths[len(name)] + name if len(name) < 128 else _field(_VALUE_NAME, name)) + (
                typed.value_type_text
            )
            wire.append(key + lengths[len(info)] + info if len(info) < 128 else _field(key, info))
        return "".join(wire).encode("latin-1")

    def value_infos(self, container: object, close: str) -> None:
        toks = self.toks
        if toks[self.i] == close:
            self.i += 1
            return
        while True:
            self.value_info(container.add())  # type: ignore[attr-defined]
            if self.after_item(close):
                return

    def value_info(self, vi: ValueInfoProto) -> None:
        if self.toks[self.i][:1] == '"':  # a quoted name without a type
            vi.name = self.value_name()
            return
        first = self.ident()
        after = self.toks[self.i]
        if first in _TYPE_KEYWORDS:
            if after != "(":  # a value named `seq`... is the reference path's
                raise _Unsupported
            self.nested_type(vi.type, first)
            vi.name = self.value_name()
        elif after == "[" or after[:1] in _IDENT_START or after[:1] == '"':  # a type, then the name
            self.tensor_type(vi, first)
            vi.name = self.value_name()
        else:
            vi.name = first
        if self.toks[self.i] == "@{":
            self.props().apply(vi)

    def tensor_type(self, vi: ValueInfoProto, elem: str) -> None:
        vi.MergeFromString(self.typed(elem).value_type)

    def nested_type(self, proto: TypeProto, kind: str) -> None:
        """``seq(T)``, ``optional(T)``, ``map(K, T)`` (``kind`` read; sparse and opaque types are the
        reference path's)."""
        self.expect("(")
        self.depth += 2  # each nesting puts its element type two messages deeper
        if self.depth > DEEP_GRAPH:  # near protobuf's depth limit: the reference path measures every message
            raise _Unsupported
        if kind == "seq":
            proto.sequence_type.SetInParent()
            self.any_type(proto.sequence_type.elem_type)
        elif kind == "optional":
            proto.optional_type.SetInParent()
            self.any_type(proto.optional_type.elem_type)
        elif kind == "map":
            proto.map_type.key_type = _element(self.ident()).code
            self.expect(",")
            self.any_type(proto.map_type.value_type)
        else:
            raise _Unsupported
        self.expect(")")
        self.depth -= 2

    def any_type(self, proto: TypeProto) -> None:
        """A type inside a nested one: a tensor type or another nested one."""
        first = self.ident()
        if first in _TYPE_KEYWORDS:
            self.nested_type(proto, first)
        else:
            typed = self.typed(first)
            self.write_tensor_type(proto, typed.dtype, typed.dims)

    def typed_text(self, elem: str, dims: str) -> _Typed:
        """:meth:`typed` of an element type and its dims' text (with the brackets, or "") in a typed values token."""
        known = self.typed_texts.get((elem, dims))
        if known is None:
            known = self.typed_texts[elem, dims] = _typed_text(elem, dims)
        return known

    def typed(self, elem: str) -> _Typed:
        """The element type ``elem`` (the token before) and the shape after it, read once for each
        way of writing them (the many weights of a graph share a few)."""
        toks = self.toks
        start = self.i
        if toks[start] == "[":
            try:
                end = toks.index("]", start) + 1
            except ValueError:
                raise _Unsupported from None
            key: tuple[str, ...] = (elem, *toks[start:end])
        else:
            end = start
            key = (elem,)
        known = self.types.get(key)
        if known is None:
            known = _Typed(_element(elem), self.shape())
            if self.i != end:
                raise _Unsupported
            self.types[key] = known
        self.i = end
        return known

    def shape(self) -> list[int | str | None] | None:
        """The dims after an element type (a size, a symbol, None for ``?``); None without brackets (a scalar)."""
        toks = self.toks
        if toks[self.i] != "[":
            return None
        self.i += 1
        dims: list[int | str | None] = []
        if toks[self.i] == "]":  # `float[] x`: no shape (any rank)
            self.i += 1
            return dims
        while True:
            tok = toks[self.i]
            if tok[:1] in _IDENT_START:
                if not tok.isidentifier():  # a statement or values token
                    raise _Unsupported
                dims.append(tok)
            elif tok != "?":
                dims.append(_int(tok, 0))
            else:
                dims.append(None)
            self.i += 1
            if self.after_item("]"):
                return dims

    @staticmethod
    def write_type(vi: ValueInfoProto, dtype: DType, dims: list[int | str | None] | None) -> None:
        """A value's tensor type: a scalar has an empty shape, ``[]`` none."""
        _Reader.write_tensor_type(vi.type, dtype, dims)

    @staticmethod
    def write_tensor_type(proto: TypeProto, dtype: DType, dims: list[int | str | None] | None) -> None:
        """A tensor type: a scalar has an empty shape, ``[]`` none."""
        tt = proto.tensor_type
        tt.elem_type = dtype.code
        if dims is None:
            tt.shape.SetInParent()
            return
        if not dims:
            return
        shape = tt.shape
        for d in dims:
            dim = shape.dim.add()
            if isinstance(d, str):
                dim.dim_param = d
            elif d is not None:
                dim.dim_value = d

    def initializer_run(self, graph: GraphProto) -> None:
        """An initializers token (see ``direct_tokens``): the tensors' heads and names written as
        bytes and merged in one call, their numbers stored with the others at the end."""
        known = self.typed_texts
        lengths = _LENGTHS
        wire = []
        dtypes = []
        bodies = []
        sizes = []
        for elem, dims, name, body in initializer_values(self.toks[self.i]):
            typed = known.get((elem, dims)) or self.typed_text(elem, dims)
            if elem not in _TENSOR_TYPES:  # only number lists
                raise _Unsupported
            head = typed.tensor_head_text() + (
                _TENSOR_NAME + lengths[len(name)] + name if len(name) < 128 else _field(_TENSOR_NAME, name)
            )
            wire.append(_INITIALIZER + lengths[len(head)] + head if len(head) < 128 else _field(_INITIALIZER, head))
            dtypes.append(typed.dtype)
            bodies.append(body)
            sizes.append(typed.size)
        start = len(graph.initializer)
        graph.MergeFromString("".join(wire).encode("latin-1"))
        self.initializer_values.extend(zip(graph.initializer[start:], dtypes, bodies, strict=True))
        self.initializer_sizes.extend(sizes)
        self.i += 1

    def initializers(self, graph: GraphProto) -> None:
        if self.toks[self.i] == ">":
            self.i += 1
            return
        self.initializer_items(graph)

    def initializer_items(self, graph: GraphProto) -> None:
        """The initializers (and value infos) of a graph's ``<...>`` up to and past ``>``."""
        toks = self.toks
        while True:
            elem = self.ident()
            if toks[self.i] == "=" or toks[self.i] == "," or toks[self.i] == ">":  # a value info without a type
                raise _Unsupported
            typed = self.typed(elem)
            dtype, dims = typed.dtype, typed.dims
            name = self.value_name()
            notes = self.props(tensor=True) if toks[self.i] == "@{" else None
            target: TensorProto | ValueInfoProto
            if toks[self.i] == "=":
                self.i += 1
                # An initializer is never copied (an attribute's tensor may be): its values can come later.
                target = graph.initializer.add()
                if toks[self.i] == "[":
                    self.external(target, name, elem, dims)
                elif notes is not None and notes.raw is not None:  # its own encoding: encoded alone
                    dt = self.tensor_header(target, name, elem, dims)
                    if encode_number_text(target, dt, self.tensor_body(), raw=notes.raw):
                        raise _Unsupported  # errors and warnings are the reference path's to report
                else:
                    body = toks[self.i]
                    if elem not in _TENSOR_TYPES or len(body) < 2 or body[0] != "{":  # only number lists
                        raise _Unsupported
                    target.MergeFromString(typed.tensor_head())
                    target.name = name
                    self.i += 1
                    self.initializer_values.append((target, dtype, body[1:-1]))
                    self.initializer_sizes.append(typed.size)
            elif notes is not None and notes.raw is not None:
                raise _Unsupported  # an encoding without data
            else:
                target = graph.value_info.add()
                self.write_type(target, dtype, dims)
                target.name = name
            if notes is not None:
                notes.apply(target)
            if self.after_item(">"):
                return

    def tensor(self, t: TensorProto, name: str, elem: str, dims: list[int | str | None] | None) -> None:
        dtype = self.tensor_header(t, name, elem, dims)
        if encode_number_text(t, dtype, self.tensor_body(), raw=self.raw_tensors):
            raise _Unsupported  # errors and warnings are the reference path's to report

    def tensor_header(self, t: TensorProto, name: str, elem: str, dims: list[int | str | None] | None) -> DType:
        """A tensor's name, element type and dims (before its body); returns its element type."""
        body = self.toks[self.i]
        if elem not in _TENSOR_TYPES or len(body) < 2 or body[0] != "{":  # only number lists
            raise _Unsupported
        return _tensor_head(t, name, BY_NAME[elem], dims)

    def tensor_body(self) -> str:
        """The numbers between the braces of the body token (the lexer's number list: see ``direct_tokens``)."""
        body = self.toks[self.i][1:-1]
        self.i += 1
        if not number_body_ok(body):
            raise _Unsupported
        return body

    def external(self, t: TensorProto, name: str, elem: str, dims: list[int | str | None] | None) -> None:
        """``["location": "w.bin", "offset": "0", "length": "64"]``: where the tensor's data is."""
        dtype = BY_NAME.get(elem)
        if dtype is None or self.toks[self.i + 1] == "]":
            raise _Unsupported
        self.i += 1
        _tensor_head(t, name, dtype, dims)
        t.data_location = TensorProto.EXTERNAL
        while True:
            key, value = self.string_pair()
            if key == "digest" or key == "location" and location_problem(value) is not None:
                raise _Unsupported  # a digest view, or a path out of the folder: the reference path reports it
            t.external_data.add(key=key, value=value)
            if self.after_item("]"):
                return

    # ------------------------------------------------------------ nodes
    def node(self, proto: NodeProto) -> None:
        toks = self.toks
        if is_statement(toks[self.i]):
            self.statement_rest(proto)
            return
        if toks[self.i] == "[":  # a label: the node's name
            self.i += 1
            if toks[self.i] == "]":
                proto.name = ""
            else:
                proto.name = self.value_name()
                if toks[self.i] != "]":
                    raise _Unsupported
            self.i += 1
        while True:  # the outputs
            tok = toks[self.i]
            if is_statement(tok) and tok[0] != "[":  # the rest from a later output on (no second label)
                self.statement_rest(proto)
                return
            proto.output.append(self.value_name())
            if self.after_item("="):
                break
        op = self.ident()
        domain = ""
        while toks[self.i] == ".":
            self.i += 1
            domain = f"{domain}.{op}" if domain else op
            op = self.ident()
        if domain or not self.node_domain_unset:
            proto.domain = domain
        proto.op_type = op
        if toks[self.i] == ":":
            self.i += 1
            proto.overload = self.ident()
        before = toks[self.i] == "<"
        if before:
            self.attributes(proto)
        self.expect("(")
        if toks[self.i] == ")":
            self.i += 1
        else:
            self.names(proto.input, ")")
        after = toks[self.i]
        if after == "<" and not before:  # the attributes written after the inputs
            self.attributes(proto)
            after = toks[self.i]
        if after == "@{":
            self.props().apply(proto)
            after = toks[self.i]
        if after == "<" or after == "@{":  # attributes twice, or after the property block
            raise _Unsupported

    def statement_rest(self, proto: NodeProto) -> None:
        """A statement token and the property block after it, into ``proto`` (which may hold the
        label and the first outputs already: the token's fields are merged after them)."""
        toks = self.toks
        parts = statement_parts(toks[self.i : self.i + 1])
        if parts is None:
            raise _Unsupported
        self.i += 1
        proto.MergeFromString(self.statement(parts[0]).encode("latin-1"))
        after = toks[self.i]
        if after == "@{":
            self.props().apply(proto)
            after = toks[self.i]
        if after == "<" or after == "@{":  # attributes on the next line, or twice the property block
            raise _Unsupported

    def nodes(self, proto: GraphProto | FunctionProto, key: str) -> None:
        """The statements of a node list up to and past ``}``; ``key`` is the list's field (``direct_wire``).

        A run of statement tokens (see ``direct_tokens``) is split in one findall and written as
        the nodes' bytes, merged in one call; the last of a run, if its property block follows, and
        any other statement are read by :meth:`node`."""
        toks = self.toks
        container = proto.node
        while True:
            tok = toks[self.i]
            if tok == "}":
                self.i += 1
                return
            end = self.i
            while "(" in tok and len(tok) > 1 and tok[0] != '"' and tok[0] != "(":  # is_statement
                end += 1
                tok = toks[end]
            if tok == "@{":  # the last one's notes: that one is read alone
                end -= 1
            if end - self.i < 2:
                self.node_or_alone(container)
                continue
            parts = statement_parts(toks[self.i : end])
            if parts is None:
                raise _Unsupported
            wire = []
            try:
                for part in parts:
                    node = self.statement(part)
                    n = len(node)
                    wire.append(key + (_LENGTHS[n] if n < 128 else _length_text(n)) + node)
            except _Unsupported:  # one of them is not the fast path's: the run read a statement at a time
                while self.i < end:
                    self.node_or_alone(container)
                continue
            proto.MergeFromString("".join(wire).encode("latin-1"))
            self.i = end

    def node_or_alone(self, container: object) -> None:
        """The node statement at the next token, into a new node of ``container``: read here, or
        else (a model's graph or function: not in a subgraph, whose depth the statement alone would
        not have) by the reference path alone (:func:`_reference_node`)."""
        start, depth = self.i, self.depth
        jobs, sizes = len(self.initializer_values), len(self.initializer_sizes)
        try:
            self.node(container.add())  # type: ignore[attr-defined]
        except _Unsupported:
            if depth > 1 or self.alone >= _ALONE:
                raise
            del container[-1]  # type: ignore[attr-defined]
            self.depth = depth
            del self.initializer_values[jobs:], self.initializer_sizes[sizes:]  # a subgraph's, read in part
            end = _statement_end(self.toks, start)
            flags = (self.node_domain_unset, self.tensor_name_unset, self.raw_tensors)
            node = _reference_node(" ".join(self.toks[start:end]), *flags)
            self.alone += 1
            container.append(node)  # type: ignore[attr-defined]
            self.i = end

    def statement(self, parts: Parts) -> str:
        """A node statement's parts (see ``direct_tokens``) as its message's bytes (latin-1 text):
        what :meth:`node` reads of it token by token."""
        brackets, label, outputs, op, overload, before, inputs, after = parts
        wire = [_names_field(_OUTPUT, outputs)]
        if inputs:
            wire.append(_names_field(_INPUT, inputs))
        if brackets:
            wire.append(_field(_NAME, label[1:-1] if label[:1] == '"' else label))
        known = self.operators.get(op)
        if known is None:  # the domain and op_type fields, once for each operator
            dot = op.rfind(".")
            if dot >= 0:
                known = _field(_DOMAIN, op[:dot]) + _field(_OP_TYPE, op[dot + 1 :])
            else:
                known = ("" if self.node_domain_unset else _EMPTY_DOMAIN) + _field(_OP_TYPE, op)
            self.operators[op] = known
        wire.append(known)
        if overload:
            wire.append(_field(_OVERLOAD, overload))
        if before:
            if after:  # attributes twice
                raise _Unsupported
            wire.append(self.attribute_text(before))
        elif after:
            wire.append(self.attribute_text(after))
        return "".join(wire)

    def attribute_text(self, text: str) -> str:
        """The attribute fields of a node (latin-1 text) for a statement token's ``<text>``, read by
        :meth:`attributes` over its tokens (once for each text in this text, and kept for the next
        ones if short: see :func:`_attribute_text`)."""
        known = self.attribute_texts.get(text)
        if known is None:
            flags = (self.raw_tensors, self.tensor_name_unset)
            known = _attribute_text(text, *flags) if len(text) <= _KNOWN_TEXT else _read_attributes(text, *flags)
            self.attribute_texts[text] = known
        return known

    def attributes(self, proto: NodeProto) -> None:
        """``< name = value, ... >``; a list of plain values read before is copied, not read again."""
        toks = self.toks
        start = self.i + 1
        try:
            end = toks.index(">", start)
        except ValueError:
            raise _Unsupported from None
        key = tuple(toks[start:end])
        # Without a nested construct (subgraph, property block, typed list) the first '>' ends
        # the list, and the same tokens always read as the same attributes.
        plain = not ("(" in key or "<" in key or "{" in key or "@{" in key)
        if plain:
            known = self.known_attributes.get(key)
            if known is not None:
                proto.attribute.extend(known)
                self.i = end + 1
                return
        self.i = start
        while True:
            self.attribute(proto.attribute.add())
            if self.after_item(">"):
                break
        if plain and self.i == end + 1:
            self.known_attributes[key] = list(proto.attribute)

    def string_pair(self) -> tuple[str, str]:
        """``"key": "value"``."""
        toks = self.toks
        key = _text(toks[self.i])
        if toks[self.i + 1] != ":":
            raise _Unsupported
        value = _text(toks[self.i + 2])
        self.i += 3
        return key, value

    def after_item(self, close: str) -> bool:
        """Past the ``,`` or ``close`` after a list item; True at ``close`` (the end of the list)."""
        tok = self.toks[self.i]
        self.i += 1
        if tok == close:
            return True
        if tok != ",":
            raise _Unsupported
        return False

    def names(self, container: list[str], close: str) -> None:
        """Value names separated by commas, up to and past ``close``."""
        while True:
            container.append(self.value_name())
            if self.after_item(close):
                return

    def value_name(self) -> str:
        """A name in a node's inputs or outputs: a word or a quoted name (``""`` for a missing optional value)."""
        tok = self.toks[self.i]
        self.i += 1
        if tok.isidentifier():  # a word, not a statement or values token (direct_tokens)
            return tok
        return _string(tok)

    def attribute(self, a: AttributeProto) -> None:
        toks = self.toks
        a.name = self.ident()
        expected = want = 0
        if toks[self.i] == ":":
            self.i += 1
            word = self.ident()
            expected = _ANNOTATIONS.get(word, 0)
            if expected:
                a.type = expected  # type: ignore[assignment]
            else:  # `g: graph = ...`, `t: tensor = ...` (onnx's printer): the value must be one
                want = _VALUE_ANNOTATIONS.get(word, 0)
                if not want:  # sparse_tensor, graphs, ... annotations: the reference path
                    raise _Unsupported
                a.type = want  # type: ignore[assignment]
        self.expect("=")
        tok = toks[self.i]
        self.i += 1
        if tok == "@":  # a reference to an attribute of the enclosing function
            a.ref_attr_name = self.ident()
        elif tok == "[":
            if want:
                raise _Unsupported
            items: list[str] = []
            if toks[self.i] == "]" and expected:  # `name: ints = []`
                self.i += 1
            else:
                while True:
                    items.append(toks[self.i])
                    self.i += 1
                    if self.after_item("]"):
                        break
            self.attr_list(a, items, expected)
        elif expected:
            self.typed_single(a, tok, expected)
        elif tok[:1] == '"':
            a.type = AttributeProto.STRING
            a.s = _string(tok).encode("utf-8")
        elif _INT.match(tok) is not None:
            a.type = AttributeProto.INT
            a.i = _int(tok)
        elif tok in _TENSOR_TYPES and self.tensor_value_ahead():
            a.type = AttributeProto.TENSOR  # `float[2] {1, 2}`, `int64[1] name = {3}`, `float c {0.5}`
            dims = self.shape()
            name = ""
            named = toks[self.i][:1] in _IDENT_START or toks[self.i][:1] == '"'
            if named:
                name = self.value_name()
            explicit = toks[self.i : self.i + 5] == _NAME_UNSET  # `"" @{name: unset}`: no name field at all
            if explicit:
                self.i += 5
            unnamed = explicit or (not named and self.tensor_name_unset)  # so under the header's `tensor_name: unset`
            if toks[self.i] == "=":
                self.i += 1
            self.tensor(a.t, name, tok, dims)
            if unnamed:
                a.t.ClearField("name")
        elif (
            tok[:1] in _IDENT_START and tok not in _TYPE_KEYWORDS and (toks[self.i][:1] == "(" or toks[self.i] == "=>")
        ):
            a.type = AttributeProto.GRAPH  # a subgraph: `name (inputs) => (outputs) { nodes }`
            self.i -= 1
            self.graph(a.g)
        else:
            a.type = AttributeProto.FLOAT
            a.f = _float(tok)
        if want and a.type != want:  # not the annotated kind of value: the reference path says so
            raise _Unsupported

    def tensor_value_ahead(self) -> bool:
        """After an element type in an attribute value: a tensor follows (a shape, a body, or a name and then one)."""
        nxt, then = self.toks[self.i], self.toks[self.i + 1]
        if nxt == "[" or nxt[:1] == "{":
            return True
        return (nxt[:1] in _IDENT_START or nxt[:1] == '"') and (then == "=" or then[:1] == "{" or then == "@{")

    @staticmethod
    def typed_single(a: AttributeProto, tok: str, expected: int) -> None:
        """One value for an annotated attribute; an int where a float is declared is read as a float."""
        if expected == AttributeProto.FLOAT:
            a.f = _float(tok) if _INT.match(tok) is None else _int_as_float(tok)
        elif expected == AttributeProto.INT:
            a.i = _int(tok)
        elif expected == AttributeProto.STRING:
            a.s = _string(tok).encode("utf-8")
        else:  # a list type given one value
            raise _Unsupported

    @staticmethod
    def attr_list(a: AttributeProto, items: list[str], expected: int) -> None:
        if expected and expected not in (AttributeProto.STRINGS, AttributeProto.INTS, AttributeProto.FLOATS):
            raise _Unsupported  # a single-value type given a list
        if not items:
            if not expected:  # `[]` needs an annotation: the reference path says so
                raise _Unsupported
        elif expected == AttributeProto.STRINGS or (not expected and items[0][:1] == '"'):
            a.type = AttributeProto.STRINGS
            a.strings.extend([_string(s).encode("utf-8") for s in items])
        elif expected == AttributeProto.INTS or (not expected and all(_INT.match(s) is not None for s in items)):
            a.type = AttributeProto.INTS
            a.ints.extend([_int(s) for s in items])
        else:
            a.type = AttributeProto.FLOATS
            a.floats.extend([_float(s) if _INT.match(s) is None else _int_as_float(s) for s in items])


def _int_as_float(tok: str) -> float:
    """An integer in a float list: as the reference path reads it (parse_float32 of its text)."""
    _int(tok)  # hex and out-of-range integers go the reference way
    return _float(tok)
