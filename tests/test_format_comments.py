"""Comments survive ``fmt`` where they were written: a property test over the corpora.

Comments are inserted at random token boundaries of every golden text and example (seeded,
so a failure reproduces): on the line of the token before (trailing) or on a line of their
own. After formatting, every comment is still there once, the text still lowers to the same
protobuf, formatting again changes nothing, and each comment is attached (``syntax.comments``)
to the same AST node in the same way: trailing after the same node, or above the same item.
Nodes are named by their path of child indices from the root, which formatting keeps.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import onnxtext
from onnxtext.syntax.comments import attach_comments
from onnxtext.syntax.format import format_text
from onnxtext.syntax.lexer import tokenize
from onnxtext.syntax.parser import parse_text

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.onnxtxt"))
EXAMPLES = sorted((ROOT / "examples").glob("*.onnxtxt"))
PER_TEXT = 24  # comments inserted into each text, one text per comment, plus one text holding all of them
_MARK = "#@c"


def _canonical(path: Path) -> str:
    from test_golden import load

    return load(path)[1] if path.parent.name == "golden" else path.read_text(encoding="utf-8")


def _paths(tree: Any) -> dict[int, tuple[int, ...]]:
    """The path of child indices (comments left out) of every node below ``tree``."""
    out: dict[int, tuple[int, ...]] = {}
    stack: list[tuple[Any, tuple[int, ...]]] = [(tree, ())]
    while stack:
        node, path = stack.pop()
        out[id(node)] = path
        kids = list(node.children())
        stack.extend((c, path + (i,)) for i, c in enumerate(kids))
    return out


def attachments(text: str) -> dict[str, tuple[str, tuple[int, ...]]]:
    """Comment text → (how it is attached, path of the node it belongs to), for the inserted comments."""
    result = parse_text(text)
    assert result.ok, [d.message for d in result.diagnostics]
    cmap = attach_comments(result.tree, result.comments, text)
    paths = _paths(result.tree)
    by_start = {c.start: c.text for c in result.comments}
    out = {}
    for kind, key, start in cmap.kinds():
        body = by_start[start]
        if body.startswith(_MARK[1:]):
            out[body] = (kind, paths[key])
    return out


def insert(text: str, rng: random.Random, count: int) -> list[tuple[int, str]]:
    """``count`` (offset, inserted text) pairs at token boundaries of ``text``: trailing or own-line comments."""
    ends = [t.end for t in tokenize(text)]
    picks = sorted(rng.sample(ends, min(count, len(ends))))
    out = []
    for k, end in enumerate(picks):
        if rng.random() < 0.5:
            out.append((end, f"  {_MARK}{k} trailing\n"))
        else:
            out.append((end, f"\n{_MARK}{k} own line\n"))
    return out


def apply(text: str, inserts: list[tuple[int, str]]) -> str:
    out = []
    at = 0
    for offset, piece in inserts:
        out.append(text[at:offset])
        out.append(piece)
        at = offset
    out.append(text[at:])
    return "".join(out)


def serialize(text: str) -> bytes:
    return onnxtext.parse_model(text).SerializeToString(deterministic=True)  # type: ignore[no-any-return]


def check(original: str, commented: str) -> None:
    formatted = format_text(commented)
    for line in commented.splitlines():
        if _MARK in line:
            comment = line[line.index(_MARK) :]
            assert formatted.count(comment) == 1, (comment, formatted)
    assert serialize(formatted) == serialize(original)
    assert format_text(formatted) == formatted, formatted
    assert attachments(formatted) == attachments(commented), (commented, formatted)


CASES = GOLDEN + EXAMPLES


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_inserted_comments_stay_attached(path: Path) -> None:
    text = _canonical(path)
    rng = random.Random(path.stem)
    inserts = insert(text, rng, PER_TEXT)
    for one in inserts:
        check(text, apply(text, [one]))
    check(text, apply(text, inserts))


def test_corpus_sizes() -> None:
    """The corpora this property runs over (quoted in the formatter's report)."""
    assert len(GOLDEN) >= 25 and len(EXAMPLES) >= 11


def test_issue_example_keeps_every_comment_in_place() -> None:
    text = (
        "<\n"
        "  ir_version: 8,          # the IR of onnx 1.13\n"
        '  opset_import: ["" : 18] # default domain only\n'
        ">\n"
        "block (float[N, 3, 32, 32] x,   # images\n"
        "       float[8, 3, 3, 3] w)     # conv weights\n"
        "    => (float[N, 8, 15, 15] y)\n"
        "{\n"
        "    c = Conv <kernel_shape = [3, 3],   # square kernel\n"
        "              pads = [1, 1, 1, 1]> (x, w)  # same padding\n"
        "    r = Relu (c)   # activation\n"
        "\n"
        "\n"
        "    # downsample\n"
        "    y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (r)\n"
        "}\n"
    )
    assert format_text(text) == (
        "<\n"
        "   ir_version: 8,  # the IR of onnx 1.13\n"
        '   opset_import: ["": 18]  # default domain only\n'
        ">\n"
        "block (\n"
        "   float[N, 3, 32, 32] x,  # images\n"
        "   float[8, 3, 3, 3] w  # conv weights\n"
        ") => (float[N, 8, 15, 15] y)\n"
        "{\n"
        "   c = Conv <\n"
        "      kernel_shape = [3, 3],  # square kernel\n"
        "      pads = [1, 1, 1, 1]\n"
        "   > (x, w)  # same padding\n"
        "   r = Relu (c)  # activation\n"
        "\n"
        "   # downsample\n"
        "   y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (r)\n"
        "}\n"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Inside a tensor literal: the literal breaks one value per line around the comment.
        (
            "g () => (float[3] y) <float[3] w = {1.0,  # first\n 2.0, 3.0}> {\n y = Identity (w)\n}\n",
            "g () => (float[3] y)\n<\n   float[3] w = {\n      1.0,  # first\n      2.0, 3.0\n   }\n>\n{\n"
            "   y = Identity (w)\n}\n",
        ),
        # Inside dims, a property block and after a subgraph's closing brace.
        (
            "g (float[N, # batch\n 3] x) => (float y) {\n"
            " y = If (x) <then_branch = t () => (float a) { a = Neg (x) } # then\n"
            ', else_branch = e () => (float b) { b = Abs (x) }> @{doc_string: "d" # doc\n}\n}\n',
            "g (\n   float[\n      N,  # batch\n      3\n   ] x\n) => (float y)\n{\n"
            "   y = If (x) <\n      then_branch = t () => (float a) {\n         a = Neg (x)\n      },  # then\n"
            "      else_branch = e () => (float b) {\n         b = Abs (x)\n      }\n"
            '   > @{\n      doc_string: "d"  # doc\n   }\n}\n',
        ),
        # An own-line comment inside an attribute list stays above its attribute.
        (
            "g (float x) => (float y) {\n y = Foo <a = 1,\n # about b\n b = 2> (x)\n}\n",
            "g (float x) => (float y)\n{\n   y = Foo <\n      a = 1,\n      # about b\n      b = 2\n   > (x)\n}\n",
        ),
        # A comment after the body's opening brace stays there; blank lines collapse to one.
        (
            "g (float x) => (float y) {  # body\n\n\n a = Neg (x)\n\n\n\n y = Abs (a)\n}\n",
            "g (float x) => (float y)\n{  # body\n   a = Neg (x)\n\n   y = Abs (a)\n}\n",
        ),
        # A property block that holds only a comment is kept for it (found by test_properties).
        (
            "g (float x) => (float y) {\n y = Neg (x) @{# only a comment\n }\n}\n",
            "g (float x) => (float y)\n{\n   y = Neg (x) @{  # only a comment\n   }\n}\n",
        ),
    ],
    ids=["tensor-literal", "dims-props-subgraph", "attribute-list", "body-open-blank-lines", "comment-only-props"],
)
def test_comments_in_lists(text: str, expected: str) -> None:
    assert format_text(text, kind="graph") == expected
    assert format_text(expected, kind="graph") == expected
