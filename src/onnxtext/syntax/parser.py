"""Text → AST: a Lark LALR(1) table for ``grammar/onnxtext.lark`` driven by our own loop.

Lark compiles the grammar into its parse table once (lazily); this module feeds it
the tokens of ``lexer.py`` and builds the AST in the reduce callbacks, so no parse
tree is ever materialised. On a syntax error it records a located diagnostic, blanks
the offending line and parses again, so independent errors are all reported.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lark
from lark.parsers.lalr_analysis import Shift

from onnxtext.syntax import ast as A
from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.syntax.lexer import KEYWORDS, Comment, LexError, Tok, tokenize, unescape_string
from onnxtext.syntax.span import SourceFile, Span

__all__ = ["ParseResult", "parse_text", "ENTRY_POINTS", "grammar_path", "grammar_text"]

ENTRY_POINTS = ("model", "graph", "function", "node", "node_list")
MAX_ERRORS = 25

# Diagnostic codes of the parser.
SYNTAX = "P001"
LEXICAL = "P002"
BAD_STRING = "P003"
UNKNOWN_ESCAPE = "P004"


def grammar_path() -> Path:
    """Where the grammar is: inside the installed package, or at the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "grammar" / "onnxtext.lark", package.parent.parent / "grammar" / "onnxtext.lark"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("grammar/onnxtext.lark is missing from this onnxtext installation")


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


@dataclass
class ParseResult:
    """The AST (None if nothing could be built), every diagnostic, and the comments seen."""

    tree: Any
    diagnostics: list[Diagnostic]
    source: SourceFile
    comments: list[Comment] = field(default_factory=list)
    # Comments after the last node of a node_list text (other trees keep them on their nodes).
    end_comments: list[A.Comment] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


# ---------------------------------------------------------------- tree building


def _start(x: Any) -> int | None:
    if x is None:
        return None
    if isinstance(x, Tok):
        return x.start
    if isinstance(x, A.AstNode):
        return x.span.start
    if isinstance(x, list):
        for item in x:
            s = _start(item)
            if s is not None:
                return s
        return None
    if isinstance(x, tuple) and x and isinstance(x[-1], Span):
        return x[-1].start
    return None


def _end(x: Any) -> int | None:
    if x is None:
        return None
    if isinstance(x, Tok):
        return x.end
    if isinstance(x, A.AstNode):
        return x.span.end
    if isinstance(x, list):
        for item in reversed(x):
            e = _end(item)
            if e is not None:
                return e
        return None
    if isinstance(x, tuple) and x and isinstance(x[-1], Span):
        return x[-1].end
    return None


def _span(c: Sequence[Any]) -> Span:
    start = end = None
    for x in c:
        start = _start(x)
        if start is not None:
            break
    for x in reversed(c):
        end = _end(x)
        if end is not None:
            break
    if start is None or end is None:
        return Span(0, 0)
    return Span(start, end)


def _tspan(t: Tok) -> Span:
    return Span(t.start, t.end)


class _Builder(lark.Transformer):  # type: ignore[type-arg]
    """Reduce callbacks: one method per grammar rule (or alias) building AST nodes."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.diags: list[Diagnostic] = []
        self.source: SourceFile | None = None

    # -- helpers
    def _string(self, tok: Tok) -> bytes:
        value, problems = unescape_string(tok.value)
        for offset, message in problems:
            self.diags.append(
                Diagnostic.at(UNKNOWN_ESCAPE, Severity.WARNING, message, Span(tok.start + offset, tok.start + offset + 2), self.source)
            )
        return value

    def _ident(self, tok: Tok) -> A.Ident:
        if tok.type == "STRING":
            raw = self._string(tok)
            return A.Ident(_tspan(tok), raw.decode("utf-8", "surrogateescape"), True)
        return A.Ident(_tspan(tok), tok.value)

    # -- names and leaves
    def name(self, c: list[Any]) -> A.Ident:
        return self._ident(c[0])

    graph_name = name

    def literal(self, c: list[Any]) -> A.Number | A.Str | A.Word:
        t = c[0]
        if t.type == "NUMBER":
            return A.Number(_tspan(t), t.value)
        if t.type == "STRING":
            return A.Str(_tspan(t), self._string(t))
        return A.Word(_tspan(t), t.value)

    # -- property blocks and headers
    def header(self, c: list[Any]) -> A.Props:
        return A.Props(_span(c), c[1] or [], header=True)

    def props(self, c: list[Any]) -> A.Props:
        return A.Props(_span(c), c[1] or [])

    def prop_entries(self, c: list[Any]) -> list[A.PropEntry]:
        return [x for x in c if isinstance(x, A.PropEntry)]

    def prop_entry(self, c: list[Any]) -> A.PropEntry:
        return A.PropEntry(_span(c), self._ident(c[0]), c[2])

    def pv_number(self, c: list[Any]) -> A.Number:
        return A.Number(_tspan(c[0]), c[0].value)

    def pv_string(self, c: list[Any]) -> A.Str:
        return A.Str(_tspan(c[0]), self._string(c[0]))

    def pv_ident(self, c: list[Any]) -> A.Word:
        return A.Word(_tspan(c[0]), c[0].value)

    def pv_list(self, c: list[Any]) -> A.PropList:
        return A.PropList(_span(c), c[1] or [])

    def pv_dict(self, c: list[Any]) -> A.PropDict:
        return A.PropDict(_span(c), c[1] or [])

    def pv_graph(self, c: list[Any]) -> A.GraphValue:
        return A.GraphValue(c[0].span, c[0])

    def pv_tensor(self, c: list[Any]) -> A.TensorValue:
        # type [name] [props] [EQUAL] tensor_body
        return A.TensorValue(_span(c), c[0], c[1], c[3] is not None, c[4], c[2])

    def av_fields(self, c: list[Any]) -> A.PropDict:
        return A.PropDict(_span(c), c[1] or [])

    def pitems(self, c: list[Any]) -> list[Any]:
        return [x for x in c if x is not None and not isinstance(x, Tok)]

    def pi_value(self, c: list[Any]) -> Any:
        return c[0]

    def pi_pair(self, c: list[Any]) -> A.PropPair:
        return A.PropPair(_span(c), c[0], c[2])

    # -- types
    def tensor_type(self, c: list[Any]) -> A.TensorType:
        shape = c[1]
        if shape is None:
            dims: list[A.Dim] | None = []
        elif shape[0] is None:
            dims = None
        else:
            dims = shape[0]
        return A.TensorType(_span(c), self._ident(c[0]), dims)

    def shape(self, c: list[Any]) -> tuple[list[A.Dim] | None, Span]:
        dims = [x for x in c[1:-1] if isinstance(x, A.Dim)]
        return (dims if dims else None, _span(c))

    def dim(self, c: list[Any]) -> A.Dim:
        d = self._dim(c[0])
        if c[1] is not None:
            d.props = c[1]
        return d

    def _dim(self, t: Tok) -> A.Dim:
        span = _tspan(t)
        if t.type == "QMARK":
            return A.Dim(span)
        if t.type == "NUMBER":
            try:
                return A.Dim(span, value=int(t.value))
            except ValueError:
                self.diags.append(
                    Diagnostic.at(SYNTAX, Severity.ERROR, f"a dimension must be a whole number, a name or '?', not {t.value}", span, self.source)
                )
                return A.Dim(span)
        if t.type == "STRING":
            return A.Dim(span, param=self._string(t).decode("utf-8", "surrogateescape"), quoted=True)
        return A.Dim(span, param=t.value)

    def seq_type(self, c: list[Any]) -> A.SeqType:
        return A.SeqType(_span(c), c[2])

    def map_type(self, c: list[Any]) -> A.MapType:
        return A.MapType(_span(c), self._ident(c[2]), c[4])

    def optional_type(self, c: list[Any]) -> A.OptionalType:
        return A.OptionalType(_span(c), c[2])

    def sparse_type(self, c: list[Any]) -> A.SparseTensorType:
        shape = c[3]
        if shape is None:
            dims: list[A.Dim] | None = []
        elif shape[0] is None:
            dims = None
        else:
            dims = shape[0]
        inner = A.TensorType(Span(c[2].start, _end(shape) or c[2].end), self._ident(c[2]), dims, sparse=True)
        return A.SparseTensorType(_span(c), inner)

    def opaque_type(self, c: list[Any]) -> A.OpaqueType:
        parts = [x for x in c[2:-1] if x is not None and not (isinstance(x, Tok) and x.type == "COMMA")]
        if not parts:
            return A.OpaqueType(_span(c), None, None)
        if len(parts) == 1:
            return A.OpaqueType(_span(c), None, parts[0])
        return A.OpaqueType(_span(c), parts[0], parts[1])

    def qualified(self, c: list[Any]) -> str:
        return "".join(t.value for t in c)

    def opaque_part(self, c: list[Any]) -> str:
        t = c[0]
        if isinstance(t, Tok):
            return self._string(t).decode("utf-8", "surrogateescape")
        return str(t)

    # -- value infos, graphs
    def value_info(self, c: list[Any]) -> A.ValueInfo:
        return A.ValueInfo(_span(c), c[0], c[1], c[2])

    def value_infos(self, c: list[Any]) -> list[A.ValueInfo]:
        return [x for x in c if isinstance(x, A.ValueInfo)]

    fparams = value_infos

    def graph_item(self, c: list[Any]) -> A.Initializer:
        return A.Initializer(_span(c), c[0], c[2])

    def graph_items(self, c: list[Any]) -> list[A.Initializer]:
        return [x for x in c if isinstance(x, A.Initializer)]

    def graph_inputs(self, c: list[Any]) -> list[A.Initializer]:
        return c[1] or []

    graph_inits = graph_inputs

    def node_list(self, c: list[Any]) -> tuple[list[A.Node], Span]:
        return ([x for x in c[1:-1] if isinstance(x, A.Node)], _span(c))

    def _graph(self, c: list[Any], name: A.Ident) -> A.Graph:
        # [props] name [graph_inputs] ARROW LPAR [value_infos] RPAR [graph_inits] node_list
        nodes, _ = c[8]
        return A.Graph(_span(c), c[0], name, c[2], c[5] or [], c[7], nodes)

    def graph(self, c: list[Any]) -> A.Graph:
        return self._graph(c, c[1])

    def graph_value(self, c: list[Any]) -> A.Graph:
        return self._graph(c, c[1])

    # -- nodes
    def label(self, c: list[Any]) -> tuple[A.Ident | None, Span]:
        return (c[1], _span(c))

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
        parts = [self._ident(t) for t in c[:-2] if t is not None and t.type == "IDENT"] if overload is not None else [
            self._ident(t) for t in c if t is not None and t.type == "IDENT"
        ]
        if overload is not None:
            return (parts[:-1], parts[-1], self._ident(overload), _span(c))
        return (parts[:-1], parts[-1], None, _span(c))

    def attributes(self, c: list[Any]) -> tuple[list[A.Attribute], Span]:
        return ([x for x in c if isinstance(x, A.Attribute)], _span(c))

    def node(self, c: list[Any]) -> A.Node:
        # [label] ids EQUAL op_name [attributes] LPAR ids RPAR [attributes] [props]
        label = c[0]
        domain, op, overload, _ = c[3]
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
            _span(c),
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
        return A.Attribute(_span(c), self._ident(c[0]), type_name, c[4], c[5])

    def attr_value(self, c: list[Any]) -> Any:
        return c[0]

    def attr_list(self, c: list[Any]) -> A.AttrList:
        return A.AttrList(_span(c), [x for x in c[1:-1] if x is not None and not isinstance(x, Tok)])

    def av_number(self, c: list[Any]) -> A.Number:
        return A.Number(_tspan(c[0]), c[0].value)

    def av_string(self, c: list[Any]) -> A.Str:
        return A.Str(_tspan(c[0]), self._string(c[0]))

    def av_ref(self, c: list[Any]) -> A.AttrRef:
        return A.AttrRef(_span(c), c[1])

    def av_type(self, c: list[Any]) -> A.TypeValue:
        return A.TypeValue(_span(c), c[0])

    def av_tensor(self, c: list[Any]) -> A.TensorValue:
        return A.TensorValue(_span(c), c[0], c[1], c[2] is not None, c[3])

    def av_tensor_props(self, c: list[Any]) -> A.TensorValue:
        return A.TensorValue(_span(c), c[0], c[1], c[3] is not None, c[4], c[2])

    def av_graph(self, c: list[Any]) -> A.GraphValue:
        return A.GraphValue(_span(c), c[0])

    # -- functions
    def fattr_name(self, c: list[Any]) -> A.Attribute:
        return A.Attribute(_span(c), c[0], None, None)

    def fattr_default(self, c: list[Any]) -> A.Attribute:
        type_name = self._ident(c[2]) if c[2] is not None else None
        return A.Attribute(_span(c), c[0], type_name, c[4], c[5])

    def function_attrs(self, c: list[Any]) -> list[A.Attribute]:
        return [x for x in c if isinstance(x, A.Attribute)]

    def function_vis(self, c: list[Any]) -> list[A.ValueInfo]:
        return c[1] or []

    def function(self, c: list[Any]) -> A.Function:
        # [header] name [function_attrs] LPAR [fparams] RPAR ARROW LPAR [fparams] RPAR [function_vis] node_list
        nodes, _ = c[11]
        return A.Function(_span(c), c[0], c[1], c[2], c[4] or [], c[8] or [], c[10], nodes)

    def function_list(self, c: list[Any]) -> list[A.Function]:
        return list(c)

    def model(self, c: list[Any]) -> A.Model:
        return A.Model(_span(c), c[0], c[1], c[2])

    # -- tensor bodies
    def body_numbers(self, c: list[Any]) -> A.NumberBody:
        t = c[0]
        return A.NumberBody(_tspan(t), t.value[1:-1])

    def complex_literal(self, c: list[Any]) -> A.ComplexLiteral:
        return A.ComplexLiteral(_span(c), c[1], c[3])

    def body_literals(self, c: list[Any]) -> A.LiteralBody:
        return A.LiteralBody(_span(c), [x for x in c[1:-1] if isinstance(x, (A.Number, A.Str, A.Word, A.ComplexLiteral))])

    def body_external(self, c: list[Any]) -> A.ExternalBody:
        return A.ExternalBody(_span(c), c[1] or [])


# ---------------------------------------------------------------- the parser


class _Parser:
    """Lark's LALR table for the grammar plus our driver loop; built once, on first use."""

    def __init__(self) -> None:
        self.builder = _Builder()
        self.lark = lark.Lark(
            grammar_text(),
            parser="lalr",
            lexer=_NoLexer,
            start=list(ENTRY_POINTS),
            transformer=self.builder,
            maybe_placeholders=True,
            keep_all_tokens=True,
        )
        frontend = self.lark.parser
        table = frontend.parser.parser.parse_table
        self.states: dict[Any, dict[str, tuple[Any, Any]]] = table.states
        self.start_states = table.start_states
        self.end_states = table.end_states
        self.callbacks: dict[Any, Callable[[list[Any]], Any]] = frontend.parser.parser.callbacks
        # The hot loop reads plain tuples: (None, next_state) to shift,
        # (size, callback, goto_symbol) to reduce; Lark's Rule objects are never hashed there.
        self.actions: dict[Any, dict[str, tuple[Any, Any, Any]]] = {}
        for state, row in self.states.items():
            compiled: dict[str, tuple[Any, Any, Any]] = {}
            for term, (kind, arg) in row.items():
                # Lark's symbol names are its Token class, whose __eq__ is Python code: use plain str.
                if kind is Shift:
                    compiled[str(term)] = (None, arg, None)
                else:
                    compiled[str(term)] = (len(arg.expansion), self.callbacks[arg], str(arg.origin.name))
            self.actions[state] = compiled
        self.lock = threading.Lock()
        self.last_good = 0

    def run(self, text: str, start: str, source: SourceFile) -> tuple[Any, list[Diagnostic], list[Comment]]:
        """Parse once; on the first syntax error return (None, [that error], comments).

        ``self.last_good`` is then the start of the last token shifted before the error.
        """
        actions = self.actions
        end_state = self.end_states[start]
        state_stack = [self.start_states[start]]
        value_stack: list[Any] = []
        comments: list[Comment] = []
        lex_errors: list[LexError] = []
        keywords = KEYWORDS
        diags: list[Diagnostic] = []
        self.builder.diags = diags
        self.builder.source = source
        last_good = 0
        tokens = list(tokenize(text, comments, lex_errors))
        tokens.append(Tok("$END", "", len(text), len(text)))
        for tok in tokens:
            ttype = tok.type
            if ttype == "IDENT" and tok.value in keywords:
                kw = keywords[tok.value]
                if self._can_shift(state_stack, kw):
                    tok.type = ttype = kw
            while True:
                action = actions[state_stack[-1]].get(ttype)
                if action is None:
                    diags.extend(_lex_diags(lex_errors, source))
                    diags.append(self._syntax_error(state_stack, tok, source))
                    self.last_good = last_good
                    return None, diags, comments
                size, arg, goto = action
                if size is None:
                    state_stack.append(arg)
                    value_stack.append(tok)
                    last_good = tok.start
                    break
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value = arg(children)
                state_stack.append(actions[state_stack[-1]][goto][1])
                value_stack.append(value)
                if ttype == "$END" and state_stack[-1] == end_state:
                    diags.extend(_lex_diags(lex_errors, source))
                    return value_stack[-1], diags, comments
        raise AssertionError("unreachable: $END always ends the loop")  # pragma: no cover

    def _can_shift(self, stack: list[Any], term: str) -> bool:
        """Whether ``term`` can be shifted after the reductions it triggers."""
        states = self.states
        stack = list(stack)
        while True:
            action = states[stack[-1]].get(term)
            if action is None:
                return False
            kind, arg = action
            if kind is Shift:
                return True
            size = len(arg.expansion)
            if size:
                del stack[-size:]
            stack.append(states[stack[-1]][arg.origin.name][1])
            if term == "$END" and stack[-1] in self.end_states.values():
                return True

    def expected(self, stack: list[Any]) -> list[str]:
        return sorted(t for t in self.states[stack[-1]] if t.isupper() and self._can_shift(stack, t))

    def _syntax_error(self, stack: list[Any], tok: Tok, source: SourceFile) -> Diagnostic:
        expected = self.expected(stack)
        message = describe_syntax_error(expected, tok)
        span = Span(tok.start, max(tok.end, tok.start + 1)) if tok.type != "$END" else Span(tok.start, tok.start)
        return Diagnostic.at(SYNTAX, Severity.ERROR, message, span, source)


class _NoLexer(lark.lexer.Lexer):
    """Placeholder: tokens are fed by ``_Parser.run``, never by Lark's lexer."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: Any, parser_state: Any) -> Any:  # pragma: no cover
        raise NotImplementedError


def _lex_diags(errors: list[LexError], source: SourceFile) -> list[Diagnostic]:
    return [
        Diagnostic.at(BAD_STRING if "string" in e.message else LEXICAL, Severity.ERROR, e.message, Span(e.start, e.end), source)
        for e in errors
    ]


TERMINAL_NAMES = {
    "IDENT": "a name",
    "STRING": "a string",
    "NUMBER": "a number",
    "NUMLIST": "tensor values",
    "SEQ": "'seq'",
    "MAP": "'map'",
    "OPTIONAL": "'optional'",
    "SPARSE_TENSOR": "'sparse_tensor'",
    "OPAQUE": "'opaque'",
    "LT": "'<'",
    "GT": "'>'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "PROPS": "'@{'",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "DOT": "'.'",
    "QMARK": "'?'",
    "AT": "'@'",
    "ARROW": "'=>'",
    "$END": "the end of the text",
}

_ORDER = ["COMMA", "RPAR", "RSQB", "RBRACE", "GT", "EQUAL", "ARROW", "COLON", "LPAR", "LSQB", "LBRACE", "LT", "IDENT", "STRING", "NUMBER"]


def _found(tok: Tok) -> str:
    if tok.type == "$END":
        return "the end of the text"
    if tok.type == "IDENT":
        return f"name '{tok.value}'"
    if tok.type == "STRING":
        return f"string {tok.value}" if len(tok.value) < 40 else "a string"
    if tok.type == "NUMBER":
        return f"number {tok.value}"
    if tok.type == "NUMLIST":
        return "tensor values"
    if tok.type in KEYWORDS.values():
        return f"keyword '{tok.value}'"
    return f"'{tok.value}'"


def describe_syntax_error(expected: Sequence[str], tok: Tok) -> str:
    """A human sentence: what was expected at a token and what was found."""
    if "NUMLIST" in expected and "LBRACE" in expected:
        expected = [e for e in expected if e != "NUMLIST"]
    keys = sorted(expected, key=lambda t: (_ORDER.index(t) if t in _ORDER else len(_ORDER), t))
    names = [TERMINAL_NAMES.get(k, k) for k in keys]
    if not names:
        wanted = "nothing more"
    elif len(names) == 1:
        wanted = names[0]
    elif len(names) <= 6:
        wanted = ", ".join(names[:-1]) + " or " + names[-1]
    else:
        wanted = ", ".join(names[:5]) + " or another token"
    return f"expected {wanted}, found {_found(tok)}"


_PARSER: _Parser | None = None
_PARSER_LOCK = threading.Lock()


def _parser() -> _Parser:
    global _PARSER
    if _PARSER is None:
        with _PARSER_LOCK:
            if _PARSER is None:
                _PARSER = _Parser()
    return _PARSER


def parse_text(text: str, start: str = "model", path: str = "<text>") -> ParseResult:
    """Parse ``text`` from entry point ``start``, recovering to report independent errors."""
    if start not in ENTRY_POINTS:
        raise ValueError(f"unknown entry point {start!r}; use one of {', '.join(ENTRY_POINTS)}")
    source = SourceFile(text, path)
    parser = _parser()
    diags: list[Diagnostic] = []
    work = text
    last_error = -1
    with parser.lock:
        while True:
            tree, found, comments = parser.run(work, start, source)
            syntax = [d for d in found if d.code == SYNTAX and d.span is not None and tree is None]
            if last_error >= 0 and syntax and syntax[-1].span is not None and syntax[-1].offset >= len(work):
                # An error at the end of a text we blanked is an echo of the blanking.
                break
            diags.extend(d for d in found if d not in syntax or d.span is None or d.offset > last_error)
            if tree is not None or not syntax:
                break
            err = syntax[-1]
            assert err.span is not None
            if err.offset <= last_error or len(diags) >= MAX_ERRORS or err.offset >= len(work):
                break
            blanked = _blank_statement(work, parser.last_good, err.offset)
            if blanked is None:
                break
            last_error = err.offset
            work = blanked
    diags = _dedupe(diags)
    end_comments: list[A.Comment] = []
    if tree is not None:
        end_comments = _attach_comments(tree, comments, text)
    return ParseResult(tree, diags, source, comments, end_comments)


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, int, str]] = set()
    out = []
    for d in diags:
        key = (d.code, d.offset, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    out.sort(key=lambda d: d.offset)
    return out




def _imbalance(text: str) -> int:
    """How far the brackets of ``text`` are from balanced (sum over bracket kinds)."""
    counts = {"LPAR": 0, "LSQB": 0, "LBRACE": 0, "LT": 0}
    closing = {"RPAR": "LPAR", "RSQB": "LSQB", "RBRACE": "LBRACE", "GT": "LT"}
    for tok in tokenize(text):
        if tok.type in counts:
            counts[tok.type] += 1
        elif tok.type == "PROPS":
            counts["LBRACE"] += 1
        elif tok.type in closing:
            counts[closing[tok.type]] -= 1
    return sum(abs(v) for v in counts.values())


def _blank_statement(text: str, last_good: int, offset: int) -> str | None:
    """``text`` with the statement around a syntax error replaced by spaces, or None.

    The region runs from the line of the last token that parsed (an error is often
    caused at the end of the previous line: a missing ')') to the end of the error's
    line, starting after an opening '{' on that first line if there is one. A region is
    used only if blanking it does not leave the brackets of the text less balanced.
    """
    first = min(last_good, offset)
    begin = text.rfind("\n", 0, first) + 1
    stop = text.find("\n", offset)
    if stop < 0:
        stop = len(text)
    before = _imbalance(text)
    candidates = [begin]
    brace = text.rfind("{", begin, offset)
    if brace >= 0:
        candidates.insert(0, brace + 1)
    line_begin = text.rfind("\n", 0, offset) + 1
    if line_begin not in candidates:
        candidates.append(line_begin)
    for start in candidates:
        region = text[start:stop]
        if not region.strip():
            continue
        blanked = text[:start] + "".join(c if c == "\n" else " " for c in region) + text[stop:]
        if _imbalance(blanked) <= before:
            return blanked
    return None


# ---------------------------------------------------------------- comments


def _attach_comments(tree: Any, comments: list[Comment], text: str) -> list[A.Comment]:
    """Give each comment to the node it precedes (or follows on the same line) for ``fmt``.

    Returns the comments after the last node of a bare node list, which has no owner to keep them.
    """
    if not comments:
        return []
    bodies: list[tuple[Any, list[A.Node]]] = []

    def collect_graph(g: A.Graph) -> None:
        bodies.append((g, g.nodes))
        for n in g.nodes:
            for a in n.attributes:
                for sub in _graphs_in(a.value):
                    collect_graph(sub)

    top: Any = tree
    if isinstance(tree, A.Model):
        collect_graph(tree.graph)
        for f in tree.functions:
            bodies.append((f, f.nodes))
            for n in f.nodes:
                for a in n.attributes:
                    for sub in _graphs_in(a.value):
                        collect_graph(sub)
    elif isinstance(tree, A.Graph):
        collect_graph(tree)
    elif isinstance(tree, A.Function):
        bodies.append((tree, tree.nodes))
    elif isinstance(tree, A.Node):
        top = _Body(tree.span, [tree])
        bodies.append((top, top.nodes))
        for a in tree.attributes:
            for sub in _graphs_in(a.value):
                collect_graph(sub)
    elif isinstance(tree, tuple):  # node_list: (nodes, span of the braces)
        top = _Body(tree[1], tree[0])
        bodies.append((top, top.nodes))
        for n in tree[0]:
            for a in n.attributes:
                for sub in _graphs_in(a.value):
                    collect_graph(sub)
    for c in comments:
        comment = A.Comment(Span(c.start, c.end), c.text)
        if isinstance(tree, A.Model) and _place_in_model(tree, c.start, comment):
            continue
        owner = None
        for container, _nodes in bodies:
            if container.span.start <= c.start < container.span.end:
                if owner is None or container.span.start >= owner.span.start:
                    owner = container
        if owner is None:
            target = top
            if target is not None and hasattr(target, "end_comments") and c.start >= target.span.end:
                target.end_comments.append(comment)
            elif target is not None and hasattr(target, "comments"):
                target.comments.append(comment)
            continue
        nodes = owner.nodes
        placed = False
        for i, n in enumerate(nodes):
            if n.span.start > c.start:
                prev = nodes[i - 1] if i else None
                if prev is not None and prev.trailing_comment is None and _same_line(text, prev.span.end, c.start):
                    prev.trailing_comment = comment
                else:
                    n.comments.append(comment)
                placed = True
                break
            if n.span.start <= c.start < n.span.end:
                n.comments.append(comment)
                placed = True
                break
        if not placed:
            if nodes and nodes[-1].trailing_comment is None and _same_line(text, nodes[-1].span.end, c.start):
                nodes[-1].trailing_comment = comment
            elif nodes and c.start > nodes[-1].span.end or not nodes:
                if nodes or _in_body(text, owner, c.start):
                    owner.end_comments.append(comment)
                else:
                    owner.comments.append(comment)
            else:
                owner.comments.append(comment)
    return top.end_comments if isinstance(top, _Body) else []


class _Body:
    """A node list that is not a graph or function body (the node and node_list entry points)."""

    def __init__(self, span: Span, nodes: list[A.Node]) -> None:
        self.span = Span(span.start, max(span.end, max((n.span.end for n in nodes), default=span.end)) + 1)
        self.nodes = nodes
        self.comments: list[A.Comment] = []
        self.end_comments: list[A.Comment] = []


def _place_in_model(model: A.Model, offset: int, comment: A.Comment) -> bool:
    """Comments between the header and the graph, or before a function, stay where they are."""
    graph = model.graph
    header_end = model.header.span.end if model.header is not None else -1
    if header_end <= offset < graph.span.start and model.header is not None:
        graph.comments.append(comment)
        return True
    if offset >= graph.span.end:
        for f in model.functions:
            if offset < f.span.start:
                f.comments.append(comment)
                return True
    return False


def _same_line(text: str, a: int, b: int) -> bool:
    return "\n" not in text[a:b]


def _in_body(text: str, owner: Any, offset: int) -> bool:
    return text.rfind("{", owner.span.start, offset) >= 0


def _graphs_in(value: Any) -> list[A.Graph]:
    if isinstance(value, A.GraphValue):
        return [value.graph]
    if isinstance(value, A.AttrList):
        return [v.graph for v in value.items if isinstance(v, A.GraphValue)]
    return []
