"""The shape of a text for an editor: an outline (document symbols) and folding ranges.

Plain functions over the AST (so they work on damaged texts too: error nodes are
skipped), used by the language server's ``documentSymbol`` and ``foldingRange``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from onnxtext.span import SourceFile, Span
from onnxtext.syntax import ast as A
from onnxtext.syntax.lexer import Comment
from onnxtext.syntax.printer import print_ast

__all__ = ["OutlineItem", "Fold", "outline", "folding_ranges"]


@dataclass
class OutlineItem:
    """One entry of the outline: ``kind`` is model, graph, function, input, output, initializer, node."""

    name: str
    kind: str
    span: Span
    selection: Span
    detail: str = ""
    children: list[OutlineItem] = field(default_factory=list)


@dataclass(frozen=True)
class Fold:
    """Lines ``start``..``end`` (0-based, inclusive) that fold; ``kind`` is region, comment or imports."""

    start: int
    end: int
    kind: str = "region"


def _type_text(t: A.Type | None) -> str:
    """A value's type as the text writes it (the printer's spelling)."""
    return print_ast(t).rstrip("\n") if t is not None else ""


def _op_text(n: A.Node) -> str:
    op = ".".join(p.value for p in n.domain + [n.op_type])
    return f"{op}:{n.overload.value}" if n.overload is not None else op


def _node_item(n: A.Node) -> OutlineItem:
    outputs = [o.value for o in n.outputs if o.value]
    name = ", ".join(outputs) if outputs else "(no outputs)"
    label = n.label.value if n.label is not None and n.label.value else ""
    detail = _op_text(n) + (f" [{label}]" if label else "")
    item = OutlineItem(name, "node", n.span, n.outputs[0].span if n.outputs else n.op_type.span, detail)
    for attr in n.attributes:
        if isinstance(attr, A.Attribute):
            for graph in _graphs(attr.value):
                sub = _graph_item(graph)
                sub.detail = f"{attr.name.value} of {_op_text(n)}"
                item.children.append(sub)
    return item


def _graphs(value: object) -> Iterator[A.Graph]:
    if isinstance(value, A.GraphValue):
        yield value.graph
    elif isinstance(value, A.AttrList):
        for v in value.items:
            if isinstance(v, A.GraphValue):
                yield v.graph


def _value_item(vi: A.ValueInfo, kind: str) -> OutlineItem:
    return OutlineItem(vi.name.value, kind, vi.span, vi.name.span, _type_text(vi.type))


def _graph_item(g: A.Graph) -> OutlineItem:
    item = OutlineItem(g.name.value or "(graph)", "graph", g.span, g.name.span)
    for init in g.inputs or []:
        if isinstance(init, A.Initializer):
            item.children.append(_value_item(init.info, "initializer" if init.body is not None else "input"))
    for out in g.outputs:
        if isinstance(out, A.ValueInfo):
            item.children.append(_value_item(out, "output"))
    for init in g.initializers or []:
        if isinstance(init, A.Initializer):
            item.children.append(_value_item(init.info, "initializer"))
    item.children.extend(_node_item(n) for n in g.nodes if isinstance(n, A.Node))
    return item


def _function_item(f: A.Function) -> OutlineItem:
    domain = ""
    if f.header is not None:
        for entry in f.header.entries:
            if isinstance(entry, A.PropEntry) and entry.key.value == "domain" and isinstance(entry.value, A.Str):
                domain = entry.value.text
    item = OutlineItem(f.name.value, "function", f.span, f.name.span, domain)
    for vi in f.inputs:
        if isinstance(vi, A.ValueInfo):
            item.children.append(_value_item(vi, "input"))
    for vi in f.outputs:
        if isinstance(vi, A.ValueInfo):
            item.children.append(_value_item(vi, "output"))
    item.children.extend(_node_item(n) for n in f.nodes if isinstance(n, A.Node))
    return item


def outline(tree: A.AstNode | None) -> list[OutlineItem]:
    """The outline of a parsed text: the graph and functions of a model (or the graph, function, nodes given)."""
    if isinstance(tree, A.Model):
        items = []
        if isinstance(tree.graph, A.Graph):
            items.append(_graph_item(tree.graph))
        items.extend(_function_item(f) for f in tree.functions if isinstance(f, A.Function))
        return items
    if isinstance(tree, A.Graph):
        return [_graph_item(tree)]
    if isinstance(tree, A.Function):
        return [_function_item(tree)]
    if isinstance(tree, A.Node):
        return [_node_item(tree)]
    return []


# Kinds whose text folds when it spans several lines.
_FOLDING = (A.Props, A.Graph, A.Function, A.Node, A.LiteralBody, A.NumberBody, A.ExternalBody, A.AttrList, A.PropList)


def folding_ranges(tree: A.AstNode | None, source: SourceFile, comments: Sequence[Comment]) -> list[Fold]:
    """Headers, graphs and subgraphs, functions, multi-line nodes and tensors, runs of comment lines."""
    if tree is None:
        return []
    folds: set[Fold] = set()
    comment_lines = [source.position(c.start).line - 1 for c in comments]
    for node in A.walk(tree):
        if isinstance(node, _FOLDING):
            start = source.position(node.span.start).line - 1
            end = source.position(max(node.span.start, node.span.end - 1)).line - 1
            if end > start:
                folds.add(Fold(start, end))
        if isinstance(node, (A.Graph, A.Function)):
            folds.update(_list_folds(node, source))
    folds.update(_comment_runs(sorted(set(comment_lines)), source))
    return sorted(folds, key=lambda f: (f.start, -f.end, f.kind))


def _list_folds(owner: A.Graph | A.Function, source: SourceFile) -> Iterator[Fold]:
    """The ``<…>`` list after the signature (initializers, a function's value infos) and the ``{…}``
    body: 16,000 lines of weights fold away to show the nodes."""
    text = source.text
    outputs = owner.outputs
    after = _skip_to(text, outputs[-1].span.end if outputs else owner.name.span.end, ")")
    listed = owner.initializers if isinstance(owner, A.Graph) else owner.value_infos
    if listed and after is not None and text.startswith("<", after):
        closing = _skip_to(text, listed[-1].span.end, ",")
        if closing is not None and text.startswith(">", closing):
            yield from _fold_between(after, closing, source)
            after = _skip_to(text, closing + 1, "")
    body, last = after, owner.span.end - 1
    if body is not None and text.startswith("{", body) and last > body and text.startswith("}", last):
        yield from _fold_between(body, last, source)


def _skip_to(text: str, position: int, skipped: str) -> int | None:
    """The offset of the first character at or after ``position`` that is not blank, in a comment,
    or one of ``skipped``; None at the end of the text."""
    index = position
    while index < len(text):
        char = text[index]
        if char == "#":
            newline = text.find("\n", index)
            index = len(text) if newline < 0 else newline
        elif char.isspace() or char in skipped:
            index += 1
        else:
            return index
    return None


def _fold_between(opening: int, closing: int, source: SourceFile) -> Iterator[Fold]:
    start = source.position(opening).line - 1
    end = source.position(closing).line - 1
    if end > start:
        yield Fold(start, end)


def _comment_runs(lines: list[int], source: SourceFile) -> Iterator[Fold]:
    """Runs of two or more lines that hold nothing but a comment."""
    run: list[int] = []
    for line in lines:
        if not source.line_text(line + 1).lstrip().startswith("#"):
            continue  # a trailing comment after code does not start a block
        if run and line == run[-1] + 1:
            run.append(line)
            continue
        if len(run) > 1:
            yield Fold(run[0], run[-1], "comment")
        run = [line]
    if len(run) > 1:
        yield Fold(run[0], run[-1], "comment")
