"""Model rules: E101-E105, W101-W104."""

from __future__ import annotations

from checkutil import VALID, diagnostics, located

from onnxtext.diagnostics import Severity

GRAPH = "g (float[2] x) => (float[2] y) { y = Relu(x) }"


def test_valid_model_has_no_diagnostics() -> None:
    assert located(VALID) == []


def test_e101_missing_ir_version() -> None:
    text = f'<opset_import: ["" : 21]>\n{GRAPH}\n'
    assert located(text, "E101") == [("E101", 1, 1)]


def test_e101_no_header_at_all() -> None:
    assert located(f"{GRAPH}\n", "E101") == [("E101", 1, 1)]


def test_e102_unknown_ir_version() -> None:
    text = f'<opset_import: ["" : 21], ir_version: 99>\n{GRAPH}\n'
    assert located(text, "E102") == [("E102", 1, 27)]
    assert located(f'<ir_version: 14, opset_import: ["" : 21]>\n{GRAPH}\n', "E102") == []


def test_e103_no_opset_import() -> None:
    assert located(f"<ir_version: 10>\n{GRAPH}\n", "E103") == [("E103", 1, 1)]
    assert located(f"<ir_version: 10, opset_import: []>\n{GRAPH}\n", "E103") == [("E103", 1, 18)]


def test_e103_not_needed_before_ir3() -> None:
    assert located(f"<ir_version: 2>\n{GRAPH}\n", "E103") == []


def test_w106_domain_imported_with_two_versions() -> None:
    """onnx.checker and onnxruntime accept it and take the last import: a warning, not an error."""
    text = f'<ir_version: 10, opset_import: ["" : 21, "ai.onnx" : 20]>\n{GRAPH}\n'
    diags = diagnostics(text, "W106")
    assert [(d.code, d.span.start.line, d.span.start.column) for d in diags if d.span] == [("W106", 1, 42)]
    assert diags[0].related and diags[0].related[0].span.start.column == 33  # type: ignore[union-attr]
    assert located(text, "E") == []
    assert diags[0].fix is not None
    assert diags[0].fix.apply(text) == f'<ir_version: 10, opset_import: ["ai.onnx" : 20]>\n{GRAPH}\n'


def test_w106_message_names_both_versions() -> None:
    text = f'<ir_version: 10, opset_import: ["" : 21, "ai.onnx" : 20]>\n{GRAPH}\n'
    assert diagnostics(text, "W106")[0].message == (
        "operator-set domain ai.onnx is imported twice, as version 21 and as version 20; "
        "onnx.checker and onnxruntime take the last (20): import each domain once"
    )


def test_the_last_import_of_a_domain_counts() -> None:
    """ReduceMax takes its axes as an input from opset 18: with 13 then 18 imported, onnx.checker
    and onnxruntime read the node as ReduceMax-18 (and refuse it with 18 then 13), so do we."""
    body = (
        "g (float[2, 3] x) => (float[2] y) {\n"
        "  a = Constant <value_ints = [1]> ()\n  y = ReduceMax <keepdims = 0> (x, a)\n}\n"
    )
    last = '<ir_version: 10, opset_import: ["" : 13, "" : 18]>\n' + body
    assert [d.code for d in diagnostics(last) if str(d.severity) == "error"] == []
    first = '<ir_version: 10, opset_import: ["" : 18, "" : 13]>\n' + body
    assert "E303" in [d.code for d in diagnostics(first)]


def test_e104_same_version_twice_is_w105_not_an_error() -> None:
    # skl2onnx 1.20 writes the default domain twice with one version; onnx.checker and onnxruntime accept it
    text = f'<ir_version: 10, opset_import: ["" : 21, "" : 21]>\n{GRAPH}\n'
    assert located(text, "W106") == []
    diags = diagnostics(text, "W105")
    assert [(d.code, d.span.start.line, d.span.start.column) for d in diags if d.span] == [("W105", 1, 42)]
    assert diags[0].severity is Severity.WARNING
    assert diags[0].related and diags[0].related[0].span.start.column == 33  # type: ignore[union-attr]
    fixed = diags[0].fix.apply(text)  # type: ignore[union-attr]
    assert fixed.startswith('<ir_version: 10, opset_import: ["" : 21]>\n')
    assert located(fixed, "W105") == []


def test_w105_three_times_and_distinct_domains() -> None:
    text = f'<ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 5, "" : 21, "ai.onnx" : 21]>\n{GRAPH}\n'
    assert [c for c, _, _ in located(text, "W105")] == ["W105", "W105"]
    assert located(f'<ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 5]>\n{GRAPH}\n', "W105") == []


def test_w105_in_a_function() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21, "local" : 1]>\n'
        "g (float[2] x) => (float[2] y) { y = local.f(x) }\n"
        '<domain: "local", opset_import: ["" : 21, "" : 21]>\n'
        "f (a) => (b) { b = Relu(a) }\n"
    )
    assert [(c, line) for c, line, _ in located(text, "W105")] == [("W105", 3)]


def test_e104_distinct_domains_ok() -> None:
    assert located(f'<ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 5]>\n{GRAPH}\n', "W106") == []


def test_e105_duplicate_metadata_key() -> None:
    text = (
        '<ir_version: 10, opset_import: ["" : 21],\n'
        ' metadata_props: ["author": "a", "license": "MIT", "author": "b"]>\n'
        f"{GRAPH}\n"
    )
    assert located(text, "E105") == [("E105", 2, 52)]
    ok = '<ir_version: 10, opset_import: ["" : 21], metadata_props: ["author": "a"]>\n' + GRAPH
    assert located(ok, "E105") == []


def test_w101_ir_older_than_opset() -> None:
    text = f'<ir_version: 3, opset_import: ["" : 9]>\n{GRAPH}\n'
    diags = diagnostics(text, "W101")
    assert [(d.code, d.severity) for d in diags] == [("W101", Severity.WARNING)]
    assert located(text, "W101") == [("W101", 1, 32)]
    assert "IR version 4" in diags[0].message


def test_w101_ir_matches_opset() -> None:
    assert located(f'<ir_version: 3, opset_import: ["" : 8]>\n{GRAPH}\n', "W101") == []
    assert located(f'<ir_version: 10, opset_import: ["" : 21]>\n{GRAPH}\n', "W101") == []
    assert located(f'<ir_version: 9, opset_import: ["" : 21]>\n{GRAPH}\n', "W101") == [("W101", 1, 32)]


def test_w102_negative_model_version() -> None:
    text = f'<ir_version: 10, opset_import: ["" : 21], model_version: -1>\n{GRAPH}\n'
    assert located(text, "W102") == [("W102", 1, 43)]
    assert located(text.replace("-1", "3"), "W102") == []


def test_w103_domain_not_reverse_dns() -> None:
    text = f'<ir_version: 10, opset_import: ["" : 21], domain: "my models">\n{GRAPH}\n'
    assert located(text, "W103") == [("W103", 1, 43)]
    assert located(text.replace("my models", "com.example.models"), "W103") == []


def test_w104_opset_newer_than_known() -> None:
    text = f'<ir_version: 10, opset_import: ["" : 99]>\n{GRAPH}\n'
    assert located(text, "W104") == [("W104", 1, 33)]
    assert located(VALID, "W104") == []
