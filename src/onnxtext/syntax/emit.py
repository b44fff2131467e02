"""Protobuf → text without an AST per statement: the fast path of ``to_text``.

The reference printer lifts the whole message to an AST (``lowering.lift``) and lays it
out (``syntax.printer``, ``syntax.layout``): about 80 µs per node statement. Here the
statements of the main graph and of the functions are written straight from the
protobuf when they print on one line, which is what almost every statement does:

* a node is serialized once; its first four fields (inputs, outputs, name, op_type, in
  that order on the wire) are measured from the strings, and the rest of its bytes (the
  *tail*: attributes, domain, overload and anything else) is the key of a cache. A tail
  is analysed once (parsed back, checked, its attributes printed by the reference path)
  and every node with the same attributes reuses the text;
* names come from a cache of their canonical spelling (bare or quoted).

Everything else goes through the reference path piece by piece: the header, the
signatures and initializers, and every statement that holds a graph, needs a property
block or does not fit the width on one line (laid out alone for the width left by its
indentation, which is how the whole document would lay it out: a statement is followed
by a forced line break). The printability check is fused in: the non-statement parts
are checked as ``check_printable`` checks them, each distinct tail when it is analysed,
names and op types as they are read; whatever is refused makes the whole message go
through the reference path, which raises the error it always raises. The file-wide
defaults (``node_domain``, ``tensor_encoding``, ``tensor_name``) are guessed, counted while writing, and
the pass is made again in the rare case the guess was wrong.

``tests/test_fast_print.py`` asserts byte-identical text with the reference path on
every corpus.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from google.protobuf.message import DecodeError

from onnxtext.ir.tensor.literals import NotRepresentable
from onnxtext.ir.varint import varint_size
from onnxtext.lowering.lift import DefaultVotes, Lifter, is_identifier, other_votes, statement_votes
from onnxtext.weights.external import attribute_tensors
from onnxtext.lowering.printable import check_printable
from onnxtext.syntax import ast as A
from onnxtext.proto import FunctionProto, GraphProto, ModelProto, NodeProto
from onnxtext.syntax.layout import DEFAULT_WIDTH, INDENT, render
from onnxtext.syntax.printer import Printer, name_text
from onnxtext.syntax.span import NO_SPAN

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
    attributes on one line), the text of each attribute on one line (``attrs``; None when
    there are none), and the property block's entries (``props``; None when there is none)
    with its one-line text (``props_flat``)."""

    __slots__ = ("ok", "nested", "before_op", "after_op", "overload", "attrs", "props", "props_flat", "suffix", "votes")

    def __init__(self, votes: DefaultVotes) -> None:
        self.ok = False
        self.nested = False  # it holds graphs: the statement's own lines by the reference path, their bodies here
        self.before_op = self.after_op = self.overload = self.props_flat = ""
        self.suffix = ""  # after the inputs on one line: " " and the property block
        self.attrs: list[str] | None = None
        self.props: list[_Entry] | None = None
        self.votes = votes


class _Entry:
    """A property block entry ``key: value`` whose value never breaks inside (a string, a number,
    a word), or is a list of such items or pairs of them (``items``): each item on one line."""

    __slots__ = ("head", "flat", "items")

    def __init__(self, head: str, flat: str, items: list[str] | None) -> None:
        self.head, self.flat, self.items = head, flat, items


_LEAVES = (A.Str, A.Number, A.Word, A.Ident)


def _leaf_text(value: Any) -> str | None:
    """The text of a value with no place to break (a leaf, or a pair of leaves), else None."""
    if isinstance(value, A.PropPair):
        key, val = _leaf_text(value.key), _leaf_text(value.value)
        return None if key is None or val is None else f"{key}: {val}"
    if isinstance(value, _LEAVES):
        return str(_LEAF_PRINTER.doc(value))
    return None


_LEAF_PRINTER = Printer()
_MARKER = A.Word(NO_SPAN, _MARK)  # a statement that prints as the marker


def _entries(props: A.Props) -> list[_Entry] | None:
    """The entries of a statement's property block, when each is a leaf or a list of leaves."""
    out = []
    for entry in props.entries:
        if not isinstance(entry, A.PropEntry):
            return None
        head = f"{_LEAF_PRINTER.doc(entry.key)}: "
        value = entry.value
        if isinstance(value, A.PropList):
            items = [_leaf_text(v) for v in value.items]
            if any(t is None for t in items):
                return None
            texts = [t for t in items if t is not None]
            out.append(_Entry(head, "[" + ", ".join(texts) + "]", texts if texts else None))
        else:
            text = _leaf_text(value)
            if text is None:
                return None
            out.append(_Entry(head, text, None))
    return out


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


def fast_text(msg: _Message, width: int = DEFAULT_WIDTH) -> str | None:
    """The text ``to_text`` gives for a model, graph or function (``width`` columns), or None
    when the reference path must print it (something to refuse, or nothing to gain)."""
    try:
        check_printable(msg, skip_nodes=True)
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

    def __init__(self, msg: _Message, width: int, names: _Names, sizes: _Sizes, lifter: Lifter, others: DefaultVotes) -> None:
        self.msg = msg
        self.width = width
        self.names = names
        self.sizes = sizes
        self.lifter = lifter
        self.printer = Printer(None, width)
        self.tails: dict[bytes, _Tail] = {}
        self.ops: dict[str, bytes] = {}
        self.attributes: dict[bytes, str] = {}  # an attribute's one-line text by its bytes
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
            parts.append(self._graph(msg.graph, "graph"))
            for i, f in enumerate(msg.functions):
                parts += ["\n\n", self._function(f, f"functions[{i}]")]
            for tail, times in Counter(self.used).items():
                self.votes.add(tail.votes, times)
        elif isinstance(msg, GraphProto):
            parts.append(self._graph(msg, "graph"))
        else:
            parts.append(self._function(msg, "function"))
        parts.append("\n")
        return "".join(parts)

    def _graph(self, g: GraphProto, where: str) -> str:
        head = self.printer.graph_head(self.lifter.graph(g, where, nodes=False))
        return render(head, self.width) + "\n" + self._body(g.node, where)

    def _function(self, f: FunctionProto, where: str) -> str:
        head = self.printer.function_head(self.lifter.function(f, where, nodes=False))
        return render(head, self.width) + "\n" + self._body(f.node, where)

    # ------------------------------------------------------------ statements
    def _body(self, nodes: Sequence[NodeProto], where: str) -> str:
        """``{``, a statement per line one unit in, ``}``."""
        return "\n".join(["{", *self._statements(nodes, where, INDENT, True), "}"])

    def _statements(self, nodes: Sequence[NodeProto], where: str, ind: str, count: bool) -> list[str]:
        """The lines of ``nodes``, ``ind`` in (their votes counted unless they are in a graph
        below a statement, whose votes hold them)."""
        width = self.width
        names, sizes, ops, tails, used = self.names, self.sizes, self.ops, self.tails, self.used
        get_name, get_size = names.__getitem__, sizes.__getitem__
        lines: list[str] = []
        if not count:
            used = []  # not kept
        for i, n in enumerate(nodes):
            wire = n.SerializeToString()
            op = n.op_type
            key = ops.get(op)
            if key is None:
                key = self._op_key(op)
            name = n.name
            jo = ", ".join(map(get_name, n.output))
            ji = ", ".join(map(get_name, n.input))
            if '"' in jo or '"' in ji or len(jo) > 127 or len(ji) > 127:
                # A quoted or long name: its wire size is not its text's.
                end = sum(map(get_size, n.output)) + sum(map(get_size, n.input)) + len(key)
            else:
                # Bare names of fewer than 128 characters: (tag, length, text) each.
                end = (len(jo) + 2 if jo else 0) + (len(ji) + 2 if ji else 0) + len(key)
            if name:
                text = names[name]
                # A bare name is its own text (see above); a quoted one is measured.
                end += len(text) + 2 if text[0] != '"' and len(text) < 128 else get_size(name)
                label = "[" + text + "] "
            elif n.HasField("name"):
                end += 2
                label = "[] "
            else:
                label = ""
            tail = None
            if key and wire.startswith(key, end - len(key)):
                rest = wire[end:]
                tail = tails.get(rest)
                if tail is None:
                    tail = self._tail(rest)
            if tail is not None and tail.ok:
                line = f"{ind}{label}{jo + ' = ' if jo else '= '}{tail.before_op}{op}{tail.after_op} ({ji}){tail.suffix}"
                if len(line) <= width:
                    lines.append(line)
                    used.append(tail)
                    continue
                laid = _broken(label, n.output, tail, op, n.input, names, self.width, ind)
                if laid is not None:
                    lines.append(laid)
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
        return lines

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
        text = render(self.printer.doc(tree), self.width - len(ind))
        return "\n".join(ind + line if line else line for line in text.split("\n"))

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
            texts = []
            if any(a.HasField("g") or len(a.graphs) for a in t.attribute):
                tail.nested = True
                return tail
            known = self.attributes
            for a in t.attribute:
                if a.ByteSize() > 4 * self.width:
                    return tail  # longer than a line: no value's text is shorter than a quarter of its bytes
                key = a.SerializeToString()
                text = known.get(key)
                if text is None:
                    text = known[key] = render(self.printer.doc(self.lifter.attribute(a, "")), _FLAT)
                if "\n" in text:
                    return tail
                texts.append(text)
            after += " <" + ", ".join(texts) + ">"
            tail.attrs = texts
        if extra:
            # The property block the reference path writes for them (nothing else goes there:
            # domain, op type and overload are written bare).
            props = self.lifter.props_for(t, extra, "")
            entries = _entries(props) if props is not None else None
            if entries is None:
                return tail
            tail.props = entries
            tail.props_flat = "@{" + ", ".join(e.head + e.flat for e in entries) + "}"
            tail.suffix = " " + tail.props_flat
        tail.ok, tail.before_op, tail.after_op = True, before, after
        return tail


def _broken(label: str, outputs: Sequence[str], tail: _Tail, op: str, inputs: Sequence[str],
            names: _Names, width: int, indent: str) -> str | None:
    """A statement too long for its line (``indent`` in) as the layout breaks it, or None when some
    attribute would break inside (the reference path lays that out).

    The statement's document is ``[label] outs = op <attrs> (inputs) @{props}`` where the outputs
    (when more than one), the attributes, the inputs, the property block and each list in it are
    groups; a group stays on one line when it fits with what follows it up to the next place a
    line may break (the opening bracket of the next group, or a comma before a broken line), else
    puts its items one per line, one unit further in.
    """
    ind = len(indent)
    inner = ind + len(INDENT)
    attrs, props = tail.attrs, tail.props
    after_lhs = f" = {tail.before_op}{op}{tail.overload}" if len(outputs) else f"= {tail.before_op}{op}{tail.overload}"
    # What follows the inputs up to the next break; before it, the inputs' opening.
    after_inputs = " @{" if props is not None else ""
    opening = " (" if len(inputs) else " ()" + after_inputs
    out = [indent, label]
    col = ind + len(label)
    outs = [names[o] for o in outputs]
    if len(outs) > 1:
        flat = ", ".join(outs)
        if col + len(flat) + len(after_lhs) + (2 if attrs else len(opening)) <= width:
            out.append(flat)
            col += len(flat)
        else:
            out.append((",\n" + " " * inner).join(outs))
            col = inner + len(outs[-1])
    elif outs:
        out.append(outs[0])
        col += len(outs[0])
    out.append(after_lhs)
    col += len(after_lhs)
    if attrs:
        flat = "<" + ", ".join(attrs) + ">"
        out.append(" ")
        col += 1
        if col + len(flat) + len(opening) <= width:
            out.append(flat)
            col += len(flat)
        else:
            last = len(attrs) - 1
            if any(inner + len(a) + (k < last) > width for k, a in enumerate(attrs)):
                return None  # an attribute breaks inside
            out += ["<\n", " " * inner, (",\n" + " " * inner).join(attrs), "\n", indent, ">"]
            col = ind + 1
    if not len(inputs):
        out.append(" ()")
        col += 3
    else:
        ins = [names[i] for i in inputs]
        flat = "(" + ", ".join(ins) + ")"
        if col + 1 + len(flat) + len(after_inputs) <= width:
            out += [" ", flat]
            col += 1 + len(flat)
        else:
            out += [" (\n", " " * inner, (",\n" + " " * inner).join(ins), "\n", indent, ")"]
            col = ind + 1
    if props is not None:
        out.append(" ")
        if col + 1 + len(tail.props_flat) <= width:
            out.append(tail.props_flat)
        else:
            out.append("@{")
            last = len(props) - 1
            for k, e in enumerate(props):
                out += ["\n", " " * inner, e.head]
                start = inner + len(e.head)
                if e.items is None or start + len(e.flat) + (k < last) <= width:
                    out.append(e.flat)
                else:
                    deeper = " " * (inner + len(INDENT))
                    out += ["[\n", deeper, (",\n" + deeper).join(e.items), "\n", " " * inner, "]"]
                if k < last:
                    out.append(",")
            out += ["\n", indent, "}"]
    return "".join(out)
