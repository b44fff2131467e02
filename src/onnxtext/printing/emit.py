"""Protobuf → text without an AST per statement: the fast path of ``to_text``.

The reference printer lifts the whole message to an AST (``printing.lift``) and lays it
out (``syntax.printer``, ``syntax.layout``): about 80 µs per node statement. Here the
statements of the main graph and of the functions are written straight from the
protobuf when they print on one line, which is what almost every statement does:

* a node is serialized once; its first four fields (inputs, outputs, name, op_type, in
  that order on the wire) are measured from the strings, and the rest of its bytes (the
  *tail*: attributes, domain, overload and anything else) is the key of a cache. A tail
  is analysed once (parsed back, checked, its attributes printed by the reference path)
  and every node with the same attributes reuses the text; the op type's field and the tail
  key a *form* (the text around the names), and a statement of a known form is written as if
  its names were bare, its names held to that with many others' (one regex);
* names come from a cache of their canonical spelling (bare or quoted);
* the main graph's head is written from each value's one-line text: a value info's bytes
  after its name key its type's text; a plain float32 initializer is parsed from its own
  bytes and its numbers formatted with the others' (orjson, in batches), a big one laid
  out from orjson's text (``layout.lay_out_numbers``). Its lines are the layout's: the
  printer's document of a graph head (``printer.graph_head_doc``, ``signature_doc``) made of
  lists of those texts (``layout.Bracketed.of_items``; a value's document made only where its
  text does not fit its line: ``layout.Deferred``), laid out by ``layout.render`` (each list
  in one step).

A statement is written on its one line when that fits the width (its document,
``printer.statement_doc``, is a row of groups: the layout keeps them all flat exactly then);
else that document, made of the texts written here, is laid out by ``layout.render`` (in one
pass: a run), alone at its indentation, as the whole document would lay it out (a forced
line break follows a statement).

Everything else goes through the reference path piece by piece: the header, the
functions' signatures, other initializers, and every statement that holds a graph or
whose attributes this path does not write (laid out alone the same way). The printability
check is fused in: what is not written here is checked as ``check_printable`` checks it,
each distinct tail and value type when it is analysed, names, op types, notes and plain
initializers as they are read; whatever is refused makes the whole message go through the
reference path, which raises the error it always raises. The file-wide defaults
(``node_domain``, ``tensor_encoding``, ``tensor_name``) are guessed, counted while writing,
and the pass is made again in the rare case the guess was wrong.

``tests/test_fast_print.py`` asserts byte-identical text with the reference path on
every corpus.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from functools import partial
from itertools import repeat
from math import prod
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt
from google.protobuf.message import DecodeError

from onnxtext.ir.tensor.decode import float32_texts
from onnxtext.ir.tensor.float_text import float32_compact
from onnxtext.ir.tensor.literals import TYPED_FIELDS, NotRepresentable
from onnxtext.ir.varint import WireError, decode_varint, encode_varint, varint_size
from onnxtext.printing.lift import DefaultVotes, Lifter, other_votes, statement_votes
from onnxtext.printing.printable import check_printable
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto, TensorProto, ValueInfoProto
from onnxtext.span import NO_SPAN
from onnxtext.syntax import ast as A
from onnxtext.syntax import printer as statements
from onnxtext.syntax.layout import (
    DEFAULT_WIDTH,
    INDENT,
    Bracketed,
    Deferred,
    Doc,
    Known,
    lay_out_numbers,
    render,
    render_into,
)
from onnxtext.syntax.printer import Printer
from onnxtext.syntax.vocabulary import RESERVED_NAMES, is_identifier, name_text, string_text
from onnxtext.weights.external import attribute_tensors

__all__ = ["fast_text"]

_FLAT = 1 << 30  # a width nothing reaches: the flat text of a document
_HANDLED = frozenset({"attribute", "domain", "overload"})  # tail fields a one-line statement shows
_KEPT_TAIL = 4096  # bytes: longer tails are analysed each time they are met
_MARK = "\x01"  # a body's place in a statement's lines (text never holds it: control characters are escaped)


class _Decline(Exception):
    """The fast path does not take this message: the reference path prints it (or says why it cannot)."""


class _Tail:
    """A tail's analysis, and its votes for the file-wide defaults. When ``ok``, the statement is
    written here: the text before the op type (domain), after it (overload, then the
    attributes on one line), the attribute list's document (``attrs``; None when there are
    none), and the property block's entries' documents (``props``; None when there is none)
    with the block's one-line text (``props_flat``)."""

    __slots__ = (
        "ok",
        "nested",
        "notes",
        "before_op",
        "after_op",
        "overload",
        "attrs",
        "props",
        "props_flat",
        "prop_flats",
        "suffix",
        "votes",
    )

    def __init__(self, votes: DefaultVotes) -> None:
        self.ok = False
        self.nested = False  # it holds graphs: the statement's own lines by the reference path, their bodies here
        self.notes = False  # it holds metadata_props (a node's own are cut off its tail: see _Pass._notes)
        self.before_op = self.after_op = self.overload = self.props_flat = ""
        self.suffix = ""  # after the inputs on one line: " " and the property block
        self.attrs: Bracketed | None = None
        self.props: list[Doc] | None = None
        self.prop_flats: list[str] = []  # each entry's one-line text
        self.votes = votes


def _known(doc: Doc) -> tuple[str, Doc]:
    """The one-line text of a piece's document (an attribute, a property block's entry), and what a
    list of them is given: the document with its text (a list takes one made of texts alone as
    its text: ``layout.Bracketed``)."""
    text = render(doc, _FLAT)
    return text, text if type(doc) is str else Known(text, doc)


_MARKER = A.Word(NO_SPAN, _MARK)  # a statement that prints as the marker
_NOTES = "metadata_props: "  # a node's or value's notes: the property block entry's head


class _Names(dict[str, str]):
    """Canonical spellings of names (bare, or quoted), made on first use."""

    def __missing__(self, key: Any) -> str:
        if type(key) is not str:
            raise _Decline  # bytes that are not UTF-8: the check names the field
        text = self[key] = name_text(key) if key else '""'
        return text


class _Sizes(dict[str, int]):
    """Bytes a string takes as a length-delimited field of number < 16 (tag, length, UTF-8)."""

    def __missing__(self, key: Any) -> int:
        if type(key) is not str:
            raise _Decline
        n = len(key.encode("utf-8"))
        size = self[key] = 1 + varint_size(n) + n
        return size


_Message = ModelProto | GraphProto | FunctionProto


def _words(words: Collection[str]) -> str:
    """A regex matching any of ``words`` (as a trie: each alternative tried is the one after its first letters)."""
    heads: dict[str, list[str]] = {}
    for w in sorted(words):
        if w:
            heads.setdefault(w[0], []).append(w[1:])
    if not heads:
        return ""
    branches = [re.escape(head) + _words(tails) for head, tails in heads.items()]
    text = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{text})?" if "" in words else text


# Names joined by ", ", each a bare name (``name_text`` writes it as it is: an identifier that is no reserved word).
# A name's first letter is looked at before the reserved words are (most names begin with none of theirs).
_RESERVED_FIRST = re.escape(
    "".join(sorted({w[0].lower() for w in RESERVED_NAMES} | {w[0].upper() for w in RESERVED_NAMES}))
)
_RESERVED = _words({w.lower() for w in RESERVED_NAMES})
_BARE_NAME = rf"(?!(?=[{_RESERVED_FIRST}])(?i:{_RESERVED})(?:,|\Z))[A-Za-z_][A-Za-z0-9_]*"
_BARE_NAMES = re.compile(rf"{_BARE_NAME}(?:, {_BARE_NAME})*\Z")
# An item of a list of a graph's head: its one-line text (None when it has a line break) and its
# document, an item laying out its lines, or None: the list makes its document where the item does not fit its line.
_Item = tuple[str | None, "Doc | Deferred | None"]
_GRAPH_FIELDS = frozenset(("name", "input", "output", "value_info", "initializer", "node"))  # written by the graph head


def fast_text(msg: _Message, width: int = DEFAULT_WIDTH) -> str | None:
    """The text ``to_text`` gives for a model, graph or function (``width`` columns), or None
    when the reference path must print it (something to refuse, or nothing to gain)."""
    try:
        check_printable(msg, skip_nodes=True, skip_head=True)
    except NotRepresentable:
        return None
    names, sizes = _Names(), _Sizes()
    try:
        if not isinstance(msg, ModelProto):
            return _Pass(msg, width, names, sizes, Lifter(), DefaultVotes()).text()
        # The file-wide defaults: guessed from the votes outside the statements and the first
        # statements, then known from the pass; a wrong guess makes a second pass.
        others = other_votes(msg)
        votes = others.copy()
        head = msg.graph.node[:64]
        votes.nodes(head)
        for n in head:
            for a in n.attribute:
                votes.tensors_of(attribute_tensors(a, ""))
        for _ in range(2):
            guess = votes.defaults
            lifter = Lifter(node_domain_unset=guess[0], raw_tensors=guess[1], tensor_name_unset=guess[2])
            run = _Pass(msg, width, names, sizes, lifter, others)
            text = run.text()
            votes = run.votes
            if votes.defaults == guess:
                return text
        return None  # pragma: no cover - the second pass decides with the exact votes
    except (_Decline, NotRepresentable, DecodeError):
        return None


class _Pass:
    """One writing of a message with the file-wide defaults of ``lifter``."""

    def __init__(
        self, msg: _Message, width: int, names: _Names, sizes: _Sizes, lifter: Lifter, others: DefaultVotes
    ) -> None:
        self.msg = msg
        self.width = width
        self.names = names
        self.sizes = sizes
        self.lifter = lifter
        self.printer = Printer(None, width)
        self.tails: dict[bytes, _Tail] = {}
        # A statement's text after its outputs and after its inputs, and its tail, by the bytes of its
        # op type's field and its tail (a tail analysed, nothing cut off).
        self.forms: dict[bytes, tuple[str, str, _Tail]] = {}
        self.ops: dict[str, bytes] = {}
        self.attributes: dict[bytes, tuple[str, Doc]] = {}  # an attribute's one-line text and document by its bytes
        self.note_keys: dict[str, str] = {}  # a metadata key's text, with its ": "
        self.note_values: dict[str, str] = {}  # a metadata value's text
        self.shapes: dict[bytes, _Shape] = {}  # a float32 tensor's shape by its dims' bytes
        self.types: dict[bytes, str] = {}  # a value's type text by the bytes after its name ("": lifted)
        self.used: list[_Tail] = []  # the tail of every statement written, for the votes
        self.votes = others.copy()  # and those outside the statements

    # ------------------------------------------------------------ the message
    def text(self) -> str:
        msg, lifter, printer, width = self.msg, self.lifter, self.printer, self.width
        parts: list[str] = []
        if isinstance(msg, ModelProto):
            header = lifter.model_header(msg)
            if header is not None:
                parts += [render(printer.doc(header), width), "\n"]
            self._graph(msg.graph, "graph", parts)
            for i, f in enumerate(msg.functions):
                parts += ["\n\n", self._function(f, f"functions[{i}]")]
            for tail, times in Counter(self.used).items():
                self.votes.add(tail.votes, times)
        elif isinstance(msg, GraphProto):
            self._graph(msg, "graph", parts)
        else:
            parts.append(self._function(msg, "function"))
        parts.append("\n")
        return "".join(parts)

    def _graph(self, g: GraphProto, where: str, parts: list[str]) -> None:
        """The graph's text, added to ``parts`` (a big tensor's text is copied once: into the whole text)."""
        head = self._graph_head(g, where)
        if head is None:
            check_printable(g, skip_nodes=True)  # the values the head would have checked
            head = [render(self.printer.graph_head(self.lifter.graph(g, where, nodes=False)), self.width)]
        parts += head
        parts += ["\n", self._body(g.node, where)]

    # ------------------------------------------------------------ a graph's head
    def _graph_head(self, g: GraphProto, where: str) -> list[str] | None:
        """A main graph's name, signature and initializers: the layout's document of them
        (``printer.graph_head_doc``) made of each value's one-line text (a value info's type text
        made once per type), a value's document made only where its text does not fit its line;
        or None when the reference path must lay it out (an unset name, an output that must
        break): the pieces of its text."""
        if not g.HasField("name"):
            return None
        lifter = self.lifter
        inputs = self._value_items(g.input, f"{where}/input")
        outputs = self._value_items(g.output, f"{where}/output")
        if any(flat is None for flat, _ in outputs):
            return None  # ``) => (`` then the outputs: the reference path's
        extra = [fd.name for fd, _ in g.ListFields() if fd.name not in _GRAPH_FIELDS]
        props = None
        if extra:
            block = lifter.props_for(g, extra, where)
            assert block is not None
            props = self.printer.doc(block)
        inits = self._value_items(g.value_info, f"{where}/value_info")
        small, big = self._plain_float_tensors(g.initializer)
        at = f"{where}/initializer"
        value_docs, infos = self._value_docs(g.value_info, f"{where}/value_info"), len(inits)

        def init_docs(k: int) -> Doc:
            if k < infos:
                return value_docs(k)
            return self.printer.doc(self.lifter.initializer(g.initializer[k - infos], f"{at}[{k - infos}]"))

        written = [i for i, values in big.items() if 3 * values.size - 2 > self.width]  # never on one line
        numbers = _CompactNumbers([big[i] for i in written])
        order = {i: k for k, i in enumerate(written)}
        tensors = g.initializer
        if len(small) == len(tensors):  # all one-liners (in order: made by index)
            inits += zip(small.values(), repeat(None))
            tensors = ()
        for i in range(len(tensors)):  # the tensor itself only when it is not a one-liner
            one_line = small.get(i)
            if one_line is not None:
                inits.append((one_line, None))
                continue
            t = tensors[i]
            k = order.get(i)
            if k is not None:
                inits.append((None, _BigFloats(t, self.names[t.name], numbers, k, partial(init_docs, infos + i))))
            else:
                check_printable(t)
                inits.append(self._initializer_item(t, f"{at}[{i}]"))
        doc = statements.graph_head_doc(  # the printer's, looked up: the one definition
            props,
            self.names[g.name],
            self._list("(", inputs, ")", self._value_docs(g.input, f"{where}/input")),
            self._list("(", outputs, ")", self._value_docs(g.output, f"{where}/output")),
            self._list("<", inits, ">", init_docs) if inits else None,
        )
        out: list[str] = []
        render_into(out, doc, self.width)
        return out

    def _list(self, open_: str, items: list[_Item], close: str, later: Callable[[int], Doc]) -> Doc:
        """A list of a graph's head for the layout (laid out in one step): its items' one-line texts,
        each text's document made where it does not fit its line (``later(k)``: item k's), or the
        item's own (a document made already, or an item laying out its lines)."""
        if not items:
            return open_ + close
        # An item without a document has a text (``_Item``).
        flats: list[str] = list(map(itemgetter(0), items))  # type: ignore[arg-type]
        docs = list(map(itemgetter(1), items))
        if docs.count(None) == len(docs):  # texts alone (the common case: no item looked at one by one)
            return Bracketed.of_texts(open_, flats, close, later)
        listed = [
            flat if doc is None else doc if isinstance(doc, Deferred) else Deferred(flat, _made(doc))
            for flat, doc in zip(flats, docs, strict=True)
        ]
        return Bracketed.of_items(open_, listed, close, later)

    def _plain_float_tensors(
        self, tensors: Sequence[TensorProto]
    ) -> tuple[dict[int, str], dict[int, npt.NDArray[np.float32]]]:
        """The float32 initializers printed without a property block (named, stored as the file-wide
        encoding says, values as many as the shape's, none NaN or infinite, and nothing else), by
        index in ``tensors``: the one-line texts of the small ones, their numbers made together
        (:func:`float32_texts`), and the values of the others (each written alone: :class:`_BigFloats`).

        Each is read from its bytes, which must be its dims, data type, numbers and name and
        nothing else (no unknown field either): the upb containers would be read value by value."""
        raw_default = self.lifter.raw_tensors
        match, shapes = (_RAW_FLOAT if raw_default else _TYPED_FLOAT).match, self.shapes
        small: list[tuple[int, bytes, str]] = []  # (index, name, type text) of each small one
        counts: list[int] = []
        chunks: list[bytes] = []  # their numbers, little-endian float32, one after the other
        big: dict[int, npt.NDArray[np.float32]] = {}
        last: tuple[bytes, _Shape] = (b"\xff", ())  # the bytes before the last tensor's numbers (or name), its shape
        # A small typed one's bytes up to its numbers (their length field included), when the one before
        # was written so: the same bytes mean the same shape, and the numbers are followed by the name.
        quick, quick_shape = b"\xff", (0, 0, b"", "")
        for i, wire in enumerate(map(TensorProto.SerializeToString, tensors)):
            if wire.startswith(quick):
                n, size, _, head = quick_shape
                data = len(quick)
                at = data + size  # the name's tag, its length (one byte: fewer than 128), the name
                if len(wire) > at + 1 and wire[at] == 0x42 and wire[at + 1] == len(wire) - at - 2:
                    small.append((i, wire[at + 2 :], head))
                    counts.append(n)
                    chunks.append(wire[data:at])
                    continue
            if wire.startswith(last[0]):  # the shape of the tensor before (no regex)
                shape, at = last[1], len(last[0])
            else:
                m = match(wire)
                if m is None:
                    continue
                dims_wire = m[1]
                known = shapes.get(dims_wire)
                shape = shapes[dims_wire] = _shape(dims_wire) if known is None else known
                at = m.end()
                last = (wire[:at], shape)
            if not shape:
                continue
            n, size, lead, head = shape
            end = len(wire)
            try:
                if raw_default:  # name, then raw_data
                    length = wire[at]
                    at += 1
                    if length >= 0x80:
                        length, at = decode_varint(wire, at - 1, end)  # type: ignore[arg-type]
                    name, at = wire[at : at + length], at + length
                    if wire[at] != 0x4A or not wire.startswith(lead, at + 1) or at + 1 + len(lead) + size != end:
                        continue
                    data = at + 1 + len(lead)  # where the numbers start
                else:  # float_data, then name
                    if not wire.startswith(lead, at):
                        continue
                    at += len(lead)
                    data, at = at, at + size
                    length = wire[at + 1]
                    if wire[at] != 0x42:
                        continue
                    at += 2
                    if length >= 0x80:
                        length, at = decode_varint(wire, at - 1, end)  # type: ignore[arg-type]
                    name = wire[at:end]
                    if len(name) != length:
                        continue
            except (IndexError, WireError):
                continue
            if n > _SMALL:
                values = np.frombuffer(wire, dtype="<f4", count=n, offset=data)  # not copied out of its bytes
                if not ((values.view(np.uint32) & 0x7F800000) == 0x7F800000).any():
                    big[i] = values.astype(np.float32, copy=False)
                continue
            small.append((i, name, head))
            counts.append(n)
            chunks.append(wire[data : data + size])
            if not raw_default:
                quick, quick_shape = wire[:data], (n, size, lead, head)
        out: dict[int, str] = {}
        if small:
            texts = float32_texts(np.frombuffer(b"".join(chunks), dtype="<f4").astype(np.float32), counts)
            if texts is None:
                return out, big
            indexes, raw_names, heads = zip(*small, strict=True)
            try:  # ", " cannot complete a character: the whole decodes when each name does
                joined = b", ".join(raw_names).decode("utf-8")
            except UnicodeDecodeError:
                return out, big  # the check says which (each one goes the reference way)
            if _BARE_NAMES.match(joined) and joined.count(",") == len(raw_names) - 1:
                names = joined.split(", ")
            else:
                names = [self.names[name.decode("utf-8")] for name in raw_names]
            out = dict(zip(indexes, map("{}{} = {{{}}}".format, heads, names, texts), strict=True))
        return out, big

    def _value_items(self, values: Sequence[Any], where: str) -> list[_Item]:
        """The items of a graph's inputs, outputs or value infos (``where``): a value with a name and
        a type and nothing else is its type's one-line text (made and checked once per distinct
        bytes after the name: the type, and any field that follows it) and its name; any other
        is checked and lifted."""
        names = [v.name for v in values]
        try:
            joined = ", ".join(names)
        except TypeError:  # bytes that are not UTF-8: the check names the field
            raise _Decline from None
        # Names that are all bare are their own text (one regex for all); else name by name.
        texts = names if _BARE_NAMES.match(joined) and joined.count(",") == len(names) - 1 else None
        wires = list(map(ValueInfoProto.SerializeToString, values))
        if texts is None or len(joined) > 0x7F and len(max(names, key=len)) > 0x7F:
            return [self._value_item(i, wire, values, names, texts, where) for i, wire in enumerate(wires)]
        # Bare names (ASCII, set, shorter than 128 bytes) are first on the wire: (tag, length, name),
        # then the bytes that key the type's text. Values of a known type are made together (in C),
        # the others one by one (the first of each new type makes its text for the rest).
        types = self.types
        rests = list(map(bytes.__getitem__, wires, map(slice, map((2).__add__, map(len, names)), repeat(None))))
        type_texts = list(map(types.get, rests))
        if not all(type_texts):
            firsts = dict(zip(reversed(rests), range(len(rests) - 1, -1, -1), strict=True))  # each one's first index
            for rest, i in firsts.items():
                if types.get(rest) is None:
                    self._value_item(i, wires[i], values, names, texts, where)
            type_texts = list(map(types.get, rests))
        items: list[_Item] = list(zip(map("{} {}".format, type_texts, texts), repeat(None)))
        if not all(type_texts):
            for i, t in enumerate(type_texts):
                if not t:
                    items[i] = self._value_item(i, wires[i], values, names, texts, where)
        return items

    def _value_item(
        self,
        i: int,
        wire: bytes,
        values: Sequence[Any],
        names: list[str],
        texts: list[str] | None,
        where: str,
    ) -> _Item:
        """Item ``i`` of :meth:`_value_items` (``texts``: the names' texts when all are bare)."""
        if wire[:1] == b"\n":  # the name is set: its field is first on the wire
            # A name of fewer than 128 bytes: (tag, length, name); else as long as measured.
            rest = wire[wire[1] + 2 :] if wire[1] < 0x80 else wire[self.sizes[names[i]] :]
            types = self.types
            type_text = types.get(rest)
            if type_text and texts is not None:  # the common case: a known type, a bare name
                return f"{type_text} {texts[i]}", None
            v, name = values[i], names[i]
            notes = None
            if type_text is None:
                if len(v.metadata_props):
                    # The value's notes (last on the wire) are written here, its type keyed without them.
                    cut, notes = self._notes(v.metadata_props)
                    if cut:
                        rest = rest[:-cut]
                        type_text = types.get(rest)
                if type_text is None:
                    type_text = self._type_text(rest, where)
            if type_text:
                text = f"{type_text} {texts[i] if texts is not None else self.names[name]}"
                if notes is None:
                    return text, None
                flat = Bracketed.flat_of("@{", [_NOTES + Bracketed.flat_of("[", notes, "]")], "}")
                flat = f"{text} {flat}"
                return flat, _Noted(flat, text, notes, partial(self._value_docs(values, where), i))
        v = values[i]
        check_printable(v)
        doc = self.printer.doc(self.lifter.value_info(v, f"{where}[{i}]"))
        flat = render(doc, _FLAT)
        return (None if "\n" in flat else flat), doc

    def _type_text(self, rest: bytes, where: str) -> str:
        """The one-line text of the type of a value info whose bytes after its name are ``rest``,
        or "" when that is more than a type or the type's text breaks (``where``: for errors)."""
        info = ValueInfoProto.FromString(rest)
        check_printable(info)  # unknown fields, strings that are not UTF-8
        text = ""
        if [fd.name for fd, _ in info.ListFields()] == ["type"]:
            type_, extra = self.lifter.type(info.type, where)
            if extra is None:
                text = render(self.printer.doc(type_), _FLAT)
                if "\n" in text:
                    text = ""
        self.types[rest] = text
        return text

    def _value_docs(self, values: Sequence[Any], where: str) -> Callable[[int], Doc]:
        """The document of value ``k`` of ``values`` (made when an item needs it)."""
        return lambda k: self.printer.doc(self.lifter.value_info(values[k], f"{where}[{k}]"))

    def _initializer_item(self, t: Any, where: str) -> _Item:
        doc = self.printer.doc(self.lifter.initializer(t, where))
        # Each stored value takes a column and a ", " at least (a raw element 16 bytes at most): a
        # tensor whose values cannot fit a line is not laid out on one first.
        stored = len(t.raw_data) // 16 + sum(len(getattr(t, f)) for f in TYPED_FIELDS)
        if 3 * stored - 2 > self.width:
            return None, doc
        flat = render(doc, _FLAT)
        return (None if "\n" in flat else flat), doc

    def _function(self, f: FunctionProto, where: str) -> str:
        head = self.printer.function_head(self.lifter.function(f, where, nodes=False))
        return render(head, self.width) + "\n" + self._body(f.node, where)

    # ------------------------------------------------------------ statements
    def _body(self, nodes: Sequence[NodeProto], where: str) -> str:
        """``{``, a statement per line one unit in, ``}``."""
        return "\n".join(["{", *self._statements(nodes, where, INDENT, True), "}"])

    def _statements(
        self, nodes: Sequence[NodeProto], where: str, ind: str, count: bool, first: int = 0, trust: bool = True
    ) -> list[str]:
        """The lines of ``nodes`` (the first is node ``first`` of its graph), ``ind`` in (their votes
        counted unless they are in a graph below a statement, whose votes hold them).

        A statement of a known form (its op type and tail bytes met before) whose names are short
        (fewer than 128 characters joined) is written as if its names were bare, and its names are
        held to that afterwards, for all such statements at once (one regex); the statements whose
        names are not are written again (``trust`` False: each statement's names checked first)."""
        width = self.width
        names, sizes, ops, tails, used = self.names, self.sizes, self.ops, self.tails, self.used
        get_name, get_size = names.__getitem__, sizes.__getitem__
        bare = _BARE_NAMES.match
        lines: list[str] = []
        if not count:
            used = []  # not kept
        forms, trusting, batch = self.forms, trust, _FIRST_TRUSTED
        # (the names joined, how many, the line's index, the node's index, its tail) of each line
        # written before its names were checked
        trusted: list[tuple[str, int, int, int, _Tail]] = []
        for i, n in enumerate(nodes, first):
            wire = n.SerializeToString()
            name = n.name
            outs, ins = n.output[:], n.input[:]  # lists: joined in C (the containers iterate item by item)
            try:
                jo, ji = ", ".join(outs), ", ".join(ins)
            except TypeError:  # bytes that are not UTF-8: the check names the field
                raise _Decline from None
            # Names that are all bare are their own text: one regex for the node's names (the commas
            # counted: a name holding ", " is no list), else one for each list, else name by name.
            every = f"{name}, {jo}, {ji}" if name else f"{jo}, {ji}"
            if trusting and jo and ji and len(every) < 128:
                # Bare names are ASCII: (tag, length, text) each on the wire, then the op type's field.
                form = forms.get(wire[len(every) + 2 :] if name else wire[len(jo) + len(ji) + 4 :])
                if form is not None:
                    line = f"{ind}[{name}] {jo}{form[0]}{ji}{form[1]}" if name else f"{ind}{jo}{form[0]}{ji}{form[1]}"
                    if len(line) <= width:
                        trusted.append((every, len(outs) + len(ins) + bool(name), len(lines), i, form[2]))
                        lines.append(line)
                        if len(trusted) == batch:
                            # Names not bare in more than one statement in 8: each statement checked first from now on.
                            trusting = self._settle(trusted, nodes, first, lines, where, ind, used) * 8 <= batch
                            batch = _TRUSTED
                        continue
            if jo and ji and bare(every) and every.count(",") == len(outs) + len(ins) - (not name):
                end = len(jo) + len(ji) + 4  # (tag, length, text) each, when shorter than 128
                if len(jo) > 127 or len(ji) > 127:
                    end = sum(map(get_size, outs)) + sum(map(get_size, ins))
                if name:
                    end += len(name) + 2 if len(name) < 128 else get_size(name)
                    label = "[" + name + "] "
                else:
                    label = ""
                op = n.op_type
                key = ops.get(op)
                if key is None:
                    key = self._op_key(op)
                end += len(key)
                if not name:
                    # unset, unless its op type is two bytes further (an empty name's tag and length)
                    label = ""
                    if not wire.startswith(key, end - len(key)) and n.HasField("name"):
                        end, label = end + 2, "[] "
            else:
                if i == first:
                    trusting = False  # the first statement's names are not bare: nor are the others', likely
                op = n.op_type
                key = ops.get(op)
                if key is None:
                    key = self._op_key(op)
                if not (bare(jo) and jo.count(",") == len(outs) - 1):
                    jo = ", ".join(map(get_name, outs))
                if not (bare(ji) and ji.count(",") == len(ins) - 1):
                    ji = ", ".join(map(get_name, ins))
                if '"' in jo or '"' in ji or len(jo) > 127 or len(ji) > 127:
                    # A quoted or long name: its wire size is not its text's.
                    end = sum(map(get_size, outs)) + sum(map(get_size, ins)) + len(key)
                else:
                    end = (len(jo) + 2 if jo else 0) + (len(ji) + 2 if ji else 0) + len(key)
                if name:
                    # A bare name is its own text; a quoted one is measured.
                    if len(name) < 128 and type(name) is str and bare(name):
                        end += len(name) + 2
                        label = "[" + name + "] "
                    else:
                        end += get_size(name)
                        label = "[" + names[name] + "] "
                elif n.HasField("name"):
                    end += 2
                    label = "[] "
                else:
                    label = ""
            tail = notes = None
            if key and wire.startswith(key, end - len(key)):
                rest = wire[end:]
                tail = tails.get(rest)
                if tail is None:
                    if len(n.metadata_props):
                        # The node's notes (last on the wire) are written here, its tail keyed without them.
                        if not len(n.device_configurations):  # nothing follows the notes
                            cut, notes = self._notes(n.metadata_props)
                            if cut:
                                rest = rest[:-cut]
                                tail = tails.get(rest)
                    if tail is None:
                        tail = self._tail(rest)
                    if notes is not None and tail.notes:
                        raise _Decline  # more after the notes than the notes (unknown fields): not the bytes cut
            if tail is not None and tail.ok:
                suffix = tail.suffix
                if notes is not None:
                    noted = _NOTES + Bracketed.flat_of("[", notes, "]")
                    suffix = " " + Bracketed.flat_of("@{", [*tail.prop_flats, noted], "}")
                elif trusting and jo and len(wire) - end <= _KEPT_TAIL:  # the op type's field and the tail: a form
                    known = wire[end - len(key) :]
                    if known not in forms:
                        forms[known] = (f" = {tail.before_op}{op}{tail.after_op} (", f"){suffix}", tail)
                line = f"{ind}{label}{jo + ' = ' if jo else '= '}{tail.before_op}{op}{tail.after_op} ({ji}){suffix}"
                if len(line) <= width:
                    lines.append(line)
                    used.append(tail)
                    continue
                lines.append(self._broken(label, outs, tail, op, ins, ind, notes))
                used.append(tail)
                continue
            if tail is not None and tail.nested:
                lines.append(self._nested(n, f"{where}/node[{i}]", ind))
                used.append(tail)
                continue
            lines.append(self._statement(n, f"{where}/node[{i}]", ind, checked=tail is not None))
            if tail is not None:
                used.append(tail)
            elif count:
                self.votes.add(statement_votes(n))
        self._settle(trusted, nodes, first, lines, where, ind, used)
        return lines

    def _settle(
        self,
        trusted: list[tuple[str, int, int, int, _Tail]],
        nodes: Sequence[NodeProto],
        first: int,
        lines: list[str],
        where: str,
        ind: str,
        used: list[_Tail],
    ) -> int:
        """Hold the names of the statements :meth:`_statements` wrote as bare to it (one regex for
        all), write again those whose names are not (their lines replaced), and empty ``trusted``;
        how many were written again."""
        if not trusted:
            return 0
        bare = _BARE_NAMES.match
        joined = ", ".join([entry[0] for entry in trusted])
        again = 0
        if bare(joined) and joined.count(",") == sum([entry[1] for entry in trusted]) - 1:
            used += [entry[4] for entry in trusted]
        else:
            count = used is self.used
            for every, k, at, i, tail in trusted:
                if bare(every) and every.count(",") == k - 1:
                    used.append(tail)
                else:
                    (lines[at],) = self._statements([nodes[i - first]], where, ind, count, i, trust=False)
                    again += 1
        trusted.clear()
        return again

    def _notes(self, notes: Sequence[Any]) -> tuple[int, list[str] | None]:
        """The bytes of a node's or value's ``metadata_props`` on its wire (one-byte tags) and the
        one-line texts of their items (``"key": "value"``), when each entry is a key and a value
        (strings) and nothing else; else ``(0, None)``."""
        total = 0
        keys, values = self.note_keys, self.note_values
        items = []
        for e in notes:
            key, value = e.key, e.value
            if type(key) is not str or type(value) is not str:
                return 0, None
            k, v = (
                len(key) if key.isascii() else len(key.encode()),
                len(value) if value.isascii() else len(value.encode()),
            )
            size = 2 + varint_size(k) + k + varint_size(v) + v  # key (1) and value (2): one-byte tags
            if e.ByteSize() != size:
                return 0, None  # a field missing, or one more: the reference path writes it
            total += 1 + varint_size(size) + size
            text = keys.get(key)
            if text is None:
                text = keys[key] = string_text(key) + ": "
            literal = values.get(value)  # the exporters repeat them (class hierarchies, stack traces)
            if literal is None:
                literal = values[value] = string_text(value)
            items.append(text + literal)
        return total, items  # the entry's value's items

    def _op_key(self, op: str) -> bytes:
        """The wire bytes of ``op_type`` (field 4) when it is written bare, else ``b""``."""
        if type(op) is not str:
            raise _Decline
        raw = op.encode("utf-8")
        key = b'"' + bytes([len(raw)]) + raw if op and is_identifier(op) and len(raw) < 0x80 else b""
        self.ops[op] = key
        return key

    def _statement(self, n: NodeProto, where: str, ind: str, checked: bool = False) -> str:
        """A statement through the reference path, laid out for the width its indentation leaves
        (``checked``: its tail was, and its names and op type were read)."""
        if not checked:
            check_printable(n)  # refused: the reference path says why, with the whole path
        return self._statement_text(self.lifter.node(n, where), ind)

    def _statement_text(self, tree: A.Node, ind: str) -> str:
        return self._laid(self.printer.doc(tree), ind)

    def _laid(self, doc: Doc, ind: str) -> str:
        """A statement's document laid out ``ind`` in, alone (a forced line break follows a
        statement, so nothing after it changes its lines)."""
        level, odd = divmod(len(ind), len(INDENT))
        if not odd:
            return render(doc, self.width, level=level)
        text = render(doc, self.width - len(ind))
        return "\n".join(ind + line if line else line for line in text.split("\n"))

    def _broken(
        self, label: str, outputs: list[str], tail: _Tail, op: str, inputs: list[str], ind: str, notes: list[str] | None
    ) -> str:
        """A statement whose one-line text does not fit its line, laid out from its document
        (:func:`statement_doc`, the printer's) made of the texts written here (``notes``: the
        items of its own ``metadata_props``)."""
        names = self.names
        props = tail.props
        if notes is not None:
            noted: list[Doc] = [_NOTES, Bracketed.of_texts("[", notes, "]")]
            props = [*props, noted] if props else [noted]
        doc = statements.statement_doc(  # the printer's, looked up: the one definition
            label[1:-2] if label else None,  # "[name] " (or "[] ")
            [names[o] for o in outputs],
            f"{tail.before_op}{op}{tail.overload}",
            tail.attrs,
            Bracketed.of_texts("(", [names[i] for i in inputs], ")") if len(inputs) else "()",
            Bracketed("@{", props, "}") if props is not None else None,
        )
        return self._laid(doc, ind)

    def _nested(self, n: NodeProto, where: str, ind: str) -> str:
        """A statement holding graphs: its own lines through the reference path (the graphs lifted
        without their statements, a marker line in each body), each body's statements here."""
        lifter = self.lifter
        graphs: list[tuple[A.Graph, GraphProto, str]] = []
        lifter.shallow = graphs
        try:
            tree = lifter.node(n, where)
        finally:
            lifter.shallow = None
        bodies = []
        for graph, proto, at in graphs:
            if len(proto.node):
                graph.nodes = [_MARKER]  # type: ignore[list-item]  # printed as its text
                bodies.append((proto, at))
        text = self._statement_text(tree, ind)
        if not bodies:
            return text
        out = []
        for line in text.split("\n"):
            if line.endswith(_MARK):
                proto, at = bodies.pop(0)
                out += self._statements(proto.node, at, line[: -len(_MARK)], False)
            else:
                out.append(line)
        return "\n".join(out)

    def _tail(self, rest: bytes) -> _Tail:
        """Analyse the fields of a node after ``op_type`` (cached by their bytes)."""
        t = NodeProto.FromString(rest)
        if len(t.input) or len(t.output) or t.HasField("name") or t.HasField("op_type"):
            raise _Decline  # not the wire order measured: nothing here is to be trusted
        check_printable(t)  # unknown fields and non-UTF-8 strings of the attributes
        tail = _Tail(statement_votes(t))
        tail.notes = len(t.metadata_props) > 0
        if len(rest) <= _KEPT_TAIL:  # a Constant's big tensor is not kept twice in memory
            self.tails[rest] = tail
        extra = [fd.name for fd, _ in t.ListFields() if fd.name not in _HANDLED]  # doc_string, metadata...
        domain = t.domain
        if domain:
            parts = domain.split(".")
            if not all(is_identifier(p) for p in parts):
                return tail
            before = domain + "."
        elif t.HasField("domain") == self.lifter.node_domain_unset:
            return tail  # the rarer of set-to-empty and unset: a property block
        else:
            before = ""
        after = ""
        if t.HasField("overload"):
            if not is_identifier(t.overload):
                return tail
            after = ":" + t.overload
        tail.overload = after
        if len(t.attribute):
            texts, docs = [], []
            if any(a.HasField("g") or len(a.graphs) for a in t.attribute):
                tail.nested = True
                return tail
            known = self.attributes
            for a in t.attribute:
                if a.ByteSize() > 4 * self.width:
                    return tail  # longer than a line: no value's text is shorter than a quarter of its bytes
                key = a.SerializeToString()
                known_doc = known.get(key)
                if known_doc is None:
                    known_doc = known[key] = _known(self.printer.doc(self.lifter.attribute(a, "")))
                text, doc = known_doc
                if "\n" in text:
                    return tail
                texts.append(text)
                docs.append(doc)
            tail.attrs = Bracketed("<", docs, ">")
            after += " " + Bracketed.flat_of("<", texts, ">")
        if extra:
            # The property block the reference path writes for them (nothing else goes there:
            # domain, op type and overload are written bare).
            props = self.lifter.props_for(t, extra, "")
            if props is None or not props.entries:
                return tail
            entries = [_known(self.printer.doc(e)) for e in props.entries]
            if any("\n" in text for text, _ in entries):
                return tail
            tail.props, tail.prop_flats = [doc for _, doc in entries], [text for text, _ in entries]
            tail.props_flat = Bracketed.flat_of("@{", tail.prop_flats, "}")
            tail.suffix = " " + tail.props_flat
        tail.ok, tail.before_op, tail.after_op = True, before, after
        return tail


_SMALL = 256  # elements: a bigger tensor is formatted on its own
# Statements written as if their names were bare, then checked together: the first few, then more.
_FIRST_TRUSTED, _TRUSTED = 16, 512
# The bytes of a float32 tensor up to its numbers (float_data, field 4) or its name (field 8, then
# raw_data): dims (each a varint), data type 1.
_TYPED_FLOAT = re.compile(rb"((?:\x08[\x80-\xff]{0,9}[\x00-\x7f])*)\x10\x01\x22")
_RAW_FLOAT = re.compile(rb"((?:\x08[\x80-\xff]{0,9}[\x00-\x7f])*)\x10\x01B")


# A float32 tensor's element count, its numbers' size in bytes and their length field, and
# ``float[dims] ``; empty for dims that are not all positive.
_Shape = tuple[int, int, bytes, str] | tuple[()]


def _shape(dims_wire: bytes) -> _Shape:
    """The :data:`_Shape` of a float32 tensor whose ``dims`` fields are ``dims_wire``."""
    dims = dims_wire[1::2] if dims_wire.isascii() else _dims(dims_wire)  # ASCII: (tag, value) each
    if min(dims, default=1) <= 0:
        return ()
    n = prod(dims)
    head = f"float[{', '.join(map(str, dims))}] " if dims else "float "
    return n, 4 * n, encode_varint(4 * n), head


def _dims(wire: bytes) -> list[int]:
    """The dims of a tensor from the bytes of its ``dims`` fields (int64: two's complement)."""
    dims = []
    at = 0
    while at < len(wire):
        value, at = decode_varint(wire, at + 1, len(wire))  # type: ignore[arg-type]
        dims.append(value - (1 << 64) if value >= 1 << 63 else value)
    return dims


def _made(doc: Doc) -> Callable[[], Doc]:
    """A maker of a document made already."""
    return lambda: doc


class _Noted(Deferred):
    """A value info with notes (``metadata_props``): its type and name, then its property block. Its
    document is made of their texts when they fit the line (the type's dims are a group measured
    alone: it is its text wherever that fits), else lifted."""

    __slots__ = ("head", "notes")

    def __init__(self, text: str, head: str, notes: list[str], make: Callable[[], Doc]) -> None:
        super().__init__(text, make)
        self.head, self.notes = head, notes

    def lay_out(self, out: list[str], ind: int, comma: str, width: int, unit: int) -> None:
        if ind + len(self.head) > width:
            super().lay_out(out, ind, comma, width, unit)
            return
        block = Bracketed("@{", [[_NOTES, Bracketed.of_texts("[", self.notes, "]")]], "}")
        Deferred(None, _made([self.head, " ", block])).lay_out(out, ind, comma, width, unit)


class _BigFloats(Deferred):
    """An initializer of :meth:`_Pass._plain_float_tensors` too long for a line: ``float[dims] name = {``,
    its numbers (:func:`layout.lay_out_numbers`, a matrix's rows starting lines), ``}``."""

    __slots__ = ("tensor", "name", "numbers", "k")

    def __init__(
        self, tensor: TensorProto, name: str, numbers: _CompactNumbers, k: int, make: Callable[[], Doc]
    ) -> None:
        super().__init__(None, make)
        self.tensor, self.name, self.numbers, self.k = tensor, name, numbers, k

    def lay_out(self, out: list[str], ind: int, comma: str, width: int, unit: int) -> None:
        dims = self.tensor.dims
        head = f"{' ' * ind}float[{', '.join(map(str, dims))}] {self.name} = {{"
        if len(head) > width:  # the dims or the name break
            super().lay_out(out, ind, comma, width, unit)
            return
        data, commas = self.numbers.get(self.k)
        count, last = len(commas) + 1, dims[-1]
        row = last if len(dims) >= 2 and last >= 2 and count > last else 0
        inner = ind + unit
        laid, _ = lay_out_numbers(data, row, inner, inner, width, commas)
        out += ["\n", head, "\n", " " * inner, laid, "\n", " " * ind, "}", comma]


_BATCH = 1 << 20  # numbers formatted together at most


class _CompactNumbers:
    """:func:`float32_compact` of each of many arrays (finite values) and where its commas are, made
    for many arrays at once (orjson's, numpy's and the odd values' cost per call outweighs the work
    for tensors of thousands of numbers): a batch of a million numbers at most, when one of its
    arrays is first asked for; each array's text is handed over once, and not kept."""

    def __init__(self, arrays: Sequence[npt.NDArray[np.float32]]) -> None:
        self.arrays = arrays
        self.batch_of: list[int] = []  # each array's batch
        self.firsts = [0]  # each batch's first array
        size = 0
        for k, values in enumerate(arrays):
            if size and size + values.size > _BATCH:
                self.firsts.append(k)
                size = 0
            self.batch_of.append(len(self.firsts) - 1)
            size += values.size
        self.firsts.append(len(arrays))
        self.batch = -1
        self.made: dict[int, tuple[memoryview, npt.NDArray[np.intp]]] = {}

    def get(self, k: int) -> tuple[memoryview, npt.NDArray[np.intp]]:
        """Array ``k``'s numbers joined by ``,`` alone, and its commas' places."""
        batch = self.batch_of[k]
        if batch != self.batch:
            members = range(self.firsts[batch], self.firsts[batch + 1])
            parts = [self.arrays[j] for j in members]
            data = float32_compact(np.concatenate(parts) if len(parts) > 1 else parts[0])
            commas = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 44)
            view = memoryview(data)
            self.made.clear()
            first = 0  # the array's first number
            for j, part in zip(members, parts, strict=True):
                last = first + part.size - 1
                start = int(commas[first - 1]) + 1 if first else 0
                end = int(commas[last]) if last < len(commas) else len(data)
                self.made[j] = (view[start:end], commas[first:last] - start if start else commas[:last])
                first = last + 1
            self.batch = batch
        return self.made.pop(k)  # each array is written once: its text is not kept
