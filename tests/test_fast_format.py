"""``fmt``'s fast way (a clean text the parse fast path reads, printed from its protobuf) ≡ the tree's way,
byte for byte.

``format_text`` takes the printed text only when it has the text's very tokens and the text has
no comments or blank lines; on every corpus text and on edits reaching each way out it gives
what ``tree_format`` gives (or raises what it raises). Counts of texts taken the fast way are
pinned from below, so these tests cannot pass by declining everything.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from onnxtext import api as F
from onnxtext import parse_model
from onnxtext.api import format_text
from onnxtext.diagnostics import ParseError
from onnxtext.printing.text import to_text
from onnxtext.syntax.format import format_text as tree_format

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_parse_print import many_inputs, node_heavy, tensor_heavy  # noqa: E402
from test_golden import split_golden  # noqa: E402

TEXTS = sorted((ROOT / "tests" / "golden").glob("*.onnxtxt")) + sorted((ROOT / "examples").glob("*.onnxtxt"))


def _tree(text: str, width: int) -> str | None:
    try:
        return tree_format(text, width=width)
    except ParseError:
        return None


def _agree(text: str, width: int = 100) -> bool:
    """Assert both ways format ``text`` alike (or both refuse it); True when the fast way took it."""
    expected, fast = _tree(text, width), F.printed_alike(text, width)
    assert fast is None or fast == expected
    if expected is not None:
        assert format_text(text, width=width) == expected
    else:
        pytest.raises(ParseError, format_text, text, width=width)
    return fast is not None


def _corpus() -> list[str]:
    texts = []
    for path in TEXTS:
        source, expected = split_golden(path.read_text(encoding="utf-8"))
        texts += [source] if expected is None else [source, expected]
    return texts


@pytest.mark.parametrize("width", [100, 50])
def test_corpus_texts(width: int) -> None:
    texts = _corpus()
    printed = []
    for text in texts:
        _agree(text, width)
        try:
            printed.append(to_text(parse_model(text), width=width))
        except Exception:  # noqa: BLE001 - a text with warnings or one that does not parse: not the point here
            continue
    taken = sum(_agree(p, width) for p in printed)
    assert taken >= 25  # of 68 printed texts (the others: what the parse fast path leaves to the tree, non-ASCII)


def _reindented(text: str) -> str:
    return "\n".join(line.strip() for line in text.splitlines()) + "\n"


EDITS: dict[str, Any] = {
    "as_is": lambda t: t,
    "reindented": _reindented,
    "one_line_header": lambda t: t.replace(
        '<\n   ir_version: 8,\n   opset_import: ["": 18]\n>', '<ir_version: 8, opset_import: ["" : 18]>'
    ),
    "comment": lambda t: t.replace("(x1)\n", "(x1)  # why\n", 1),
    "comment_line": lambda t: t.replace("{\n", "{\n   # first\n", 1),
    "hash_in_string": lambda t: t.replace("(x1)\n", '(x1) @{doc_string: "# not a comment"}\n', 1),
    "blank_line": lambda t: t.replace("(x1)\n", "(x1)\n\n", 1),
    "blank_line_spaces": lambda t: t.replace("(x1)\n", "(x1)\n   \n", 1),
    "leading_newline": lambda t: "\n" + t,
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "no_final_newline": lambda t: t.rstrip("\n"),
    "number_spelling": lambda t: t.replace("alpha = 0.5", "alpha = 0.50"),
    "integral_float": lambda t: t.replace("alpha = 0.5", "alpha = 1"),
    "quoted_name": lambda t: t.replace("x2 = ", '"x2" = '),
    "needless_quotes_label": lambda t: t.replace("[n1]", '["n1"]'),
    "header_order": lambda t: t.replace(
        '<\n   ir_version: 8,\n   opset_import: ["": 18]\n>', '<opset_import: ["": 18], ir_version: 8>'
    ),
    "trailing_comma": lambda t: t.replace("axes = [0, 1]", "axes = [0, 1,]", 1),
    "syntax_error": lambda t: t.replace("(x1)", "(x1", 1),
    "unknown_op": lambda t: t.replace("Neg", "Negg", 1),
    "non_ascii": lambda t: t.replace("(x1)\n", '(x1) @{doc_string: "é"}\n', 1),
    "long_line": lambda t: t.replace("axes = [0, 1]", "axes = [" + ", ".join(["1000"] * 40) + "]", 1),
    "domain_unset": lambda t: t.replace("ir_version: 8,", "ir_version: 8,\n   node_domain: unset,"),
}


@pytest.mark.parametrize("name", sorted(EDITS))
@pytest.mark.parametrize("width", [100, 40])
def test_edits(name: str, width: int) -> None:
    printed = to_text(parse_model(node_heavy(12)), width=width)
    taken = _agree(EDITS[name](printed), width)
    if name in ("as_is", "reindented", "one_line_header", "crlf", "hash_in_string"):
        assert taken  # laid out otherwise, the same tokens
    if name.startswith(("comment", "blank", "leading")) or name in ("syntax_error", "non_ascii", "header_order"):
        assert not taken


def test_bench_texts() -> None:
    """The bench's texts: node-heavy (as written and printed), many inputs, tensor-heavy (numbers on one line)."""
    for text in (node_heavy(60), many_inputs(30), tensor_heavy(700)):
        _agree(text)
        _agree(to_text(parse_model(text)))
    assert F.printed_alike(node_heavy(60), 100) is not None  # a one-line header: its tokens are the printed ones
    assert F.printed_alike(tensor_heavy(700), 100) is not None  # numbers laid out again


def test_no_tree_for_a_clean_text(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _reindented(to_text(parse_model(node_heavy(40))))

    def no_tree(*args: object, **kwargs: object) -> None:
        raise AssertionError("the text went through the tree")

    monkeypatch.setattr(F, "_tree_format", no_tree)
    assert format_text(text) == to_text(parse_model(text))
