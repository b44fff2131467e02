"""The incremental document equals a fresh parse of the edited text, after every edit.

``onnxtext.incremental.reparse`` re-reads only the statements an edit touched and splices
them into the previous document. Here every edit of the recovery corpus and of the goldens'
and examples' statements (characters and lines inserted, deleted, replaced; a statement
typed a character at a time; chains of edits, each on the previous result) gives a document
equal to ``parse_document`` of the new text: tree with spans, protobuf bytes, source map,
parse and lowering diagnostics, comments, symbol tables, and ``diagnose``'s answer
(``incremental_support.assert_same``). When ``reparse`` declines (None) there is nothing
to compare; the fast path must still be taken for most statement edits.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from incremental_support import assert_same
from test_recovery_corpus import Edit

from onnxtext.document import Document, parse_document
from onnxtext.incremental import reparse
from onnxtext.syntax import ast as A

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261126


def _texts() -> list[tuple[str, str]]:
    paths = sorted((ROOT / "tests" / "golden").glob("*.onnxtxt")) + sorted((ROOT / "examples").glob("*.onnxtxt"))
    return [(p.name, p.read_text(encoding="utf-8")) for p in paths]


def _statements(doc: Document) -> list[A.AstNode]:
    tree = doc.tree
    if not isinstance(tree, A.Model):
        return []
    out: list[A.AstNode] = list(tree.graph.nodes)
    for f in A.intact(tree.functions):
        out += f.nodes
    return out


def _line(text: str, offset: int) -> tuple[int, int]:
    """The line holding ``offset``, its newline included."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, len(text) if end < 0 else end + 1


def statement_edits(rng: random.Random, text: str, statement: A.AstNode) -> Iterator[Edit]:
    """Edits of one statement and its line: a character deleted, inserted, replaced; the
    operator renamed; the line deleted, repeated with a new output, replaced."""
    span = statement.span
    pos = rng.randrange(span.start, span.end)
    yield Edit(pos, pos + 1, "")
    yield Edit(pos, pos, rng.choice(["a", "1", " ", "\n", ",", "(", ")", "_", "X"]))
    yield Edit(pos, pos + 1, rng.choice(["b", "0", " ", "="]))
    if isinstance(statement, A.Node):
        op = statement.op_type.span
        yield Edit(op.start, op.end, "Tanh" if text[op.start : op.end] != "Tanh" else "Relu")
        if statement.outputs and statement.outputs[0].value:
            name = statement.outputs[0].span
            yield Edit(name.start, name.end, text[name.start : name.end] + "_2")
    start, end = _line(text, span.start)
    yield Edit(start, end, "")
    line = text[start:end]
    if isinstance(statement, A.Node) and statement.outputs and line.endswith("\n"):
        out = statement.outputs[0].span
        renamed = line[: out.start - start] + "fresh_" + line[out.start - start :]
        yield Edit(end, end, renamed)
        yield Edit(start, start, renamed)
        yield Edit(start, end, renamed)


def _check(text: str, edit: Edit, *, symbols: bool = True) -> tuple[bool, bool]:
    """Reparse ``text`` after ``edit`` and compare with a fresh parse: (taken, symbols carried)."""
    previous = parse_document(text)
    if symbols:
        _ = previous.symbols
    new_text = edit.apply(text)
    doc = reparse(previous, new_text, edit.start, edit.end, edit.start + len(edit.new))
    if doc is None:
        return False, False
    carried = "symbols" in doc.__dict__
    assert_same(doc, parse_document(new_text))
    return True, carried


def _cases(count: int) -> list[tuple[str, str, Edit]]:
    rng = random.Random(SEED)
    cases = []
    for name, text in _texts():
        statements = _statements(parse_document(text))
        for statement in rng.sample(statements, min(count, len(statements))):
            cases += [(name, text, e) for e in statement_edits(rng, text, statement)]
    return cases


def test_statement_edits_of_goldens_and_examples_equal_a_fresh_parse() -> None:
    cases = _cases(2)
    clean = taken = carried = 0
    for name, text, edit in cases:
        try:
            took, kept = _check(text, edit, symbols=clean % 3 != 2)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {edit}: {exc}") from None
        if not any(d.code.startswith("P") for d in parse_document(text).diagnostics):
            clean += 1  # a text the parser had to repair is reparsed whole: recovery looks around
            taken += took
            carried += kept
    assert len(cases) > 300 and clean > 150
    # Most edits of statements of texts that parse take the fast way, most of those keep the
    # symbol tables (measured: 190 of 209, 150 of them with their symbol tables).
    assert taken > 0.8 * clean, (taken, clean)
    print(f"taken {taken}, carried {carried}, of {clean}")
    assert carried > 0.45 * clean, (carried, clean)  # a third of the cases never built them


@pytest.mark.slow
def test_many_statement_edits_equal_a_fresh_parse() -> None:
    for name, text, edit in _cases(12):
        try:
            _check(text, edit)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {edit}: {exc}") from None


@pytest.mark.slow
def test_recovery_corpus_edits_equal_a_fresh_parse() -> None:
    from test_recovery_corpus import _cases as recovery_cases  # (name, text, Edit) of its seeded corpus

    taken = 0
    for name, text, edit in recovery_cases():
        try:
            took, _ = _check(text, edit)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {edit}: {exc}") from None
        taken += took
    assert taken > 100


def _typing(text: str, at: int, line: str) -> Iterator[Edit]:
    """``line`` typed at ``at`` a character at a time."""
    for i, ch in enumerate(line):
        yield Edit(at + i, at + i, ch)


def _chain(text: str, edits: Iterator[Edit] | list[Edit], *, every: int = 1) -> Document:
    """Apply ``edits`` one after the other, each reparsed from the previous result (a fresh parse
    when it declines), comparing with a fresh parse every ``every`` edits and at the end."""
    doc = parse_document(text)
    _ = doc.symbols
    for n, edit in enumerate(edits, 1):
        new_text = edit.apply(text)
        found = reparse(doc, new_text, edit.start, edit.end, edit.start + len(edit.new))
        doc = found if found is not None else parse_document(new_text)
        _ = doc.symbols
        text = new_text
        if n % every == 0:
            assert_same(doc, parse_document(text))
    assert_same(doc, parse_document(text))
    return doc


def test_typing_a_statement_char_by_char() -> None:
    text = (ROOT / "examples" / "mlp.onnxtxt").read_text(encoding="utf-8")
    doc = parse_document(text)
    last = doc.tree.graph.nodes[-1]
    _, end = _line(text, last.span.start)
    _chain(text, _typing(text, end, "   extra = Relu (" + last.outputs[0].value + ")\n"))
    first = doc.tree.graph.nodes[0]
    start, _ = _line(text, first.span.start)
    _chain(text, _typing(text, start, "   early = Tanh (later)\n   later = Relu (early)\n"))


def test_typing_in_a_long_body_is_reread_around_the_damage() -> None:
    """The keystrokes that leave the statement damaged take the fast path too: the window is
    widened until recovery sees nothing past it (only one with an unpaired bracket is parsed whole)."""
    text = relu_text(200)
    at = text.index("   X100 =")
    taken = 0
    doc = parse_document(text)
    _ = doc.symbols
    for edit in _typing(text, at, "   Y = Add (X5, Z)\n"):
        new_text = edit.apply(text)
        found = reparse(doc, new_text, edit.start, edit.end, edit.start + len(edit.new))
        fresh = parse_document(new_text)
        if found is not None:
            assert_same(found, fresh)
            taken += 1
        doc, text = found or fresh, new_text
    assert taken >= 12  # of 19: all but the keystrokes between '(' and ')'


def relu_text(statements: int) -> str:
    lines = ['<ir_version: 8, opset_import: ["" : 18]>', f"main (float[N, 16] X0) => (float[N, 16] X{statements})", "{"]
    lines += [f"   X{i + 1} = Relu (X{i})" for i in range(statements)]
    return "\n".join([*lines, "}"]) + "\n"


def test_a_chain_of_edits_stays_equal() -> None:
    rng = random.Random(SEED)
    text = relu_text(300)
    edits = []
    current = text
    for _ in range(60):
        doc = parse_document(current)
        statement = rng.choice(doc.tree.graph.nodes)
        edit = rng.choice(list(statement_edits(rng, current, statement)))
        edits.append(edit)
        current = edit.apply(current)
    _chain(text, edits, every=5)


def test_deleting_lines_one_after_another() -> None:
    text = relu_text(40)
    start = text.index("   X20 =")
    edits = []
    current = text
    for _ in range(10):
        end = current.index("\n", start) + 1
        edits.append(Edit(start, end, ""))
        current = current[:start] + current[end:]
    doc = _chain(text, edits)
    assert sum(d.is_error for d in doc.diagnostics) == 0


def test_the_bench_edits_take_the_fast_path() -> None:
    """Tanh/Relu in the middle, a line inserted, a line deleted: each reparsed, symbols kept."""
    text = relu_text(2000)
    at = text.index("   X1001 = Relu") + len("   X1001 = ")
    line = text.index("   X1001 =")
    end = text.index("\n", line) + 1
    for edit in (Edit(at, at + 4, "Tanh"), Edit(line, line, "   Y = Relu (X7)\n"), Edit(line, end, "")):
        assert _check(text, edit) == (True, True)


def test_edits_outside_bodies_decline() -> None:
    text = relu_text(5)
    for edit in (
        Edit(1, 3, "ir"),  # the header
        Edit(text.index("float[N, 16] X0"), text.index("float[N, 16] X0") + 5, "int64"),  # the signature
        Edit(text.index("{"), text.index("{") + 1, ""),  # a brace
        Edit(text.index("Relu (X2)") + 5, text.index("Relu (X2)") + 5, '"'),  # a string running on
    ):
        previous = parse_document(text)
        assert reparse(previous, edit.apply(text), edit.start, edit.end, edit.start + len(edit.new)) is None


def test_commenting_a_statement_out_and_back() -> None:
    text = relu_text(5)
    at = text.index("X3 = ")
    _chain(text, [Edit(at, at, "# "), Edit(at, at + 2, ""), Edit(at - 3, at - 3, "# note\n")])


def test_the_parser_gives_each_node_its_own_span() -> None:
    """What moving spans in place relies on (``incremental/spans.py``): no Span object is shared."""
    for name, text in _texts():
        tree = parse_document(text).tree
        if not isinstance(tree, A.AstNode):
            continue
        owners: dict[int, A.AstNode] = {}
        for node in A.walk(tree):
            assert owners.setdefault(id(node.span), node) is node, name


def test_reparsing_keeps_nothing_per_edit() -> None:
    """Each reparse consumes the document before it: after 50 edits the traced memory is what it
    was after 10 (a kept copy per edit would be a document's worth each)."""
    import gc
    import tracemalloc

    text = relu_text(2000)
    at = text.index("   X1001 = Relu") + len("   X1001 = ")
    doc = parse_document(text)
    _ = doc.symbols
    tracemalloc.start()
    try:
        after_ten = 0
        for n in range(50):
            op, old = ("Tanh", "Relu") if n % 2 == 0 else ("Relu", "Tanh")
            assert text[at : at + 4] == old
            text = text[:at] + op + text[at + 4 :]
            found = reparse(doc, text, at, at + 4, at + 4)
            assert found is not None
            doc = found
            _ = doc.symbols
            if n == 9:
                gc.collect()
                after_ten = tracemalloc.get_traced_memory()[0]
        gc.collect()
        growth = tracemalloc.get_traced_memory()[0] - after_ten
    finally:
        tracemalloc.stop()
    assert growth < 200_000, growth


def test_a_name_first_defined_later_now_defined_in_the_window_moves_in_the_scope() -> None:
    """A damaged statement hid its output, defined again further down: mended, the name's first
    definition is in the window and the scope lists it in that place (#30; the order was kept
    as if it had been first defined in the window before too)."""
    head = "<ir_version: 3, opset_import: [{version: 6}]>\ng (float[1] x) => (float[1] b)\n{\n"
    text = head + "   a \n    Sigmoid (x)\n   b = Neg (a)\n   a = Sigmoid (x)\n   b = Neg (a)\n}\n"
    at = text.index(" \n    Sigmoid")
    assert _check(text, Edit(at, at + 6, " = ")) == (True, True)
