"""AST → text in onnxtext's canonical style: one method per AST node kind, each building a layout document.

The style stays close to ``onnx.printer``: a model header, the graph signature,
initializers in ``< >``, one node per line, functions after the graph. Every list
(signature, inputs, attributes, property blocks, dims) is a group: on one line when it
fits the width, else one item per line one indentation unit in; tensor literals fill
the width. Nodes with a graph attribute write their inputs before the attributes. The
same tree prints the same text whether it came from a protobuf (``print``) or a text
(``fmt``, which also passes the comments, attached by ``syntax.comments``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from onnxtext.syntax import ast as A
from onnxtext.syntax.comments import CommentMap, Note
from onnxtext.syntax.layout import (
    BLANK_LINE,
    BREAK_PARENT,
    DEFAULT_WIDTH,
    HARDLINE,
    LINE,
    SOFTLINE,
    Bracketed,
    Doc,
    Fill,
    Group,
    IfBroken,
    Indent,
    LineSuffix,
    Numbers,
    OwnLine,
    Packed,
    join,
    render,
)
from onnxtext.syntax.vocabulary import format_string, is_identifier, name_text

__all__ = ["Printer", "print_ast", "quote", "statement_doc", "graph_head_doc", "signature_doc", "DEFAULT_WIDTH"]

_QUALIFIED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


def quote(ident: A.Ident) -> str:
    if ident.quoted:
        return format_string(ident.value.encode("utf-8", "surrogateescape"))
    return ident.value


def graphs_of(value: Any) -> list[A.Graph]:
    """The graphs an attribute value holds (one, a list of them, or none)."""
    if isinstance(value, A.GraphValue):
        return [value.graph]
    if isinstance(value, A.AttrList):
        return [v.graph for v in value.items if isinstance(v, A.GraphValue)]
    return []


def _comment(note: Note) -> str:
    return "#" + note.text


_NO_COMMENTS = CommentMap("")


def _fill_parts(values: Sequence[Doc]) -> list[Doc]:
    parts: list[Doc] = []
    for i, v in enumerate(values):
        if i:
            parts.append([",", LINE])
        parts.append(v)
    return parts


class Printer:
    """Builds the layout document of AST nodes; ``doc(node)`` dispatches on the node's class.

    ``comments`` (from :func:`syntax.comments.attach_comments`) are written where they
    were attached; ``print(node)`` renders a node on its own for ``width`` columns.
    """

    def __init__(self, comments: CommentMap | None = None, width: int = DEFAULT_WIDTH) -> None:
        self.cm = comments if comments is not None else _NO_COMMENTS
        self._from_text = comments is not None  # blank lines are read from the text
        self._commented = comments is not None and bool(comments.kinds())
        self.width = width
        self._row = 0  # values per row of the tensor literal being printed (0: no rows)
        self._size = 0  # and how many values it has (when it has rows)
        self._dispatch: dict[type, Callable[[Any], Doc]] = {}
        for kind in A.NODE_KINDS:
            method = getattr(self, "print_" + kind.__name__, None)
            if method is not None:
                self._dispatch[kind] = method

    def print(self, node: Any, level: int = 0) -> str:
        """The text of one node (without a final newline), ``level`` indentation units in."""
        return render(Indent(self.doc(node)) if level else self.doc(node), self.width)

    def doc(self, node: Any, *, open_done: bool = False, text: Doc | None = None) -> Doc:
        """The document of ``node`` (or ``text`` in its place) with the comments attached to it."""
        doc = self._dispatch[type(node)](node) if text is None else text
        if not self._commented:
            return doc
        key = id(node)
        cm = self.cm
        lead, trail, after = cm.leading.get(key), cm.trailing.get(key), cm.after.get(key)
        opened = None if open_done else cm.open.get(key)
        if not (lead or trail or after or opened):
            return doc
        parts: list[Doc] = []
        if lead:
            for i, note in enumerate(lead):
                if i and note.blank:
                    parts.append(BLANK_LINE)
                parts.append(OwnLine(_comment(note)))
            if cm.blank_before(node.span.start):
                parts.append(BLANK_LINE)
        if opened:
            parts.append(self._suffix(opened))
        parts.append(doc)
        if trail:
            parts.append(self._suffix(trail))
        if after:
            parts.extend(self._own_lines(after))
        return parts

    def _suffix(self, notes: list[Note]) -> Doc:
        """Trailing comments: the first at the end of the line, any more (each written after a comma
        or closing bracket of its own) on lines of their own below it."""
        out: list[Doc] = [LineSuffix("  " + _comment(notes[0])), BREAK_PARENT]
        out.extend(OwnLine(_comment(n)) for n in notes[1:])
        return out

    def _own_lines(self, notes: list[Note]) -> list[Doc]:
        out: list[Doc] = []
        for note in notes:
            if note.blank:
                out.append(BLANK_LINE)
            out.append(OwnLine(_comment(note)))
        return out

    def _list(
        self, open_: str, items: Sequence[Any], close: str, owner: A.AstNode | None = None, names: bool = False
    ) -> Doc:
        """``open item, item close``: one line if it fits, else one item per line, indented.

        ``owner`` is the node the brackets belong to when nothing else is in it: comments
        left inside its empty brackets stay there.
        """
        if not items:
            inner = self._dangling(owner)
            return [open_, inner, HARDLINE, close] if inner else open_ + close
        head: Doc = open_
        first = items[0]
        opened = self.cm.open.get(id(first)) if self._commented and isinstance(first, A.AstNode) else None
        if opened:
            head = [open_, self._suffix(opened)]
        make = self._name if names else self.doc
        return Bracketed(head, [make(x, open_done=i == 0) for i, x in enumerate(items)], close)

    def _dangling(self, owner: A.AstNode | None) -> Doc:
        """The comments inside ``owner``'s brackets when it holds nothing else (a line break follows them)."""
        notes = self.cm.dangling.get(id(owner)) if owner is not None and self._commented else None
        if not notes:
            return ""
        inner: list[Doc] = []
        if notes[0].trailing:
            inner.append(self._suffix(notes[:1]))
            notes = notes[1:]
        inner.append(Indent(self._own_lines(notes)))
        return inner

    def _has_comments(self, node: A.AstNode) -> bool:
        cm, key = self.cm, id(node)
        return any(key in table for table in (cm.leading, cm.trailing, cm.open, cm.after, cm.dangling))

    def _error(self, n: A.ErrorNode) -> NoReturn:
        raise ValueError(f"the text has a syntax error at offset {n.span.start}; a damaged {n.kind} cannot be printed")

    def blank_above(self, node: A.AstNode) -> bool:
        """Whether an empty line stood above a statement (or above its first comment)."""
        if not self._from_text:
            return False
        lead = self.cm.leading.get(id(node))
        return lead[0].blank if lead else self.cm.blank_before(node.span.start)

    # ------------------------------------------------------------ leaves
    def print_Ident(self, n: A.Ident) -> Doc:
        return quote(n) if n.value or n.quoted else '""'

    def _name(self, n: A.Ident, open_done: bool = False) -> Doc:
        """A name in its canonical spelling (``"seq"`` quoted, ``"x"`` bare), comments kept."""
        return self.doc(n, open_done=open_done, text=name_text(n.value) if n.value else '""')

    def print_Str(self, n: A.Str) -> Doc:
        return format_string(n.value)

    def print_Number(self, n: A.Number) -> Doc:
        return n.text

    def print_Word(self, n: A.Word) -> Doc:
        return n.value

    def print_ErrorNode(self, n: A.ErrorNode) -> NoReturn:
        self._error(n)

    # ------------------------------------------------------------ property blocks
    def print_PropEntry(self, n: A.PropEntry) -> Doc:
        return [self.doc(n.key), ": ", self.doc(n.value)]

    def print_PropList(self, n: A.PropList) -> Doc:
        return self._list("[", n.items, "]", n)

    def print_PropDict(self, n: A.PropDict) -> Doc:
        return self._list("{", n.entries, "}", n)

    def print_PropPair(self, n: A.PropPair) -> Doc:
        return [self.doc(n.key), ": ", self.doc(n.value)]

    def print_Props(self, n: A.Props) -> Doc:
        return self._header(n) if n.header else self._list("@{", n.entries, "}", n)

    def _header(self, n: A.Props) -> Doc:
        """A model or function header: one key per line, in the order of the tree (a formatter
        never reorders what a person wrote; the lifter gives ``print``'s canonical order)."""
        if not n.entries:
            return self._list("<", n.entries, ">", n)
        entries = n.entries
        head: list[Doc] = ["<"]
        opened = self.cm.open.get(id(entries[0])) if self._commented else None
        if opened:
            head.append(self._suffix(opened))
        docs = [self.doc(e, open_done=i == 0) for i, e in enumerate(entries)]
        return [head, Indent([HARDLINE, join([",", HARDLINE], docs)]), HARDLINE, ">"]

    def _props(self, props: A.Props | None) -> Doc:
        """A property block after its owner; an empty one is left out unless comments are in it."""
        block = self._block(props)
        return "" if block is None else [" ", block]

    def _block(self, props: A.Props | None) -> Doc | None:
        """A property block's document; None for none, or an empty one without comments in it."""
        if props is None or not (props.entries or self._dangling(props)):
            return None
        return self.doc(props)

    # ------------------------------------------------------------ types
    def print_Dim(self, n: A.Dim) -> Doc:
        if n.value is not None:
            text = str(n.value)
        elif n.param is not None:
            text = n.param if is_identifier(n.param) else format_string(n.param.encode("utf-8", "surrogateescape"))
        else:
            text = "?"
        return [text, self._props(n.props)]

    def print_TensorType(self, n: A.TensorType) -> Doc:
        elem = self.doc(n.elem)
        if n.shape is None:
            return [elem, "[]"]
        if not n.shape:
            return elem
        dims = self._list("[", n.shape, "]")
        return [elem, Group(dims.contents, tight=True) if isinstance(dims, Group) else dims]

    def print_SeqType(self, n: A.SeqType) -> Doc:
        return ["seq(", self.doc(n.elem), ")"]

    def print_MapType(self, n: A.MapType) -> Doc:
        return Group(["map(", Indent([SOFTLINE, self.doc(n.key), ",", LINE, self.doc(n.value)]), SOFTLINE, ")"])

    def print_OptionalType(self, n: A.OptionalType) -> Doc:
        return ["optional(", self.doc(n.elem), ")"]

    def print_SparseTensorType(self, n: A.SparseTensorType) -> Doc:
        return ["sparse_tensor(", self.doc(n.tensor), ")"]

    def print_OpaqueType(self, n: A.OpaqueType) -> Doc:
        parts = [n.domain] if n.domain is not None else []
        if n.name is not None:
            parts.append(n.name)
        elif parts:
            parts.append("")
        names = ", ".join(
            p if _QUALIFIED.match(p) else format_string(p.encode("utf-8", "surrogateescape")) for p in parts
        )
        inner = self._dangling(n)
        return ["opaque(", inner, Indent([SOFTLINE, names]), SOFTLINE, ")"] if inner else "opaque(" + names + ")"

    def print_ValueInfo(self, n: A.ValueInfo) -> Doc:
        head: Doc = [self.doc(n.type), " "] if n.type is not None else ""
        return [head, self._name(n.name), self._props(n.props)]

    # ------------------------------------------------------------ tensor data
    def print_NumberBody(self, n: A.NumberBody) -> Doc:
        if n.canonical:
            # No numbers: ``{}`` as ``fmt`` reads it back, with no line break to take inside.
            return self._numbers(n.text, None) if n.text else "{}"
        values = [v.strip() for v in n.text.split(",")]
        if not all(values):
            return "{" + " ".join(n.text.split()) + "}"
        return self._fill(values)

    def _numbers(self, text: str, count: int | None) -> Doc:
        """Numbers joined by ``", "`` (see ``_fill``; ``count`` of them, None: to be counted if need
        be), laid out on the whole text at once."""
        row = self._row
        if row >= 2 and count is None:
            count = self._size or text.count(",") + 1
        inner = Numbers(text, row if row >= 2 and count is not None and count % row == 0 and count > row else 0)
        return Group(["{", Indent([SOFTLINE, inner]), SOFTLINE, "}"])

    def _fill(self, values: Sequence[Doc]) -> Doc:
        """A tensor literal: on one line if it fits, else one row of the matrix per line (a row
        longer than the width, or a tensor of rank < 2, fills the lines)."""
        row = self._row
        texts = [v for v in values if isinstance(v, str)]
        plain = len(texts) == len(values)  # numbers without comments: packed in one loop
        if plain and len(texts) >= 256:
            text = ", ".join(texts)
            if text.count(" ") == len(texts) - 1 and not any(c in text for c in "\n\t\r\f\v"):
                return self._numbers(text, len(texts))
        if row >= 2 and len(values) % row == 0 and len(values) > row:
            rows: list[Doc] = [
                Packed(texts[i : i + row]) if plain else Fill(_fill_parts(values[i : i + row]))
                for i in range(0, len(values), row)
            ]
            inner: Doc = join([",", LINE], rows)
        else:
            inner = Packed(texts) if plain else Fill(_fill_parts(values))
        return Group(["{", Indent([SOFTLINE, inner]), SOFTLINE, "}"])

    def _data(self, body: A.TensorBody, type_: A.Type | None) -> Doc:
        """The data of a tensor, knowing its type (rows of a matrix start new lines)."""
        shape = type_.shape if isinstance(type_, A.TensorType) else None
        dims = [d.value for d in shape or ()]
        row = size = 0
        if len(dims) >= 2 and all(isinstance(d, int) and d > 0 for d in dims):
            count = 1
            for d in dims:
                count *= d  # type: ignore[operator]
            last = dims[-1]
            assert last is not None
            size = (
                len(body.values)
                if isinstance(body, A.LiteralBody)
                else body.text.count(",") + 1
                if isinstance(body, A.NumberBody)
                else 0
            )
            # Complex numbers in one number body: two numbers per element.
            row = last if size == count else 2 * last if size == 2 * count else 0
        saved, self._row = (self._row, self._size), row
        self._size = size if row else 0
        try:
            return self.doc(body)
        finally:
            self._row, self._size = saved

    def print_ComplexLiteral(self, n: A.ComplexLiteral) -> Doc:
        return ["(", self.doc(n.real), ", ", self.doc(n.imag), ")"]

    def print_LiteralBody(self, n: A.LiteralBody) -> Doc:
        if not n.values:
            return self._list("{", n.values, "}", n)
        first = n.values[0]
        docs = [self.doc(v, open_done=i == 0) for i, v in enumerate(n.values)]
        opened = self.cm.open.get(id(first)) if self._commented else None
        body = self._fill(docs)
        if opened:
            assert isinstance(body, Group) and isinstance(body.contents, list)
            return Group(["{", self._suffix(opened), *body.contents[1:]])
        return body

    def print_ExternalBody(self, n: A.ExternalBody) -> Doc:
        # A record of where the data is (or of its digest) stays on one line: a changed tensor
        # changes one line of a diff.
        if not n.items or self._commented and any(self._has_comments(x) for x in A.walk(n)):
            return self._list("[", n.items, "]", n)
        return ["[", join(", ", [self.doc(x) for x in n.items]), "]"]

    def print_Initializer(self, n: A.Initializer) -> Doc:
        info = self.doc(n.info)
        if n.body is None:
            return info
        return [info, " = ", self._data(n.body, n.info.type)]

    # ------------------------------------------------------------ attributes
    def print_TensorValue(self, n: A.TensorValue) -> Doc:
        head: list[Doc] = [self.doc(n.type)]
        if n.name is not None:
            head += [" ", self._name(n.name)]
        head.append(self._props(n.props))
        if n.has_equal:
            head.append(" =")
        return [head, " ", self._data(n.body, n.type)]

    def print_AttrRef(self, n: A.AttrRef) -> Doc:
        return ["@", self._name(n.name)]

    def print_TypeValue(self, n: A.TypeValue) -> Doc:
        return self.doc(n.type)

    def print_GraphValue(self, n: A.GraphValue) -> Doc:
        return self._graph(n.graph, nested=True)

    def print_AttrList(self, n: A.AttrList) -> Doc:
        return self._list("[", n.items, "]", n)

    def print_Attribute(self, n: A.Attribute) -> Doc:
        parts: list[Doc] = [self.doc(n.name)]
        if n.type_name is not None:
            parts += [": ", self.doc(n.type_name)]
        if n.value is not None:
            parts += [" = ", self.doc(n.value)]
        parts.append(self._props(n.props))
        return parts

    # ------------------------------------------------------------ structure
    def print_Node(self, n: A.Node) -> Doc:
        label = (self._name(n.label) if n.label is not None else "") if n.has_label else None
        op: list[Doc] = []
        for p in n.domain:
            op += [self.doc(p), "."]
        if n.domain or n.op_type.value or n.op_type.quoted:  # else `y = (x)`, no operator written
            op.append(self.doc(n.op_type))
        if n.overload is not None:
            op += [":", self.doc(n.overload)]
        attrs = None
        if n.attributes:
            for a in n.attributes:
                if isinstance(a, A.ErrorNode):
                    self._error(a)
            attrs = self._list("<", n.attributes, ">")
        return statement_doc(
            label,
            [self._name(o) for o in n.outputs],
            op,
            attrs,
            self._list("(", n.inputs, ")", names=True),
            self._block(n.props),
            any(isinstance(a, A.Attribute) and graphs_of(a.value) for a in n.attributes),
        )

    def _statements(self, nodes: Sequence[Any], open_notes: list[Note] | None, end_notes: list[Note] | None) -> Doc:
        """``{``, one statement per line (an empty line kept where one was), ``}``."""
        head: list[Doc] = ["{"]
        if nodes and self._commented:
            first_open = self.cm.open.get(id(nodes[0]))
            open_notes = (open_notes or []) + (first_open or [])
        if open_notes:
            head.append(self._suffix(open_notes))
        body: list[Doc] = []
        for i, n in enumerate(nodes):
            if isinstance(n, A.ErrorNode):
                self._error(n)
            body.append(HARDLINE)
            if i and self.blank_above(n):
                body.append(BLANK_LINE)
            body.append(self.doc(n, open_done=i == 0))
        if end_notes:
            if nodes:
                body.append(HARDLINE)
            body.extend(self._own_lines(end_notes) if nodes else [OwnLine(_comment(c)) for c in end_notes])
        return [head, Indent(body), HARDLINE, "}"]

    def _body(self, owner: A.Graph | A.Function) -> Doc:
        key = id(owner)
        return self._statements(owner.nodes, self.cm.body_open.get(key), self.cm.body_end.get(key))

    def _signature(self, inputs: Sequence[Any] | None, outputs: Sequence[Any]) -> list[Doc]:
        ins = self._list("(", inputs, ")") if inputs is not None else None
        return signature_doc(ins, self._list("(", outputs, ")"))

    def _graph(self, n: A.Graph, nested: bool) -> Doc:
        if nested:
            head = self._graph_head(n)
            if n.initializers:
                head += [" ", self._list("<", n.initializers, ">")]
            return [head, " ", self._body(n)]
        return [self.graph_head(n), HARDLINE, self._body(n)]

    def _graph_head(self, n: A.Graph, initializers: bool = False) -> list[Doc]:
        """A graph's property block, name and signature (``initializers``: then its initializers, a main graph's)."""
        inits = n.initializers if initializers else None
        return graph_head_doc(
            self.doc(n.props) if n.props is not None and n.props.entries else None,
            self._name(n.name),
            self._list("(", n.inputs, ")") if n.inputs is not None else None,
            self._list("(", n.outputs, ")"),
            self._list("<", inits, ">") if inits else None,
        )

    def graph_head(self, n: A.Graph) -> Doc:
        """A main graph's lines above its body: name and signature, then its initializers."""
        return self._graph_head(n, initializers=True)

    def print_Graph(self, n: A.Graph) -> Doc:
        return self._graph(n, nested=False)

    def function_head(self, n: A.Function) -> Doc:
        """A function's lines above its body: header, name, attributes and signature, value infos."""
        lines: list[Doc] = []
        if n.header is not None:
            lines += [self.doc(n.header, text=self._header(n.header)), HARDLINE]
        head: list[Doc] = [self._name(n.name)]
        if n.attributes:
            head += [" ", self._list("<", n.attributes, ">")]
        head += self._signature(n.inputs, n.outputs)
        lines.append(head)
        if n.value_infos:
            lines += [HARDLINE, self._list("<", n.value_infos, ">")]
        return lines

    def print_Function(self, n: A.Function) -> Doc:
        return [self.function_head(n), HARDLINE, self._body(n)]

    def print_Model(self, n: A.Model) -> Doc:
        parts: list[Doc] = []
        if n.header is not None:
            parts += [self.doc(n.header), HARDLINE]
            if self.blank_above(n.graph):
                parts.append(BLANK_LINE)
        parts.append(self.doc(n.graph))
        for f in n.functions:
            if isinstance(f, A.ErrorNode):
                self._error(f)
            parts += [HARDLINE, BLANK_LINE, self.doc(f)]
        return parts


def statement_doc(
    label: Doc | None,
    outputs: Sequence[Doc],
    op: Doc,
    attrs: Doc | None,
    inputs: Doc,
    props: Doc | None,
    inputs_first: bool = False,
) -> list[Doc]:
    """A node statement's document, ``[label] outs = op <attrs> (inputs) @{props}``: the outputs (when
    more than one), the attribute list, the input list and the property block are groups, so the
    statement is on one line exactly when its one-line text fits. ``label`` None: no label;
    ``attrs`` None: no attribute list; ``props``: the property block (None: none); ``inputs_first``:
    the inputs before the attributes (a node with a graph attribute). The printer's and the print
    fast path's (``printing/emit``) one definition: given texts and lists, a run (``layout.render``
    lays it out in one pass)."""
    parts: list[Doc] = ["[", label, "]"] if label is not None else []
    if outputs:
        if parts:
            parts.append(" ")
        parts.append(Group(Indent(join([",", LINE], outputs))) if len(outputs) > 1 else outputs[0])
    if op == []:  # no operator (op_type "", onnx.parser's reading of `y = (x)`)
        parts.append(" =" if parts else "=")
    else:
        parts += [" = " if parts else "= ", op]
    if attrs is None:
        parts += [" ", inputs]
    elif inputs_first:
        parts += [" ", inputs, " ", attrs]
    else:
        parts += [" ", attrs, " ", inputs]
    if props is not None:
        parts += [" ", props]
    return parts


def signature_doc(inputs: Doc | None, outputs: Doc) -> list[Doc]:
    """A graph's or function's signature after its name, `` (inputs) => (outputs)`` (``inputs`` None:
    none written, a function's without inputs): the printer's and the print fast path's
    (``printing/emit``) one definition.

    The outputs follow ``=>`` on the inputs' last line when they must break anyway (a comment in
    them) or the inputs broke: ``) => (``, as C-family formatters break a parameter list. Else
    they stay on the line when the signature fits, or go to a line of their own one unit in:
    ``=> (...)``."""
    parts: list[Doc] = [" ", inputs] if inputs is not None else []
    joined: Doc = [" => ", outputs]
    own_line: Doc = Group(Indent([LINE, "=> ", outputs]))
    if isinstance(outputs, Group) and outputs.hard:
        parts.append(joined)
    elif isinstance(inputs, Group):
        parts.append(IfBroken(inputs, joined, own_line))
    else:
        parts.append(own_line)
    return parts


def graph_head_doc(
    props: Doc | None, name: Doc, inputs: Doc | None, outputs: Doc, initializers: Doc | None
) -> list[Doc]:
    """A graph's lines above its body, ``@{props} name (inputs) => (outputs)``, then its initializers
    ``<...>`` on a line of their own (a main graph's: a nested graph writes them after its signature):
    the printer's and the print fast path's (``printing/emit``) one definition. ``props``: the
    property block (None: none); ``inputs`` as :func:`signature_doc` takes them; ``initializers``:
    their list (None: none)."""
    head: list[Doc] = [props, " ", name] if props is not None else [name]
    head += signature_doc(inputs, outputs)
    return head if initializers is None else [head, HARDLINE, initializers]


def print_ast(node: Any, comments: CommentMap | None = None, width: int = DEFAULT_WIDTH) -> str:
    """The text of an AST node (a model, graph, function, node, or the parser's node list), ending in a newline."""
    printer = Printer(comments, width)
    if isinstance(node, tuple):  # a node list: (statements, span of the braces)
        doc = printer._statements(node[0], None, comments.body_end.get(0) if comments is not None else None)
    else:
        doc = printer.doc(node)
    return render(doc, width) + "\n"
