"""Comments attached to the syntax tree before layout, so the printer can write each where it was.

Every comment is given to one AST node (the way prettier does): the deepest node whose span
holds the comment encloses it; among that node's children, the one ending before the comment
*precedes* it and the one starting after it *follows* it. Then:

- a comment on the line of the token before it is **trailing**: it stays after the preceding
  child (``x,  # images``), or, when nothing precedes it inside the enclosing node, right after
  the opening bracket (``<  # first``, an ``open`` comment of the following child);
- a comment on a line of its own is **leading**: it stays above the following child, or, when
  nothing follows, below the preceding one (``after``);
- a comment inside empty brackets (``[ # c`` ``]``) is ``dangling`` in the node of the brackets.

A graph or function body is its own region: a comment after ``{`` on its line is an ``open``
comment of the body, one below the last statement is an ``end`` comment of the body.
Blank lines are kept where they separate statements or stand before a comment (runs collapse
to one): :meth:`CommentMap.blank_before` reads them from the text.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from onnxtext.syntax import ast as A
from onnxtext.syntax.lexer import Comment

__all__ = ["Note", "CommentMap", "attach_comments"]


@dataclass(frozen=True, slots=True)
class Note:
    """A comment as the printer writes it: its text (without ``#``) and whether an empty line precedes it."""

    text: str
    start: int
    blank: bool
    trailing: bool = False


@dataclass(slots=True)
class CommentMap:
    """Comments by the id of the AST node they belong to (see the module docstring for the kinds)."""

    text: str
    leading: dict[int, list[Note]] = field(default_factory=dict)
    trailing: dict[int, list[Note]] = field(default_factory=dict)
    open: dict[int, list[Note]] = field(default_factory=dict)
    after: dict[int, list[Note]] = field(default_factory=dict)
    body_open: dict[int, list[Note]] = field(default_factory=dict)
    body_end: dict[int, list[Note]] = field(default_factory=dict)
    dangling: dict[int, list[Note]] = field(default_factory=dict)

    def blank_before(self, offset: int) -> bool:
        """Whether an empty line stands between the text before ``offset`` and ``offset``."""
        text = self.text
        i = offset
        newlines = 0
        while i > 0 and text[i - 1] in " \t\r\n\f\v":
            i -= 1
            if text[i] == "\n":
                newlines += 1
                if newlines >= 2:
                    return i > 0 and text[:i].strip() != ""
        return False

    def kinds(self) -> list[tuple[str, int, int]]:
        """``(kind, node id, comment start)`` of every attached comment (for tests)."""
        out: list[tuple[str, int, int]] = []
        for kind in ("leading", "trailing", "open", "after", "body_open", "body_end", "dangling"):
            table: dict[int, list[Note]] = getattr(self, kind)
            for key, notes in table.items():
                out.extend((kind, key, n.start) for n in notes)
        return out


def _real(node: A.AstNode) -> bool:
    return node.span.end > node.span.start


def body_brace(text: str, owner: A.Graph | A.Function) -> int:
    """The offset of the ``{`` that opens the body of a graph or function (the body may be empty)."""
    head: list[A.AstNode] = [owner.name]
    if isinstance(owner, A.Graph):
        head += list(owner.inputs or ()) + list(owner.outputs) + list(owner.initializers or ())
    else:
        if owner.header is not None:
            head.append(owner.header)
        head += list(owner.attributes or ()) + list(owner.inputs) + list(owner.outputs) + list(owner.value_infos or ())
    i = max((n.span.end for n in head if _real(n)), default=owner.span.start)  # a damaged head may hold nothing
    end = owner.span.end
    while i < end:
        ch = text[i]
        if ch == "{":
            return i
        if ch == "#":
            nl = text.find("\n", i)
            i = end if nl < 0 else nl
            continue
        i += 1
    return end


class _Attacher:
    def __init__(self, text: str, cmap: CommentMap) -> None:
        self.text = text
        self.cmap = cmap
        self._children: dict[int, tuple[list[A.AstNode], list[int], list[int]]] = {}
        self._brace: dict[int, int] = {}

    def children(self, node: Any, region: str = "") -> tuple[list[A.AstNode], list[int], list[int]]:
        key = id(node) * 4 + ("", "head", "body").index(region)
        got = self._children.get(key)
        if got is None:
            if isinstance(node, _Root):
                kids = node.items
            elif region == "body":
                kids = [n for n in node.nodes if _real(n)]
            else:
                kids = [c for c in node.children() if _real(c)]
                if region == "head":
                    body = {id(n) for n in node.nodes}
                    kids = [c for c in kids if id(c) not in body]
            kids.sort(key=lambda c: c.span.start)
            got = (kids, [c.span.start for c in kids], [c.span.end for c in kids])
            self._children[key] = got
        return got

    def brace(self, owner: A.Graph | A.Function) -> int:
        got = self._brace.get(id(owner))
        if got is None:
            got = self._brace[id(owner)] = body_brace(self.text, owner)
        return got

    def around(self, node: Any, region: str, offset: int) -> tuple[Any, Any, Any]:
        """(the child holding ``offset``, or the child before it and the child after it)."""
        kids, starts, ends = self.children(node, region)
        i = bisect_right(starts, offset)
        if i and offset < ends[i - 1]:
            return kids[i - 1], None, None
        return None, kids[i - 1] if i else None, kids[i] if i < len(kids) else None

    def place(self, root: _Root, c: Comment) -> None:
        trailing = _same_line_as_token_before(self.text, c.start)
        note = Note(c.text.rstrip(), c.start, self.cmap.blank_before(c.start), trailing)
        cm = self.cmap
        node: Any = root
        while True:
            body = isinstance(node, (A.Graph, A.Function)) and c.start > self.brace(node)
            region = "body" if body else "head" if isinstance(node, (A.Graph, A.Function)) else ""
            inside, prev, nxt = self.around(node, region, c.start)
            if inside is not None:
                node = inside
                continue
            if trailing and prev is not None and id(prev) in cm.trailing:
                # A second comment after the same node (``x  # a`` then ``,  # b``): the comma
                # between them is no node, so it goes on a line of its own, above what follows.
                if nxt is not None:
                    self._add(cm.leading, nxt, note)
                else:
                    self._add(cm.body_end if body else cm.after, node if body else prev, note)
            elif trailing and prev is not None:
                self._add(cm.trailing, prev, note)
            elif trailing and body:
                self._add(cm.body_open, node, note)
            elif trailing and nxt is not None:
                self._add(cm.open, nxt, note)  # right after an opening bracket
            elif nxt is not None:
                self._add(cm.leading, nxt, note)
            elif body:
                self._add(cm.body_end, node, note)
            elif prev is not None:
                self._add(cm.after, prev, note)
            elif isinstance(node, _Root):
                raise AssertionError("a comment in a text without statements")
            else:
                # Inside empty brackets (``[ # c\n]``): printed inside them.
                self._add(cm.dangling, node, note)
            return

    @staticmethod
    def _add(table: dict[int, list[Note]], node: Any, note: Note) -> None:
        table.setdefault(id(node), []).append(note)


@dataclass(slots=True)
class _Root:
    """The top of a text: the tree (or the statements of a node list) and a span over everything."""

    items: list[A.AstNode]


def _same_line_as_token_before(text: str, offset: int) -> bool:
    i = offset
    while i > 0:
        ch = text[i - 1]
        if ch == "\n":
            return False
        if ch not in " \t\r\f\v":
            return True
        i -= 1
    return False


def attach_comments(tree: Any, comments: Sequence[Comment], text: str) -> CommentMap:
    """Attach every comment of a parsed text to a node of ``tree`` (a model, graph, function, node or node list).

    ``tree`` for a node list is the parser's ``(nodes, span)`` pair; comments in a text
    holding no statement at all (a node list ``{ # only }``) go to ``body_end`` of the key 0.
    """
    cmap = CommentMap(text)
    if isinstance(tree, tuple):
        items = [n for n in tree[0] if _real(n)]
    else:
        items = [tree]
    root = _Root(items)
    attacher = _Attacher(text, cmap)
    for c in comments:
        if not items:
            cmap.body_end.setdefault(0, []).append(Note(c.text.rstrip(), c.start, cmap.blank_before(c.start)))
            continue
        attacher.place(root, c)
    return cmap
