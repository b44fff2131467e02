"""Range formatting: only the statements (or the graph, function, header) a range meets change."""

from __future__ import annotations

from onnxtext.syntax.format import format_range, format_text

TEXT = """<ir_version: 9, opset_import: ["": 19]>
g (float x, bool c) => (float y)
{
  a=Relu(x)   # keep
     b  =  Neg(a)
  y = If (c) <then_branch = t () => (float q) {
        q=Abs(b)
        }, else_branch = e () => (float r) { r = Neg (b) }>
}
f (u) => (v)
{
v=Relu(u)
}
"""


def _at(needle: str) -> int:
    return TEXT.index(needle)


def _changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    a, b = before.splitlines(), after.splitlines()
    assert len(a) == len(b)
    return [(x, y) for x, y in zip(a, b, strict=True) if x != y]


def test_one_statement_and_nothing_else() -> None:
    at = _at("Neg(a)")
    out = format_range(TEXT, at, at)
    assert out is not None
    assert _changed_lines(TEXT, out) == [("     b  =  Neg(a)", "   b = Neg (a)")]


def test_statements_across_a_range_keep_their_comments() -> None:
    out = format_range(TEXT, _at("a=Relu"), _at("Neg(a)"))
    assert out is not None
    assert _changed_lines(TEXT, out) == [
        ("  a=Relu(x)   # keep", "   a = Relu (x)  # keep"),
        ("     b  =  Neg(a)", "   b = Neg (a)"),
    ]


def test_a_statement_of_a_subgraph_at_its_canonical_depth() -> None:
    at = _at("q=Abs")
    out = format_range(TEXT, at, at + 3)
    assert out is not None
    assert _changed_lines(TEXT, out) == [("        q=Abs(b)", "         q = Abs (b)")]


def test_the_function_a_range_meets_outside_its_statements() -> None:
    at = _at("f (u)")
    out = format_range(TEXT, at, at + 1)
    assert out is not None
    assert out == TEXT.replace("f (u) => (v)\n{\nv=Relu(u)\n}\n", "f (u) => (v)\n{\n   v = Relu (u)\n}\n")


def test_the_model_header() -> None:
    out = format_range(TEXT, 1, 2)
    assert out == TEXT.replace(
        '<ir_version: 9, opset_import: ["": 19]>', '<\n   ir_version: 9,\n   opset_import: ["": 19]\n>'
    )


def test_errors_elsewhere_do_not_stop_it() -> None:
    broken = TEXT.replace("v=Relu(u)", "v = = Relu(")
    at = broken.index("Neg(a)")
    out = format_range(broken, at, at)
    assert out is not None
    assert _changed_lines(broken, out) == [("     b  =  Neg(a)", "   b = Neg (a)")]


def test_a_damaged_statement_or_a_shared_line_is_left_alone() -> None:
    broken = TEXT.replace("b  =  Neg(a)", "b  =  Neg(a")
    at = broken.index("Neg(a")
    assert format_range(broken, at, at) is None
    # `r = Neg (b)` shares its line with the closing brace of its graph and more.
    at = _at("r = Neg")
    assert format_range(TEXT, at, at) is None


def test_blank_lines_between_statements_in_a_range_stay() -> None:
    text = "g (float x) => (float y)\n{\n a=Neg(x)\n\n\n\n y=Abs(a)\n}\n"
    out = format_range(text, text.index("a=Neg"), text.index("y=Abs") + 1)
    assert out == "g (float x) => (float y)\n{\n   a = Neg (x)\n\n   y = Abs (a)\n}\n"
    assert out == format_text(text)
