"""The reduce callbacks of the parse: one method per grammar rule (or alias), each building AST nodes with their spans.

No parse tree is materialised: the driver loop (``syntax.recovery``) calls these as the
LALR table reduces, and a damaged statement arrives as an ``ERROR`` token carrying its
:class:`ast.ErrorNode`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import lark

from onnxtext.diagnostics import Diagnostic, Fix, Severity
from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.lexer import Tok, unescape_string
from onnxtext.syntax.messages import NO_OPERATOR, SECOND_MODEL, SYNTAX, UNKNOWN_ESCAPE

__all__ = ["Builder", "end_of", "span_of", "start_of", "token_span"]


def start_of(x: Any) -> int | None:
    if x is None:
        return None
    if isinstance(x, Tok):
        return x.start
    if isinstance(x, A.AstNode):
        return x.span.start
    if isinstance(x, list):
        for item in x:
            s = start_of(item)
            if s is not None:
                return s
        return None
    if isinstance(x, tuple) and x and isinstance(x[-1], Span):
        return x[-1].start
    return None


def end_of(x: Any) -> int | None:
    if x is None:
        return None
    if isinstance(x, Tok):
        return x.end
    if isinstance(x, A.AstNode):
        return x.span.end
    if isinstance(x, list):
        for item in reversed(x):
            e = end_of(item)
            if e is not None:
                return e
        return None
    if isinstance(x, tuple) and x and isinstance(x[-1], Span):
        return x[-1].end
    return None


def span_of(c: Sequence[Any]) -> Span:
    start = end = None
    for x in c:
        start = start_of(x)
        if start is not None:
            break
    for x in reversed(c):
        end = end_of(x)
        if end is not None:
            break
    if start is None or end is None:
        return Span(0, 0)
    return Span(start, end)


def token_span(t: Tok) -> Span:
    return Span(t.start, t.end)


class Builder(lark.Transformer):  # type: ignore[type-arg]
    """Reduce callbacks: one method per grammar rule (or alias) building AST nodes."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.diags: list[Diagnostic] = []
        self.source: SourceFile | None = None
        # Spans of second models in the text (see ``_second_model``).
        self.models: list[Span] = []

    # -- helpers
    def _string(self, tok: Tok) -> bytes:
        value, problems = unescape_string(tok.value)
        for offset, message in problems:
            self.diags.append(
                Diagnostic.at(
                    UNKNOWN_ESCAPE,
                    Severity.WARNING,
                    message,
                    Span(tok.start + offset, tok.start + offset + 2),
                    self.source,
                )
            )
        return value

    def _ident(self, tok: Tok) -> A.Ident:
        if tok.type == "STRING":
            raw = self._string(tok)
            return A.Ident(token_span(tok), raw.decode("utf-8", "surrogateescape"), True)
        return A.Ident(token_span(tok), tok.value)

    # -- names and leaves
    def name(self, c: list[Any]) -> A.Ident:
        return self._ident(c[0])

    graph_name = name

    def literal(self, c: list[Any]) -> A.Number | A.Str | A.Word:
        t = c[0]
        if t.type == "NUMBER":
            return A.Number(token_span(t), t.value)
        if t.type == "STRING":
            return A.Str(token_span(t), self._string(t))
        return A.Word(token_span(t), t.value)

    # -- property blocks and headers
    def header(self, c: list[Any]) -> A.Props:
        return A.Props(span_of(c), c[1] or [], header=True)

    def props(self, c: list[Any]) -> A.Props:
        return A.Props(span_of(c), c[1] or [])

    def prop_entries(self, c: list[Any]) -> list[A.PropEntry | A.ErrorNode]:
        return [x for x in c if isinstance(x, (A.PropEntry, A.ErrorNode))]

    def prop_entry(self, c: list[Any]) -> A.PropEntry:
        return A.PropEntry(span_of(c), self._ident(c[0]), c[2])

    def pv_number(self, c: list[Any]) -> A.Number:
        return A.Number(token_span(c[0]), c[0].value)

    def pv_string(self, c: list[Any]) -> A.Str:
        return A.Str(token_span(c[0]), self._string(c[0]))

    def pv_ident(self, c: list[Any]) -> A.Word:
        return A.Word(token_span(c[0]), c[0].value)

    def pv_list(self, c: list[Any]) -> A.PropList:
        return A.PropList(span_of(c), c[1] or [])

    def pv_dict(self, c: list[Any]) -> A.PropDict:
        return A.PropDict(span_of(c), c[1] or [])

    def pv_graph(self, c: list[Any]) -> A.GraphValue:
        return A.GraphValue(c[0].span, c[0])

    def pv_tensor(self, c: list[Any]) -> A.TensorValue:
        # type [name] [props] [EQUAL] tensor_body
        return A.TensorValue(span_of(c), c[0], c[1], c[3] is not None, c[4], c[2])

    def av_fields(self, c: list[Any]) -> A.PropDict:
        return A.PropDict(span_of(c), c[1] or [])

    def pitems(self, c: list[Any]) -> list[Any]:
        return [x for x in c if x is not None and not isinstance(x, Tok)]

    def pi_value(self, c: list[Any]) -> Any:
        return c[0]

    def pi_pair(self, c: list[Any]) -> A.PropPair:
        return A.PropPair(span_of(c), c[0], c[2])

    # -- types
    def tensor_type(self, c: list[Any]) -> A.TensorType:
        shape = c[1]
        if shape is None:
            dims: list[A.Dim] | None = []
        elif shape[0] is None:
            dims = None
        else:
            dims = shape[0]
        return A.TensorType(span_of(c), self._ident(c[0]), dims)

    def shape(self, c: list[Any]) -> tuple[list[A.Dim] | None, Span]:
        dims = [x for x in c[1:-1] if isinstance(x, A.Dim)]
        return (dims if dims else None, span_of(c))

    def dim(self, c: list[Any]) -> A.Dim:
        d = self._dim(c[0])
        if c[1] is not None:
            d.props = c[1]
        return d

    def _dim(self, t: Tok) -> A.Dim:
        span = token_span(t)
        if t.type == "QMARK":
            return A.Dim(span)
        if t.type == "NUMBER":
            try:
                value = int(t.value)
                if not -(1 << 63) <= value < 1 << 63:  # dim_value is an int64 (onnx.parser: out of range too)
                    self.diags.append(
                        Diagnostic.at(
                            SYNTAX,
                            Severity.ERROR,
                            f"dimension {t.value} does not fit in a 64-bit integer",
                            span,
                            self.source,
                        )
                    )
                    return A.Dim(span)
                return A.Dim(span, value=value)
            except ValueError:
                self.diags.append(
                    Diagnostic.at(
                        SYNTAX,
                        Severity.ERROR,
                        f"a dimension must be a whole number, a name or '?', not {t.value}",
                        span,
                        self.source,
                    )
                )
                return A.Dim(span)
        if t.type == "STRING":
            return A.Dim(span, param=self._string(t).decode("utf-8", "surrogateescape"), quoted=True)
        return A.Dim(span, param=t.value)

    def seq_type(self, c: list[Any]) -> A.SeqType:
        return A.SeqType(span_of(c), c[2])

    def map_type(self, c: list[Any]) -> A.MapType:
        return A.MapType(span_of(c), self._ident(c[2]), c[4])

    def optional_type(self, c: list[Any]) -> A.OptionalType:
        return A.OptionalType(span_of(c), c[2])

    def sparse_type(self, c: list[Any]) -> A.SparseTensorType:
        shape = c[3]
        if shape is None:
            dims: list[A.Dim] | None = []
        elif shape[0] is None:
            dims = None
        else:
            dims = shape[0]
        inner = A.TensorType(Span(c[2].start, end_of(shape) or c[2].end), self._ident(c[2]), dims, sparse=True)
        return A.SparseTensorType(span_of(c), inner)

    def opaque_type(self, c: list[Any]) -> A.OpaqueType:
        parts = [x for x in c[2:-1] if x is not None and not (isinstance(x, Tok) and x.type == "COMMA")]
        if not parts:
            return A.OpaqueType(span_of(c), None, None)
        if len(parts) == 1:
            return A.OpaqueType(span_of(c), None, parts[0])
        return A.OpaqueType(span_of(c), parts[0], parts[1])

    def qualified(self, c: list[Any]) -> str:
        return "".join(t.value for t in c)

    def opaque_part(self, c: list[Any]) -> str:
        t = c[0]
        if isinstance(t, Tok):
            return self._string(t).decode("utf-8", "surrogateescape")
        return str(t)

    # -- value infos, graphs
    def value_info(self, c: list[Any]) -> A.ValueInfo:
        return A.ValueInfo(span_of(c), c[0], c[1], c[2])

    def value_infos(self, c: list[Any]) -> list[A.ValueInfo | A.ErrorNode]:
        return [x for x in c if isinstance(x, (A.ValueInfo, A.ErrorNode))]

    def vi_item(self, c: list[Any]) -> A.ValueInfo:
        value: A.ValueInfo = c[0]
        return value

    fparams = value_infos

    def graph_item(self, c: list[Any]) -> A.Initializer:
        return A.Initializer(span_of(c), c[0], c[2])

    def graph_items(self, c: list[Any]) -> list[A.Initializer | A.ErrorNode]:
        return [x for x in c if isinstance(x, (A.Initializer, A.ErrorNode))]

    def graph_inputs(self, c: list[Any]) -> list[A.Initializer]:
        return c[1] or []

    graph_inits = graph_inputs

    def node_list(self, c: list[Any]) -> tuple[list[A.Node | A.ErrorNode], Span]:
        return ([x for x in c[1:-1] if isinstance(x, (A.Node, A.ErrorNode))], span_of(c))

    def _graph(self, c: list[Any], name: A.Ident) -> A.Graph:
        # [props] name [graph_inputs] ARROW LPAR [value_infos] RPAR [graph_inits] node_list
        nodes, _ = c[8]
        return A.Graph(span_of(c), c[0], name, c[2], c[5] or [], c[7], nodes)

    def graph(self, c: list[Any]) -> A.Graph:
        return self._graph(c, c[1])

    def graph_value(self, c: list[Any]) -> A.Graph:
        return self._graph(c, c[1])

    # -- nodes
    def label(self, c: list[Any]) -> tuple[A.Ident | None, Span]:
        return (c[1], span_of(c))

    def ids(self, c: list[Any]) -> list[A.Ident]:
        # onnx IdList semantics: an empty item is "", except a final empty one, which is dropped.
        items: list[A.Ident | None] = []
        commas: list[Tok] = []
        expect_item = True
        for x in c:
            if isinstance(x, Tok) and x.type == "COMMA":
                if expect_item:
                    items.append(None)
                commas.append(x)
                expect_item = True
            else:
                items.append(x)
                expect_item = False
        if expect_item:
            items.append(None)
        if items and items[-1] is None:
            items.pop()
        out: list[A.Ident] = []
        for i, item in enumerate(items):
            if item is None:
                at = commas[i].start if i < len(commas) else 0
                out.append(A.Ident(Span(at, at), "", False))
            else:
                out.append(item)
        return out

    def op_name(self, c: list[Any]) -> tuple[list[A.Ident], A.Ident, A.Ident | None, Span]:
        overload = c[-1]
        if c[0] is not None and c[0].type == "RAWOP":
            raw: Tok = c[0]
            parts = []
            at = raw.start
            for part in raw.value.split("."):
                parts.append(A.Ident(Span(at, at + len(part)), part))
                at += len(part) + 1
            return (parts[:-1], parts[-1], self._ident(overload) if overload is not None else None, span_of(c))
        parts = (
            [self._ident(t) for t in c[:-2] if t is not None and t.type == "IDENT"]
            if overload is not None
            else [self._ident(t) for t in c if t is not None and t.type == "IDENT"]
        )
        if overload is not None:
            return (parts[:-1], parts[-1], self._ident(overload), span_of(c))
        return (parts[:-1], parts[-1], None, span_of(c))

    def op_overload_only(self, c: list[Any]) -> tuple[list[A.Ident], A.Ident, A.Ident | None, Span]:
        # COLON IDENT: no operator name, an overload
        at = c[0].start
        return ([], A.Ident(Span(at, at), ""), self._ident(c[1]), span_of(c))

    def attributes(self, c: list[Any]) -> tuple[list[A.Attribute | A.ErrorNode], Span]:
        return ([x for x in c if isinstance(x, (A.Attribute, A.ErrorNode))], span_of(c))

    def node(self, c: list[Any]) -> A.Node:
        # [label] ids EQUAL op_name [attributes] LPAR ids RPAR [attributes] [props]
        label = c[0]
        if c[3] is None or not c[3][1].value:
            # `y = (x)`: no operator; onnx.parser reads op_type "" (a node no runtime runs)
            self.diags.append(
                Diagnostic.at(
                    NO_OPERATOR,
                    Severity.WARNING,
                    'the node has no operator name; it is read as op_type "", as onnx.parser reads it',
                    token_span(c[2]),
                    self.source,
                )
            )
        domain, op, overload, _ = c[3] if c[3] is not None else ([], A.Ident(Span(c[2].end, c[2].end), ""), None, None)
        before, after = c[4], c[8]
        if before is not None and after is not None:
            self.diags.append(
                Diagnostic.at(
                    SYNTAX,
                    Severity.ERROR,
                    "attributes are given both before and after the inputs; write one attribute list",
                    after[1],
                    self.source,
                )
            )
        attrs = before[0] if before is not None else (after[0] if after is not None else [])
        return A.Node(
            span_of(c),
            label[0] if label is not None else None,
            label is not None,
            c[1],
            domain,
            op,
            overload,
            attrs,
            before is None and after is not None,
            c[6],
            c[9],
        )

    # -- attributes
    def attribute(self, c: list[Any]) -> A.Attribute:
        # IDENT [COLON IDENT] EQUAL attr_value [props]
        type_name = self._ident(c[2]) if c[2] is not None else None
        return A.Attribute(span_of(c), self._ident(c[0]), type_name, c[4], c[5])

    def attr_value(self, c: list[Any]) -> Any:
        return c[0]

    def attr_list(self, c: list[Any]) -> A.AttrList:
        return A.AttrList(span_of(c), [x for x in c[1:-1] if x is not None and not isinstance(x, Tok)])

    def av_number(self, c: list[Any]) -> A.Number:
        return A.Number(token_span(c[0]), c[0].value)

    def av_string(self, c: list[Any]) -> A.Str:
        return A.Str(token_span(c[0]), self._string(c[0]))

    def av_ref(self, c: list[Any]) -> A.AttrRef:
        return A.AttrRef(span_of(c), c[1])

    def av_type(self, c: list[Any]) -> A.TypeValue:
        return A.TypeValue(span_of(c), c[0])

    def av_tensor(self, c: list[Any]) -> A.TensorValue:
        return A.TensorValue(span_of(c), c[0], c[1], c[2] is not None, c[3])

    def av_tensor_props(self, c: list[Any]) -> A.TensorValue:
        return A.TensorValue(span_of(c), c[0], c[1], c[3] is not None, c[4], c[2])

    def av_graph(self, c: list[Any]) -> A.GraphValue:
        return A.GraphValue(span_of(c), c[0])

    # -- functions
    def fattr_name(self, c: list[Any]) -> A.Attribute:
        return A.Attribute(span_of(c), c[0], None, None)

    def fattr_default(self, c: list[Any]) -> A.Attribute:
        type_name = self._ident(c[2]) if c[2] is not None else None
        return A.Attribute(span_of(c), c[0], type_name, c[4], c[5])

    def function_attrs(self, c: list[Any]) -> list[A.Attribute | A.ErrorNode]:
        return [x for x in c if isinstance(x, (A.Attribute, A.ErrorNode))]

    def function_vis(self, c: list[Any]) -> list[A.ValueInfo]:
        return c[1] or []

    def function(self, c: list[Any]) -> A.Function | A.ErrorNode:
        # [header] name [function_attrs] LPAR [fparams] RPAR ARROW LPAR [fparams] RPAR [function_vis] node_list
        nodes, _ = c[11]
        header = c[0]
        if header is not None and any(
            isinstance(e, A.PropEntry) and e.key.value == "ir_version" for e in header.entries
        ):
            return self._second_model(span_of(c), header.span)
        return A.Function(span_of(c), header, c[1], c[2], c[4] or [], c[8] or [], c[10], nodes)

    def _second_model(self, span: Span, header: Span) -> A.ErrorNode:
        """A model header after the first model: the file holds two models (one diagnostic, no more)."""
        self.models.append(span)
        self.diags.append(
            Diagnostic.at(
                SECOND_MODEL,
                Severity.ERROR,
                "a file holds one model; a second model starts here",
                header,
                self.source,
                fix=Fix("split the file: put each model in a file of its own"),
            )
        )
        return A.ErrorNode(span, "model")

    # -- damaged statements: the ERROR token the driver injects carries the ast.ErrorNode
    def _damaged(self, c: list[Any], kind: str) -> A.ErrorNode:
        node: A.ErrorNode = c[0].node
        node.kind = kind
        if kind in ("value_info", "initializer", "graph", "node_list"):
            # A damaged signature item or body hides which names the scope has.
            node.defines, node.defines_known = [], False
        elif kind != "node":
            node.defines, node.defines_known = [], True
        return node

    def error_node(self, c: list[Any]) -> A.ErrorNode:
        return self._damaged(c, "node")

    def error_entry(self, c: list[Any]) -> A.ErrorNode:
        return self._damaged(c, "entry")

    def error_initializer(self, c: list[Any]) -> A.ErrorNode:
        return self._damaged(c, "initializer")

    def error_value_info(self, c: list[Any]) -> A.ErrorNode:
        return self._damaged(c, "value_info")

    def error_attribute(self, c: list[Any]) -> A.ErrorNode:
        return self._damaged(c, "attribute")

    def error_function(self, c: list[Any]) -> A.ErrorNode:
        node = self._damaged(c, "function")
        source = self.source
        match = _MODEL_HEADER.match(source.text, node.span.start) if source is not None else None
        if match is not None:
            return self._second_model(node.span, Span(node.span.start, match.end()))
        return node

    def error_graph(self, c: list[Any]) -> A.Graph:
        node = self._damaged(c, "graph")
        at = Span(node.span.start, node.span.start)
        return A.Graph(node.span, None, A.Ident(at, ""), None, [], None, [node])

    def error_node_list(self, c: list[Any]) -> tuple[list[A.Node | A.ErrorNode], Span]:
        node = self._damaged(c, "node_list")
        return ([node], node.span)

    def function_list(self, c: list[Any]) -> list[A.Function]:
        return list(c)

    def model(self, c: list[Any]) -> A.Model:
        return A.Model(span_of(c), c[0], c[1], c[2])

    # -- tensor bodies
    def body_numbers(self, c: list[Any]) -> A.NumberBody:
        t = c[0]
        return A.NumberBody(token_span(t), t.value[1:-1])

    def complex_literal(self, c: list[Any]) -> A.ComplexLiteral:
        return A.ComplexLiteral(span_of(c), c[1], c[3])

    def body_literals(self, c: list[Any]) -> A.LiteralBody:
        return A.LiteralBody(
            span_of(c), [x for x in c[1:-1] if isinstance(x, (A.Number, A.Str, A.Word, A.ComplexLiteral))]
        )

    def body_external(self, c: list[Any]) -> A.ExternalBody:
        return A.ExternalBody(span_of(c), c[1] or [])


_MODEL_HEADER = re.compile(r"<\s*ir_version\s*:")
