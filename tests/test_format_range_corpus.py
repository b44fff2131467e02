"""Range formatting over the corpora: a statement formatted alone reads as in the whole text's
formatting, its edits stay in its lines, and the editor's way (the analysed document's tree) gives
what a parse of the text gives."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from onnxtext.diagnostics import Fix, ParseError
from onnxtext.document import parse_document
from onnxtext.host.textdiff import region_line_edits
from onnxtext.ide.formatting import document_range_edit
from onnxtext.syntax import ast as A
from onnxtext.syntax.format import format_range_edit, format_text
from onnxtext.syntax.printer import graphs_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_golden import split_golden  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TEXTS = sorted((ROOT / "examples").glob("*.onnxtxt")) + sorted((ROOT / "tests" / "golden").glob("*.onnxtxt"))
PER_TEXT = 40
"""Statements tried per text (spread over it): enough for every kind, bounded for the suite's time."""


def _bodies(tree: A.Model) -> Iterator[list[A.Node | A.ErrorNode]]:
    """Every statement list of the text, subgraph bodies included."""
    pending = [tree.graph] if isinstance(tree.graph, A.Graph) else []
    pending += [f for f in tree.functions if isinstance(f, A.Function)]
    while pending:
        owner = pending.pop()
        yield list(owner.nodes)
        for node in A.intact(owner.nodes):
            for attr in A.intact(node.attributes):
                pending.extend(graphs_of(attr.value))


def _lines(text: str, start: int, end: int) -> tuple[int, int]:
    """The whole lines ``[start, end)`` stands on (without the last line break)."""
    last = text.find("\n", end)
    return text.rfind("\n", 0, start) + 1, len(text) if last < 0 else last


def _reindented(text: str, start: int, end: int) -> str:
    """``text`` with the lines of ``[start, end)`` indented one space, their spaces after commas doubled."""
    lo, hi = _lines(text, start, end)
    lines = [" " + line.lstrip(" ").replace(", ", ",  ") for line in text[lo:hi].split("\n")]
    return text[:lo] + "\n".join(lines) + text[hi:]


def _ranges(canonical: str) -> list[tuple[int, int, bool]]:
    """Statements (one, or two in a row: ``False``) of every body, a few per text."""
    tree = parse_document(canonical).tree
    assert isinstance(tree, A.Model)
    found = []
    for body in _bodies(tree):
        for i, node in enumerate(body):
            found.append((node.span.start, node.span.end, True))
            if i + 1 < len(body):
                found.append((node.span.start, body[i + 1].span.end, False))
    step = max(1, len(found) // PER_TEXT)
    return found[::step]


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_a_statement_formats_as_in_the_whole_text(path: Path) -> None:
    canonical = format_text(split_golden(path.read_text(encoding="utf-8"))[0])
    tried = 0
    for start, end, single in _ranges(canonical):
        same = document_range_edit(parse_document(canonical), start, start)
        if same is None:
            continue  # the statement shares a line (a one-line subgraph's): only a larger range formats
        assert canonical[same.span.start : same.span.end] == same.new_text  # formatted already: unchanged
        mangled = _reindented(canonical, start, end)
        try:
            if format_text(mangled) != canonical:
                continue  # the mangling reached into a string
        except ParseError:
            continue  # or made a line read as something else
        lo, hi = _lines(canonical, start, end)
        first = lo + 1  # the statement's first line starts with one space now
        last = hi + len(mangled) - len(canonical)  # the end of its last line
        doc = parse_document(mangled)
        for cursor in [(first, last)] + ([(first, first), (first, first + 1)] if single else []):
            edit = document_range_edit(doc, *cursor)
            assert edit is not None, (path.name, mangled[lo : lo + 80])
            assert edit == format_range_edit(mangled, *cursor)  # the tree the server keeps = a new parse
            edits = region_line_edits(mangled, edit)
            assert Fix("", tuple(edits)).apply(mangled) == canonical
            assert all(lo <= e.span.start and e.span.end <= last + 1 for e in edits)  # inside its lines
        tried += 1
    assert tried >= 1


def test_every_range_of_a_text_the_editor_way_and_the_parser_way() -> None:
    """Every cursor and many ranges of the texts with comments, damage and subgraphs: the document's
    tree gives the edits a parse of the text gives."""
    texts = [
        split_golden(p.read_text(encoding="utf-8"))[0]
        for p in TEXTS
        if p.name.startswith(("comments", "control_flow", "untidy"))
    ]
    texts.append(texts[0].replace("= ", "= = ", 1))  # a damaged statement
    assert len(texts) >= 3
    for text in texts:
        doc = parse_document(text)
        for start in range(0, len(text), 7):
            for end in (start, min(len(text), start + 1), min(len(text), start + 40)):
                assert document_range_edit(doc, start, end) == format_range_edit(text, start, end), (start, end)
