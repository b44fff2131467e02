"""Located diagnostics: code, line, column and wording of the errors of bad texts.

Lines and columns are 1-based; a column counts characters (code points) from the start
of the line. Each case names the exact position the diagnostic must point at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import onnxtext
from onnxtext.diagnostics import Diagnostic, Severity
from onnxtext.diagnostics.render import render_diagnostic

INTERNAL_NAMES = (
    "__anon",
    "$END",
    "RPAR",
    "LPAR",
    "RSQB",
    "LSQB",
    "RBRACE",
    "LBRACE",
    "IDENT",
    "COMMA",
    "NUMLIST",
    "ANON",
    "Tok(",
    "Token(",
)


@dataclass(frozen=True)
class Expected:
    code: str
    line: int
    column: int
    fragment: str


def errors_of(text: str, kind: str = "model", path: str = "t.onnxtxt", strict: bool = False) -> list[Diagnostic]:
    with pytest.raises(onnxtext.ParseError) as info:
        getattr(onnxtext, f"parse_{kind}")(text, path=path, strict=strict)
    diags = info.value.diagnostics
    assert diags, "ParseError without diagnostics"
    for d in diags:
        assert not any(name in d.message for name in INTERNAL_NAMES), d.message
    return [d for d in diags if d.severity is Severity.ERROR]


def where(d: Diagnostic) -> tuple[str, int, int]:
    assert d.span is not None
    return (d.code, d.span.start.line, d.span.start.column)


def check(text: str, *expected: Expected, kind: str = "model", strict: bool = False) -> list[Diagnostic]:
    """The text's errors (``strict``: warnings too) are exactly ``expected`` (in order of position)."""
    errs = errors_of(text, kind, strict=strict)
    got = [(*where(d), d.message) for d in errs]
    assert [g[:3] for g in got] == [(e.code, e.line, e.column) for e in expected], got
    for (_, _, _, message), e in zip(got, expected, strict=True):
        assert e.fragment in message, (e.fragment, message)
    return errs


# ---------------------------------------------------------------- syntax errors


def test_missing_comma_points_at_the_second_input() -> None:
    text = "g (float T, float X) => (float Y)\n{\n   Y = Add(T X)\n}\n"
    (err,) = check(text, Expected("P001", 3, 14, "found name 'X'"))
    assert "','" in err.message and "')'" in err.message
    assert err.message.startswith("expected ")
    assert err.span is not None and err.span.end.column == 15  # the span covers the token 'X'


def test_missing_comma_in_node_text() -> None:
    check("Y = Add(T X)", Expected("P001", 1, 11, "expected ',' or ')'"), kind="node")


def test_several_independent_syntax_errors_are_all_reported() -> None:
    text = (
        "g (float X) => (float Y)\n"  # 1
        "{\n"  # 2
        "  A = Add(X X)\n"  # 3: missing comma
        "  B = Relu(A)\n"  # 4: fine
        "  C = = Relu(B)\n"  # 5: doubled '='
        "  D = Relu(C) <a = >\n"  # 6: attribute without value
        "  E = Relu(D)\n"  # 7: fine
        "  Y = Foo <a 1> (E)\n"  # 8: attribute without '='
        "}\n"
    )
    errs = check(
        text,
        Expected("P001", 3, 13, "found name 'X'"),
        Expected("P001", 5, 7, "found '='"),
        Expected("P001", 6, 20, "found '>'"),
        Expected("P001", 8, 14, "found number 1"),
    )
    assert "(and 3 more)" in str(onnxtext.ParseError(errs))


def test_syntax_errors_in_subgraphs_and_functions_are_located() -> None:
    text = (
        "g (bool c, float X) => (float Y)\n"
        "{\n"
        "   Y = If (c) <then_branch = t () => (float Z) {\n"
        "      Z = Neg(X X)\n"
        "   }, else_branch = e () => (float Z) { Z = Abs(X) }>\n"
        "}\n"
        '<domain: "local">\n'
        "F (x) => (y)\n"
        "{\n"
        "   y = Identity(x x)\n"
        "}\n"
    )
    check(text, Expected("P001", 4, 17, "found name 'X'"), Expected("P001", 10, 19, "found name 'x'"))


def test_error_at_the_end_of_the_text() -> None:
    text = "g () => () {"
    (err,) = check(text, Expected("P001", 1, 13, "found the end of the text"))
    assert "'}'" in err.message


def test_error_messages_name_tokens_not_grammar_symbols() -> None:
    texts = [
        "g () => () {",
        "g () => () { Y = }",
        "g ( => () {}",
        "g () => () <float[2] W = {1, 2> {}",
        "<ir_version 8> g () => () {}",
        "g () => () { Y = Foo <a = [1, 2> () }",
        "g () => () { Y = Foo <a: = 1> () }",
        "g () => () { [ Y = Relu(X) }",
        'g () => () { Y = Relu(X) @{doc_string "x"} }',
        "g (seq( X) => () {}",
        "g (map(int64) X) => () {}",
        "g (float[2 X) => () {}",
        "g () => () { Y = com..Foo(X) }",
        "g () => () { Y = Foo:(X) }",
        ")",
        "",
        "{",
    ]
    for text in texts:
        for d in errors_of(text):
            assert d.message[:1].islower() or d.message.startswith("'"), d.message
            assert not re.search(r"\b[A-Z]{2,}_?[A-Z]*\b", d.message.replace("'", " ")), d.message


# ---------------------------------------------------------------- lexical errors


def test_unterminated_string() -> None:
    text = 'g (float X) => (float Y)\n{\n   Y = Foo <s = "abc> (X)\n}\n'
    errs = errors_of(text)
    first = errs[0]
    assert where(first) == ("P003", 3, 17)  # the opening quote
    assert "string" in first.message and "not closed" in first.message


def test_bad_character() -> None:
    text = "g (float X) => (float Y)\n{\n   Y = Relu(X) $\n}\n"
    check(text, Expected("P002", 3, 16, "unexpected character '$'"))


def test_several_bad_characters_are_all_reported() -> None:
    text = "g (float X) => (float Y)\n{\n   A = Relu(X) ;\n   Y = Relu(A) `\n}\n"
    check(text, Expected("P002", 3, 16, "';'"), Expected("P002", 4, 16, "'`'"))


def test_unknown_escape_is_a_warning() -> None:
    text = 'g (float X) => (float Y) { Y = Foo <s = "a\\qb"> (X) }'
    doc = onnxtext.parse_document(text, "model", "t.onnxtxt")
    assert doc.ok and doc.proto is not None
    (warning,) = doc.diagnostics
    assert (warning.code, warning.severity, warning.span.start.line, warning.span.start.column) == (
        "P004",
        Severity.WARNING,
        1,
        43,
    )
    assert "\\q" in warning.message
    onnxtext.parse_model(text)  # warnings do not raise


def test_columns_count_characters_not_bytes() -> None:
    text = 'g (float "é😀", float X) => (float Y) { Y = Add("é😀" X) }'
    (err,) = errors_of(text)
    assert where(err) == ("P001", 1, text.rindex(" X)") + 2) == ("P001", 1, 53)


# ---------------------------------------------------------------- semantic errors


def test_unknown_element_type_suggests_a_name() -> None:
    text = "g (flot[2] X) => (float Y)\n{\n   Y = Relu(X)\n}\n"
    (err,) = check(text, Expected("L001", 1, 4, "unknown element type 'flot'"))
    assert "did you mean 'float'" in err.message
    assert err.span is not None and err.span.end.column == 8


def test_unknown_header_key_suggests_a_field() -> None:
    text = '<ir_version: 8, produser_name: "me">\ng (float X) => (float Y) { Y = Relu(X) }'
    (err,) = check(text, Expected("L010", 1, 17, "'produser_name'"))
    assert "did you mean 'producer_name'" in err.message


def test_unknown_property_key_suggests_a_field() -> None:
    text = 'g (float X) => (float Y) { Y = Relu(X) @{doc_strin: "d"} }'
    (err,) = check(text, Expected("L010", 1, 42, "'doc_strin' is not a field of NodeProto"))
    assert "did you mean 'doc_string'" in err.message


def test_too_many_tensor_values_point_at_the_first_extra_value() -> None:
    text = "g () => (float[2] Y)\n<float[2] W = {1, 2, 3}>\n{\n   Y = Identity(W)\n}\n"
    (err,) = check(text, Expected("L008", 2, 22, "expected 2 values"), strict=True)  # a warning: onnx.parser keeps them
    assert "got 3" in err.message


def test_too_few_tensor_values() -> None:
    text = "g () => (float[2,2] Y)\n<float[2,2] W = {1.0, 2.0, 3.0}>\n{\n   Y = Identity(W)\n}\n"
    (err,) = check(text, Expected("L008", 2, 17, "expected 4 values for shape [2, 2]"), strict=True)
    assert "got 3" in err.message


def test_tensor_value_count_in_attribute() -> None:
    text = "Y = Constant <value = int64[3] {1, 2}> ()"
    check(text, Expected("L008", 1, 32, "expected 3 values"), kind="node", strict=True)


def test_int8_out_of_range_is_a_warning() -> None:
    text = "g () => (int8[2] Y)\n<int8[2] W = {300, 1}>\n{\n   Y = Identity(W)\n}\n"
    (err,) = check(text, Expected("L008", 2, 15, "300 is out of range for int8"), strict=True)
    assert "-128" in err.message and "127" in err.message
    assert err.span is not None and err.span.end.column == 18


def test_int8_out_of_range_is_stored_as_onnx_parser_does() -> None:
    """onnx.parser stores 300 in int32_data silently; onnxtext the same, with a warning."""
    onnx_parser = pytest.importorskip("onnx.parser")
    text = "g () => (int8[2] Y) <int8[2] W = {300, 1}> { Y = Identity(W) }"
    graph = onnx_parser.parse_graph(text)
    assert list(graph.initializer[0].int32_data) == [300, 1]
    assert onnxtext.parse_graph(text).SerializeToString() == graph.SerializeToString()


def test_negative_int8_out_of_range() -> None:
    check(
        "g () => () <int8[2] W = {1, -129}> {}", Expected("L008", 1, 29, "-129 is out of range for int8"), strict=True
    )


def test_unknown_attribute_type_annotation() -> None:
    text = "g (float X) => (float Y)\n{\n   Y = Foo <a: intz = 1> (X)\n}\n"
    (err,) = check(text, Expected("L003", 3, 16, "unknown attribute type 'intz'"))
    assert "did you mean 'int'" in err.message


def test_empty_list_without_annotation() -> None:
    text = "g (float X) => (float Y)\n{\n   Y = Foo <a = []> (X)\n}\n"
    (err,) = check(text, Expected("L003", 3, 17, "empty list needs a type annotation"))
    assert "ints" in err.message


def test_annotation_that_does_not_match_the_value() -> None:
    check(
        "Y = Foo <a: int = 1.5> (X)",
        Expected("L003", 1, 19, "the value is float but the attribute is declared int"),
        kind="node",
    )


def test_mixed_list() -> None:
    check('Y = Foo <a = [1, "x"]> (X)', Expected("L003", 1, 14, "must all be of one type"), kind="node")


def test_semantic_errors_of_one_text_are_all_reported_in_order() -> None:
    text = '<produser_name: "x">\ng (flot X) => (float Y)\n<int8[1] W = {3000000000}>\n{\n   Y = Foo <a = []> (X)\n}\n'
    check(
        text,
        Expected("L010", 1, 2, "produser_name"),
        Expected("L001", 2, 4, "flot"),
        Expected("L002", 3, 15, "300"),
        Expected("L003", 5, 17, "empty list"),
    )


def test_syntax_and_lexical_errors_together() -> None:
    text = "g (float X) => (float Y)\n{\n   A = Relu(X) $\n   Y = Add(A A)\n}\n"
    check(text, Expected("P002", 3, 16, "'$'"), Expected("P001", 4, 14, "found name 'A'"))


# ---------------------------------------------------------------- rendering


def test_render_diagnostic_like_a_compiler() -> None:
    text = "g (float T, float X) => (float Y)\n{\n   Y = Add(T X)\n}\n"
    (err,) = errors_of(text, path="model.onnxtxt")
    rendered = render_diagnostic(err)
    head, source, caret = rendered.splitlines()[:3]
    assert head == "model.onnxtxt:3:14: error[P001]: expected ',' or ')', found name 'X'"
    assert source == "    3 |    Y = Add(T X)"
    gutter = len("    3 | ")
    assert caret.index("^") == gutter + 14 - 1
    assert source[caret.index("^")] == "X"
    assert caret.strip() == "^"
    assert str(err) == head  # str() is the first line only


def test_render_underlines_the_whole_token() -> None:
    text = "g (flot[2] X) => (float Y)\n{\n   Y = Relu(X)\n}\n"
    (err,) = errors_of(text, path="m.onnxtxt")
    head, source, caret = render_diagnostic(err).splitlines()[:3]
    assert head.startswith("m.onnxtxt:1:4: error[L001]: unknown element type 'flot'")
    start = caret.index("^")
    assert caret[start:].rstrip() == "^~~~"
    assert source[start : start + 4] == "flot"


def test_render_caret_under_the_column_after_a_tab() -> None:
    text = "g (float X) => (float Y)\n{\n\tY = Add(X X)\n}\n"
    (err,) = errors_of(text)
    assert where(err) == ("P001", 3, 12)
    _, source, caret = render_diagnostic(err).splitlines()[:3]
    assert source[caret.index("^")] == "X"


def test_render_error_at_end_of_text() -> None:
    (err,) = errors_of("g () => () {", path="e.onnxtxt")
    head, source, caret = render_diagnostic(err).splitlines()[:3]
    assert head.startswith("e.onnxtxt:1:13: error[P001]: ")
    assert caret.index("^") == len("    1 | ") + 12


def test_render_warning() -> None:
    doc = onnxtext.parse_document('Y = Foo <s = "\\q"> (X)', "node", "w.onnxtxt")
    (warning,) = doc.diagnostics
    assert render_diagnostic(warning).startswith("w.onnxtxt:1:15: warning[P004]: unknown escape sequence")


def test_every_rendered_diagnostic_names_the_path() -> None:
    text = '<produser_name: "x">\ng (flot X) => (float Y) { Y = Foo <a = []> (X) }'
    for d in errors_of(text, path="dir/file.onnxtxt"):
        assert render_diagnostic(d).startswith(
            f"dir/file.onnxtxt:{d.span.start.line}:{d.span.start.column}: error[{d.code}]: "
        )


# ---------------------------------------------------------------- known bugs


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "g (float X) => (float Y)\n{\n  A = Add(X X)\n  B = Relu(A))\n  C = Relu(B)\n  E = = Relu(C)\n}\n",
            [("P001", 3, 13), ("P001", 4, 14), ("P001", 6, 7)],
        ),
        ("g (float X) => (float Y) { A = Add(X X)\n B = Add(X X) }", [("P001", 1, 38), ("P001", 2, 12)]),
    ],
)
def test_errors_after_an_unbalanced_line_are_reported(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert [where(d) for d in errors_of(text)] == expected


def test_typed_reference_to_a_list_attribute() -> None:
    text = '<domain: "local", opset_import: ["": 18]> F <axes> (x) => (y) { y = ReduceSum <axes: ints = @axes> (x) }'
    function = onnxtext.parse_function(text)
    attr = function.node[0].attribute[0]
    assert (attr.name, attr.ref_attr_name, attr.type) == ("axes", "axes", 7)  # INTS
    onnx_parser = pytest.importorskip("onnx.parser")
    assert function.SerializeToString(deterministic=True) == onnx_parser.parse_function(text).SerializeToString(
        deterministic=True
    )


def test_raw_default_does_not_apply_to_string_tensors() -> None:
    text = (
        '<ir_version: 10, opset_import: ["": 21], tensor_encoding: raw>\n'
        'g () => () <float[1] a = {1.0}, string[1] s = {"x"}> {}'
    )
    model = onnxtext.parse_model(text)
    assert model.graph.initializer[0].HasField("raw_data")
    assert list(model.graph.initializer[1].string_data) == [b"x"]


def test_tensor_name_default() -> None:
    """``tensor_name: unset``: a tensor literal written without a name leaves ``name`` unset; a
    written name (``""`` too) is set. Only ``unset`` and ``set`` are values."""
    body = (
        "g () => (a, b, c)\n{\n   a = Constant <value = float[1] {1}> ()\n"
        '   b = Constant <value = float[1] "" {1}> ()\n'
        "   c = Constant <value = float[1] w {1}> ()\n}\n"
    )
    head = '<ir_version: 10, opset_import: ["": 21], tensor_name: unset>\n'
    tensors = [n.attribute[0].t for n in onnxtext.parse_model(head + body).graph.node]
    assert [(t.HasField("name"), t.name) for t in tensors] == [(False, ""), (True, ""), (True, "w")]
    tensors = [n.attribute[0].t for n in onnxtext.parse_model(head.replace("unset", "set") + body).graph.node]
    assert [(t.HasField("name"), t.name) for t in tensors] == [(True, ""), (True, ""), (True, "w")]
    (d,) = errors_of(head.replace("unset", "maybe") + body)
    assert where(d) == ("L005", 1, 55) and "'tensor_name' takes 'unset' or 'set'" in d.message


@pytest.mark.parametrize(
    "text, first",
    [
        # A missing ')' is reported where it is missing, at the end of line 3.
        ("g (float X) => (float Y)\n{\n  A = Relu(X\n  B = Relu(A)\n  Y = Add(B B)\n}\n", ("P001", 3, 13)),
        # A stray name at the end of line 3 starts a statement that never gets its '=': reported
        # there too, not on the intact statement of line 4.
        ("g (float X) => (float Y)\n{\n  A = Relu(X) Relu\n  B = Relu(A)\n  Y = Add(B B)\n}\n", ("P001", 3, 19)),
    ],
)
def test_no_cascade_after_an_error_at_the_end_of_a_line(text: str, first: tuple[str, int, int]) -> None:
    assert [where(d) for d in errors_of(text)] == [first, ("P001", 5, 13)]


@pytest.mark.parametrize("seed", range(4))
def test_closest_and_close_matches_are_difflibs_choice(seed: int) -> None:
    """``close_matches`` (``closest``'s first, and surgery's "the nearest: ...") leaves out first the
    choices difflib would refuse on a bound: what remains gives difflib's answer over all of them, at
    any count and cutoff (names, non-ASCII, empty words and duplicates among them)."""
    import difflib
    import random

    from onnxtext.diagnostics import close_matches, closest

    rng = random.Random(seed)
    alphabet = "abcXY01_.é"

    def word() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 7)))

    for _ in range(1000):
        choices = [word() for _ in range(rng.randint(0, 30))]
        typed, n, cutoff = word(), rng.randint(1, 4), rng.choice([0.3, 0.5, 0.6, 0.8])
        expected = difflib.get_close_matches(typed, sorted(set(choices)), n=1, cutoff=0.6)
        assert closest(typed, choices) == (expected[0] if expected else None), (typed, choices)
        expected = difflib.get_close_matches(typed, sorted(set(choices)), n=n, cutoff=cutoff)
        assert close_matches(typed, choices, n, cutoff) == expected, (typed, choices, n, cutoff)
    names = [f"X{i}" for i in range(3000)]
    assert closest("Q1500", names) == "X1500"


def test_fixes_together_leaves_out_a_fix_that_meets_one_taken() -> None:
    from onnxtext.diagnostics import Edit, Fix, fixes_together
    from onnxtext.span import Span

    def fixing(*spans: tuple[int, int]) -> Diagnostic:
        return Diagnostic("E704", Severity.ERROR, "m", fix=Fix("f", tuple(Edit(Span(a, b), "x") for a, b in spans)))

    made = fixes_together([fixing((10, 12)), fixing((0, 2), (20, 22)), fixing((11, 15)), fixing((30, 31))])
    assert made is not None
    count, edits = made
    assert count == 3 and [(e.span.start, e.span.end) for e in edits] == [(0, 2), (10, 12), (20, 22), (30, 31)]
    assert fixes_together([fixing((0, 1))]) is None
    assert fixes_together([fixing((0, 5)), fixing((2, 3))]) is None  # one fix left: nothing to do at once
